//! MCTS: Monte Carlo tree search with random playouts on small boards and
//! threat-aware playouts on Gomoku boards (`ai::mcts`, `ai::big::mcts`).

use super::{Entry, Recipe};
use crate::ai::{Engine, Mcts, big, mcts_limit};

pub(super) const ENTRY: Entry = Entry {
    name: "mcts",
    aliases: &["uct"],
    label: "MCTS",
    work_unit: "it/s",
    make,
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    let limit = mcts_limit(recipe.limit);
    if recipe.rules.is_small() {
        Box::new(Mcts::new(recipe.rules, limit, recipe.seed))
    } else {
        Box::new(big::BigMcts::new(recipe.rules, limit, recipe.seed))
    }
}
