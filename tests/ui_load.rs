//! The Load avg tab on ratatui's TestBackend: its numbers whole at
//! 120x50, and at 80x24 it fits and scrolls to every seat.

use std::time::Instant;

use kxo_tui::app::{Action, App, Message, Tab};
use kxo_tui::ui::palette::ColorMode;

#[path = "common/drawn.rs"]
mod drawn;

use drawn::{app, press, render, text};

/// A Load avg snapshot with known accounting.
fn loaded_app() -> App {
    use kxo_tui::app::load::{EngineLoad, LoadAvg, SeatLoad};
    let mut a = app(ColorMode::None);
    press(&mut a, Action::ShowTab(Tab::Load));
    let mut l = a.load().clone();
    l.run_queue = LoadAvg::from_values([3.52, 1.2, 0.44]);
    l.samples = 24;
    l.at = 120.0;
    for i in 0..24 {
        let t = 5.0 * (i + 1) as f64;
        l.history.push_back((t, 3.0 * (1.0 - (-t / 60.0f64).exp())));
        l.queue_history.push_back((t, (i % 5) as f64 + 1.0));
    }
    l.switches_per_second = 9_400.0;
    l.process_share = Some(0.98);
    l.engines[2] = EngineLoad {
        share: 0.62,
        work_per_cpu_second: 4_100_000.0,
        active: true,
    };
    for game in 0..9 {
        for side in 0..2 {
            let v = if side == 0 { 0.11 } else { 0.0 };
            l.seats.push(SeatLoad {
                game,
                side,
                avg: LoadAvg::from_values([v, v / 2.0, v / 4.0]),
                last_share: v,
            });
        }
    }
    a.update(Message::LoadSampled(Box::new(l)), Instant::now());
    a
}

#[test]
fn the_load_tab_shows_its_numbers_whole_at_120x50() {
    let a = loaded_app();
    let t = text(&render(&a, 120, 50));
    for want in [
        "run queue  1m 3.52  5m 1.20  15m 0.44",
        "ready now 4, peak 5 · 9.4k switch/s",
        "process cpu 98% of a core",
        "MCTS   62.0  4.1M it/s",
        // 0.11 / 4 in the kernel's fixed point (11 bits) reads 2.7; a
        // panel beside the boxes has a line a seat.
        "G1  O MCTS 11.0  5.5  2.7",
        "G9  X NEGA  0.0  0.0  0.0",
    ] {
        assert!(t.contains(want), "missing {want:?}:\n{t}");
    }
    // The chart, with its axes labelled.
    assert!(t.contains("run queue, last 10 min"), "{t}");
    assert!(t.contains("min ago"), "{t}");
    let x_axis = t.lines().find(|l| l.contains("-10")).expect("x labels");
    let end = x_axis.trim_end_matches(['│', ' ']);
    assert!(x_axis.contains("-5") && end.ends_with('0'), "{x_axis}");
    // The y scale runs from 0 to the largest ready count, 5.
    for label in ["│5  │", "│2.5│", "│0  │"] {
        assert!(t.contains(label), "y label {label:?}:\n{t}");
    }
}

#[test]
fn the_load_tab_fits_80x24_and_scrolls_to_every_seat() {
    let mut a = loaded_app();
    let first = text(&render(&a, 80, 24));
    assert!(
        first.contains("run queue  1m 3.52  5m 1.20  15m 0.44"),
        "{first}"
    );
    assert!(first.contains("↓ j/k more"), "{first}");
    // Every seat is reachable by scrolling, each line whole.
    let mut seen = String::new();
    for _ in 0..40 {
        seen.push_str(&text(&render(&a, 80, 24)));
        // As the renderer does: the screen says how far the tab scrolls.
        let room = kxo_tui::ui::scroll_room(&a, ratatui::layout::Rect::new(0, 0, 80, 24));
        let now = Instant::now();
        let measured = Message::Measured {
            fits: None,
            scroll_room: room,
        };
        a.update(measured, now);
        let scroll = Message::Input {
            action: Some(Action::Scroll(1)),
            column_key: None,
        };
        a.update(scroll, now);
    }
    // (At 80x24 the panel is below the boxes, the whole width: a line a
    // game.)
    for g in 1..=9 {
        let want = format!("Game-{g:<2} MCTS 11.0  5.5  2.7  NEGA  0.0  0.0  0.0");
        assert!(seen.contains(&want), "never showed {want:?}");
    }
}
