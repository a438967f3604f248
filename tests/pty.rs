//! The whole program in a real pseudo-terminal.

mod common;

use std::time::Duration;

use common::{CTRL_C, CTRL_P, CTRL_Q, Session};

const T: Duration = Duration::from_secs(10);

/// The screen below the header (whose clock changes every second).
fn below_header(screen: &str, header_rows: usize) -> String {
    screen
        .lines()
        .skip(header_rows)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn live_screen_tabs_pause_resize_and_quit() {
    let mut s = Session::start(&["--seed", "3", "--delay", "100"], 100, 40, &[]);
    let first_logo_line = kxo_tui::ui::logo::LOGO.lines().next().unwrap().trim_end();
    let screen = s.wait_for("Game-9", T);
    assert!(screen.contains(first_logo_line), "logo missing:\n{screen}");
    assert!(screen.contains("Records"), "{screen}");
    assert!(s.alternate_screen());
    assert!(s.cursor_hidden());
    // Moves appear in the Records tab.
    s.wait_for(" → ", T);

    // W shows the Load avg tab; Q brings Records back.
    s.send(b"w");
    s.wait_for("run queue", T);
    s.send(b"Q");
    s.wait_until("the Records tab", T, |sc| {
        !sc.contains("run queue") && sc.contains(" → ")
    });

    // Ctrl-P pauses: PAUSED shows and nothing below the header moves.
    s.send(CTRL_P);
    s.wait_for("PAUSED", T);
    std::thread::sleep(Duration::from_millis(300));
    let header = kxo_tui::ui::logo::height() as usize;
    let paused_screen = s.screen();
    let before = below_header(&paused_screen, header);
    std::thread::sleep(Duration::from_millis(1_200));
    let after = below_header(&s.screen(), header);
    assert_eq!(before, after, "a board changed while paused");
    // The clock runs on while paused.
    s.wait_until("the clock to tick", T, |sc| {
        sc.lines().take(header).collect::<Vec<_>>()
            != paused_screen.lines().take(header).collect::<Vec<_>>()
    });

    // Ctrl-P again resumes: the games move on.
    s.send(CTRL_P);
    s.wait_until("running again", T, |sc| {
        sc.contains("running") && !sc.contains("PAUSED")
    });
    s.wait_until("a board to change", T, |sc| {
        below_header(sc, header) != before
    });

    // A resize reflows the grid to compact boards, all nine still shown
    // (narrow boxes are named "#9").
    s.resize(80, 24);
    let screen = s.wait_until("compact boards", T, |sc| {
        sc.contains("#9") && sc.contains(" · ")
    });
    assert!(!screen.contains("┌───┬"), "full boards at 80x24:\n{screen}");
    // Too small, then back.
    s.resize(30, 10);
    s.wait_for("too small", T);
    s.resize(100, 40);
    s.wait_for("Game-9", T);

    // `?` shows the help.
    s.send(b"?");
    s.wait_for("pause / resume", T);
    s.send(b"?");
    s.wait_until("help closed", T, |sc| !sc.contains("pause / resume"));

    // Ctrl-Q quits with status 0, off the alternate screen, cursor shown.
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen(), "still on the alternate screen");
    assert!(!s.cursor_hidden(), "cursor still hidden");
    assert!(s.screen().contains("games finished"), "{}", s.screen());
}

#[test]
fn ctrl_c_quits_too() {
    let mut s = Session::start(&["--games", "2"], 80, 24, &[]);
    s.wait_for("Game-2", T);
    s.send(CTRL_C);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen());
}

#[test]
fn sigterm_and_sighup_restore_the_terminal() {
    // The exit status says which signal stopped it, as shells expect.
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let mut s = Session::start(&["--games", "4"], 80, 24, &[]);
        s.wait_for("Game-4", T);
        let pid = s.pid().expect("pid").to_string();
        let status = std::process::Command::new("kill")
            .args([format!("-{signal}").as_str(), pid.as_str()])
            .status()
            .expect("run kill");
        assert!(status.success());
        assert_eq!(s.wait_exit(T), code, "SIG{signal}");
        assert!(
            !s.alternate_screen(),
            "SIG{signal}: still on the alternate screen"
        );
        assert!(!s.cursor_hidden(), "SIG{signal}: cursor hidden");
    }
}

#[test]
fn a_panicking_seat_fails_its_game_only() {
    let mut s = Session::start(
        &["--games", "4", "--delay", "50"],
        200,
        40,
        &[("KXO_FAULT_GAME", "2")],
    );
    s.wait_for("FAILED", T);
    // The other games go on: finished games are counted (a 7x7 game of
    // the show takes a while on a busy machine: a generous wait).
    s.wait_until("other games to finish", 6 * T, |sc| {
        !sc.contains("games 0 ") && sc.contains("games ")
    });
    let screen = s.screen();
    assert!(screen.contains("injected fault in game 2"), "{screen}");
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen());
}

#[test]
fn no_color_draws_no_colour_but_colour_is_there_without_it() {
    for (env, coloured) in [(&[("NO_COLOR", "1")][..], false), (&[][..], true)] {
        let mut s = Session::start(&["--games", "2", "--seed", "1"], 80, 24, env);
        s.wait_for(" → ", T);
        let cells = s.coloured_cells();
        assert_eq!(cells > 0, coloured, "{env:?}: {cells} coloured cells");
        s.send(CTRL_Q);
        assert_eq!(s.wait_exit(T), 0);
    }
}

#[test]
fn the_live_screen_refuses_to_run_without_a_terminal() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run kxo-tui");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn the_live_screen_learns_with_rl_seats_and_saves_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.model");
    let p = path.to_str().unwrap();
    let mut s = Session::start(
        &[
            "--o", "rl", "--x", "rl", "--games", "4", "--delay", "0", "--model", p,
        ],
        80,
        24,
        &[],
    );
    s.wait_for("RL", T);
    s.wait_until("a few finished games", T, |sc| {
        !sc.contains("games 0 ") && sc.contains("games ")
    });
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    let table = kxo_tui::model::load(&path, kxo_engine::Rules::default_rules())
        .expect("readable")
        .expect("saved on exit");
    assert!(table.games > 0);
}

/// The numbers on a line, in order.
fn numbers(line: &str) -> Vec<f64> {
    line.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter_map(|t| t.parse::<f64>().ok())
        .collect()
}

#[test]
fn with_the_defaults_the_load_avg_tab_shows_real_load() {
    let mut s = Session::start(&[], 120, 50, &[]);
    s.wait_for("Game-9", T);
    s.send(b"w");
    s.wait_for("run queue", T);
    // Samples come every 5 s and the 1-minute figure rises as
    // 1 - exp(-t/60): on a quiet machine this holds after about 20 s; with
    // two busy processes beside it, the run queue settles near 1.4 and
    // crosses 1 after about 75 s. The wait allows 90 s.
    let screen = s.wait_until("load within 90 s", Duration::from_secs(90), |sc| {
        // Per-seat lines: "│Game-3 MCTS 11 …" or, narrow, "│G3  O MCTS 11 …".
        let share = sc.lines().filter_map(|l| l.split("│G").nth(1)).any(|rest| {
            rest.chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit() || c == 'a')
                && numbers(rest).iter().skip(1).any(|&v| v > 0.0)
        });
        let peak = sc
            .lines()
            .find_map(|l| l.split("peak ").nth(1))
            .and_then(|rest| numbers(rest).first().copied())
            .unwrap_or(0.0);
        let queue = sc
            .lines()
            .find_map(|l| l.split("run queue  1m ").nth(1))
            .and_then(|rest| numbers(rest).first().copied())
            .unwrap_or(0.0);
        share && peak > 1.0 && queue > 1.0
    });
    assert!(screen.contains("MCTS"), "{screen}");
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn paused_a_thinking_seat_stays_mid_thought() {
    let mut s = Session::start(
        &[
            "--o",
            "mcts",
            "--x",
            "mcts",
            "--games",
            "4",
            "--think-ms",
            "3000",
        ],
        120,
        50,
        &[],
    );
    let info = |sc: &str| -> Vec<String> {
        sc.lines()
            .filter(|l| l.contains("it·") || l.contains("/3000ms"))
            .map(str::to_string)
            .collect()
    };
    // Every game past its staggered start: the "starting…" of a game not
    // yet started goes on wall time, not on the paused clocks.
    s.wait_until("a seat thinking", T, |sc| {
        sc.contains("it·") && sc.contains("/3000ms") && !sc.contains("starting…")
    });
    s.send(CTRL_P);
    s.wait_for("PAUSED", T);
    // The frame after the pause may still carry the last slice's report.
    std::thread::sleep(Duration::from_millis(200));
    let before = info(&s.screen());
    assert!(!before.is_empty());
    std::thread::sleep(Duration::from_millis(1_500));
    assert_eq!(
        info(&s.screen()),
        before,
        "a thinking seat moved on while paused"
    );
    // Resumed, the same searches go on: the clocks advance.
    s.send(CTRL_P);
    s.wait_until("the clocks to move on", T, |sc| info(sc) != before);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn a_damaged_default_model_is_a_warning_not_a_refusal() {
    let data = tempfile::tempdir().expect("temp dir");
    let dir = data.path().join("kxo-tui");
    std::fs::create_dir_all(&dir).expect("model folder");
    let model = dir.join("rl-4x4-k3.model");
    std::fs::write(&model, b"not a model at all").expect("damaged model");
    let home = data.path().to_str().expect("utf-8 path");
    // 4x4 with three: random pairs, the learner among them.
    let args = ["--seed", "2", "--size", "4", "--goal", "3"];
    let mut s = Session::start(&args, 120, 40, &[("XDG_DATA_HOME", home)]);
    s.wait_for("warning: see Records", T);
    let screen = s.wait_for("warning: model file", T);
    assert!(screen.contains("plays with a fresh"), "{screen}");
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert_eq!(
        std::fs::read(&model).expect("still there"),
        b"not a model at all",
        "the damaged file was changed"
    );
    // Named on the command line, the same file is refused.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
        .args(["--o", "rl", "--x", "random"])
        .env("XDG_DATA_HOME", home)
        .output()
        .expect("run kxo-tui");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a kxo-tui model"));
}

#[test]
fn a_default_model_in_use_elsewhere_is_shown_and_not_saved() {
    let data = tempfile::tempdir().expect("temp dir");
    let model = data.path().join("kxo-tui").join("rl-4x4-k3.model");
    // This test holds the model, as another kxo-tui would.
    let held = kxo_tui::model::lock(&model).expect("lock").expect("free");
    let home = data.path().to_str().expect("utf-8 path");
    // 4x4 with three: random pairs, the learner among them.
    let args = ["--seed", "4", "--size", "4", "--goal", "3"];
    let mut s = Session::start(&args, 120, 40, &[("XDG_DATA_HOME", home)]);
    s.wait_for("warning: see Records", T);
    s.wait_for("in use by another", T);
    // Let a few dozen games finish, so that rl seats have learned.
    s.wait_until("30 games", Duration::from_secs(60), |sc| {
        sc.lines()
            .find_map(|l| l.split("  games ").nth(1))
            .and_then(|rest| numbers(rest).first().copied())
            .is_some_and(|n| n >= 30.0)
    });
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!model.exists(), "saved although another process holds it");
    drop(held);
}

#[test]
fn ctrl_z_in_a_shell_suspends_with_a_sane_terminal_and_fg_redraws() {
    // An interactive shell with job control, as a user would have.
    let mut s = Session::start_program(
        "bash",
        &["--norc", "--noprofile", "-i"],
        100,
        30,
        &[("PS1", "shell$ ")],
    );
    s.wait_for("shell$", T);
    let bin = env!("CARGO_BIN_EXE_kxo-tui");
    s.send(format!("{bin} --games 4\r").as_bytes());
    s.wait_for("Game-4", T);
    s.send(b"\x1a"); // Ctrl-Z
    // Stopped: the shell has the terminal back, in its normal state.
    let screen = s.wait_until("the shell", T, |sc| sc.contains("Stopped"));
    assert!(
        !s.alternate_screen(),
        "still on the alternate screen:\n{screen}"
    );
    assert!(!s.cursor_hidden(), "cursor hidden while stopped");
    s.send(b"fg\r");
    let screen = s.wait_until("the screen back", T, |sc| {
        sc.contains("Game-4") && sc.contains("Ctrl-Q") && !sc.contains("Stopped")
    });
    assert!(s.alternate_screen(), "{screen}");
    s.send(CTRL_Q);
    s.wait_for("games finished", T);
    s.send(b"exit\r");
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn headless_progress_lines_fit_80_columns_and_count_right() {
    // arena: the games counted never fall behind the results shown.
    let mut s = Session::start(
        &[
            "arena",
            "--o",
            "mcts",
            "--x",
            "random",
            "--mcts-iterations",
            "100",
            "--games",
            "100000",
            "--jobs",
            "1",
        ],
        80,
        24,
        &[],
    );
    s.wait_for(" games  O ", T);
    // Many draws of the line, as the games go by.
    for _ in 0..30 {
        let screen = s.screen();
        let line = screen
            .lines()
            .find(|l| l.contains(" games  O "))
            .unwrap()
            .to_string();
        let nums = numbers(&line);
        // "pos/len games  O a X b draw c  eta …"
        let (pos, a, b, c) = (nums[0], nums[2], nums[3], nums[4]);
        assert!(a + b + c <= pos, "{line}");
        // The whole line fits: its end (eta, the bar) is on the same row.
        assert!(line.contains("eta"), "{line}");
        std::thread::sleep(Duration::from_millis(30));
    }
    s.send(common::CTRL_C);
    s.wait_exit(T);

    // train: the rate is a whole number, and the line fits 80 columns.
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("t.model").display().to_string();
    let mut s = Session::start(
        &[
            "train",
            "--size",
            "4",
            "--goal",
            "4",
            "--episodes",
            "5000000",
            "--model",
            &model,
        ],
        80,
        24,
        &[],
    );
    let screen = s.wait_for("/s ", T);
    let line = screen
        .lines()
        .find(|l| l.contains("/s "))
        .unwrap()
        .to_string();
    assert!(line.contains("eta"), "the line wrapped: {screen}");
    let rate = line.split("/s").next().unwrap().rsplit(' ').next().unwrap();
    assert!(
        rate.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{line}"
    );
    s.send(common::CTRL_C);
    s.wait_exit(Duration::from_secs(60));
}

#[test]
fn the_leaderboard_counts_the_games_played() {
    let mut s = Session::start(
        &[
            "--games",
            "4",
            "--o",
            "mcts",
            "--x",
            "random",
            "--mcts-iterations",
            "200",
            "--delay",
            "0",
            "--hold",
            "50",
        ],
        200,
        45,
        &[],
    );
    s.wait_for("Game-4", T);
    s.send(b"e");
    // Several finished games, then one frame read whole: the header and
    // the table come from the same state.
    let screen = s.wait_until("some games and the table", T, |sc| {
        sc.contains("RAND ")
            && sc.contains("won drew lost")
            && sc
                .lines()
                .find(|l| l.contains("running"))
                .is_some_and(|l| numbers(l.split("games").nth(1).unwrap_or(""))[0] >= 5.0)
    });
    let status = screen.lines().find(|l| l.contains("running")).unwrap();
    let after_games = status.split("games").nth(1).unwrap();
    let n = numbers(after_games);
    let (games, o_wins, x_wins, draws) = (n[0], n[1], n[2], n[3]);
    // The row's figures after the rating and its interval: games, score,
    // won, drew, lost (the columns a 56-column panel keeps).
    let row = |label: &str| -> Vec<f64> {
        let line = screen
            .lines()
            .find(|l| l.contains(&format!("│{label} ")))
            .unwrap_or_else(|| panic!("no {label} row:\n{screen}"));
        let after = line
            .split(" to ")
            .nth(1)
            .unwrap_or_else(|| panic!("{line}"));
        numbers(after)[1..].to_vec()
    };
    let mcts = row("MCTS");
    assert_eq!(
        (mcts[0], mcts[2], mcts[3], mcts[4]),
        (games, o_wins, draws, x_wins),
        "{screen}"
    );
    let random = row("RAND");
    assert_eq!(
        (random[0], random[2], random[3], random[4]),
        (games, x_wins, draws, o_wins),
        "{screen}"
    );
    // MCTS, which beat Random, is rated above it (signed ratings).
    let rated = |label: &str| -> f64 {
        let line = screen
            .lines()
            .find(|l| l.contains(&format!("│{label} ")))
            .unwrap();
        let rest = line.split(label).nth(1).unwrap();
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    assert!(rated("MCTS") > rated("RAND"), "{screen}");
    // Tab moves on to the Records tab.
    s.send(b"\t");
    s.wait_until("the Records tab", T, |sc| {
        !sc.contains("won drew lost") && sc.contains(" → ")
    });
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn select_zoom_and_page_by_keys_and_mouse() {
    // 36 games at 60x20: a page at a time.
    let mut s = Session::start(&["--games", "36", "--delay", "200"], 60, 20, &[]);
    let first = s.wait_for("page 1/", T);
    let pages = numbers(first.split("page 1/").nth(1).unwrap())[0] as usize;
    assert!(pages >= 4, "{first}");
    let mut seen = std::collections::BTreeSet::new();
    for page in 1..=pages {
        let screen = s.wait_for(&format!("page {page}/{pages}"), T);
        // Box titles only ("┌Game-7", "┏Game-7" when selected, "┌#7" in a
        // narrow box), not the Records tab's lines.
        for line in screen.lines() {
            let parts = ["┌Game-", "┏Game-", "┌#", "┏#"]
                .into_iter()
                .flat_map(|title| line.split(title).skip(1));
            for part in parts {
                if let Some(n) = numbers(part).first() {
                    seen.insert(*n as usize);
                }
            }
        }
        s.send(b"\x1b[6~"); // PgDn
    }
    assert!(
        (1..=36).all(|g| seen.contains(&g)),
        "games never shown: {seen:?}"
    );
    s.send(b"\x1b[5~"); // PgUp
    s.wait_for(&format!("page {}/{pages}", pages - 1), T);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);

    // Keys: arrows select, Enter zooms, Esc goes back.
    let mut s = Session::start(&["--games", "4", "--delay", "200"], 120, 40, &[]);
    s.wait_for("Game-4", T);
    s.send(b"\x1b[C"); // Right: Game-2
    s.send(b"\r");
    let zoomed = s.wait_for("Game-2 zoomed", T);
    assert!(zoomed.contains("Record ("), "{zoomed}");
    assert!(
        !zoomed.contains("┌Game-3"),
        "one game fills the grid:\n{zoomed}"
    );
    s.send(b"\x1b");
    s.wait_until("all games again", T, |sc| {
        sc.contains("┌Game-3") && !sc.contains("zoomed")
    });

    // The mouse: a click on Game-4's box selects it, a second click zooms.
    let screen = s.screen();
    let (row, col) = screen
        .lines()
        .enumerate()
        .find_map(|(r, l)| l.find("┌Game-4").map(|c| (r, l[..c].chars().count())))
        .unwrap();
    // Inside the box, a few rows under its title (SGR mouse, 1-based).
    let (x, y) = (col + 3, row + 4);
    let click = format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m");
    s.send(click.as_bytes());
    s.send(click.as_bytes());
    s.wait_for("Game-4 zoomed", T);
    s.send(click.as_bytes());
    s.wait_until("back from the zoom", T, |sc| !sc.contains("zoomed"));
    // A click on a tab's title shows it; the wheel scrolls the tab.
    let screen = s.screen();
    let (row, col) = screen
        .lines()
        .enumerate()
        .find_map(|(r, l)| l.find("Leader").map(|c| (r, l[..c].chars().count())))
        .unwrap_or_else(|| panic!("no Leaderboard tab title:\n{screen}"));
    s.send(format!("\x1b[<0;{};{}M", col + 2, row + 1).as_bytes());
    s.wait_until("the Leaderboard tab", T, |sc| {
        sc.contains("no game finished yet") || (sc.contains("engine") && sc.contains("Elo"))
    });
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn the_records_tab_scrolls_to_every_game() {
    let mut s = Session::start(&["--games", "9", "--delay", "300"], 80, 24, &[]);
    s.wait_for("#9", T);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let screen = s.screen();
        for line in screen.lines() {
            // Records lines read "Game-3  MCTS vs NEGA …".
            for part in line.split("Game-").skip(1) {
                if part.contains(" vs ")
                    && let Some(n) = numbers(part).first()
                {
                    seen.insert(*n as usize);
                }
            }
        }
        s.send(b"j");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        (1..=9).all(|g| seen.contains(&g)),
        "records never shown: {seen:?}"
    );
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}

#[test]
fn the_live_screen_shows_a_tournament_and_its_crosstable() {
    let mut s = Session::start(
        &[
            "--size",
            "3",
            "--engine",
            "alpha=negamax",
            "--engine",
            "beta=random",
            "--engine",
            "gamma=mcts:iterations=200",
            "--tournament-games",
            "2",
            "--games",
            "3",
            "--delay",
            "0",
            "--hold",
            "200",
            "--seed",
            "4",
        ],
        200,
        50,
        &[],
    );
    // The boxes name the tournament's engines.
    s.wait_for("alpha", T);
    s.send(b"E");
    // Three pairings of two games: all six end, and the tab says so.
    let screen = s.wait_for("6 games of 6", Duration::from_secs(30));
    assert!(screen.contains("Tournament"), "{screen}");
    assert!(screen.contains("crosstable"), "{screen}");
    // The perfect player loses no game of 3x3.
    let alpha = screen
        .lines()
        .find(|l| l.contains(" alpha ") && l.contains('%'))
        .unwrap_or_else(|| panic!("{screen}"));
    let n = numbers(alpha);
    // rank, games, wins, draws, losses…
    assert_eq!((n[1], n[4]), (4.0, 0.0), "{alpha}");
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
}
