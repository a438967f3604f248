//! The Load avg tab: the scheduler's run queue as the kernel's 1/5/15-minute
//! load averages, each seat's share of the CPU (the same damping), engine
//! speeds, switches per second, the process's CPU, and a chart of the run
//! queue over the last ten minutes.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType};

use super::game_box::si;
use crate::app::App;
use crate::app::load::HISTORY;
use kxo_engine::EngineKind;

/// The chart needs this many rows to be worth drawing.
const CHART_MIN_HEIGHT: u16 = 9;
/// The summary's lines at the top of the tab (load averages, queue, CPU):
/// kept above the chart whatever else scrolls.
const SUMMARY_LINES: u16 = 6;
/// Below this width, seats get a line each instead of a line per game.
const WIDE: u16 = 47;
/// The chart's window: the history's span, in seconds.
const WINDOW: f64 = HISTORY as f64 * 5.0;

/// A share as a percentage in four columns: "11.0", " 0.3", " 100".
fn pct(v: f64) -> String {
    let p = v * 100.0;
    if p >= 99.95 {
        " 100".to_string()
    } else {
        format!("{p:>4.1}")
    }
}

/// The tab's text, for an area `width` columns wide.
pub(super) fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let c = app.config().color;
    let load = &app.load();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let rq = load.run_queue.values();
    let mut out = vec![
        Line::from(vec![
            Span::styled("run queue", bold),
            Span::raw(format!(
                "  1m {:.2}  5m {:.2}  15m {:.2}",
                rq[0], rq[1], rq[2]
            )),
        ]),
        Line::from(Span::styled(
            format!(
                "ready now {}, peak {} · {} switch/s",
                load.queue_history.back().map_or(0.0, |q| q.1),
                load.queue_history.iter().map(|q| q.1).fold(0.0, f64::max),
                si(load.switches_per_second),
            ),
            c.dim(),
        )),
        Line::from(Span::styled(
            format!(
                "process cpu {} of a core",
                load.process_share
                    .map_or("?".to_string(), |s| format!("{:.0}%", s * 100.0)),
            ),
            c.dim(),
        )),
    ];
    if load.samples == 0 {
        out.push(Line::from(Span::styled(
            "first sample after 5 s (then every 5 s)",
            c.dim(),
        )));
    }
    out.push(Line::from(""));
    out.push(Line::from(Span::styled("engine  cpu %  speed", bold)));
    for (kind, e) in EngineKind::ALL.iter().zip(&load.engines) {
        let unit = kind.work_unit();
        let speed = if e.work_per_cpu_second > 0.0 {
            format!("{} {unit}", si(e.work_per_cpu_second))
        } else {
            "—".to_string()
        };
        let style = if e.active { Style::default() } else { c.dim() };
        out.push(Line::from(Span::styled(
            format!("{:<6} {}  {speed}", kind.label(), pct(e.share)),
            style,
        )));
    }
    if let Some(t) = app.learner() {
        // The learning player's model: it learns from every game an rl
        // seat finishes.
        out.push(Line::from(format!(
            "learner {} games learned",
            kxo_engine::text::thousands(t.games)
        )));
        out.push(Line::from(format!(
            "  {} {}",
            kxo_engine::text::thousands(t.entries),
            t.holds,
        )));
        let big = t.big;
        let accuracy = match (app.learner_accuracy(), t.saved_accuracy) {
            // Above 8x8: its score against the yardstick, not the solver.
            (Some((now, at)), _) if big => format!(
                "  vs Negamax-{}: {:.0}% at {} games",
                kxo_engine::learner::YARDSTICK_NODES,
                100.0 * now,
                kxo_engine::text::thousands(at)
            ),
            (None, _) if big => format!(
                "  vs Negamax-{}: measuring",
                kxo_engine::learner::YARDSTICK_NODES
            ),
            (Some((now, at)), _) => format!(
                "  accuracy {:.1}% (at {} games)",
                100.0 * now,
                kxo_engine::text::thousands(at)
            ),
            (None, Some(saved)) => {
                format!("  accuracy {:.1}% when last saved", 100.0 * saved)
            }
            (None, None) => "  accuracy not measured yet".to_string(),
        };
        out.push(Line::from(Span::styled(accuracy, c.dim())));
    }
    out.push(Line::from(""));
    out.extend(seat_lines(app, width));
    out
}

/// Each seat's share of the CPU over 1, 5 and 15 minutes: a row per game
/// on a wide panel, a row per seat on a narrow one.
fn seat_lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let load = &app.load();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut out = Vec::new();
    let share = |game: usize, side: usize| {
        load.seats
            .iter()
            .find(|s| s.game == game && s.side == side)
            .map(|s| s.avg.values())
            .unwrap_or_default()
    };
    if width >= WIDE {
        out.push(Line::from(Span::styled(
            "cpu %   O      1m   5m  15m  X      1m   5m  15m",
            bold,
        )));
        for g in app.games() {
            let side = |s: usize| {
                let v = share(g.index, s);
                format!(
                    "{:<4} {} {} {}",
                    g.engines[s].label(),
                    pct(v[0]),
                    pct(v[1]),
                    pct(v[2])
                )
            };
            out.push(Line::from(format!(
                "Game-{:<2} {}  {}",
                g.index + 1,
                side(0),
                side(1)
            )));
        }
    } else {
        out.push(Line::from(Span::styled("cpu %         1m   5m  15m", bold)));
        for g in app.games() {
            for s in 0..2 {
                let v = share(g.index, s);
                out.push(Line::from(format!(
                    "G{:<2} {} {:<4} {} {} {}",
                    g.index + 1,
                    if s == 0 { 'O' } else { 'X' },
                    g.engines[s].label(),
                    pct(v[0]),
                    pct(v[1]),
                    pct(v[2])
                )));
            }
        }
    }
    out
}

/// Points of a chart: (x, y).
pub(super) type Points = Vec<(f64, f64)>;

/// The chart's points, in seconds before the last sample: the 1-minute
/// load average and the ready count at each sample.
pub(super) fn chart_points(app: &App) -> (Points, Points) {
    let load = &app.load();
    let ago = |h: &std::collections::VecDeque<(f64, f64)>| -> Points {
        h.iter().map(|&(t, v)| (t - load.at, v)).collect()
    };
    (ago(&load.history), ago(&load.queue_history))
}

/// The run-queue chart: the 1-minute load average as a line and the ready
/// count at each sample as dots, over the last ten minutes.
pub(super) fn chart<'a>(app: &App, avg: &'a [(f64, f64)], ready: &'a [(f64, f64)]) -> Chart<'a> {
    let c = app.config().color;
    let top = avg
        .iter()
        .chain(ready)
        .map(|p| p.1)
        .fold(1.0f64, f64::max)
        .ceil();
    let datasets = vec![
        Dataset::default()
            .name("load 1m")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(c.accent())
            .data(avg),
        Dataset::default()
            .name("ready")
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(c.warn())
            .data(ready),
    ];
    Chart::new(datasets)
        .block(Block::default().title(Span::styled("run queue, last 10 min", c.dim())))
        .x_axis(
            Axis::default()
                .title("min ago")
                .bounds([-WINDOW, 0.0])
                .labels(["-10", "-5", "0"])
                .style(c.dim()),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels(["0".to_string(), format!("{}", top / 2.0), format!("{top}")])
                .style(c.dim()),
        )
}

/// The tab in `area`: its text, the part of `area` the text scrolls in,
/// and the chart's part. The chart is kept whenever the panel holds it
/// and the summary above it (the per-seat lines scroll instead).
pub(super) fn parts(app: &App, area: Rect) -> (Vec<Line<'static>>, Rect, Option<Rect>) {
    let text = lines(app, area.width);
    let needed = text.len() as u16;
    let text_h = if area.height >= needed + CHART_MIN_HEIGHT {
        needed
    } else if area.height >= SUMMARY_LINES + CHART_MIN_HEIGHT {
        area.height - CHART_MIN_HEIGHT
    } else {
        return (text, area, None);
    };
    let [t, ch] = Layout::vertical([Constraint::Length(text_h), Constraint::Min(0)]).areas(area);
    (text, t, Some(ch))
}

/// The run-queue chart in `area`.
pub(super) fn draw_chart(frame: &mut Frame, app: &App, area: Rect) {
    let (avg, ready) = chart_points(app);
    frame.render_widget(chart(app, &avg, &ready), area);
}
