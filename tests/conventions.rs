//! How `arena` keeps outside engines, by Gomocup's conventions where a
//! brain is concerned: one process for many games (`restart=off`), the
//! brain's own folder, a brain stopped while the other side thinks, and
//! its memory held to its limit. Each with the mock brains of
//! `tests/brains/`.

mod common;

use common::json;

/// `arena ARGS --jobs 1 --json` (and `--games 4` unless ARGS say) in a
/// folder of its own, which must succeed: the report.
fn arena_in(dir: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let mut full = vec!["arena", "--jobs", "1", "--json"];
    if !args.contains(&"--games") {
        full.extend(["--games", "4"]);
    }
    full.extend_from_slice(args);
    json(&common::kxo_ok_in(dir, &full))
}

/// How many lines of `file` are `line`.
fn lines_that_are(file: &std::path::Path, line: &str) -> usize {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter(|l| *l == line)
        .count()
}

#[test]
fn with_restart_off_one_brain_process_plays_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("said.log");
    let run = |options: &str| {
        let _ = std::fs::remove_file(&log);
        let brain = format!(
            "slow{options}=brain:env SLOW_BRAIN_MS=0 BRAIN_LOG={} {}",
            log.display(),
            common::brain_script("slow.sh")
        );
        let report = arena_in(
            dir.path(),
            &[
                "--size", "7", "--goal", "4", "--engine", &brain, "--engine", "r=random",
            ],
        );
        assert_eq!(report["games"], 4, "{report}");
        assert!(report.get("forfeits").is_none(), "{report}");
        (
            lines_that_are(&log, "START 7"),
            lines_that_are(&log, "RESTART"),
        )
    };
    // Past the preflight's START: one process a game by default; one for
    // the run, told RESTART before each game after the first, with
    // restart=off.
    assert_eq!(run(""), (5, 0));
    assert_eq!(run("[restart=off]"), (2, 3));
}

#[test]
fn with_restart_off_a_brain_that_died_is_started_again() {
    // It answers START, then exits when asked for a move: each game it
    // forfeits, and the next game gets a new process, not the dead one.
    let dir = tempfile::tempdir().unwrap();
    let starts = dir.path().join("starts");
    let brain = format!(
        "dies[restart=off]=brain:sh -c 'echo started >> {}; exec {} exit'",
        starts.display(),
        common::brain_script("faulty.sh")
    );
    let report = arena_in(
        dir.path(),
        &[
            "--size", "7", "--goal", "4", "--engine", &brain, "--engine", "r=random",
        ],
    );
    assert_eq!(report["games"], 4, "{report}");
    let forfeits = report["forfeits"].as_array().expect("forfeits");
    assert_eq!(forfeits.len(), 4, "{report}");
    assert!(
        forfeits.iter().all(|f| f
            .as_str()
            .is_some_and(|f| f.contains("dies (") && f.contains("exited"))),
        "{report}"
    );
    // The preflight's process, then one a game.
    assert_eq!(lines_that_are(&starts, "started"), 5);
}

#[test]
fn with_restart_off_one_gtp_process_plays_every_game_from_a_clear_board() {
    let dir = tempfile::tempdir().unwrap();
    let starts = dir.path().join("starts");
    let engine = |name: &str, seed: &str| {
        format!(
            "{name}[restart=off]=gtp:sh -c 'echo {name} >> {}; exec {} gtp --engine random --seed {seed}'",
            starts.display(),
            env!("CARGO_BIN_EXE_kxo-tui")
        )
    };
    let records = dir.path().join("records");
    let report = arena_in(
        dir.path(),
        &[
            "--go",
            "5",
            "--engine",
            &engine("a", "1"),
            "--engine",
            &engine("b", "2"),
            "--records",
            &records.display().to_string(),
        ],
    );
    assert_eq!(report["games"], 4, "{report}");
    assert!(report.get("forfeits").is_none(), "{report}");
    // Each: its preflight's process, then one for all four games.
    assert_eq!(
        (lines_that_are(&starts, "a"), lines_that_are(&starts, "b")),
        (2, 2)
    );
    // Every game a whole game of its own: each record starts from an
    // empty board and ends in a count, none shorter than a few moves.
    for n in 1..=4 {
        let sgf = std::fs::read_to_string(records.join(format!("game-{n:04}.sgf"))).unwrap();
        assert!(!sgf.contains("AB["), "{sgf}");
        assert!(sgf.contains("RE["), "{sgf}");
    }
}

#[test]
fn a_brain_runs_in_its_own_folder_unless_told_cwd_run() {
    // As Gomocup's managers run one: a brain that loads files beside
    // itself finds them. The program named by a path relative to where
    // kxo-tui was started.
    let dir = tempfile::tempdir().unwrap();
    let here = dir.path().canonicalize().unwrap();
    let brains = here.join("brains");
    std::fs::create_dir(&brains).unwrap();
    std::fs::copy(common::brain_script("slow.sh"), brains.join("slow.sh")).unwrap();
    let pwd = here.join("pwd");
    let folder_of = |options: &str| {
        let _ = std::fs::remove_file(&pwd);
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
            .args([
                "arena", "--size", "7", "--goal", "4", "--games", "2", "--json",
            ])
            .args(["--engine", &format!("s{options}=brain:brains/slow.sh")])
            .args(["--engine", "r=random"])
            .current_dir(&here)
            .env("XDG_DATA_HOME", &here)
            .env("SLOW_BRAIN_MS", "0")
            .env("SLOW_PWD", &pwd)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(json(&stdout).get("forfeits").is_none(), "{stdout}");
        std::fs::read_to_string(&pwd).unwrap().trim().to_string()
    };
    assert_eq!(folder_of(""), brains.display().to_string());
    assert_eq!(folder_of("[cwd=run]"), here.display().to_string());
}

#[test]
fn a_brain_is_stopped_while_the_other_side_thinks_unless_told_suspend_off() {
    // One brain thinks on all the time (a loop that stamps the time every
    // 10 ms); the other takes 150 ms a move and stamps when it reads its
    // TURN and when it answers. Stopped with its process group from its
    // answer to its next command, the first stamps nothing inside the
    // other's thinking; with suspend=off it does.
    let dir = tempfile::tempdir().unwrap();
    let (ponder, stamps) = (dir.path().join("ponder"), dir.path().join("stamps"));
    let stamps_inside = |options: &str| {
        let _ = std::fs::remove_file(&ponder);
        let _ = std::fs::remove_file(&stamps);
        let thinker = format!(
            "p{options}=brain:env SLOW_BRAIN_MS=0 SLOW_PONDER={} {}",
            ponder.display(),
            common::brain_script("slow.sh")
        );
        let slow = format!(
            "s=brain:env SLOW_BRAIN_MS=150 BRAIN_STAMPS={} {}",
            stamps.display(),
            common::brain_script("slow.sh")
        );
        arena_in(
            dir.path(),
            &[
                "--size", "7", "--goal", "4", "--games", "1", "--engine", &thinker, "--engine",
                &slow,
            ],
        );
        let read = |file: &std::path::Path| std::fs::read_to_string(file).unwrap_or_default();
        let ticks: Vec<u64> = read(&ponder)
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect();
        // The other side's thinking: from each TURN it read to its answer.
        let mut windows = Vec::new();
        let mut got = None;
        for line in read(&stamps).lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields.as_slice() {
                ["got", ns, "TURN", ..] => got = ns.parse::<u64>().ok(),
                ["answer", ns] => {
                    if let (Some(from), Ok(to)) = (got.take(), ns.parse::<u64>()) {
                        windows.push((from, to));
                    }
                }
                _ => {}
            }
        }
        assert!(windows.len() >= 5, "{windows:?}");
        ticks
            .iter()
            .filter(|&&t| windows.iter().any(|&(from, to)| from < t && t < to))
            .count()
    };
    assert_eq!(stamps_inside(""), 0);
    assert!(stamps_inside("[suspend=off]") > 0);
}

#[test]
fn a_brain_over_its_memory_loses_by_forfeit_unless_told_memory_check_off() {
    // It holds 80 MB from its first move on, told 32 MB.
    let dir = tempfile::tempdir().unwrap();
    let run = |options: &str| {
        let hog = format!(
            "hog[memory=32{options}]=brain:env SLOW_BRAIN_MS=0 SLOW_HOG_MB=80 {}",
            common::brain_script("slow.sh")
        );
        arena_in(
            dir.path(),
            &[
                "--size", "7", "--goal", "4", "--games", "2", "--engine", &hog, "--engine",
                "r=random",
            ],
        )
    };
    let report = run("");
    let forfeits = report["forfeits"].as_array().expect("forfeits");
    assert_eq!(forfeits.len(), 2, "{report}");
    for text in forfeits {
        let text = text.as_str().unwrap_or_default();
        assert!(
            text.contains("hog (") && text.contains("past its 32 MB (INFO max_memory)"),
            "{text}"
        );
    }
    let report = run(",memory-check=off");
    assert!(report.get("forfeits").is_none(), "{report}");
    // A brain within its memory plays on: the default 256 MB.
    let within = format!(
        "light=brain:env SLOW_BRAIN_MS=0 {}",
        common::brain_script("slow.sh")
    );
    let report = arena_in(
        dir.path(),
        &[
            "--size", "7", "--goal", "4", "--games", "2", "--engine", &within, "--engine",
            "r=random",
        ],
    );
    assert!(report.get("forfeits").is_none(), "{report}");
}
