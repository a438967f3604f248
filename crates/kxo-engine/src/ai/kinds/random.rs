//! Random: a legal move at random (the baseline every engine must beat).

use super::{Entry, Recipe};
use crate::ai::{Engine, RandomPlayer};

pub(super) const ENTRY: Entry = Entry {
    name: "random",
    aliases: &["rand"],
    label: "RAND",
    work_unit: "nodes/s",
    make,
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    Box::new(RandomPlayer::new(recipe.seed))
}
