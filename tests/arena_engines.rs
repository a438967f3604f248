//! `arena`'s engines from outside: outside brains on the match clock
//! and the clock rule, names escaped, flags refused by name, colours and
//! scores by colour, openings files, the log folder.

mod common;

use common::{json, kxo, words};
use kxo_engine::Cell;
use kxo_tui::tournament::game_file::parse as read_sgf;

#[test]
fn a_brain_gets_the_match_clock_and_loses_on_time_when_it_runs_out() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("brain.log");
    let brain = format!(
        "slow=brain:env SLOW_BRAIN_MS=300 BRAIN_LOG={} {}",
        log.display(),
        common::brain_script("slow.sh")
    );
    let (code, out, err) = kxo(&[
        "arena",
        "--size",
        "15",
        "--goal",
        "5",
        "--engine",
        &brain,
        "--engine",
        "r=random",
        "--games",
        "1",
        "--no-repeat",
        "--openings",
        "none",
        "--match-ms",
        "1000",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let said = std::fs::read_to_string(&log).unwrap();
    assert!(said.contains("INFO timeout_match 1000"), "{said}");
    assert!(said.contains("INFO time_left 1000"), "{said}");
    // Later moves are told less (none below zero, within the margin).
    let lefts: Vec<u64> = said
        .lines()
        .filter_map(|l| l.strip_prefix("INFO time_left "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(
        lefts.len() >= 3 && lefts.windows(2).all(|w| w[1] < w[0] || w[1] == 0),
        "{lefts:?}"
    );
    let r = json(&out);
    assert_eq!(r["second_wins"], 1, "{out}");
    let forfeit = r["forfeits"][0].as_str().unwrap();
    assert!(
        forfeit.contains("slow (O) loses on time") && forfeit.contains("left on its 1 s clock"),
        "{forfeit}"
    );
}

#[test]
fn bad_tournament_flags_get_one_line_and_status_two() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("o.txt");
    std::fs::write(&openings, "h8 i9\nh8 z99\n").unwrap();
    let openings_arg = format!("{}", openings.display());
    for (args, needle) in [
        (vec!["--engine", "a=mcts"], "at least two engines"),
        (
            vec!["--engine", "a=mcts", "--engine", "a=random"],
            "two engines are called 'a'",
        ),
        (
            vec!["--engine", "a=mcts", "--o", "mcts"],
            "cannot be used with",
        ),
        (
            vec![
                "--engine",
                "a=mcts",
                "--engine",
                "b=random",
                "--engine",
                "c=random",
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "two engines",
        ),
        (vec!["--sprt", "elo0=5,elo1=0"], "must be below"),
        (vec!["--shard", "1/2"], "--state"),
        (vec!["--shard", "3/2", "--state", "x"], "not a shard"),
        (vec!["--format", "swiss"], "not a format"),
        (
            vec!["--size", "15", "--goal", "5", "--openings", &openings_arg],
            "line 2",
        ),
        (
            vec!["--openings", "/nonexistent/openings.txt"],
            "does not exist",
        ),
    ] {
        let mut full = vec!["arena"];
        full.extend(args.iter().copied());
        let (code, out, err) = kxo(&full);
        assert_eq!(code, 2, "{full:?}: {err}");
        assert!(out.is_empty(), "{full:?}: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{full:?}: {err}");
        assert!(err.contains(needle), "{full:?}: {err}");
    }
    let (code, _, err) = kxo(&["arena", "merge", "/nonexistent/a.state"]);
    assert_eq!(code, 2);
    assert!(err.contains("does not exist"), "{err}");
    let missing = dir.path().join("missing.state").display().to_string();
    let (code, _, err) = kxo(&["arena", "merge", &missing]);
    assert_eq!(code, 2);
    assert!(err.contains("no state file"), "{err}");
    // A file that is not a state file is refused, and left as it was.
    let foreign = dir.path().join("notes.txt");
    std::fs::write(&foreign, "my notes\n").unwrap();
    let foreign_arg = foreign.display().to_string();
    let (code, _, err) = kxo(&["arena", "merge", &foreign_arg]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a kxo-tui arena state file"), "{err}");
    let (code, _, err) = kxo(&["arena", "--games", "2", "--state", &foreign_arg]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "my notes\n");
    // A FIFO as the openings file or the state file, /dev/zero as the
    // openings: refused at once, never waited on or read without end.
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a NUL-terminated path we own.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let fifo_arg = fifo.display().to_string();
    for args in [
        vec!["arena", "--openings", fifo_arg.as_str()],
        vec!["arena", "--openings", "/dev/zero"],
        vec!["arena", "--games", "2", "--state", fifo_arg.as_str()],
        vec!["arena", "merge", fifo_arg.as_str()],
    ] {
        let (code, _, err) = kxo(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
    // A link planted at the state file's name is not followed.
    let target = dir.path().join("victim.txt");
    std::fs::write(&target, "keep\n").unwrap();
    let link = dir.path().join("link.state");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let link_arg = link.display().to_string();
    let (code, _, err) = kxo(&["arena", "--games", "2", "--state", &link_arg]);
    assert_ne!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep\n");
    // Nor one at a record's name.
    let records = dir.path().join("records");
    std::fs::create_dir(&records).unwrap();
    std::os::unix::fs::symlink(&target, records.join("game-0001.sgf")).unwrap();
    let records_arg = records.display().to_string();
    let (code, _, err) = kxo(&["arena", "--games", "2", "--records", &records_arg]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("not overwritten"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep\n");
}

#[test]
fn a_brain_whose_name_holds_escape_codes_is_refused_and_named_escaped() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("br\x1b[2Jain");
    std::fs::write(&program, "#!/bin/sh\nexit 0\n").unwrap();
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let seat = format!("brain:{}", program.display());
    for json in [false, true] {
        let mut args = vec![
            "arena", "--size", "15", "--goal", "5", "--o", &seat, "--x", "random", "--games", "2",
        ];
        if json {
            args.push("--json");
        }
        // A program with a control character in its name is refused
        // before anything runs (a state file could not keep it), named
        // escaped.
        let (code, out, err) = kxo(&args);
        assert_eq!(code, 2, "{err}");
        assert!(!out.contains('\x1b') && !err.contains('\x1b'), "{out}{err}");
        assert!(
            err.contains("br\\e[2Jain") && err.contains("holds a control character"),
            "{err}"
        );
    }
}

#[test]
fn brains_off_five_in_a_row_are_reminded_that_the_protocol_has_no_k() {
    let own = |goal: &str| {
        format!(
            "brain:{} brain --engine random --goal {goal}",
            env!("CARGO_BIN_EXE_kxo-tui")
        )
    };
    let reminder = "told only the board size";
    for (size, goal, warned) in [("10", "4", true), ("15", "5", false)] {
        let seat = own(goal);
        let args = [
            "arena", "--size", size, "--goal", goal, "--o", &seat, "--x", "random", "--games", "2",
            "--seed", "3",
        ];
        let (code, out, err) = kxo(&args);
        assert_eq!(code, 0, "{err}");
        assert_eq!(err.contains(reminder), warned, "{size}x{goal}: {err}");
        // Told K, the brain plays every game out: no forfeit.
        assert!(!out.contains("forfeits:"), "{out}");
    }
    // Engines of kxo-tui's own know K: no reminder.
    let (_, _, err) = kxo(&[
        "arena", "--size", "10", "--goal", "4", "--o", "random", "--x", "random", "--games", "2",
    ]);
    assert!(!err.contains(reminder), "{err}");
}

#[test]
fn each_engines_score_as_o_and_as_x_follows_the_colours_it_played() {
    // Fixed sides: random is always O, the perfect player always X, so
    // each has games on one side only, and the perfect one never loses.
    let args = [
        "arena", "--size", "3", "--o", "random", "--x", "negamax", "--games", "6",
    ];
    let (code, out, err) = kxo(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let r = json(&out);
    let side = |name: &str, key: &str| -> Vec<u64> {
        standing(&r, name)[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect()
    };
    assert_eq!(side("random", "as_x"), [0, 0, 0], "{out}");
    assert_eq!(side("negamax", "as_o"), [0, 0, 0], "{out}");
    assert_eq!(side("random", "as_o").iter().sum::<u64>(), 6, "{out}");
    let perfect = side("negamax", "as_x");
    assert_eq!(perfect[2], 0, "{out}");
    assert_eq!(perfect[0], r["second_wins"].as_u64().unwrap(), "{out}");
    // In words: only the side each played.
    let (code, text, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    let line = text
        .lines()
        .find(|l| l.starts_with("scores as O: "))
        .unwrap_or_else(|| panic!("no scores by side: {text}"));
    let (o, x) = line
        .split_once("; as X: ")
        .unwrap_or_else(|| panic!("{line}"));
    assert!(o.contains("random ") && !o.contains("negamax"), "{line}");
    assert!(x.contains("negamax ") && !x.contains("random"), "{line}");
}

#[test]
fn o_and_x_fix_the_sides_and_engines_pair_with_colours_swapped() {
    let dir = tempfile::tempdir().unwrap();
    let firsts = |args: &[&str]| -> Vec<String> {
        let state = dir.path().join(format!("s{}.state", args.len()));
        let state_arg = state.display().to_string();
        let mut full = vec![
            "arena", "--size", "3", "--goal", "3", "--games", "4", "--state",
        ];
        full.push(&state_arg);
        full.extend_from_slice(args);
        let (code, _, err) = kxo(&full);
        assert_eq!(code, 0, "{err}");
        std::fs::read_to_string(&state)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["first"].to_string())
            .collect()
    };
    // --o random --x negamax: random moves first in every game.
    let fixed = firsts(&["--o", "random", "--x", "negamax"]);
    assert_eq!(fixed.len(), 4);
    assert!(fixed.iter().all(|f| f == "\"random\""), "{fixed:?}");
    // Two --engine: each opening twice, colours swapped.
    let paired = firsts(&[
        "--engine",
        "a=random",
        "--engine",
        "b=negamax",
        "--jobs",
        "1",
    ]);
    assert_eq!(paired, ["\"a\"", "\"b\"", "\"a\"", "\"b\""]);
}

/// One game of 15x15 between `slow.sh` (with its delays) and random, both
/// colours, at 200 ms a move: the JSON report.
fn slow_brain_against_random(first_ms: u64, then_ms: u64) -> serde_json::Value {
    let brain = format!(
        "slow=brain:env SLOW_FIRST_MS={first_ms} SLOW_BRAIN_MS={then_ms} {}",
        common::brain_script("slow.sh")
    );
    slow_against_random(&brain, &["--think-ms", "200"])
}

/// Two games of 15x15 between the brain `slow=SPEC` and random, each
/// colour once, with `clock` flags: the JSON report.
fn slow_against_random(brain: &str, clock: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "arena", "--size", "15", "--goal", "5", "--engine", brain, "--engine", "r=random",
        "--games", "2", "--seed", "3", "--json",
    ];
    args.extend_from_slice(clock);
    let (code, out, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    json(&out)
}

fn standing<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["ranking"]
        .as_array()
        .and_then(|r| r.iter().find(|s| s["name"] == name))
        .unwrap_or_else(|| panic!("{name} in {report}"))
}

#[test]
fn a_slow_first_move_builds_tables_without_losing_on_time() {
    // 2 s on its first move (Rapfi's hash), then quick: within the set-up
    // allowance, in both games.
    let report = slow_brain_against_random(2000, 20);
    assert!(report.get("forfeits").is_none(), "{report}");
    let slow = standing(&report, "slow");
    assert_eq!(
        (slow["forfeits"].as_u64(), slow["time_losses"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(slow["games"], 2);
}

#[test]
fn start_is_off_the_clock_as_in_gomocups_manager() {
    // 3.8 s to answer START (within its own 5 s), then 20 ms a move, at
    // 500 ms a move and no margin: charged with its first move, START
    // alone would pass the first move's 3.5 s and lose on time.
    let brain = format!(
        "slow=brain:env SLOW_START_MS=3800 SLOW_BRAIN_MS=20 {}",
        common::brain_script("slow.sh")
    );
    let report = slow_against_random(&brain, &["--think-ms", "500", "--time-margin", "0"]);
    let slow = standing(&report, "slow");
    assert_eq!(
        (slow["forfeits"].as_u64(), slow["time_losses"].as_u64()),
        (Some(0), Some(0)),
        "{report}"
    );
    assert_eq!(slow["games"], 2);
}

#[test]
fn a_brain_that_overruns_loses_on_time_by_the_clock_rule() {
    // Past 200 ms and the 500 ms margin on its second move.
    let report = slow_brain_against_random(20, 800);
    let slow = standing(&report, "slow");
    assert_eq!(slow["time_losses"], 2, "{report}");
    assert_eq!(slow["forfeits"], 0, "{report}");
    for text in report["forfeits"].as_array().expect("forfeits") {
        let text = text.as_str().unwrap_or_default();
        assert!(
            text.contains("slow (")
                && text.contains("loses on time: a move took")
                && text.contains("of its 200 ms, with a margin of 500 ms"),
            "{text}"
        );
    }
    // Past the set-up allowance too on its first move.
    let report = slow_brain_against_random(3900, 20);
    let text = report["forfeits"][0].as_str().unwrap_or_default();
    assert!(
        text.contains("with a margin of 500 ms and a first move's allowance of 3000 ms"),
        "{report}"
    );
}

#[test]
fn a_files_openings_are_shuffled_started_and_turned_as_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("openings.txt");
    std::fs::write(&file, "h8 i9\nh8 h9\nh8 j10\n").unwrap();
    let records = dir.path().join("records");
    let file_arg = file.display().to_string();
    let records_arg = records.display().to_string();
    let run = |openings: &str, extra: &[&str]| {
        let mut args = vec![
            "arena",
            "--size",
            "15",
            "--goal",
            "5",
            "--o",
            "random",
            "--x",
            "random",
            "--games",
            "24",
            "--seed",
            "9",
            "--openings",
            openings,
            "--json",
        ];
        args.extend_from_slice(extra);
        kxo(&args)
    };
    let (code, out, err) = run(
        &file_arg,
        &[
            "--openings-order",
            "random",
            "--openings-start",
            "2",
            "--transform",
            "--records",
            &records_arg,
        ],
    );
    assert_eq!(code, 0, "{err}");
    let report = json(&out);
    assert!(
        report["openings"]
            .as_str()
            .is_some_and(|o| o.ends_with("shuffled, from number 2, turned")),
        "{report}"
    );
    // The second stones: turned, so more than the file's three cells.
    let seconds: std::collections::HashSet<Cell> = (1..=24)
        .map(|n| {
            let sgf = std::fs::read_to_string(records.join(format!("game-{n:04}.sgf"))).unwrap();
            read_sgf(&sgf).unwrap().moves[1]
        })
        .collect();
    assert!(seconds.len() > 3, "{seconds:?}");
    // Not for random openings; not past the file's end.
    for (openings, extra, says) in [
        ("random", "--transform", "--openings FILE"),
        (
            file_arg.as_str(),
            "--openings-start=4",
            "past the file's 3 openings",
        ),
    ] {
        let (code, _, err) = run(openings, &[extra]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
}

#[test]
fn the_log_folder_keeps_each_brains_conversation_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let logs_arg = logs.display().to_string();
    let slow = format!(
        "s=brain:env SLOW_BRAIN_MS=5 {}",
        common::brain_script("slow.sh")
    );
    let faulty = format!("f=brain:{} garbage", common::brain_script("faulty.sh"));
    let (code, _, err) = kxo(&[
        "arena",
        "--gomoku",
        "--engine",
        &slow,
        "--engine",
        &faulty,
        "--games",
        "2",
        "--seed",
        "4",
        "--openings",
        "none",
        "--think-ms",
        "500",
        "--log",
        &logs_arg,
    ]);
    assert_eq!(code, 0, "{err}");
    let read = |name: &str| {
        std::fs::read_to_string(logs.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    // Game 1: s plays O, f plays X; game 2 the other way round.
    for (game, faulty_side) in [(1, 'X'), (2, 'O')] {
        let log = read(&format!("game-{game:04}-{faulty_side}.log"));
        assert!(log.starts_with(&format!(
            "# kxo-tui brain log: game {game}, f ({faulty_side})"
        )));
        for said in [
            "> START 15",
            "< OK",
            "> INFO timeout_turn 500",
            "> INFO rule 0",
            "< hello",
        ] {
            assert!(log.contains(said), "{said:?} in {log}");
        }
    }
    // The slow brain opened game 1 and played; in game 2 f forfeited
    // before s was asked.
    let slow_log = read("game-0001-O.log");
    for said in ["> BEGIN", "< MESSAGE slow brain plays 0,0", "< 0,0"] {
        assert!(slow_log.contains(said), "{said:?} in {slow_log}");
    }
    assert!(read("game-0002-X.log").contains("# it was not asked for a move in this game"));
    // A folder that is a file is refused before the run.
    let file = dir.path().join("file");
    std::fs::write(&file, "mine").unwrap();
    let (code, _, err) = kxo(&[
        "arena",
        "--gomoku",
        "--o",
        "random",
        "--x",
        "random",
        "--games",
        "1",
        "--log",
        &file.display().to_string(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
}

/// An engine with an option of its own is one file and one line of the
/// kinds' list (`greedy`, with `block=yes|no`): `arena` takes it with its
/// option, keeps the option in the spec, and its play follows it (one
/// that blocks wins in one beats one that does not); a value the option
/// does not take is refused in the list's own words.
#[test]
fn a_kind_with_an_option_plays_in_arena_by_its_option() {
    let (code, out, err) = kxo(&words(
        "arena --engine careless=greedy:block=no --engine careful=greedy --size 5 --goal 4 --games 40 --seed 1 --json",
    ));
    assert_eq!(code, 0, "{err}");
    let report = json(&out);
    assert_eq!(standing(&report, "careless")["spec"], "greedy:block=no");
    let careful = standing(&report, "careful")["score"]
        .as_f64()
        .expect("a score");
    assert!(careful > 0.65, "blocking scored only {careful}");
    let (code, _, err) = kxo(&[
        "arena",
        "--engine",
        "a=greedy:block=maybe",
        "--engine",
        "b=random",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("block=yes or block=no"), "{err}");
}
