//! A brain: the command that starts it, how it can lose a game
//! ([`Forfeit`]), and its process: started in its own group, tied to kxo-tui's life
//! (`PR_SET_PDEATHSIG`), read without blocking and a bounded line at a
//! time, and ended with everything it started, on every way out.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use std::fmt;

use kxo_engine::text::shown;

/// The longest line read from a brain; the rest of a longer one is dropped.
pub(super) const MAX_LINE: usize = 4096;

/// `brain:PATH [ARGS]` or `gtp:PATH [ARGS]` as the user wrote it: an
/// outside program and the protocol it speaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrainCommand {
    pub protocol: Protocol,
    pub program: String,
    pub args: Vec<String>,
    /// It runs in its program's own folder (`cwd=own`), as Gomocup's
    /// managers (piskvork, GomocupJudge, c-gomoku-cli) run a brain, so
    /// that one that loads files beside itself finds them: a brain's
    /// default. Else in the folder kxo-tui was started in (`cwd=run`), as
    /// GTP's managers run an engine: a GTP engine's default.
    pub own_folder: bool,
}

/// What an outside program speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The Gomoku AI protocol (`brain:`).
    Gomoku,
    /// The Go Text Protocol (`gtp:`).
    Gtp,
}

impl Protocol {
    /// Every protocol an outside engine may speak: what a spec is read
    /// against, and what the hostile catalogue runs (`tests/outside.rs`).
    pub const ALL: [Protocol; 2] = [Protocol::Gomoku, Protocol::Gtp];

    /// How a spec names it.
    pub fn prefix(self) -> &'static str {
        match self {
            Protocol::Gomoku => "brain:",
            Protocol::Gtp => "gtp:",
        }
    }
}

impl BrainCommand {
    /// Reads `brain:PATH [ARGS]` or `gtp:PATH [ARGS]` (shell-style
    /// quoting in ARGS).
    pub fn parse(text: &str) -> Result<BrainCommand, String> {
        let (protocol, rest) = Protocol::ALL
            .into_iter()
            .find_map(|p| text.strip_prefix(p.prefix()).map(|rest| (p, rest)))
            .ok_or_else(|| {
                format!(
                    "'{}' is not an outside engine: write brain:PATH [ARGS] (a Gomoku brain) \
                     or gtp:PATH [ARGS] (a Go engine)",
                    shown(text)
                )
            })?;
        let words = shell_words::split(rest).map_err(|e| format!("'{}': {e}", shown(text)))?;
        let Some((program, args)) = words.split_first() else {
            return Err(format!(
                "{} needs a program, as in {}./my-engine",
                protocol.prefix(),
                protocol.prefix()
            ));
        };
        Ok(BrainCommand {
            protocol,
            program: program.clone(),
            args: args.to_vec(),
            own_folder: protocol == Protocol::Gomoku,
        })
    }

    /// The program's path and the folder it runs in: with `own_folder`
    /// and a path (not a name looked up in `PATH`), the path made absolute
    /// and its folder; else the path as given and no folder of its own.
    fn placed(&self) -> (std::path::PathBuf, Option<std::path::PathBuf>) {
        let given = std::path::PathBuf::from(&self.program);
        if !self.own_folder || !self.program.contains('/') {
            return (given, None);
        }
        let absolute = match std::env::current_dir() {
            Ok(here) if given.is_relative() => here.join(given),
            _ => given,
        };
        let folder = absolute.parent().map(std::path::Path::to_path_buf);
        (absolute, folder)
    }

    /// The program's file name, for the screen: "pbrain-foo".
    pub fn name(&self) -> &str {
        self.program.rsplit('/').next().unwrap_or(&self.program)
    }
}

impl fmt::Display for BrainCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.protocol.prefix(), self.program)?;
        // Quoted as a shell would need it, so the text parses back to the
        // same command (an empty argument stays an argument).
        for a in &self.args {
            write!(f, " {}", shell_words::quote(a))?;
        }
        Ok(())
    }
}

/// Why an outside brain lost its game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Forfeit {
    DidNotStart(String),
    Exited,
    /// Only lines that answer nothing (the last of them) in its time.
    Garbage(String),
    Refused(String),
    Occupied(String),
    OffBoard(String),
    TooSlow(Duration),
    /// Its process held more memory than `INFO max_memory` allowed: what
    /// it held, and its limit, in bytes.
    Memory {
        used: u64,
        limit: u64,
    },
    /// The seat stopped waiting (the game was abandoned or kxo-tui quits).
    Abandoned,
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::DidNotStart(why) => write!(f, "the brain did not start: {}", shown(why)),
            Forfeit::Exited => f.write_str("the brain exited"),
            Forfeit::Garbage(line) => write!(
                f,
                "the brain sent '{}', not a move, and no move in its time",
                shown(line)
            ),
            Forfeit::Refused(line) => write!(f, "the brain answered '{}'", shown(line)),
            Forfeit::Occupied(m) => write!(f, "the brain played {m}, a taken cell"),
            Forfeit::OffBoard(m) => write!(f, "the brain played {m}, off the board"),
            Forfeit::TooSlow(t) => write!(f, "the brain gave no move in {} ms", t.as_millis()),
            Forfeit::Memory { used, limit } => write!(
                f,
                "the brain held {} MB, past its {} MB (INFO max_memory)",
                used >> 20,
                limit >> 20
            ),
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

impl Process {
    /// Whether its process has exited, asked without reaping it
    /// (`WNOWAIT`): until [`Drop`] reaps it, its pid and group stay ours,
    /// so that no signal can reach a process that took the number over.
    fn has_exited(&self) -> bool {
        // SAFETY: waitid(2) on our own child into a zeroed siginfo_t;
        // WNOWAIT leaves it waitable.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let asked = libc::waitid(
                libc::P_PID,
                self.child.id() as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            asked == 0 && info.si_pid() != 0
        }
    }

    /// Stops (`SIGSTOP`) or resumes (`SIGCONT`) the program and all it
    /// started: a brain waits stopped while the other side thinks, as
    /// GomocupJudge suspends it, so that it takes no core from it.
    pub(super) fn set_stopped(&mut self, stopped: bool) {
        if self.stopped == stopped {
            return;
        }
        let signal = if stopped {
            libc::SIGSTOP
        } else {
            libc::SIGCONT
        };
        // SAFETY: kill(2) on the process group our child leads (started
        // with a group of its own, not yet reaped: its id is still ours).
        unsafe { libc::kill(-(self.child.id() as libc::pid_t), signal) };
        self.stopped = stopped;
    }
}

/// A running brain: its pipes, and what it has sent that is not yet a line.
pub(super) struct Process {
    pub(super) child: Child,
    stdin: ChildStdin,
    pub(super) stdout: ChildStdout,
    pending: Vec<u8>,
    closed: bool,
    /// What was said both ways, when the run keeps it (`arena --log`).
    pub(super) transcript: Option<Transcript>,
    /// The protocol's last word before the process is ended: `END` to a
    /// Gomoku brain, `quit` to a GTP engine.
    farewell: &'static str,
    /// How its lines end: `\r\n` as Gomocup's managers write them, `\n`
    /// for GTP (whose engines need not drop a carriage return).
    line_end: &'static str,
    /// Its `/proc/PID/stat`, kept open: its CPU time is read before and
    /// after every move.
    stat: Option<crate::gate::SystemFile>,
    /// It is stopped ([`Process::set_stopped`]).
    stopped: bool,
    /// Its `/proc/PID/statm`, kept open: the memory it holds is read after
    /// every move.
    statm: Option<crate::gate::SystemFile>,
}

/// A brain's conversation over one game, bounded: past
/// [`Transcript::MAX_BYTES`] only the count of lines left out grows.
#[derive(Clone, Debug)]
pub struct Transcript {
    started: std::time::Instant,
    lines: Vec<String>,
    bytes: usize,
    left_out: u64,
}

impl Transcript {
    pub const MAX_BYTES: usize = 1 << 20;

    pub fn new() -> Transcript {
        Transcript {
            started: std::time::Instant::now(),
            lines: Vec::new(),
            bytes: 0,
            left_out: 0,
        }
    }

    /// One line, `>` to the brain or `<` from it, with the milliseconds
    /// since the transcript began (outside text arrives escaped).
    fn note(&mut self, arrow: char, line: &str) {
        if self.bytes + line.len() > Self::MAX_BYTES {
            self.left_out += 1;
            return;
        }
        let ms = self.started.elapsed().as_millis();
        let text = format!("{ms:>7} {arrow} {line}");
        self.bytes += text.len() + 1;
        self.lines.push(text);
    }

    /// The lines, and a last one saying how many were left out.
    pub fn into_lines(mut self) -> Vec<String> {
        if self.left_out > 0 {
            self.lines.push(format!(
                "… {} more lines left out (past {} bytes)",
                self.left_out,
                Self::MAX_BYTES
            ));
        }
        self.lines
    }
}

impl Default for Transcript {
    fn default() -> Transcript {
        Transcript::new()
    }
}

/// What an outside seat (a Gomoku brain, a GTP engine) holds of its
/// program: the command, the process once started, why it lost, what
/// its last move cost, and what was said (for `arena --log`) while no
/// process holds it.
pub(super) struct Pipe {
    pub(super) command: BrainCommand,
    pub(super) process: Option<Process>,
    pub(super) forfeit: Option<Forfeit>,
    cpu_before: Option<Duration>,
    pub(super) last_cpu: Duration,
    transcript: Option<Transcript>,
}

impl Pipe {
    pub(super) fn new(command: BrainCommand) -> Pipe {
        Pipe {
            command,
            process: None,
            forfeit: None,
            cpu_before: None,
            last_cpu: Duration::ZERO,
            transcript: None,
        }
    }

    /// Starts the program (`end_line` asks it to quit), carrying on the
    /// transcript: held here from the first line, so that a program
    /// failing to start still leaves what it said (and is ended).
    pub(super) fn spawn(&mut self, end_line: &'static str) -> Result<&mut Process, Forfeit> {
        let mut started = Process::spawn(&self.command, end_line)
            .map_err(|e| Forfeit::DidNotStart(format!("{}: {e}", self.command.program)))?;
        started.transcript = self.transcript.take();
        Ok(self.process.insert(started))
    }

    /// It loses by `f`: the process is ended, what it said is kept, and
    /// every later question gets the same reason.
    pub(super) fn lose(&mut self, f: Forfeit) -> String {
        if let Some(transcript) = self.process.take().and_then(|mut p| p.transcript.take()) {
            self.transcript = Some(transcript);
        }
        let text = f.to_string();
        self.forfeit = Some(f);
        text
    }

    /// Whether it lost by giving no move in time.
    pub(super) fn out_of_time(&self) -> bool {
        matches!(self.forfeit, Some(Forfeit::TooSlow(_)))
    }

    /// Notes its CPU time before a move is asked.
    pub(super) fn move_asked(&mut self) {
        self.cpu_before = self.process.as_ref().and_then(Process::cpu);
    }

    /// Notes what the move took of its CPU, once answered.
    pub(super) fn move_answered(&mut self) {
        self.last_cpu = match (
            self.cpu_before,
            self.process.as_ref().and_then(Process::cpu),
        ) {
            (Some(before), Some(after)) => after.saturating_sub(before),
            _ => Duration::ZERO,
        };
    }

    /// Keeps what is said both ways from now on (by the process, when it
    /// runs already: one kept across games).
    pub(super) fn keep_transcript(&mut self) {
        match self.process.as_mut() {
            Some(process) => process.transcript = Some(Transcript::new()),
            None => self.transcript = Some(Transcript::new()),
        }
    }

    /// Whether it may play another game in the same process: it lost
    /// nothing, and its process runs (one that crashed between games is
    /// not kept: a new one is started).
    pub(super) fn reusable(&mut self) -> bool {
        self.forfeit.is_none()
            && self
                .process
                .as_ref()
                .is_some_and(|p| !p.closed && !p.has_exited())
    }

    /// What was said since [`Pipe::keep_transcript`], the process ended
    /// or not.
    pub(super) fn take_transcript(&mut self) -> Option<Vec<String>> {
        let from_process = self.process.as_mut().and_then(|p| p.transcript.take());
        from_process
            .or(self.transcript.take())
            .map(Transcript::into_lines)
    }
}

impl Process {
    pub(super) fn spawn(command: &BrainCommand, farewell: &'static str) -> io::Result<Process> {
        // Started and listed under one lock: a sweep never sees it unlisted.
        let mut running = running().lock().unwrap_or_else(|e| e.into_inner());
        // Its own process group, so that killing the group also ends any
        // process the brain started (a script's `sleep`).
        let (program, folder) = command.placed();
        let mut brain = Command::new(program);
        if let Some(folder) = folder {
            brain.current_dir(folder);
        }
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
        let pid = child.id();
        running.push(pid);
        drop(running);
        set_nonblocking(stdout.as_raw_fd())?;
        Ok(Process {
            child,
            stdin,
            stdout,
            pending: Vec::new(),
            closed: false,
            transcript: None,
            farewell,
            line_end: match command.protocol {
                Protocol::Gomoku => "\r\n",
                Protocol::Gtp => "\n",
            },
            stat: crate::gate::SystemFile::open(std::path::Path::new(&format!("/proc/{pid}/stat"))),
            stopped: false,
            statm: crate::gate::SystemFile::open(std::path::Path::new(&format!(
                "/proc/{pid}/statm"
            ))),
        })
    }

    pub(super) fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        // A stopped brain is woken by whatever it is told.
        self.set_stopped(false);
        if let Some(t) = self.transcript.as_mut() {
            t.note('>', line);
        }
        // One write a line: a brain never sees half of one.
        self.stdin
            .write_all(format!("{line}{}", self.line_end).as_bytes())
            .map_err(|_| Forfeit::Exited)
    }

    /// A whole line if one has arrived, empty lines skipped (the Gomoku
    /// protocol's ends of line are `\r`, `\n` or both); reads what the
    /// pipe holds.
    pub(super) fn try_line(&mut self) -> Result<Option<String>, Forfeit> {
        self.next_line(false)
    }

    /// A whole line if one has arrived, an empty one too: GTP ends each
    /// answer with an empty line, and its ends of line are `\n` (a `\r`
    /// before it dropped).
    pub(super) fn try_gtp_line(&mut self) -> Result<Option<String>, Forfeit> {
        self.next_line(true)
    }

    fn next_line(&mut self, gtp: bool) -> Result<Option<String>, Forfeit> {
        loop {
            let ends = |b: &u8| *b == b'\n' || (!gtp && *b == b'\r');
            if let Some(end) = self.pending.iter().position(ends) {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                // Outside text: its control characters escaped, once, here.
                let text =
                    kxo_engine::text::shown_within(String::from_utf8_lossy(&line).trim(), MAX_LINE);
                if text.is_empty() && !gtp {
                    continue;
                }
                if let (Some(t), false) = (self.transcript.as_mut(), text.is_empty()) {
                    t.note('<', &text);
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
        let _ = self.send(self.farewell);
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

impl Process {
    /// The CPU time its process has used so far.
    fn cpu(&self) -> Option<Duration> {
        process_cpu(&self.stat.as_ref()?.read_now(4096)?)
    }

    /// The memory its process holds now (its resident set), in bytes:
    /// the program's own process, as Gomocup's managers measure a brain.
    pub(super) fn resident_bytes(&self) -> Option<u64> {
        let statm = self.statm.as_ref()?.read_now(512)?;
        let pages: u64 = String::from_utf8_lossy(&statm)
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()?;
        // SAFETY: sysconf(3) has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as u64;
        Some(pages.saturating_mul(page))
    }
}

/// The CPU time a process has used so far, from the text of its
/// `/proc/PID/stat` (its user and system time, in clock ticks).
pub(super) fn process_cpu(stat: &[u8]) -> Option<Duration> {
    let stat = String::from_utf8_lossy(stat);
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // After the name: state is field 3, utime 14 and stime 15.
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf(3) has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Some(Duration::from_millis(ticks.saturating_mul(1000) / hz))
}
