//! Outside brains as seats: kxo-tui's own brain through the protocol, the
//! faults a brain can have (the scripts in `tests/brains/`), and the live
//! screen with a brain that takes its time.

mod common;

use kxo_tui::protocol::outside::Protocol;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::{CTRL_Q, Session, gomoku_args};

const T: Duration = Duration::from_secs(10);

fn kxo(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    common::kxo_with(args, env)
}

/// `kxo-tui arena ARGS --json` with `env` added, which must succeed: its
/// report, and its output for the failure messages.
fn arena_report(args: &[&str], env: &[(&str, &str)]) -> (serde_json::Value, String) {
    let args: Vec<&str> = std::iter::once("arena")
        .chain(args.iter().copied())
        .chain(["--json"])
        .collect();
    let (code, out, err) = kxo(&args, env);
    assert_eq!(code, 0, "{args:?}: {err}");
    let report = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    (report, out)
}

/// `arena --size N --goal K --o O --x X MORE…` with its report.
fn duel(size: u8, goal: u8, o: &str, x: &str, more: &[&str]) -> (serde_json::Value, String) {
    let (size, goal) = (size.to_string(), goal.to_string());
    let mut args = vec!["--size", &size, "--goal", &goal, "--o", o, "--x", x];
    args.extend_from_slice(more);
    arena_report(&args, &[])
}

fn script(name: &str) -> String {
    common::brain_script(name)
}

/// `brain:` for kxo-tui's own brain with these flags.
fn own_brain(flags: &str) -> String {
    format!("brain:{} brain {flags}", env!("CARGO_BIN_EXE_kxo-tui"))
}

/// Whether any process still runs in the group `pid` led (a brain and
/// whatever it started). Zombies do not count.
fn group_alive(pid: u32) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.flatten().any(|e| {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            return false;
        };
        // pid (comm) state ppid pgrp ...: fields after the last ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            return false;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        fields.first().is_some_and(|s| *s != "Z")
            && fields.get(2) == Some(&pid.to_string().as_str())
    })
}

#[test]
fn lines_that_answer_nothing_cost_a_brain_nothing() {
    // Before each move the brain writes stray lines (PentaZen's message
    // split by its depth written as a raw byte, an empty line, words):
    // Gomocup's manager skips them, and so does kxo-tui.
    let brain = format!(
        "brain:env SLOW_BRAIN_MS=5 SLOW_NOISE=1 {}",
        script("slow.sh")
    );
    let (report, out) = duel(
        15,
        5,
        "random",
        &brain,
        &["--games", "2", "--think-ms", "500"],
    );
    assert!(report.get("forfeits").is_none(), "{out}");
    assert_eq!(report["games"], 2);
}

/// The modes a faulty test engine's header lists (`#   name  what it
/// does`): the catalogue every protocol's engine must stand.
fn fault_modes(script_name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(script(script_name)).expect("the script");
    text.lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("#   "))
        // A description's next lines are indented further.
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// How a fault ends a game under each protocol: the words after
/// "NAME (X) " and a piece of the reason; `None` for a mode another test
/// covers (`stubborn`: `tests/trust_processes.rs`).
fn fault_ending(protocol: &str, mode: &str) -> Option<(&'static str, &'static str)> {
    let gomoku = protocol == "brain";
    let margin = "ms of its 200 ms, with a margin of 500 ms";
    Some(match mode {
        "exit" if gomoku => ("forfeits", "the brain exited"),
        "exit" => ("forfeits", "the engine exited"),
        "garbage" => ("forfeits", "sent 'hello', not a move"),
        "occupied" if gomoku => ("forfeits", "a taken cell"),
        "occupied" => ("forfeits", ", a taken cell"),
        "offboard" if gomoku => ("forfeits", "99,99, off the board"),
        "offboard" => ("forfeits", "played Z99, off the board"),
        "refuse" if gomoku => ("forfeits", "answered 'ERROR"),
        "refuse" => ("forfeits", "answered '? I would rather not'"),
        // Lines without end: read in batches between looks at the clock.
        "flood" if gomoku => ("forfeits", "sent 'thinking', not a move, and no move"),
        // An answer's lines are bounded.
        "flood" => ("forfeits", "an answer of more than 64 lines"),
        // Past its 200 ms and the margin: the one clock rule says how.
        "slow" | "silent" => ("loses on time", margin),
        "stubborn" => return None,
        other => panic!("{protocol}: no ending is known for the fault '{other}'"),
    })
}

/// Each protocol's faulty engine and the board it plays on: a match
/// without a wildcard, so a new protocol does not compile until it has its
/// rows in the catalogue.
fn catalogue_of(protocol: Protocol) -> (&'static str, [&'static str; 4]) {
    match protocol {
        Protocol::Gomoku => ("faulty.sh", ["--size", "15", "--goal", "5"]),
        Protocol::Gtp => ("faulty_gtp.sh", ["--go", "9", "--komi", "7.5"]),
    }
}

#[test]
fn every_fault_forfeits_with_its_reason_and_leaves_no_process() {
    // The Gomoku brain's catalogue of faults, and the same faults from a
    // GTP engine on 9x9 Go: every protocol of Protocol::ALL, each fault
    // enumerated from its script, so a new fault or protocol joins the test.
    let brain_modes = fault_modes(catalogue_of(Protocol::Gomoku).0);
    assert!(brain_modes.len() >= 9, "{brain_modes:?}");
    for kind in Protocol::ALL {
        assert_eq!(
            fault_modes(catalogue_of(kind).0),
            brain_modes,
            "the {kind:?} engine has every fault the brain has"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    for kind in Protocol::ALL {
        let (script_name, board) = catalogue_of(kind);
        let protocol = kind.prefix().trim_end_matches(':');
        for mode in &brain_modes {
            let Some((ending, reason)) = fault_ending(protocol, mode) else {
                continue;
            };
            let pidfile = dir.path().join(format!("{protocol}-{mode}"));
            let engine = format!("{protocol}:{} {mode}", script(script_name));
            let pidfile_text = pidfile.display().to_string();
            let mut args = board.to_vec();
            args.extend([
                "--o",
                "random",
                "--x",
                &engine,
                "--games",
                "1",
                "--think-ms",
                "200",
            ]);
            let (report, out) = arena_report(&args, &[("FAULT_PIDFILE", &pidfile_text)]);
            assert_eq!(report["first_wins"], 1, "{protocol} {mode}: {out}");
            let forfeit = report["forfeits"][0].as_str().unwrap_or_default();
            assert!(
                forfeit.contains(&format!("{script_name} (X) {ending}"))
                    && forfeit.contains(reason),
                "{protocol} {mode}: {forfeit}"
            );
            let pid = u32::try_from(common::pid_in(&pidfile, std::time::Duration::from_secs(10)))
                .expect("a pid");
            assert!(
                !group_alive(pid),
                "{protocol} {mode}: engine {pid} or its children still run"
            );
        }
    }
}

#[test]
fn a_brain_that_cannot_start_is_refused_before_the_first_game() {
    // A typo in the path: not 200 forfeits in a tenth of a second, but one
    // line naming the brain, and status 2.
    let (code, out, err) = kxo(
        &[
            "arena",
            "--x",
            "brain:/nonexistent/pbrain",
            "--games",
            "200",
        ],
        &[],
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("pbrain") && err.contains("cannot play") && err.contains("did not start"),
        "{err}"
    );
}

#[test]
fn a_brain_that_fails_in_game_forfeits_and_the_ranking_counts_it() {
    let faulty = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/brains/faulty.sh");
    // Two participants: a pair, the brain O in one game and X in the other.
    let seat = format!("faulty.sh=brain:{faulty} exit");
    let args = ["--engine", "mcts=mcts", "--engine", &seat, "--games", "2"];
    let (report, out) = arena_report(&args, &[]);
    // It forfeits both games of the pair, as X and then as O.
    let brain = &report["ranking"][1];
    assert_eq!(
        (&brain["name"], &brain["losses"], &brain["forfeits"]),
        (&"faulty.sh".into(), &2.into(), &2.into()),
        "{out}"
    );
    assert_eq!(
        report["forfeits"].as_array().map(Vec::len),
        Some(2),
        "{out}"
    );
    assert!(
        report["forfeits"][1]
            .as_str()
            .is_some_and(|f| f.contains("faulty.sh (O) forfeits: the brain exited")),
        "{out}"
    );
    // And flags that name no program are refused up front.
    let (code, _, err) = kxo(&["arena", "--x", "brain:"], &[]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = kxo(&["arena", "--x", "brain"], &[]);
    assert!(code == 2 && err.contains("brain:PATH"), "{err}");
}

/// The games an engine of an arena report lost.
fn losses(report: &serde_json::Value, name: &str) -> u64 {
    report["ranking"]
        .as_array()
        .and_then(|r| r.iter().find(|s| s["name"] == name))
        .and_then(|s| s["losses"].as_u64())
        .unwrap_or_else(|| panic!("no {name} in {report}"))
}

#[test]
fn kxo_tui_as_a_brain_plays_as_strongly_as_in_process() {
    // 4x4 with four in a row is a draw: the perfect player, through the
    // protocol, never loses it (on either side).
    let perfect = own_brain("--engine negamax --goal 4 --think-ms 200");
    // --o and --x fix the sides: the two orders play both colours.
    for (o, x) in [(perfect.as_str(), "mcts"), ("mcts", perfect.as_str())] {
        let (report, out) = duel(
            4,
            4,
            o,
            x,
            &["--games", "6", "--mcts-iterations", "3000", "--seed", "2"],
        );
        assert_eq!(
            losses(&report, "kxo-tui"),
            0,
            "the perfect brain lost: {out}"
        );
        assert!(report.get("forfeits").is_none(), "{out}");
    }
    // MCTS through the protocol against the perfect player: the perfect
    // side never loses, as in process.
    let mcts4 = own_brain("--engine mcts --goal 4 --think-ms 100");
    let (report, out) = duel(4, 4, &mcts4, "negamax", &["--games", "4", "--seed", "2"]);
    assert_eq!(losses(&report, "negamax"), 0, "{out}");
    assert!(report.get("forfeits").is_none(), "{out}");
    // In process, the same engines give the same: no game lost.
    let (report, out) = duel(
        4,
        4,
        "negamax",
        "mcts",
        &["--games", "6", "--mcts-iterations", "3000", "--seed", "2"],
    );
    assert_eq!(losses(&report, "negamax"), 0, "{out}");
    // Gomoku: whole games through the protocol, no forfeit.
    let mcts = own_brain("--engine mcts --think-ms 50");
    let (report, out) = duel(
        15,
        5,
        &mcts,
        "negamax",
        &["--games", "2", "--think-ms", "100"],
    );
    assert!(report.get("forfeits").is_none(), "{out}");
    assert_eq!(report["games"], 2);
}

#[test]
fn a_failing_brain_forfeits_on_the_live_screen_and_is_gone_after_quit() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pid").display().to_string();
    let brain = format!("brain:{} garbage", script("faulty.sh"));
    let mut s = Session::start(
        &gomoku_args(&["--games", "1"], "random", &brain, &["--hold", "60000"]),
        // Wide enough for the Records line, with the opening's moves, in one.
        200,
        40,
        &[("FAULT_PIDFILE", &pidfile)],
    );
    let screen = s.wait_for("not a move", T);
    assert!(screen.contains("forfeits"), "{screen}");
    assert!(screen.contains("O wins"), "{screen}");
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    let pid = u32::try_from(common::pid_in(
        std::path::Path::new(&pidfile),
        std::time::Duration::from_secs(10),
    ))
    .expect("a pid");
    assert!(!group_alive(pid));
}

#[test]
fn the_example_brain_in_the_manual_plays_whole_games() {
    // The manual's Python brain (docs/brains.md), run as written (where Python is there).
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("python3 is not installed: the manual's example brain is not run");
        return;
    }
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/brains.md"))
            .unwrap();
    let start = readme.find("```python\n").expect("the example brain") + "```python\n".len();
    let code = &readme[start..][..readme[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("brain.py");
    std::fs::write(&path, code).unwrap();
    let brain = format!("brain:python3 {}", path.display());
    let (report, out) = duel(
        15,
        5,
        &brain,
        "random",
        &["--games", "3", "--think-ms", "500"],
    );
    assert!(report.get("forfeits").is_none(), "{out}");
    assert_eq!(report["games"], 3);
}

#[test]
fn after_an_undo_the_brain_gets_the_board_in_a_fresh_match() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log").display().to_string();
    let brain = format!("brain:{}", script("slow.sh"));
    let mut s = Session::start(
        &["--human", "--ai", &brain, "--delay", "0"],
        100,
        40,
        &[("SLOW_BRAIN_MS", "0"), ("BRAIN_LOG", &log)],
    );
    s.wait_for("Your move", T);
    s.send(b"b2\r");
    // The brain answers with the first empty cell, A1.
    s.wait_until("the brain's answer", T, |sc| sc.contains("B2 → A1"));
    s.send(b"u");
    s.wait_for("took back", T);
    s.send(b"c3\r");
    s.wait_until("the brain's next answer", T, |sc| sc.contains("C3 → A1"));
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    let said = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = said.lines().collect();
    // The undo starts a new game generation, so the seat starts its brain
    // afresh: a second START, then the one move of the new position as a
    // TURN, never a position the brain's open match does not lead to.
    let turn = lines.iter().position(|l| *l == "TURN 1,1").expect(&said);
    let start = lines
        .iter()
        .rposition(|l| l.starts_with("START"))
        .expect(&said);
    assert!(turn < start, "{said}");
    let moves: Vec<&&str> = lines[start..]
        .iter()
        .filter(|l| !l.starts_with("INFO") && !l.starts_with("START"))
        .collect();
    assert_eq!(moves, [&"TURN 2,2"], "{said}");
}

#[test]
fn board_lists_the_stones_in_play_order() {
    // A brain that reads BOARD's colours from the order (as PentaZen does),
    // joining games that start from openings of 2 to 4 stones: each of its
    // games must be played out, none forfeited for a scrambled board.
    let ordered = format!("ordered=brain:{}", script("ordered.sh"));
    let (report, out) = arena_report(
        &[
            "--size", "15", "--goal", "5", "--engine", &ordered, "--engine", "r=random", "--games",
            "8", "--seed", "4",
        ],
        &[],
    );
    assert!(report.get("forfeits").is_none(), "{out}");
    assert_eq!(report["games"], 8, "{out}");
}

/// `--rule standard` (exactly five): kxo-tui's own brain is told
/// `INFO rule 1`, the records say `RU[standard]`, and every game replays
/// under that rule to the result recorded.
#[test]
fn arena_under_the_standard_rule_tells_the_brains_and_the_records() {
    use kxo_engine::{Outcome, Player, Position, Rule, Rules};
    let dir = tempfile::tempdir().unwrap();
    let (logs, records) = (dir.path().join("logs"), dir.path().join("records"));
    let brain = format!("k={}", own_brain("--engine negamax --think-ms 30"));
    let (code, _, err) = kxo(
        &[
            "arena",
            "--gomoku",
            "--rule",
            "standard",
            "--engine",
            &brain,
            "--engine",
            "n=negamax:think-ms=30",
            "--games",
            "2",
            "--seed",
            "5",
            "--log",
            logs.to_str().unwrap(),
            "--records",
            records.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    let mut logs_read = 0;
    for entry in std::fs::read_dir(&logs).unwrap().flatten() {
        let log = std::fs::read_to_string(entry.path()).unwrap();
        assert!(log.contains("> INFO rule 1"), "{log}");
        logs_read += 1;
    }
    assert_eq!(logs_read, 2);
    let rules = Rules::new(15, 5).unwrap().with_rule(Rule::Standard);
    for game in 1..=2 {
        let text = std::fs::read_to_string(records.join(format!("game-{game:04}.sgf"))).unwrap();
        assert!(text.contains("RU[standard]"), "{text}");
        let sgf = kxo_tui::tournament::game_file::parse(&text).unwrap();
        let pos = Position::from_moves(rules, &sgf.moves).unwrap();
        let expected = match sgf.result.as_deref() {
            Some("B+") => Outcome::Win(Player::O),
            Some("W+") => Outcome::Win(Player::X),
            Some("0") => Outcome::Draw,
            other => panic!("game {game} ended {other:?}"),
        };
        assert_eq!(pos.outcome(), expected, "game {game}");
    }
}

#[test]
fn a_brain_hears_kxo_tuis_own_info_keys_and_no_option_may_send_one() {
    use kxo_tui::protocol::outside::RESERVED_INFO_KEYS;
    // Every INFO key kxo-tui sends (a game clock, memory, nodes, depth,
    // the rule) is one it keeps for itself; the brain's own option rides
    // beside them.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log").display().to_string();
    let brain = format!(
        "s=[memory=64,nodes=1000,depth=9,option.style=calm]brain:env SLOW_BRAIN_MS=0 \
         BRAIN_LOG={log} {}",
        script("slow.sh")
    );
    let (report, out) = arena_report(
        &[
            "--size", "15", "--goal", "5", "--engine", &brain, "--engine", "r=random", "--games",
            "2", "--tc", "30+1",
        ],
        &[],
    );
    assert_eq!(report["games"], 2, "{out}");
    let said = std::fs::read_to_string(&log).unwrap();
    let keys: std::collections::BTreeSet<&str> = said
        .lines()
        .filter_map(|l| l.strip_prefix("INFO "))
        .filter_map(|l| l.split(' ').next())
        .collect();
    assert!(
        keys.contains("style") && keys.contains("time_left"),
        "{said}"
    );
    for key in keys.iter().filter(|k| **k != "style") {
        assert!(
            RESERVED_INFO_KEYS.contains(key),
            "INFO {key} is not reserved"
        );
    }
    // None of them may be sent as an option, in any case.
    for key in RESERVED_INFO_KEYS {
        let spec = format!(
            "s=[option.{}=0]brain:{}",
            key.to_uppercase(),
            script("slow.sh")
        );
        let (code, _, err) = kxo(
            &[
                "arena", "--size", "15", "--goal", "5", "--engine", &spec, "--engine", "r=random",
            ],
            &[],
        );
        assert_eq!(code, 2, "option.{key}: {err}");
        assert!(err.contains("is kxo-tui's to send"), "{err}");
    }
}
