//! The screen drawn on ratatui's TestBackend at several sizes.

use std::time::Instant;

use kxo_engine::Cell;
use kxo_engine::EngineKind;
use kxo_tui::app::{Action, App, LearnerFigures, LiveConfig, Message, Tab};
use kxo_tui::ui::logo::{rainbow, rainbow_index};
use kxo_tui::ui::palette::ColorMode;
use ratatui::style::{Color, Modifier};

#[path = "common/drawn.rs"]
mod drawn;

use drawn::{app, app_with, find, play, press, render, text};

#[test]
fn large_screen_shows_logo_every_game_and_records() {
    let buf = render(&app(ColorMode::TrueColor), 120, 50);
    let t = text(&buf);
    let first_logo_line = kxo_tui::ui::logo::LOGO.lines().next().unwrap();
    assert!(t.starts_with(first_logo_line.trim_end()), "{t}");
    for n in 1..=9 {
        assert!(t.contains(&format!("Game-{n}")), "Game-{n} missing:\n{t}");
    }
    assert!(t.contains("MCTS vs NEGA"));
    assert!(t.contains("Records") && t.contains("Load"), "{t}");
    assert!(t.contains("B2 → C3"));
    assert!(t.contains("O wins"));
    assert!(t.contains("12:00:00"));
    assert!(t.contains("running"));
    assert!(t.contains("┌───┬───┬───┬───┐"), "full boards at 120x50");
}

#[test]
fn eighty_by_twenty_four_snapshot() {
    let buf = render(&app(ColorMode::None), 80, 24);
    insta::assert_snapshot!("screen_80x24", text(&buf));
}

#[test]
fn forty_by_twelve_shows_what_fits_and_says_so() {
    let buf = render(&app(ColorMode::None), 40, 12);
    let t = text(&buf);
    assert!(t.contains("Game-1"));
    assert!(t.contains("page 1/3 PgUp/PgDn"), "{t}");
    insta::assert_snapshot!("screen_40x12", t);
}

#[test]
fn too_small_gets_a_clear_message() {
    for (w, h) in [(39, 12), (40, 11), (20, 5), (1, 1)] {
        let t = text(&render(&app(ColorMode::None), w, h));
        if h >= 3 {
            assert!(t.contains("too small"), "{w}x{h}:\n{t}");
        }
    }
}

#[test]
fn load_tab_help_and_pause_are_drawn() {
    let mut a = app(ColorMode::None);
    press(&mut a, Action::ShowTab(Tab::Load));
    press(&mut a, Action::TogglePause);
    let t = text(&render(&a, 120, 50));
    assert!(t.contains("run queue"), "{t}");
    assert!(t.contains("PAUSED"));
    press(&mut a, Action::ToggleHelp);
    let t = text(&render(&a, 120, 50));
    for key in ["Ctrl-P", "Ctrl-Q", "Records tab", "Load avg tab"] {
        assert!(t.contains(key), "{key} missing in help:\n{t}");
    }
}

#[test]
fn the_load_tab_shows_what_the_learner_has_learned() {
    use kxo_engine::learner::ValueTable;
    let mut t = ValueTable::new(kxo_engine::Rules::default_rules());
    t.games = 1234;
    t.accuracy = Some(0.993);
    // What the table holds reaches the state as a message, as the seats
    // send it.
    let mut a = app(ColorMode::None);
    a.update(Message::Learned(LearnerFigures::of(&t)), Instant::now());
    press(&mut a, Action::ShowTab(Tab::Load));
    let t = text(&render(&a, 120, 50));
    assert!(t.contains("learner 1,234 games learned"), "{t}");
    assert!(t.contains("  0 positions"), "{t}");
    assert!(t.contains("accuracy 99.3% when last saved"), "{t}");
    // Once the run has measured it, the current figure.
    let measured = Message::LearnerMeasured {
        share: 0.995,
        games: 1300,
    };
    a.update(measured, Instant::now());
    let t = text(&render(&a, 120, 50));
    assert!(t.contains("accuracy 99.5% (at 1,300 games)"), "{t}");
    // Above 8x8 the figure is the score against the yardstick.
    let mut t = ValueTable::with_init(
        kxo_engine::Rules::new(15, 5).unwrap(),
        kxo_engine::learner::Init::Network,
    );
    t.games = 20_000;
    let mut a = app(ColorMode::None);
    a.update(Message::Learned(LearnerFigures::of(&t)), Instant::now());
    press(&mut a, Action::ShowTab(Tab::Load));
    let t = text(&render(&a, 120, 50));
    assert!(
        t.contains("20,000 games learned") && t.contains("0 weights"),
        "{t}"
    );
    assert!(t.contains("vs Negamax-256: measuring"), "{t}");
    let measured = Message::LearnerMeasured {
        share: 0.22,
        games: 20_000,
    };
    a.update(measured, Instant::now());
    let t = text(&render(&a, 120, 50));
    assert!(t.contains("vs Negamax-256: 22% at 20,000 games"), "{t}");
    // Without a learning player, no such line.
    let mut a = app(ColorMode::None);
    press(&mut a, Action::ShowTab(Tab::Load));
    assert!(!text(&render(&a, 120, 50)).contains("learner"));
}

#[test]
fn logo_is_coloured_as_lolcat() {
    let buf = render(&app(ColorMode::TrueColor), 120, 50);
    for (row, line) in kxo_tui::ui::logo::LOGO.lines().enumerate() {
        for (col, ch) in line.chars().enumerate() {
            if ch == ' ' {
                continue;
            }
            let (r, g, b) = rainbow(rainbow_index(row, col));
            assert_eq!(
                buf[(col as u16, row as u16)].fg,
                Color::Rgb(r, g, b),
                "({row}, {col})"
            );
        }
    }
    // 256-colour fallback uses indexed colours.
    let buf = render(&app(ColorMode::Indexed256), 120, 50);
    assert!(matches!(buf[(0, 0)].fg, Color::Indexed(_)));
}

#[test]
fn marks_are_green_and_red_and_the_last_move_is_highlighted() {
    let buf = render(&app(ColorMode::TrueColor), 120, 50);
    // Game 1 is the first box: find its O (B2) and X (C3) cells.
    // The title starts one cell right of the box's corner, where the board
    // starts: column labels, a rule, then row 1; "1│ O │" puts the mark of
    // column c at x + 3 + 4c; the board sits one column in from the title.
    // Game 1's board: the first grid top on screen ("┌───┬"), its cells
    // four columns and two rows apart.
    let (gx, gy) = find(&buf, "┌───┬").unwrap();
    let cell = |col: u16, row: u16| (gx + 2 + 4 * col, gy + 1 + 2 * row);
    let o = &buf[cell(1, 1)];
    let x = &buf[cell(2, 2)];
    assert_eq!(o.symbol(), "O");
    assert_eq!(x.symbol(), "X");
    assert_eq!(o.fg, Color::Green);
    assert_eq!(x.fg, Color::Red);
    // The last move underlined (reverse video is the winning line's).
    assert!(
        x.modifier.contains(Modifier::UNDERLINED),
        "last move highlighted"
    );
    assert!(!x.modifier.contains(Modifier::REVERSED));
    assert!(!o.modifier.contains(Modifier::UNDERLINED));
}

#[test]
fn no_color_puts_no_colour_in_the_buffer_but_keeps_highlights() {
    let a = app(ColorMode::None);
    for (w, h) in [(120, 50), (80, 24), (40, 12)] {
        let buf = render(&a, w, h);
        for cell in buf.content() {
            assert_eq!(cell.fg, Color::Reset, "{w}x{h}: {cell:?}");
            assert_eq!(cell.bg, Color::Reset, "{w}x{h}: {cell:?}");
        }
        // Reverse video on big boards; bold and underlined on compact ones,
        // where reverse video is the cursor's.
        assert!(
            buf.content().iter().any(|c| c.symbol() == "X"
                && (c.modifier.contains(Modifier::REVERSED)
                    || c.modifier.contains(Modifier::UNDERLINED | Modifier::BOLD))),
            "{w}x{h}: the last move is still shown"
        );
    }
}

#[test]
fn human_mode_shows_the_result_and_highlights_the_winning_line() {
    let config = LiveConfig {
        games: 1,
        o: Some(kxo_engine::BuiltIn::Negamax.into()),
        x: Some(kxo_engine::BuiltIn::Negamax.into()),
        human: Some(kxo_engine::Player::O),
        ..LiveConfig::default()
    };
    let now = Instant::now();
    let mut app = App::new(config, now);
    // The person (O) wins on row 1: A1, B1, C1.
    for name in ["A1", "A2", "B1", "B2", "C1"] {
        play(&mut app, 0, name, now);
    }
    let buf = render(&app, 100, 40);
    let t = text(&buf);
    assert!(t.contains("You win!"), "{t}");
    assert!(t.contains("you 1  computer 0  draws 0"), "{t}");
    assert!(t.contains("YOU vs NEGA"), "{t}");
    let area = ratatui::layout::Rect::new(0, 0, 100, 40);
    for (i, name) in ["A1", "B1", "C1", "A2"].iter().enumerate() {
        let cell = Cell::parse(name, 4).unwrap();
        let r = kxo_tui::ui::human::cell_rect(area, 4, cell).unwrap();
        // The middle line of the cell, at its centre: the mark.
        let mark = &buf[(r.x + r.width / 2, r.y + r.height / 2)];
        let reversed = mark.modifier.contains(Modifier::REVERSED);
        assert_eq!(reversed, i < 3, "{name}: {mark:?}");
        // The whole cell is reversed on the winning line, not just the mark.
        let corner = &buf[(r.x, r.y)];
        assert_eq!(
            corner.modifier.contains(Modifier::REVERSED),
            i < 3,
            "{name} corner"
        );
    }
}

/// Game 1's O seat (MCTS) is thinking: 55 ms of its 100 ms clock used,
/// 41,200 iterations, B3 its candidate at a 62% win rate.
fn thinking_app(color: ColorMode) -> App {
    use kxo_engine::{Estimate, SearchInfo};
    use kxo_tui::app::Thinking;
    use std::time::Duration;
    let mut a = app(color);
    a.update(
        Message::Thinking {
            game: 0,
            generation: 0,
            thinking: Thinking {
                side: kxo_engine::Player::O,
                engine: EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts),
                used: Duration::from_millis(55),
                clock: Some(Duration::from_millis(100)),
                info: SearchInfo {
                    work: 41_200,
                    best: Some(Cell::parse("B3", 4).unwrap()),
                    estimate: Some(Estimate::WinRate(0.62)),
                    ..SearchInfo::default()
                },
                done: false,
            },
        },
        Instant::now(),
    );
    a
}

#[test]
fn a_thinking_seat_shows_its_candidate_clock_and_search() {
    let buf = render(&thinking_app(ColorMode::TrueColor), 120, 50);
    let t = text(&buf);
    assert!(t.contains("MCTS 41k it·B3 62%"), "{t}");
    assert!(t.contains(" 55/100ms"), "{t}");
    // The bar: 55% of its cells filled, up to the figures.
    let (bx, by) = find(&buf, " 55/100ms").unwrap();
    let (title_x, _) = find(&buf, "Game-1").unwrap();
    let bar: String = (title_x..bx)
        .map(|x| buf[(x, by)].symbol().to_string())
        .collect();
    let cells = bar.chars().count() as f64;
    let full = bar.chars().filter(|&c| c == '█').count() as f64;
    assert!(cells >= 9.0 && (full / cells - 0.55).abs() < 0.1, "{bar:?}");
    // The candidate: a faint lower-case o on B3, nowhere else.
    let (gx, gy) = find(&buf, "┌───┬").unwrap();
    let cell = |col: u16, row: u16| &buf[(gx + 2 + 4 * col, gy + 1 + 2 * row)];
    let candidate = cell(1, 2);
    assert_eq!(candidate.symbol(), "o");
    assert!(candidate.modifier.contains(Modifier::DIM));
    assert_eq!(candidate.fg, Color::Green);
    assert_eq!(t.matches(" o ").count(), 1, "{t}");
    // The engine that thinks is underlined in the box's bottom title.
    let my = by + 2;
    let mx = (gx..gx + 20)
        .find(|&x| buf[(x, my)].symbol() == "M")
        .expect("the bottom title");
    assert!(buf[(mx, my)].modifier.contains(Modifier::UNDERLINED));
    assert!(!buf[(mx + 8, my)].modifier.contains(Modifier::UNDERLINED));
    // Compact boards keep the candidate but drop the lines.
    let t = text(&render(&thinking_app(ColorMode::None), 80, 24));
    assert!(!t.contains("41k"), "{t}");
    assert!(t.contains("3 · o X ·"), "{t}");
}

#[test]
fn a_narrow_box_shortens_its_search_line_instead_of_cutting_it() {
    // At 60x20 the boxes are 13 cells wide inside: "MCTS 41k it·B3 62%"
    // does not fit, and the line keeps the move and the estimate.
    let t = text(&render(&thinking_app(ColorMode::None), 60, 20));
    assert!(
        t.contains(" 55/100ms"),
        "the thinking lines are shown:\n{t}"
    );
    assert!(t.contains("41k·B3 62%"), "{t}");
    assert!(!t.contains("MCTS 41k"), "{t}");
}

/// Every game's box title on screen ("┌Game-7", "┏Game-7" when selected,
/// "┌#7" in a narrow box).
fn boxes_shown(t: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for line in t.lines() {
        let parts = ["┌Game-", "┏Game-", "┌#", "┏#"]
            .into_iter()
            .flat_map(|title| line.split(title).skip(1));
        for part in parts {
            let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse() {
                out.push(n);
            }
        }
    }
    out.sort();
    out
}

/// The header's status and key-bar lines end on a whole item.
fn header_ends_whole(t: &str) {
    let items = [
        "moves/s",
        "draws 0",
        "X 0",
        "O 1",
        "games 1",
        "PgDn)",
        "PgDn",
        "back",
        "quit",
        "pause",
        "help",
        "records",
        "avg",
        "leaderboard",
        "zoom",
        "running",
    ];
    for line in t.lines().take(6) {
        let line = line.trim_end();
        if line.contains("running") || line.contains("Ctrl-Q quit") {
            assert!(
                items.iter().any(|i| line.ends_with(i)),
                "cut mid-word: {line:?}"
            );
        }
    }
}

#[test]
fn every_game_is_reachable_at_every_size() {
    for (w, h) in [(200, 60), (120, 50), (80, 24), (40, 12)] {
        let mut a = app(ColorMode::None);
        let mut seen = Vec::new();
        for page in 0..9 {
            press(&mut a, Action::Select { game: 0, page });
            let t = text(&render(&a, w, h));
            header_ends_whole(&t);
            seen.extend(boxes_shown(&t));
        }
        seen.sort();
        seen.dedup();
        assert_eq!(seen, (1..=9).collect::<Vec<_>>(), "{w}x{h}");
        if (w, h) == (200, 60) || (w, h) == (120, 50) {
            press(&mut a, Action::Select { game: 0, page: 0 });
            insta::assert_snapshot!(format!("screen_{w}x{h}"), text(&render(&a, w, h)));
        }
    }
}

#[test]
fn the_zoom_shows_one_game_with_its_record() {
    for (w, h) in [(120, 50), (80, 24), (40, 12)] {
        let mut a = app(ColorMode::None);
        press(&mut a, Action::Select { game: 1, page: 0 });
        press(&mut a, Action::ToggleZoom);
        let t = text(&render(&a, w, h));
        header_ends_whole(&t);
        assert!(t.contains("Game-2 (Esc"), "{w}x{h}\n{t}");
        assert_eq!(boxes_shown(&t), [2], "only the zoomed game: {w}x{h}\n{t}");
        if w >= 80 {
            assert!(t.contains("Record (5 moves)"), "{w}x{h}\n{t}");
            assert!(t.contains("1. A1 A2   2. B1 B2   3. C1"), "{w}x{h}\n{t}");
            assert!(t.contains("O wins"), "{t}");
        }
        if (w, h) == (80, 24) {
            insta::assert_snapshot!("zoom_80x24", t);
        }
    }
}

#[test]
fn the_logo_drifts_slowly_unless_still() {
    let first_colours = |a: &App| {
        let buf = render(a, 120, 50);
        (0..kxo_tui::ui::logo::width())
            .map(|x| buf[(x, 0)].fg)
            .collect::<Vec<_>>()
    };
    let mut a = app(ColorMode::TrueColor);
    let start = first_colours(&a);
    a.update(
        Message::Frame,
        a.started() + std::time::Duration::from_secs(3),
    );
    let later = first_colours(&a);
    assert_ne!(start, later, "the rainbow moves");
    // The top-left cell's colour is now that of a cell 1.5 steps along.
    let (r, g, b) = rainbow(rainbow_index(0, 0) + 1.5);
    assert_eq!(later[0], Color::Rgb(r, g, b));
    let mut still = app_with(ColorMode::TrueColor, |c| c.animate = false);
    still.update(
        Message::Frame,
        still.started() + std::time::Duration::from_secs(3),
    );
    assert_eq!(first_colours(&still), start, "--no-anim keeps it still");
}

#[test]
fn a_big_board_is_shown_whole_or_the_screen_says_what_it_needs() {
    // 20x20 on the live screen and 15x15 in human mode: from the smallest
    // terminal each needs, every row of the board is on screen; one line
    // less, none is cut short, and the message names the size to reach.
    let rules = |n| kxo_engine::Rules::new(n, 5).unwrap();
    let live = App::new(
        LiveConfig {
            rules: rules(20),
            games: 4,
            o: Some(kxo_engine::BuiltIn::Mcts.into()),
            x: Some(kxo_engine::BuiltIn::Mcts.into()),
            ..LiveConfig::default()
        },
        Instant::now(),
    );
    let human = App::new(
        LiveConfig {
            rules: rules(15),
            games: 1,
            o: Some(kxo_engine::BuiltIn::Mcts.into()),
            x: Some(kxo_engine::BuiltIn::Mcts.into()),
            human: Some(kxo_engine::Player::O),
            ..LiveConfig::default()
        },
        Instant::now(),
    );
    for (app, last_row, (w, h)) in [
        (&live, "20 ·", kxo_tui::ui::layout::min_size(&[20])),
        (&human, "15 ·", kxo_tui::ui::human::min_size(15)),
    ] {
        assert!(h > 12, "a big board needs more than the usual 40x12");
        let whole = text(&render(app, w, h));
        assert!(whole.contains(last_row), "{w}x{h}:\n{whole}");
        for (w2, h2) in [(w, h - 1), (w - 1, h)] {
            let cut = text(&render(app, w2, h2));
            assert!(
                cut.contains(&format!("{w2}x{h2}: kxo-tui needs {w}x{h}.")),
                "{w2}x{h2}:\n{cut}"
            );
        }
    }
}

/// The default show, as the command line with no option makes it, its
/// first games begun on boards up to `fits` (as on a large screen).
fn show_begun_for(fits: u8) -> App {
    use clap::FromArgMatches;
    let matches = kxo_tui::cli::command()
        .try_get_matches_from(["kxo-tui", "--seed", "3"])
        .expect("a valid command line");
    let cli = kxo_tui::cli::Cli::from_arg_matches(&matches).expect("the definition");
    let config = cli.live.config(ColorMode::None, None).expect("the show");
    assert!(config.show.is_some(), "no option: the show");
    App::with_fits(config, Instant::now(), fits)
}

#[test]
fn a_box_too_small_for_its_board_says_so_instead_of_cutting_it() {
    // The show starts its games on boards up to 7x7 for a large screen;
    // the terminal then shrinks to 80x24, where a box holds only 4x4. Every
    // box shows its board whole or says it is too big: none cut short.
    let app = show_begun_for(7);
    let (w, h) = (80, 24);
    let buf = render(&app, w, h);
    let view = kxo_tui::ui::grid_view(&app, ratatui::layout::Rect::new(0, 0, w, h))
        .expect("80x24 shows the grid");
    let (mut whole, mut noticed) = (0, 0);
    for (i, rect) in view.boxes.iter().enumerate() {
        let n = app.games()[view.first + i].pos.rules().size() as u16;
        let inside: String = (rect.y..rect.bottom())
            .map(|y| {
                let row: String = (rect.x..rect.right())
                    .map(|x| buf[(x, y)].symbol())
                    .collect();
                row + "\n"
            })
            .collect();
        let (bw, bh) = kxo_tui::ui::layout::min_box(n);
        if bw <= rect.width && bh <= rect.height {
            let last_row = format!("{n} ");
            assert!(
                inside
                    .lines()
                    .any(|l| l.trim_start_matches(['│', '┃', ' ']).starts_with(&last_row)),
                "{n}x{n} in {rect:?} should be whole:\n{inside}"
            );
            whole += 1;
        } else {
            assert!(
                inside.contains("too big for") && inside.contains("Enter zooms"),
                "{n}x{n} in {rect:?} should say it is too big:\n{inside}"
            );
            assert!(!inside.contains("1 ·"), "no cut board:\n{inside}");
            noticed += 1;
        }
    }
    assert!(
        noticed > 0,
        "some games begun on boards above 4x4: {}",
        text(&buf)
    );
    assert!(whole > 0, "and some 4x4 ones shown whole: {}", text(&buf));
}

#[test]
fn the_zoomed_record_wraps_between_move_pairs_not_inside_them() {
    // 21 moves on 7x7 (three columns, no line of five): the record takes
    // more than one line at 80x24 and at 120x50, and each of its lines
    // starts with a move number: a pair ("6. B4 B5") is never split.
    let mut a = app_with(ColorMode::None, |c| {
        c.rules = kxo_engine::Rules::new(7, 5).unwrap();
    });
    let now = Instant::now();
    for column in ['A', 'B', 'C'] {
        for row in 1..=7 {
            play(&mut a, 2, &format!("{column}{row}"), now);
        }
    }
    press(&mut a, Action::Select { game: 2, page: 0 });
    press(&mut a, Action::ToggleZoom);
    for (w, h) in [(80, 24), (120, 50)] {
        let t = text(&render(&a, w, h));
        let lines: Vec<Vec<char>> = t.lines().map(|l| l.chars().collect()).collect();
        let (top, column) = lines
            .iter()
            .enumerate()
            .find_map(|(y, l)| {
                let s: String = l.iter().collect();
                s.find("Record (21 moves)")
                    .map(|b| (y, s[..b].chars().count()))
            })
            .unwrap_or_else(|| panic!("no record at {w}x{h}\n{t}"));
        // The record's lines, read from the column its title starts at.
        let record: Vec<String> = lines[top + 1..]
            .iter()
            .map(|l| l.iter().skip(column).collect::<String>())
            .map(|s| s.trim_end_matches(['┃', '│', ' ']).to_string())
            .take_while(|s| !s.trim().is_empty())
            .collect();
        assert!(record.len() >= 2, "the record wraps at {w}x{h}\n{t}");
        assert!(
            record.last().is_some_and(|l| l.ends_with("11. C7")),
            "{w}x{h}\n{t}"
        );
        for line in &record {
            let first = line.split_whitespace().next().unwrap_or("");
            assert!(
                first
                    .strip_suffix('.')
                    .is_some_and(|n| n.parse::<u32>().is_ok()),
                "each line of the record starts with a move number at {w}x{h}: {line:?}\n{t}"
            );
        }
    }
}

#[test]
fn a_zoomed_board_is_whole_on_the_smallest_screen() {
    // At 40x12 the grid has five lines inside a box; zooming a 6x6 or 7x7
    // game of the show takes the tab panel's lines too, so that its every
    // row shows; the panel comes back with the grid.
    let mut app = show_begun_for(7);
    let sides: Vec<u8> = app.games().iter().map(|g| g.pos.rules().size()).collect();
    assert!(sides.iter().any(|&n| n >= 6), "a big board among {sides:?}");
    for (game, &n) in sides.iter().enumerate() {
        press(&mut app, Action::Select { game, page: 0 });
        press(&mut app, Action::ToggleZoom);
        let t = text(&render(&app, 40, 12));
        let last_row = format!("┃{n} ");
        assert!(t.contains(&last_row), "{n}x{n}, row {n} at 40x12:\n{t}");
        press(&mut app, Action::ToggleZoom);
        let t = text(&render(&app, 40, 12));
        assert!(t.contains("Records Q"), "the panel is back:\n{t}");
    }
}

#[test]
fn a_zoomed_board_too_big_for_the_screen_says_so_instead_of_cutting_it() {
    // A Gomoku game of the show begun on a wide screen (fifth box), zoomed
    // at 40x12: even with the panel's lines 15x15 does not fit, and the
    // zoom says so; at 120x50 it is whole.
    let mut app = show_begun_for(15);
    assert_eq!(app.games()[4].pos.rules().size(), 15);
    press(&mut app, Action::Select { game: 4, page: 0 });
    press(&mut app, Action::ToggleZoom);
    let small = text(&render(&app, 40, 12));
    assert!(small.contains("too big for this screen"), "40x12:\n{small}");
    assert!(
        !small.contains("┃1 ·") && !small.contains("┃ 1 ·"),
        "no cut board:\n{small}"
    );
    let large = text(&render(&app, 120, 50));
    assert!(
        large.contains("┃15│") || large.contains("┃15 ·"),
        "120x50, row 15:\n{large}"
    );
    assert!(!large.contains("too big"), "{large}");
}

#[test]
fn the_help_and_quit_keys_stay_on_narrow_screens() {
    // (At 40x12 the page the screen shows comes first: the keys give way.)
    for (w, h) in [(80, 24), (50, 14)] {
        let a = app(ColorMode::None);
        let t = text(&render(&a, w, h));
        let header: String = t.lines().take(2).collect::<Vec<_>>().join("\n");
        assert!(header.contains("? help"), "{w}x{h}:\n{header}");
        assert!(header.contains("Ctrl-Q quit"), "{w}x{h}:\n{header}");
    }
}

#[test]
fn human_gomoku_at_80x24_keeps_help_and_quit_and_offers_no_pass() {
    let config = LiveConfig {
        games: 1,
        rules: kxo_engine::Rules::new(15, 5).unwrap(),
        o: Some(kxo_engine::BuiltIn::Negamax.into()),
        x: Some(kxo_engine::BuiltIn::Negamax.into()),
        human: Some(kxo_engine::Player::O),
        ..LiveConfig::default()
    };
    let app = App::new(config, Instant::now());
    let t = text(&render(&app, 80, 24));
    let header: String = t.lines().take(6).collect::<Vec<_>>().join("\n");
    assert!(header.contains("? help  Ctrl-Q quit"), "{header}");
    assert!(!header.contains("p pass"), "{header}");
    // The board's rows are numbered from the bottom: 15 on top.
    let first_row = t.lines().find(|l| l.contains('·')).unwrap_or_default();
    assert!(first_row.contains("15"), "{t}");
}
