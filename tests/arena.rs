//! `arena` as a tournament tool, from outside: the binary with its flags,
//! its state files, records and reports.

mod common;

use common::{json, kxo, words};

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use kxo_engine::{Cell, Outcome, Position, Rules};
use kxo_tui::tournament::game_file::parse as read_sgf;
use kxo_tui::tournament::records::read_psq;
use kxo_tui::tournament::{GameResult, PlayedGame};

/// The report without the times per move, which differ run to run.
fn timeless(mut report: serde_json::Value) -> serde_json::Value {
    for standing in report["ranking"].as_array_mut().expect("a ranking") {
        standing["ms_per_move"] = 0.into();
        standing["cpu_ms_per_move"] = 0.into();
    }
    report
}

/// The games of a state file (after its header line), in game order (the
/// file has them in the order they finished).
fn state_games(path: &Path) -> Vec<PlayedGame> {
    let mut games: Vec<PlayedGame> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    games.sort_by_key(|g| g.game);
    games
}

/// A run whose games are the same every time: MCTS by iterations and
/// Random, seeded.
const FIXED: [&str; 14] = [
    "arena",
    "--size",
    "5",
    "--goal",
    "4",
    "--engine",
    "m=mcts:iterations=40000",
    "--engine",
    "r=random",
    "--games",
    "24",
    "--seed",
    "11",
    "--json",
];

#[test]
fn a_run_killed_with_sigkill_resumes_to_the_same_report() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("run.state");
    let state_arg = state.to_str().unwrap();
    let (code, whole, err) = kxo(&FIXED);
    assert_eq!(code, 0, "{err}");
    let whole = timeless(json(&whole));
    assert_eq!(whole["games"], 24);

    let mut args: Vec<&str> = FIXED.to_vec();
    args.extend(["--state", state_arg, "--jobs", "1"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
        .args(&args)
        .env("XDG_DATA_HOME", dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once a few games are on disk (a header line and games). A
    // run that writes none spends CPU without end (the whole run above
    // took a few seconds of it); one that stalls spends none at all.
    let pid = child.id();
    let mut last = (Duration::ZERO, Instant::now());
    loop {
        let lines = std::fs::read_to_string(&state).map_or(0, |t| t.lines().count());
        if lines >= 6 {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "it finished before the kill"
        );
        let cpu = common::cpu_of(pid);
        assert!(
            cpu < Duration::from_secs(120),
            "no games written in {cpu:?} of CPU"
        );
        if cpu > last.0 {
            last = (cpu, Instant::now());
        }
        // hang guard: a run that spends no CPU at all has stalled
        assert!(
            last.1.elapsed() < Duration::from_secs(300),
            "no CPU spent in five minutes: stalled"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap(); // SIGKILL: no cleanup of any kind
    child.wait().unwrap();
    let before = state_games(&state).len();
    assert!((5..24).contains(&before), "{before} games before the kill");
    // A line cut short by the kill is dropped: simulate one.
    let mut text = std::fs::read(&state).unwrap();
    text.extend_from_slice(b"{\"game\":23,\"fir");
    std::fs::write(&state, text).unwrap();

    let (code, resumed, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("resuming: {before} games")) || err.is_empty(),
        "{err}"
    );
    assert_eq!(timeless(json(&resumed)), whole);
    // Each game once in the file; a third run plays nothing and agrees.
    let games = state_games(&state);
    assert_eq!(games.len(), 24);
    let mut numbers: Vec<u32> = games.iter().map(|g| g.game).collect();
    numbers.sort();
    numbers.dedup();
    assert_eq!(numbers.len(), 24);
    let (_, again, _) = kxo(&args);
    assert_eq!(timeless(json(&again)), whole);

    // Other arguments on the same file are refused, and the file kept.
    let mut other = args.clone();
    other[12] = "12";
    let (code, _, err) = kxo(&other);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("belongs to another run"), "{err}");
    // So is the same run under another rule.
    let mut standard = args.clone();
    standard.extend(["--rule", "standard"]);
    let (code, _, err) = kxo(&standard);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("belongs to another run"), "{err}");
    assert_eq!(state_games(&state).len(), 24);
}

#[test]
fn shards_played_at_once_merge_into_the_report_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let (code, whole, err) = kxo(&FIXED);
    assert_eq!(code, 0, "{err}");
    let whole = timeless(json(&whole));
    // Three shards as background jobs, as GNU parallel or a job array would.
    let paths: Vec<String> = (1..=3)
        .map(|i| {
            dir.path()
                .join(format!("shard{i}.state"))
                .display()
                .to_string()
        })
        .collect();
    let children: Vec<_> = (1..=3)
        .map(|i| {
            let shard = format!("{i}/3");
            let mut args: Vec<&str> = FIXED.to_vec();
            args.extend(["--shard", &shard, "--state", &paths[i - 1], "--jobs", "1"]);
            Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
                .args(&args)
                .env("XDG_DATA_HOME", dir.path())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut shard_games = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report = json(&String::from_utf8_lossy(&out.stdout));
        shard_games += report["games"].as_u64().unwrap();
        assert!(report["games"].as_u64().unwrap() < 24);
    }
    assert_eq!(shard_games, 24);
    let mut merge = vec!["arena", "merge", "--json"];
    merge.extend(paths.iter().map(String::as_str));
    let (code, merged, err) = kxo(&merge);
    assert_eq!(code, 0, "{err}");
    assert_eq!(timeless(json(&merged)), whole);
    // A missing shard is said, and the rest still reported.
    let (code, partial, err) = kxo(&["arena", "merge", "--json", &paths[0], &paths[2]]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("no state file for shard 2/3"), "{err}");
    assert!(json(&partial)["games"].as_u64().unwrap() < 24);
    // State files of different runs do not merge.
    let other = dir.path().join("other.state");
    let mut args: Vec<&str> = FIXED.to_vec();
    args[12] = "99";
    args[10] = "2";
    let other_arg = other.display().to_string();
    args.extend(["--state", &other_arg, "--shard", "2/3"]);
    let (code, _, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = kxo(&["arena", "merge", &paths[0], &other_arg]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another run"), "{err}");
}

#[test]
fn the_sprt_stops_a_clear_match_early_and_says_why() {
    let (code, out, err) = kxo(&words(
        "arena --engine strong=mcts:iterations=2000 --engine weak=random --size 5 --goal 4 --games 2000 --seed 2 --sprt elo0=0,elo1=50",
    ));
    assert_eq!(code, 0, "{err}");
    let line = out.lines().find(|l| l.starts_with("SPRT")).expect(&out);
    assert!(line.contains("H1 accepted"), "{line}");
    assert!(line.contains("(-2.94, 2.94)"), "{line}");
    let games: u32 = out.split_whitespace().next().unwrap().parse().unwrap();
    assert!(games < 400 && games.is_multiple_of(2), "{out}");
    // Against itself it does not find 50 Elo: H0, or still undecided.
    let (_, out, _) = kxo(&words(
        "arena --engine a=random --engine b=random --games 400 --seed 3 --sprt elo0=0,elo1=50 --json",
    ));
    let r = json(&out);
    assert_ne!(r["sprt"]["verdict"], "h1", "{out}");
}

#[test]
fn a_small_round_robin_has_a_consistent_crosstable() {
    let (code, out, err) = kxo(&words(
        "arena --size 3 --engine perfect=negamax --engine uct=mcts:iterations=200 --engine rand=random --games 10 --seed 4 --json",
    ));
    assert_eq!(code, 0, "{err}");
    let r = json(&out);
    assert_eq!(r["games"], 30);
    let table = r["crosstable"].as_array().unwrap();
    for (i, row) in table.iter().enumerate() {
        for (j, entry) in row.as_array().unwrap().iter().enumerate() {
            if i == j {
                assert!(entry.is_null());
                continue;
            }
            let (p, g) = (entry[0].as_f64().unwrap(), entry[1].as_u64().unwrap());
            let q = table[j][i][0].as_f64().unwrap();
            assert_eq!(g, 10);
            assert_eq!(p + q, 10.0);
        }
    }
    // A perfect player never loses on 3x3: at least half the points
    // against each, and first in the ranking or tied for it.
    assert!(table[0][1][0].as_f64().unwrap() >= 5.0);
    assert!(table[0][2][0].as_f64().unwrap() >= 5.0);
    let perfect = r["ranking"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "perfect")
        .unwrap();
    assert_eq!(perfect["losses"], 0);
    assert_eq!(perfect["games"], 20);
    // Each engine's games as O and as X make up its record, and the wins
    // as O over every engine are the first player's wins.
    let (mut o_wins, mut x_wins, mut draws) = (0, 0, 0);
    for s in r["ranking"].as_array().unwrap() {
        let side = |key: &str| -> Vec<u64> {
            s[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect()
        };
        let (o, x) = (side("as_o"), side("as_x"));
        assert_eq!(o[0] + x[0], s["wins"].as_u64().unwrap(), "{s}");
        assert_eq!(o[1] + x[1], s["draws"].as_u64().unwrap(), "{s}");
        assert_eq!(o[2] + x[2], s["losses"].as_u64().unwrap(), "{s}");
        // Paired openings: half its games on each side.
        assert_eq!(o.iter().sum::<u64>(), 10, "{s}");
        (o_wins, x_wins, draws) = (o_wins + o[0], x_wins + x[0], draws + o[1]);
    }
    assert_eq!(o_wins, r["first_wins"].as_u64().unwrap());
    assert_eq!(x_wins, r["second_wins"].as_u64().unwrap());
    assert_eq!(draws, r["draws"].as_u64().unwrap());
    // Text: the crosstable under its heading.
    let (_, text, _) = kxo(&words(
        "arena --size 3 --engine a=negamax --engine b=random --engine c=random --games 2 --format gauntlet --seed 1",
    ));
    assert!(text.contains("crosstable"), "{text}");
    // Each engine's score as O and as X, after the first player's line.
    let sides = text
        .lines()
        .find(|l| l.starts_with("scores as O: "))
        .unwrap_or_else(|| panic!("no scores by side: {text}"));
    assert!(
        ["a ", "b ", "c "].iter().all(|e| sides.contains(e)) && sides.contains("; as X: "),
        "{sides}"
    );
    assert!(
        text.contains("a vs b") && text.contains("a vs c") && !text.contains("b vs c"),
        "{text}"
    );
}

#[test]
fn records_are_written_per_game_and_read_back_as_played() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let state = dir.path().join("s.state");
    let (code, _, err) = kxo(&[
        "arena",
        "--size",
        "15",
        "--goal",
        "5",
        "--engine",
        "m=mcts:iterations=300",
        "--engine",
        "n=negamax:think-ms=5",
        "--games",
        "4",
        "--seed",
        "8",
        "--records",
        records.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let rules = Rules::new(15, 5).unwrap();
    let games = state_games(&state);
    assert_eq!(games.len(), 4);
    for game in &games {
        let stem = records.join(format!("game-{:04}", game.game + 1));
        let sgf = read_sgf(&std::fs::read_to_string(stem.with_extension("sgf")).unwrap()).unwrap();
        let psq = read_psq(&std::fs::read_to_string(stem.with_extension("psq")).unwrap()).unwrap();
        let moves: Vec<Cell> = game.moves.iter().map(|&c| Cell::new(c)).collect();
        assert_eq!(sgf.moves, moves);
        assert_eq!(psq.moves, moves);
        assert_eq!(sgf.names, [game.first.clone(), game.second.clone()]);
        // The moves replay to the result recorded.
        let pos = Position::from_moves(rules, &moves).unwrap();
        let expected = match game.result {
            GameResult::First => Outcome::Win(kxo_engine::Player::O),
            GameResult::Second => Outcome::Win(kxo_engine::Player::X),
            GameResult::Draw => Outcome::Draw,
        };
        assert_eq!(pos.outcome(), expected, "{game:?}");
        assert!(matches!(
            game.end,
            kxo_tui::tournament::End::Line | kxo_tui::tournament::End::Full
        ));
        let re = sgf.result.unwrap();
        assert_eq!(
            re.starts_with('B'),
            game.result == GameResult::First,
            "{re}"
        );
        // A random opening of 2 to 4 stones.
        assert!((2..=4).contains(&game.opening), "{game:?}");
    }
    // A pair: one opening, colours swapped.
    for pair in games.chunks(2) {
        assert_eq!(
            pair[0].moves[..pair[0].opening],
            pair[1].moves[..pair[1].opening]
        );
        assert_eq!(
            (&pair[0].first, &pair[0].second),
            (&pair[1].second, &pair[1].first)
        );
    }
    assert_ne!(
        games[0].moves[..games[0].opening],
        games[2].moves[..games[2].opening]
    );
}

/// The move lists of a Gomoku run's games.
fn gomoku_games(extra: &[&str]) -> Vec<PlayedGame> {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("s.state");
    let mut args = vec![
        "arena",
        "--size",
        "15",
        "--goal",
        "5",
        "--games",
        "36",
        "--seed",
        "3",
        "--state",
        state.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, _, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    state_games(&state)
}

fn all_different(games: &[PlayedGame]) {
    assert_eq!(games.len(), 36);
    let distinct: std::collections::HashSet<&Vec<u16>> = games.iter().map(|g| &g.moves).collect();
    assert_eq!(distinct.len(), 36, "some games repeat move for move");
}

#[test]
fn thirty_six_gomoku_games_are_thirty_six_different_games() {
    // One deterministic engine against itself, each game from its own
    // opening: before openings, all 36 were one game.
    let games = gomoku_games(&[
        "--o",
        "negamax",
        "--x",
        "negamax",
        "--think-ms",
        "3",
        "--no-repeat",
    ]);
    all_different(&games);
    // Paired: two engines, 18 openings each played with colours swapped.
    let games = gomoku_games(&[
        "--engine",
        "m=mcts:iterations=300",
        "--engine",
        "n=negamax:think-ms=3",
    ]);
    all_different(&games);
}

/// A small finished run (3x3, two random engines, four games, and
/// `extra`) whose state file then has `from` replaced by `to` once: the
/// run's arguments and the state file's path.
fn forged_state(dir: &Path, extra: &[&str], from: &str, to: &str) -> (Vec<String>, String) {
    let state = dir.join("run.state").display().to_string();
    let mut args: Vec<String> = [
        "arena", "--size", "3", "--goal", "3", "--o", "random", "--x", "random", "--games", "4",
    ]
    .map(String::from)
    .to_vec();
    args.extend(extra.iter().map(|a| a.to_string()));
    args.extend(["--state".to_string(), state.clone()]);
    let (code, _, err) = kxo(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&state).unwrap();
    let forged = text.replacen(from, to, 1);
    assert_ne!(forged, text, "no {from} in the state file");
    std::fs::write(&state, forged).unwrap();
    (args, state)
}

#[test]
fn a_state_line_at_the_last_game_number_is_named_as_it_is() {
    // Game u32::MAX is the 4,294,967,296th: a resume names it so (it said
    // "game 0", and a debug build panicked) and refuses it.
    let dir = tempfile::tempdir().unwrap();
    let (args, _) = forged_state(dir.path(), &[], "{\"game\":0,", "{\"game\":4294967295,");
    let (code, _, err) = kxo(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("game 4294967296 is not one of this run's"),
        "{err}"
    );
}

#[test]
fn a_forged_shard_count_makes_a_one_line_note() {
    // A shard file that claims to be 1 of 100,000: the merge names the
    // first few missing and counts the rest (it printed 1.39 MB).
    let dir = tempfile::tempdir().unwrap();
    let (_, state) = forged_state(
        dir.path(),
        &["--shard", "1/2"],
        "\"count\":2}",
        "\"count\":100000}",
    );
    let (code, _, err) = kxo(&["arena", "merge", &state]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.len() < 300,
        "{} bytes: {}",
        err.len(),
        &err[..300.min(err.len())]
    );
    assert!(
        err.contains("2/100000, 3/100000") && err.contains("and 99991 more"),
        "{err}"
    );
}

/// Every string of a JSON value, by its path (`settings.engines.0.name`).
fn string_paths(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(_) => out.push(at),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                string_paths(item, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                string_paths(item, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn escapes_in_any_text_of_a_state_file_never_reach_the_terminal() {
    // Each string of the header and of a game line in turn, given a
    // terminal's escapes: resume and merge refuse it or show it escaped,
    // and no raw ESC or BEL comes out.
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("run.state");
    let state_arg = state.to_str().unwrap().to_string();
    let args = [
        "arena", "--size", "3", "--goal", "3", "--engine", "a=random", "--engine", "b=random",
        "--games", "4", "--shard", "1/2", "--state", &state_arg,
    ];
    let (code, _, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&state).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(json).collect();
    let mut tried = 0;
    for (line, value) in lines.iter().enumerate().take(2) {
        let mut paths = Vec::new();
        string_paths(value, String::new(), &mut paths);
        for path in paths {
            let mut forged = lines.clone();
            let field = forged[line].pointer_mut(&path).unwrap();
            let was = field.as_str().unwrap().to_string();
            *field = serde_json::Value::String(format!("{was}\u{1b}]0;owned\u{7}\u{1b}[31m"));
            let body: Vec<String> = forged.iter().map(|v| v.to_string()).collect();
            std::fs::write(&state, body.join("\n") + "\n").unwrap();
            for run in [&args[..], &["arena", "merge", &state_arg][..]] {
                let (_, out, err) = kxo(run);
                let said = format!("{out}{err}");
                assert!(
                    !said.contains('\u{1b}') && !said.contains('\u{7}'),
                    "line {} {path}: {said:?}",
                    line + 1
                );
            }
            tried += 1;
        }
    }
    // The engines' names and programs, the openings, the result, the end
    // and the reason: every one of them was tried.
    assert!(tried >= 10, "{tried} fields");
}

#[test]
fn pgn_gives_every_games_result_for_rating_tools_and_a_resumed_run_all_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let (pgn, state) = (dir.path().join("run.pgn"), dir.path().join("state"));
    let args = [
        "arena",
        "--size",
        "4",
        "--goal",
        "3",
        "--engine",
        "a=random",
        "--engine",
        "b=greedy",
        "--games",
        "6",
        "--seed",
        "5",
        "--json",
        "--pgn",
        pgn.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ];
    let (code, out, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    let report = json(&out);
    let text = std::fs::read_to_string(&pgn).unwrap();
    let tag = |game: &str, name: &str| -> String {
        game.lines()
            .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
            .and_then(|v| v.strip_suffix("\"]"))
            .unwrap_or_else(|| panic!("no {name} in {game}"))
            .to_string()
    };
    let games: Vec<&str> = text.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 6, "{text}");
    let rounds: Vec<String> = games.iter().map(|g| tag(g, "Round")).collect();
    assert_eq!(rounds, ["1", "2", "3", "4", "5", "6"]);
    // Black is the first player: its wins are White's losses, "0-1".
    let results: Vec<String> = games.iter().map(|g| tag(g, "Result")).collect();
    let count = |r: &str| results.iter().filter(|x| *x == r).count() as u64;
    assert_eq!(count("0-1"), report["first_wins"].as_u64().unwrap());
    assert_eq!(count("1-0"), report["second_wins"].as_u64().unwrap());
    assert_eq!(count("1/2-1/2"), report["draws"].as_u64().unwrap());
    // Colours alternate within each pair.
    assert_eq!(tag(games[0], "Black"), tag(games[1], "White"));
    // Removed, it is written again whole by the resumed run from its state.
    std::fs::remove_file(&pgn).unwrap();
    let (code, _, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), text);
}

#[test]
fn shards_run_with_the_sprt_merge_into_the_test_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let run: [&str; 16] = [
        "arena",
        "--engine",
        "strong=mcts:iterations=2000",
        "--engine",
        "weak=random",
        "--size",
        "5",
        "--goal",
        "4",
        "--games",
        "200",
        "--seed",
        "2",
        "--sprt",
        "elo0=0,elo1=50",
        "--json",
    ];
    let (code, whole, err) = kxo(&run);
    assert_eq!(code, 0, "{err}");
    let whole = timeless(json(&whole));
    assert_eq!(whole["sprt"]["verdict"], "h1", "{whole}");
    assert!(whole["games"].as_u64().unwrap() < 200, "{whole}");
    // Each shard plays its slice whole: its own pairs do not stop it.
    let paths: Vec<String> = (1..=2)
        .map(|i| dir.path().join(format!("s{i}")).display().to_string())
        .collect();
    for (i, path) in paths.iter().enumerate() {
        let shard = format!("{}/2", i + 1);
        let mut args = run.to_vec();
        args.extend(["--shard", &shard, "--state", path]);
        let (code, out, err) = kxo(&args);
        assert_eq!(code, 0, "{err}");
        let report = json(&out);
        assert_eq!(report["games"], 100, "{out}");
        assert!(report.get("sprt").is_none(), "{out}");
    }
    // The merge decides: the same LLR, pairs and verdict as the one run,
    // and the games after its decision left out.
    let (code, merged, err) = kxo(&["arena", "merge", "--json", &paths[0], &paths[1]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(timeless(json(&merged)), whole);
}

#[test]
fn arena_with_no_engine_named_swaps_the_default_pair_s_colours() {
    // 4x4 with three in a row is a first player's win: a fixed side would
    // make MCTS look unbeatable. Each engine plays O in half the games.
    let (code, out, err) = common::kxo(&["arena", "--games", "6", "--seed", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("scores as O: mcts 100.0% of 3"), "{out}");
    assert!(out.contains("negamax 100.0% of 3"), "{out}");
    assert!(out.contains("first player (O) wins 6"), "{out}");
}
