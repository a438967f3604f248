//! The trust harness (issue 35): every flag that names a file, found in
//! clap's own definition of the command line, against the hostile
//! catalogue — a link another user planted, a link as a folder on the way,
//! a FIFO, /dev/zero, a 2 GB sparse file, a file of another format, a full
//! disk, kill -9 in the middle. A new flag that names a file fails
//! [`every_file_flag_is_in_the_catalogue`] until it is given a way to run
//! here, so no flag can skip the catalogue.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{Run, pid_in, run_env};

/// How a command uses the file its flag names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Read only (an openings file, a model to evaluate, states to merge).
    Read,
    /// Read if there, then written whole (a model, a checkpoint, a proof).
    Write,
    /// Appended to, line by line (an arena state).
    Append,
    /// A folder files are written into (records).
    Folder,
}

/// A flag that names a file, and a quick command line that uses it: `args`
/// with `{}` where the path goes.
struct FileFlag {
    /// The subcommands and the flag, as clap names them: `arena --state`,
    /// `arena merge FILES`, `--model` (the live screen's).
    name: &'static str,
    role: Role,
    args: &'static [&'static str],
}

const FLAGS: &[FileFlag] = &[
    FileFlag {
        name: "--model",
        role: Role::Read,
        args: &["--o", "rl", "--model", "{}"],
    },
    FileFlag {
        name: "--openings",
        role: Role::Read,
        args: &[
            "--engine",
            "a=random",
            "--engine",
            "b=random",
            "--openings",
            "{}",
        ],
    },
    FileFlag {
        name: "solve --proof",
        role: Role::Write,
        args: &["solve", "--size", "3", "--goal", "3", "--proof", "{}"],
    },
    FileFlag {
        name: "solve --checkpoint",
        role: Role::Write,
        args: &["solve", "--size", "3", "--goal", "3", "--checkpoint", "{}"],
    },
    FileFlag {
        name: "solve --resume",
        role: Role::Read,
        args: &["solve", "--size", "3", "--goal", "3", "--resume", "{}"],
    },
    FileFlag {
        name: "arena --openings",
        role: Role::Read,
        args: &["arena", "--games", "2", "--openings", "{}"],
    },
    FileFlag {
        name: "arena --records",
        role: Role::Folder,
        args: &[
            "arena",
            "--o",
            "random",
            "--x",
            "random",
            "--games",
            "4",
            "--records",
            "{}",
        ],
    },
    FileFlag {
        name: "arena --state",
        role: Role::Append,
        args: &[
            "arena", "--o", "random", "--x", "random", "--games", "4", "--seed", "1", "--state",
            "{}",
        ],
    },
    FileFlag {
        name: "arena --log",
        role: Role::Folder,
        // A brain that forfeits at once: a log a game, quickly.
        args: &[
            "arena",
            "--o",
            "random",
            "--x",
            "brain:tests/brains/faulty.sh garbage",
            "--games",
            "4",
            "--log",
            "{}",
        ],
    },
    FileFlag {
        name: "arena --model",
        role: Role::Write,
        args: &[
            "arena", "--o", "rl", "--x", "random", "--games", "2", "--model", "{}",
        ],
    },
    FileFlag {
        name: "arena merge FILES",
        role: Role::Read,
        args: &["arena", "merge", "{}"],
    },
    FileFlag {
        name: "train --model",
        role: Role::Write,
        args: &["train", "--episodes", "50", "--model", "{}"],
    },
    FileFlag {
        name: "eval --model",
        role: Role::Read,
        args: &["eval", "--games", "2", "--sample", "10", "--model", "{}"],
    },
];

/// Every argument of the command line whose value is a path, by clap's
/// own definition: `arena --state`, `arena merge FILES`…
fn file_flags_of_the_cli() -> BTreeSet<String> {
    fn walk(command: &clap::Command, prefix: &str, out: &mut BTreeSet<String>) {
        for arg in command.get_arguments() {
            let is_path = format!("{:?}", arg.get_value_parser()) == "ValueParser::path_buf"
                || matches!(
                    arg.get_value_hint(),
                    clap::ValueHint::FilePath | clap::ValueHint::DirPath | clap::ValueHint::AnyPath
                );
            if !is_path {
                continue;
            }
            let name = match arg.get_long() {
                Some(long) => format!("--{long}"),
                None => arg.get_id().as_str().to_uppercase(),
            };
            out.insert(format!("{prefix}{name}").trim().to_string());
        }
        for sub in command.get_subcommands() {
            walk(sub, &format!("{prefix}{} ", sub.get_name()), out);
        }
    }
    let mut out = BTreeSet::new();
    walk(&kxo_tui::cli::command(), "", &mut out);
    out
}

#[test]
fn every_file_flag_is_in_the_catalogue() {
    common::light_panics();
    let found = file_flags_of_the_cli();
    let listed: BTreeSet<String> = FLAGS.iter().map(|f| f.name.to_string()).collect();
    assert!(found.len() >= 10, "too few file flags found: {found:?}");
    assert_eq!(
        found, listed,
        "the file flags of the command line and the harness's list differ"
    );
}

/// The command line of `flag` with `path` in it.
fn with_path(flag: &FileFlag, path: &Path) -> Vec<String> {
    flag.args
        .iter()
        .map(|a| match *a {
            "{}" => path.display().to_string(),
            other => other.to_string(),
        })
        .collect()
}

/// Runs `flag` on `path`, to its end (killed after 20 s).
fn run(flag: &FileFlag, path: &Path, env: &[(&str, &str)]) -> Run {
    let args = with_path(flag, path);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_env(&args, env, |_| Ok(()), Duration::from_secs(20))
}

fn root() -> bool {
    // SAFETY: geteuid(2) cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// A folder anyone can write, sticky, like /tmp.
fn sticky_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o1777)).expect("chmod");
    dir
}

/// Every file under `dir`, with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| (e.path(), fs::read(e.path()).unwrap_or_default()))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// A refusal: status 2, one line, the file named, quickly and in little
/// memory.
fn assert_refused(flag: &FileFlag, case: &str, run: &Run, shown: &str) {
    let text = run.text();
    assert_eq!(run.code, 2, "{} / {case}: {text}", flag.name);
    assert!(
        text.contains(shown),
        "{} / {case}: the message does not name {shown}: {text}",
        flag.name
    );
    assert!(
        run.elapsed < Duration::from_secs(10) && run.max_rss_mib < 64.0,
        "{} / {case}: {:?}, {:.0} MiB",
        flag.name,
        run.elapsed,
        run.max_rss_mib
    );
}

#[test]
fn links_another_user_planted_are_not_followed_anywhere_in_a_path() {
    common::light_panics();
    if !root() {
        eprintln!("skipped: needs root to make links owned by another user");
        return;
    }
    for flag in FLAGS {
        // The victim: another user's folder, with a file in it.
        let victim = tempfile::tempdir().expect("victim dir");
        let precious = victim.path().join("precious");
        fs::write(&precious, "the victim's own words").expect("victim file");
        let before = snapshot(victim.path());
        let shared = sticky_folder();
        // A link at the name, and a link as a folder on the way.
        let at_name = shared.path().join("planted");
        let target = if flag.role == Role::Folder {
            victim.path().to_path_buf()
        } else {
            precious.clone()
        };
        symlink(&target, &at_name).expect("plant");
        std::os::unix::fs::lchown(&at_name, Some(65534), Some(65534)).expect("lchown");
        let as_folder = shared.path().join("folder");
        symlink(victim.path(), &as_folder).expect("plant");
        std::os::unix::fs::lchown(&as_folder, Some(65534), Some(65534)).expect("lchown");
        for (case, path) in [
            ("a link at the name", at_name.clone()),
            ("a link as a folder", as_folder.join("precious")),
            ("a link as a folder, a new name", as_folder.join("new-file")),
        ] {
            let run = run(flag, &path, &[]);
            let case_text = format!("{case}: {}", run.text());
            assert_refused(flag, &case_text, &run, "not followed");
            assert_eq!(snapshot(victim.path()), before, "{} / {case}", flag.name);
        }
    }
}

/// `path` made a FIFO.
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().expect("utf-8")).expect("path");
    // SAFETY: mkfifo(3) on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

#[test]
fn fifos_devices_huge_sparse_files_and_foreign_files_are_refused_unchanged() {
    common::light_panics();
    for flag in FLAGS {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        mkfifo(&fifo);
        let sparse = dir.path().join("sparse");
        fs::File::create(&sparse)
            .and_then(|f| f.set_len(2 << 30))
            .expect("sparse file");
        let notes = dir.path().join("notes.txt");
        fs::write(&notes, "my notes, not kxo-tui's\n").expect("notes");
        let cases = [
            ("a FIFO", fifo.clone(), "FIFO"),
            ("/dev/zero", PathBuf::from("/dev/zero"), "character device"),
            (
                "a 2 GB sparse file",
                sparse.clone(),
                match flag.role {
                    Role::Folder => "not a folder",
                    _ => "",
                },
            ),
            (
                "a file of another format",
                notes.clone(),
                match flag.role {
                    Role::Folder => "not a folder",
                    _ => "",
                },
            ),
        ];
        for (case, path, reason) in cases {
            let run = run(flag, &path, &[]);
            let shown = path.display().to_string();
            assert_refused(flag, case, &run, &shown);
            assert!(
                run.text().contains(reason),
                "{} / {case}: {}",
                flag.name,
                run.text()
            );
        }
        assert_eq!(
            fs::read_to_string(&notes).expect("notes"),
            "my notes, not kxo-tui's\n",
            "{}",
            flag.name
        );
        assert_eq!(fs::metadata(&sparse).expect("sparse").len(), 2 << 30);
    }
}

/// A small tmpfs to fill (root where it can be mounted); dropped, it is
/// unmounted. `None` where none can be mounted.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(bytes: u64) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().ok()?;
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallDisk { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills what room is left.
    fn fill(&self) {
        let mut filler = fs::File::create(self.path().join("filler")).expect("filler");
        let block = vec![b'x'; 4096];
        while std::io::Write::write_all(&mut filler, &block).is_ok() {}
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg(self.dir.path())
            .status();
    }
}

/// A folder to write into and what makes its disk full: a small tmpfs
/// filled up where one can be mounted (after `prepare` wrote into it),
/// with `room` bytes left; else the program's own injected fault (every
/// write past `room` bytes failing as on a full disk).
fn full_disk(
    room: u64,
    prepare: impl FnOnce(&Path),
) -> (Option<SmallDisk>, tempfile::TempDir, Vec<(String, String)>) {
    let plain = tempfile::tempdir().expect("temp dir");
    match SmallDisk::mount(4 << 20) {
        Some(disk) => {
            prepare(disk.path());
            let spare = disk.path().join("room");
            fs::write(&spare, vec![b'x'; room as usize]).expect("room");
            disk.fill();
            fs::remove_file(&spare).expect("room");
            (Some(disk), plain, Vec::new())
        }
        None => {
            prepare(plain.path());
            let env = vec![("KXO_FAULT_FULL_DISK".to_string(), room.to_string())];
            (None, plain, env)
        }
    }
}

#[test]
fn a_full_disk_leaves_every_file_whole_and_the_old_ones_as_they_were() {
    common::light_panics();
    for flag in FLAGS.iter().filter(|f| f.role != Role::Read) {
        let name = match flag.role {
            Role::Folder => "records",
            _ => "file",
        };
        // A file replaced whole: one good run first, on a disk with room,
        // for the file to keep; then no room at all. A file appended to or
        // a folder of records: a page of room, filled in the middle of the
        // run.
        let room = match flag.role {
            Role::Append | Role::Folder => 4096,
            _ => 0,
        };
        let (disk, plain, env) = full_disk(room, |folder| {
            if room == 0 {
                let run = run(flag, &folder.join(name), &[]);
                assert_eq!(run.code, 0, "{}: {}", flag.name, run.text());
            }
        });
        let folder = disk.as_ref().map_or(plain.path(), SmallDisk::path);
        let path = folder.join(name);
        let before = vec![(path.clone(), fs::read(&path).unwrap_or_default())];
        // The checkpoint of a settled run is written again by --resume; a
        // state or records get a run long enough to fill the disk.
        let longer: Vec<&str> = flag
            .args
            .iter()
            .map(|&a| if a == "4" { "400" } else { a })
            .collect();
        let again = match flag.name {
            "solve --checkpoint" => FileFlag {
                name: "solve --resume",
                role: Role::Write,
                args: &["solve", "--size", "3", "--goal", "3", "--resume", "{}"],
            },
            _ => FileFlag {
                name: flag.name,
                role: flag.role,
                args: Box::leak(longer.into_boxed_slice()),
            },
        };
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let run = run(&again, &path, &env);
        let after: Vec<(PathBuf, Vec<u8>)> = match flag.role {
            Role::Folder => snapshot(&path),
            _ => vec![(path.clone(), fs::read(&path).unwrap_or_default())],
        };
        match flag.role {
            // Records: each game's record whole or absent, none empty.
            Role::Folder => {
                assert!(after.iter().all(|(_, b)| !b.is_empty()), "{}", flag.name);
            }
            // State: its lines whole (the games before the disk filled).
            Role::Append => {
                let text = String::from_utf8_lossy(&after[0].1).into_owned();
                assert!(
                    text.is_empty() || text.ends_with('\n'),
                    "{}: {text}",
                    flag.name
                );
                assert!(text.lines().count() > 2, "{}: {text}", flag.name);
            }
            // A whole file replaced: the old one, byte for byte.
            _ => assert_eq!(after, before, "{}: {}", flag.name, run.text()),
        }
        assert_ne!(run.code, 0, "{} on a full disk: {}", flag.name, run.text());
        assert!(run.code != 101, "{} panicked: {}", flag.name, run.text());
        // No temporary file is left beside it.
        let leftovers: Vec<_> = [folder.to_path_buf(), folder.join("records")]
            .iter()
            .flat_map(|d| fs::read_dir(d).into_iter().flatten().flatten())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{}: {leftovers:?}", flag.name);
    }
}

/// A running kxo-tui, killed if the test leaves it running.
struct Running {
    child: std::process::Child,
}

impl Running {
    fn start(args: &[&str], env: &[(&str, &str)]) -> Running {
        let child = std::process::Command::new(common::bin())
            .args(args)
            .envs(env.iter().copied())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start kxo-tui");
        Running { child }
    }

    fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    fn signal(&self, signal: i32) {
        // SAFETY: kill(2) on the child this value started.
        unsafe { libc::kill(self.pid(), signal) };
    }

    /// Its resident memory now, in MiB.
    fn rss_mib(&self) -> f64 {
        let status = fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    }

    /// Waits up to `limit` for it to end (then kills it): its status,
    /// stdout, stderr.
    fn wait(mut self, limit: Duration) -> (Option<i32>, String, String) {
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

/// Whether process `pid` still runs (a zombie does not count).
fn alive(pid: i32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty()
        && !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
}

/// Waits until `file` holds a number (a pid a test brain wrote).

#[test]
fn every_command_ends_cleanly_on_sigint_sigterm_and_sighup() {
    common::light_panics();
    let faulty = common::brain_script("faulty.sh");
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("m.model");
    let model_arg = model.display().to_string();
    let (code, _, err) =
        common::kxo_with(&["train", "--episodes", "200", "--model", &model_arg], &[]);
    assert_eq!(code, 0, "{err}");
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let pidfile = dir.path().join(format!("brain-{signal}.pid"));
        let pidfile_arg = pidfile.display().to_string();
        let state = dir.path().join(format!("run-{signal}.state"));
        let state_arg = state.display().to_string();
        let silent = format!("brain:{faulty} silent");
        // arena, with a brain thinking (it never answers; it has 30 s).
        let arena = Running::start(
            &[
                "arena",
                "--size",
                "15",
                "--goal",
                "5",
                "--o",
                &silent,
                "--x",
                "random",
                "--games",
                "4",
                "--think-ms",
                "30000",
                "--state",
                &state_arg,
            ],
            &[("FAULT_PIDFILE", &pidfile_arg)],
        );
        // The preflight's brain writes the file first; the game's after.
        std::thread::sleep(Duration::from_millis(1500));
        let brain = pid_in(&pidfile, Duration::from_secs(10));
        arena.signal(signal);
        let (code, out, err) = arena.wait(Duration::from_secs(10));
        assert_eq!(
            code,
            Some(128 + signal),
            "arena, signal {signal}: {out}{err}"
        );
        assert!(
            out.contains("games of 4"),
            "arena, signal {signal}: the report so far: {out}"
        );
        assert!(err.contains("goes on from its state file"), "{err}");
        assert!(
            !alive(brain),
            "arena, signal {signal}: brain {brain} left running"
        );
        // The state file is whole: the same command goes on from it.
        let text = fs::read_to_string(&state).expect("state");
        assert!(text.ends_with('\n') && text.lines().count() >= 1, "{text}");

        // kxo-tui brain, thinking for 30 s.
        let mut brain = Running::start(
            &["brain", "--engine", "negamax", "--think-ms", "30000"],
            &[],
        );
        {
            use std::io::Write;
            let input = brain.child.stdin.as_mut().expect("stdin");
            input.write_all(b"START 15\r\nTURN 7,7\r\n").expect("write");
        }
        std::thread::sleep(Duration::from_millis(700));
        brain.signal(signal);
        let (code, _, err) = brain.wait(Duration::from_secs(5));
        assert_eq!(code, Some(128 + signal), "brain, signal {signal}: {err}");

        // train, solve and eval: stopped, their result so far said.
        for (args, says) in [
            (
                vec![
                    "train",
                    "--episodes",
                    "1000000000",
                    "--model",
                    model_arg.as_str(),
                ],
                "stopped after",
            ),
            (vec!["solve", "--size", "8", "--goal", "5"], "interrupted"),
            (
                vec!["eval", "--games", "1000000", "--model", model_arg.as_str()],
                "nothing measured",
            ),
        ] {
            let run = Running::start(&args, &[]);
            std::thread::sleep(Duration::from_millis(1000));
            run.signal(signal);
            let (code, out, err) = run.wait(Duration::from_secs(10));
            assert_eq!(
                code,
                Some(128 + signal),
                "{args:?}, signal {signal}: {out}{err}"
            );
            assert!(format!("{out}{err}").contains(says), "{args:?}: {out}{err}");
        }
    }
}

#[test]
fn a_killed_arena_takes_its_brains_with_it() {
    common::light_panics();
    // SIGKILL leaves kxo-tui no say: the brains end by PR_SET_PDEATHSIG,
    // even one that stops reading and ignores every polite signal.
    let faulty = common::brain_script("faulty.sh");
    let dir = tempfile::tempdir().expect("temp dir");
    let pidfile = dir.path().join("brain.pid");
    let pidfile_arg = pidfile.display().to_string();
    let silent = format!("brain:{faulty} stubborn");
    let arena = Running::start(
        &[
            "arena",
            "--size",
            "15",
            "--goal",
            "5",
            "--o",
            &silent,
            "--x",
            "random",
            "--games",
            "2",
            "--think-ms",
            "30000",
        ],
        &[("FAULT_PIDFILE", &pidfile_arg)],
    );
    std::thread::sleep(Duration::from_millis(1500));
    let brain = pid_in(&pidfile, Duration::from_secs(10));
    assert!(alive(brain));
    arena.signal(libc::SIGKILL);
    let _ = arena.wait(Duration::from_secs(5));
    let start = std::time::Instant::now();
    while alive(brain) && start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !alive(brain),
        "brain {brain} outlived its SIGKILLed manager"
    );
}

#[test]
fn a_second_run_on_a_state_file_in_use_is_refused_by_name() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("shared.state");
    let state_arg = state.display().to_string();
    let args = [
        "arena", "--engine", "a=random", "--engine", "b=random", "--size", "3", "--goal", "3",
        "--games", "10000000", "--state", &state_arg,
    ];
    let first = Running::start(&args, &[]);
    std::thread::sleep(Duration::from_millis(800));
    let (code, out, err) = common::kxo_with(&args, &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("in use by another kxo-tui run") && err.contains("shared.state"),
        "{err}"
    );
    first.signal(libc::SIGINT);
    let (code, out, err) = first.wait(Duration::from_secs(10));
    assert_eq!(code, Some(130), "{err}");
    assert!(out.contains("games of 10000000"), "{out}");
    // The file is whole: every line a game (or the header), and a
    // resumed run reads it.
    let text = fs::read_to_string(&state).expect("state");
    assert!(text.ends_with('\n'), "the state ends mid-line");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("a whole JSON line");
    }
}

#[test]
fn kill_9_in_the_middle_then_resume_keeps_every_game_and_every_record() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("run.state");
    let records = dir.path().join("records");
    let (state_arg, records_arg) = (state.display().to_string(), records.display().to_string());
    let args = [
        "arena",
        "--engine",
        "a=mcts:iterations=200",
        "--engine",
        "b=random",
        "--size",
        "5",
        "--goal",
        "4",
        "--games",
        "600",
        "--jobs",
        "2",
        "--seed",
        "5",
        "--state",
        &state_arg,
        "--records",
        &records_arg,
        "--json",
    ];
    for round in 0..20 {
        let run = Running::start(&args, &[]);
        std::thread::sleep(Duration::from_millis(120 + 10 * round));
        run.signal(libc::SIGKILL);
        let _ = run.wait(Duration::from_secs(5));
    }
    let (code, out, err) = common::kxo_with(&args, &[]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(report["games"], 600, "{out}");
    // Every game the state holds has its record, whole.
    let text = fs::read_to_string(&state).expect("state");
    let games: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("line")["game"]
                .as_u64()
                .expect("game")
        })
        .collect();
    assert!(games.len() >= 600, "{} lines", games.len());
    for game in games {
        let sgf = records.join(format!("game-{:04}.sgf", game + 1));
        let bytes = fs::read(&sgf).unwrap_or_default();
        assert!(
            bytes.starts_with(b"(;GM[4]"),
            "{} missing or empty",
            sgf.display()
        );
    }
}

#[test]
fn a_closed_output_ends_a_command_quietly() {
    common::light_panics();
    // `kxo-tui arena … 2>&1 | head -4`: both outputs closed early.
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("m.model").display().to_string();
    for args in [
        vec![
            "arena",
            "--games",
            "2",
            "--size",
            "5",
            "--goal",
            "4",
            "--o",
            "rl",
            "--model",
            model.as_str(),
        ],
        vec!["solve", "--size", "4", "--goal", "4"],
        vec!["train", "--episodes", "2000", "--model", model.as_str()],
    ] {
        let mut child = std::process::Command::new(common::bin())
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start");
        // Nobody reads: close both pipes at once.
        drop(child.stdout.take());
        drop(child.stderr.take());
        let status = child.wait().expect("wait");
        let code = status.code();
        assert!(
            code == Some(0) || code == Some(141),
            "{args:?}: {status:?} (101 is a panic)"
        );
    }
}

#[test]
fn ten_million_games_run_in_flat_memory_and_ctrl_c_gives_the_result_so_far() {
    common::light_panics();
    let run = Running::start(
        &[
            "arena", "--engine", "a=random", "--engine", "b=random", "--size", "3", "--goal", "3",
            "--games", "10000000",
        ],
        &[],
    );
    // Thousands of games a second: memory read as they pile up.
    let mut peak: f64 = 0.0;
    for _ in 0..30 {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(run.rss_mib());
    }
    run.signal(libc::SIGINT);
    let (code, out, err) = run.wait(Duration::from_secs(10));
    assert_eq!(code, Some(130), "{err}");
    assert!(out.contains("games of 10000000"), "{out}");
    assert!(err.contains("stopped by SIGINT"), "{err}");
    assert!(peak > 0.0 && peak < 64.0, "peak {peak:.0} MiB");
}

#[test]
fn a_manager_that_floods_or_never_reads_costs_the_brain_bounded_memory() {
    common::light_panics();
    // `yes ABOUT | kxo-tui brain > /dev/null`, for 5 s.
    let flood = Running::start(&["brain"], &[]);
    let mut flood = flood;
    let input = flood.child.stdin.take().expect("stdin");
    let output = flood.child.stdout.take().expect("stdout");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut input = input;
        let line = b"ABOUT\n".repeat(1024);
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_secs(5) && input.write_all(&line).is_ok() {}
    });
    let reader = std::thread::spawn(move || {
        let mut output = output;
        let _ = std::io::copy(&mut output, &mut std::io::sink());
    });
    let mut peak: f64 = 0.0;
    for _ in 0..45 {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(flood.rss_mib());
    }
    let _ = writer.join();
    drop(flood);
    let _ = reader.join();
    assert!(peak < 64.0, "flooded: {peak:.0} MiB");
    // A manager that writes and never reads what the brain answers.
    let mut deaf = Running::start(&["brain"], &[]);
    let input = deaf.child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut input = input;
        let line = b"ABOUT\n".repeat(1024);
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_secs(4) && input.write_all(&line).is_ok() {}
    });
    let mut peak: f64 = 0.0;
    for _ in 0..40 {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(deaf.rss_mib());
    }
    deaf.signal(libc::SIGTERM);
    let _ = writer.join();
    let (code, _, _) = deaf.wait(Duration::from_secs(5));
    assert_eq!(
        code,
        Some(143),
        "a brain blocked on its output ends on SIGTERM"
    );
    assert!(peak < 64.0, "never read: {peak:.0} MiB");
}

#[test]
fn what_no_run_can_hold_is_refused_at_once_in_little_memory() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    // Ten thousand engines, and a live tournament of three hundred.
    let many: Vec<String> = (0..10_000)
        .map(|i| format!("--engine=e{i}=random"))
        .collect();
    let mut args: Vec<&str> = vec!["arena", "--games", "2"];
    args.extend(many.iter().map(String::as_str));
    let run = run_env(&args, &[], |_| Ok(()), Duration::from_secs(20));
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(run.text().contains("2 to 100 engines"), "{}", run.text());
    assert!(run.max_rss_mib < 64.0, "{:.0} MiB", run.max_rss_mib);
    let mut live: Vec<&str> = vec!["--tournament-games", "100000"];
    live.extend(many[..300].iter().map(String::as_str));
    let run = run_env(&live, &[], |_| Ok(()), Duration::from_secs(20));
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(run.max_rss_mib < 64.0, "{:.0} MiB", run.max_rss_mib);

    // State files that claim what no run has: refused by name.
    let good = {
        let state = dir.path().join("good.state");
        let (code, _, err) = common::kxo_with(
            &[
                "arena",
                "--o",
                "random",
                "--x",
                "random",
                "--games",
                "2",
                "--seed",
                "3",
                "--state",
                state.to_str().expect("utf-8"),
            ],
            &[],
        );
        assert_eq!(code, 0, "{err}");
        fs::read_to_string(&state).expect("state")
    };
    let (header, games) = good.split_once('\n').expect("a header line");
    let forged: [(&str, &str, &str); 6] = [
        ("games", "\"games\":2", "\"games\":4294967295"),
        ("size", "\"size\":4", "\"size\":200"),
        ("goal", "\"goal\":3", "\"goal\":0"),
        ("engines", "\"engines\":[", "\"engines\":[],\"x\":["),
        (
            "shard",
            "\"shard\":null",
            "\"shard\":{\"index\":5,\"count\":4}",
        ),
        (
            "shard count",
            "\"shard\":null",
            "\"shard\":{\"index\":1,\"count\":4294967295}",
        ),
    ];
    for (what, from, to) in forged {
        assert!(header.contains(from), "{what}: {header}");
        let path = dir.path().join(format!("{what}.state"));
        fs::write(&path, format!("{}\n{games}", header.replacen(from, to, 1))).expect("forge");
        let run = run_env(
            &["arena", "merge", path.to_str().expect("utf-8")],
            &[],
            |_| Ok(()),
            Duration::from_secs(20),
        );
        assert_eq!(run.code, 2, "{what}: {}", run.text());
        assert!(run.max_rss_mib < 64.0, "{what}: {:.0} MiB", run.max_rss_mib);
    }
    // A state of 100 MB of one game over and over: merged as a stream
    // (a run of ten million games may hold that much; one of two games is
    // refused for it).
    let first_game = games.lines().next().expect("a game");
    let big = dir.path().join("big.state");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(fs::File::create(&big).expect("create"));
        writeln!(
            f,
            "{}",
            header.replacen("\"games\":2", "\"games\":10000000", 1)
        )
        .expect("write");
        let line = format!("{first_game}\n");
        for _ in 0..(100 << 20) / line.len() {
            f.write_all(line.as_bytes()).expect("write");
        }
    }
    let run = run_env(
        &["arena", "merge", big.to_str().expect("utf-8")],
        &[],
        |_| Ok(()),
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 0, "{}", run.text());
    assert!(run.text().contains("1 games of 10000000"), "{}", run.text());
    assert!(run.max_rss_mib < 64.0, "{:.0} MiB", run.max_rss_mib);

    // A checkpoint that settles one root move fifty times.
    let cp = dir.path().join("cp.json");
    let settled: Vec<String> = (0..50)
        .map(|_| r#"{"move":"B2","value":"draw","plies":9,"nodes":1}"#.to_string())
        .collect();
    fs::write(
        &cp,
        format!(
            r#"{{"kind":"kxo-tui solve checkpoint","version":2,"size":3,"goal":3,"moves":"","settled":[{}],"nodes":0,"seconds":0}}"#,
            settled.join(",")
        ),
    )
    .expect("forge");
    let (code, _, err) = common::kxo_with(
        &[
            "solve",
            "--size",
            "3",
            "--goal",
            "3",
            "--resume",
            cp.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("twice"), "{err}");
}

#[test]
fn a_model_with_weights_past_any_sum_is_refused_not_a_panic() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("big.model");
    let model_arg = model.display().to_string();
    let (code, _, err) = common::kxo_with(
        &[
            "train",
            "--size",
            "15",
            "--goal",
            "5",
            "--episodes",
            "200",
            "--model",
            &model_arg,
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    // Every weight made ±3e38, and the checksum made right again.
    let mut bytes = fs::read(&model).expect("model");
    let header = 6 + 2 + 3 + 4 + 8 + 8;
    let body = bytes.len() - 4;
    for (i, entry) in bytes[header..body].chunks_exact_mut(20).enumerate() {
        let w: f32 = if i % 2 == 0 { 3e38 } else { -3e38 };
        entry[16..].copy_from_slice(&w.to_le_bytes());
    }
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    fs::write(&model, &bytes).expect("forge");
    for args in [
        vec![
            "train",
            "--size",
            "15",
            "--goal",
            "5",
            "--episodes",
            "10",
            "--model",
            model_arg.as_str(),
        ],
        vec![
            "arena",
            "--size",
            "15",
            "--goal",
            "5",
            "--o",
            "rl",
            "--x",
            "random",
            "--games",
            "2",
            "--model",
            model_arg.as_str(),
        ],
    ] {
        let (code, out, err) = common::kxo_with(&args, &[]);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("beyond"), "{err}");
    }
}

#[test]
fn a_manager_s_no_limit_is_not_read_as_no_time() {
    common::light_panics();
    // `INFO timeout_turn 2049638230412172402`: 90% of it wrapped around to
    // almost nothing, and the brain played at once.
    let input = "START 15\r\nINFO timeout_turn 2049638230412172402\r\nBOARD\r\n7,7,2\r\n8,8,1\r\n\
                 7,8,2\r\n6,6,1\r\nDONE\r\n";
    let run = common::run_fed(
        &["brain", "--engine", "mcts", "--think-ms", "600"],
        move |w| {
            use std::io::Write;
            w.write_all(input.as_bytes())?;
            w.flush()?;
            // END only after the answer: END stops a search at once.
            std::thread::sleep(Duration::from_millis(2000));
            w.write_all(b"END\r\n")
        },
        Duration::from_secs(30),
    );
    assert_eq!(run.code, 0, "{}", run.text());
    let said = String::from_utf8_lossy(&run.out);
    let ms: u64 = said
        .lines()
        .find_map(|l| l.split(" in ").nth(1)?.split(" ms").next()?.parse().ok())
        .unwrap_or_else(|| panic!("no search message: {said}"));
    assert!(ms >= 500, "it thought for {ms} ms of its 600: {said}");
}
