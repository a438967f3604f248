//! Random: a legal move at random (the baseline every engine must beat).

use super::{Entry, Recipe};
use crate::ai::Limit;
use crate::ai::{Engine, GoEngine, RandomPlayer};

pub(super) const ENTRY: Entry = Entry {
    name: "random",
    aliases: &["rand"],
    label: "RAND",
    work_unit: "nodes/s",
    options: &[],
    default_limit: |_| Limit::Whole,
    make,
    make_go: Some(make_go),
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    Box::new(RandomPlayer::new(recipe.seed))
}

fn make_go(recipe: &Recipe) -> Box<dyn GoEngine> {
    Box::new(RandomPlayer::new(recipe.seed))
}
