//! Outside brains as seats: a program that speaks the Gomoku AI protocol,
//! started for a game and played through its pipes.
//!
//! The brain's output is read without blocking; while it thinks, the seat
//! waits through [`Budget::wait_readable`], which in the live screen
//! suspends the seat's coroutine until the scheduler's poll sees the pipe
//! readable (no thread per brain), and in `arena` is a plain `poll`.
//!
//! A brain that does not start, exits, sends garbage, plays an occupied or
//! off-board cell, answers `ERROR`/`UNKNOWN`, or takes longer than its
//! time and a tolerance forfeits the game ([`Forfeit`]); its process is
//! killed and reaped at once, and every brain still running is killed when
//! kxo-tui exits ([`kill_all`]).

use std::fmt;
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::{cell_at, parse_xy, xy};
use crate::ai::Budget;
use crate::game::{Bits, Cell, Player, Position, Rules};
use crate::text::shown;

/// How long a brain may take to answer `START`.
pub const START_TIMEOUT: Duration = Duration::from_secs(5);
/// An outside brain's time per move when the run sets no clock.
pub const BRAIN_THINK: Duration = Duration::from_secs(1);
/// How far past its time a brain may answer before it forfeits.
pub const TOLERANCE: Duration = Duration::from_millis(500);
/// How long after a brain's answer its next command waits at least: Rapfi
/// (and brains like it) print the move before they are ready to read
/// again, and drop a command that comes in between.
/// (5 ms was not always enough for Rapfi with two games on two cores.)
const SETTLE: Duration = Duration::from_millis(20);
/// The longest line read from a brain; longer ones are cut.
const MAX_LINE: usize = 4096;
/// MESSAGE lines kept per brain until they are collected: a brain that
/// floods them costs nothing more than this.
const MAX_MESSAGES: usize = 16;

/// `brain:PATH [ARGS]` as the user wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrainCommand {
    pub program: String,
    pub args: Vec<String>,
}

impl BrainCommand {
    /// Reads `brain:PATH [ARGS]` (shell-style quoting in ARGS).
    pub fn parse(text: &str) -> Result<BrainCommand, String> {
        let rest = text
            .strip_prefix("brain:")
            .ok_or_else(|| format!("'{}' is not a brain: write brain:PATH [ARGS]", shown(text)))?;
        let words = shell_words::split(rest).map_err(|e| format!("'{}': {e}", shown(text)))?;
        let Some((program, args)) = words.split_first() else {
            return Err("brain: needs a program, as in brain:./my-brain".into());
        };
        Ok(BrainCommand {
            program: program.clone(),
            args: args.to_vec(),
        })
    }

    /// The program's file name, for the screen: "pbrain-foo".
    pub fn name(&self) -> &str {
        self.program.rsplit('/').next().unwrap_or(&self.program)
    }
}

impl fmt::Display for BrainCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "brain:{}", self.program)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// Why an outside brain lost its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    DidNotStart(String),
    Exited,
    Garbage(String),
    Refused(String),
    Occupied(String),
    OffBoard(String),
    TooSlow(Duration),
    /// The seat stopped waiting (the game was abandoned or kxo-tui quits).
    Abandoned,
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::DidNotStart(why) => write!(f, "the brain did not start: {}", shown(why)),
            Forfeit::Exited => f.write_str("the brain exited"),
            Forfeit::Garbage(line) => write!(f, "the brain sent '{}', not a move", shown(line)),
            Forfeit::Refused(line) => write!(f, "the brain answered '{}'", shown(line)),
            Forfeit::Occupied(m) => write!(f, "the brain played {m}, a taken cell"),
            Forfeit::OffBoard(m) => write!(f, "the brain played {m}, off the board"),
            Forfeit::TooSlow(t) => write!(f, "the brain gave no move in {} ms", t.as_millis()),
            Forfeit::Abandoned => f.write_str("the game was left while the brain thought"),
        }
    }
}

/// Child processes of brains not yet reaped, for [`kill_all`]. Held while
/// a brain is started, so that a sweep never mistakes a brain being
/// started for one that escaped.
fn running() -> &'static Mutex<Vec<u32>> {
    static RUNNING: OnceLock<Mutex<Vec<u32>>> = OnceLock::new();
    RUNNING.get_or_init(|| Mutex::new(Vec::new()))
}

/// Set when this process is a child subreaper (the binary, not tests):
/// then every child it has that is not a running brain is something a
/// brain started and left behind, and is ended.
static REAPER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes kxo-tui the reaper of everything its brains start: a brain's
/// child that leaves the brain's process group (`setsid`) and outlives the
/// brain becomes kxo-tui's child instead of init's, and is ended with the
/// brains. Dropped (on every way out of `main`, a panic's included), it
/// ends every brain and every such process.
pub struct BrainReaper(());

impl BrainReaper {
    pub fn install() -> BrainReaper {
        // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER takes one integer.
        let made = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0;
        REAPER.store(made, std::sync::atomic::Ordering::Relaxed);
        BrainReaper(())
    }
}

impl Drop for BrainReaper {
    fn drop(&mut self) {
        kill_all();
    }
}

/// Kills every brain process still running, and (as a subreaper) every
/// process a brain left behind. Called when kxo-tui exits, whatever the
/// path.
pub fn kill_all() {
    let mut running = running().lock().unwrap_or_else(|e| e.into_inner());
    for pid in std::mem::take(&mut *running) {
        // SAFETY: kill(2) and waitpid(2) on a child we started and have not
        // reaped, so the pid is still ours.
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
            libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0);
        }
        kill_group(pid);
    }
    sweep_orphans(&running);
}

/// As a subreaper: kills and reaps every child of ours that is not one of
/// the `running` brains, until none is left (each one killed may hand its
/// own children to us).
fn sweep_orphans(running: &[u32]) {
    if !REAPER.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    for _ in 0..100 {
        let strays: Vec<u32> = children_of(std::process::id())
            .into_iter()
            .filter(|pid| !running.contains(pid))
            .collect();
        if strays.is_empty() {
            return;
        }
        for pid in strays {
            // SAFETY: kill(2) and waitpid(2) on our own child: nothing
            // else of ours waits for it (it is no brain of ours).
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
                libc::waitpid(pid as libc::pid_t, std::ptr::null_mut(), 0);
            }
        }
    }
}

/// The processes whose parent is `parent`, from /proc (every thread's
/// `children` list, or each process's `stat` where those are missing).
fn children_of(parent: u32) -> Vec<u32> {
    let proc = std::path::Path::new("/proc");
    let mut out = Vec::new();
    for name in crate::gate::system_folder(proc) {
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Some(stat) = crate::gate::read_system(&proc.join(&name).join("stat"), 4096) else {
            continue;
        };
        let stat = String::from_utf8_lossy(&stat);
        // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            out.push(pid);
        }
    }
    out
}

/// SIGKILL to the brain and every process in its group, until none is
/// left: a process that was forking when the first signal went out can
/// leave a child the signal missed, so the group is signalled again until
/// the kernel says it is empty (or 100 tries, a few milliseconds).
fn kill_group(pid: u32) {
    for _ in 0..100 {
        // SAFETY: kill(2) on the process group a child of ours leads (it
        // was started with its own group, whose id is its pid).
        let sent = unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
        if sent != 0 {
            return; // ESRCH: nobody left in the group
        }
        std::thread::sleep(std::time::Duration::from_micros(200));
    }
}

/// A running brain: its pipes, and what it has sent that is not yet a line.
struct Process {
    child: Child,
    stdin: ChildStdin,
    stdout: ChildStdout,
    pending: Vec<u8>,
    closed: bool,
}

impl Process {
    fn spawn(command: &BrainCommand) -> io::Result<Process> {
        // Started and listed under one lock: a sweep never sees it unlisted.
        let mut running = running().lock().unwrap_or_else(|e| e.into_inner());
        // Its own process group, so that killing the group also ends any
        // process the brain started (a script's `sleep`).
        let mut brain = Command::new(&command.program);
        brain
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (prctl, getppid, _exit).
        unsafe {
            let parent = libc::getpid();
            brain.pre_exec(move || {
                // Killed when kxo-tui dies, even by SIGKILL; and if it died
                // already, before this line ran, not started at all.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
        let mut child = brain.spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("no pipes to the brain"));
        };
        running.push(child.id());
        drop(running);
        set_nonblocking(stdout.as_raw_fd())?;
        Ok(Process {
            child,
            stdin,
            stdout,
            pending: Vec::new(),
            closed: false,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        write!(self.stdin, "{line}\r\n")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Forfeit::Exited)
    }

    /// A whole line if one has arrived; reads what the pipe holds.
    fn try_line(&mut self) -> Result<Option<String>, Forfeit> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n' || b == b'\r') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                // Outside text: its control characters escaped, once, here.
                let text =
                    crate::text::shown_within(String::from_utf8_lossy(&line).trim(), MAX_LINE);
                if text.is_empty() {
                    continue;
                }
                return Ok(Some(text));
            }
            if self.closed {
                return Err(Forfeit::Exited);
            }
            let mut chunk = [0u8; 1024];
            match self.stdout.read(&mut chunk) {
                Ok(0) => self.closed = true,
                Ok(n) => {
                    self.pending.extend_from_slice(&chunk[..n]);
                    let ended = |b: &u8| *b == b'\n' || *b == b'\r';
                    if self.pending.len() > MAX_LINE && !self.pending.iter().any(ended) {
                        self.pending.truncate(MAX_LINE);
                        self.pending.push(b'\n');
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => self.closed = true,
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.send("END");
        let pid = self.child.id();
        // Reap the leader first: until then it is a zombie member of the
        // group and the group never looks empty.
        // SAFETY: kill(2) on our child, not yet reaped.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
        let _ = self.child.wait();
        kill_group(pid);
        let mut running = running().lock().unwrap_or_else(|e| e.into_inner());
        running.retain(|&p| p != pid);
        // What it started outside its group, now ours: ended too.
        sweep_orphans(&running);
    }
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl(2) on a pipe descriptor we own.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// An outside brain playing one game (a seat holds it as
/// `tournament::SeatEngine::Outside`).
pub struct OutsideBrain {
    command: BrainCommand,
    rules: Rules,
    think: Duration,
    process: Option<Process>,
    /// The stones the brain knows, its own and the opponent's.
    known: [Bits; 2],
    /// The side it plays, once known.
    side: Option<Player>,
    /// The brain has a match open (it has played a move of it).
    in_game: bool,
    /// MESSAGE lines not yet collected by [`OutsideBrain::take_messages`].
    messages: Vec<String>,
    /// Why it lost, once it has.
    forfeit: Option<Forfeit>,
    /// The match clock (INFO timeout_match), and what is left of it
    /// (INFO time_left before each move), when the game has one.
    match_clock: Option<Duration>,
    time_left: Option<Duration>,
    /// When its last answer came: its next command waits for [`SETTLE`].
    answered: Option<Instant>,
    /// How long the last move's command waited for that.
    settled: Duration,
    /// The game's moves in order, when the seat knows them (for `BOARD`).
    history: Vec<Cell>,
}

impl OutsideBrain {
    /// A brain that gets `think` per move (INFO timeout_turn).
    pub fn new(command: BrainCommand, rules: Rules, think: Duration) -> OutsideBrain {
        OutsideBrain {
            command,
            rules,
            think,
            process: None,
            known: [Bits::EMPTY; 2],
            side: None,
            in_game: false,
            messages: Vec::new(),
            forfeit: None,
            match_clock: None,
            time_left: None,
            answered: None,
            settled: Duration::ZERO,
            history: Vec::new(),
        }
    }

    /// The game's moves so far, in the order they were played: `BOARD`
    /// lists the stones so.
    pub fn set_history(&mut self, moves: &[Cell]) {
        self.history.clear();
        self.history.extend_from_slice(moves);
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

    /// How long the last move waited before the brain was asked (for
    /// [`SETTLE`]): not the brain's time.
    pub fn settled(&self) -> Duration {
        self.settled
    }

    /// The brain's MESSAGE lines since the last call.
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Starts the process and the match: START, then the limits.
    fn start(&mut self, budget: &mut dyn Budget) -> Result<(), Forfeit> {
        let mut process = Process::spawn(&self.command)
            .map_err(|e| Forfeit::DidNotStart(format!("{}: {e}", self.command.program)))?;
        process.send(&format!("START {}", self.rules.size()))?;
        let deadline = Instant::now() + START_TIMEOUT;
        let reply = read_reply(&mut process, budget, deadline, &mut self.messages).map_err(
            |e| match e {
                Forfeit::TooSlow(_) => Forfeit::DidNotStart("no answer to START".into()),
                other => other,
            },
        )?;
        if !reply.eq_ignore_ascii_case("OK") {
            return Err(Forfeit::DidNotStart(format!(
                "it answered '{}' to START",
                shown(&reply)
            )));
        }
        for (key, value) in [
            ("timeout_turn", self.think.as_millis().to_string()),
            (
                "timeout_match",
                self.match_clock.map_or(0, |t| t.as_millis()).to_string(),
            ),
            ("max_memory", (256u64 << 20).to_string()),
            ("game_type", "1".into()),
            ("rule", "0".into()),
        ] {
            process.send(&format!("INFO {key} {value}"))?;
        }
        self.process = Some(process);
        Ok(())
    }

    /// Asks for a move in `pos`: TURN with the opponent's last move when
    /// the brain knows the rest, else the whole board.
    fn ask(&mut self, pos: &Position, budget: &mut dyn Budget) -> Result<Cell, Forfeit> {
        let me = pos.to_move();
        if self.side != Some(me) {
            self.known = [Bits::EMPTY; 2];
            self.side = Some(me);
        }
        if self.process.is_none() {
            self.start(budget)?;
        }
        let size = self.rules.size();
        let (mine, theirs) = (pos.board(me), pos.board(me.other()));
        let [known_mine, known_theirs] = self.known;
        let new_theirs = theirs.and_not(known_theirs);
        let follows_on = mine == known_mine
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
        let Some(process) = self.process.as_mut() else {
            return Err(Forfeit::Exited);
        };
        let waiting = Instant::now();
        if let Some(settled) = self.answered.map(|at| at + SETTLE) {
            // Waits through the budget (the live screen runs the others);
            // a line the brain writes meanwhile ends a wait early, so loop.
            while Instant::now() < settled
                && budget.wait_readable(process.stdout.as_raw_fd(), settled)
            {}
        }
        self.settled = waiting.elapsed();
        if let Some(left) = self.time_left {
            process.send(&format!("INFO time_left {}", left.as_millis()))?;
        }
        for line in &command {
            process.send(line)?;
        }
        let asked = Instant::now();
        let due = self
            .time_left
            .map_or(self.think, |left| left.min(self.think));
        let deadline = asked + due + TOLERANCE;
        let reply =
            read_reply(process, budget, deadline, &mut self.messages).map_err(|e| match e {
                Forfeit::TooSlow(_) => Forfeit::TooSlow(asked.elapsed()),
                other => other,
            })?;
        self.answered = Some(Instant::now());
        let (x, y) = parse_xy(&reply).ok_or_else(|| {
            let word = reply.split_whitespace().next().unwrap_or("");
            if ["ERROR", "UNKNOWN"].contains(&word.to_ascii_uppercase().as_str()) {
                Forfeit::Refused(reply.clone())
            } else {
                Forfeit::Garbage(reply.clone())
            }
        })?;
        let cell = cell_at(x, y, size).ok_or_else(|| Forfeit::OffBoard(format!("{x},{y}")))?;
        if pos.at(cell).is_some() {
            return Err(Forfeit::Occupied(format!("{x},{y}")));
        }
        self.known = [mine.with(cell.index()), theirs];
        self.in_game = true;
        Ok(cell)
    }

    /// RESTART, answered by OK within the brain's time.
    fn restart(&mut self, budget: &mut dyn Budget) -> Result<(), Forfeit> {
        let Some(process) = self.process.as_mut() else {
            return Err(Forfeit::Exited);
        };
        process.send("RESTART")?;
        let deadline = Instant::now() + self.think + TOLERANCE;
        let reply = read_reply(process, budget, deadline, &mut self.messages)?;
        if !reply.eq_ignore_ascii_case("OK") {
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
    brain.start(&mut crate::ai::Unlimited::new())
}

/// The next line that is not MESSAGE or DEBUG (those are kept or dropped),
/// waiting through the budget until `deadline`.
fn read_reply(
    process: &mut Process,
    budget: &mut dyn Budget,
    deadline: Instant,
    messages: &mut Vec<String>,
) -> Result<String, Forfeit> {
    loop {
        while let Some(line) = process.try_line()? {
            let upper = line.to_ascii_uppercase();
            if let Some(text) = upper.strip_prefix("MESSAGE").map(|_| line[7..].trim()) {
                if messages.len() == MAX_MESSAGES {
                    messages.remove(0);
                }
                messages.push(text.to_string());
            } else if !upper.starts_with("DEBUG") {
                return Ok(line);
            }
        }
        if Instant::now() >= deadline {
            return Err(Forfeit::TooSlow(Duration::ZERO));
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
    pub fn choose(&mut self, pos: &Position, budget: &mut dyn Budget) -> Result<Cell, String> {
        if let Some(f) = &self.forfeit {
            return Err(f.to_string());
        }
        self.ask(pos, budget).map_err(|f| {
            self.process = None;
            let text = f.to_string();
            self.forfeit = Some(f);
            text
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tests/brains/slow.sh` answering at once on 4x4, writing to the
    /// file `file` as its variable `setting` says, after its first move
    /// (A1) in answer to B2; with the rules and the position it answered.
    fn instant_brain(setting: &str, file: &std::path::Path) -> (OutsideBrain, Rules, Position) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/brains/slow.sh");
        let rules = Rules::new(4, 3).unwrap();
        // Its settings through env(1): the test's own environment stays as it is.
        let command = BrainCommand::parse(&format!(
            "brain:env SLOW_BRAIN_MS=0 {setting}={} {script}",
            file.display()
        ))
        .unwrap();
        let mut brain = OutsideBrain::new(command, rules, Duration::from_secs(2));
        let first = Position::from_moves(rules, &[Cell::parse("B2", 4).unwrap()]).unwrap();
        let mut budget = crate::ai::Unlimited::new();
        assert_eq!(brain.choose(&first, &mut budget), Ok(Cell::new(0)));
        (brain, rules, first)
    }

    #[test]
    fn a_position_the_open_match_does_not_lead_to_is_sent_after_restart() {
        let dir = std::env::temp_dir().join(format!("kxo-brain-log-{}", std::process::id()));
        let (mut brain, rules, _) = instant_brain("BRAIN_LOG", &dir);
        let mut budget = crate::ai::Unlimited::new();
        // Not B2 then A1: another game altogether.
        let other = Position::from_moves(rules, &[Cell::parse("D4", 4).unwrap()]).unwrap();
        assert_eq!(brain.choose(&other, &mut budget), Ok(Cell::new(0)));
        drop(brain);
        let said = std::fs::read_to_string(&dir).unwrap();
        let _ = std::fs::remove_file(&dir);
        let lines: Vec<&str> = said.lines().filter(|l| !l.starts_with("INFO")).collect();
        assert_eq!(
            lines,
            ["START 4", "TURN 1,1", "RESTART", "BOARD", "3,3,2", "DONE"],
            "{said}"
        );
    }

    #[test]
    fn the_next_command_waits_until_the_brain_has_settled_after_its_answer() {
        // Rapfi prints its move before it clears its "thinking" flag and
        // drops a command that arrives in between: the manager must not
        // answer a brain's move within microseconds.
        let stamps = std::env::temp_dir().join(format!("kxo-brain-stamps-{}", std::process::id()));
        let _ = std::fs::remove_file(&stamps);
        let (mut brain, _, first) = instant_brain("BRAIN_STAMPS", &stamps);
        let mut budget = crate::ai::Unlimited::new();
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
        assert!(gap >= SETTLE, "TURN came {gap:?} after the answer:\n{said}");
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
