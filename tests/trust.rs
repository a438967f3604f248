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

use common::{Run, run_env};

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
        name: "--load",
        role: Role::Read,
        args: &["--human", "--load", "{}"],
    },
    FileFlag {
        name: "review FILE",
        role: Role::Read,
        args: &["review", "{}"],
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
        name: "arena --pgn",
        role: Role::Write,
        args: &[
            "arena", "--o", "random", "--x", "random", "--games", "4", "--pgn", "{}",
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
        run.cpu < Duration::from_secs(10) && run.max_rss_mib < 64.0,
        "{} / {case}: {:?} CPU, {:.0} MiB",
        flag.name,
        run.cpu,
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
