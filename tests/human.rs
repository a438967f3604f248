//! Human mode, played through a real pseudo-terminal by keys, typed
//! coordinates and mouse clicks.

mod common;

use std::time::Duration;

use common::{CTRL_Q, Session};
use kxo_engine::Negamax;
use kxo_engine::{Cell, Player, Position, Rules};
use ratatui::layout::Rect;

const T: Duration = Duration::from_secs(10);
const COLS: u16 = 100;
const ROWS: u16 = 40;

/// The board as drawn: `(marks by cell index, cursor)`.
fn read_board(screen: &str, n: usize) -> (Vec<Option<Player>>, Option<usize>) {
    let mut cells = vec![None; n * n];
    let mut cursor = None;
    for line in screen.lines() {
        // A board row inside the box: "│1 │   O   │  [ ]  │ ..." (row
        // numbers of two digits on boards above 9x9: "│12│ O │").
        let Some(rest) = line.strip_prefix('│') else {
            continue;
        };
        let Some((label, cells_text)) = rest.split_once('│') else {
            continue;
        };
        let Ok(row) = label.trim().parse::<usize>() else {
            continue;
        };
        if label.len() > 3 || row == 0 || row > n {
            continue;
        }
        // Gomoku boards (above 8x8) count their rows from the bottom.
        let row = if n > 8 { n - row } else { row - 1 };
        for (col, text) in cells_text.split('│').take(n).enumerate() {
            let i = row * n + col;
            if text.contains('[') {
                cursor = Some(i);
            }
            cells[i] = match text.trim().trim_matches(['[', ']']).trim() {
                "O" => Some(Player::O),
                "X" => Some(Player::X),
                _ => None,
            };
        }
    }
    (cells, cursor)
}

fn position(cells: &[Option<Player>], rules: Rules) -> Position {
    // Rebuild by playing O's and X's marks alternately (order does not
    // matter for the value; no line is complete mid-game).
    let os: Vec<u16> = (0..cells.len())
        .filter(|&i| cells[i] == Some(Player::O))
        .map(|i| i as u16)
        .collect();
    let xs: Vec<u16> = (0..cells.len())
        .filter(|&i| cells[i] == Some(Player::X))
        .map(|i| i as u16)
        .collect();
    let mut pos = Position::new(rules);
    for i in 0..os.len().max(xs.len()) {
        for side in [&os, &xs] {
            if let Some(&c) = side.get(i) {
                pos.play(Cell::new(c)).expect("a legal position on screen");
            }
        }
    }
    pos
}

fn start(extra: &[&str]) -> Session {
    let mut args = vec!["--human", "--ai", "negamax", "--delay", "50"];
    args.extend_from_slice(extra);
    let s = Session::start(&args, COLS, ROWS, &[]);
    s.wait_for("Your move", T);
    s
}

/// How the person enters a move.
#[derive(Clone, Copy, Debug)]
enum Input {
    Keys,
    Typed,
    Mouse,
}

fn play_move(s: &mut Session, cell: usize, cursor: usize, how: Input) {
    play_move_on(s, 4, (COLS, ROWS), cell, cursor, how);
}

fn play_move_on(
    s: &mut Session,
    n: usize,
    (cols, rows): (u16, u16),
    cell: usize,
    cursor: usize,
    how: Input,
) {
    match how {
        Input::Keys => {
            let (r0, c0, r1, c1) = (cursor / n, cursor % n, cell / n, cell % n);
            let mut keys = Vec::new();
            for _ in c1..c0 {
                keys.extend_from_slice(b"\x1b[D"); // left arrow
            }
            for _ in c0..c1 {
                keys.extend_from_slice(b"l");
            }
            for _ in r1..r0 {
                keys.extend_from_slice(b"k");
            }
            for _ in r0..r1 {
                keys.extend_from_slice(b"\x1b[B"); // down arrow
            }
            s.send(&keys);
            // Wait for the cursor's brackets on the target cell.
            let area = Rect::new(0, 0, cols, rows);
            let r = kxo_tui::ui::human::cell_rect(area, n as u8, Cell::new(cell as u16))
                .expect("cell on screen");
            s.wait_until("the cursor on its cell", T, |sc| {
                sc.lines()
                    .nth((r.y + r.height / 2) as usize)
                    .map(|l| {
                        l.chars()
                            .skip(r.x as usize)
                            .take(r.width as usize)
                            .collect::<String>()
                    })
                    .is_some_and(|text| text.contains('['))
            });
            s.send(if cell.is_multiple_of(2) { b"\r" } else { b" " });
        }
        Input::Typed => {
            // As the board names it: rows from the bottom above 8x8.
            let rules = Rules::new(n as u8, 3.min(n as u8)).expect("a board");
            let name = rules.cell_name(Cell::new(cell as u16)).to_lowercase();
            s.send(name.as_bytes());
            s.send(b"\r");
        }
        Input::Mouse => {
            let area = Rect::new(0, 0, cols, rows);
            let r = kxo_tui::ui::human::cell_rect(area, n as u8, Cell::new(cell as u16))
                .expect("cell on screen");
            let (x, y) = (r.x + r.width / 2 + 1, r.y + r.height / 2 + 1);
            s.send(format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m").as_bytes());
        }
    }
}

/// Plays a whole game as O with perfect moves; returns the final screen.
fn play_whole_game(s: &mut Session, how: Input) -> String {
    let rules = Rules::default_rules();
    let mut solver = Negamax::new(rules);
    for _ in 0..10 {
        let screen = s.wait_until("my move or the end", T, |sc| {
            sc.contains("Your move") || sc.contains("You win!")
        });
        if screen.contains("You win!") {
            return screen;
        }
        let (cells, cursor) = read_board(&screen, 4);
        let pos = position(&cells, rules);
        let best = solver.solve(&pos).best.index();
        let before = cells.iter().filter(|c| c.is_some()).count();
        play_move(s, best, cursor.expect("cursor on screen"), how);
        // Wait for my mark, then for the computer's answer or the end.
        s.wait_until("my mark", T, |sc| {
            read_board(sc, 4).0[best] == Some(Player::O)
        });
        s.wait_until("the answer", T, |sc| {
            sc.contains("You win!")
                || read_board(sc, 4).0.iter().filter(|c| c.is_some()).count() >= before + 2
        });
    }
    panic!("no result after 10 moves:\n{}", s.screen());
}

fn check_win_and_quit(mut s: Session, screen: &str) {
    assert!(screen.contains("You win!"), "{screen}");
    assert!(screen.contains("you 1  computer 0  draws 0"), "{screen}");
    assert!(
        screen.contains("you won"),
        "the Records tab lists the game:\n{screen}"
    );
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen());
}

#[test]
fn a_whole_game_by_cursor_keys() {
    let mut s = start(&[]);
    let screen = play_whole_game(&mut s, Input::Keys);
    check_win_and_quit(s, &screen);
}

#[test]
fn a_whole_game_by_typed_coordinates() {
    let mut s = start(&[]);
    let screen = play_whole_game(&mut s, Input::Typed);
    check_win_and_quit(s, &screen);
}

#[test]
fn a_whole_game_by_mouse_clicks() {
    let mut s = start(&[]);
    let screen = play_whole_game(&mut s, Input::Mouse);
    check_win_and_quit(s, &screen);
}

#[test]
fn following_the_hint_beats_the_perfect_level() {
    let mut s = Session::start(
        &["--human", "--level", "perfect", "--delay", "50"],
        COLS,
        ROWS,
        &[],
    );
    for _ in 0..10 {
        let screen = s.wait_until("my move or the end", T, |sc| {
            sc.contains("Your move") || sc.contains("You win!")
        });
        if screen.contains("You win!") {
            assert!(screen.contains("you 1  computer 0"), "{screen}");
            // N starts a new game with the sides swapped.
            s.send(b"n");
            s.wait_for("You play X", T);
            s.send(CTRL_Q);
            assert_eq!(s.wait_exit(T), 0);
            return;
        }
        let before = read_board(&screen, 4).0;
        s.send(b"t");
        // The hint searches in its own coroutine: wait for its answer, not
        // for the "thinking…" line drawn while it searches.
        let screen = s.wait_until("the hint", T, |sc| {
            sc.contains("hint: ") && !sc.contains("hint: thinking")
        });
        let hint = screen
            .split("hint: ")
            .nth(1)
            .and_then(|rest| rest.get(..2))
            .expect("a hinted cell");
        assert!(
            screen.contains("you win in"),
            "O wins with perfect play: {screen}"
        );
        s.send(hint.to_lowercase().as_bytes());
        s.send(b"\r");
        let cell = Cell::parse(hint, 4).expect("hint names a cell").index();
        s.wait_until("my mark", T, |sc| {
            read_board(sc, 4).0[cell] == Some(Player::O)
        });
        s.wait_until("the answer", T, |sc| {
            sc.contains("You win!")
                || read_board(sc, 4).0.iter().flatten().count()
                    >= before.iter().flatten().count() + 2
        });
    }
    panic!("the hints did not win:\n{}", s.screen());
}

#[test]
fn bad_moves_show_a_message_and_change_no_cell() {
    let mut s = start(&[]);
    // My first move, then the computer's answer.
    s.send(b"b2\r");
    let screen = s.wait_until("the answer", T, |sc| {
        read_board(sc, 4).0.iter().flatten().count() == 2
    });
    let (board, _) = read_board(&screen, 4);
    let taken = (0..16)
        .find(|&i| board[i] == Some(Player::X))
        .expect("the computer's mark");
    // An occupied cell, by typing and by the cursor.
    s.send(format!("{}\r", Cell::new(taken as u16).name(4).to_lowercase()).as_bytes());
    let screen = s.wait_for("is already taken", T);
    assert_eq!(read_board(&screen, 4).0, board);
    // Off the board.
    s.send(b"z9\r");
    let screen = s.wait_for("off the board", T);
    assert_eq!(read_board(&screen, 4).0, board);
    // A digit before a letter.
    s.send(b"3");
    s.wait_for("column letter first", T);
    assert_eq!(read_board(&s.screen(), 4).0, board);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn undo_takes_back_my_move_and_the_answer() {
    let mut s = start(&[]);
    s.send(b"b2\r");
    let after_first = s.wait_until("the answer", T, |sc| {
        read_board(sc, 4).0.iter().flatten().count() == 2
    });
    let before = read_board(&after_first, 4).0;
    s.send(b"a4\r");
    s.wait_until("the second answer", T, |sc| {
        read_board(sc, 4).0.iter().flatten().count() >= 4 || sc.contains("win")
    });
    s.send(b"u");
    let screen = s.wait_for("took back", T);
    assert_eq!(read_board(&screen, 4).0, before, "{screen}");
    // A move in the middle of a game, then Ctrl-Q: a clean exit.
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen());
    assert!(!s.cursor_hidden());
}

#[test]
fn human_flags_are_checked() {
    for args in [
        &["--human", "y"][..],
        &["--level", "perfect"],
        &["--human", "--level", "godlike"],
        &["--human", "--level", "easy", "--ai", "mcts"],
        &["--human", "--ai", "chess"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
            .args(args)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn while_the_computer_thinks_the_person_can_pause_get_help_and_quit() {
    // The person plays X; O (MCTS, 3 s a move) thinks first.
    let mut s = Session::start(
        &["--human", "x", "--ai", "mcts", "--think-ms", "3000"],
        COLS,
        ROWS,
        &[],
    );
    s.wait_for("thinking", T);
    s.send(b"b2\r");
    let screen = s.wait_for("the computer is thinking", T);
    assert_eq!(
        read_board(&screen, 4).0.iter().flatten().count(),
        0,
        "{screen}"
    );
    s.send(b"?");
    s.wait_for("place your mark at the cursor", T);
    s.send(b"?");
    s.send(common::CTRL_P);
    s.wait_for("PAUSED", T);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen());
}

#[test]
fn a_key_pressed_during_the_hint_shows_at_once() {
    // 15x15, five in a row: the hint searches for 2 s of CPU time.
    let mut s = Session::start(
        &["--human", "--ai", "random", "--size", "15", "--goal", "5"],
        COLS,
        ROWS,
        &[],
    );
    s.wait_for("Your move", T);
    // A stone each first: on the empty board the hint is the centre at once.
    s.send(b"h8\r");
    s.wait_until("the computer's answer", T, |sc| {
        sc.contains("Your move") && sc.contains("H8 →")
    });
    let pid = s.pid().expect("the program's pid");
    // Each time a hint searches, a key shows and cancels it long before
    // the search could have run out: kxo-tui spends under half the hint's
    // CPU from the hint's key to the letter on screen. CPU, not the wall
    // clock: a busy machine delays both, but a key that waited for the
    // search would cost the search's whole budget.
    for _ in 0..3 {
        let before = common::cpu_of(pid);
        s.send(b"t");
        s.wait_for("hint: thinking", T);
        s.send(b"b");
        s.wait_until("the typed letter", T, |sc| sc.contains("typing: B_"));
        let spent = common::cpu_of(pid).saturating_sub(before);
        assert!(spent < Duration::from_secs(1), "{spent:?} of CPU");
        // The key cancelled the hint.
        let screen = s.screen();
        assert!(!screen.contains("hint: thinking"), "{screen}");
        s.send(b"\x1b");
        s.wait_until("the typed cell dropped", T, |sc| !sc.contains("typing:"));
    }
    // A hint left alone is answered, after its whole budget: the bound
    // above is one a key held behind the search would break.
    let before = common::cpu_of(pid);
    s.send(b"t");
    s.wait_until("the hint", Duration::from_secs(60), |sc| {
        sc.contains("hint: ") && !sc.contains("hint: thinking")
    });
    let spent = common::cpu_of(pid).saturating_sub(before);
    assert!(spent >= Duration::from_millis(1500), "{spent:?} of CPU");
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

/// Gomoku on 15x15 as O against the random engine: the moves are chosen by
/// the big-board Negamax and entered as `how` says, to the end of the game.
fn play_gomoku(how: Input) {
    const SCREEN: (u16, u16) = (120, 50);
    let rules = Rules::new(15, 5).unwrap();
    let args = [
        "--human", "o", "--ai", "random", "--size", "15", "--goal", "5", "--delay", "50",
    ];
    let mut s = Session::start(&args, SCREEN.0, SCREEN.1, &[]);
    let mut engine = kxo_engine::gomoku::BigNegamax::new(rules);
    for _ in 0..60 {
        let screen = s.wait_until("my move or the end", T, |sc| {
            sc.contains("Your move") || sc.contains("You win!")
        });
        if screen.contains("You win!") {
            // (The Records tab's line of a long game wraps below the
            // panel's fold: only the score is checked here.)
            assert!(screen.contains("you 1  computer 0  draws 0"), "{screen}");
            s.send(CTRL_Q);
            assert_eq!(s.wait_exit(T), 0);
            assert!(!s.alternate_screen());
            return;
        }
        let (cells, cursor) = read_board(&screen, 15);
        let pos = position(&cells, rules);
        let best = engine
            .analyse(&pos, &mut kxo_engine::MoveBudget::millis(50))
            .best
            .index();
        let before = cells.iter().filter(|c| c.is_some()).count();
        play_move_on(
            &mut s,
            15,
            SCREEN,
            best,
            cursor.expect("cursor on screen"),
            how,
        );
        s.wait_until("my mark", T, |sc| {
            read_board(sc, 15).0[best] == Some(Player::O)
        });
        s.wait_until("the answer", T, |sc| {
            sc.contains("You win!")
                || read_board(sc, 15).0.iter().filter(|c| c.is_some()).count() >= before + 2
        });
    }
    panic!("no result after 60 moves:\n{}", s.screen());
}

#[test]
fn gomoku_on_15x15_by_typed_coordinates() {
    // The first move is the centre, typed "h8": h is also the cursor key,
    // and the digit after it makes it a column.
    play_gomoku(Input::Typed);
}

#[test]
fn gomoku_on_15x15_by_mouse_clicks() {
    play_gomoku(Input::Mouse);
}

#[test]
fn undo_after_a_loss_resign_twice_and_the_enter_guard() {
    let rules = Rules::default_rules();
    // You play X against the perfect O: you lose, quickly.
    let mut s = Session::start(
        &["--human", "x", "--level", "perfect", "--delay", "0"],
        COLS,
        ROWS,
        &[],
    );
    for _ in 0..8 {
        let screen = s.wait_until("my move or the end", T, |sc| {
            sc.contains("Your move") || sc.contains("The computer wins.")
        });
        if screen.contains("The computer wins.") {
            break;
        }
        let (cells, _) = read_board(&screen, 4);
        let free = (0..16).find(|&i| cells[i].is_none()).unwrap();
        let before = cells.iter().filter(|c| c.is_some()).count();
        let name = Cell::new(free as u16).name(4).to_lowercase();
        s.send(format!("{name}\r").as_bytes());
        s.wait_until("the answer", T, |sc| {
            sc.contains("The computer wins.")
                || read_board(sc, 4).0.iter().filter(|c| c.is_some()).count() >= before + 2
        });
    }
    let lost = s.wait_for("The computer wins.", T);
    assert!(lost.contains("you 0  computer 1  draws 0"), "{lost}");
    // u after the loss: the game goes on from before your last move, and
    // the loss is off the score.
    s.send(b"u");
    let back = s.wait_for("Your move", T);
    assert!(back.contains("you 0  computer 0  draws 0"), "{back}");
    assert!(back.contains("took back"), "{back}");

    // N once asks; N again resigns: a loss, and a new game with sides swapped.
    s.send(b"n");
    s.wait_for("press N again", T);
    s.send(b"n");
    let fresh = s.wait_for("you 0  computer 1  draws 0", T);
    assert!(fresh.contains("You play O"), "{fresh}");
    assert!(
        read_board(&fresh, 4).0.iter().all(|c| c.is_none()),
        "{fresh}"
    );
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);

    // The Enter guard: the winning move's Enter pressed twice keeps the
    // result on screen; a later Enter starts the next game.
    let mut s = Session::start(
        &["--human", "--level", "easy", "--delay", "0"],
        COLS,
        ROWS,
        &[],
    );
    let mut solver = Negamax::new(rules);
    for _ in 0..10 {
        let screen = s.wait_until("my move", T, |sc| {
            sc.contains("Your move") && !sc.contains("thinking")
        });
        let (cells, _) = read_board(&screen, 4);
        let pos = position(&cells, rules);
        let best = solver.solve(&pos).best;
        let mut after = pos;
        after.play(best).unwrap();
        let name = best.name(4).to_lowercase();
        if after.outcome().is_over() {
            s.send(format!("{name}\r\r").as_bytes());
            let over = s.wait_for("You win!", T);
            std::thread::sleep(Duration::from_millis(150));
            let still = s.screen();
            assert!(
                still.contains("You win!"),
                "the double Enter wiped the result:\n{still}"
            );
            assert!(over.contains("you 1  computer 0"), "{over}");
            std::thread::sleep(Duration::from_millis(300));
            s.send(b"\r");
            s.wait_for("new game: you play X", T);
            s.send(CTRL_Q);
            assert_eq!(s.wait_exit(T), 0);
            return;
        }
        let before = cells.iter().filter(|c| c.is_some()).count();
        s.send(format!("{name}\r").as_bytes());
        s.wait_until("the answer", T, |sc| {
            read_board(sc, 4).0.iter().filter(|c| c.is_some()).count() >= before + 2
        });
    }
    panic!("no win against the easy level:\n{}", s.screen());
}
