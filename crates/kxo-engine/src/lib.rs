//! kxo-tui's rules and engines, as a library of their own: nothing here
//! knows of the terminal, the scheduler, the Gomoku AI protocol or the
//! command line, and Cargo holds that line (none of those crates is a
//! dependency).
//!
//! This file is the crate's whole face. The modules that do the work
//! (`game`, `ai`) are private; what the program may use is named here,
//! once, and `tests/api.rs` keeps a snapshot of it so that a change to
//! the face is seen in review.
//!
//! - At the top: the game's vocabulary (cells, players, positions, rules,
//!   records) and the engines' (the [`Engine`] trait, its [`Budget`], the
//!   kinds, their limits).
//! - [`learner`]: the learning player's table, its measures and yardstick.
//! - [`solver`]: the perfect player of the small boards and its proofs.
//! - [`gomoku`]: the engines of boards above 8x8 and the threat suite.
//! - [`openings`]: random openings that decide nothing at once.
//! - [`kernels`]: the inner loops, for benchmarks.
//! - [`text`]: outside text made safe to show; [`cpu`]: which kernels run.

// Items are as public as their users need: a `pub` item that no path
// from the crate root reaches is a warning.
#![warn(unreachable_pub)]

mod ai;
mod any;
pub mod cpu;
mod game;
pub mod go;
pub mod text;

pub use ai::games::{Tally, play_from, play_game};
pub use ai::{
    Analysis, Budget, BuiltIn, Engine, EngineKind, EngineOption, Entry, Estimate, GoEngine, GoMove,
    Limit, MakeGo, MoveBudget, Negamax, OptionValues, Options, RandomPlayer, Recipe, SearchInfo,
    Threat, ThreatKind, Unlimited, Value, make_engine,
};
pub use any::AnyPosition;
pub use game::{
    Bits, Cell, CoordError, GO_KOMI2, GO_MAX_SIZE, GO_MIN_SIZE, Game, GameRecord, MAX_GOAL,
    MAX_SIZE, MIN_SIZE, MoveError, Outcome, Player, Position, Rule, Rules, RulesError,
    SMALL_MAX_SIZE,
};

/// The learning player: its table of values (and the network or line
/// patterns of the larger boards), how close to perfect it plays, and the
/// yardstick it is measured by above 8x8.
pub mod learner {
    pub use crate::ai::accuracy::{
        Accuracy, Judge, MODEL_SAMPLE, SAMPLE_SEED, Skill, against_random, judged_in_passing,
        measure, model_accuracy, on_positions, sample_positions,
    };
    pub use crate::ai::big::patterns::LinePatterns;
    pub use crate::ai::big::yardstick::{
        Ticks, YARDSTICK_GAMES, YARDSTICK_NODES, YARDSTICK_TICKS, against_yardstick,
        play_yardstick, yardstick_game,
    };
    pub use crate::ai::ntuple::NTuple;
    pub use crate::ai::rl::{
        ALPHA, Init, MAX_TABLE_ENTRIES, RlPlayer, SharedTable, TRAINING_TIE, ValueTable,
    };
    pub use crate::ai::score::MAX_WEIGHT;
}

/// The perfect player of the small boards: its search, its lemmas, and
/// proofs that a side cannot win.
pub mod solver {
    pub use crate::ai::solver::proof::{Branch, End, NoProof, cannot_win, to_text};
    pub use crate::ai::solver::{
        DEFAULT_HASH_BYTES, Lemma, Progress, ProgressReport, Solver, Unsettled,
    };
}

/// The engines of the boards above 8x8 (Gomoku), and the threat suite.
pub mod gomoku {
    pub use crate::ai::big::suite::{SuitePosition, positions as suite_positions};
    pub use crate::ai::big::{BigMcts, BigNegamax, BigRl, ThreatSearch};
}

/// Random openings: a few stones, never a position already decided.
pub mod openings {
    pub use crate::ai::openings::{decided_at_once, random, stones};
}

/// The inner loops, for benchmarks and the speed tests: random playouts
/// and the small boards' MCTS.
pub mod kernels {
    pub use crate::ai::Mcts;
    pub use crate::ai::playout::{random_playout, random_playout_on};
}
