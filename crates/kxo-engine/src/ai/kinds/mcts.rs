//! MCTS: Monte Carlo tree search with random playouts on small boards and
//! threat-aware playouts on Gomoku boards (`ai::mcts`, `ai::big::mcts`).

use super::{EngineOption, Entry, OptionValues, Recipe};
use crate::ai::{Engine, GoEngine, Limit, Mcts, big, mcts};
use crate::go::{GoMcts, Playouts};

pub(super) const ENTRY: Entry = Entry {
    name: "mcts",
    aliases: &["uct"],
    label: "MCTS",
    work_unit: "it/s",
    options: &[
        EngineOption {
            name: "iterations",
            aliases: &["nodes"],
            values: OptionValues::Number {
                min: 1,
                max: 100_000_000,
            },
            work: true,
        },
        // Go: MoGo's heavy playouts (the default) or light ones.
        EngineOption {
            name: "playouts",
            aliases: &[],
            values: OptionValues::Choice(&["heavy", "light"]),
            work: false,
        },
    ],
    default_limit: |_| Limit::Work(mcts::DEFAULT_ITERATIONS),
    make,
    make_go: Some(make_go),
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    if recipe.rules.is_small() {
        Box::new(Mcts::new(recipe.rules, recipe.seed))
    } else {
        Box::new(big::BigMcts::new(recipe.rules, recipe.seed))
    }
}

fn make_go(recipe: &Recipe) -> Box<dyn GoEngine> {
    let playouts = match recipe.options.is("playouts", "light") {
        true => Playouts::Light,
        false => Playouts::Heavy,
    };
    Box::new(GoMcts::new(recipe.seed, playouts))
}
