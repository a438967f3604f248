//! The screen drawn on ratatui's TestBackend at several sizes.

use std::time::Instant;

use kxo_tui::ai::EngineKind;
use kxo_tui::app::{App, LiveConfig, Tab};
use kxo_tui::game::Cell;
use kxo_tui::ui::logo::{rainbow, rainbow_index};
use kxo_tui::ui::palette::ColorMode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

fn app(color: ColorMode) -> App {
    let config = LiveConfig {
        o: Some(EngineKind::Mcts),
        x: Some(EngineKind::Negamax),
        seed: 1,
        color,
        ..LiveConfig::default()
    };
    let now = Instant::now();
    let mut app = App::new(config, now);
    app.clock = "12:00:00  up 00:01:40".into();
    // Game 1: O B2, X C3 (the last move). Game 2: O wins on row 1.
    for name in ["B2", "C3"] {
        app.apply_move(0, 0, Cell::parse(name, 4).unwrap(), now);
    }
    for name in ["A1", "A2", "B1", "B2", "C1"] {
        app.apply_move(1, 0, Cell::parse(name, 4).unwrap(), now);
    }
    app
}

fn render(app: &App, w: u16, h: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal.draw(|f| kxo_tui::ui::draw(f, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Position of the first occurrence of `needle` on screen.
fn find(buf: &Buffer, needle: &str) -> Option<(u16, u16)> {
    let t = text(buf);
    t.lines().enumerate().find_map(|(y, line)| {
        line.find(needle)
            .map(|byte| (line[..byte].chars().count() as u16, y as u16))
    })
}

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
    assert!(t.contains("Records [Q]") && t.contains("Load avg [W]"));
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
    assert!(t.contains("of 9 games shown"), "{t}");
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
    a.tab = Tab::Load;
    a.paused = true;
    let t = text(&render(&a, 120, 50));
    assert!(t.contains("run queue"), "{t}");
    assert!(t.contains("PAUSED"));
    a.help = true;
    let t = text(&render(&a, 120, 50));
    for key in ["Ctrl-P", "Ctrl-Q", "Records tab", "Load avg tab"] {
        assert!(t.contains(key), "{key} missing in help:\n{t}");
    }
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
    let (gx, gy) = find(&buf, "Game-1").unwrap();
    let cell = |col: u16, row: u16| (gx + 4 + 4 * col, gy + 3 + 2 * row);
    let o = &buf[cell(1, 1)];
    let x = &buf[cell(2, 2)];
    assert_eq!(o.symbol(), "O");
    assert_eq!(x.symbol(), "X");
    assert_eq!(o.fg, Color::Green);
    assert_eq!(x.fg, Color::Red);
    assert!(
        x.modifier.contains(Modifier::REVERSED),
        "last move highlighted"
    );
    assert!(!o.modifier.contains(Modifier::REVERSED));
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
        assert!(
            buf.content()
                .iter()
                .any(|c| c.symbol() == "X" && c.modifier.contains(Modifier::REVERSED)),
            "{w}x{h}: the last move is still shown"
        );
    }
}

#[test]
fn human_mode_shows_the_result_and_highlights_the_winning_line() {
    let config = LiveConfig {
        games: 1,
        o: Some(EngineKind::Negamax),
        x: Some(EngineKind::Negamax),
        human: Some(kxo_tui::game::Player::O),
        ..LiveConfig::default()
    };
    let now = Instant::now();
    let mut app = App::new(config, now);
    // The person (O) wins on row 1: A1, B1, C1.
    for name in ["A1", "A2", "B1", "B2", "C1"] {
        app.apply_move(0, 0, Cell::parse(name, 4).unwrap(), now);
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
