//! The logo (`assets/logo.txt`: "kxo" in solid blocks, which every
//! terminal font draws whole, where shaded blocks dither), coloured as
//! lolcat does: a rainbow that runs once across its full width, drifting a
//! little every second unless animation is off. Without UTF-8 it is drawn
//! with `#`.

use ratatui::text::{Line, Span};

use super::palette::ColorMode;

pub const LOGO: &str = include_str!("../../assets/logo.txt");

/// Columns per colour step along a line (lolcat's `--spread`).
const SPREAD: f64 = 3.0;
/// Colour steps the rainbow drifts each second when animated: slow, as
/// `lolcat -a` is.
pub const DRIFT_PER_SECOND: f64 = 0.5;

/// Radians per colour step: one whole rainbow across the logo's width.
fn frequency() -> f64 {
    std::f64::consts::TAU * SPREAD / width().max(1) as f64
}

/// lolcat's rainbow at index `i`: `sin(f i + phase) * 127 + 128` for
/// phases 0, 2π/3 and 4π/3, with `f` such that the logo's width spans the
/// whole circle.
pub fn rainbow(i: f64) -> (u8, u8, u8) {
    use std::f64::consts::PI;
    let f = frequency();
    let channel = |phase: f64| ((f * i + phase).sin() * 127.0 + 128.0) as u8;
    (
        channel(0.0),
        channel(2.0 * PI / 3.0),
        channel(4.0 * PI / 3.0),
    )
}

/// The colour index of the character at (`line`, `column`):
/// `line + column / spread`, as lolcat.
pub fn rainbow_index(line: usize, column: usize) -> f64 {
    line as f64 + column as f64 / SPREAD
}

pub fn width() -> u16 {
    LOGO.lines().map(|l| l.chars().count()).max().unwrap_or(0) as u16
}

pub fn height() -> u16 {
    LOGO.lines().count() as u16
}

/// Whether the terminal's locale is UTF-8 (`LC_ALL`, else `LC_CTYPE`,
/// else `LANG`, as the C library reads them).
pub fn utf8_locale() -> bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .unwrap_or_default()
        .to_ascii_lowercase();
    locale.contains("utf-8") || locale.contains("utf8")
}

/// The logo as styled lines, one span per character, the rainbow moved
/// on by `drift` colour steps; `#` for the blocks without UTF-8.
pub fn lines(mode: ColorMode, drift: f64, utf8: bool) -> Vec<Line<'static>> {
    LOGO.lines()
        .enumerate()
        .map(|(row, text)| {
            let spans: Vec<Span> = text
                .chars()
                .map(|ch| if utf8 || ch == ' ' { ch } else { '#' })
                .enumerate()
                .map(|(col, ch)| {
                    let (r, g, b) = rainbow(rainbow_index(row, col) + drift);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logo_is_solid_blocks_or_hashes() {
        assert!(LOGO.chars().all(|c| matches!(c, '█' | ' ' | '\n')));
        let plain: String = lines(ColorMode::None, 0.0, false)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert!(plain.is_ascii() && plain.contains('#'));
    }

    #[test]
    fn one_line_of_the_logo_spans_the_whole_rainbow() {
        // Along the top line, each channel reaches near its top and bottom.
        let w = width() as usize;
        let colours: Vec<(u8, u8, u8)> = (0..w).map(|c| rainbow(rainbow_index(0, c))).collect();
        for channel in 0..3 {
            let values: Vec<u8> = colours
                .iter()
                .map(|&(r, g, b)| [r, g, b][channel])
                .collect();
            let (lo, hi) = (values.iter().min().unwrap(), values.iter().max().unwrap());
            assert!(*lo < 40 && *hi > 215, "channel {channel}: {lo}..{hi}");
        }
    }
}
