//! RL: the learning player, a value table learned by temporal differences
//! on small boards and line patterns on Gomoku boards (`ai::rl`,
//! `ai::big::learner`).

use std::cell::RefCell;
use std::rc::Rc;

use super::{Entry, Recipe};
use crate::ai::Limit;
use crate::ai::{Engine, big, rl};

pub(super) const ENTRY: Entry = Entry {
    name: "rl",
    aliases: &["td"],
    label: "RL",
    work_unit: "nodes/s",
    options: &[],
    default_limit: |_| Limit::Whole,
    make,
    make_go: None,
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    let rules = recipe.rules;
    let table = recipe
        .table
        .cloned()
        .unwrap_or_else(|| Rc::new(RefCell::new(rl::ValueTable::new(rules))));
    if rules.is_small() {
        Box::new(rl::RlPlayer::new(table, recipe.seed))
    } else {
        Box::new(big::BigRl::new(rules, table, recipe.seed))
    }
}
