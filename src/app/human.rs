//! Human mode: one game between the person and an engine. This holds the
//! person's state and applies their actions: moves, typed coordinates,
//! undo, hints and new games.

use std::time::Instant;

use super::{Action, App, Direction, Effect, GameStatus};
use kxo_engine::{AnyPosition, Cell, GameRecord, MoveError, Outcome, Player};
use kxo_engine::{Estimate, Value};

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
#[derive(Clone, Debug)]
pub struct HintRequest {
    /// Which request this is: a result for an older one is dropped.
    pub id: u64,
    pub pos: AnyPosition,
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
    /// The last key, when it was a letter that names a column but acted as
    /// a command (h, j, k, l, n, q, t, w on big boards): a digit typed next
    /// makes it a coordinate, so `h8` means H8 on 15x15.
    pub column_key: Option<char>,
    /// When the last game ended: an Enter within [`ENTER_GUARD`] of it is
    /// the same press that made the last move, not a request for a new game.
    pub ended_at: Option<Instant>,
    /// N was pressed mid-game: a second N resigns (a loss) and starts anew.
    pub confirm_resign: bool,
    /// Go: p was pressed; a second p passes (a p then a digit names
    /// column P instead).
    pub confirm_pass: bool,
    /// Go: the game ended by two passes and the person is settling which
    /// stones are dead before the count (see `marking.rs`).
    pub marking: bool,
    /// Each stone shows its move number (`#`).
    pub numbers: bool,
    /// The game the files task is asked to save (`s`), if any.
    pub save_request: Option<super::save::SaveRequest>,
    /// The last save request's id.
    pub save_seq: u64,
    /// Each side's game clock (`--tc`), if the game has one.
    pub clock: Option<super::human_clock::HumanClock>,
    /// The game under review (`v`), if one is.
    pub review: Option<super::review::Review>,
    /// The last review's id.
    pub review_seq: u64,
}

/// How long after a game ends Enter is ignored.
pub const ENTER_GUARD: std::time::Duration = std::time::Duration::from_millis(300);

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
            column_key: None,
            ended_at: None,
            confirm_resign: false,
            confirm_pass: false,
            marking: false,
            numbers: false,
            save_request: None,
            save_seq: 0,
            clock: None,
            review: None,
            review_seq: 0,
        }
    }
}

/// "3 of your moves (5 plies)": a win `plies` plies away, counted in the
/// person's moves as people count, and in plies as `solve` does.
fn your_moves(plies: u32) -> String {
    let moves = plies.div_ceil(2);
    let unit = if moves == 1 { "move" } else { "moves" };
    let ply_unit = if plies == 1 { "ply" } else { "plies" };
    format!("{moves} of your {unit} ({plies} {ply_unit})")
}

/// How a hint is worded: "win in 3", from the person's side. On boards
/// above 8x8 (`solved` false) the search is selective, so a value is what
/// it found, not a proof.
pub fn describe(estimate: Estimate, solved: bool) -> String {
    let value = match estimate {
        Estimate::Value(value) => value,
        Estimate::WinRate(w) => return format!("a win rate of {:.0}% for you", 100.0 * w),
    };
    match (value, solved) {
        (Value::Win { plies }, true) => format!("you win in {}", your_moves(plies)),
        (Value::Win { plies }, false) => format!("a win in {} found", your_moves(plies)),
        (Value::Loss { plies }, _) => {
            format!("the computer can win in {} of its moves", plies / 2)
        }
        (Value::Draw, _) => "a draw with best play".into(),
        (Value::Unknown(_), true) => "not solved in time".into(),
        // The search's own evaluation: lines of stones, weighed.
        (Value::Unknown(score), false) => match score {
            0 => "even, by a short search (score 0)".into(),
            s if s > 0 => format!("better for you, by a short search (score +{s})"),
            s => format!("better for the computer, by a short search (score {s})"),
        },
    }
}

impl App {
    /// Called with each input event after its action: the letter key that
    /// acted as a command while naming a column, if that is what it was
    /// (see [`HumanState::column_key`]).
    pub(super) fn remember_column_key(&mut self, letter: Option<char>) {
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
        // Under the help nothing is for the game: Esc closes the help
        // first (the general actions), a typed coordinate stays.
        if self.help {
            return None;
        }
        if self.human.as_ref().is_some_and(|h| h.marking)
            && let Some(effects) = self.update_marking(action, now)
        {
            return Some(effects);
        }
        if self.human.as_ref().is_some_and(|h| h.review.is_some()) {
            return self.update_review(action);
        }
        let human = self.human.as_mut()?;
        let n = self.config.rules.size();
        let over = matches!(self.games[0].status, GameStatus::Over { .. });
        // Only a second N, right after the first, resigns.
        let resigning = std::mem::take(&mut human.confirm_resign);
        let passing = std::mem::take(&mut human.confirm_pass);
        let rules = self.config.rules;
        let too_soon = human
            .ended_at
            .is_some_and(|t| now.saturating_duration_since(t) < ENTER_GUARD);
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
            // The Enter that made the winning move may repeat: a new game
            // needs a fresh press.
            Action::Confirm if over && too_soon => vec![Effect::Redraw],
            Action::Confirm | Action::NewGame if over => self.new_game(now),
            Action::NewGame if resigning => self.resign(now),
            Action::NewGame => {
                if let Some(h) = self.human.as_mut() {
                    h.confirm_resign = true;
                }
                self.say("press N again to resign this game (a loss) and start a new one");
                vec![Effect::Redraw]
            }
            Action::Pass if !rules.is_go() => {
                self.say("a pass is a move of Go only");
                vec![Effect::Redraw]
            }
            Action::Pass if passing => self.place(Cell::PASS),
            Action::Pass => {
                if let Some(h) = self.human.as_mut() {
                    h.confirm_pass = true;
                }
                self.say("press p again to pass (two passes in a row end the game)");
                vec![Effect::Redraw]
            }
            Action::PlaceAtCursor | Action::Confirm
                if human.hint_request.is_some() && human.typed.is_empty() =>
            {
                self.say("the hint is still thinking: wait for it, or press Esc");
                vec![Effect::Redraw]
            }
            Action::Confirm => {
                self.cancel_hint();
                let Some(human) = self.human.as_mut() else {
                    return Some(Vec::new());
                };
                let typed = std::mem::take(&mut human.typed);
                if typed.is_empty() {
                    let cell = human.cursor;
                    self.place(cell)
                } else {
                    match rules.parse_cell(&typed) {
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
            Action::Save => self.request_save(),
            Action::Review => self.toggle_review(),
            Action::ChooseGame if over || self.games[0].record.moves.is_empty() => {
                let choice = self.config.setup.unwrap_or_default();
                self.setup = Some(super::setup::Setup::new(choice));
                self.games[0].status = GameStatus::Over { restart_at: None };
                if let Some(h) = self.human.as_mut() {
                    h.message = None;
                    h.hint = None;
                }
                vec![Effect::RedrawNow]
            }
            Action::ChooseGame => {
                self.say("finish this game first (or press n twice to resign it)");
                vec![Effect::Redraw]
            }
            Action::ToggleNumbers => {
                human.numbers = !human.numbers;
                vec![Effect::RedrawNow]
            }
            other => return typed_key(human, other),
        };
        Some(effects)
    }

    /// The person asks to play `cell`.
    fn place(&mut self, cell: Cell) -> Vec<Effect> {
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
        } else if let Err(e) = game.pos.check(cell) {
            let name = game.pos.rules().cell_name(cell);
            Some(match e {
                MoveError::Occupied(_) => format!("{name} is already taken"),
                e => format!("{name}: {e}"),
            })
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
            GameStatus::Failed(_) => Some("this game failed"),
            GameStatus::Playing if game.pos.to_move() != side => {
                Some("wait for the computer's move, then undo")
            }
            GameStatus::Over { .. } | GameStatus::Playing => None,
        };
        if let Some(text) = refusal {
            self.say(text);
            return vec![Effect::Redraw];
        }
        if matches!(game.status, GameStatus::Over { .. }) && game.record.moves.is_empty() {
            self.say("nothing to undo");
            return vec![Effect::Redraw];
        }
        if matches!(game.status, GameStatus::Over { .. }) {
            // Back into a finished game: its result is taken off the score.
            self.uncount_last_game();
        }
        self.take_back(side)
    }

    /// Takes back `side`'s last move and what followed it.
    pub(super) fn take_back(&mut self, side: Player) -> Vec<Effect> {
        // Moves alternate from the first mover (O; White after a Go
        // handicap): move i was played by it when i is even.
        let first = AnyPosition::new(self.config.rules).to_move();
        let mover = |i: usize| {
            if i.is_multiple_of(2) {
                first
            } else {
                first.other()
            }
        };
        let mut moves = self.games[0].record.moves.clone();
        let Some(last_own) = (0..moves.len()).rev().find(|&i| mover(i) == side) else {
            self.say("nothing to undo");
            return vec![Effect::Redraw];
        };
        moves.truncate(last_own);
        let rules = self.config.rules;
        let game = &mut self.games[0];
        game.pos =
            AnyPosition::from_moves(rules, &moves).unwrap_or_else(|_| AnyPosition::new(rules));
        game.last_move = moves.last().copied();
        game.record.moves = moves;
        game.record.outcome = Outcome::Ongoing;
        game.generation += 1;
        game.thinking = None;
        game.dead = kxo_engine::Bits::EMPTY;
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
        let (pos, generation, status) = (game.pos.clone(), game.generation, game.status.clone());
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
            self.touch(false);
        }
    }

    /// The hint task's answer to request `id`: shown unless the request was
    /// cancelled or the game moved on meanwhile.
    pub(super) fn hint_found(
        &mut self,
        id: u64,
        best: Cell,
        estimate: Estimate,
        threat: Option<kxo_engine::Threat>,
        line: Vec<Cell>,
    ) -> Vec<Effect> {
        let rules = self.config.rules;
        let Some(h) = self.human.as_mut() else {
            return Vec::new();
        };
        if h.hint_request.as_ref().is_none_or(|r| r.id != id) {
            return Vec::new();
        }
        h.hint_request = None;
        let solved = self.config.rules.is_small();
        let found = match threat {
            // "VCF in 7": the forced line follows.
            Some(t) => t.title(),
            None => describe(estimate, solved),
        };
        let names: Vec<String> = line.iter().map(|&c| rules.cell_name(c)).collect();
        h.hint = Some(match names.len() > 1 {
            true => format!(
                "hint: {}: {found}; line {} …",
                rules.cell_name(best),
                names.join(" ")
            ),
            false => format!("hint: {}: {found}", rules.cell_name(best)),
        });
        if !best.is_pass() {
            h.cursor = best;
        }
        self.touch(true);
        vec![Effect::Redraw]
    }

    /// After a game: a new one, sides swapped.
    pub(super) fn new_game(&mut self, now: Instant) -> Vec<Effect> {
        let n = self.config.rules.size();
        if let Some(h) = self.human.as_mut() {
            h.side = h.side.other();
            h.cursor = Cell::from_row_col((n - 1) / 2, (n - 1) / 2, n);
            h.typed.clear();
            h.message = Some(format!("new game: you play {}", h.side));
            h.hint = None;
            h.pending = None;
            h.marking = false;
            if let Some(clock) = h.clock.as_mut() {
                *clock = super::human_clock::HumanClock::new(clock.base, clock.increment);
            }
        }
        let effects = self.restart_game(0, now);
        self.clock_tick(now);
        effects
    }

    /// The start screen's keys, while it shows: the arrows (and h j k l)
    /// choose, Enter or Space starts the game; `None` for the keys that
    /// act as anywhere (quit, help, tabs).
    pub(super) fn update_setup(&mut self, action: Action, now: Instant) -> Option<Vec<Effect>> {
        let setup = self.setup.as_mut()?;
        match action {
            Action::Cursor(direction) => {
                setup.step(direction);
                Some(vec![Effect::Redraw])
            }
            Action::Confirm | Action::PlaceAtCursor => {
                let choice = setup.choice;
                Some(self.begin(choice, now))
            }
            Action::Quit | Action::Suspend | Action::Resize(..) | Action::ToggleHelp => None,
            Action::Escape if self.help => None,
            _ => Some(Vec::new()),
        }
    }

    /// Starts the session the start screen chose: its board, the person's
    /// side and the computer's level.
    fn begin(&mut self, choice: super::setup::Choice, now: Instant) -> Vec<Effect> {
        let rules = choice.rules();
        let (engine, limit) = choice.level.engine(choice.board().go);
        let config = &mut self.config;
        config.rules = rules;
        config.limit = limit;
        config.o = Some(engine.into());
        config.x = Some(engine.into());
        config.setup = Some(choice);
        self.setup = None;
        if let Some(h) = self.human.as_mut() {
            let n = rules.size();
            // Sides swap at each new game: the first one is the choice.
            h.side = choice.side.other();
            h.cursor = Cell::from_row_col((n - 1) / 2, (n - 1) / 2, n);
        }
        let mut effects = self.new_game(now);
        self.say(format!(
            "{}: you play {}, the computer is {}",
            choice.board().name,
            rules.side_name(choice.side),
            choice.level.is(&choice.board())
        ));
        effects.push(Effect::Redraw);
        effects
    }

    /// The choice the start screen made, to offer it again next time.
    pub fn chosen(&self) -> Option<super::setup::Choice> {
        self.config.setup
    }

    /// Score and history when a human-mode game ends.
    /// Takes the last finished game off the score, the totals and the
    /// Records tab, and lets it go on (undo after the end).
    fn uncount_last_game(&mut self) {
        let outcome = self.games[0].outcome();
        if let Some(h) = self.human.as_mut() {
            match outcome {
                Outcome::Win(p) if p == h.side => h.score.person -= 1,
                Outcome::Win(_) => h.score.computer -= 1,
                _ => h.score.draws -= 1,
            }
            h.history.pop();
            h.ended_at = None;
        }
        let t = &mut self.totals;
        t.finished -= 1;
        match outcome {
            Outcome::Win(Player::O) => t.o_wins -= 1,
            Outcome::Win(Player::X) => t.x_wins -= 1,
            _ => t.draws -= 1,
        }
        let game = &mut self.games[0];
        game.status = GameStatus::Playing;
        game.forfeit = None;
    }

    /// N twice mid-game: the person resigns, the computer is given the
    /// win, and a new game starts.
    fn resign(&mut self, now: Instant) -> Vec<Effect> {
        let Some(side) = self.human.as_ref().map(|h| h.side) else {
            return Vec::new();
        };
        let generation = self.games[0].generation;
        self.forfeit(0, generation, side, super::Loss::Resigned, now);
        self.new_game(now)
    }

    pub(super) fn human_game_over(&mut self, outcome: Outcome, now: Instant) {
        let record = self.games[0].record.clone();
        if let Some(h) = self.human.as_mut() {
            h.ended_at = Some(now);
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

/// A key of a coordinate typed on the board (a letter, then digits;
/// Backspace; Esc drops what is typed, else puts a hint or a message
/// away); `None` for a key that is not one.
fn typed_key(human: &mut HumanState, action: Action) -> Option<Vec<Effect>> {
    let effects = match action {
        Action::Backspace => {
            human.typed.pop();
            vec![Effect::Redraw]
        }
        Action::Escape if !human.typed.is_empty() => {
            human.typed.clear();
            vec![Effect::Redraw]
        }
        // A hint or a message shown is put away.
        Action::Escape if human.hint.is_some() || human.message.is_some() => {
            human.hint = None;
            human.message = None;
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

#[cfg(test)]
#[path = "human_tests.rs"]
pub(super) mod tests;
