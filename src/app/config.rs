//! What the live screen plays, as the command line settled it: the
//! board, the seats, the clocks and the modes.

use std::time::Duration;

use super::{ColorMode, DEFAULT_HOLD, DEFAULT_THINK_MS, setup, show};
use crate::engines::{RunLimit, SpecEngine};
use kxo_engine::{Cell, EngineKind, Player, Rules};

/// What the live screen plays.
#[derive(Clone, Debug)]
pub struct LiveConfig {
    pub rules: Rules,
    /// Human mode: the moves of a game loaded from a file (`--load`), the
    /// first game's start.
    pub loaded: Vec<Cell>,
    /// Human mode: the loaded game opens in its review (`kxo-tui review`).
    pub review: bool,
    /// Human mode: each side's game clock, base and increment (`--tc`).
    pub human_tc: Option<(Duration, Duration)>,
    pub games: usize,
    /// Fixed engines for O and X (built in, or an outside brain); `None`:
    /// a fresh random pick every game.
    pub o: Option<SpecEngine>,
    pub x: Option<SpecEngine>,
    /// Least wall time between a seat starting to think and its move landing.
    pub delay: Duration,
    /// How long a finished game's result stays before it restarts.
    pub hold: Duration,
    /// The per-move budget: CPU milliseconds (the clock), or MCTS iterations.
    pub limit: RunLimit,
    pub seed: u64,
    pub fps: u32,
    pub color: ColorMode,
    /// Testing aid: O's seat of this game (from 0) panics when it first
    /// thinks. Set from the environment variable `KXO_FAULT_GAME` (from 1).
    pub fault_game: Option<usize>,
    /// A problem the run started with and plays on through (e.g. a damaged
    /// default model): shown on the status line and the Records tab.
    pub warning: Option<String>,
    /// Human mode: the person's side in the first game (one game only;
    /// the computer plays `o`/`x` of the other side).
    pub human: Option<Player>,
    /// The learning player's table, shared by every RL seat.
    pub rl: Option<kxo_engine::learner::SharedTable>,
    /// The logo's colours drift slowly (off with `--no-anim`).
    pub animate: bool,
    /// The terminal's locale is UTF-8 (else the logo is drawn with `#`).
    pub utf8: bool,
    /// A tournament to show (`--engine` … `--format`): the boxes play its
    /// games in order, and the Leaderboard tab shows its ranking and
    /// crosstable.
    pub tournament: Option<std::rc::Rc<crate::tournament::Plan>>,
    /// The default show's mix of boards (when the command line names no
    /// board, engines, tournament or person): each box plays its boards in
    /// turn; `rules` and `limit` are then unused.
    pub show: Option<show::Show>,
    /// Human mode without a board named: open on the start screen, with
    /// this choice offered.
    pub setup: Option<setup::Choice>,
}

impl Default for LiveConfig {
    /// The command line's defaults: nine 4x4 games, three in a row, random
    /// engine pairs, a 100 ms CPU clock per move, 150 ms at least between
    /// moves, results held 2 s, 30 frames a second, no colour.
    fn default() -> LiveConfig {
        LiveConfig {
            rules: Rules::default_rules(),
            games: 9,
            o: None,
            x: None,
            delay: Duration::from_millis(150),
            hold: DEFAULT_HOLD,
            limit: RunLimit::Millis(DEFAULT_THINK_MS),
            seed: 0,
            fps: 30,
            color: ColorMode::None,
            fault_game: None,
            warning: None,
            human: None,
            rl: None,
            animate: true,
            utf8: true,
            tournament: None,
            show: None,
            setup: None,
            loaded: Vec::new(),
            review: false,
            human_tc: None,
        }
    }
}

impl LiveConfig {
    /// How a seat's engine is named on screen: its label ("MCTS"), or an
    /// outside brain's program name ("pbrain-foo").
    pub fn seat_label(&self, kind: EngineKind, side: Player) -> &str {
        match self.seat(side) {
            Some(SpecEngine::Brain { command, .. }) if kind == EngineKind::Brain => command.name(),
            _ => kind.label(),
        }
    }

    /// What the command line fixed side `side` to, if it did.
    pub fn seat(&self, side: Player) -> Option<&SpecEngine> {
        match side {
            Player::O => self.o.as_ref(),
            Player::X => self.x.as_ref(),
        }
    }
}
