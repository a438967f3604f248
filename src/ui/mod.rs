//! The screen, drawn from the app state alone: nothing here changes it.

mod board;
mod game_box;
mod goban;
pub mod human;
pub mod layout;
mod leaderboard;
mod load;
pub mod logo;
pub mod palette;
mod records;
mod review;
mod setup;
mod table;
mod zoom;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Tabs, Wrap};

use crate::app::keymap::{KEYMAP, in_scope, key_bar};
use crate::app::{App, Tab};
use kxo_engine::{Outcome, Player};
use layout::{MIN_HEIGHT, MIN_WIDTH, Plan};

/// What the renderer brings to each frame besides the state: the one
/// thing on screen that is not a function of it, the wall clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chrome {
    /// The header's clock: local time, then time since the start.
    pub clock: String,
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, chrome: &Chrome) {
    let area = frame.area();
    if let Some(setup) = &app.setup() {
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            draw_too_small(frame, area, (MIN_WIDTH, MIN_HEIGHT));
            return;
        }
        let logo = area.height >= 30 && area.width >= 80;
        let header_h = if logo { logo::height() } else { 2 };
        let header = Rect::new(area.x, area.y, area.width, header_h);
        draw_header(frame, app, chrome, header, logo, None);
        let rest = Rect::new(
            area.x,
            area.y + header_h,
            area.width,
            area.height - header_h,
        );
        setup::draw(frame, app, setup, rest);
        if app.help() {
            draw_help(frame, app, area);
        }
        return;
    }
    if app.human().is_some() {
        human::draw(frame, app, chrome, area);
        return;
    }
    let Some(view) = grid_view(app, area) else {
        draw_too_small(frame, area, layout::min_size(&app.board_sides()));
        return;
    };
    let plan = &view.plan;
    draw_header(frame, app, chrome, plan.header, plan.logo, Some(&view));
    if app.zoomed() {
        zoom::draw(
            frame,
            app,
            &app.games()[view.selected],
            zoom_area(app, &view),
        );
    } else {
        draw_grid(frame, app, &view);
    }
    if tabs_shown(app, &view) {
        draw_tabs(frame, app, plan.tabs);
    }
    if app.help() {
        draw_help(frame, app, area);
    }
}

/// Which games the grid shows on this screen: a page of them when they do
/// not all fit.
#[derive(Clone, Debug)]
pub struct GridView {
    pub plan: Plan,
    pub grid: Rect,
    /// The boxes of the games shown, from game `first` on.
    pub boxes: Vec<Rect>,
    pub first: usize,
    pub per_page: usize,
    pub columns: usize,
    pub page: usize,
    pub pages: usize,
    /// The selected game (clamped to the games there are).
    pub selected: usize,
}

/// The grid's view of `app` on a screen of `area` (live screen); `None`
/// when the screen is too small.
pub fn grid_view(app: &App, area: Rect) -> Option<GridView> {
    let games = app.games().len();
    let plan = layout::plan(area, games, &app.board_sides())?;
    let per_page = plan.boxes.len().max(1);
    let pages = games.div_ceil(per_page).max(1);
    let page = app.page().min(pages - 1);
    let first = page * per_page;
    let boxes = plan
        .boxes
        .iter()
        .copied()
        .take(games.saturating_sub(first))
        .collect();
    Some(GridView {
        grid: plan.grid,
        boxes,
        first,
        per_page,
        columns: plan.columns as usize,
        page,
        pages,
        selected: app.selected().min(games.saturating_sub(1)),
        plan,
    })
}

/// Where the zoomed game is drawn: the grid, or the grid with the tab
/// panel's lines when its board needs them (the panel then hidden).
pub fn zoom_area(app: &App, view: &GridView) -> Rect {
    zoom::area(&app.games()[view.selected], view.grid, view.plan.tabs)
}

/// Whether the tab panel shows: it has the lines, and no zoom covers it.
fn tabs_shown(app: &App, view: &GridView) -> bool {
    view.plan.tabs.height >= 2 && !(app.zoomed() && zoom_area(app, view).intersects(view.plan.tabs))
}

/// The tab whose title is at (`x`, `y`) on the live screen, if any.
pub fn tab_at(app: &App, area: Rect, x: u16, y: u16) -> Option<Tab> {
    let view = grid_view(app, area)?;
    let tabs = view.plan.tabs;
    if !tabs_shown(app, &view) {
        return None;
    }
    let bar = if tabs.height >= 5 {
        Rect::new(tabs.x + 1, tabs.y + 1, tabs.width.saturating_sub(2), 1)
    } else {
        Rect::new(tabs.x, tabs.y, tabs.width, 1)
    };
    if y != bar.y || x < bar.x {
        return None;
    }
    // As ratatui's Tabs draws them: " title " and a divider after each.
    let mut left = bar.x;
    for (tab, title) in Tab::ALL.into_iter().zip(tab_titles(bar.width)) {
        let right = left + title.chars().count() as u16 + 2;
        if x < right {
            return Some(tab);
        }
        left = right + 1;
    }
    None
}

/// The longest tab titles that fit `width`, one for each tab in its order
/// ([`Tab::titles`]): never one cut mid-word.
fn tab_titles(width: u16) -> [&'static str; Tab::ALL.len()] {
    let at = |length: usize| Tab::ALL.map(|t| t.titles()[length]);
    (0..3)
        .map(at)
        .find(|t| t.iter().map(|s| s.chars().count() + 3).sum::<usize>() <= width as usize + 1)
        .unwrap_or(at(3))
}

/// "Terminal too small", with the size that `needs` (width, height).
pub(crate) fn draw_too_small(frame: &mut Frame, area: Rect, needs: (u16, u16)) {
    let text = vec![
        Line::from(Span::styled(
            "Terminal too small",
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::from(format!(
            "{}x{}: kxo-tui needs {}x{}.",
            area.width, area.height, needs.0, needs.1
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

/// Spans that fit in `width` columns: each item whole or not at all, the
/// first always (cut by the terminal if it must be).
fn fit(items: Vec<Span<'static>>, width: u16) -> Line<'static> {
    let mut used = 0usize;
    let mut kept = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        let w = item.width();
        if i > 0 && used + w > width as usize {
            break;
        }
        used += w;
        kept.push(item);
    }
    Line::from(kept)
}

/// The status line: the state, what the view shows, (with `keys`, the
/// compact header's help and quit keys, which a narrow screen keeps
/// before the counts) and the counts.
fn status_spans(app: &App, view: Option<&GridView>, keys: bool) -> Vec<Span<'static>> {
    let c = app.config().color;
    let t = &app.totals();
    let finished = app.tournament().is_some_and(|t| t.finished());
    let state = if finished {
        Span::styled(
            "tournament finished: E ranking",
            c.warn().add_modifier(Modifier::BOLD),
        )
    } else if app.paused() {
        Span::styled(" PAUSED ", c.warn().add_modifier(Modifier::REVERSED))
    } else if app.setup().is_some() {
        Span::styled("choose below", c.accent())
    } else if app.human().is_some() {
        // The panel says whose move it is.
        Span::styled("playing", c.accent())
    } else {
        Span::styled("running", c.accent())
    };
    let mut items = vec![state];
    if app.config().warning.is_some() {
        items.push(Span::styled("  warning: see Records", c.warn()));
    }
    if let Some(view) = view.filter(|_| app.zoomed()) {
        items.push(Span::styled(
            format!("  Game-{} zoomed, Esc back", view.selected + 1),
            c.warn(),
        ));
    } else if let Some(view) = view.filter(|v| v.pages > 1) {
        items.push(Span::styled(
            // Short enough for a 40-column status line.
            format!("  page {}/{} PgUp/PgDn", view.page + 1, view.pages),
            c.warn(),
        ));
    }
    if keys {
        items.push(Span::styled("  ? help  Ctrl-Q quit", c.dim()));
    }
    let counts = match &app.human() {
        // Human mode counts for the person, whichever side they played.
        Some(h) => vec![
            format!("  you {}", h.score.person),
            format!("  computer {}", h.score.computer),
            format!("  draws {}", h.score.draws),
        ],
        None => vec![
            format!("  games {}", t.finished),
            format!("  O {}", t.o_wins),
            format!("  X {}", t.x_wins),
            format!("  draws {}", t.draws),
        ],
    };
    for item in counts {
        items.push(Span::raw(item));
    }
    if app.human().is_none() && !finished {
        let rate = match app.moves_per_second() {
            Some(r) if r < 10.0 => format!("{r:.1}"),
            Some(r) => format!("{r:.0}"),
            None => "—".to_string(),
        };
        items.push(Span::raw(format!("  {rate} moves/s")));
    }
    items
}

pub(crate) fn draw_header(
    frame: &mut Frame,
    app: &App,
    chrome: &Chrome,
    area: Rect,
    logo: bool,
    view: Option<&GridView>,
) {
    let c = app.config().color;
    let rules = app.config().rules;
    let title = match (&app.config().show, &app.setup()) {
        (Some(show), _) => match show.variants.first().is_some_and(|v| v.rules.exact()) {
            true => "kxo-tui  a mix of boards, exactly K in a row wins".to_string(),
            false => "kxo-tui  a mix of boards, engines close in strength".to_string(),
        },
        (None, Some(_)) => "kxo-tui  choose a game to play".to_string(),
        (None, None) if rules.is_go() => format!(
            "kxo-tui  {n}x{n} Go, komi {}",
            rules.komi(),
            n = rules.size()
        ),
        (None, None) => format!(
            "kxo-tui  {}x{}, {}",
            rules.size(),
            rules.size(),
            rules.in_a_row()
        ),
    };
    if logo {
        let logo_w = logo::width() + 2;
        let [left, right] =
            Layout::horizontal([Constraint::Length(logo_w), Constraint::Min(0)]).areas(area);
        // The rainbow drifts a step every two seconds, unless told not to.
        let drift = if app.config().animate {
            let secs = app.now().saturating_duration_since(app.started()).as_secs();
            secs as f64 * logo::DRIFT_PER_SECOND
        } else {
            0.0
        };
        frame.render_widget(
            Paragraph::new(logo::lines(c, drift, app.config().utf8)),
            left,
        );
        let text = vec![
            Line::from(Span::styled(
                title,
                Style::default().add_modifier(Modifier::BOLD),
            )),
            Line::from(Span::styled(chrome.clock.clone(), c.accent())),
            Line::from(""),
            fit(status_spans(app, view, false), right.width),
            Line::from(""),
            fit(
                header_keys(app)
                    .iter()
                    .enumerate()
                    .map(|(i, (key, what))| {
                        let gap = if i == 0 { "" } else { "  " };
                        Span::styled(format!("{gap}{key} {what}"), c.dim())
                    })
                    .collect(),
                right.width,
            ),
        ];
        frame.render_widget(Paragraph::new(text), right);
    } else {
        let mut first = vec![Span::styled(
            title,
            Style::default().add_modifier(Modifier::BOLD),
        )];
        // The clock's two halves: local time, then time since start.
        let mut halves = chrome.clock.splitn(2, "  ");
        for half in [halves.next(), halves.next()].into_iter().flatten() {
            first.push(Span::styled(format!("  {half}"), c.accent()));
        }
        // The keys for help and quitting right after the state, where a
        // narrow screen keeps them (the counts give way first).
        let status = status_spans(app, view, true);
        let text = vec![fit(first, area.width), fit(status, area.width)];
        frame.render_widget(Paragraph::new(text), area);
    }
}

fn draw_grid(frame: &mut Frame, app: &App, view: &GridView) {
    for (i, rect) in view.boxes.iter().enumerate() {
        let index = view.first + i;
        let selected = index == view.selected;
        game_box::draw_game(frame, app, &app.games()[index], *rect, selected);
    }
}

/// The header's keys: the start screen's own while it shows (the game's
/// keys do nothing there), else the key map's bar.
fn header_keys(app: &App) -> Vec<(&'static str, &'static str)> {
    match app.setup() {
        Some(_) => vec![
            ("arrows", "choose"),
            ("Enter", "start"),
            ("?", "help"),
            ("Ctrl-Q", "quit"),
        ],
        None if app.human().is_none() => key_bar(false),
        // Human mode: help and quit first, where a narrow header keeps
        // them, then the game's keys (no pass but in Go).
        None => {
            let first = [("?", "help"), ("Ctrl-Q", "quit")];
            let go = app.config().rules.is_go();
            let rest = key_bar(true)
                .into_iter()
                .filter(|k| !first.contains(k) && (go || k.0 != "p"));
            first.into_iter().chain(rest).collect()
        }
    }
}

/// The key bar, from the key map: "Ctrl-Q quit  Ctrl-P pause  …".
pub fn key_bar_text(human: bool) -> String {
    key_bar(human)
        .iter()
        .map(|(key, what)| format!("{key} {what}"))
        .collect::<Vec<_>>()
        .join("  ")
}

/// Draws `lines` scrolled by the app's tab scroll (clamped to the
/// content), with a marker when more lies below or above.
/// Long lines wrap.
pub(crate) fn draw_scrolled(frame: &mut Frame, app: &App, lines: Vec<Line<'static>>, area: Rect) {
    let c = app.config().color;
    let width = area.width.max(1) as usize;
    let total: usize = lines.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
    let max = (total as u16).saturating_sub(area.height);
    let scroll = app.tab_scroll().min(max);
    let paragraph = Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0));
    frame.render_widget(paragraph, area);
    if max > 0 && area.height > 0 && area.width >= 12 {
        // A blank before it, so the line it covers does not run into it.
        let text = if scroll < max {
            " ↓ j/k more"
        } else {
            " ↑ j/k"
        };
        let w = text.chars().count() as u16;
        let at = Rect::new(area.right() - w, area.bottom() - 1, w, 1);
        frame.render_widget(Clear, at);
        frame.render_widget(Paragraph::new(Span::styled(text, c.warn())), at);
    }
}

/// The result of a finished game, as the box and the Records tab say it.
pub fn result_text(rules: kxo_engine::Rules, outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(p) => format!("{} wins", rules.side_name(p)),
        Outcome::Draw => "draw".into(),
        Outcome::Ongoing => String::new(),
    }
}

/// A game's result as its family writes it: "O wins", "draw"; in Go the
/// score ("B+3.5"), or "W+R" by resignation and "W+F" by forfeit.
pub fn result_of(game: &crate::app::GameView) -> String {
    let rules = game.pos.rules();
    let winner = match game.outcome() {
        Outcome::Win(Player::O) => 'B',
        _ => 'W',
    };
    match (&game.forfeit, game.go_count()) {
        (Some((_, crate::app::Loss::Resigned)), Some(_)) => format!("{winner}+R"),
        (Some(_), Some(_)) => format!("{winner}+F"),
        (None, Some(score)) if game.outcome().is_over() => score.text(),
        _ => result_text(rules, game.outcome()),
    }
}

/// The tab panel's parts in `area`: its tab bar and its body (a short
/// panel drops its border, so it still shows some content).
fn tab_parts(area: Rect) -> Option<(Option<Rect>, Rect, Rect)> {
    let (border, inner) = if area.height >= 5 {
        let block = Block::default().borders(Borders::ALL);
        (Some(area), block.inner(area))
    } else {
        (None, area)
    };
    if inner.height == 0 {
        return None;
    }
    let [bar, body] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    Some((border, bar, body))
}

/// The current tab's text and the part of `body` it scrolls in (the Load
/// tab keeps the rest for its chart).
fn tab_text(app: &App, body: Rect) -> (Vec<Line<'static>>, Rect) {
    match app.tab() {
        Tab::Records => (records::lines(app), body),
        Tab::Load => {
            let (lines, text, _) = load::parts(app, body);
            (lines, text)
        }
        Tab::Leaderboard => (leaderboard::lines(app, body.width), body),
    }
}

/// Lines `lines` take in `width` columns, long ones wrapped.
fn wrapped_height(lines: &[Line], width: u16) -> u16 {
    let width = width.max(1) as usize;
    let total: usize = lines.iter().map(|l| l.width().max(1).div_ceil(width)).sum();
    total.min(u16::MAX as usize) as u16
}

/// How far the current tab can scroll on a screen of `area`: the lines
/// below its panel's bottom (0 when it all shows). The renderer tells the
/// state after each frame, so scrolling stops where the content does.
pub fn scroll_room(app: &App, area: Rect) -> u16 {
    let tabs = match &app.human() {
        Some(_) => human::plan(area, app.config().rules.size() as u16).map(|p| p.tabs),
        None => grid_view(app, area).map(|v| v.plan.tabs),
    };
    let Some((_, _, body)) = tabs.filter(|t| t.height >= 2).and_then(tab_parts) else {
        return 0;
    };
    let (lines, text) = tab_text(app, body);
    wrapped_height(&lines, text.width).saturating_sub(text.height)
}

pub(crate) fn draw_tabs(frame: &mut Frame, app: &App, area: Rect) {
    let c = app.config().color;
    let selected = app.tab().index();
    let Some((border, bar, body)) = tab_parts(area) else {
        return;
    };
    if let Some(border) = border {
        let block = Block::default().borders(Borders::ALL).border_style(c.dim());
        frame.render_widget(block, border);
    }
    let tabs = Tabs::new(tab_titles(bar.width).to_vec())
        .select(selected)
        .style(c.dim())
        .highlight_style(Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED));
    frame.render_widget(tabs, bar);
    if app.tab() == Tab::Records && app.human().is_some() {
        let lines = human::record_lines(app);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), body);
        return;
    }
    let (lines, text) = tab_text(app, body);
    draw_scrolled(frame, app, lines, text);
    if app.tab() == Tab::Load
        && let (_, _, Some(chart_area)) = load::parts(app, body)
    {
        load::draw_chart(frame, app, chart_area);
    }
}

pub(crate) fn draw_help(frame: &mut Frame, app: &App, area: Rect) {
    let c = app.config().color;
    let keys: Vec<(&str, &str)> = KEYMAP
        .iter()
        .filter(|b| in_scope(b, app.human().is_some(), false))
        .map(|b| (b.label, b.help))
        .collect();
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
    let w = 78.min(area.width);
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
