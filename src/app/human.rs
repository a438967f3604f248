//! Human mode: one game between the person and an engine. This holds the
//! person's state and applies their actions: moves, typed coordinates,
//! undo, hints and new games.

use std::time::Instant;

use super::{Action, App, Direction, Effect, GameStatus};
use crate::ai::Value;
use crate::game::{Cell, GameRecord, Outcome, Player, Position};

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

/// A hint the hint task is asked to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HintRequest {
    /// Which request this is: a result for an older one is dropped.
    pub id: u64,
    pub pos: Position,
    pub generation: u64,
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
    /// The hint being searched, if any.
    pub hint_request: Option<HintRequest>,
    hint_seq: u64,
    /// The person's move, waiting for their seat to play it.
    pub pending: Option<Cell>,
    pub score: Score,
    pub history: Vec<PlayedGame>,
    /// Spinner frame while the computer thinks, advanced by the renderer.
    pub spinner: usize,
    /// The last key, when it was a letter that names a column but acted as
    /// a command (h, j, k, l, n, q, t, w on big boards): a digit typed next
    /// makes it a coordinate, so `h8` means H8 on 15x15.
    pub column_key: Option<char>,
}

impl HumanState {
    pub fn new(side: Player, size: u8) -> HumanState {
        HumanState {
            side,
            cursor: Cell::from_row_col((size - 1) / 2, (size - 1) / 2, size),
            typed: String::new(),
            message: None,
            hint: None,
            hint_request: None,
            hint_seq: 0,
            pending: None,
            score: Score::default(),
            history: Vec::new(),
            spinner: 0,
            column_key: None,
        }
    }
}

/// How a hint is worded: "win in 3", from the person's side. On boards
/// above 8x8 (`solved` false) the search is selective, so a value is what
/// it found, not a proof.
pub fn describe(value: Value, solved: bool) -> String {
    match (value, solved) {
        (Value::Win { plies }, true) => format!("win in {}", plies.div_ceil(2)),
        (Value::Win { plies }, false) => format!("a win in {} found", plies.div_ceil(2)),
        (Value::Loss { plies }, _) => {
            format!("the computer can win in {}", plies.div_ceil(2))
        }
        (Value::Draw, _) => "a draw with best play".into(),
        (Value::Unknown(_), true) => "not solved in time".into(),
        (Value::Unknown(_), false) => "the best move a short search found".into(),
    }
}

impl App {
    /// Called with each input event after its action: the letter key that
    /// acted as a command while naming a column, if that is what it was
    /// (see [`HumanState::column_key`]).
    pub fn remember_column_key(&mut self, letter: Option<char>) {
        if let Some(h) = self.human.as_mut() {
            h.column_key = letter;
        }
    }

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

    /// Whether a coordinate is being typed (letters then go to it).
    pub fn typing(&self) -> bool {
        self.human.as_ref().is_some_and(|h| !h.typed.is_empty())
    }

    /// Human mode's actions; `None` when not in human mode or the action is
    /// not one of them.
    pub(super) fn update_human(&mut self, action: Action, now: Instant) -> Option<Vec<Effect>> {
        if self.help && action != Action::Escape {
            return None;
        }
        let human = self.human.as_mut()?;
        let n = self.config.rules.size();
        let over = matches!(self.games[0].status, GameStatus::Over { .. });
        let effects = match action {
            Action::Cursor(direction) => {
                let (row, col) = (human.cursor.row(n), human.cursor.col(n));
                let (r, c) = match direction {
                    Direction::Left => (row, col.saturating_sub(1)),
                    Direction::Right => (row, (col + 1).min(n - 1)),
                    Direction::Up => (row.saturating_sub(1), col),
                    Direction::Down => ((row + 1).min(n - 1), col),
                };
                human.cursor = Cell::from_row_col(r, c, n);
                human.message = None;
                vec![Effect::Redraw]
            }
            Action::Confirm | Action::NewGame if over => self.new_game(now),
            Action::NewGame => {
                self.say("the game is not over yet (u takes a move back)");
                vec![Effect::Redraw]
            }
            Action::Confirm => {
                let typed = std::mem::take(&mut human.typed);
                if typed.is_empty() {
                    let cell = human.cursor;
                    self.place(cell)
                } else {
                    match Cell::parse(&typed, n) {
                        Ok(cell) => self.place(cell),
                        Err(e) => {
                            self.say(e.0);
                            vec![Effect::Redraw]
                        }
                    }
                }
            }
            Action::PlaceAtCursor => {
                let cell = human.cursor;
                self.place(cell)
            }
            Action::Place(cell) => {
                human.cursor = cell;
                self.place(cell)
            }
            Action::Undo => self.undo(),
            Action::Hint => self.request_hint(),
            Action::Backspace => {
                human.typed.pop();
                vec![Effect::Redraw]
            }
            Action::Escape if !human.typed.is_empty() => {
                human.typed.clear();
                vec![Effect::Redraw]
            }
            Action::Type(d) if d.is_ascii_digit() => {
                if let (true, Some(letter)) = (human.typed.is_empty(), human.column_key) {
                    human.typed = format!("{}{d}", letter.to_ascii_uppercase());
                    human.message = None;
                } else if human.typed.is_empty() {
                    human.message = Some("type a column letter first, like b3".into());
                } else if human.typed.len() < 4 {
                    human.typed.push(d);
                }
                vec![Effect::Redraw]
            }
            Action::Type(letter) if letter.is_ascii_alphabetic() => {
                human.typed = letter.to_ascii_uppercase().to_string();
                human.message = None;
                vec![Effect::Redraw]
            }
            _ => return None,
        };
        Some(effects)
    }

    /// The person asks to play `cell`.
    fn place(&mut self, cell: Cell) -> Vec<Effect> {
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
        vec![Effect::Turn(0), Effect::Redraw]
    }

    /// Takes back the person's last move and the computer's answer.
    fn undo(&mut self) -> Vec<Effect> {
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
            return vec![Effect::Redraw];
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
            return vec![Effect::Redraw];
        };
        moves.truncate(last_own);
        let rules = self.config.rules;
        let game = &mut self.games[0];
        game.pos = Position::from_moves(rules, &moves).unwrap_or_else(|_| Position::new(rules));
        game.last_move = moves.last().copied();
        game.record.moves = moves;
        game.record.outcome = Outcome::Ongoing;
        game.generation += 1;
        game.thinking = None;
        if let Some(h) = self.human.as_mut() {
            h.message = Some("took back your last move".into());
            h.hint = None;
            h.pending = None;
        }
        vec![Effect::Turn(0), Effect::Redraw]
    }

    /// Asks the hint task for the perfect move here. The search runs as a
    /// coroutine with a budget, so the screen stays live meanwhile.
    fn request_hint(&mut self) -> Vec<Effect> {
        let game = &self.games[0];
        let (pos, generation, status) = (game.pos, game.generation, game.status.clone());
        let Some(human) = self.human.as_mut() else {
            return Vec::new();
        };
        if status != GameStatus::Playing || pos.to_move() != human.side {
            human.message = Some("a hint is for your own move".into());
            return vec![Effect::Redraw];
        }
        human.hint_seq += 1;
        human.hint_request = Some(HintRequest {
            id: human.hint_seq,
            pos,
            generation,
        });
        human.hint = Some("hint: thinking…".into());
        human.message = None;
        vec![Effect::StartHint, Effect::Redraw]
    }

    /// Drops a hint still being searched (the person did something else).
    pub(super) fn cancel_hint(&mut self) {
        if let Some(h) = self.human.as_mut()
            && h.hint_request.take().is_some()
        {
            h.hint = None;
            self.dirty = true;
        }
    }

    /// The hint task's answer to request `id`: shown unless the request was
    /// cancelled or the game moved on meanwhile.
    pub fn hint_found(&mut self, id: u64, best: Cell, value: Value) -> Vec<Effect> {
        let n = self.config.rules.size();
        let Some(h) = self.human.as_mut() else {
            return Vec::new();
        };
        if h.hint_request.is_none_or(|r| r.id != id) {
            return Vec::new();
        }
        h.hint_request = None;
        let solved = self.config.rules.is_small();
        h.hint = Some(format!(
            "hint: {} ({})",
            best.name(n),
            describe(value, solved)
        ));
        h.cursor = best;
        self.touch(true);
        vec![Effect::Redraw]
    }

    /// After a game: a new one, sides swapped.
    fn new_game(&mut self, now: Instant) -> Vec<Effect> {
        let n = self.config.rules.size();
        if let Some(h) = self.human.as_mut() {
            h.side = h.side.other();
            h.cursor = Cell::from_row_col((n - 1) / 2, (n - 1) / 2, n);
            h.typed.clear();
            h.message = Some(format!("new game: you play {}", h.side));
            h.hint = None;
            h.pending = None;
        }
        self.restart_game(0, now)
    }

    /// Score and history when a human-mode game ends.
    pub(super) fn human_game_over(&mut self, outcome: Outcome, _now: Instant) {
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
            h.hint_request = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::EngineKind;
    use crate::app::LiveConfig;

    fn human_app() -> App {
        App::new(
            LiveConfig {
                games: 1,
                o: Some(EngineKind::Negamax),
                x: Some(EngineKind::Negamax),
                human: Some(Player::O),
                ..LiveConfig::default()
            },
            Instant::now(),
        )
    }

    #[test]
    fn a_hint_is_a_request_that_any_other_action_cancels() {
        let mut a = human_app();
        let now = Instant::now();
        let effects = a.update(Action::Hint, now);
        assert!(effects.contains(&Effect::StartHint));
        let id = a.human.as_ref().unwrap().hint_request.unwrap().id;
        assert_eq!(
            a.human.as_ref().unwrap().hint.as_deref(),
            Some("hint: thinking…")
        );
        a.update(Action::Cursor(Direction::Left), now);
        assert!(a.human.as_ref().unwrap().hint_request.is_none());
        // The answer to the cancelled request is dropped.
        assert!(a.hint_found(id, Cell::new(5), Value::Draw).is_empty());
        assert!(a.human.as_ref().unwrap().hint.is_none());
        // A fresh request is answered.
        a.update(Action::Hint, now);
        let id = a.human.as_ref().unwrap().hint_request.unwrap().id;
        a.hint_found(id, Cell::new(5), Value::Win { plies: 5 });
        assert_eq!(
            a.human.as_ref().unwrap().hint.as_deref(),
            Some("hint: B2 (win in 3)")
        );
    }

    #[test]
    fn typed_coordinates_and_the_cursor() {
        let mut a = human_app();
        let now = Instant::now();
        a.update(Action::Type('b'), now);
        a.update(Action::Type('3'), now);
        assert_eq!(a.human.as_ref().unwrap().typed, "B3");
        a.update(Action::Confirm, now);
        assert_eq!(
            a.human.as_ref().unwrap().pending,
            Some(Cell::parse("B3", 4).unwrap())
        );
        a.update(Action::Type('9'), now);
        assert!(a.human.as_ref().unwrap().message.is_some());
    }
}
