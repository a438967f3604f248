//! Running the real binary in a pseudo-terminal and reading its screen
//! through a terminal emulator (vt100), as a user would see it.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

pub struct Session {
    /// Where the program keeps its data (its models): never the user's.
    _data: tempfile::TempDir,
    parser: Arc<Mutex<vt100::Parser>>,
    /// The screen as of the last whole frame: what a terminal that honours
    /// synchronized updates shows (never half of a frame).
    shown: Arc<Mutex<vt100::Screen>>,
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
}

fn nz(v: u16) -> NonZeroU16 {
    NonZeroU16::new(v).expect("non-zero size")
}

impl Session {
    pub fn start(args: &[&str], cols: u16, rows: u16, env: &[(&str, &str)]) -> Session {
        Session::start_program(env!("CARGO_BIN_EXE_kxo-tui"), args, cols, rows, env)
    }

    /// Another program in the pseudo-terminal (e.g. a shell that runs
    /// kxo-tui with job control).
    pub fn start_program(
        program: &str,
        args: &[&str],
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Session {
        Session::start_in(None, program, args, (cols, rows), env)
    }

    /// kxo-tui in the pseudo-terminal, run in the folder `dir`.
    pub fn start_kxo_in(dir: &std::path::Path, args: &[&str], cols: u16, rows: u16) -> Session {
        Session::start_in(
            Some(dir),
            env!("CARGO_BIN_EXE_kxo-tui"),
            args,
            (cols, rows),
            &[],
        )
    }

    fn start_in(
        dir: Option<&std::path::Path>,
        program: &str,
        args: &[&str],
        (cols, rows): (u16, u16),
        env: &[(&str, &str)],
    ) -> Session {
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        if let Some(dir) = dir {
            cmd.cwd(dir);
        }
        cmd.env("TERM", "xterm-256color");
        cmd.env("LANG", "C.UTF-8");
        cmd.env_remove("LC_ALL");
        cmd.env_remove("LC_CTYPE");
        cmd.env_remove("NO_COLOR");
        let data = tempfile::tempdir().expect("temp data dir");
        cmd.env("XDG_DATA_HOME", data.path());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("spawn kxo-tui");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().expect("pty reader");
        let writer = pair.master.take_writer().expect("pty writer");
        let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(rows), nz(cols), 0)));
        let shown = Arc::new(Mutex::new(parser.lock().expect("parser").screen().clone()));
        let (feed, show) = (parser.clone(), shown.clone());
        thread::spawn(move || {
            let mut frames = FrameSplitter::default();
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let Ok(mut p) = feed.lock() else { break };
                frames.feed(&buf[..n], |bytes, complete| {
                    p.process(bytes);
                    if complete && let Ok(mut s) = show.lock() {
                        *s = p.screen().clone();
                    }
                });
            }
        });
        Session {
            _data: data,
            parser,
            shown,
            master: pair.master,
            writer,
            child,
        }
    }

    pub fn screen(&self) -> String {
        self.shown.lock().expect("screen").contents()
    }

    pub fn alternate_screen(&self) -> bool {
        self.shown.lock().expect("screen").alternate_screen()
    }

    pub fn cursor_hidden(&self) -> bool {
        self.shown.lock().expect("screen").hide_cursor()
    }

    /// Number of cells drawn with a colour other than the default.
    pub fn coloured_cells(&self) -> usize {
        let screen = self.shown.lock().expect("screen");
        let (rows, cols) = screen.size();
        let mut count = 0;
        for r in 0..rows.get() {
            for c in 0..cols.get() {
                if let Some(cell) = screen.cell(r, c) {
                    let plain = vt100::Color::Default;
                    if cell.fgcolor() != plain || cell.bgcolor() != plain {
                        count += 1;
                    }
                }
            }
        }
        count
    }

    pub fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).expect("write to pty");
        self.writer.flush().expect("flush pty");
    }

    /// Waits until the screen satisfies `pred`; panics with the screen if
    /// it does not within `timeout`.
    pub fn wait_until(&self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            if start.elapsed() > timeout {
                panic!("timed out waiting for {what}; the screen was:\n{screen}");
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn wait_for(&self, needle: &str, timeout: Duration) -> String {
        self.wait_until(needle, timeout, |s| s.contains(needle))
    }

    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.parser
            .lock()
            .expect("parser")
            .screen_mut()
            .set_size(nz(rows), nz(cols));
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize pty");
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.process_id()
    }

    /// Waits for the process to exit; returns its exit code.
    pub fn wait_exit(&mut self, timeout: Duration) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                // Let the reader thread take in the last bytes.
                thread::sleep(Duration::from_millis(100));
                return status.exit_code();
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("kxo-tui did not exit; the screen was:\n{}", self.screen());
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

/// Cuts the program's output at the synchronized-update marks, so that the
/// screen is published only between frames.
#[derive(Default)]
struct FrameSplitter {
    /// Bytes that may be the start of a mark split across two reads.
    carry: Vec<u8>,
    in_frame: bool,
}

impl FrameSplitter {
    const MARK: &'static [u8] = b"\x1b[?2026";

    /// Hands `out` the bytes in order, each piece with whether the screen
    /// is whole after it (outside a frame).
    fn feed(&mut self, bytes: &[u8], mut out: impl FnMut(&[u8], bool)) {
        let mut data = std::mem::take(&mut self.carry);
        data.extend_from_slice(bytes);
        let mut from = 0;
        while let Some(at) = find(&data[from..], Self::MARK).map(|i| from + i) {
            let end = at + Self::MARK.len();
            let Some(&kind) = data.get(end) else { break };
            match kind {
                b'h' => self.in_frame = true,
                b'l' => self.in_frame = false,
                _ => {}
            }
            out(&data[from..=end], !self.in_frame);
            from = end + 1;
        }
        // Keep a possible partial mark for the next read.
        let rest = &data[from..];
        let keep = (1..=rest.len().min(Self::MARK.len()))
            .rev()
            .find(|&k| Self::MARK.starts_with(&rest[rest.len() - k..]))
            .unwrap_or(0);
        let (now, later) = rest.split_at(rest.len() - keep);
        if !now.is_empty() {
            out(now, !self.in_frame);
        }
        self.carry = later.to_vec();
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }
}

/// Control-key bytes.
pub const CTRL_P: &[u8] = b"\x10";
pub const CTRL_Q: &[u8] = b"\x11";
pub const CTRL_C: &[u8] = b"\x03";

/// Runs the binary to its end (a headless command) with `env` added; its
/// exit status, stdout and stderr. Models go to a scratch folder, never the
/// user's.
pub fn kxo_with(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let data = tempfile::tempdir().expect("temp dir");
    let out = std::process::Command::new(bin())
        .args(args)
        .env("XDG_DATA_HOME", data.path())
        .envs(env.iter().copied())
        .output()
        .expect("run kxo-tui");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the binary to its end with its data folder in `home`; it must
/// succeed (a test fails with its stderr): its standard output.
pub fn kxo_ok_in(home: &std::path::Path, args: &[&str]) -> String {
    let out = std::process::Command::new(bin())
        .args(args)
        .env("XDG_DATA_HOME", home)
        .output()
        .expect("run kxo-tui");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The path of a test brain in `tests/brains/`.
pub fn brain_script(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/brains")
        .join(name)
        .display()
        .to_string()
}

/// The binary under test. `KXO_HOSTILE_BIN` names another build, to show
/// that these tests fail on a build without the fixes.
pub fn bin() -> String {
    std::env::var("KXO_HOSTILE_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_kxo-tui").into())
}

/// What a finished run of the binary left: status, output, peak memory.
pub struct Run {
    pub code: i32,
    pub out: Vec<u8>,
    pub err: Vec<u8>,
    /// Peak resident memory, in MiB.
    pub max_rss_mib: f64,
    pub elapsed: Duration,
    /// Its CPU time, user and system (wait4(2)): what a test may bound,
    /// where the wall time is the machine's to stretch.
    pub cpu: Duration,
}

impl Run {
    pub fn text(&self) -> String {
        format!(
            "{}{}",
            String::from_utf8_lossy(&self.out),
            String::from_utf8_lossy(&self.err)
        )
    }
}

/// Runs the binary with `stdin` bytes, to its end, measuring its peak RSS
/// with wait4(2). Killed after `limit`.
pub fn run_measured(args: &[&str], stdin: &[u8], limit: Duration) -> Run {
    let bytes = stdin.to_vec();
    run_fed(args, move |w| w.write_all(&bytes), limit)
}

/// [`run_measured`] with standard input written by `feed` (so that a huge
/// input is never held whole by the test: a child's peak RSS counts the
/// test process's memory at the fork).
pub fn run_fed(
    args: &[&str],
    feed: impl FnOnce(&mut std::process::ChildStdin) -> std::io::Result<()> + Send + 'static,
    limit: Duration,
) -> Run {
    run_env(args, &[], feed, limit)
}

/// A child's peak memory counts this process's at the moment it was
/// spawned (it shares our memory until it runs its program), and a panic
/// that prints a backtrace makes this process large: failures print their
/// message alone, so that a failing test leaves the others' memory
/// figures the children's own.
pub fn light_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| eprintln!("{info}")));
    });
}

/// [`run_fed`] with `env` added to the environment.
pub fn run_env(
    args: &[&str],
    env: &[(&str, &str)],
    feed: impl FnOnce(&mut std::process::ChildStdin) -> std::io::Result<()> + Send + 'static,
    limit: Duration,
) -> Run {
    light_panics();
    let data = tempfile::tempdir().expect("temp dir");
    // Reaped below by wait4(2), which also gives its peak memory.
    #[allow(clippy::zombie_processes)]
    let mut child = std::process::Command::new(bin())
        .args(args)
        .env("XDG_DATA_HOME", data.path())
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn kxo-tui");
    let started = Instant::now();
    let mut input = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let _ = feed(&mut input);
    });
    let (mut o, mut e) = (
        child.stdout.take().expect("stdout"),
        child.stderr.take().expect("stderr"),
    );
    let reader_o = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = o.read_to_end(&mut v);
        v
    });
    let reader_e = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = e.read_to_end(&mut v);
        v
    });
    let pid = child.id() as libc::pid_t;
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: wait4(2) on our own child with valid out-pointers.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break (status, usage);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = started.elapsed();
    let _ = feeder.join();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    Run {
        code,
        out: reader_o.join().unwrap_or_default(),
        err: reader_e.join().unwrap_or_default(),
        max_rss_mib: usage.ru_maxrss as f64 / 1024.0,
        elapsed,
        cpu: [usage.ru_utime, usage.ru_stime]
            .iter()
            .map(|t| Duration::new(t.tv_sec.max(0) as u64, t.tv_usec.max(0) as u32 * 1000))
            .sum(),
    }
}

/// The process id a test's brain writes to `file`, once the file holds
/// one: the shell creates the file before it writes the number, so its
/// being there is not enough. Gives up after `limit` (a wait, as
/// [`Session::wait_until`] is, not a deadline the program must meet).
pub fn pid_in(file: &std::path::Path, limit: Duration) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(file)
            .ok()
            .and_then(|t| t.trim().parse().ok())
        {
            return pid;
        }
        if start.elapsed() > limit {
            panic!("gave up waiting for a pid in {}", file.display());
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// A running kxo-tui, killed if the test leaves it running.
pub struct Running {
    pub child: std::process::Child,
}

impl Running {
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Running {
        let child = std::process::Command::new(bin())
            .args(args)
            .envs(env.iter().copied())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start kxo-tui");
        Running { child }
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    pub fn signal(&self, signal: i32) {
        // SAFETY: kill(2) on the child this value started.
        unsafe { libc::kill(self.pid(), signal) };
    }

    /// Its resident memory now, in MiB.
    pub fn rss_mib(&self) -> f64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    }

    /// Waits up to `limit` for it to end (then kills it): its status,
    /// stdout, stderr.
    pub fn wait(mut self, limit: Duration) -> (Option<i32>, String, String) {
        use std::io::Read;
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let status = self.child.wait().ok().and_then(|s| s.code());
        let (mut out, mut err) = (String::new(), String::new());
        if let Some(o) = self.child.stdout.as_mut() {
            let _ = o.read_to_string(&mut out);
        }
        if let Some(e) = self.child.stderr.as_mut() {
            let _ = e.read_to_string(&mut err);
        }
        (status, out, err)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A command line's words, as a shell splits one without quotes:
/// `words("arena --games 2")`.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// The flags of a 15x15 game of five in a row between `o` and `x`, with
/// `before` and `after` around them (the live screen's or `arena`'s).
pub fn gomoku_args<'a>(
    before: &[&'a str],
    o: &'a str,
    x: &'a str,
    after: &[&'a str],
) -> Vec<&'a str> {
    let mut args = before.to_vec();
    args.extend(["--size", "15", "--goal", "5", "--o", o, "--x", x]);
    args.extend_from_slice(after);
    args
}

/// kxo-tui run with `args`: its status, stdout and stderr.
pub fn kxo(args: &[&str]) -> (i32, String, String) {
    kxo_with(args, &[])
}

/// A command's JSON output, read (a test fails with the text it got).
pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The CPU time (user and system) process `pid` has used, from
/// `/proc/PID/stat` (ticks of 10 ms).
pub fn cpu_of(pid: u32) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the name: state, ppid, …; utime and stime are the 14th and
    // 15th fields of the line, the 12th and 13th after the name.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest.split_whitespace().collect())
        .unwrap_or_default();
    let field = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    let ticks = field(11) + field(12);
    Duration::from_millis(ticks * 10)
}
