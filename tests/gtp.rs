//! GTP seats end to end, with no Go program installed: `arena` seats the
//! test engine `tests/brains/gtp.sh` (it plays the moves it is given, then
//! passes, and names the dead stones it is given in a multi-line answer,
//! as GNU Go's `final_status_list` does) and the game's record shows how
//! the game was settled.

use std::path::Path;
use std::process::Command;

const MOCK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/brains/gtp.sh");

/// Plays one 5x5 game, komi 0.5, between two test engines and returns the
/// record's text.
fn one_game(black: (&str, &str), white: (&str, &str)) -> String {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let seat =
        |name: &str, (moves, dead): (&str, &str)| format!("{name}=gtp:{MOCK} '{moves}' '{dead}'");
    let out = Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
        .args([
            "arena",
            "--go",
            "5",
            "--komi",
            "0.5",
            "--games",
            "1",
            "--no-repeat",
        ])
        .args(["--engine", &seat("b", black), "--engine", &seat("w", white)])
        .arg("--records")
        .arg(&records)
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(Path::new(&records).join("game-0001.sgf")).unwrap()
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
