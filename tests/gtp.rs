//! GTP seats end to end, with no Go program installed: `arena` seats the
//! test engine `tests/brains/gtp.sh` (it plays the moves it is given, then
//! passes, and names the dead stones it is given in a multi-line answer,
//! as GNU Go's `final_status_list` does) and the game's record shows how
//! the game was settled.

mod common;

use std::path::Path;
use std::process::Command;

const MOCK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/brains/gtp.sh");

/// Plays one 5x5 game, komi 0.5, between two test engines and returns the
/// record's text.
fn one_game(black: (&str, &str), white: (&str, &str)) -> String {
    one_game_counted(black, white, "").0
}

/// The same, White's engine giving `count` as its own `final_score`; the
/// record, and what White's engine was told and said.
fn one_game_counted(black: (&str, &str), white: (&str, &str), count: &str) -> (String, String) {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let seat = |name: &str, (moves, dead): (&str, &str)| {
        let count = if name == "w" { count } else { "" };
        format!("{name}=gtp:{MOCK} '{moves}' '{dead}' '{count}'")
    };
    let (b, w) = (seat("b", black), seat("w", white));
    let (records_arg, logs) = (records.display().to_string(), dir.path().join("logs"));
    let logs_arg = logs.display().to_string();
    common::kxo_ok_in(
        dir.path(),
        &[
            "arena",
            "--go",
            "5",
            "--komi",
            "0.5",
            "--games",
            "1",
            "--no-repeat",
            "--engine",
            &b,
            "--engine",
            &w,
            "--records",
            &records_arg,
            "--log",
            &logs_arg,
        ],
    );
    let read = |path: std::path::PathBuf| std::fs::read_to_string(path).unwrap();
    (
        read(Path::new(&records).join("game-0001.sgf")),
        read(dir.path().join("logs").join("game-0001-X.log")),
    )
}

#[test]
fn stones_both_engines_name_dead_come_off_before_the_count() {
    // Black's one stone, named dead by both: an empty board, White by komi.
    let sgf = one_game(("C3", "C3"), ("", "C3"));
    assert!(sgf.contains("RE[W+0.5]"), "{sgf}");
    assert!(sgf.contains("dead by agreement: C3"), "{sgf}");
    assert!(sgf.contains(";B[cc]") && sgf.contains(";W[]"), "{sgf}");
}

#[test]
fn each_engines_own_count_goes_into_the_record_beside_kxo_tuis() {
    // White's engine counts the game otherwise (as after a seki it sees):
    // the record keeps both, so a difference shows.
    let (sgf, white_log) = one_game_counted(("C3", "C3"), ("", "C3"), "W+3.5");
    assert!(sgf.contains("RE[W+0.5]"), "{sgf}");
    // Asked about the game as it ended: Black's last pass told first.
    let told = |what: &str| white_log.find(what).unwrap_or(usize::MAX);
    assert!(
        told("> play black pass") < told("> final_status_list dead"),
        "{white_log}"
    );
    assert!(sgf.contains("; w counts W+3.5"), "{sgf}");
    assert!(
        !sgf.contains("b counts"),
        "an engine that gives no count: {sgf}"
    );
}

#[test]
fn engines_that_disagree_play_a_clean_up_and_the_stones_as_they_stand_count() {
    // Black holds its stone alive, White names it dead: play goes on, both
    // pass again, and the stone counts: the whole board, 25 - 0.5.
    let sgf = one_game(("C3", ""), ("", "C3"));
    assert!(sgf.contains("RE[B+24.5]"), "{sgf}");
    assert!(sgf.contains("after a clean-up"), "{sgf}");
    assert_eq!(
        sgf.matches("[]").count(),
        4,
        "two passes, then two more: {sgf}"
    );
}

#[test]
fn a_gtp_engine_that_plays_on_an_occupied_point_forfeits() {
    // Black plays C3; White answers C3 too: an illegal move loses the game.
    let sgf = one_game(("C3", ""), ("C3", ""));
    assert!(
        sgf.contains("RE[B+F]") || sgf.contains("RE[B+Forfeit]"),
        "{sgf}"
    );
}

// `kxo-tui gtp`: kxo-tui as a GTP engine.

/// Feeds `input` to `kxo-tui gtp ARGS` and returns its answers, each
/// without the empty line that ends it.
fn gtp_session(args: &[&str], input: &[u8]) -> Vec<String> {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
        .arg("gtp")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("\n\n"),
        "every answer ends with an empty line: {text:?}"
    );
    text.trim_end_matches('\n')
        .split("\n\n")
        .map(str::to_string)
        .collect()
}

/// `kxo-tui gtp`'s answers to `transcript`, found by their ids.
struct Answers(Vec<String>);

impl Answers {
    fn of(transcript: &str) -> Answers {
        Answers(gtp_session(
            &["--think-ms", "30", "--seed", "5"],
            transcript.as_bytes(),
        ))
    }

    /// The answer numbered `id`.
    fn get(&self, id: &str) -> &str {
        self.0
            .iter()
            .find(|a| {
                a.strip_prefix(['=', '?'])
                    .is_some_and(|rest| rest.split([' ', '\n']).next() == Some(id))
            })
            .unwrap_or_else(|| panic!("no answer {id}: {:?}", self.0))
    }
}

#[test]
fn kxo_tui_gtp_answers_the_protocols_commands_and_refuses_what_is_wrong() {
    let answers = Answers::of(
        "protocol_version\n\
         1 name\n\
         2 version\n\
         3 known_command genmove\n\
         4 known_command frobnicate\n\
         5 list_commands\n\
         6 boardsize 9\n\
         7 clear_board\n\
         8 komi 6.5\n\
         9 play black E5\n\
         10 play black E5\n\
         11 play white Z9\n\
         12 genmove white\n\
         13 undo\n\
         14 undo\n\
         15 undo\n\
         34 boardsize 42\n\
         35 genmove purple\n\
         36 frobnicate\n\
         44 time_left white nan 0\n\
         45 time_left black inf 0\n\
         46 time_left white -5 0\n\
         47 komi nan\n\
         48 komi 1e400\n\
         49 time_settings 18446744073709551615 18446744073709551615 4294967296\n\
         50 boardsize 256\n\
         51 fixed_handicap 300\n\
         \n\
         # a comment, then a command with a comment and a tab\n\
         37\tname # who\n\
         38 quit\n\
         name\n",
    );
    let answer = |id| answers.get(id);
    assert_eq!(answers.0[0], "= 2");
    assert_eq!(answer("1"), "=1 kxo-tui");
    assert!(
        answer("2").starts_with("=2 ") && answer("2").contains("mcts"),
        "{:?}",
        answers.0
    );
    assert_eq!(answer("3"), "=3 true");
    assert_eq!(answer("4"), "=4 false");
    for command in [
        "final_status_list",
        "kgs-genmove_cleanup",
        "loadsgf",
        "time_left",
    ] {
        assert!(
            answer("5").lines().any(|l| l.ends_with(command)),
            "{command}"
        );
    }
    assert_eq!(answer("9"), "=9");
    assert_eq!(answer("10"), "?10 illegal move", "E5 is taken");
    assert!(answer("11").starts_with("?11 "), "off the board");
    // White's answer to E5: a point, not E5.
    let reply = answer("12").trim_start_matches("=12 ");
    assert!(reply != "E5" && reply.len() >= 2, "{reply}");
    assert_eq!((answer("13"), answer("14")), ("=13", "=14"));
    assert_eq!(answer("15"), "?15 cannot undo");
    assert_eq!(answer("34"), "?34 unacceptable size");
    assert!(
        answer("35").starts_with("?35 syntax error"),
        "{}",
        answer("35")
    );
    assert_eq!(answer("36"), "?36 unknown command 'frobnicate'");
    assert_eq!(answer("37"), "=37 kxo-tui");
    // Numbers at and past their type's limits: refused, or taken as the
    // most there is; never the end of the engine.
    for id in ["44", "45", "47", "48", "50", "51"] {
        assert!(answer(id).starts_with(&format!("?{id} ")), "{}", answer(id));
    }
    assert_eq!((answer("46"), answer("49")), ("=46", "=49"));
    // quit is answered, and nothing after it is.
    assert_eq!(answers.0.last().map(String::as_str), Some("=38"));
}

#[test]
fn kxo_tui_gtp_places_handicaps_keeps_time_scores_and_loads_records() {
    let dir = tempfile::tempdir().unwrap();
    let sgf = dir.path().join("game.sgf");
    // A 9x9 record: two set-up stones, three moves (the third a pass).
    std::fs::write(
        &sgf,
        "(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg];W[ee];B[ce](;W[]);W[aa])",
    )
    .unwrap();
    // A record with a point off its board.
    let bad = dir.path().join("bad.sgf");
    std::fs::write(&bad, "(;SZ[9];B[zz])").unwrap();
    // One with a move on a taken point: refused whole.
    let taken = dir.path().join("taken.sgf");
    std::fs::write(&taken, "(;SZ[9];B[aa];W[aa])").unwrap();
    let answers = Answers::of(&format!(
        "6 boardsize 9\n\
         16 fixed_handicap 2\n\
         17 showboard\n\
         18 clear_board\n\
         19 place_free_handicap 4\n\
         20 clear_board\n\
         21 set_free_handicap C3 G7\n\
         22 set_free_handicap A1\n\
         23 time_settings 0 1 1\n\
         24 time_left white 1 1\n\
         25 genmove white\n\
         26 final_score\n\
         27 final_status_list dead\n\
         28 final_status_list seki\n\
         29 kgs-genmove_cleanup black\n\
         30 loadsgf {path}\n\
         31 showboard\n\
         32 loadsgf {path} 2\n\
         33 loadsgf /nonexistent/x.sgf\n\
         39 loadsgf /dev/zero\n\
         40 loadsgf {bad}\n\
         43 showboard\n\
         41 loadsgf {taken}\n\
         42 showboard\n\
         38 quit\n",
        path = sgf.display(),
        bad = bad.display(),
        taken = taken.display()
    ));
    let answer = |id| answers.get(id);
    assert_eq!(
        answer("16"),
        "=16 C3 G7",
        "as the GTP specification orders them"
    );
    let board = answer("17");
    assert!(board.contains(" 7 . . . . . . X . . 7"), "{board}");
    assert!(board.contains(" 3 . . X . . . . . . 3"), "{board}");
    assert_eq!(answer("19"), "=19 C3 G7 G3 C7");
    assert_eq!(answer("21"), "=21");
    assert_eq!(answer("22"), "?22 board not empty");
    assert!(answer("25").starts_with("=25 "), "{}", answer("25"));
    let score = answer("26").trim_start_matches("=26 ");
    assert!(
        score.starts_with("B+") || score.starts_with("W+") || score == "0",
        "{score}"
    );
    assert!(answer("27").starts_with("=27"), "{}", answer("27"));
    assert_eq!(answer("28"), "=28");
    assert!(answer("29").starts_with("=29 "), "{}", answer("29"));
    // The record's main line: set-up stones, then W E5, B C5, W pass;
    // the variation's W A1 is not read. White passed last: Black moves.
    assert_eq!(answer("30"), "=30 black");
    let board = answer("31");
    assert!(board.contains(" 7 . . X . . . . . . 7"), "{board}");
    assert!(board.contains(" 5 . . X . O . . . . 5"), "{board}");
    assert!(board.contains(" 1 . . . . . . . . . 1"), "{board}");
    assert!(board.contains("komi 6.5"), "{board}");
    // Before move 2: only White's E5 played.
    assert_eq!(answer("32"), "=32 black");
    assert!(
        answer("33").starts_with("?33 cannot load file"),
        "{}",
        answer("33")
    );
    // A device is refused by the file gate at once, a bad record by name;
    // the board is left as it was.
    assert!(
        answer("39").starts_with("?39 cannot load file"),
        "{}",
        answer("39")
    );
    assert!(
        answer("40").contains("'zz' is not a point"),
        "{}",
        answer("40")
    );
    assert_eq!(answer("41"), "?41 cannot load file: illegal move");
    assert_eq!(
        answer("42"),
        answer("43").replacen("=43", "=42", 1),
        "the board as it was"
    );
}

#[test]
fn a_whole_game_of_kxo_tui_gtp_against_kxo_tui_gtp_through_the_arena() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let engine = |name: &str, seed: &str| {
        format!(
            "{name}=gtp:{} gtp --think-ms 20 --seed {seed}",
            env!("CARGO_BIN_EXE_kxo-tui")
        )
    };
    let (a, b) = (engine("a", "1"), engine("b", "2"));
    let logs = dir.path().join("logs").display().to_string();
    let records_arg = records.display().to_string();
    let stdout = common::kxo_ok_in(
        dir.path(),
        &[
            "arena",
            "--go",
            "9",
            "--games",
            "2",
            "--json",
            "--log",
            &logs,
            "--engine",
            &a,
            "--engine",
            &b,
            "--records",
            &records_arg,
        ],
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["games"], 2, "{stdout}");
    assert!(
        report.get("forfeits").is_none(),
        "no protocol error: {stdout}"
    );
    for game in 1..=2 {
        let sgf = std::fs::read_to_string(Path::new(&records).join(format!("game-{game:04}.sgf")))
            .unwrap();
        // Ended on the board: by the count after passes, or resignation.
        let re = sgf.split("RE[").nth(1).and_then(|r| r.split(']').next());
        assert!(
            re.is_some_and(|r| r.ends_with("+R") || r.contains('.')),
            "{sgf}"
        );
        assert!(
            sgf.matches(";B[").count() + sgf.matches(";W[").count() > 20,
            "{sgf}"
        );
    }
    // Both engines' logs: no answer of theirs was a refusal.
    for entry in std::fs::read_dir(dir.path().join("logs")).unwrap() {
        let log = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!log.lines().any(|l| l.contains("< ?")), "{log}");
    }
}
