//! The logo, coloured as lolcat does.

use ratatui::text::{Line, Span};

use super::palette::ColorMode;

pub const LOGO: &str = include_str!("../../assets/logo.txt");

/// lolcat's rainbow at index `i`: `sin(0.1 i + phase) * 127 + 128` for
/// phases 0, 2π/3 and 4π/3.
pub fn rainbow(i: f64) -> (u8, u8, u8) {
    use std::f64::consts::PI;
    let channel = |phase: f64| ((0.1 * i + phase).sin() * 127.0 + 128.0) as u8;
    (
        channel(0.0),
        channel(2.0 * PI / 3.0),
        channel(4.0 * PI / 3.0),
    )
}

/// The colour index of the character at (`line`, `column`): `line + column / 3`.
pub fn rainbow_index(line: usize, column: usize) -> f64 {
    (line + column / 3) as f64
}

pub fn width() -> u16 {
    LOGO.lines().map(|l| l.chars().count()).max().unwrap_or(0) as u16
}

pub fn height() -> u16 {
    LOGO.lines().count() as u16
}

/// The logo as styled lines, one span per character.
pub fn lines(mode: ColorMode) -> Vec<Line<'static>> {
    LOGO.lines()
        .enumerate()
        .map(|(row, text)| {
            let spans: Vec<Span> = text
                .chars()
                .enumerate()
                .map(|(col, ch)| {
                    let (r, g, b) = rainbow(rainbow_index(row, col));
                    let style = match mode.rgb(r, g, b) {
                        Some(color) => ratatui::style::Style::default().fg(color),
                        None => ratatui::style::Style::default(),
                    };
                    Span::styled(ch.to_string(), style)
                })
                .collect();
            Line::from(spans)
        })
        .collect()
}
