//! The review's screen parts (human mode's `v`): the board at the
//! position stepped to, with the engine's best move there drawn faintly,
//! and a panel with the move played, the engine's value and best move,
//! a graph of the value over the game and the largest drops marked.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::layout::Marks;
use crate::app::App;
use crate::app::review::Review;
use kxo_engine::Player;

/// The board's marks at the position shown.
pub(super) fn marks(review: &Review, numbers: bool) -> Marks<'_> {
    let played = &review.moves[..review.at];
    let best = review.opinions[review.at].and_then(|o| o.best);
    Marks {
        last_move: played.last().copied(),
        winning_line: review.pos.winning_line().unwrap_or_default(),
        candidate: best
            .filter(|b| !b.is_pass())
            .map(|b| (b, review.pos.to_move())),
        numbers: numbers.then_some(played),
        ..Marks::default()
    }
}

/// A value for the first player, -1 to 1, as people read it: "+0.35 for
/// O" (the side it favours).
fn value_text(review: &Review, value: f32) -> String {
    let side = |p: Player| review.rules.side_name(p).to_string();
    match value {
        v if v.abs() < 0.005 => "even".to_string(),
        v if v > 0.0 => format!("+{v:.2} for {}", side(Player::O)),
        v => format!("+{:.2} for {}", -v, side(Player::X)),
    }
}

/// The panel's lines, for a panel `width` wide.
pub(super) fn panel_lines(app: &App, review: &Review, width: u16) -> Vec<Line<'static>> {
    let c = app.config().color;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let rules = review.rules;
    let total = review.moves.len();
    let mut lines = vec![Line::from(vec![
        Span::styled("Review ", bold),
        Span::raw(format!("position {} of {total}", review.at)),
    ])];
    let mistakes = review.mistakes();
    if review.at > 0 {
        let i = review.at - 1;
        let mover = review.position_at(i).to_move();
        let played = rules.cell_name(review.moves[i]);
        let mut text = format!("{}. {} played {played}", review.at, rules.side_name(mover));
        if let Some(best) = review.opinions[i].and_then(|o| o.best) {
            text.push_str(&format!(
                "; the engine would play {}",
                rules.cell_name(best)
            ));
        }
        lines.push(Line::from(text));
        if let Some(drop) = review.drop(i) {
            let mistake = mistakes.iter().any(|m| m.0 == i);
            let style = if mistake { c.warn() } else { Style::default() };
            let word = if mistake { " — a mistake" } else { "" };
            lines.push(Line::from(Span::styled(
                format!("it cost {drop:+.2}{word}"),
                style,
            )));
        }
    }
    lines.push(Line::from(match review.opinions[review.at] {
        Some(o) => {
            let best = o.best.map(|b| format!("; best {}", rules.cell_name(b)));
            format!(
                "value {}{}",
                value_text(review, o.value),
                best.unwrap_or_default()
            )
        }
        None => "value: thinking…".to_string(),
    }));
    lines.push(Line::from(""));
    let (graph, marks) = graph(review, &mistakes, width.saturating_sub(1) as usize);
    lines.push(Line::from(Span::styled(graph, c.accent())));
    lines.push(Line::from(Span::styled(marks, c.warn())));
    let worst: Vec<String> = mistakes
        .iter()
        .map(|&(i, d)| {
            format!(
                "{}. {} ({:+.2})",
                i + 1,
                rules.cell_name(review.moves[i]),
                -d
            )
        })
        .collect();
    let known = review.opinions.iter().flatten().count();
    let reading = known < review.opinions.len();
    lines.push(Line::from(match worst.is_empty() {
        true if reading => "largest drops: none yet".to_string(),
        true => "no move lost much".to_string(),
        false => format!("largest drops: {}", worst.join(", ")),
    }));
    if reading {
        lines.push(Line::from(Span::styled(
            format!(
                "reading the positions: {known} of {}",
                review.opinions.len()
            ),
            c.dim(),
        )));
    }
    lines.push(Line::from(Span::styled(
        "← → a move, ↑ ↓ start and end, # numbers, Esc back",
        c.dim(),
    )));
    lines
}

/// The value over the game as one row of bars (a position a column, or
/// several averaged when the game is longer than the panel is wide),
/// and below it `^` at the position shown and `!` after each mistake.
fn graph(review: &Review, mistakes: &[(usize, f32)], width: usize) -> (String, String) {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let positions = review.opinions.len();
    let per = positions.div_ceil(width.max(1)).max(1);
    let columns = positions.div_ceil(per);
    let mut bars = String::new();
    let mut marks = String::new();
    for col in 0..columns {
        let range = col * per..((col + 1) * per).min(positions);
        let known: Vec<f32> = review.opinions[range.clone()]
            .iter()
            .flatten()
            .map(|o| o.value)
            .collect();
        bars.push(match known.is_empty() {
            true => '·',
            false => {
                let mean = known.iter().sum::<f32>() / known.len() as f32;
                BARS[(((mean + 1.0) / 2.0) * 7.0).round().clamp(0.0, 7.0) as usize]
            }
        });
        let here = range.contains(&review.at);
        let mistake = mistakes.iter().any(|m| range.contains(&(m.0 + 1)));
        marks.push(match (here, mistake) {
            (true, _) => '^',
            (false, true) => '!',
            _ => ' ',
        });
    }
    (bars, marks)
}
