//! What the tasks tell the live state: every change to it is one of these
//! messages, applied by [`App::update`](super::App::update). A run is the
//! stream of its messages; replayed to a fresh state it gives the same
//! state and the same frames (`tasks/door.rs` records one in its tests).

use std::time::{Duration, Instant};

use super::App;
use super::action::{Action, Effect};
use super::game::Thinking;
use super::load::LoadSnapshot;
use kxo_engine::{Cell, Player};
use kxo_engine::{EngineKind, Estimate, Threat};

#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// A terminal event the person made, as the key map reads it: its
    /// action if it has one, and the letter key that acted as a command
    /// while naming a column, if it was one (see `HumanState::column_key`).
    Input {
        action: Option<Action>,
        column_key: Option<char>,
    },
    /// A seat's move in `game`, if the game is still at `generation`.
    Moved {
        game: usize,
        generation: u64,
        cell: Cell,
    },
    /// The person's move, queued by the keyboard, is played.
    PersonMoved {
        game: usize,
        generation: u64,
        cell: Cell,
    },
    /// A seat's search progress, shown in its game's box.
    Thinking {
        game: usize,
        generation: u64,
        thinking: Thinking,
    },
    /// Work a seat did since its last report, summed per engine kind;
    /// `moved` when it is the work of a move that landed.
    Work {
        kind: EngineKind,
        cpu: Duration,
        work: u64,
        moved: bool,
    },
    /// Seat `side` of `game` resigns (an engine of Go).
    Resigned {
        game: usize,
        generation: u64,
        side: Player,
    },
    /// Seat `loser` of `game` forfeits (an outside brain failed).
    Forfeit {
        game: usize,
        generation: u64,
        loser: Player,
        reason: String,
    },
    /// An outside brain's `MESSAGE` lines.
    BrainSaid {
        game: usize,
        side: Player,
        lines: Vec<String>,
    },
    /// A finished game's time on screen is over: the next one starts.
    Restart { game: usize },
    /// One of the game's seats panicked.
    Failed { game: usize, message: String },
    /// The hint task's answer to request `id`.
    HintFound {
        id: u64,
        /// The move (a pass in Go).
        best: Cell,
        /// What the search made of it: a value (the solver's, Negamax's)
        /// or a win rate (Go's MCTS).
        estimate: Estimate,
        threat: Option<Threat>,
        /// The line the search expects, the move first.
        line: Vec<Cell>,
    },
    /// The files task's answer to save request `id`: the files written,
    /// or why nothing was.
    Saved {
        id: u64,
        answer: Result<Vec<String>, String>,
    },
    /// Human mode's clock task: time has passed (a flag may have fallen).
    ClockTick,
    /// The review task's opinion of position `at` of review `id`.
    Reviewed {
        id: u64,
        at: usize,
        opinion: super::review::Opinion,
    },
    /// The learner's accuracy on the fixed sample after `games` games.
    LearnerMeasured { share: f64, games: u64 },
    /// What the learner's table holds, after a seat taught it a game.
    Learned(super::LearnerFigures),
    /// A new sample of the load.
    LoadSampled(Box<LoadSnapshot>),
    /// The run stops (a signal, the terminal gone, nothing to draw on).
    Stop { error: Option<String> },
    /// Drawing failed (why): the run stops; the loop tells a terminal that
    /// went away (a lost terminal, 129) from another failure.
    CannotDraw(String),
    /// The loop hands the terminal back (Ctrl-Z was pressed).
    Suspending,
    /// Back from a suspension.
    Resumed,
    /// The renderer measured the screen for the next frame: the largest
    /// board side a box shows (when the grid shows), and how far the
    /// current tab can scroll.
    Measured { fits: Option<u8>, scroll_room: u16 },
    /// A frame is drawn now: the rates it shows are as of then.
    Frame,
}

impl App {
    /// The one door: applies one message from a task at `now` and returns
    /// what the tasks must do. A change the screen shows ends the list
    /// with the renderer's wake-up (`Redraw`, or `RedrawNow` for a key's).
    pub fn update(&mut self, message: Message, now: Instant) -> Vec<Effect> {
        self.now = now;
        let mut effects = match message {
            Message::Input { action, column_key } => {
                let effects = action.map_or_else(Vec::new, |action| self.act(action, now));
                self.remember_column_key(column_key);
                effects
            }
            Message::Moved {
                game,
                generation,
                cell,
            } => self.apply_move(game, generation, cell, now),
            Message::PersonMoved {
                game,
                generation,
                cell,
            } => self.play_pending(game, generation, cell, now),
            Message::Thinking {
                game,
                generation,
                thinking,
            } => self.report_thinking(game, generation, thinking),
            Message::Work {
                kind,
                cpu,
                work,
                moved,
            } => {
                self.account_work(kind, cpu, work, moved);
                Vec::new()
            }
            Message::Forfeit {
                game,
                generation,
                loser,
                reason,
            } => self.forfeit(game, generation, loser, super::Loss::Forfeit(reason), now),
            Message::Resigned {
                game,
                generation,
                side,
            } => self.forfeit(game, generation, side, super::Loss::Resigned, now),
            Message::BrainSaid { game, side, lines } => {
                self.brain_said(game, side, lines);
                Vec::new()
            }
            Message::Restart { game } => self.restart_game(game, now),
            Message::Failed { game, message } => self.fail_game(game, &message),
            Message::HintFound {
                id,
                best,
                estimate,
                threat,
                line,
            } => self.hint_found(id, best, estimate, threat, line),
            Message::Saved { id, answer } => self.saved(id, answer),
            Message::ClockTick => self.clock_tick(now),
            Message::Reviewed { id, at, opinion } => self.reviewed(id, at, opinion),
            Message::LearnerMeasured { share, games } => self.learner_measured(share, games),
            Message::Learned(figures) => {
                self.learner = Some(figures);
                self.touch(false);
                vec![Effect::Redraw]
            }
            Message::LoadSampled(snapshot) => self.load_sampled(*snapshot),
            Message::Stop { error } => {
                self.stop(error);
                Vec::new()
            }
            Message::CannotDraw(why) => {
                self.cannot_draw = true;
                self.stop(Some(format!("cannot draw: {why}")));
                Vec::new()
            }
            Message::Suspending => {
                self.suspend = false;
                Vec::new()
            }
            Message::Resumed => self.resumed_from_suspend(),
            Message::Measured { fits, scroll_room } => {
                if let Some(fits) = fits {
                    self.fits = fits;
                }
                self.set_scroll_room(scroll_room);
                Vec::new()
            }
            Message::Frame => Vec::new(),
        };
        // The wake-up follows from the changes made, not from each path.
        effects.retain(|e| !matches!(e, Effect::Redraw | Effect::RedrawNow));
        match self.redraw.take() {
            Some(true) => effects.push(Effect::RedrawNow),
            Some(false) => effects.push(Effect::Redraw),
            None => {}
        }
        effects
    }

    /// Tests: the person's `action`, through the door.
    #[cfg(test)]
    pub(crate) fn press(&mut self, action: Action, now: Instant) -> Vec<Effect> {
        self.update(
            Message::Input {
                action: Some(action),
                column_key: None,
            },
            now,
        )
    }
}
