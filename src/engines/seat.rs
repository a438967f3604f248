//! A seat's engine for one game, whichever kind plays: built in (of the
//! line games or of Go) or an outside program.

use crate::protocol::outside::PipeBudget;
use crate::protocol::{OutsideEngine, Reply};
use kxo_engine::{AnyPosition, Cell, Engine, GameRecord, GoEngine, GoMove, Player};

/// The engine in a seat for one game: built in, or an outside program,
/// which alone can fail (and forfeit), say things, and be told its clock.
pub enum SeatEngine {
    BuiltIn(Box<dyn Engine>),
    /// A built-in engine of Go.
    Go(Box<dyn GoEngine>),
    Outside(Box<dyn OutsideEngine>),
}

/// A seat's answer: a move (in Go a pass too), or resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Move(Cell),
    Resign,
}

impl SeatEngine {
    /// Its answer in `pos`; `Err(reason)` when an outside brain crashed,
    /// cheated or ran out of time, and so forfeits the game (or, by a
    /// fault of the program's, when the engine is of the other family).
    pub fn choose(
        &mut self,
        pos: &AnyPosition,
        budget: &mut dyn PipeBudget,
    ) -> Result<Choice, String> {
        match (self, pos) {
            (SeatEngine::BuiltIn(engine), AnyPosition::Mnk(p)) => {
                Ok(Choice::Move(engine.choose(p, budget)))
            }
            (SeatEngine::Go(engine), AnyPosition::Go(g)) => Ok(match engine.choose(g, budget) {
                GoMove::Play(cell) => Choice::Move(cell),
                GoMove::Pass => Choice::Move(Cell::PASS),
                GoMove::Resign => Choice::Resign,
            }),
            (SeatEngine::Outside(outside), pos) => Ok(match outside.choose(pos, budget)? {
                Reply::Move(cell) => Choice::Move(cell),
                Reply::Resign => Choice::Resign,
            }),
            (_, pos) => Err(format!(
                "this engine does not play {}",
                if pos.rules().is_go() {
                    "Go"
                } else {
                    "this board"
                }
            )),
        }
    }

    /// The most memory its tree or table may take (built-in engines).
    pub fn set_memory_limit(&mut self, bytes: usize) {
        match self {
            SeatEngine::BuiltIn(engine) => engine.set_memory_limit(bytes),
            SeatEngine::Go(engine) => engine.set_memory_limit(bytes),
            SeatEngine::Outside(_) => {}
        }
    }

    /// The game's moves so far, in order (an outside brain sends them so
    /// when it needs the whole board).
    pub fn set_history(&mut self, moves: &[Cell]) {
        if let SeatEngine::Outside(brain) = self {
            brain.set_history(moves);
        }
    }

    /// Told how a game it played in ended (the learning player learns).
    pub fn game_over(&mut self, record: &GameRecord, me: Player) {
        if let SeatEngine::BuiltIn(engine) = self {
            engine.game_over(record, me);
        }
    }

    /// Go, after two passes: the stones it holds dead, sorted. A built-in
    /// engine holds every stone on the board alive (it passes only when
    /// the count as the stones stand wins, having taken off what it holds
    /// dead); an outside engine that cannot say holds them alive too.
    pub fn dead_stones(&mut self, budget: &mut dyn PipeBudget) -> Vec<Cell> {
        let mut dead = match self {
            SeatEngine::Outside(outside) => outside.dead_stones(budget).unwrap_or_default(),
            SeatEngine::BuiltIn(_) | SeatEngine::Go(_) => Vec::new(),
        };
        dead.sort_by_key(|c| c.index());
        dead.dedup();
        dead
    }

    /// Go: its own count of the finished game, when it is an outside
    /// engine that gives one.
    pub fn final_score(&mut self, budget: &mut dyn PipeBudget) -> Option<String> {
        match self {
            SeatEngine::Outside(outside) => outside.final_score(budget),
            _ => None,
        }
    }

    /// What it said since the last call (an outside brain's MESSAGE
    /// lines), for the Records tab.
    pub fn messages(&mut self) -> Vec<String> {
        match self {
            SeatEngine::Outside(brain) => brain.take_messages(),
            _ => Vec::new(),
        }
    }
}
