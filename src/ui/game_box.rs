//! One game's box on the live screen: the board and, while a seat thinks,
//! what it is considering — its candidate move marked faintly on the board,
//! a bar of the move's CPU clock, and a line such as `MCTS 41k it·B2 62%`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use super::board;
use super::layout::{self, BoardStyle, THINKING_LINES};
use super::result_of;
use crate::app::{App, ColorMode, GameStatus, GameView, Thinking};
use kxo_engine::{Estimate, Value};
use kxo_engine::{Player, Rules};

/// `41k`, `1.2M`: a count in at most five characters.
pub(super) fn si(n: f64) -> String {
    let (v, unit) = if n >= 1e9 {
        (n / 1e9, "G")
    } else if n >= 1e6 {
        (n / 1e6, "M")
    } else if n >= 1e3 {
        (n / 1e3, "k")
    } else {
        return format!("{n:.0}");
    };
    if v >= 10.0 {
        format!("{v:.0}{unit}")
    } else {
        format!("{v:.1}{unit}")
    }
}

/// How a value reads from the thinking side: "win in 5", "draw", "+12".
fn value_text(value: Value) -> String {
    match value {
        Value::Win { plies } => format!("win in {plies}"),
        Value::Loss { plies } => format!("loss in {plies}"),
        Value::Draw => "draw".into(),
        Value::Unknown(score) => format!("{score:+}"),
    }
}

/// The info line: `MCTS 41k it·B2 62%` or `NEGA d7·C3 win in 5`, with
/// ` ✓` once a proved answer is given, in at most `width` characters: a
/// narrow box drops the unit, then the engine's name, then the work
/// (`41k·B2 62%`, `B2 62%`) rather than cutting the move or the estimate
/// off at its edge.
pub(super) fn info_line(t: &Thinking, rules: Rules, width: usize) -> String {
    let i = &t.info;
    let label = t.engine.label();
    let (work, unit) = match (i.depth, i.work) {
        (Some(d), _) => (format!("d{d}"), ""),
        (None, 0) => (String::new(), ""),
        (None, work) => (si(work as f64), " it"),
    };
    let best = i.best.map(|b| rules.cell_name(b)).unwrap_or_default();
    let mut estimate = match (i.threat, i.estimate) {
        (Some(threat), _) => threat.title(),
        (None, Some(Estimate::WinRate(r))) => format!("{:.0}%", r * 100.0),
        (None, Some(Estimate::Value(v))) => value_text(v),
        (None, None) => String::new(),
    };
    if t.done && i.proved {
        estimate.push_str(" ✓");
    }
    // The head (name and work), longest first; the move and the estimate
    // stay in every form.
    let heads = [
        join(&[label, &format!("{work}{unit}")]),
        join(&[label, &work]),
        work.clone(),
        String::new(),
    ];
    let tail = |head: &str| {
        let mut out = head.to_string();
        if !best.is_empty() {
            out.push('·');
            out.push_str(&best);
        }
        if !estimate.is_empty() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&estimate);
        }
        out.trim_start_matches('·').to_string()
    };
    let forms: Vec<String> = heads.iter().map(|h| tail(h)).collect();
    forms
        .iter()
        .find(|f| f.chars().count() <= width)
        .or(forms.last())
        .cloned()
        .unwrap_or_default()
}

/// The words of `parts` that are not empty, a space between each.
fn join(parts: &[&str]) -> String {
    parts
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The clock's figures beside its bar: ` 55/100ms`, or the CPU used
/// when there is no clock.
pub(super) fn clock_figures(t: &Thinking) -> String {
    let used_ms = t.used.as_secs_f64() * 1e3;
    match t.clock {
        Some(clock) => format!(" {used_ms:.0}/{:.0}ms", clock.as_secs_f64() * 1e3),
        None => format!("{used_ms:.0}ms cpu"),
    }
}

/// The clock's bar, `width` cells: `█████▌░░░░` for 55 of 100 ms; none
/// when there is no clock.
pub(super) fn clock_fill(t: &Thinking, width: usize) -> String {
    let Some(clock) = t.clock else {
        return String::new();
    };
    let frac = (t.used.as_secs_f64() / clock.as_secs_f64()).clamp(0.0, 1.0);
    let eighths = (frac * width as f64 * 8.0).round() as usize;
    let mut bar = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        bar.push(['▏', '▎', '▍', '▌', '▋', '▊', '▉'][eighths % 8 - 1]);
    }
    let filled = bar.chars().count();
    bar.push_str(&"░".repeat(width.saturating_sub(filled)));
    bar
}

/// What a live game's board shows besides the marks: the last move, the
/// thinking seat's candidate, the winning line, the opening's stones.
pub(super) fn marks(game: &GameView) -> super::layout::Marks<'_> {
    super::layout::Marks {
        last_move: game.last_move,
        candidate: game
            .thinking
            .as_ref()
            .filter(|_| game.status == GameStatus::Playing)
            .and_then(|t| t.info.best.map(|cell| (cell, t.side))),
        winning_line: game.pos.winning_line().unwrap_or_default(),
        opening: game.record.moves[..game.opening.min(game.record.moves.len())]
            .iter()
            .map(|c| c.index())
            .collect(),
        dead: game.dead,
        ..super::layout::Marks::default()
    }
}

fn side_style(c: ColorMode, side: Player) -> Style {
    match side {
        Player::O => c.o_style(),
        Player::X => c.x_style(),
    }
}

/// A thinking seat's two lines: its move's clock as a bar with the
/// figures, and what its search found (✓ when proved), dim once it has
/// answered. The box and the zoom both show them. Each line fits in
/// `width` as long as the clock's figures, and the move with the
/// estimate, do: the bar gives up cells to the figures, and
/// [`info_line`] drops words.
pub(super) fn thinking_lines(
    c: ColorMode,
    t: &Thinking,
    bar_width: usize,
    width: usize,
    rules: Rules,
) -> Vec<Line<'static>> {
    // The figures whole: the bar gives up cells to them (a box 13 wide
    // holds ` 135/150ms` and a bar of 3).
    let figures = clock_figures(t);
    let bar = clock_fill(
        t,
        bar_width.min(width.saturating_sub(figures.chars().count())),
    );
    let bar_style = if t.done {
        c.dim()
    } else {
        side_style(c, t.side)
    };
    let info = info_line(t, rules, width);
    vec![
        Line::from(vec![
            Span::styled(bar, bar_style),
            Span::styled(figures, c.dim()),
        ]),
        Line::from(Span::styled(
            info,
            if t.done { c.dim() } else { c.accent() },
        )),
    ]
}

/// The head of a box: its name (and its board, when the screen mixes
/// boards), and whose move, the result or the failure in words, with its
/// style; a narrow box shortens its name to "#12" and says "X's turn".
/// `terse` is set when even that does not fit.
fn box_titles(
    c: ColorMode,
    game: &GameView,
    width: u16,
    board: Option<String>,
) -> (String, String, Style, bool) {
    let title_room = width.saturating_sub(2) as usize;
    let long_name = match &board {
        Some(board) => format!("Game-{} {board}", game.index + 1),
        None => format!("Game-{}", game.index + 1),
    };
    let wide = long_name.chars().count() + "X to move".len() < title_room;
    let name = match (&board, wide) {
        (_, true) => long_name,
        (Some(board), false) if board.len() + 5 + "X's turn".len() < title_room => {
            format!("#{} {board}", game.index + 1)
        }
        _ => format!("#{}", game.index + 1),
    };
    let terse = name.len() + "X's turn".len() >= title_room;
    let (right, right_style) = match &game.status {
        GameStatus::Playing => {
            let side = game.pos.to_move();
            let mark = game.pos.rules().side_mark(side);
            let text = if terse {
                mark.to_string()
            } else if wide {
                format!("{mark} to move")
            } else {
                format!("{mark}'s turn")
            };
            (text, side_style(c, side))
        }
        // The narrowest titles have no room for both: the result goes below.
        GameStatus::Over { .. } if terse => (String::new(), c.warn()),
        GameStatus::Over { .. } => (result_of(game), c.warn()),
        GameStatus::Failed(_) => (
            if terse { "FAIL" } else { "FAILED" }.to_string(),
            c.error().add_modifier(Modifier::REVERSED),
        ),
    };
    (name, right, right_style, terse)
}

/// A board's name in a box title: "6x6·5" (side, and marks in a row).
pub(super) fn board_name(rules: kxo_engine::Rules) -> String {
    match rules.is_go() {
        true => format!("{n}x{n} Go", n = rules.size()),
        false => format!("{n}x{n}·{}", rules.goal(), n = rules.size()),
    }
}

/// In place of a board its box cannot show whole: the board's name and
/// what to do, each line within the narrowest box (11 columns inside).
fn draw_too_big(frame: &mut Frame, c: ColorMode, name: &str, inner: Rect) {
    let notice: Vec<Line> = [name, "too big for", "this box:", "Enter zooms"]
        .into_iter()
        .map(|l| Line::from(Span::styled(l.to_string(), c.dim())).centered())
        .collect();
    let height = (notice.len() as u16).min(inner.height);
    let y = inner.y + (inner.height - height) / 2;
    frame.render_widget(
        Paragraph::new(notice),
        Rect::new(inner.x, y, inner.width, height),
    );
}

/// Columns the thinking lines want beside a board.
const BESIDE: u16 = 18;

/// Draws `game` in `rect`, its board as large as the box allows; the
/// selected game's box stands out.
pub(super) fn draw_game(frame: &mut Frame, app: &App, game: &GameView, rect: Rect, selected: bool) {
    let c = app.config().color;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let rules = game.pos.rules();
    let n = rules.size();
    let board = app.config().show.as_ref().map(|_| board_name(rules));
    let (name, right, right_style, terse) = box_titles(c, game, rect.width, board);
    let inner_size = (rect.width.saturating_sub(2), rect.height.saturating_sub(2));
    // The largest board with room for the thinking lines, below it or
    // beside it; else the largest board.
    let (style, below) = [BoardStyle::Large, BoardStyle::Full, BoardStyle::Compact]
        .into_iter()
        .find_map(|style| {
            let (w, h) = layout::board_size(style, n as u16);
            let fits = w <= inner_size.0 && h <= inner_size.1;
            let below = h + THINKING_LINES <= inner_size.1;
            let beside = w + 1 + BESIDE <= inner_size.0;
            (fits && (below || beside)).then_some((style, below))
        })
        .unwrap_or_else(|| {
            let style = layout::style_for(inner_size, n as u16, 0).unwrap_or(BoardStyle::Compact);
            (style, false)
        });
    let compact = style == BoardStyle::Compact && !below;
    let (o, x) = (game.labels[0].clone(), game.labels[1].clone());
    // Bottom: the engines, the one thinking underlined.
    let thinker = game
        .thinking
        .as_ref()
        .filter(|t| !t.done)
        .map(|t| t.side)
        .filter(|_| game.status == GameStatus::Playing);
    let label = |side: Player, name: String| {
        if thinker == Some(side) {
            Span::styled(name, Style::default().add_modifier(Modifier::UNDERLINED))
        } else {
            Span::raw(name)
        }
    };
    let bottom = if terse && matches!(game.status, GameStatus::Over { .. }) {
        Line::from(Span::styled(result_of(game), c.warn()))
    } else {
        Line::from(vec![
            label(Player::O, o),
            Span::raw(if compact { "/" } else { " vs " }),
            label(Player::X, x),
        ])
    };
    let border = if selected {
        // Thick borders: the selection shows without colour too.
        c.accent().add_modifier(Modifier::BOLD)
    } else if matches!(game.status, GameStatus::Over { .. }) {
        c.warn()
    } else {
        c.dim()
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_type(if selected {
            ratatui::widgets::BorderType::Thick
        } else {
            ratatui::widgets::BorderType::Plain
        })
        .border_style(border)
        .title(Line::from(Span::styled(name, bold)))
        .title(Line::from(Span::styled(right, right_style)).right_aligned())
        .title_bottom(bottom.centered());
    let inner = block.inner(rect);
    frame.render_widget(block, rect);
    if layout::style_for(inner_size, n as u16, 0).is_none() {
        // A game begun in a bigger box (the show, before the terminal
        // shrank): a board cut short would hide cells, so the box says so.
        draw_too_big(frame, c, &board_name(rules), inner);
        return;
    }
    let lines = board::lines(&game.pos, style, c, marks(game));
    let (bw, bh) = layout::board_size(style, n as u16);
    let beside = !below && inner.width >= bw + 1 + BESIDE;
    let x0 = if beside {
        inner.x + inner.width.saturating_sub(bw + 1 + BESIDE) / 2
    } else {
        inner.x + inner.width.saturating_sub(bw) / 2
    };
    let spare = inner
        .height
        .saturating_sub(bh + if below { THINKING_LINES } else { 0 });
    let y0 = inner.y + spare / 2;
    let area = Rect::new(x0, y0, bw.min(inner.width), bh.min(inner.height));
    frame.render_widget(Paragraph::new(lines), area);
    let info = if below {
        Rect::new(inner.x, y0 + bh, inner.width, THINKING_LINES)
    } else if beside {
        let x = x0 + bw + 1;
        Rect::new(
            x,
            y0,
            inner.right().saturating_sub(x),
            THINKING_LINES.min(inner.height),
        )
    } else {
        return;
    };
    let text = match (&game.thinking, &game.status) {
        (Some(t), GameStatus::Playing) => {
            let width = info.width as usize;
            thinking_lines(
                c,
                t,
                width.saturating_sub(11).max(4),
                width,
                game.pos.rules(),
            )
        }
        (_, GameStatus::Playing) if !app.paused() && app.now() < game.not_before => {
            vec![Line::from(Span::styled("starting…", c.dim()))]
        }
        _ => Vec::new(),
    };
    frame.render_widget(Paragraph::new(text), info);
}

#[cfg(test)]
mod tests {
    use super::*;
    use kxo_engine::Cell;
    use kxo_engine::{EngineKind, SearchInfo, Threat, ThreatKind};
    use std::time::Duration;

    fn thinking(engine: EngineKind, info: SearchInfo) -> Thinking {
        Thinking {
            side: Player::O,
            engine,
            used: Duration::from_millis(55),
            clock: Some(Duration::from_millis(100)),
            info,
            done: false,
        }
    }

    /// MCTS thinking on 4x4: `work` iterations, `best` its move at 62%.
    fn mcts_at(work: u64, best: &str) -> Thinking {
        thinking(
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts),
            SearchInfo {
                work,
                best: Some(Cell::parse(best, 4).unwrap()),
                estimate: Some(Estimate::WinRate(0.62)),
                ..SearchInfo::default()
            },
        )
    }

    #[test]
    fn info_lines_read_as_designed() {
        let four = Rules::new(4, 3).unwrap();
        let mcts = mcts_at(41_200, "B2");
        assert_eq!(info_line(&mcts, four, 40), "MCTS 41k it·B2 62%");
        let nega = thinking(
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Negamax),
            SearchInfo {
                work: 900,
                depth: Some(7),
                best: Some(Cell::parse("C3", 4).unwrap()),
                estimate: Some(Estimate::Value(Value::Win { plies: 5 })),
                proved: true,
                threat: None,
            },
        );
        assert_eq!(info_line(&nega, four, 40), "NEGA d7·C3 win in 5");
        // A win by threats says which.
        let h8 = Cell::parse("H8", 15).unwrap().index();
        let vcf = thinking(
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Negamax),
            SearchInfo {
                best: Some(Cell::from_index(h8)),
                estimate: Some(Estimate::Value(Value::Win { plies: 7 })),
                proved: true,
                threat: Some(Threat::new(ThreatKind::Vcf, 7, &[h8, h8 + 1])),
                ..SearchInfo::default()
            },
        );
        assert_eq!(
            info_line(&vcf, Rules::new(15, 5).unwrap(), 40),
            "NEGA·H8 VCF in 7"
        );
        // Go names its points as GTP does: row 1 at the bottom, no I.
        let go = Rules::go(9, 15, 0).unwrap();
        let mut mcts = mcts_at(41_200, "B2");
        mcts.info.best = Some(Cell::from_index(8));
        assert_eq!(info_line(&mcts, go, 40), "MCTS 41k it·J9 62%");
    }

    #[test]
    fn a_narrow_info_line_drops_words_not_the_move_or_the_estimate() {
        let mut mcts = mcts_at(80_400, "D4");
        let four = Rules::new(4, 3).unwrap();
        let at = |t: &Thinking, w| info_line(t, four, w);
        assert_eq!(at(&mcts, 18), "MCTS 80k it·D4 62%");
        assert_eq!(at(&mcts, 17), "MCTS 80k·D4 62%");
        assert_eq!(at(&mcts, 14), "80k·D4 62%");
        assert_eq!(at(&mcts, 9), "D4 62%");
        // Narrower than the shortest form: the shortest, cut by the box.
        assert_eq!(at(&mcts, 3), "D4 62%");
        // Every form keeps the move and the estimate, and a proved
        // answer's mark.
        mcts.done = true;
        mcts.info.proved = true;
        mcts.info.estimate = Some(Estimate::Value(Value::Win { plies: 3 }));
        for w in 0..30 {
            let line = at(&mcts, w);
            assert!(
                line.contains("D4") && line.ends_with("win in 3 ✓"),
                "{w}: {line}"
            );
            assert!(line.chars().count() <= w.max(13), "{w}: {line}");
        }
    }

    #[test]
    fn a_narrow_box_keeps_the_clock_figures_whole() {
        let mut t = thinking(
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts),
            SearchInfo::default(),
        );
        t.used = Duration::from_millis(135);
        t.clock = Some(Duration::from_millis(150));
        for width in 10..=20_usize {
            let lines = thinking_lines(
                ColorMode::None,
                &t,
                width.saturating_sub(11).max(4),
                width,
                Rules::new(4, 3).unwrap(),
            );
            let bar_line: String = lines[0].spans.iter().map(|s| s.content.as_ref()).collect();
            assert!(bar_line.ends_with(" 135/150ms"), "{width}: {bar_line}");
            assert!(bar_line.chars().count() <= width, "{width}: {bar_line}");
        }
    }

    #[test]
    fn the_clock_bar_fills_with_the_time_used() {
        let t = thinking(
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts),
            SearchInfo::default(),
        );
        let (bar, figures) = (clock_fill(&t, 10), clock_figures(&t));
        assert_eq!(bar.chars().count(), 10);
        assert_eq!(bar, "█████▌░░░░");
        assert_eq!(figures, " 55/100ms");
        assert_eq!(si(41_234.0), "41k");
        assert_eq!(si(1_250_000.0), "1.2M");
        assert_eq!(si(999.0), "999");
    }
}
