//! Game-playing engines behind one trait.
//!
//! Engines are plain library code: they never touch the terminal or the
//! scheduler. A search gives time back through [`Budget::tick`], which the
//! live screen implements by suspending the calling coroutine.

pub mod accuracy;
pub mod big;
pub mod games;
mod mcts;
mod negamax;
pub mod ntuple;
pub mod openings;
pub mod playout;
mod random;
pub mod rl;
mod score;
pub mod solver;

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

pub use mcts::Mcts;
pub use negamax::{Analysis, Negamax};
pub use random::RandomPlayer;
pub use score::Value;
pub use solver::Solver;

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

/// The engines built into kxo-tui: what [`make_engine`] can make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltIn {
    Random,
    Negamax,
    Mcts,
    /// The learning player (see [`rl`]).
    Rl,
}

impl BuiltIn {
    /// The kind the screen and the statistics count it as.
    pub fn kind(self) -> EngineKind {
        match self {
            BuiltIn::Random => EngineKind::Random,
            BuiltIn::Negamax => EngineKind::Negamax,
            BuiltIn::Mcts => EngineKind::Mcts,
            BuiltIn::Rl => EngineKind::Rl,
        }
    }
}

impl fmt::Display for BuiltIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().name())
    }
}

impl FromStr for BuiltIn {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let kind: EngineKind = s.parse()?;
        kind.built_in()
            .ok_or_else(|| "an outside brain needs its program: brain:PATH [ARGS]".into())
    }
}

/// The engines a user can name, as the screen and the statistics count
/// them: the built-in ones and outside brains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    Random,
    Negamax,
    Mcts,
    /// The learning player (see [`rl`]).
    Rl,
    /// An outside program speaking the Gomoku AI protocol
    /// (`brain:PATH [ARGS]`, see `protocol::outside`).
    Brain,
}

impl EngineKind {
    pub const COUNT: usize = 5;
    pub const ALL: [EngineKind; EngineKind::COUNT] = [
        EngineKind::Random,
        EngineKind::Negamax,
        EngineKind::Mcts,
        EngineKind::Rl,
        EngineKind::Brain,
    ];

    /// The built-in engine of this kind; `None` for an outside brain.
    pub fn built_in(self) -> Option<BuiltIn> {
        match self {
            EngineKind::Random => Some(BuiltIn::Random),
            EngineKind::Negamax => Some(BuiltIn::Negamax),
            EngineKind::Mcts => Some(BuiltIn::Mcts),
            EngineKind::Rl => Some(BuiltIn::Rl),
            EngineKind::Brain => None,
        }
    }

    /// Four-letter label for the screen: "MCTS", "NEGA", "RAND".
    pub fn label(self) -> &'static str {
        match self {
            EngineKind::Random => "RAND",
            EngineKind::Negamax => "NEGA",
            EngineKind::Mcts => "MCTS",
            EngineKind::Rl => "RL",
            EngineKind::Brain => "BRAIN",
        }
    }

    /// The built-in engines (the ones a random pairing picks from).
    pub fn playable() -> Vec<EngineKind> {
        EngineKind::ALL
            .into_iter()
            .filter(|&k| k != EngineKind::Brain)
            .collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Random => "random",
            EngineKind::Negamax => "negamax",
            EngineKind::Mcts => "mcts",
            EngineKind::Rl => "rl",
            EngineKind::Brain => "brain",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EngineKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "random" | "rand" => Ok(EngineKind::Random),
            "negamax" | "nega" => Ok(EngineKind::Negamax),
            "mcts" | "uct" => Ok(EngineKind::Mcts),
            "rl" | "td" => Ok(EngineKind::Rl),
            "brain" => Err("an outside brain needs its program: brain:PATH [ARGS]".into()),
            _ => Err(format!(
                "unknown engine '{}': choose one of random, negamax, mcts, rl, \
                 or brain:PATH [ARGS]",
                crate::text::shown(s)
            )),
        }
    }
}

/// How long an engine may think on each move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ThinkLimit {
    /// MCTS: this many iterations; Negamax: a full solve.
    Default { mcts_iterations: u32 },
    /// Every engine: this much thinking time per move.
    Millis(u64),
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
/// or a fresh table of its own when there is none. Boards above 8x8 get
/// the engines of [`big`].
/// (Outside brains are made where their command is known:
/// `tournament::EngineSpec::build`.)
pub fn make_engine_with(
    kind: BuiltIn,
    rules: Rules,
    limit: ThinkLimit,
    seed: u64,
    table: Option<&rl::SharedTable>,
) -> Box<dyn Engine> {
    if !rules.is_small() {
        match kind {
            BuiltIn::Negamax => {
                let mut n = big::BigNegamax::new(rules).with_seed(seed);
                if let ThinkLimit::Millis(ms) = limit {
                    n.set_time_limit(Duration::from_millis(ms));
                }
                return Box::new(n);
            }
            BuiltIn::Mcts => return Box::new(big::BigMcts::new(rules, mcts_limit(limit), seed)),
            BuiltIn::Rl => return Box::new(big::BigRl::new(rules, rl_table(rules, table), seed)),
            BuiltIn::Random => {}
        }
    }
    match kind {
        BuiltIn::Rl => Box::new(rl::RlPlayer::new(rl_table(rules, table), seed)),
        BuiltIn::Random => Box::new(RandomPlayer::new(seed)),
        BuiltIn::Negamax => {
            let mut n = Negamax::new(rules);
            if let ThinkLimit::Millis(ms) = limit {
                n.set_time_limit(Some(Duration::from_millis(ms)));
            }
            Box::new(n)
        }
        BuiltIn::Mcts => Box::new(Mcts::new(rules, mcts_limit(limit), seed)),
    }
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

/// `table`, or a fresh one of `rules`.
fn rl_table(rules: Rules, table: Option<&rl::SharedTable>) -> rl::SharedTable {
    table
        .cloned()
        .unwrap_or_else(|| std::rc::Rc::new(std::cell::RefCell::new(rl::ValueTable::new(rules))))
}

fn mcts_limit(limit: ThinkLimit) -> mcts::Limit {
    match limit {
        ThinkLimit::Default { mcts_iterations } => mcts::Limit::Iterations(mcts_iterations),
        ThinkLimit::Millis(ms) => mcts::Limit::Time(Duration::from_millis(ms)),
    }
}

pub use mcts::Limit as MctsLimit;
