//! Negamax: the perfect solver on small boards, an alpha-beta search with
//! threat search on Gomoku boards (`ai::negamax`, `ai::big::negamax`).

use super::{EngineOption, Entry, OptionValues, Recipe};
use crate::ai::{Engine, Limit, Negamax, big};

pub(super) const ENTRY: Entry = Entry {
    name: "negamax",
    aliases: &["nega"],
    label: "NEGA",
    work_unit: "nodes/s",
    options: &[EngineOption {
        // Above 8x8: the line count (`shapes`) or the learner's line
        // patterns (`learned`, read from its model by the program).
        name: "eval",
        aliases: &[],
        values: OptionValues::Choice(&["shapes", "learned"]),
        work: false,
    }],
    // A whole solve where it can read every game; half a second a move
    // where it cannot.
    default_limit: |rules| match rules.is_small() {
        true => Limit::Whole,
        false => Limit::Time(big::DEFAULT_TIME),
    },
    make,
    make_go: None,
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    if recipe.rules.is_small() {
        return Box::new(Negamax::new(recipe.rules));
    }
    let engine = big::BigNegamax::new(recipe.rules).with_seed(recipe.seed);
    match (recipe.options.is("eval", "learned"), recipe.window_values) {
        (true, Some(values)) => Box::new(engine.with_window_values(values.clone())),
        // The program gives a learned evaluation its model before the
        // first game (a spec refuses eval=learned where it has none).
        (true, None) => panic!("negamax:eval=learned was built without its model"),
        (false, _) => Box::new(engine),
    }
}
