//! GTP engines as seats: any program that speaks the Go Text Protocol
//! (version 2) on its standard input and output plays Go in a seat of
//! `arena` or the live screen, through the same process and pipe code as
//! the Gomoku brains ([`super::process`]): started in a process group of
//! its own, read without blocking in bounded lines, its text escaped,
//! ended with everything it started on every way out.
//!
//! A game: `boardsize`, `clear_board`, `komi` (and the handicap, as
//! `set_free_handicap` of the game's stones), `time_settings` (Canadian
//! byo-yomi of one stone for a time a move, absolute for a game clock,
//! `time_left` before each move), then each move the other side made as
//! `play` and `genmove` for its own. A move it cannot make, `?` to a
//! command, no answer in its time or a dead process forfeits the game.

use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::outside::{PipeBudget, SETUP_ALLOWANCE, START_TIMEOUT, TOLERANCE};
use super::process::{BrainCommand, Forfeit, Pipe, Process};
use super::{LINES_A_WAIT, OutsideEngine, Reply};
use kxo_engine::go::{GoPosition, handicap_points, parse_vertex, vertex_name};
use kxo_engine::text::shown;
use kxo_engine::{AnyPosition, Cell, Player, Rules};

/// The longest answer an engine may give, in lines (a `showboard` of
/// 19x19 takes some twenty).
const MAX_ANSWER_LINES: usize = 64;

/// A GTP engine playing one game.
pub struct OutsideGtp {
    pipe: Pipe,
    rules: Rules,
    /// Its time a move.
    think: Duration,
    /// The moves it has been told or has played, in order.
    synced: Vec<Cell>,
    /// The game's moves in order, as the seat knows them.
    history: Vec<Cell>,
    /// The game clock, and what is left of it before the next move.
    match_clock: Option<Duration>,
    time_left: Option<Duration>,
    margin: Duration,
    move_limit: Option<Duration>,
    /// How long its last move's call took before `genmove` was sent:
    /// starting it, the set-up commands, the moves it was told.
    before_asked: Duration,
    in_game: bool,
    /// It knows `kgs-genmove_cleanup`: asked so in a clean-up, it takes
    /// off the stones it holds dead instead of passing.
    knows_cleanup: bool,
}

impl OutsideGtp {
    /// An engine given `think` a move.
    pub fn new(command: BrainCommand, rules: Rules, think: Duration) -> OutsideGtp {
        OutsideGtp {
            pipe: Pipe::new(command),
            rules,
            think,
            synced: Vec::new(),
            history: Vec::new(),
            match_clock: None,
            time_left: None,
            margin: TOLERANCE,
            move_limit: None,
            before_asked: Duration::ZERO,
            in_game: false,
            knows_cleanup: false,
        }
    }

    /// How late an answer may come before it forfeits on time.
    pub fn set_margin(&mut self, margin: Duration) {
        self.margin = margin;
    }

    /// Sends `command` and waits for its answer until `deadline`: the
    /// text after `=`, or `Refused` with the text after `?`.
    fn ask(
        &mut self,
        command: &str,
        budget: &mut dyn PipeBudget,
        deadline: Instant,
    ) -> Result<String, Forfeit> {
        let Some(process) = self.pipe.process.as_mut() else {
            return Err(Forfeit::Exited);
        };
        process.send(command)?;
        let answer = read_answer(process, budget, deadline)?;
        match answer.strip_prefix('=') {
            Some(text) => Ok(text.trim().to_string()),
            None => Err(Forfeit::Refused(answer.trim().to_string())),
        }
    }

    /// Starts the engine and sets up the game: board, komi, handicap,
    /// time.
    fn start(&mut self, budget: &mut dyn PipeBudget) -> Result<(), Forfeit> {
        self.pipe.spawn("quit")?;
        let deadline = Instant::now() + START_TIMEOUT;
        let setup = |line: &str| {
            let line = line.to_string();
            move |e: Forfeit| match e {
                Forfeit::TooSlow(_) => Forfeit::DidNotStart(format!("no answer to '{line}'")),
                Forfeit::Refused(answer) => {
                    Forfeit::DidNotStart(format!("it answered '{answer}' to '{line}'"))
                }
                other => other,
            }
        };
        let n = self.rules.size();
        for line in [
            "protocol_version".to_string(),
            format!("boardsize {n}"),
            "clear_board".to_string(),
            format!("komi {}", self.rules.komi()),
        ] {
            self.ask(&line, budget, deadline).map_err(setup(&line))?;
        }
        self.place_handicap(budget, deadline)
            .map_err(setup("set_free_handicap"))?;
        let time = match self.match_clock {
            Some(total) => format!("time_settings {} 0 0", total.as_secs().max(1)),
            None => format!("time_settings 0 {} 1", self.think.as_secs().max(1)),
        };
        // An engine without time commands plays on its own clock.
        let _ = self.ask(&time, budget, deadline);
        self.knows_cleanup = self
            .ask("known_command kgs-genmove_cleanup", budget, deadline)
            .is_ok_and(|known| known == "true");
        self.synced.clear();
        Ok(())
    }

    /// The game's handicap stones, as `set_free_handicap` (none: nothing
    /// is sent).
    fn place_handicap(
        &mut self,
        budget: &mut dyn PipeBudget,
        deadline: Instant,
    ) -> Result<(), Forfeit> {
        let n = self.rules.size();
        let handicap = handicap_points(n, self.rules.handicap());
        if handicap.is_empty() {
            return Ok(());
        }
        let stones: Vec<String> = handicap.iter().map(|&c| vertex_name(c, n)).collect();
        self.ask(
            &format!("set_free_handicap {}", stones.join(" ")),
            budget,
            deadline,
        )
        .map(drop)
    }

    /// Tells the engine the moves it does not know yet: the history since
    /// its last, or the whole game again after a `clear_board` when the
    /// game is not the one it followed.
    fn sync(&mut self, budget: &mut dyn PipeBudget) -> Result<(), Forfeit> {
        let follows = self.history.starts_with(&self.synced);
        if !follows {
            let deadline = Instant::now() + START_TIMEOUT;
            self.ask("clear_board", budget, deadline)?;
            self.synced.clear();
            self.place_handicap(budget, deadline)?;
        }
        let first = GoPosition::new(self.rules).to_move();
        for i in self.synced.len()..self.history.len() {
            let mover = if i % 2 == 0 { first } else { first.other() };
            let line = format!(
                "play {} {}",
                colour(mover),
                vertex_name(self.history[i], self.rules.size())
            );
            let deadline = Instant::now() + self.think + self.margin;
            self.ask(&line, budget, deadline)?;
            self.synced.push(self.history[i]);
        }
        Ok(())
    }

    /// Its answer in `pos`: a move it plays, a pass, or resignation.
    fn play(&mut self, pos: &GoPosition, budget: &mut dyn PipeBudget) -> Result<Reply, Forfeit> {
        let began = Instant::now();
        self.before_asked = Duration::ZERO;
        if self.pipe.process.is_none() {
            self.start(budget)?;
        }
        self.sync(budget)?;
        let me = pos.to_move();
        if let Some(left) = self.time_left {
            let deadline = Instant::now() + START_TIMEOUT;
            let _ = self.ask(
                &format!("time_left {} {} 0", colour(me), left.as_secs()),
                budget,
                deadline,
            );
        }
        let asked = Instant::now();
        self.before_asked = asked.duration_since(began);
        let due = self
            .time_left
            .map_or(self.think, |left| left.min(self.think));
        let setup = if self.in_game {
            Duration::ZERO
        } else {
            SETUP_ALLOWANCE
        };
        let deadline = asked + self.move_limit.unwrap_or(due + self.margin + setup);
        self.pipe.move_asked();
        let genmove = match pos.in_cleanup() && self.knows_cleanup {
            true => "kgs-genmove_cleanup",
            false => "genmove",
        };
        let answer = self
            .ask(&format!("{genmove} {}", colour(me)), budget, deadline)
            .map_err(|e| match e {
                Forfeit::TooSlow(_) => Forfeit::TooSlow(asked.elapsed()),
                other => other,
            })?;
        self.pipe.move_answered();
        self.in_game = true;
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(Reply::Resign);
        }
        let cell = parse_vertex(&answer, self.rules.size()).map_err(|_| {
            // A column and a row, but not this board's: off the board.
            let mut chars = answer.chars();
            let vertex_like = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && !chars.as_str().is_empty()
                && chars.all(|c| c.is_ascii_digit());
            match vertex_like {
                true => Forfeit::OffBoard(answer.to_ascii_uppercase()),
                false => Forfeit::Refused(format!("= {answer}")),
            }
        })?;
        if !cell.is_pass() && pos.at(cell).is_some() {
            return Err(Forfeit::Occupied(answer));
        }
        self.synced.push(cell);
        Ok(Reply::Move(cell))
    }

    /// The engine's dead stones at the end of the game
    /// (`final_status_list dead`), after it has been told every move.
    fn dead(&mut self, budget: &mut dyn PipeBudget) -> Result<Vec<Cell>, Forfeit> {
        if self.pipe.process.is_none() {
            self.start(budget)?;
        }
        self.sync(budget)?;
        let deadline = Instant::now() + self.think + self.margin + START_TIMEOUT;
        let text = self.ask("final_status_list dead", budget, deadline)?;
        text.split_whitespace()
            .map(|v| parse_vertex(v, self.rules.size()).map_err(|_| Forfeit::Refused(shown(v))))
            .collect()
    }
}

/// GTP's name of a side.
fn colour(player: Player) -> &'static str {
    match player {
        Player::O => "black",
        Player::X => "white",
    }
}

/// A GTP answer: a line that starts with `=` or `?` and the lines after
/// it up to the empty line that ends it, joined by newlines, waiting
/// through the budget until `deadline`. A response's id, if the engine
/// echoes one, is dropped; lines before the answer are noise, kept to
/// name a forfeit.
fn read_answer(
    process: &mut Process,
    budget: &mut dyn PipeBudget,
    deadline: Instant,
) -> Result<String, Forfeit> {
    let mut answer: Option<String> = None;
    let mut lines = 0;
    let mut noise = None;
    loop {
        for _ in 0..LINES_A_WAIT {
            let Some(line) = process.try_gtp_line()? else {
                break;
            };
            match &mut answer {
                Some(text) if line.is_empty() => return Ok(std::mem::take(text)),
                Some(text) => {
                    lines += 1;
                    if lines > MAX_ANSWER_LINES {
                        return Err(Forfeit::Garbage(format!(
                            "an answer of more than {MAX_ANSWER_LINES} lines"
                        )));
                    }
                    text.push('\n');
                    text.push_str(&line);
                }
                None if line.starts_with('=') || line.starts_with('?') => {
                    let (mark, rest) = line.split_at(1);
                    let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
                    answer = Some(format!("{mark}{rest}"));
                }
                None if line.is_empty() => {}
                None => noise = Some(line),
            }
        }
        if Instant::now() >= deadline {
            return Err(noise.map_or(Forfeit::TooSlow(Duration::ZERO), Forfeit::Garbage));
        }
        if !budget.wait_readable(process.stdout.as_raw_fd(), deadline) && Instant::now() < deadline
        {
            return Err(Forfeit::Abandoned);
        }
    }
}

impl OutsideEngine for OutsideGtp {
    fn choose(&mut self, pos: &AnyPosition, budget: &mut dyn PipeBudget) -> Result<Reply, String> {
        if let Some(f) = &self.pipe.forfeit {
            return Err(f.to_string());
        }
        let Some(go) = pos.go() else {
            return Err("a GTP engine plays Go, not this board".into());
        };
        self.play(go, budget)
            // Forfeit's words are a brain's; this one is a GTP engine.
            .map_err(|f| self.pipe.lose(f).replacen("the brain", "the engine", 1))
    }
    fn set_history(&mut self, moves: &[Cell]) {
        self.history.clear();
        self.history.extend_from_slice(moves);
    }
    fn take_messages(&mut self) -> Vec<String> {
        Vec::new()
    }
    fn set_move_limit(&mut self, limit: Option<Duration>) {
        self.move_limit = limit;
    }
    fn out_of_time(&self) -> bool {
        self.pipe.out_of_time()
    }
    fn last_cpu(&self) -> Duration {
        self.pipe.last_cpu
    }
    fn before_asked(&self) -> Duration {
        self.before_asked
    }
    fn set_match_clock(&mut self, total: Duration) {
        self.match_clock = Some(total);
        self.time_left = Some(total);
    }
    fn set_time_left(&mut self, left: Duration) {
        self.time_left = Some(left);
    }
    fn reusable(&mut self) -> bool {
        self.pipe.reusable()
    }
    fn new_game(&mut self) {
        // `sync` finds the history is not the one it followed, and clears
        // the board first.
        self.history.clear();
        self.in_game = false;
    }
    fn keep_transcript(&mut self) {
        self.pipe.keep_transcript();
    }
    fn take_transcript(&mut self) -> Option<Vec<String>> {
        self.pipe.take_transcript()
    }
    fn dead_stones(&mut self, budget: &mut dyn PipeBudget) -> Option<Vec<Cell>> {
        if self.pipe.forfeit.is_some() {
            return None;
        }
        self.dead(budget).ok()
    }
    fn final_score(&mut self, budget: &mut dyn PipeBudget) -> Option<String> {
        if self.pipe.forfeit.is_some() || self.pipe.process.is_none() {
            return None;
        }
        self.sync(budget).ok()?;
        let deadline = Instant::now() + self.think + self.margin + START_TIMEOUT;
        let text = self.ask("final_score", budget, deadline).ok()?;
        // Outside text: escaped, and a count is short.
        let word = text.split_whitespace().next()?;
        Some(shown(word).chars().take(16).collect())
    }
}

/// Starts the engine and sets up `rules`' game, then ends it: an engine
/// that cannot play (a typo in its path, a board it refuses) is found
/// before the first game.
pub fn preflight(command: &BrainCommand, rules: Rules) -> Result<(), Forfeit> {
    let mut engine = OutsideGtp::new(command.clone(), rules, super::outside::BRAIN_THINK);
    engine.start(&mut kxo_engine::Unlimited::new())
}
