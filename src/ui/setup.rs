//! Human mode's start screen: the game, the side and the level, each a row
//! whose value the arrows turn; Enter starts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Paragraph, Wrap};

use crate::app::App;
use crate::app::setup::{BOARDS, Setup};

/// The start screen's lines.
pub(super) fn lines(app: &App, setup: &Setup) -> Vec<Line<'static>> {
    let c = app.config().color;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let choice = setup.choice;
    let row = |i: usize, label: &str, value: String, about: Option<String>| {
        let chosen = setup.row == i;
        let marker = if chosen { "▶ " } else { "  " };
        let value_style = if chosen {
            bold.add_modifier(Modifier::REVERSED)
        } else {
            bold
        };
        let mut out = vec![Line::from(vec![
            Span::styled(marker, c.accent()),
            Span::styled(format!("{label:<10}"), c.dim()),
            Span::styled(format!("‹ {value} ›"), value_style),
        ])];
        if let Some(about) = about {
            out.push(Line::from(Span::styled(
                format!("            {about}"),
                c.dim(),
            )));
        }
        out.push(Line::from(""));
        out
    };
    let board = choice.board();
    let side_name = choice.rules().side_name(choice.side);
    let side = match choice.side {
        kxo_engine::Player::O => format!("{side_name} (you move first)"),
        kxo_engine::Player::X => format!("{side_name} (the computer moves first)"),
    };
    let level_about = choice.level.about(&board);
    let mut out = vec![
        Line::from(Span::styled("Play against the computer", bold)),
        Line::from(""),
    ];
    out.extend(row(
        0,
        "game",
        format!("{} ({}/{})", board.name, choice.board + 1, BOARDS.len()),
        Some(board.about.to_string()),
    ));
    out.extend(row(1, "you play", side, None));
    out.extend(row(
        2,
        "level",
        choice.level.label(&board).to_string(),
        Some(level_about.to_string()),
    ));
    out.push(Line::from(vec![
        Span::styled("↑↓", c.accent()),
        Span::raw(" choose a row   "),
        Span::styled("←→", c.accent()),
        Span::raw(" change it   "),
        Span::styled("Enter", c.accent()),
        Span::raw(" play   "),
        Span::styled("Ctrl-Q", c.accent()),
        Span::raw(" quit"),
    ]));
    out.push(Line::from(Span::styled(
        "(kept for next time; --size, --goal, --gomoku, --go, --level or --ai skip this screen)",
        c.dim(),
    )));
    out
}

/// Draws the start screen in `area` (below the header).
pub(super) fn draw(frame: &mut Frame, app: &App, setup: &Setup, area: Rect) {
    let c = app.config().color;
    let text = lines(app, setup);
    let w = area.width.min(84);
    let h = (text.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .border_style(c.accent())
        .title(Line::from(Span::styled(
            " kxo-tui: a game to play ",
            Style::default().add_modifier(Modifier::BOLD),
        )));
    frame.render_widget(
        Paragraph::new(text).block(block).wrap(Wrap { trim: false }),
        rect,
    );
}
