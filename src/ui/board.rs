//! A board as styled text lines, with column letters and row numbers.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::layout::BoardStyle;
use super::palette::ColorMode;
use crate::app::GameView;
use crate::game::{Cell, Player};

fn mark(game: &GameView, cell: Cell, c: ColorMode, empty: &'static str) -> Span<'static> {
    let (text, style) = match game.pos.at(cell) {
        Some(Player::O) => ("O", c.o_style()),
        Some(Player::X) => ("X", c.x_style()),
        None => (empty, c.dim()),
    };
    let style = if game.last_move == Some(cell) {
        // Reverse video shows the last move with or without colour.
        style.add_modifier(Modifier::REVERSED | Modifier::BOLD)
    } else {
        style
    };
    Span::styled(text, style)
}

pub fn lines(game: &GameView, style: BoardStyle, c: ColorMode) -> Vec<Line<'static>> {
    let n = game.pos.rules().size();
    let label = c.dim();
    let letters = (0..n).map(|i| (b'A' + i) as char);
    let mut out = Vec::new();
    match style {
        BoardStyle::Full => {
            let head: String = letters.map(|l| format!("   {l}")).collect();
            out.push(Line::from(Span::styled(head, label)));
            let rule = |left: &str, mid: &str, right: &str| {
                let mut s = String::from(" ");
                s.push_str(left);
                for i in 0..n {
                    s.push_str("───");
                    s.push_str(if i + 1 < n { mid } else { right });
                }
                Line::from(Span::styled(s, Style::default()))
            };
            out.push(rule("┌", "┬", "┐"));
            for r in 0..n {
                let mut spans = vec![Span::styled(format!("{}", r + 1), label), Span::raw("│")];
                for col in 0..n {
                    spans.push(Span::raw(" "));
                    spans.push(mark(game, Cell::from_row_col(r, col, n), c, " "));
                    spans.push(Span::raw(" │"));
                }
                out.push(Line::from(spans));
                out.push(if r + 1 < n {
                    rule("├", "┼", "┤")
                } else {
                    rule("└", "┴", "┘")
                });
            }
        }
        BoardStyle::Compact => {
            let head: String = letters.map(|l| format!(" {l}")).collect();
            out.push(Line::from(Span::styled(format!(" {head}"), label)));
            for r in 0..n {
                let mut spans = vec![Span::styled(format!("{} ", r + 1), label)];
                for col in 0..n {
                    spans.push(Span::raw(" "));
                    spans.push(mark(game, Cell::from_row_col(r, col, n), c, "·"));
                }
                out.push(Line::from(spans));
            }
        }
    }
    out
}
