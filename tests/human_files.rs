//! A person's games kept and looked at again, in a real pseudo-terminal:
//! play Gomoku, number the stones, save, quit, load the file, review it
//! to its end; other programs' files load; a game clock's flag falls.

mod common;

use std::time::Duration;

use common::{CTRL_Q, Session};
use kxo_tui::tournament::game_file;

const T: Duration = Duration::from_secs(20);
/// The review searches every position: generous on a busy machine.
const REVIEW: Duration = Duration::from_secs(120);

/// The moves of the game on the board, as the Records tab draws them
/// ("Game-1  YOU vs RAND  H8 → F5").
fn record_moves(screen: &str) -> Vec<String> {
    let line = screen
        .lines()
        .find_map(|l| l.split("Game-1  ").nth(1))
        .unwrap_or_default();
    let moves = line
        .split_once(" vs ")
        .and_then(|(_, rest)| rest.split_once("  "));
    let moves = moves
        .map(|(_, m)| m.trim_end_matches(['│', ' ']))
        .unwrap_or_default();
    moves
        .split(" → ")
        .map(|m| m.trim().to_string())
        .filter(|m| !m.is_empty())
        .collect()
}

#[test]
fn a_game_is_played_numbered_saved_loaded_and_reviewed_to_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start_kxo_in(
        dir.path(),
        &["--human", "--gomoku", "--level", "easy", "--no-anim"],
        130,
        50,
    );
    s.wait_for("Your move", T);
    // Down column H: each move, then the computer's answer in the record.
    let mut played = 0;
    for row in 8..=12 {
        let cell = format!("h{row}");
        s.send(format!("{cell}\r").as_bytes());
        let screen = s.wait_until("the move and its answer", T, |sc| {
            let moves = record_moves(sc);
            sc.contains("You win!")
                || sc.contains("already taken")
                || moves
                    .iter()
                    .position(|m| *m == cell.to_uppercase())
                    .is_some_and(|at| moves.len() > at + 1)
        });
        if screen.contains("already taken") {
            break;
        }
        played += 1;
        if screen.contains("You win!") {
            break;
        }
    }
    assert!(played >= 2, "{}", s.screen());
    // Move numbers on the stones: H8 is the first.
    s.send(b"#");
    s.wait_for("│ 1 │", T);
    s.send(b"s");
    s.wait_for("saved to kxo-tui-game-001.sgf and", T);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    let sgf = std::fs::read_to_string(dir.path().join("kxo-tui-game-001.sgf")).unwrap();
    let psq = std::fs::read_to_string(dir.path().join("kxo-tui-game-001.psq")).unwrap();
    let (from_sgf, from_psq) = (
        game_file::parse(&sgf).unwrap(),
        game_file::parse(&psq).unwrap(),
    );
    assert_eq!(from_sgf.moves, from_psq.moves);
    assert_eq!(from_sgf.rules.goal(), 5);
    assert_eq!(from_sgf.names[0], "YOU");
    let total = from_sgf.moves.len();
    assert!(total >= 3, "{sgf}");

    // Loaded again: the same stones, the person to play on.
    let mut s = Session::start_kxo_in(
        dir.path(),
        &["--human", "--load", "kxo-tui-game-001.sgf", "--no-anim"],
        130,
        50,
    );
    let first = from_sgf.rules.cell_name(from_sgf.moves[0]);
    s.wait_for(&format!("{first} → "), T);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);

    // Reviewed: a value for every position, the drops marked.
    let mut s = Session::start_kxo_in(
        dir.path(),
        &["review", "kxo-tui-game-001.sgf", "--no-anim"],
        130,
        50,
    );
    s.wait_for(&format!("Review position {total} of {total}"), T);
    s.wait_until("every position's value", REVIEW, |sc| {
        sc.contains("largest drops:") && !sc.contains("reading the positions")
    });
    s.send(b"#");
    // From the start to the end, a position at a time: each has its value.
    s.send(b"\x1b[A");
    s.wait_for("Review position 0 of", T);
    for at in 1..=total {
        s.send(b"\x1b[C");
        let screen = s.wait_for(&format!("Review position {at} of {total}"), T);
        assert!(screen.contains("value "), "{screen}");
        assert!(!screen.contains("thinking…"), "{screen}");
    }
    let screen = s.screen();
    // The easy level plays at random: some of its moves lost much.
    assert!(
        screen
            .lines()
            .any(|l| l.contains("largest drops: ") && l.contains(". ")),
        "{screen}"
    );
    assert!(screen.contains('!'), "{screen}");
    s.send(b"\x1b");
    s.wait_until("back to the game", T, |sc| !sc.contains("Review position"));
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn other_programs_files_load_and_a_bad_one_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    // piskvork's psq (20x20, its closing code), and an SGF written by
    // hand from the format's definition: a variation, escapes.
    let psq = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,320\n10,11,15\nbrainA\nbrainB\n0\n";
    let sgf =
        "(;FF[4]GM[4]SZ[15]PB[Alice]PW[Bob]C[a \\] note]\n;B[hh];W[ii]\n(;B[hi];W[gg])(;B[aa]))";
    std::fs::write(dir.path().join("p.psq"), psq).unwrap();
    std::fs::write(dir.path().join("hand.sgf"), sgf).unwrap();
    std::fs::write(dir.path().join("bad.sgf"), "(;GM[4]SZ[15];B[hh];W[hh])").unwrap();
    // Rows from the bottom, as Gomoku writes them: psq's y and SGF's
    // second letter count from the top.
    for (file, record) in [
        ("p.psq", "J11 → K10 → J10"),
        ("hand.sgf", "H8 → I7 → H7 → G9"),
    ] {
        let mut s = Session::start_kxo_in(dir.path(), &["--human", "x", "--load", file], 130, 50);
        s.wait_for(record, T);
        s.send(CTRL_Q);
        assert_eq!(s.wait_exit(T), 0, "{file}");
    }
    let (code, _, err) = common::kxo_with(
        &[
            "--human",
            "--load",
            &dir.path().join("bad.sgf").display().to_string(),
        ],
        &[],
    );
    assert_eq!(code, 2);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("move 2 (H8) cannot be played"), "{err}");
}

#[test]
fn a_person_who_waits_loses_on_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = Session::start_kxo_in(
        dir.path(),
        &["--human", "--gomoku", "--tc", "5+0", "--no-anim"],
        130,
        50,
    );
    s.wait_for("Clock you 0:0", T);
    // No key: the flag falls by itself.
    s.wait_for("you lost on time", Duration::from_secs(60));
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}
