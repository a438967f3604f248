//! Negamax: the perfect solver on small boards, an alpha-beta search with
//! threat search on Gomoku boards (`ai::negamax`, `ai::big::negamax`).

use std::time::Duration;

use super::{Entry, Recipe};
use crate::ai::{Engine, Negamax, ThinkLimit, big};

pub(super) const ENTRY: Entry = Entry {
    name: "negamax",
    aliases: &["nega"],
    label: "NEGA",
    work_unit: "nodes/s",
    make,
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    let clock = match recipe.limit {
        ThinkLimit::Millis(ms) => Some(Duration::from_millis(ms)),
        ThinkLimit::Default { .. } => None,
    };
    if recipe.rules.is_small() {
        let mut engine = Negamax::new(recipe.rules);
        engine.set_time_limit(clock);
        Box::new(engine)
    } else {
        let mut engine = big::BigNegamax::new(recipe.rules).with_seed(recipe.seed);
        if let Some(clock) = clock {
            engine.set_time_limit(clock);
        }
        Box::new(engine)
    }
}
