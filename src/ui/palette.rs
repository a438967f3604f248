//! Colours, or none: truecolour, 256 colours, or plain text under NO_COLOR.

use ratatui::style::{Color, Modifier, Style};

/// The mode is a display preference kept in the app's config; its styles
/// live here, with the rest of the look.
pub use crate::app::ColorMode;

impl ColorMode {
    /// From the environment: NO_COLOR (any non-empty value) wins, then
    /// COLORTERM for truecolour, then TERM.
    pub fn detect() -> ColorMode {
        let var = |k: &str| std::env::var(k).unwrap_or_default();
        ColorMode::from_env(&var("NO_COLOR"), &var("COLORTERM"), &var("TERM"))
    }

    pub fn from_env(no_color: &str, colorterm: &str, term: &str) -> ColorMode {
        if !no_color.is_empty() || term == "dumb" || term.is_empty() {
            ColorMode::None
        } else if matches!(colorterm, "truecolor" | "24bit") {
            ColorMode::TrueColor
        } else {
            ColorMode::Indexed256
        }
    }

    /// An RGB colour in this mode (the nearest of 256 in 256-colour mode).
    pub fn rgb(self, r: u8, g: u8, b: u8) -> Option<Color> {
        match self {
            ColorMode::TrueColor => Some(Color::Rgb(r, g, b)),
            ColorMode::Indexed256 => Some(Color::Indexed(ansi256(r, g, b))),
            ColorMode::None => None,
        }
    }

    /// A style with foreground `color`, or plain under no colour.
    pub fn fg(self, color: Color) -> Style {
        match self {
            ColorMode::None => Style::default(),
            _ => Style::default().fg(color),
        }
    }

    pub fn o_style(self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }
    pub fn x_style(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
    pub fn dim(self) -> Style {
        match self {
            ColorMode::None => Style::default(),
            _ => Style::default().fg(Color::DarkGray),
        }
    }
    pub fn accent(self) -> Style {
        self.fg(Color::Cyan)
    }
    pub fn warn(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }
    pub fn error(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }
}

/// The xterm 256-colour index nearest to an RGB colour (6x6x6 cube).
pub fn ansi256(r: u8, g: u8, b: u8) -> u8 {
    let level = |v: u8| -> u8 {
        if v < 48 {
            0
        } else if v < 115 {
            1
        } else {
            (v - 35) / 40
        }
    };
    16 + 36 * level(r) + 6 * level(g) + level(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_wins_over_everything() {
        assert_eq!(
            ColorMode::from_env("1", "truecolor", "xterm-256color"),
            ColorMode::None
        );
        assert_eq!(
            ColorMode::from_env("", "truecolor", "xterm"),
            ColorMode::TrueColor
        );
        assert_eq!(
            ColorMode::from_env("", "", "xterm-256color"),
            ColorMode::Indexed256
        );
        assert_eq!(ColorMode::from_env("", "", "dumb"), ColorMode::None);
    }

    #[test]
    fn cube_corners_map_to_their_indices() {
        assert_eq!(ansi256(0, 0, 0), 16);
        assert_eq!(ansi256(255, 255, 255), 231);
        assert_eq!(ansi256(255, 0, 0), 196);
        assert_eq!(ansi256(0, 255, 0), 46);
    }
}
