//! Game-playing engines behind one trait.
//!
//! Engines are plain library code: they never touch the terminal or the
//! scheduler. A search gives time back through [`Budget::tick`], which the
//! live screen implements by suspending the calling coroutine.

pub(crate) mod accuracy;
pub(crate) mod big;
pub(crate) mod games;
mod kinds;
mod mcts;
mod negamax;
pub(crate) mod ntuple;
pub(crate) mod openings;
pub(crate) mod playout;
mod random;
pub(crate) mod rl;
pub(crate) mod score;
pub(crate) mod solver;

use std::time::{Duration, Instant};

pub use kinds::{BuiltIn, EngineKind, Entry, Recipe};
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
    /// The most time this move may take in all, when whoever runs the
    /// search knows it (a brain's manager's limit, an arena clock): an
    /// engine sizes every part of its search to it, its threat searches
    /// included, not only the part that ticks.
    fn allotted(&self) -> Option<Duration> {
        None
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

/// How long an engine may think on each move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ThinkLimit {
    /// MCTS: this many iterations; Negamax: a full solve.
    Default { mcts_iterations: u32 },
    /// Every engine: this much thinking time per move.
    Millis(u64),
}

impl ThinkLimit {
    /// The limit that a time per move or a number of MCTS iterations
    /// names (the time first, as the command line ranks them); `None`
    /// when neither is given, and the caller's default stands: the one
    /// place this rule is written.
    pub fn from_parts(think_ms: Option<u64>, mcts_iterations: Option<u32>) -> Option<ThinkLimit> {
        match (think_ms, mcts_iterations) {
            (Some(ms), _) => Some(ThinkLimit::Millis(ms)),
            (None, Some(mcts_iterations)) => Some(ThinkLimit::Default { mcts_iterations }),
            (None, None) => None,
        }
    }

    /// The other way: (time per move, MCTS iterations), as settings keep it.
    pub fn parts(self) -> (Option<u64>, Option<u32>) {
        match self {
            ThinkLimit::Millis(ms) => (Some(ms), None),
            ThinkLimit::Default { mcts_iterations } => (None, Some(mcts_iterations)),
        }
    }
}

impl Default for ThinkLimit {
    fn default() -> Self {
        ThinkLimit::Default {
            mcts_iterations: mcts::DEFAULT_ITERATIONS,
        }
    }
}

/// Builds an engine for `rules`, seeded for reproducible play.
pub fn make_engine(kind: BuiltIn, rules: Rules, limit: ThinkLimit, seed: u64) -> Box<dyn Engine> {
    make_engine_with(kind, rules, limit, seed, None)
}

/// As [`make_engine`]; a learning player uses (and learns into) `table`,
/// or a fresh table of its own when there is none. Each kind's factory is
/// in its file of [`kinds`]. (Outside brains are made by the program,
/// which knows their command.)
pub fn make_engine_with(
    kind: BuiltIn,
    rules: Rules,
    limit: ThinkLimit,
    seed: u64,
    table: Option<&rl::SharedTable>,
) -> Box<dyn Engine> {
    kind.make(&Recipe {
        rules,
        limit,
        seed,
        table,
    })
}

/// Negamax above 8x8 evaluating with the learner's line patterns
/// (`LinePatterns::window_values`).
pub fn make_learned_negamax(
    rules: Rules,
    limit: ThinkLimit,
    seed: u64,
    window_values: [Vec<i32>; 2],
) -> Box<dyn Engine> {
    let mut n = big::BigNegamax::new(rules)
        .with_seed(seed)
        .with_window_values(window_values);
    if let ThinkLimit::Millis(ms) = limit {
        n.set_time_limit(Duration::from_millis(ms));
    }
    Box::new(n)
}

pub(crate) fn mcts_limit(limit: ThinkLimit) -> mcts::Limit {
    match limit {
        ThinkLimit::Default { mcts_iterations } => mcts::Limit::Iterations(mcts_iterations),
        ThinkLimit::Millis(ms) => mcts::Limit::Time(Duration::from_millis(ms)),
    }
}

pub use mcts::Limit as MctsLimit;

#[cfg(test)]
mod tests {
    use super::ThinkLimit;

    #[test]
    fn a_time_outranks_iterations_and_the_parts_come_back() {
        assert_eq!(
            ThinkLimit::from_parts(Some(5), Some(9)),
            Some(ThinkLimit::Millis(5))
        );
        let iterations = ThinkLimit::Default { mcts_iterations: 9 };
        assert_eq!(ThinkLimit::from_parts(None, Some(9)), Some(iterations));
        assert_eq!(ThinkLimit::from_parts(None, None), None);
        for limit in [ThinkLimit::Millis(7), iterations] {
            let (ms, its) = limit.parts();
            assert_eq!(ThinkLimit::from_parts(ms, its), Some(limit));
        }
    }
}
