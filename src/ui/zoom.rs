//! One game zoomed: the board as large as the grid allows, and beside it
//! (or below) the engines, whose move it is or the result, the search in
//! progress and the whole record.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};

use super::board;
use super::game_box::thinking_lines;
use super::layout::{BoardStyle, board_size};
use super::{result_of, result_text};
use crate::app::{App, GameStatus, GameView};

/// A space the line wrap does not break at.
const NBSP: &str = "\u{a0}";

/// Columns the side panel wants beside the board.
const INFO_WIDTH: u16 = 26;

/// The zoom's area: the grid, or the grid with the tab panel below it
/// when the board needs those lines to be shown whole (a game of the show
/// begun before the terminal shrank).
pub(super) fn area(game: &GameView, grid: Rect, tabs: Rect) -> Rect {
    let n = game.pos.rules().size() as u16;
    let needs = board_size(BoardStyle::Compact, n).1 + 2;
    let panel_below = tabs.x == grid.x && tabs.width == grid.width && tabs.y == grid.bottom();
    if needs > grid.height && panel_below {
        grid.union(tabs)
    } else {
        grid
    }
}

pub(super) fn draw(frame: &mut Frame, app: &App, game: &GameView, area: Rect) {
    let c = app.config().color;
    let n = game.pos.rules().size();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .border_style(c.accent())
        .title(Line::from(Span::styled(
            match &app.config().show {
                Some(_) => format!(
                    "Game-{} {} (Esc or a click: all games)",
                    game.index + 1,
                    super::game_box::board_name(game.pos.rules())
                ),
                None => format!("Game-{} (Esc or a click: all games)", game.index + 1),
            },
            Style::default().add_modifier(Modifier::BOLD),
        )));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let (cw, ch) = board_size(BoardStyle::Compact, n as u16);
    if cw > inner.width || ch > inner.height {
        // Even the smallest drawing would be cut short: say so instead.
        let notice = format!(
            "{}: too big for this screen; a larger terminal shows it",
            super::game_box::board_name(game.pos.rules())
        );
        frame.render_widget(
            Paragraph::new(Span::styled(notice, c.dim())).wrap(Wrap { trim: true }),
            inner,
        );
        return;
    }
    // The largest board that leaves room for the panel, beside or below.
    let fits = |style: BoardStyle| {
        let (w, h) = board_size(style, n as u16);
        (w + INFO_WIDTH <= inner.width && h <= inner.height)
            || (w <= inner.width && h + 6 <= inner.height)
    };
    let style = [BoardStyle::Large, BoardStyle::Full, BoardStyle::Compact]
        .into_iter()
        .find(|&s| fits(s))
        .unwrap_or(BoardStyle::Compact);
    let (bw, bh) = board_size(style, n as u16);
    let marks = super::game_box::marks(game);
    let board_area = Rect::new(inner.x, inner.y, bw.min(inner.width), bh.min(inner.height));
    frame.render_widget(
        Paragraph::new(board::lines(&game.pos, style, c, marks)),
        board_area,
    );
    let info = if bw + INFO_WIDTH <= inner.width {
        Rect::new(
            inner.x + bw + 2,
            inner.y,
            inner.width - bw - 2,
            inner.height,
        )
    } else {
        let top = inner.y + bh.min(inner.height);
        Rect::new(inner.x, top, inner.width, inner.bottom() - top)
    };
    frame.render_widget(
        Paragraph::new(info_lines(app, game)).wrap(Wrap { trim: false }),
        info,
    );
}

/// The panel: engines, state, search, messages, record.
pub(super) fn info_lines(app: &App, game: &GameView) -> Vec<Line<'static>> {
    let c = app.config().color;
    let rules = game.pos.rules();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![
        Line::from(vec![
            Span::styled(
                format!("{} ", game.pos.rules().side_mark(kxo_engine::Player::O)),
                c.o_style(),
            ),
            Span::styled(game.labels[0].clone(), bold),
            Span::raw("  vs  "),
            Span::styled(
                format!("{} ", game.pos.rules().side_mark(kxo_engine::Player::X)),
                c.x_style(),
            ),
            Span::styled(game.labels[1].clone(), bold),
        ]),
        Line::from(""),
    ];
    let state = match &game.status {
        GameStatus::Playing => {
            format!("{} to move", game.pos.rules().side_name(game.pos.to_move()))
        }
        GameStatus::Over { .. } => result_of(game),
        GameStatus::Failed(why) => format!("failed: {why}"),
    };
    lines.push(Line::from(Span::styled(state, c.warn())));
    if let Some((loser, loss)) = &game.forfeit {
        lines.push(Line::from(Span::styled(
            format!("{} {}", game.pos.rules().side_name(*loser), loss.phrase()),
            c.error(),
        )));
    }
    if let Some(t) = game
        .thinking
        .as_ref()
        .filter(|_| game.status == GameStatus::Playing)
    {
        lines.extend(thinking_lines(c, t, 16, usize::MAX, game.pos.rules()));
        if let Some(threat) = t.info.threat {
            let moves: Vec<String> = threat.line().map(|cell| rules.cell_name(cell)).collect();
            let more = if threat.kind == kxo_engine::ThreatKind::Vct {
                " …"
            } else {
                ""
            };
            lines.push(Line::from(Span::styled(
                format!("{}: {}{more}", threat.title(), moves.join(" ")),
                c.accent(),
            )));
        }
        lines.push(Line::from(Span::styled(
            format!(
                "{} searched so far",
                super::game_box::si(t.info.work as f64)
            ),
            c.dim(),
        )));
    }
    if let Some((side, said)) = &game.brain_says {
        lines.push(Line::from(Span::styled(
            format!("{side} says: {said}"),
            c.dim(),
        )));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        format!("Record ({} moves)", game.record.moves.len()),
        bold,
    )));
    // "1. B2 C3" per move pair, as many as fit on a line each. Within a
    // pair the spaces are non-breaking, so the wrap never leaves a move
    // number at the end of a line and its moves on the next.
    let pairs: Vec<String> = game
        .record
        .moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let names: Vec<String> = pair.iter().map(|&m| rules.cell_name(m)).collect();
            format!("{}.{NBSP}{}", i + 1, names.join(NBSP))
        })
        .collect();
    lines.push(Line::from(pairs.join("   ")));
    if let Some((labels, outcome)) = &game.previous {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            format!(
                "previous game: {} vs {}, {}",
                labels[0],
                labels[1],
                result_text(game.pos.rules(), *outcome)
            ),
            c.dim(),
        )));
    }
    lines
}
