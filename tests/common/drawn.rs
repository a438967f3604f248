//! The screen drawn on ratatui's TestBackend, read back as text: the
//! helpers of the UI tests (`tests/ui.rs`, `tests/ui_load.rs`).

#![allow(dead_code)]

use std::time::Instant;

use kxo_engine::Cell;
use kxo_tui::app::{Action, App, LiveConfig, Message};
use kxo_tui::ui::Chrome;
use kxo_tui::ui::palette::ColorMode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

/// The person's `action`, through the one door.
pub fn press(app: &mut App, action: Action) {
    let input = Message::Input {
        action: Some(action),
        column_key: None,
    };
    app.update(input, Instant::now());
}

/// A seat's move in `game` (its first generation), through the one door.
pub fn play(app: &mut App, game: usize, name: &str, now: Instant) {
    let cell = Cell::parse(name, app.config().rules.size()).unwrap();
    app.update(
        Message::Moved {
            game,
            generation: 0,
            cell,
        },
        now,
    );
}

/// The header's clock as the renderer would bring it.
pub fn chrome() -> Chrome {
    Chrome {
        clock: "12:00:00  up 00:01:40".into(),
    }
}

pub fn render(app: &App, w: u16, h: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| kxo_tui::ui::draw(f, app, &chrome()))
        .unwrap();
    terminal.backend().buffer().clone()
}

pub fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            // A non-breaking space shows as a space.
            line.push_str(&buf[(x, y)].symbol().replace('\u{a0}', " "));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Position of the first occurrence of `needle` on screen.
pub fn find(buf: &Buffer, needle: &str) -> Option<(u16, u16)> {
    let t = text(buf);
    t.lines().enumerate().find_map(|(y, line)| {
        line.find(needle)
            .map(|byte| (line[..byte].chars().count() as u16, y as u16))
    })
}

pub fn app(color: ColorMode) -> App {
    app_with(color, |_| {})
}

/// As [`app`], the command line changed by `change` first.
pub fn app_with(color: ColorMode, change: impl FnOnce(&mut LiveConfig)) -> App {
    let mut config = LiveConfig {
        o: Some(kxo_engine::BuiltIn::Mcts.into()),
        x: Some(kxo_engine::BuiltIn::Negamax.into()),
        seed: 1,
        color,
        ..LiveConfig::default()
    };
    change(&mut config);
    let now = Instant::now();
    let mut app = App::new(config, now);
    // Game 1: O B2, X C3 (the last move). Game 2: O wins on row 1.
    for name in ["B2", "C3"] {
        play(&mut app, 0, name, now);
    }
    for name in ["A1", "A2", "B1", "B2", "C1"] {
        play(&mut app, 1, name, now);
    }
    app
}
