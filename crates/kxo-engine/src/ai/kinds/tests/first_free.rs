//! First free: the first empty cell in reading order. A kind that exists
//! only to show that one file and one line make a kind.

use super::{Entry, Recipe};
use crate::ai::{Budget, Engine};
use crate::game::{Cell, Position};

pub(super) const ENTRY: Entry = Entry {
    name: "firstfree",
    aliases: &["first"],
    label: "1ST",
    work_unit: "nodes/s",
    options: &[],
    default_limit: |_| crate::ai::Limit::Whole,
    make,
    make_go: None,
};

fn make(_recipe: &Recipe) -> Box<dyn Engine> {
    Box::new(FirstFree)
}

struct FirstFree;

impl Engine for FirstFree {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "1ST".into()
    }

    fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
        pos.legal_moves().next().expect("a game that is not over has an empty cell")
    }
}
