//! One game on the live screen, as the state holds it: its position and
//! record, its seats and their clocks, what its thinking seat considers.

use std::time::{Duration, Instant};

use kxo_engine::go::GoScore;
use kxo_engine::{AnyPosition, Bits, Cell, GameRecord, Outcome, Player};
use kxo_engine::{EngineKind, Limit, SearchInfo};

#[derive(Clone, Debug, PartialEq)]
pub enum GameStatus {
    Playing,
    /// Over; the game restarts at `restart_at` (in human mode it waits
    /// for the person instead).
    Over {
        restart_at: Option<Instant>,
    },
    /// A seat panicked; the message says why.
    Failed(String),
}

/// A seat's search in progress, as its board box shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Thinking {
    pub side: Player,
    pub engine: EngineKind,
    /// CPU time spent on this move so far.
    pub used: Duration,
    /// The move's clock; `None` when the budget is not time (iterations).
    pub clock: Option<Duration>,
    pub info: SearchInfo,
    /// The search is over; the move lands once `--delay` has passed.
    pub done: bool,
}

/// One game on the screen.
#[derive(Clone, Debug)]
pub struct GameView {
    /// Index from 0; the screen shows "Game-{index + 1}".
    pub index: usize,
    pub pos: AnyPosition,
    pub record: GameRecord,
    pub engines: [EngineKind; 2],
    /// The seats' names on screen: "MCTS", "pbrain-foo", a tournament
    /// engine's NAME.
    pub labels: [String; 2],
    /// The tournament game it plays, if it plays one.
    pub slot: Option<crate::tournament::Slot>,
    /// Each side's clock for this game, settled when it starts.
    pub limits: [Limit; 2],
    /// How many of the record's first moves are the opening's stones.
    pub opening: usize,
    /// Each move's thinking time (CPU), as its seat last reported it; 0 for
    /// the opening's stones and a person's moves.
    pub move_cpu: Vec<Duration>,
    pub last_move: Option<Cell>,
    pub status: GameStatus,
    /// Bumped at every restart, so a seat never plays into a newer game.
    pub generation: u64,
    /// The previous game's seats (their labels) and result.
    pub previous: Option<([String; 2], Outcome)>,
    /// The first move waits until then (staggered starts).
    pub not_before: Instant,
    /// The seat to move, while it thinks.
    pub thinking: Option<Thinking>,
    /// The side that lost before the board decided (an outside brain that
    /// failed, or resignation), and how.
    pub forfeit: Option<(Player, Loss)>,
    /// The last MESSAGE line of an outside brain seat, and its side.
    pub brain_says: Option<(Player, String)>,
    /// Go: the stones marked dead at the end (the engine's marks, which the
    /// person may change in human mode); the count leaves them out.
    pub dead: Bits,
}

/// How a side lost before the board decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loss {
    /// An outside brain failed: why.
    Forfeit(String),
    /// It resigned (an engine of Go, or the person).
    Resigned,
    /// Its flag fell (human mode's `--tc`).
    Time,
}

impl Loss {
    /// What the side did, after its name: "forfeits: it crashed", "resigns".
    pub fn phrase(&self) -> String {
        match self {
            Loss::Forfeit(why) => format!("forfeits: {why}"),
            Loss::Resigned => "resigns".to_string(),
            Loss::Time => "loses on time".to_string(),
        }
    }
}

impl GameView {
    /// The result: the position's, or a win for the other side when one
    /// forfeited.
    pub fn outcome(&self) -> Outcome {
        match &self.forfeit {
            Some((loser, _)) => Outcome::Win(loser.other()),
            None => self.pos.outcome(),
        }
    }

    /// The stones marked dead, as cells.
    pub fn dead_stones(&self) -> Vec<Cell> {
        self.dead.iter().map(Cell::from_index).collect()
    }

    /// Go's count: the area of each side once the dead stones are off.
    pub fn go_count(&self) -> Option<GoScore> {
        let go = self.pos.go()?;
        // Drawn every frame: the board is rebuilt only when stones are off.
        Some(match self.dead.is_empty() {
            true => go.score(),
            false => go.score_without(&self.dead_stones()),
        })
    }
}
