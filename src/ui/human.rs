//! Human mode's screen: one large board, a panel with whose move it is, the
//! messages, the hint and the score, and the tabs.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::board;
use super::layout::Marks;
use super::layout::{BoardStyle, MIN_HEIGHT, MIN_WIDTH, board_size, box_size};
use crate::app::{App, GameStatus};
use kxo_engine::{Cell, Outcome};

const INFO_MIN_WIDTH: u16 = 26;
/// The panel's lines beside the board (sides, state, message, hint, score).
const INFO_LINES: u16 = 14;
const COMPACT_HEADER: u16 = 2;
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/// How often the spinner turns (the renderer draws that often while the
/// computer thinks).
pub const SPINNER_STEP: std::time::Duration = std::time::Duration::from_millis(100);

/// The spinner's frame at the state's time.
fn spinner_frame(app: &App) -> usize {
    let since = app.now().saturating_duration_since(app.started());
    (since.as_millis() / SPINNER_STEP.as_millis()) as usize
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HumanPlan {
    pub header: Rect,
    pub logo: bool,
    pub board_box: Rect,
    pub style: BoardStyle,
    pub info: Rect,
    pub tabs: Rect,
}

/// Where everything goes; `None` when the terminal is too small. The
/// board comes first, as large as the terminal allows: the logo gives way
/// before it shrinks, and the panel and the tabs share the column beside
/// it (or, when it leaves no such column, the rows below).
pub fn plan(area: Rect, n: u16) -> Option<HumanPlan> {
    let (min_width, min_height) = min_size(n);
    if area.width < min_width || area.height < min_height {
        return None;
    }
    let logo_h = super::logo::height().max(COMPACT_HEADER);
    let beside = |header_h: u16, style: BoardStyle| {
        let (bw, _) = box_size(style, n);
        let y = area.y + header_h;
        let rest = area.height - header_h;
        let column = area.width.saturating_sub(bw);
        // The panel as tall as its lines want, the tabs below it.
        let info_h = INFO_LINES.min(rest / 2);
        HumanPlan {
            header: Rect::new(area.x, area.y, area.width, header_h),
            logo: header_h == logo_h,
            board_box: Rect::new(area.x, y, bw.min(area.width), rest),
            style,
            info: Rect::new(area.x + bw, y, column, info_h),
            tabs: Rect::new(area.x + bw, y + info_h, column, rest - info_h),
        }
    };
    for style in [BoardStyle::Large, BoardStyle::Full, BoardStyle::Compact] {
        for header_h in [logo_h, COMPACT_HEADER] {
            let (bw, bh) = box_size(style, n);
            if bw + INFO_MIN_WIDTH <= area.width && header_h + bh <= area.height {
                return Some(beside(header_h, style));
            }
        }
    }
    // No column beside even a compact board: the panel below it.
    let (bw, bh) = box_size(BoardStyle::Compact, n);
    let y = area.y + COMPACT_HEADER;
    let rest = area.height - COMPACT_HEADER;
    let bh = bh.min(rest);
    Some(HumanPlan {
        header: Rect::new(area.x, area.y, area.width, COMPACT_HEADER),
        logo: false,
        board_box: Rect::new(area.x, y, bw.min(area.width), bh),
        style: BoardStyle::Compact,
        info: Rect::new(
            area.x + bw.min(area.width),
            y,
            area.width.saturating_sub(bw),
            bh,
        ),
        tabs: Rect::new(area.x, y + bh, area.width, rest - bh),
    })
}

/// The smallest terminal that shows an `n` x `n` board whole (the compact
/// board under a one-line header): a board cut short would hide cells.
pub fn min_size(n: u16) -> (u16, u16) {
    let (bw, bh) = box_size(BoardStyle::Compact, n);
    (MIN_WIDTH.max(bw), MIN_HEIGHT.max(COMPACT_HEADER + bh))
}

/// Top-left corner of the board drawing inside its box.
fn board_origin(plan: &HumanPlan, n: u16) -> (u16, u16) {
    let inner = Block::default().borders(Borders::ALL).inner(plan.board_box);
    let (bw, _) = board_size(plan.style, n);
    (inner.x + inner.width.saturating_sub(bw) / 2, inner.y)
}

/// Where `cell` is drawn on a screen of size `area` (for tests and tools
/// that click on the board).
pub fn cell_rect(area: Rect, size: u8, cell: Cell) -> Option<Rect> {
    let plan = plan(area, size as u16)?;
    let (ox, oy) = board_origin(&plan, size as u16);
    board::cell_rects(plan.style, size, ox, oy)
        .get(cell.index())
        .copied()
}

/// The cell under a mouse click at (`x`, `y`) on a screen of size `area`.
pub fn cell_at(app: &App, area: Rect, x: u16, y: u16) -> Option<Cell> {
    let n = app.config().rules.size();
    let plan = plan(area, n as u16)?;
    let (ox, oy) = board_origin(&plan, n as u16);
    let inner = Block::default().borders(Borders::ALL).inner(plan.board_box);
    board::cell_rects(plan.style, n, ox, oy)
        .iter()
        .position(|r| r.contains((x, y).into()) && inner.contains((x, y).into()))
        .map(Cell::from_index)
}

pub fn draw(frame: &mut Frame, app: &App, chrome: &super::Chrome, area: Rect) {
    let n = app.config().rules.size() as u16;
    let (Some(plan), Some(human)) = (plan(area, n), app.human()) else {
        super::draw_too_small(frame, area, min_size(n));
        return;
    };
    let c = app.config().color;
    super::draw_header(frame, app, chrome, plan.header, plan.logo, None);
    let game = &app.games()[0];
    let computer = game.labels[human.side.other().index()].as_str();
    let (o, x) = if human.side == kxo_engine::Player::O {
        ("YOU", computer)
    } else {
        (computer, "YOU")
    };

    // The board: the game's, or the position a review shows.
    let review = human.review.as_ref();
    let shown = review.map_or(&game.pos, |r| &r.pos);
    let winning_line = game.pos.winning_line().unwrap_or_default();
    // A game loaded over (`--load`) is no game of the session's: still 1.
    let number = (human.history.len()
        + usize::from(game.status == GameStatus::Playing || human.marking))
    .max(1);
    let title = match review {
        Some(r) => format!(
            "Review of Game-{number}: move {} of {}",
            r.at,
            r.moves.len()
        ),
        None => format!("Game-{number}"),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(c.dim())
        .title(Line::from(Span::styled(
            title,
            Style::default().add_modifier(Modifier::BOLD),
        )))
        .title_bottom(Line::from(format!("{o} vs {x}")).centered());
    frame.render_widget(block, plan.board_box);
    let marks = review.map(|r| super::review::marks(r, human.numbers));
    let marks = marks.unwrap_or(Marks {
        last_move: game.last_move,
        cursor: (game.status == GameStatus::Playing || human.marking).then_some(human.cursor),
        winning_line,
        dead: game.dead,
        numbers: human.numbers.then_some(game.record.moves.as_slice()),
        ..Marks::default()
    });
    let (ox, oy) = board_origin(&plan, n);
    let (bw, bh) = board_size(plan.style, n);
    let inner = Block::default().borders(Borders::ALL).inner(plan.board_box);
    let board_area = Rect::new(
        ox,
        oy,
        bw.min(inner.right().saturating_sub(ox)),
        bh.min(inner.height),
    );
    frame.render_widget(
        Paragraph::new(board::lines(shown, plan.style, c, marks)),
        board_area,
    );

    let info = Rect::new(
        plan.info.x + 1,
        plan.info.y + 1,
        plan.info.width.saturating_sub(2),
        plan.info.height.saturating_sub(1),
    );
    let mut lines = match review {
        Some(r) => super::review::panel_lines(app, r, info.width),
        None => panel_lines(app, human, computer, n),
    };
    if let (Some(_), Some(m)) = (review, &human.message) {
        lines.push(Line::from(Span::styled(m.clone(), c.warn())));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), info);
    if plan.tabs.height >= 3 {
        super::draw_tabs(frame, app, plan.tabs);
    }
    if app.help() {
        super::draw_help(frame, app, area);
    }
}

/// The panel beside the board: sides, the game's state, what is typed, the
/// message and hint, the score and the keys.
fn panel_lines<'a>(
    app: &'a App,
    human: &'a crate::app::human::HumanState,
    computer: &'a str,
    n: u16,
) -> Vec<Line<'a>> {
    let c = app.config().color;
    let game = &app.games()[0];
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![
        Line::from(vec![
            Span::raw("You play "),
            Span::styled(
                game.pos.rules().side_name(human.side).to_string(),
                if human.side == kxo_engine::Player::O {
                    c.o_style()
                } else {
                    c.x_style()
                },
            ),
            Span::raw(format!(" against {computer}")),
        ]),
        Line::from(""),
    ];
    let status = match &game.status {
        _ if human.marking => Line::from(Span::styled(
            format!(
                "Mark the dead stones: the count is {}",
                game.go_count().map(|s| s.text()).unwrap_or_default()
            ),
            c.warn(),
        )),
        GameStatus::Playing if app.computer_thinking() => Line::from(Span::styled(
            format!("thinking… {}", SPINNER[spinner_frame(app) % SPINNER.len()]),
            c.accent(),
        )),
        GameStatus::Playing => Line::from(Span::styled("Your move", bold)),
        GameStatus::Over { .. } => {
            let text = match game.outcome() {
                Outcome::Win(p) if p == human.side => "You win!",
                Outcome::Win(_) => "The computer wins.",
                _ => "Draw.",
            };
            let why = match &game.forfeit {
                Some((loser, crate::app::Loss::Time)) if *loser == human.side => {
                    " (you lost on time)".to_string()
                }
                Some((loser, _)) if *loser == human.side => " (you resigned)".to_string(),
                Some((_, loss)) => format!(" (the computer {})", loss.phrase()),
                None => String::new(),
            };
            // Go says by how much: "The computer wins. W+7.5".
            let count = match game.pos.rules().is_go() {
                true => format!(" {}", super::result_of(game)),
                false => String::new(),
            };
            Line::from(Span::styled(format!("{text}{why}{count}"), c.warn()))
        }
        GameStatus::Failed(msg) => Line::from(Span::styled(format!("FAILED: {msg}"), c.error())),
    };
    lines.push(status);
    lines.extend(clock_line(app, human, computer));
    if human.marking {
        lines.push(Line::from(
            "Enter or click on a chain: dead (• ◦) or alive; p accepts the count; u undoes",
        ));
    } else if matches!(game.status, GameStatus::Over { .. }) {
        lines.push(Line::from("N or Enter: new game, sides swapped"));
    }
    if !human.typed.is_empty() {
        lines.push(Line::from(vec![
            Span::raw("typing: "),
            Span::styled(format!("{}_", human.typed), bold),
        ]));
    }
    if let Some(m) = &human.message {
        lines.push(Line::from(Span::styled(m.clone(), c.warn())));
    }
    if let Some(h) = &human.hint {
        lines.push(Line::from(Span::styled(h.clone(), c.accent())));
    }
    let s = human.score;
    lines.push(Line::from(""));
    lines.push(Line::from(vec![
        Span::styled("Score ", bold),
        Span::raw(format!(
            "you {}  computer {}  draws {}",
            s.person, s.computer, s.draws
        )),
    ]));
    lines.push(Line::from(""));
    let example = if n >= 8 { "h8" } else { "b3" };
    lines.push(Line::from(Span::styled(
        format!("arrows/hjkl move, Enter/Space place, {example} Enter, click"),
        c.dim(),
    )));
    // The session's keys, from the key map (the header's bar may be cut).
    let keys: Vec<String> = crate::app::keymap::key_bar(true)
        .into_iter()
        .filter(|(key, _)| ["t", "u", "n"].contains(key))
        .map(|(key, what)| format!("{key} {what}"))
        .collect();
    lines.push(Line::from(Span::styled(keys.join("  "), c.dim())));
    lines
}

/// The game clocks (`--tc`), the running one in bold: "Clock you 4:32
/// MCTS 4:58".
fn clock_line<'a>(
    app: &App,
    human: &crate::app::human::HumanState,
    computer: &str,
) -> Option<Line<'a>> {
    let clock = human.clock.as_ref()?;
    let (now, c) = (app.now(), app.config().color);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let side = |p: kxo_engine::Player, who: &str| {
        let text = format!(
            "{who} {}",
            crate::app::human_clock::clock_text(clock.left(p, now))
        );
        match clock.running() == Some(p) {
            true => Span::styled(text, bold),
            false => Span::styled(text, c.dim()),
        }
    };
    Some(Line::from(vec![
        Span::styled("Clock ", bold),
        side(human.side, "you"),
        Span::raw("  "),
        side(human.side.other(), computer),
    ]))
}

/// The Records tab's lines in human mode: the session's games.
pub fn record_lines(app: &App) -> Vec<Line<'static>> {
    let Some(human) = app.human() else {
        return Vec::new();
    };
    let c = app.config().color;
    let game = &app.games()[0];
    let label = |person: kxo_engine::Player| {
        let computer = &game.labels[person.other().index()];
        if person == kxo_engine::Player::O {
            format!("YOU vs {computer}")
        } else {
            format!("{computer} vs YOU")
        }
    };
    let mut lines: Vec<Line> = human
        .history
        .iter()
        .enumerate()
        .map(|(i, played)| {
            let result = match played.record.outcome {
                Outcome::Win(p) if p == played.person => "you won",
                Outcome::Win(_) => "the computer won",
                _ => "draw",
            };
            Line::from(vec![
                Span::styled(
                    format!("Game-{:<3}", i + 1),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(
                    "{}  {}  ",
                    label(played.person),
                    played.record.notation()
                )),
                Span::styled(result, c.warn()),
            ])
        })
        .collect();
    // The game on the board, while it is played (or loaded over).
    let loaded_over = human.history.is_empty() && !game.record.moves.is_empty();
    if game.status == GameStatus::Playing || loaded_over {
        let moves = game.record.notation();
        lines.push(Line::from(vec![
            Span::styled(
                format!("Game-{:<3}", human.history.len() + 1),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!(
                "{}  {}",
                label(human.side),
                if moves.is_empty() {
                    "(no moves yet)".into()
                } else {
                    moves
                }
            )),
        ]));
    }
    lines
}
