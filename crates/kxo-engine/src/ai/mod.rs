//! Game-playing engines behind one trait.
//!
//! Engines are plain library code: they never touch the terminal or the
//! scheduler. A search gives time back through [`Budget::tick`], which the
//! live screen implements by suspending the calling coroutine.

pub(crate) mod accuracy;
pub(crate) mod big;
pub(crate) mod games;
mod kinds;
mod limit;
mod mcts;
mod negamax;
pub(crate) mod ntuple;
pub(crate) mod openings;
pub(crate) mod playout;
mod random;
pub(crate) mod rl;
pub(crate) mod score;
pub(crate) mod solver;
pub(crate) mod uct;

use std::time::{Duration, Instant};

pub use kinds::{BuiltIn, EngineKind, EngineOption, Entry, MakeGo, OptionValues, Options, Recipe};
pub use limit::{Limit, MoveBudget};
pub use mcts::Mcts;
pub use negamax::{Analysis, Negamax};
pub use random::RandomPlayer;
pub use score::Value;

use crate::game::{Cell, GameRecord, Player, Position, Rules};

/// How a search gives time back to whoever runs it.
pub trait Budget {
    /// Called every few hundred nodes or iterations. It may suspend the
    /// caller (the live screen's seats do). Returns `false` when the search
    /// must stop now and answer with the best it has.
    fn tick(&mut self) -> bool;
    /// Time this search has spent thinking so far (time suspended excluded).
    fn elapsed(&self) -> Duration;
    /// Progress for whoever watches: called by a search now and then (at
    /// least once per completed iteration). Fields left `None` keep the
    /// value an earlier report gave. Headless budgets ignore it.
    fn report(&mut self, _info: &SearchInfo) {}
    /// The move's limit, as the run resolved it ([`Limit`]): a time, which
    /// `tick` stops the search at (an engine sizes every part of its
    /// search to it, its threat searches included); or a count of work,
    /// which the engine counts.
    fn limit(&self) -> Limit {
        Limit::Whole
    }
}

/// How good a search thinks its best move is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Estimate {
    /// MCTS: the mean reward of the move for the side to move, 0 to 1.
    WinRate(f32),
    /// Negamax: a proven value, or a heuristic score (`Value::Unknown`).
    Value(Value),
}

/// A search's progress, as the live screen shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchInfo {
    /// Iterations (MCTS) or nodes (Negamax) searched for this move so far.
    pub work: u64,
    /// Depth of the last completed iteration (Negamax).
    pub depth: Option<u32>,
    /// The move it would play now.
    pub best: Option<Cell>,
    pub estimate: Option<Estimate>,
    /// The search has proved its result and stops early.
    pub proved: bool,
    /// A forced win by threats it found (boards above 8x8).
    pub threat: Option<Threat>,
}

/// The kind of a forced win by threats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatKind {
    /// Victory by continuous fours.
    Vcf,
    /// Victory by continuous threats: fours and threes.
    Vct,
}

/// A forced win by threats: its kind, its length in plies, and its first
/// moves (the attacker's and the forced replies; a VCT's first move only,
/// since its replies branch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threat {
    pub kind: ThreatKind,
    pub plies: u32,
    line: [u16; Threat::SHOWN],
    len: u8,
}

impl Threat {
    /// Moves of the line kept to show.
    pub const SHOWN: usize = 12;

    pub fn new(kind: ThreatKind, plies: u32, line: &[usize]) -> Threat {
        let mut kept = [0; Threat::SHOWN];
        let len = line.len().min(Threat::SHOWN);
        for (k, &c) in kept.iter_mut().zip(&line[..len]) {
            *k = c as u16;
        }
        Threat {
            kind,
            plies,
            line: kept,
            len: len as u8,
        }
    }

    /// Its first moves, in order.
    pub fn line(&self) -> impl Iterator<Item = Cell> + '_ {
        self.line[..self.len as usize]
            .iter()
            .map(|&c| Cell::from_index(c as usize))
    }

    /// "VCF in 7".
    pub fn title(&self) -> String {
        let kind = match self.kind {
            ThreatKind::Vcf => "VCF",
            ThreatKind::Vct => "VCT",
        };
        format!("{kind} in {}", self.plies)
    }
}

/// The budget of headless runs, tests and benchmarks: never interrupts.
pub struct Unlimited {
    start: Instant,
}

impl Unlimited {
    pub fn new() -> Unlimited {
        Unlimited {
            start: Instant::now(),
        }
    }
}

impl Default for Unlimited {
    fn default() -> Self {
        Unlimited::new()
    }
}

impl Budget for Unlimited {
    fn tick(&mut self) -> bool {
        true
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A game-playing engine.
pub trait Engine {
    /// Short label for the screen, e.g. "MCTS".
    fn label(&self) -> std::borrow::Cow<'static, str>;
    /// Picks a move in `pos`, which must not be over.
    fn choose(&mut self, pos: &Position, budget: &mut dyn Budget) -> Cell;
    /// Told when a game it played in has ended (the learning player learns
    /// here); `me` is the side it played.
    fn game_over(&mut self, _record: &GameRecord, _me: Player) {}
    /// The most memory its tree or table may take from now on (engines
    /// with a fixed, small footprint ignore it).
    fn set_memory_limit(&mut self, _bytes: usize) {}
}

/// A move of Go: a stone, a pass, or resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMove {
    Play(Cell),
    Pass,
    Resign,
}

/// An engine of Go ([`crate::go`]): the same budget as every engine, a
/// move, a pass or resignation.
pub trait GoEngine {
    /// Short label for the screen, e.g. "MCTS".
    fn label(&self) -> std::borrow::Cow<'static, str>;
    /// Its move in `pos`, which must not be over.
    fn choose(&mut self, pos: &crate::go::GoPosition, budget: &mut dyn Budget) -> GoMove;
    /// The most memory its tree may take from now on.
    fn set_memory_limit(&mut self, _bytes: usize) {}
}

/// Builds an engine of `kind` for `rules` with its default options,
/// seeded for reproducible play; it thinks as long as each move's budget
/// says ([`Budget::limit`]).
pub fn make_engine(kind: BuiltIn, rules: Rules, seed: u64) -> Box<dyn Engine> {
    kind.make(&Recipe::new(rules, seed))
}
