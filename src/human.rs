//! Human mode: one game between the person and an engine. The person's
//! moves come from the keyboard and the mouse; this module holds their state
//! and turns keys into moves, messages, hints and undo.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};

use crate::ai::{Negamax, Unlimited, Value};
use crate::app::{App, GameStatus};
use crate::game::{Cell, GameRecord, Outcome, Player, Position};
use crate::tasks::scheduler::Event;

/// Nodes the hint may search (a full solve of 4x4 needs far fewer).
const HINT_NODES: u64 = 2_000_000;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub person: u32,
    pub computer: u32,
    pub draws: u32,
}

/// A finished game of the session, for the Records tab.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub record: GameRecord,
    pub person: Player,
}

#[derive(Clone, Debug)]
pub struct HumanState {
    /// The person's side in the current game (sides swap every game).
    pub side: Player,
    pub cursor: Cell,
    /// A coordinate being typed, e.g. "b" then "b3".
    pub typed: String,
    /// A short message: why a move was refused, what to do next.
    pub message: Option<String>,
    pub hint: Option<String>,
    /// The person's move, waiting for their seat to play it.
    pub pending: Option<Cell>,
    pub score: Score,
    pub history: Vec<PlayedGame>,
    /// Spinner frame while the computer thinks, advanced by the renderer.
    pub spinner: usize,
}

impl HumanState {
    pub fn new(side: Player, size: u8) -> HumanState {
        HumanState {
            side,
            cursor: Cell::from_row_col((size - 1) / 2, (size - 1) / 2, size),
            typed: String::new(),
            message: None,
            hint: None,
            pending: None,
            score: Score::default(),
            history: Vec::new(),
            spinner: 0,
        }
    }
}

/// How a hint is worded: "win in 3", from the person's side.
pub fn describe(value: Value) -> String {
    match value {
        Value::Win { plies } => format!("win in {}", plies.div_ceil(2)),
        Value::Loss { plies } => format!("the computer can win in {}", plies.div_ceil(2)),
        Value::Draw => "a draw with best play".into(),
        Value::Unknown(_) => "not solved in time".into(),
    }
}

impl App {
    fn say(&mut self, text: impl Into<String>) {
        if let Some(h) = self.human.as_mut() {
            h.message = Some(text.into());
        }
    }

    /// Whether the computer is thinking in human mode.
    pub fn computer_thinking(&self) -> bool {
        match (&self.human, self.games.first()) {
            (Some(h), Some(g)) => g.status == GameStatus::Playing && g.pos.to_move() != h.side,
            _ => false,
        }
    }

    /// Keys of human mode; `None` when the key is not one of them.
    pub(crate) fn handle_human_key(&mut self, key: KeyEvent) -> Option<Vec<Event>> {
        let human = self.human.as_mut()?;
        let n = self.config.rules.size();
        let (row, col) = (human.cursor.row(n), human.cursor.col(n));
        let moved = match key.code {
            KeyCode::Left | KeyCode::Char('h') if human.typed.is_empty() => {
                Some((row, col.saturating_sub(1)))
            }
            KeyCode::Right | KeyCode::Char('l') if human.typed.is_empty() => {
                Some((row, (col + 1).min(n - 1)))
            }
            KeyCode::Up | KeyCode::Char('k') if human.typed.is_empty() => {
                Some((row.saturating_sub(1), col))
            }
            KeyCode::Down | KeyCode::Char('j') if human.typed.is_empty() => {
                Some(((row + 1).min(n - 1), col))
            }
            _ => None,
        };
        if let Some((r, c)) = moved {
            human.cursor = Cell::from_row_col(r, c, n);
            human.message = None;
            return Some(vec![Event::Changed]);
        }
        let over = matches!(self.games[0].status, GameStatus::Over { .. });
        let posts = match key.code {
            KeyCode::Enter if over => self.new_game(),
            KeyCode::Char('n' | 'N') if over => self.new_game(),
            KeyCode::Char('n' | 'N') => {
                self.say("the game is not over yet (u takes a move back)");
                vec![Event::Changed]
            }
            KeyCode::Enter => {
                let typed = std::mem::take(&mut human.typed);
                if typed.is_empty() {
                    let cell = human.cursor;
                    self.place(cell)
                } else {
                    match Cell::parse(&typed, n) {
                        Ok(cell) => self.place(cell),
                        Err(e) => {
                            self.say(e.0);
                            vec![Event::Changed]
                        }
                    }
                }
            }
            KeyCode::Char(' ') => {
                let cell = human.cursor;
                self.place(cell)
            }
            KeyCode::Char('u' | 'U') => self.undo(),
            KeyCode::Char('t' | 'T') => self.hint(),
            KeyCode::Backspace => {
                human.typed.pop();
                vec![Event::Changed]
            }
            KeyCode::Esc if !human.typed.is_empty() => {
                human.typed.clear();
                vec![Event::Changed]
            }
            KeyCode::Char(d) if d.is_ascii_digit() => {
                if human.typed.is_empty() {
                    human.message = Some("type a column letter first, like b3".into());
                } else if human.typed.len() < 4 {
                    human.typed.push(d);
                }
                vec![Event::Changed]
            }
            // Any other letter starts a coordinate (q and w stay the tab
            // keys; h j k l move the cursor unless a coordinate is being typed).
            KeyCode::Char(ch)
                if ch.is_ascii_alphabetic() && !matches!(ch, 'q' | 'Q' | 'w' | 'W') =>
            {
                human.typed = ch.to_ascii_uppercase().to_string();
                human.message = None;
                vec![Event::Changed]
            }
            _ => return None,
        };
        Some(posts)
    }

    /// A mouse click on a cell places there.
    pub(crate) fn handle_human_mouse(&mut self, mouse: MouseEvent) -> Vec<Event> {
        if self.human.is_none() || mouse.kind != MouseEventKind::Down(MouseButton::Left) {
            return Vec::new();
        }
        match crate::ui::human::cell_at(self, self.screen, mouse.column, mouse.row) {
            Some(cell) => {
                if let Some(h) = self.human.as_mut() {
                    h.cursor = cell;
                }
                self.place(cell)
            }
            None => Vec::new(),
        }
    }

    /// The person asks to play `cell`.
    fn place(&mut self, cell: Cell) -> Vec<Event> {
        let n = self.config.rules.size();
        let game = &self.games[0];
        let Some(human) = self.human.as_ref() else {
            return Vec::new();
        };
        let refusal = if self.paused {
            Some("paused: press Ctrl-P to go on".to_string())
        } else if matches!(game.status, GameStatus::Over { .. }) {
            Some("the game is over: press N or Enter for a new one".to_string())
        } else if matches!(game.status, GameStatus::Failed(_)) {
            Some("this game failed: press Ctrl-Q to quit".to_string())
        } else if game.pos.to_move() != human.side || human.pending.is_some() {
            Some("wait: the computer is thinking".to_string())
        } else if game.pos.at(cell).is_some() {
            Some(format!("{} is already taken", cell.name(n)))
        } else {
            None
        };
        let Some(human) = self.human.as_mut() else {
            return Vec::new();
        };
        human.typed.clear();
        match refusal {
            Some(text) => human.message = Some(text),
            None => {
                human.pending = Some(cell);
                human.cursor = cell;
                human.message = None;
                human.hint = None;
            }
        }
        vec![Event::Turn(0), Event::Changed]
    }

    /// Takes back the person's last move and the computer's answer.
    fn undo(&mut self) -> Vec<Event> {
        let Some(human) = self.human.as_ref() else {
            return Vec::new();
        };
        let side = human.side;
        let game = &self.games[0];
        let refusal = match game.status {
            GameStatus::Over { .. } => Some("the game is over: press N or Enter for a new one"),
            GameStatus::Failed(_) => Some("this game failed"),
            GameStatus::Playing if game.pos.to_move() != side => {
                Some("wait for the computer's move, then undo")
            }
            GameStatus::Playing => None,
        };
        if let Some(text) = refusal {
            self.say(text);
            return vec![Event::Changed];
        }
        // Moves alternate from O: move i was played by O when i is even.
        let mover = |i: usize| {
            if i.is_multiple_of(2) {
                Player::O
            } else {
                Player::X
            }
        };
        let mut moves = game.record.moves.clone();
        let Some(last_own) = (0..moves.len()).rev().find(|&i| mover(i) == side) else {
            self.say("nothing to undo");
            return vec![Event::Changed];
        };
        moves.truncate(last_own);
        let rules = self.config.rules;
        let game = &mut self.games[0];
        game.pos = Position::from_moves(rules, &moves).unwrap_or_else(|_| Position::new(rules));
        game.last_move = moves.last().copied();
        game.record.moves = moves;
        game.record.outcome = Outcome::Ongoing;
        game.generation += 1;
        if let Some(h) = self.human.as_mut() {
            h.message = Some("took back your last move".into());
            h.hint = None;
            h.pending = None;
        }
        self.dirty = true;
        vec![Event::Turn(0), Event::Changed]
    }

    /// What the perfect player would do here, and the value.
    fn hint(&mut self) -> Vec<Event> {
        let Some(human) = self.human.as_ref() else {
            return Vec::new();
        };
        let game = &self.games[0];
        if game.status != GameStatus::Playing || game.pos.to_move() != human.side {
            self.say("a hint is for your own move");
            return vec![Event::Changed];
        }
        let n = self.config.rules.size();
        let mut solver = Negamax::new(self.config.rules);
        solver.set_node_limit(HINT_NODES);
        let analysis = solver.analyse(&game.pos, &mut Unlimited::new());
        if let Some(h) = self.human.as_mut() {
            h.hint = Some(format!(
                "hint: {} ({})",
                analysis.best.name(n),
                describe(analysis.value)
            ));
            h.cursor = analysis.best;
            h.message = None;
        }
        vec![Event::Changed]
    }

    /// After a game: a new one, sides swapped.
    fn new_game(&mut self) -> Vec<Event> {
        let n = self.config.rules.size();
        if let Some(h) = self.human.as_mut() {
            h.side = h.side.other();
            h.cursor = Cell::from_row_col((n - 1) / 2, (n - 1) / 2, n);
            h.typed.clear();
            h.message = Some(format!("new game: you play {}", h.side));
            h.hint = None;
            h.pending = None;
        }
        self.restart_game(0)
    }

    /// Score and history when a human-mode game ends.
    pub(crate) fn human_game_over(&mut self, outcome: Outcome) {
        let record = self.games[0].record.clone();
        if let Some(h) = self.human.as_mut() {
            match outcome {
                Outcome::Win(p) if p == h.side => h.score.person += 1,
                Outcome::Win(_) => h.score.computer += 1,
                _ => h.score.draws += 1,
            }
            h.history.push(PlayedGame {
                record,
                person: h.side,
            });
            h.hint = None;
        }
    }
}
