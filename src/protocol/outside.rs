//! Outside brains as seats: a program that speaks the Gomoku AI protocol,
//! started for a game and played through its pipes.
//!
//! The brain's output is read without blocking; while it thinks, the seat
//! waits through [`PipeBudget::wait_readable`], which in the live screen
//! suspends the seat's coroutine until the scheduler's poll sees the pipe
//! readable (no thread per brain), and in `arena` is a plain `poll`.
//!
//! A brain that does not start, exits, plays an occupied or off-board
//! cell, answers `ERROR`/`UNKNOWN`, or takes longer than its time and a
//! tolerance (sending only garbage meanwhile, or nothing) forfeits the
//! game ([`Forfeit`]); its process is
//! killed and reaped at once, and every brain still running is killed when
//! kxo-tui exits ([`kill_all`]).

use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

pub use super::process::{BrainCommand, BrainReaper, Forfeit, Protocol, Transcript, kill_all};
use super::process::{Pipe, Process};
use super::{LINES_A_WAIT, cell_at, parse_xy, xy};
use kxo_engine::Budget;
use kxo_engine::text::shown;
use kxo_engine::{Bits, Cell, Player, Position, Rules};

/// How long a brain may take to answer `START`.
pub const START_TIMEOUT: Duration = Duration::from_secs(5);
/// An outside brain's time per move when the run sets no clock.
pub const BRAIN_THINK: Duration = Duration::from_secs(1);
/// How far past its time a brain may answer before it forfeits, unless
/// the run gives another margin.
pub const TOLERANCE: Duration = Duration::from_millis(500);
/// The set-up allowance: how much longer a brain's first move of a game
/// may take (a brain builds its tables, say a hash of hundreds of MB, on
/// its first search), as `START` itself may take up to [`START_TIMEOUT`].
pub const SETUP_ALLOWANCE: Duration = Duration::from_secs(3);
/// The memory a brain is told it may use unless its spec says (`memory=MB`).
pub const DEFAULT_MEMORY_MB: u64 = 256;
/// The INFO keys kxo-tui itself sends a brain, from the seat's own limits
/// and rules (and `folder`, `evaluate`, which the protocol defines): no
/// `option.NAME=` may send one, or a brain would be told another rule or
/// limit than the referee keeps.
pub const RESERVED_INFO_KEYS: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "game_type",
    "rule",
    "max_node",
    "max_depth",
    "folder",
    "evaluate",
];

/// A move's budget that can also wait for a brain's pipe: the engines'
/// [`Budget`] knows nothing of pipes, so the seats that hold brains (the
/// live screen's task, `arena`'s clock) give this one.
pub trait PipeBudget: Budget {
    /// Waits until `fd` has something to read (the brain's answer) or
    /// `deadline` passes. The live screen suspends the seat and lets the
    /// scheduler poll the pipe with everything else; this default blocks
    /// in `poll(2)`. Returns `false` when the wait should end for good
    /// (the game was abandoned).
    fn wait_readable(&mut self, fd: std::os::fd::RawFd, deadline: Instant) -> bool {
        let left = deadline.saturating_duration_since(Instant::now());
        // An error or a signal ends the wait early; the caller reads and
        // finds out, or waits again.
        let _ = crate::poll::wait(&mut [crate::poll::for_reading(fd)], left);
        true
    }
}

/// Headless runs and tests wait in `poll(2)`.
impl PipeBudget for kxo_engine::Unlimited {}

/// What a brain is told besides its time: memory, search limits, options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrainSettings {
    /// `INFO max_memory`, in bytes.
    pub memory_bytes: u64,
    /// `INFO max_node`, `INFO max_depth` (brains that know them obey).
    pub nodes: Option<u64>,
    pub depth: Option<u64>,
    /// `INFO NAME VALUE` lines, in order.
    pub options: Vec<(String, String)>,
    /// How late its answer may come before it forfeits on time.
    pub margin: Duration,
    /// How long after an answer its next command waits at least
    /// (`settle=MS`; none unless given): a brain that prints its move
    /// before it is ready to read again, and drops a command that comes in
    /// between, needs one. Neither c-gomoku-cli nor Gomocup's manager
    /// waits.
    pub settle: Duration,
    /// Stopped (`SIGSTOP`) from its answer until it is next told
    /// something (`suspend=on`, the default): as GomocupJudge suspends a
    /// brain, one that thinks on in the other side's time takes no core
    /// from it.
    pub suspend: bool,
    /// It loses when, after a move, its process holds more than
    /// `memory_bytes` (`memory-check=on`, the default), as GomocupJudge
    /// ends a brain over its limit.
    pub check_memory: bool,
}

impl Default for BrainSettings {
    fn default() -> BrainSettings {
        BrainSettings {
            memory_bytes: DEFAULT_MEMORY_MB << 20,
            nodes: None,
            depth: None,
            options: Vec::new(),
            margin: TOLERANCE,
            settle: Duration::ZERO,
            suspend: true,
            check_memory: true,
        }
    }
}

/// MESSAGE lines kept per brain until they are collected: a brain that
/// floods them costs nothing more than this.
const MAX_MESSAGES: usize = 16;

/// An outside brain playing one game (a seat holds it as
/// `tournament::SeatEngine::Outside`).
pub struct OutsideBrain {
    pipe: Pipe,
    rules: Rules,
    think: Duration,
    /// The stones the brain knows, its own and the opponent's.
    known: [Bits; 2],
    /// The side it plays, once known.
    side: Option<Player>,
    /// The brain has a match open (it has played a move of it).
    in_game: bool,
    /// MESSAGE lines not yet collected by [`OutsideBrain::take_messages`].
    messages: Vec<String>,
    /// The match clock (INFO timeout_match), and what is left of it
    /// (INFO time_left before each move), when the game has one.
    match_clock: Option<Duration>,
    time_left: Option<Duration>,
    /// When its last answer came: its next command waits for the
    /// settings' `settle` after it.
    answered: Option<Instant>,
    /// How long its last move's call took before the move was asked:
    /// starting it, `START` and the limits, `RESTART`, the settle wait.
    before_asked: Duration,
    /// The game's moves in order, when the seat knows them (for `BOARD`).
    history: Vec<Cell>,
    /// The next position goes whole in a match of its own, even if it
    /// follows on from the last ([`OutsideBrain::ask_afresh`]).
    afresh: bool,
    settings: BrainSettings,
    /// The longest its next move may take, set by a manager whose clock
    /// rule decides (`arena`); else its time, the margin and, on its
    /// first move of a game, the set-up allowance.
    move_limit: Option<Duration>,
}

impl OutsideBrain {
    /// A brain that gets `think` per move (INFO timeout_turn).
    pub fn new(command: BrainCommand, rules: Rules, think: Duration) -> OutsideBrain {
        OutsideBrain {
            pipe: Pipe::new(command),
            rules,
            think,
            known: [Bits::EMPTY; 2],
            side: None,
            in_game: false,
            messages: Vec::new(),
            match_clock: None,
            time_left: None,
            answered: None,
            before_asked: Duration::ZERO,
            history: Vec::new(),
            afresh: false,
            settings: BrainSettings::default(),
            move_limit: None,
        }
    }

    /// What it is told at the start of a game besides its time.
    pub fn configure(&mut self, settings: BrainSettings) {
        self.settings = settings;
    }

    /// The longest its next move may take before it forfeits on time.
    pub fn set_move_limit(&mut self, limit: Option<Duration>) {
        self.move_limit = limit;
    }

    /// Whether it forfeited by giving no move in time.
    pub fn out_of_time(&self) -> bool {
        self.pipe.out_of_time()
    }

    /// The CPU time its process used on its last move (ticks of 10 ms).
    pub fn last_cpu(&self) -> Duration {
        self.pipe.last_cpu
    }
}

impl OutsideBrain {
    /// The game's moves so far, in the order they were played: `BOARD`
    /// lists the stones so.
    pub fn set_history(&mut self, moves: &[Cell]) {
        self.history.clear();
        self.history.extend_from_slice(moves);
    }

    /// The next position is sent whole, after RESTART, even when it
    /// follows on from the last one: the brain answers it with nothing
    /// learned from the positions before (a tool asking about unrelated
    /// positions, not a game).
    pub fn ask_afresh(&mut self) {
        self.afresh = true;
    }

    /// Plays under a match clock of `total` for the whole game: sent as
    /// INFO timeout_match, then INFO time_left before each move; a move
    /// is due within what is left (and `think`), plus the tolerance.
    pub fn set_match_clock(&mut self, total: Duration) {
        self.match_clock = Some(total);
        self.time_left = Some(total);
    }

    /// What is left of the match clock, before the next move.
    pub fn set_time_left(&mut self, left: Duration) {
        self.time_left = Some(left);
    }

    /// How long its last move's call took before the move was asked
    /// (starting the process, `START` and the limits, `RESTART`, the
    /// settle wait): not the brain's time. Gomocup's manager and
    /// c-gomoku-cli charge a brain from its `TURN`, `BEGIN` or `BOARD`
    /// on; set-up commands have their own time limits.
    pub fn before_asked(&self) -> Duration {
        self.before_asked
    }

    /// The brain's MESSAGE lines since the last call.
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Keeps what is said both ways from now on (`arena --log`).
    pub fn keep_transcript(&mut self) {
        self.pipe.keep_transcript();
    }

    /// What was said since [`OutsideBrain::keep_transcript`], the process
    /// ended or not.
    pub fn take_transcript(&mut self) -> Option<Vec<String>> {
        self.pipe.take_transcript()
    }

    /// Starts the process and the match: START, then the limits.
    fn start(&mut self, budget: &mut dyn PipeBudget) -> Result<(), Forfeit> {
        let process = self.pipe.spawn("END")?;
        process.send(&format!("START {}", self.rules.size()))?;
        let deadline = Instant::now() + START_TIMEOUT;
        let answered_start =
            |reply: &str| Forfeit::DidNotStart(format!("it answered '{}' to START", shown(reply)));
        let reply =
            read_reply(process, budget, deadline, Expect::Ok, &mut self.messages).map_err(|e| {
                match e {
                    Forfeit::TooSlow(_) => Forfeit::DidNotStart("no answer to START".into()),
                    Forfeit::Garbage(line) => answered_start(&line),
                    other => other,
                }
            })?;
        if !Expect::is_ok(&reply) {
            return Err(answered_start(&reply));
        }
        let mut info = vec![
            (
                "timeout_turn".to_string(),
                self.think.as_millis().to_string(),
            ),
            (
                "timeout_match".to_string(),
                self.match_clock.map_or(0, |t| t.as_millis()).to_string(),
            ),
            (
                "max_memory".to_string(),
                self.settings.memory_bytes.to_string(),
            ),
            ("game_type".to_string(), "1".into()),
            // Bit 0 of Gomocup's rule: exactly five.
            ("rule".to_string(), u8::from(self.rules.exact()).to_string()),
        ];
        if let Some(n) = self.settings.nodes {
            info.push(("max_node".into(), n.to_string()));
        }
        if let Some(d) = self.settings.depth {
            info.push(("max_depth".into(), d.to_string()));
        }
        info.extend(self.settings.options.iter().cloned());
        for (key, value) in info {
            process.send(&format!("INFO {key} {value}"))?;
        }
        Ok(())
    }

    /// Asks for a move in `pos`: TURN with the opponent's last move when
    /// the brain knows the rest, else the whole board.
    fn ask(&mut self, pos: &Position, budget: &mut dyn PipeBudget) -> Result<Cell, Forfeit> {
        let began = Instant::now();
        self.before_asked = Duration::ZERO;
        let me = pos.to_move();
        if self.side != Some(me) {
            self.known = [Bits::EMPTY; 2];
            self.side = Some(me);
        }
        if self.pipe.process.is_none() {
            self.start(budget)?;
        }
        let size = self.rules.size();
        let (mine, theirs) = (pos.board(me), pos.board(me.other()));
        let [known_mine, known_theirs] = self.known;
        let new_theirs = theirs.and_not(known_theirs);
        let follows_on = !std::mem::take(&mut self.afresh)
            && mine == known_mine
            && known_theirs.and_not(theirs).is_empty()
            && new_theirs.count() == 1;
        if !follows_on && self.in_game {
            // A position the brain has not followed (an undo, a new game):
            // the protocol closes the open match with RESTART first.
            self.restart(budget)?;
        }
        let command = if follows_on {
            let cell = new_theirs
                .first()
                .map(Cell::from_index)
                .unwrap_or(Cell::new(0));
            vec![format!("TURN {}", xy(cell, size))]
        } else if mine.is_empty() && theirs.is_empty() {
            vec!["BEGIN".to_string()]
        } else {
            // In play order: brains that read the colours from the order
            // (PentaZen) take the stones as alternating, first player first.
            let mut lines = vec!["BOARD".to_string()];
            for cell in play_order(pos, &self.history) {
                let field = if mine.contains(cell.index()) { 1 } else { 2 };
                lines.push(format!("{},{field}", xy(cell, size)));
            }
            lines.push("DONE".into());
            lines
        };
        let Some(process) = self.pipe.process.as_mut() else {
            return Err(Forfeit::Exited);
        };
        let settle = self.settings.settle;
        if let Some(settled) = self
            .answered
            .filter(|_| !settle.is_zero())
            .map(|at| at + settle)
        {
            // Waits through the budget (the live screen runs the others);
            // a line the brain writes meanwhile ends a wait early, so loop.
            while Instant::now() < settled
                && budget.wait_readable(process.stdout.as_raw_fd(), settled)
            {}
        }
        if let Some(left) = self.time_left {
            process.send(&format!("INFO time_left {}", left.as_millis()))?;
        }
        for line in &command {
            process.send(line)?;
        }
        let asked = Instant::now();
        self.before_asked = asked.duration_since(began);
        let due = self
            .time_left
            .map_or(self.think, |left| left.min(self.think));
        // Its first move of a game may also build its tables.
        let setup = if self.in_game {
            Duration::ZERO
        } else {
            SETUP_ALLOWANCE
        };
        let deadline = asked
            + self
                .move_limit
                .unwrap_or(due + self.settings.margin + setup);
        self.pipe.move_asked();
        let Some(process) = self.pipe.process.as_mut() else {
            return Err(Forfeit::Exited);
        };
        let reply = read_reply(process, budget, deadline, Expect::Move, &mut self.messages)
            .map_err(|e| match e {
                Forfeit::TooSlow(_) => Forfeit::TooSlow(asked.elapsed()),
                other => other,
            })?;
        if self.settings.check_memory
            && let Some(used) = process.resident_bytes()
            && used > self.settings.memory_bytes
        {
            return Err(Forfeit::Memory {
                used,
                limit: self.settings.memory_bytes,
            });
        }
        if self.settings.suspend {
            process.set_stopped(true);
        }
        self.answered = Some(Instant::now());
        self.pipe.move_answered();
        // The only answers that are not moves: ERROR and UNKNOWN.
        let (x, y) = parse_xy(&reply).ok_or_else(|| Forfeit::Refused(reply.clone()))?;
        let cell = cell_at(x, y, size).ok_or_else(|| Forfeit::OffBoard(format!("{x},{y}")))?;
        if pos.at(cell).is_some() {
            return Err(Forfeit::Occupied(format!("{x},{y}")));
        }
        self.known = [mine.with(cell.index()), theirs];
        self.in_game = true;
        Ok(cell)
    }

    /// RESTART, answered by OK within the brain's time.
    fn restart(&mut self, budget: &mut dyn PipeBudget) -> Result<(), Forfeit> {
        let Some(process) = self.pipe.process.as_mut() else {
            return Err(Forfeit::Exited);
        };
        process.send("RESTART")?;
        let deadline = Instant::now() + self.think + self.settings.margin;
        let reply = read_reply(process, budget, deadline, Expect::Ok, &mut self.messages)?;
        if !Expect::is_ok(&reply) {
            return Err(Forfeit::Refused(reply));
        }
        self.in_game = false;
        Ok(())
    }
}

/// The stones of `pos` in the order they were played: `history` when it
/// is the position's, else O's and X's stones alternating, O's first (an
/// order that could have been played).
fn play_order(pos: &Position, history: &[Cell]) -> Vec<Cell> {
    if Position::from_moves(pos.rules(), history).is_ok_and(|p| p == *pos) {
        return history.to_vec();
    }
    let o: Vec<usize> = pos.board(Player::O).iter().collect();
    let x: Vec<usize> = pos.board(Player::X).iter().collect();
    let mut out = Vec::with_capacity(o.len() + x.len());
    for i in 0..o.len().max(x.len()) {
        out.extend(o.get(i).map(|&c| Cell::from_index(c)));
        out.extend(x.get(i).map(|&c| Cell::from_index(c)));
    }
    out
}

/// Starts the brain and asks it `START` for `rules`' board, then ends it:
/// a brain that cannot play (a typo in its path, a board it refuses) is
/// found before the first game instead of forfeiting every game.
pub fn preflight(command: &BrainCommand, rules: Rules) -> Result<(), Forfeit> {
    let mut brain = OutsideBrain::new(command.clone(), rules, BRAIN_THINK);
    brain.start(&mut kxo_engine::Unlimited::new())
}

/// The next line that is not MESSAGE or DEBUG (those are kept or dropped),
/// waiting through the budget until `deadline`.
/// What a wait takes as the brain's answer. Any other line, not a
/// `MESSAGE` or `DEBUG` either, is noise: it stays in the transcript and
/// the wait goes on, as in Gomocup's own manager, which skips a line that
/// is not `x,y`. (PentaZen writes its search depth as a raw byte: depth
/// 10 or 13 is a line break, and the rest of its message a line of its
/// own.) A brain that sends only noise loses when its time is up, with
/// the last line it sent as the reason ([`Forfeit::Garbage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// `OK`, to `START` and `RESTART`.
    Ok,
    /// `x,y`.
    Move,
}

impl Expect {
    fn answers(self, line: &str) -> bool {
        let word = first_word(line);
        word == "ERROR"
            || word == "UNKNOWN"
            || match self {
                Expect::Ok => word == "OK",
                Expect::Move => parse_xy(line).is_some(),
            }
    }

    /// Whether `reply` (an answer) is `OK`, with or without words after it.
    fn is_ok(reply: &str) -> bool {
        first_word(reply) == "OK"
    }
}

/// A line's first word, in capitals.
fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

fn read_reply(
    process: &mut Process,
    budget: &mut dyn PipeBudget,
    deadline: Instant,
    expect: Expect,
    messages: &mut Vec<String>,
) -> Result<String, Forfeit> {
    let mut noise = None;
    loop {
        // At most a batch of lines between two looks at the clock and two
        // waits: a brain that floods its pipe still loses at its deadline,
        // and on the live screen the other tasks still run.
        for _ in 0..LINES_A_WAIT {
            let Some(line) = process.try_line()? else {
                break;
            };
            let upper = line.to_ascii_uppercase();
            if let Some(text) = upper.strip_prefix("MESSAGE").map(|_| line[7..].trim()) {
                if messages.len() == MAX_MESSAGES {
                    messages.remove(0);
                }
                messages.push(text.to_string());
            } else if expect.answers(&line) {
                return Ok(line);
            } else if !upper.starts_with("DEBUG") && !line.trim().is_empty() {
                noise = Some(line);
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

impl OutsideBrain {
    /// Its move in `pos`; `Err(reason)` when it crashed, cheated or ran out
    /// of time, and so forfeits the game (a brain that failed is killed,
    /// and answers every later question with the same reason).
    pub fn choose(&mut self, pos: &Position, budget: &mut dyn PipeBudget) -> Result<Cell, String> {
        if let Some(f) = &self.pipe.forfeit {
            return Err(f.to_string());
        }
        self.ask(pos, budget).map_err(|f| self.pipe.lose(f))
    }
}

impl super::OutsideEngine for OutsideBrain {
    fn choose(
        &mut self,
        pos: &kxo_engine::AnyPosition,
        budget: &mut dyn PipeBudget,
    ) -> Result<super::Reply, String> {
        match pos.mnk() {
            Some(p) => OutsideBrain::choose(self, p, budget).map(super::Reply::Move),
            None => Err("a Gomoku brain does not play Go".into()),
        }
    }
    fn set_history(&mut self, moves: &[Cell]) {
        OutsideBrain::set_history(self, moves);
    }
    fn take_messages(&mut self) -> Vec<String> {
        OutsideBrain::take_messages(self)
    }
    fn set_move_limit(&mut self, limit: Option<Duration>) {
        OutsideBrain::set_move_limit(self, limit);
    }
    fn out_of_time(&self) -> bool {
        OutsideBrain::out_of_time(self)
    }
    fn last_cpu(&self) -> Duration {
        OutsideBrain::last_cpu(self)
    }
    fn before_asked(&self) -> Duration {
        OutsideBrain::before_asked(self)
    }
    fn set_match_clock(&mut self, total: Duration) {
        OutsideBrain::set_match_clock(self, total);
    }
    fn set_time_left(&mut self, left: Duration) {
        OutsideBrain::set_time_left(self, left);
    }
    fn keep_transcript(&mut self) {
        OutsideBrain::keep_transcript(self);
    }
    fn take_transcript(&mut self) -> Option<Vec<String>> {
        OutsideBrain::take_transcript(self)
    }
    fn reusable(&mut self) -> bool {
        self.pipe.reusable()
    }
    fn new_game(&mut self) {
        self.history.clear();
        self.ask_afresh();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tests/brains/slow.sh` answering at once on 4x4, writing to the
    /// file `file` as its variable `setting` says, after its first move
    /// (A1) in answer to B2; with the rules and the position it answered.
    fn instant_brain(setting: &str, file: &std::path::Path) -> (OutsideBrain, Rules, Position) {
        instant_brain_with(setting, file, BrainSettings::default())
    }

    /// [`instant_brain`] told `settings`.
    fn instant_brain_with(
        setting: &str,
        file: &std::path::Path,
        settings: BrainSettings,
    ) -> (OutsideBrain, Rules, Position) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/brains/slow.sh");
        let rules = Rules::new(4, 3).unwrap();
        // Its settings through env(1): the test's own environment stays as it is.
        let command = BrainCommand::parse(&format!(
            "brain:env SLOW_BRAIN_MS=0 {setting}={} {script}",
            file.display()
        ))
        .unwrap();
        let mut brain = OutsideBrain::new(command, rules, Duration::from_secs(2));
        brain.configure(settings);
        let first = Position::from_moves(rules, &[Cell::parse("B2", 4).unwrap()]).unwrap();
        let mut budget = kxo_engine::Unlimited::new();
        assert_eq!(brain.choose(&first, &mut budget), Ok(Cell::new(0)));
        (brain, rules, first)
    }

    /// What `brain` was told, as the log `file` of `instant_brain` holds
    /// it once the brain has ended (the file removed): the whole text, and
    /// its lines but the INFO ones.
    fn said_to(brain: OutsideBrain, file: &std::path::Path) -> (String, Vec<String>) {
        drop(brain);
        let said = std::fs::read_to_string(file).unwrap();
        let _ = std::fs::remove_file(file);
        let lines = said
            .lines()
            .filter(|l| !l.starts_with("INFO"))
            .map(str::to_string)
            .collect();
        (said, lines)
    }

    #[test]
    fn a_position_the_open_match_does_not_lead_to_is_sent_after_restart() {
        let dir = std::env::temp_dir().join(format!("kxo-brain-log-{}", std::process::id()));
        let (mut brain, rules, _) = instant_brain("BRAIN_LOG", &dir);
        let mut budget = kxo_engine::Unlimited::new();
        // Not B2 then A1: another game altogether.
        let other = Position::from_moves(rules, &[Cell::parse("D4", 4).unwrap()]).unwrap();
        assert_eq!(brain.choose(&other, &mut budget), Ok(Cell::new(0)));
        let (said, lines) = said_to(brain, &dir);
        assert_eq!(
            lines,
            ["START 4", "TURN 1,1", "RESTART", "BOARD", "3,3,2", "DONE"],
            "{said}"
        );
    }

    #[test]
    fn a_position_asked_afresh_is_sent_whole_after_restart_even_when_it_follows_on() {
        let dir = std::env::temp_dir().join(format!("kxo-brain-afresh-{}", std::process::id()));
        let (mut brain, _, first) = instant_brain("BRAIN_LOG", &dir);
        let mut budget = kxo_engine::Unlimited::new();
        // B2, its A1, then C3: a position that follows on.
        let mut next = first;
        for cell in [Cell::new(0), Cell::parse("C3", 4).unwrap()] {
            next.play(cell).unwrap();
        }
        brain.ask_afresh();
        assert!(brain.choose(&next, &mut budget).is_ok());
        let (said, lines) = said_to(brain, &dir);
        assert_eq!(
            lines,
            [
                "START 4", "TURN 1,1", "RESTART", "BOARD", "1,1,2", "0,0,1", "2,2,2", "DONE"
            ],
            "{said}"
        );
    }

    #[test]
    fn with_settle_the_next_command_waits_until_the_brain_has_settled_after_its_answer() {
        // A brain that prints its move before it clears its "thinking"
        // flag drops a command that arrives in between: with `settle=MS`
        // the manager does not answer its move within microseconds.
        let settle = Duration::from_millis(20);
        let stamps = std::env::temp_dir().join(format!("kxo-brain-stamps-{}", std::process::id()));
        let _ = std::fs::remove_file(&stamps);
        let settings = BrainSettings {
            settle,
            ..BrainSettings::default()
        };
        let (mut brain, _, first) = instant_brain_with("BRAIN_STAMPS", &stamps, settings);
        let mut budget = kxo_engine::Unlimited::new();
        // The other side answers at once.
        let mut next = first;
        for cell in [Cell::new(0), Cell::parse("C3", 4).unwrap()] {
            next.play(cell).unwrap();
        }
        assert!(brain.choose(&next, &mut budget).is_ok());
        drop(brain);
        let said = std::fs::read_to_string(&stamps).unwrap();
        let _ = std::fs::remove_file(&stamps);
        // `answer NS` and `got NS LINE`: the first answer, and the TURN
        // that follows it.
        let fields: Vec<Vec<&str>> = said
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        let answer = fields
            .iter()
            .position(|f| f[0] == "answer")
            .expect("an answer");
        let turn = fields[answer..]
            .iter()
            .find(|f| f[0] == "got" && f.get(2) == Some(&"TURN"))
            .unwrap_or_else(|| panic!("no TURN after the answer:\n{said}"));
        let ns = |f: &[&str]| f[1].parse::<u64>().unwrap();
        // Stamped before the answer is written and after the TURN is read:
        // the gap can only be wider than the one the manager left.
        let gap = Duration::from_nanos(ns(turn).saturating_sub(ns(&fields[answer])));
        assert!(gap >= settle, "TURN came {gap:?} after the answer:\n{said}");
    }

    #[test]
    fn starting_a_brain_and_its_start_are_before_it_was_asked() {
        // The time START took is set-up, not the brain's: its clock runs
        // from the move command on.
        let log = std::env::temp_dir().join(format!("kxo-brain-start-{}", std::process::id()));
        let (brain, _, _) = instant_brain("SLOW_START_MS=300 BRAIN_LOG", &log);
        assert!(
            brain.before_asked() >= Duration::from_millis(300),
            "{:?}",
            brain.before_asked()
        );
        let (said, lines) = said_to(brain, &log);
        assert_eq!(lines, ["START 4", "TURN 1,1"], "{said}");
    }

    #[test]
    fn brain_commands_parse_with_quoted_arguments() {
        let c = BrainCommand::parse("brain:/usr/bin/pbrain --engine 'm c'").unwrap();
        assert_eq!(c.program, "/usr/bin/pbrain");
        assert_eq!(c.args, ["--engine", "m c"]);
        assert_eq!(c.name(), "pbrain");
        assert!(BrainCommand::parse("brain:").is_err());
        assert!(BrainCommand::parse("brain:'unclosed").is_err());
        assert!(BrainCommand::parse("mcts").is_err());
    }
}
