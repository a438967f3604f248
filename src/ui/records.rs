//! The Records tab: each game's moves in order ("B2 → C3 → A1"), its
//! result, its board when the screen mixes boards, and the game before.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::{game_box, result_of, result_text};
use crate::app::{App, GameStatus};

/// The tab's lines (human mode has its own: the session's games).
pub(super) fn lines(app: &App) -> Vec<Line<'static>> {
    if app.human().is_some() {
        return super::human::record_lines(app);
    }
    let c = app.config().color;
    let warning = app
        .config()
        .warning
        .iter()
        .map(|w| Line::from(Span::styled(format!("warning: {w}"), c.warn())));
    let lines: Vec<Line<'static>> = warning
        .chain(app.games().iter().map(|g| {
            let mut spans = vec![Span::styled(
                format!("Game-{:<3}", g.index + 1),
                Style::default().add_modifier(Modifier::BOLD),
            )];
            if app.config().show.is_some() {
                spans.push(Span::styled(
                    format!("{:<7}", game_box::board_name(g.pos.rules())),
                    c.dim(),
                ));
            }
            spans.push(Span::raw(format!("{} vs {}  ", g.labels[0], g.labels[1])));
            let moves = g.record.notation();
            spans.push(Span::raw(if moves.is_empty() {
                "(no moves yet)".to_string()
            } else {
                moves
            }));
            match &g.status {
                GameStatus::Over { .. } => {
                    spans.push(Span::styled(format!("  {}", result_of(g)), c.warn()))
                }
                GameStatus::Failed(msg) => {
                    spans.push(Span::styled(format!("  FAILED: {msg}"), c.error()))
                }
                GameStatus::Playing => {}
            }
            if let Some((loser, loss)) = &g.forfeit {
                spans.push(Span::styled(
                    format!("  ({} {})", g.pos.rules().side_name(*loser), loss.phrase()),
                    c.error(),
                ));
            }
            if let Some((side, said)) = &g.brain_says {
                spans.push(Span::styled(format!("  {side} says: {said}"), c.dim()));
            }
            if let Some((labels, outcome)) = &g.previous {
                spans.push(Span::styled(
                    format!(
                        "  (previous: {} vs {}, {})",
                        labels[0],
                        labels[1],
                        result_text(g.pos.rules(), *outcome)
                    ),
                    c.dim(),
                ));
            }
            Line::from(spans)
        }))
        .collect();
    lines
}
