//! Go in a real pseudo-terminal: whole games on the live screen and in
//! human mode, each ending in a count (the person's after marking the
//! dead stones), at 80x24 and 200x60, and the
//! terminal given back.

mod common;

use std::time::Duration;

use common::{CTRL_Q, Session};

const T: Duration = Duration::from_secs(30);

/// Whether `screen` shows a Go result: a count ("B+3.5", "W+7.5") or a
/// resignation ("B+R").
fn shows_a_result(screen: &str) -> bool {
    screen.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '+' && c != '.');
        (w.starts_with("B+") || w.starts_with("W+")) && w.len() > 2
    })
}

/// Quits with Ctrl-Q; the terminal is the shell's again.
fn quit(mut s: Session) {
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen(), "still on the alternate screen");
    assert!(!s.cursor_hidden(), "cursor still hidden");
}

#[test]
fn live_go_games_end_in_a_count_at_80x24_and_200x60() {
    for (cols, rows, size) in [(80, 24, "5"), (200, 60, "9")] {
        let s = Session::start(
            &[
                "--go",
                size,
                "--games",
                "2",
                "--think-ms",
                "20",
                "--delay",
                "0",
                "--seed",
                "3",
            ],
            cols,
            rows,
            &[],
        );
        let screen = s.wait_for("Go, komi 7.5", T);
        assert!(
            screen.contains("┌───"),
            "{cols}x{rows}: the grid:\n{screen}"
        );
        assert!(
            screen.contains('●') || screen.contains('○') || screen.contains("A   B"),
            "{cols}x{rows}:\n{screen}"
        );
        let screen = s.wait_until("a game's result", T * 4, shows_a_result);
        assert!(screen.contains(" → "), "the Records tab: {screen}");
        quit(s);
    }
}

#[test]
fn a_human_go_game_passes_and_ends_in_a_count() {
    let mut s = Session::start(
        &["--human", "--go", "5", "--think-ms", "50", "--seed", "1"],
        80,
        24,
        &[],
    );
    let screen = s.wait_for("Your move", T);
    assert!(screen.contains("You play Black"), "{screen}");
    // A stone by typing its point: C3 is the centre of 5x5.
    s.send(b"c3\r");
    s.wait_until("the computer's answer", T, |sc| {
        sc.contains("Your move") && sc.contains("C3 →")
    });
    // p asks, a second p passes; the computer passes when that wins
    // (else it plays, and the person passes again), and the game goes to
    // the marking of dead stones.
    for _ in 0..20 {
        s.send(b"p");
        s.wait_for("press p again", T);
        s.send(b"p");
        let screen = s.wait_until("an answer to the pass", T, |sc| {
            sc.contains("Your move") && !sc.contains("press p again")
                || sc.contains("Mark the dead stones")
        });
        if screen.contains("Mark the dead stones") {
            break;
        }
    }
    // Not counted yet; a typed point changes a chain's mark.
    let screen = s.wait_for("Mark the dead stones", T);
    assert!(!screen.contains("wins"), "{screen}");
    s.send(b"c3\r");
    s.wait_until("the mark changed", T, |sc| {
        sc.contains(" dead: the count")
            || sc.contains(" alive: the count")
            || sc.contains("no stone")
    });
    // p accepts the count.
    s.send(b"p");
    let screen = s.wait_until("the count", T, |sc| {
        sc.contains("wins") && shows_a_result(sc)
    });
    assert!(screen.contains("pass → pass"), "{screen}");
    quit(s);
}
