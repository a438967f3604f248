//! The Leaderboard tab: per engine, its games, wins, draws and losses as O,
//! as X and in all, and its Elo against the engines it met; or, when the
//! screen shows a tournament, its ranking, crosstable and pairs.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::app::App;
use crate::app::leaderboard::{Record, Standing};

fn record(r: &Record) -> String {
    format!(
        "{:>5} {:>5} {:>5} {:>5}",
        r.games, r.wins, r.draws, r.losses
    )
}

fn elo(s: &Standing) -> String {
    match s.elo {
        Some(e) => format!("{:+5.0} ({:+.0} to {:+.0})", e.diff, e.lo, e.hi),
        None if s.total.wins == s.total.games => "won every game".into(),
        None => "lost every game".into(),
    }
}

/// The tab's lines (also what tests read).
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let c = app.config.color;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    if let Some(progress) = &app.tournament {
        // The tournament's report, as `arena` prints it.
        let mut out = vec![Line::from(Span::styled("Tournament", bold))];
        out.extend(
            progress
                .report
                .to_text()
                .lines()
                .map(|l| Line::from(l.to_string())),
        );
        return out;
    }
    let standings = app.leaderboard.standings();
    if standings.is_empty() {
        return vec![Line::from(Span::styled(
            "no game finished yet: the table fills as games end",
            c.dim(),
        ))];
    }
    let mut out = vec![Line::from(Span::styled(
        format!(
            "{:<6} {:<6} {:>5} {:>5} {:>5} {:>5}  {:>6}  Elo (95% interval)",
            "engine", "side", "games", "wins", "draws", "lost", "score"
        ),
        bold,
    ))];
    for s in &standings {
        for (side, r) in [("as O", &s.as_o), ("as X", &s.as_x), ("all", &s.total)] {
            if r.games == 0 {
                continue;
            }
            let total = side == "all";
            let text = format!(
                "{:<6} {:<6} {}  {:>5.1}%{}",
                if side == "as O" || (s.as_o.games == 0 && side == "as X") {
                    s.engine.label()
                } else {
                    ""
                },
                side,
                record(r),
                100.0 * r.score(),
                if total {
                    format!("  {}", elo(s))
                } else {
                    String::new()
                }
            );
            out.push(Line::from(Span::styled(
                text,
                if total { bold } else { Style::default() },
            )));
        }
    }
    out.push(Line::from(Span::styled(
        format!(
            "{} games. Elo: each engine against the engines it met (its mean score as a rating difference).",
            app.leaderboard.games()
        ),
        c.dim(),
    )));
    out
}

pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    super::draw_scrolled(frame, app, lines(app), area);
}
