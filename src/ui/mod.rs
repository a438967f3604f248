//! The screen, drawn from the app state alone: nothing here changes it.

pub mod board;
pub mod human;
pub mod layout;
pub mod logo;
pub mod palette;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Row, Sparkline, Table, Tabs, Wrap};

use crate::app::{App, GameStatus, GameView, Tab};
use crate::game::{Outcome, Player};
use layout::{MIN_HEIGHT, MIN_WIDTH, Plan};

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if app.human.is_some() {
        human::draw(frame, app, area);
        return;
    }
    let n = app.config.rules.size() as u16;
    let Some(plan) = layout::plan(area, app.games.len(), n) else {
        draw_too_small(frame, area);
        return;
    };
    let hidden = app.games.len().saturating_sub(plan.boxes.len());
    draw_header(frame, app, plan.header, plan.logo, hidden);
    draw_grid(frame, app, &plan);
    if plan.tabs.height >= 3 {
        draw_tabs(frame, app, plan.tabs);
    }
    if app.help {
        draw_help(frame, app, area);
    }
}

pub(crate) fn draw_too_small(frame: &mut Frame, area: Rect) {
    let text = vec![
        Line::from(Span::styled(
            "Terminal too small",
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from(format!(
            "{}x{}: kxo-tui needs {MIN_WIDTH}x{MIN_HEIGHT}.",
            area.width, area.height
        )),
        Line::from("Enlarge the window,"),
        Line::from("or press Ctrl-Q to quit."),
    ];
    let height = (text.len() as u16).min(area.height);
    let y = area.y + area.height.saturating_sub(height) / 2;
    let rect = Rect::new(area.x, y, area.width, height);
    let paragraph = Paragraph::new(text)
        .alignment(Alignment::Center)
        .wrap(Wrap { trim: true });
    frame.render_widget(paragraph, rect);
}

fn status_spans(app: &App, hidden: usize) -> Vec<Span<'static>> {
    let c = app.config.color;
    let t = &app.totals;
    let state = if app.paused {
        Span::styled(" PAUSED ", c.warn().add_modifier(Modifier::REVERSED))
    } else {
        Span::styled("running", c.accent())
    };
    let shown = if hidden > 0 {
        format!(
            "  {} of {} games shown",
            app.games.len() - hidden,
            app.games.len()
        )
    } else {
        String::new()
    };
    vec![
        state,
        Span::styled(shown, c.warn()),
        Span::raw(format!(
            "  games {}  O {}  X {}  draws {}  {:.0} moves/s",
            t.finished, t.o_wins, t.x_wins, t.draws, app.rate.per_second
        )),
    ]
}

pub(crate) fn draw_header(frame: &mut Frame, app: &App, area: Rect, logo: bool, hidden: usize) {
    let c = app.config.color;
    let rules = app.config.rules;
    let title = format!(
        "kxo-tui  {}x{}, {} in a row",
        rules.size(),
        rules.size(),
        rules.goal()
    );
    if logo {
        let logo_w = logo::width() + 2;
        let [left, right] =
            Layout::horizontal([Constraint::Length(logo_w), Constraint::Min(0)]).areas(area);
        frame.render_widget(Paragraph::new(logo::lines(c)), left);
        let text = vec![
            Line::from(Span::styled(
                title,
                Style::default().add_modifier(Modifier::BOLD),
            )),
            Line::from(Span::styled(app.clock.clone(), c.accent())),
            Line::from(""),
            Line::from(status_spans(app, hidden)),
            Line::from(""),
            Line::from(Span::styled(
                "Q records  W load avg  Ctrl-P pause  ? help  Ctrl-Q quit",
                c.dim(),
            )),
        ];
        frame.render_widget(Paragraph::new(text), right);
    } else {
        let mut first = vec![
            Span::styled(title, Style::default().add_modifier(Modifier::BOLD)),
            Span::raw("  "),
            Span::styled(app.clock.clone(), c.accent()),
        ];
        if area.width >= 70 {
            first.push(Span::styled("   ? help  Ctrl-Q quit", c.dim()));
        }
        let text = vec![Line::from(first), Line::from(status_spans(app, hidden))];
        frame.render_widget(Paragraph::new(text), area);
    }
}

fn draw_grid(frame: &mut Frame, app: &App, plan: &Plan) {
    for (game, rect) in app.games.iter().zip(&plan.boxes) {
        draw_game(frame, app, game, *rect, plan.style);
    }
}

/// The result of a finished game, as the box and the Records tab say it.
pub fn result_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::O) => "O wins",
        Outcome::Win(Player::X) => "X wins",
        Outcome::Draw => "draw",
        Outcome::Ongoing => "",
    }
}

fn draw_game(frame: &mut Frame, app: &App, game: &GameView, rect: Rect, style: layout::BoardStyle) {
    let c = app.config.color;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let compact = style == layout::BoardStyle::Compact;
    let (o, x) = (game.engines[0].label(), game.engines[1].label());
    let engines = if compact {
        format!("{o}/{x}")
    } else {
        format!("{o} vs {x}")
    };
    // Top right: whose move, the result, or the failure; compact boxes put
    // the result in the bottom title instead of the engines.
    let (right, right_style, bottom) = match &game.status {
        GameStatus::Playing => {
            let side = game.pos.to_move();
            let text = if compact {
                format!("{side}")
            } else {
                format!("{side} to move")
            };
            (text, c.dim(), Span::raw(engines))
        }
        GameStatus::Over { .. } => {
            let result = result_text(game.outcome());
            if compact {
                (String::new(), c.warn(), Span::styled(result, c.warn()))
            } else {
                (result.to_string(), c.warn(), Span::raw(engines))
            }
        }
        GameStatus::Failed(_) => {
            let text = if compact { "FAIL" } else { "FAILED" };
            (
                text.to_string(),
                c.error().add_modifier(Modifier::REVERSED),
                Span::raw(engines),
            )
        }
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if matches!(game.status, GameStatus::Over { .. }) {
            c.warn()
        } else {
            c.dim()
        })
        .title(Line::from(Span::styled(
            format!("Game-{}", game.index + 1),
            bold,
        )))
        .title(Line::from(Span::styled(right, right_style)).right_aligned())
        .title_bottom(Line::from(bottom).centered());
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    let marks = board::Marks {
        last_move: game.last_move,
        ..board::Marks::default()
    };
    let lines = board::lines(&game.pos, style, c, marks);
    let (bw, bh) = layout::board_size(style, app.config.rules.size() as u16);
    let x = inner.x + inner.width.saturating_sub(bw) / 2;
    let area = Rect::new(x, inner.y, bw.min(inner.width), bh.min(inner.height));
    frame.render_widget(Paragraph::new(lines), area);
}

pub(crate) fn draw_tabs(frame: &mut Frame, app: &App, area: Rect) {
    let c = app.config.color;
    let selected = match app.tab {
        Tab::Records => 0,
        Tab::Load => 1,
    };
    let block = Block::default().borders(Borders::ALL).border_style(c.dim());
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    let [bar, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    let tabs = Tabs::new(vec!["Records [Q]", "Load avg [W]"])
        .select(selected)
        .style(c.dim())
        .highlight_style(Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED));
    frame.render_widget(tabs, bar);
    match app.tab {
        Tab::Records => draw_records(frame, app, body),
        Tab::Load => draw_load(frame, app, body),
    }
}

fn draw_records(frame: &mut Frame, app: &App, area: Rect) {
    if app.human.is_some() {
        let lines = human::record_lines(app);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
        return;
    }
    let c = app.config.color;
    let lines: Vec<Line> = app
        .games
        .iter()
        .map(|g| {
            let mut spans = vec![
                Span::styled(
                    format!("Game-{:<3}", g.index + 1),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
                Span::raw(format!(
                    "{} vs {}  ",
                    g.engines[0].label(),
                    g.engines[1].label()
                )),
            ];
            let moves = g.record.notation();
            spans.push(Span::raw(if moves.is_empty() {
                "(no moves yet)".to_string()
            } else {
                moves
            }));
            match &g.status {
                GameStatus::Over { .. } => spans.push(Span::styled(
                    format!("  {}", result_text(g.outcome())),
                    c.warn(),
                )),
                GameStatus::Failed(msg) => {
                    spans.push(Span::styled(format!("  FAILED: {msg}"), c.error()))
                }
                GameStatus::Playing => {}
            }
            if let Some((engines, outcome)) = g.previous {
                spans.push(Span::styled(
                    format!(
                        "  (previous: {} vs {}, {})",
                        engines[0].label(),
                        engines[1].label(),
                        result_text(outcome)
                    ),
                    c.dim(),
                ));
            }
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}

fn draw_load(frame: &mut Frame, app: &App, area: Rect) {
    let c = app.config.color;
    let load = &app.load;
    let rq = load.run_queue.values();
    let mut header_lines = vec![Line::from(vec![
        Span::styled("run queue ", Style::default().add_modifier(Modifier::BOLD)),
        Span::raw(format!("{:.2} {:.2} {:.2}", rq[0], rq[1], rq[2])),
        Span::styled(
            format!(
                "   cpu: seats {:.1}s  renderer {:.2}s  keyboard {:.3}s   samples {} (every 5 s)",
                load.cpu_seats.as_secs_f64(),
                load.cpu_renderer.as_secs_f64(),
                load.cpu_keyboard.as_secs_f64(),
                load.samples
            ),
            c.dim(),
        ),
    ])];
    if load.samples == 0 {
        header_lines.push(Line::from(Span::styled("first sample after 5 s…", c.dim())));
    }
    let spark_h = if area.height >= 12 { 3 } else { 0 };
    let [top, spark_area, table_area] = Layout::vertical([
        Constraint::Length(header_lines.len() as u16),
        Constraint::Length(spark_h),
        Constraint::Min(0),
    ])
    .areas(area);
    frame.render_widget(Paragraph::new(header_lines), top);
    if spark_h > 0 {
        let data: Vec<u64> = load
            .share_history
            .iter()
            .map(|v| (v * 100.0).round() as u64)
            .collect();
        let spark = Sparkline::default()
            .block(Block::default().title(Span::styled("engine load, last 10 min", c.dim())))
            .data(&data)
            .style(c.accent());
        frame.render_widget(spark, spark_area);
    }
    let rows: Vec<Row> = app
        .games
        .iter()
        .map(|g| {
            let seat = |side: usize| {
                let l = load
                    .seats
                    .iter()
                    .find(|s| s.game == g.index && s.side == side)
                    .map(|s| s.avg.values())
                    .unwrap_or_default();
                format!(
                    "{} {:.2} {:.2} {:.2}",
                    g.engines[side].label(),
                    l[0],
                    l[1],
                    l[2]
                )
            };
            Row::new(vec![format!("Game-{}", g.index + 1), seat(0), seat(1)])
        })
        .collect();
    let table = Table::new(
        rows,
        [
            Constraint::Length(9),
            Constraint::Length(22),
            Constraint::Length(22),
        ],
    )
    .header(
        Row::new(vec!["", "O  1m   5m   15m", "X  1m   5m   15m"])
            .style(Style::default().add_modifier(Modifier::BOLD)),
    );
    frame.render_widget(table, table_area);
}

pub(crate) fn draw_help(frame: &mut Frame, app: &App, area: Rect) {
    let c = app.config.color;
    let mut keys = vec![
        ("Q", "Records tab: each game's moves"),
        ("W", "Load avg tab: engine and scheduler load"),
        ("Ctrl-P", "pause / resume every game"),
        ("?", "show / hide this help"),
        ("Esc", "close this help"),
        ("Ctrl-Q, Ctrl-C", "quit"),
    ];
    if app.human.is_some() {
        keys.splice(
            0..0,
            [
                ("arrows, h j k l", "move the cursor"),
                ("Enter, Space", "place your mark at the cursor"),
                ("b3 Enter", "place at a typed cell"),
                ("mouse click", "place on the clicked cell"),
                ("u", "take back your move and the answer"),
                ("t", "hint: the perfect move and its value"),
                ("N, Enter", "after a game: new game, sides swapped"),
            ],
        );
    }
    let mut lines: Vec<Line> = keys
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(
                    format!("{k:>15}  "),
                    c.accent().add_modifier(Modifier::BOLD),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.insert(0, Line::from(""));
    let w = 60.min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .title(Line::from(" Keys ").centered());
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
