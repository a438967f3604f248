//! kxo-tui against hostile files, brains, arguments and terminals (issue
//! 21): one test per fault. Each runs the real binary and checks what a
//! user would suffer: a file overwritten through a link, a byte of an
//! escape sequence on their terminal, memory or time without bound, a
//! process left running.

mod common;

use common::kxo;

use std::fs;
use std::io::Write;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::{MetadataExt, PermissionsExt, symlink};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Run, bin, brain_script, gomoku_args, pid_in, run_fed, run_measured};

/// `kxo-tui train` of `episodes` games into the model at `model`.
fn train(model: &Path, episodes: &str) -> (i32, String, String) {
    let model = model.to_str().expect("utf-8 path");
    kxo(&["train", "--episodes", episodes, "--model", model])
}

/// One arena game of Gomoku: `brain` as O against the random engine.
fn gomoku_game_against_random(brain: &str, extra: &[&str]) -> Run {
    let mut args = gomoku_args(&["arena"], brain, "random", &["--games", "1"]);
    args.extend_from_slice(extra);
    run_measured(&args, b"", Duration::from_secs(30))
}

fn no_escape_byte(run: &Run) {
    assert!(
        !run.out.contains(&0x1b) && !run.err.contains(&0x1b),
        "an ESC byte reached the terminal:\n{}",
        run.text().escape_debug()
    );
}

/// A folder anyone can write, sticky, like /tmp.
fn sticky_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o1777)).expect("chmod");
    dir
}

// 1. The model's temporary file: never a planted link or file.
#[test]
fn a_save_never_follows_a_planted_link_nor_reuses_a_planted_file() {
    let shared = sticky_folder();
    let victim_dir = tempfile::tempdir().expect("temp dir");
    let victim = victim_dir.path().join("precious.txt");
    fs::write(&victim, b"the victim's own words").expect("victim");
    // The old scheme's names (.NAME.tmp-PID) for every likely PID: half
    // links to the victim's file, half world-writable files.
    let next = std::process::id();
    for pid in next..next + 400 {
        let planted = shared.path().join(format!(".m.model.tmp-{pid}"));
        if pid % 2 == 0 {
            symlink(&victim, &planted).expect("plant link");
        } else {
            fs::write(&planted, b"").expect("plant file");
            fs::set_permissions(&planted, fs::Permissions::from_mode(0o666)).expect("chmod");
        }
    }
    let model = shared.path().join("m.model");
    let (code, _, err) = train(model.as_path(), "300");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        fs::read(&victim).expect("victim"),
        b"the victim's own words"
    );
    let meta = fs::symlink_metadata(&model).expect("model saved");
    assert!(meta.is_file());
    // A planted file reused would keep its 0666 (and its owner).
    assert_eq!(
        meta.mode() & 0o777 & !0o022,
        0o644,
        "mode {:o}",
        meta.mode()
    );
    let rules = kxo_engine::Rules::default_rules();
    assert!(
        kxo_tui::model::load(&model, rules)
            .expect("a model")
            .is_some()
    );
    // SAFETY: geteuid(2) cannot fail.
    assert_eq!(meta.uid(), unsafe { libc::geteuid() });
    // What a killed save of ours left (all of them, as the same user) is gone.
    let left: Vec<String> = fs::read_dir(shared.path())
        .expect("list")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

// 1b. A link that another user planted in a sticky folder is refused.
#[test]
fn a_link_another_user_planted_in_a_shared_folder_is_not_followed() {
    // SAFETY: geteuid(2) cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: needs root to make a link owned by another user");
        return;
    }
    let shared = sticky_folder();
    let victim_dir = tempfile::tempdir().expect("temp dir");
    let victim = victim_dir.path().join("precious.model");
    fs::write(&victim, b"not a model, the victim's").expect("victim");
    let link = shared.path().join("m.model");
    symlink(&victim, &link).expect("plant");
    std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).expect("lchown");
    let (code, _, err) = train(&link, "10");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("another user (uid 65534) made: not followed"),
        "{err}"
    );
    assert_eq!(
        fs::read(&victim).expect("victim"),
        b"not a model, the victim's"
    );
    assert!(!victim_dir.path().join("precious.model.lock").exists());
}

// 2. The lock file: no link followed, one lock per real model, no lock
// beside what is not a model.
#[test]
fn the_lock_follows_no_link_and_is_one_for_a_model_and_its_links() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("m.model");
    let chosen = dir.path().join("attacker-chose-this");
    symlink(&chosen, dir.path().join("m.model.lock")).expect("plant");
    let (code, _, err) = train(model.as_path(), "10");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is a link"), "{err}");
    assert!(!chosen.exists(), "the lock created a file through the link");

    // The real model and a link to it: one lock.
    let dir = tempfile::tempdir().expect("temp dir");
    let real = dir.path().join("real.model");
    let via = dir.path().join("via.model");
    let (code, _, err) = train(real.as_path(), "10");
    assert_eq!(code, 0, "{err}");
    symlink(&real, &via).expect("link");
    let held = kxo_tui::model::lock(&real).expect("lock").expect("free");
    let (code, _, err) = train(via.as_path(), "10");
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("in use by another kxo-tui"), "{err}");
    drop(held);
    // Saved through the link: the link stays a link, the real file learns.
    let (code, _, err) = train(via.as_path(), "10");
    assert_eq!(code, 0, "{err}");
    assert!(
        fs::symlink_metadata(&via)
            .expect("via")
            .file_type()
            .is_symlink()
    );
    let rules = kxo_engine::Rules::default_rules();
    let table = kxo_tui::model::load(&real, rules)
        .expect("load")
        .expect("there");
    assert_eq!(table.games, 20);

    // Not a model file: refused before any lock file is made beside it.
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe");
    let c = std::ffi::CString::new(fifo.to_str().expect("utf-8")).expect("c string");
    // SAFETY: mkfifo(3) with a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (code, _, err) = train(fifo.as_path(), "10");
    assert_eq!(code, 2, "{err}");
    assert!(!dir.path().join("pipe.lock").exists());
}

// 3. Outside text never reaches the terminal raw, nor whole when huge.
#[test]
fn escape_sequences_from_a_brain_and_from_arguments_are_shown_escaped() {
    let brain = format!("brain:{} escape", brain_script("hostile.sh"));
    let run = gomoku_game_against_random(&brain, &[]);
    assert!(run.text().contains("forfeit"), "{}", run.text());
    assert!(run.text().contains("\\e[2J"), "{}", run.text());
    no_escape_byte(&run);
    // The same in JSON.
    let run = gomoku_game_against_random(&brain, &["--json"]);
    no_escape_byte(&run);
    assert!(
        !run.out.windows(6).any(|w| w == b"\\u001b"),
        "{}",
        run.text()
    );
    // A GTP engine's answer: the same escapes, on Go.
    let gtp = r#"gtp:/bin/sh -c 'while read -r l; do case $l in genmove*) printf "= \033[2J\033]0;owned\007D4\n\n";; quit*) exit 0;; *) printf "=\n\n";; esac; done'"#;
    for json in [false, true] {
        let mut args = vec![
            "arena", "--go", "9", "--o", "random", "--x", gtp, "--games", "1",
        ];
        if json {
            args.push("--json");
        }
        let run = run_measured(&args, b"", Duration::from_secs(30));
        assert_eq!(run.code, 0, "{}", run.text());
        assert!(run.text().contains("forfeit"), "{}", run.text());
        assert!(run.text().contains("\\e[2J"), "{}", run.text());
        no_escape_byte(&run);
    }
    // Arguments and file names.
    for args in [
        vec!["solve", "--moves", "\x1b[2J\x1b]0;owned\x07"],
        vec!["eval", "--model", "/tmp/\x1b[31mred.model"],
        vec!["arena", "--o", "\x1b[2Jmcts"],
        vec!["train", "--model", "/nonexistent\x1b[2J/m.model"],
    ] {
        let run = run_measured(&args, b"", Duration::from_secs(30));
        assert_eq!(run.code, 2, "{args:?}: {}", run.text());
        no_escape_byte(&run);
    }
    // A huge argument: cut, and the cut is said. (One word: spaces would
    // make it a list of moves, read one by one.)
    let huge = "a1".repeat(50_000);
    let run = run_measured(&["solve", "--moves", &huge], b"", Duration::from_secs(30));
    assert_eq!(run.code, 2, "{}", run.text());
    // About 200 characters of it are shown, and the reason after them.
    assert!(run.err.len() < 400, "{} bytes of error", run.err.len());
    assert!(run.text().contains("more characters"), "{}", run.text());
    assert!(run.text().contains("is not a cell"), "{}", run.text());
    // A huge list of moves: read whole (one cell a word, linear), then
    // refused at the first move that cannot be played.
    let list = "a1 ".repeat(35_000);
    let run = run_measured(&["solve", "--moves", &list], b"", Duration::from_secs(30));
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(
        run.text()
            .contains("move 2 (A1) is on a cell already taken"),
        "{}",
        run.text()
    );
}

/// The binary on a pseudo-terminal that is not its controlling terminal:
/// closing the master sends it no SIGHUP, as after `setsid`, `nohup`, or
/// a shell that ignores HUP. Returns the master and the child.
fn start_without_controlling_terminal(
    args: &[&str],
    data: &Path,
) -> (OwnedFd, std::process::Child) {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: 40,
        ws_col: 120,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty(3) with valid out-pointers and a window size.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(r, 0, "openpty");
    // Close-on-exec, or every child (kxo-tui itself among them) would
    // hold the master open and the terminal would never close.
    for fd in [master, slave] {
        // SAFETY: fcntl(2) on descriptors just opened.
        unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    // SAFETY: both descriptors were just opened and are ours alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let io = |fd: &OwnedFd| Stdio::from(fd.try_clone().expect("dup"));
    let mut cmd = Command::new(bin());
    cmd.args(args)
        .env("TERM", "xterm-256color")
        .env("XDG_DATA_HOME", data)
        .stdin(io(&slave))
        .stdout(io(&slave))
        .stderr(io(&slave));
    // SAFETY: setsid(2) in the child before exec: a new session without a
    // controlling terminal (the pty is never made one).
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let child = cmd.spawn().expect("spawn");
    drop(slave);
    (master, child)
}

/// Reads the master until `needle` has appeared or `timeout` passed.
fn read_until(master: &OwnedFd, needle: &[u8], timeout: Duration) -> bool {
    let start = Instant::now();
    let mut seen = Vec::new();
    while start.elapsed() < timeout {
        let mut fds = libc::pollfd {
            fd: master.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd; read(2) into a local buffer.
        if unsafe { libc::poll(&mut fds, 1, 50) } > 0 {
            let mut buf = [0u8; 4096];
            let n = unsafe { libc::read(master.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            if n <= 0 {
                return false;
            }
            seen.extend_from_slice(&buf[..n as usize]);
            if seen.windows(needle.len()).any(|w| w == needle) {
                return true;
            }
        }
    }
    false
}

/// Whether `pid` still runs (a zombie has ended).
fn running(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

fn wait_exit(child: &mut std::process::Child, timeout: Duration) -> Option<i32> {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return Some(status.code().unwrap_or(-1));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

// 4 and 8. A terminal closed without SIGHUP: the screen quits with 129
// while its brain still has minutes on its clock (so the terminal ended
// it, not the game), and its brains (and what they started) end with it.
#[test]
fn a_terminal_closed_without_sighup_ends_the_screen_and_its_brains() {
    let data = tempfile::tempdir().expect("temp dir");
    let pidfile = data.path().join("escapee.pid");
    let brain = format!(
        "brain:env ESCAPEE_PIDFILE={} {} escapee",
        pidfile.display(),
        brain_script("hostile.sh")
    );
    let (master, mut child) = start_without_controlling_terminal(
        &gomoku_args(
            &["--games", "1"],
            &brain,
            "random",
            &["--think-ms", "600000"],
        ),
        data.path(),
    );
    assert!(
        read_until(&master, b"Game-1", Duration::from_secs(10)),
        "no screen"
    );
    // Someone reads the terminal (or the screen would block writing to
    // it) until the window closes.
    let close = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let closing = close.clone();
    let reader = std::thread::spawn(move || {
        while !closing.load(std::sync::atomic::Ordering::Relaxed) {
            read_until(&master, b"\0never", Duration::from_millis(50));
        }
        drop(master);
    });
    let escapee = pid_in(&pidfile, Duration::from_secs(10));
    assert!(running(escapee));
    close.store(true, std::sync::atomic::Ordering::Relaxed);
    reader.join().expect("reader");
    let code = wait_exit(&mut child, Duration::from_secs(60));
    assert_eq!(code, Some(129));
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        !running(escapee),
        "the brain's setsid child outlived kxo-tui"
    );
    // SAFETY: kill(2) with signal 0 only asks; a stray is cleaned up.
    unsafe { libc::kill(escapee, libc::SIGKILL) };
}

// 8. A brain's setsid child in arena ends when the brain forfeits.
#[test]
fn a_brains_setsid_child_ends_with_it_in_arena() {
    let data = tempfile::tempdir().expect("temp dir");
    let pidfile = data.path().join("escapee.pid");
    let brain = format!(
        "brain:env ESCAPEE_PIDFILE={} {} escapee",
        pidfile.display(),
        brain_script("hostile.sh")
    );
    let run = gomoku_game_against_random(&brain, &["--think-ms", "300"]);
    assert!(
        run.text().contains("loses on time: a move took"),
        "{}",
        run.text()
    );
    let escapee = pid_in(&pidfile, Duration::from_secs(10));
    std::thread::sleep(Duration::from_millis(100));
    let alive = running(escapee);
    // SAFETY: kill(2) on a stray, to leave nothing behind if the test fails.
    unsafe { libc::kill(escapee, libc::SIGKILL) };
    assert!(!alive, "the brain's setsid child outlived kxo-tui");
}

// 5. Model paths that are not plain files.
#[test]
fn devices_fifos_and_huge_sparse_files_are_refused_at_once_in_little_memory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("fifo.model");
    let c = std::ffi::CString::new(fifo.to_str().expect("utf-8")).expect("c string");
    // SAFETY: mkfifo(3) with a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let sparse = dir.path().join("sparse.model");
    fs::File::create(&sparse)
        .and_then(|f| f.set_len(2 << 30))
        .expect("sparse file");
    // A sparse file with a model's header that claims it all.
    let claims = dir.path().join("claims.model");
    {
        let mut header = b"KXORL\0".to_vec();
        header.extend_from_slice(&2u16.to_le_bytes());
        header.extend_from_slice(&[4, 3, 1]);
        header.extend_from_slice(&f32::NAN.to_le_bytes());
        header.extend_from_slice(&0u64.to_le_bytes());
        header.extend_from_slice(&((2u64 << 30) / 20).to_le_bytes());
        let mut f = fs::File::create(&claims).expect("claims");
        f.write_all(&header).expect("header");
        f.set_len(header.len() as u64 + (2u64 << 30) / 20 * 20 + 4)
            .expect("grow");
    }
    let zero_link = dir.path().join("zero.model");
    symlink("/dev/zero", &zero_link).expect("link");
    for model in [
        "/dev/zero",
        "/dev/urandom",
        zero_link.to_str().expect("utf-8"),
        fifo.to_str().expect("utf-8"),
        sparse.to_str().expect("utf-8"),
        claims.to_str().expect("utf-8"),
    ] {
        let learned = [
            "arena",
            "--size",
            "15",
            "--goal",
            "5",
            "--engine",
            "a=negamax:eval=learned",
            "--engine",
            "b=mcts",
            "--model",
            model,
        ];
        let eval = ["eval", "--model", model];
        let train = ["train", "--model", model, "--episodes", "10"];
        for args in [&eval[..], &train[..], &learned[..]] {
            let command = args[0];
            let run = run_measured(args, b"", Duration::from_secs(20));
            assert_eq!(run.code, 2, "{command} {model}: {}", run.text());
            assert!(run.text().contains("model file"), "{}", run.text());
            assert!(
                run.cpu < Duration::from_secs(1),
                "{command} {model}: {:?} CPU",
                run.cpu
            );
            assert!(
                run.max_rss_mib < 50.0,
                "{command} {model}: {} MiB",
                run.max_rss_mib
            );
        }
    }
    assert!(!Path::new("/dev/zero.lock").exists());
    assert!(!Path::new("/dev/urandom.lock").exists());
}

// 6. A brain that floods MESSAGE lines costs bounded memory.
#[test]
fn a_message_flood_costs_bounded_memory() {
    let brain = format!("brain:{} flood", brain_script("hostile.sh"));
    let run = gomoku_game_against_random(&brain, &["--think-ms", "2500"]);
    assert!(
        run.text().contains("loses on time: a move took"),
        "{}",
        run.text()
    );
    assert!(run.max_rss_mib < 100.0, "{} MiB", run.max_rss_mib);
}

// 7. `kxo-tui brain` and `kxo-tui gtp`: a huge line and a line that is
// not UTF-8.
#[test]
fn the_brain_survives_a_huge_line_and_bytes_that_are_not_text() {
    // Each server: its set-up, the bad move's line, a command it answers
    // at once, its end; what its answers start with for a refusal, and
    // for the setup and the question.
    for (server, setup, bad_move, ask, end, refused, ok, named) in [
        (
            "brain",
            &b"START 15\r\n"[..],
            &b"TURN \xff\xfe,7\r\n"[..],
            &b"ABOUT\r\n"[..],
            &b"END\r\n"[..],
            "ERROR ",
            "OK",
            "name=",
        ),
        (
            "gtp",
            b"boardsize 9\n",
            b"play black \xff\xfe\n",
            b"name\n",
            b"quit\n",
            "? ",
            "=",
            "= kxo-tui",
        ),
    ] {
        let feed = |w: &mut std::process::ChildStdin| {
            w.write_all(setup)?;
            let block = vec![b'A'; 1 << 20];
            for _ in 0..50 {
                w.write_all(&block)?;
            }
            w.write_all(b"\r\n")?;
            w.write_all(bad_move)?;
            w.write_all(ask)?;
            w.write_all(end)
        };
        let run = run_fed(&[server], feed, Duration::from_secs(60));
        let out = String::from_utf8_lossy(&run.out);
        let lines: Vec<&str> = out.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(run.code, 0, "{server}: {}", run.text());
        assert_eq!(lines.first(), Some(&ok), "{server}: {out}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("{refused}line too long"))),
            "{server}: {out}"
        );
        assert!(
            lines.iter().any(|l| l.contains("not UTF-8")),
            "{server}: {out}"
        );
        assert!(
            lines.iter().any(|l| l.starts_with(named)),
            "{server} went on serving: {out}"
        );
        assert!(
            run.out.len() < 10_000,
            "{server}: the line was echoed: {} bytes",
            run.out.len()
        );
        assert!(run.max_rss_mib < 100.0, "{server}: {} MiB", run.max_rss_mib);
    }
}

// 9. The protocol's clocks and the taken cell's name.
#[test]
fn timeout_turn_0_and_an_empty_match_clock_mean_at_once() {
    for limit in [
        "INFO timeout_turn 0",
        "INFO timeout_match 100000\r\nINFO time_left -5",
    ] {
        let input = format!("START 15\r\nINFO timeout_turn 5000\r\n{limit}\r\nBEGIN\r\nEND\r\n");
        let run = run_measured(
            &["brain", "--engine", "mcts", "--think-ms", "5000"],
            input.as_bytes(),
            Duration::from_secs(30),
        );
        assert_eq!(run.code, 0, "{}", run.text());
        // CPU, not wall time: a search that ignored the limit would
        // spend its 5 s on any machine.
        assert!(
            run.cpu < Duration::from_millis(2_500),
            "{limit}: thought for {:?} CPU: {}",
            run.cpu,
            run.text()
        );
    }
    let input = "START 15\r\nBOARD\r\n7,7,1\r\n7,7,2\r\nDONE\r\nEND\r\n";
    let run = run_measured(&["brain"], input.as_bytes(), Duration::from_secs(30));
    assert!(
        String::from_utf8_lossy(&run.out).contains("ERROR 7,7 is already taken"),
        "{}",
        run.text()
    );
}

// 11. TERM=dumb: the screen says it cannot draw, and headless still works.
#[test]
fn term_dumb_is_refused_with_a_reason() {
    let mut s =
        common::Session::start_program(&bin(), &["--games", "1"], 80, 24, &[("TERM", "dumb")]);
    let screen = s.wait_for("TERM=dumb", Duration::from_secs(10));
    assert!(screen.contains("cannot draw"), "{screen}");
    assert_eq!(s.wait_exit(Duration::from_secs(5)), 2);
    let out = Command::new(bin())
        .args(["solve", "--size", "3"])
        .env("TERM", "dumb")
        .output()
        .expect("run");
    let (code, out) = (out.status.code(), String::from_utf8_lossy(&out.stdout));
    assert_eq!(code, Some(0));
    assert!(out.contains("draw"), "{out}");
}

// 10. SIGTSTP from outside (`kill -TSTP`, not the key) is handled as the
// key: the terminal is given back sane, and `fg` brings the screen back.
#[test]
fn an_outside_sigtstp_suspends_like_ctrl_z() {
    const T: Duration = Duration::from_secs(15);
    let mut s = common::Session::start_program(
        "bash",
        &["--norc", "--noprofile", "-i"],
        100,
        30,
        &[("PS1", "shell$ ")],
    );
    s.wait_for("shell$", T);
    s.send(format!("{} --games 4\r", bin()).as_bytes());
    s.wait_for("Game-4", T);
    let shell = s.pid().expect("shell pid");
    let kxo = fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
        .expect("children")
        .split_whitespace()
        .next()
        .and_then(|p| p.parse::<i32>().ok())
        .expect("kxo-tui's pid");
    // SAFETY: kill(2) on the program this test started.
    unsafe { libc::kill(kxo, libc::SIGTSTP) };
    let screen = s.wait_until("the shell", T, |sc| sc.contains("Stopped"));
    assert!(
        !s.alternate_screen(),
        "still on the alternate screen:\n{screen}"
    );
    assert!(!s.cursor_hidden(), "cursor hidden while stopped");
    s.send(b"fg\r");
    s.wait_until("the screen back", T, |sc| {
        sc.contains("Game-4") && sc.contains("Ctrl-Q") && !sc.contains("Stopped")
    });
    // Raw mode again: Ctrl-Q is a key, and quits.
    s.send(common::CTRL_Q);
    s.wait_for("games finished", T);
    s.send(b"exit\r");
    assert_eq!(s.wait_exit(T), 0);
}

// 5b. The default model as a link to /dev/zero: the screen warns and runs,
// and the learner plays with a fresh table.
#[test]
fn a_default_model_that_is_a_device_is_a_warning_and_the_screen_runs() {
    const T: Duration = Duration::from_secs(15);
    let data = tempfile::tempdir().expect("temp dir");
    let dir = data.path().join("kxo-tui");
    fs::create_dir_all(&dir).expect("model folder");
    symlink("/dev/zero", dir.join("rl-4x4-k3.model")).expect("link");
    let home = data.path().to_str().expect("utf-8 path");
    // 4x4 with three: random pairs, the learner among them.
    let mut s = common::Session::start_program(
        &bin(),
        &["--seed", "2", "--size", "4", "--goal", "3"],
        120,
        40,
        &[("XDG_DATA_HOME", home)],
    );
    s.wait_for("warning: see Records", T);
    let screen = s.wait_for("character device", T);
    assert!(screen.contains("plays with a fresh"), "{screen}");
    s.send(common::CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!dir.join("rl-4x4-k3.model.lock").exists());
    assert!(!Path::new("/dev/zero.lock").exists());
}

// 5. A terminal that stops reading (a stalled link, a frozen emulator):
// the screen's writes fill it, and then SIGTERM still ends the screen
// with 143 (it blocked in a write until SIGKILL).
#[test]
fn sigterm_ends_the_screen_while_its_terminal_takes_no_output() {
    let data = tempfile::tempdir().expect("temp dir");
    let (master, mut child) = start_without_controlling_terminal(
        &["--games", "4", "--size", "9", "--goal", "5", "--delay", "0"],
        data.path(),
    );
    assert!(
        read_until(&master, b"Game-1", Duration::from_secs(10)),
        "no screen"
    );
    // Nobody reads from here on. The screen writes each second at least
    // (its clock): once what it has written (/proc's wchar) has grown and
    // then stays the same for twice that, its writes are stuck (the pty
    // holds some 8 to 20 KB) — the order of events, not a deadline.
    let pid = child.id();
    let written = || {
        fs::read_to_string(format!("/proc/{pid}/io"))
            .unwrap_or_default()
            .lines()
            .find_map(|l| {
                l.strip_prefix("wchar: ")
                    .and_then(|n| n.trim().parse::<u64>().ok())
            })
            .unwrap_or(0)
    };
    let from = written();
    let mut last = (from, 0);
    for look in 0.. {
        if last.1 >= 20 && last.0 > from {
            break;
        }
        assert!(
            look < 1200,
            "its writes never stalled: {last:?} from {from}"
        );
        std::thread::sleep(Duration::from_millis(100));
        let now = written();
        last = match now == last.0 {
            true => (now, last.1 + 1),
            false => (now, 0),
        };
        assert!(child.try_wait().expect("try_wait").is_none(), "it ended");
    }
    // SAFETY: kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let code = wait_exit(&mut child, Duration::from_secs(60));
    assert_eq!(
        code,
        Some(143),
        "{} bytes written, none read",
        last.0 - from
    );
    drop(master);
}
