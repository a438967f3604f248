//! The Leaderboard tab: per engine, its rating fitted over every game with
//! its interval, its games, score, wins, draws and losses, and its score as
//! O and as X, in a table that drops its least important columns to fit
//! the panel; or, when the screen shows a tournament, its ranking,
//! crosstable and pairs.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::table::{self, Column};
use crate::app::App;
use crate::app::leaderboard::{Record, Standing};

/// The standings as a table of columns, most important first.
fn columns(standings: &[Standing]) -> Vec<Column> {
    let pct = |r: &Record| match r.games {
        0 => "·".to_string(),
        _ => format!("{:.0}%", 100.0 * r.score()),
    };
    let col = |title: &str, priority, right, cell: &dyn Fn(&Standing) -> String| Column {
        title: title.to_string(),
        cells: standings.iter().map(cell).collect(),
        priority,
        right,
    };
    vec![
        col("engine", 9, false, &|s| s.engine.label().to_string()),
        col("Elo", 8, true, &|s| match s.elo {
            Some(e) => format!("{:+.0}", e.diff),
            None => "·".into(),
        }),
        col("95% interval", 4, false, &|s| match s.elo {
            Some(e) => format!("{:+.0} to {:+.0}", e.lo, e.hi),
            None => String::new(),
        }),
        col("games", 7, true, &|s| s.total.games.to_string()),
        col("score", 5, true, &|s| pct(&s.total)),
        col("won", 6, true, &|s| s.total.wins.to_string()),
        col("drew", 6, true, &|s| s.total.draws.to_string()),
        col("lost", 6, true, &|s| s.total.losses.to_string()),
        col("as O", 2, true, &|s| pct(&s.as_o)),
        col("as X", 2, true, &|s| pct(&s.as_x)),
    ]
}

/// The tab's lines for a panel `width` wide (also what tests read).
pub(super) fn lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let c = app.config().color;
    let bold = Style::default().add_modifier(Modifier::BOLD);
    if let Some(progress) = &app.tournament() {
        // The tournament's report, as `arena` prints it.
        let title = match progress.finished() {
            true => "Tournament finished",
            false => "Tournament",
        };
        let mut out = vec![Line::from(Span::styled(title, bold))];
        out.extend(tournament_lines(&progress.report, width, bold));
        return out;
    }
    let standings = app.leaderboard().standings();
    if standings.is_empty() {
        return vec![Line::from(Span::styled(
            "no game finished yet: the table fills as games end",
            c.dim(),
        ))];
    }
    let mut out = table::lines(&columns(&standings), width, bold, |_| Style::default());
    out.push(Line::from(""));
    out.push(Line::from(Span::styled(
        format!(
            "{} games. Elo: fitted over every game at once (as BayesElo and Ordo do), mean 0: \
             beating a weak engine counts for little.",
            app.leaderboard().games()
        ),
        c.dim(),
    )));
    out
}

/// A tournament's report as fitted tables: its ranking, its crosstable,
/// and its pairings, as `arena` prints them but never wider than `width`.
fn tournament_lines(
    report: &crate::tournament::Report,
    width: u16,
    bold: Style,
) -> Vec<Line<'static>> {
    let ranking = &report.ranking;
    let col = |title: &str, priority, right, cells: Vec<String>| Column {
        title: title.to_string(),
        cells,
        priority,
        right,
    };
    let cells = |f: &dyn Fn(&crate::tournament::report::Standing) -> String| {
        ranking.iter().map(f).collect::<Vec<_>>()
    };
    let elo = |s: &crate::tournament::report::Standing| match s.elo {
        Some(e) => format!("{e:+.0}"),
        None if s.score >= 1.0 => "won all".into(),
        None if s.score <= 0.0 => "lost all".into(),
        None => "·".into(),
    };
    let mut out = vec![Line::from(format!(
        "{} games of {}, {}x{}, {}",
        report.games,
        report.scheduled,
        report.size,
        report.size,
        report.rule.in_a_row(report.goal)
    ))];
    out.extend(table::lines(
        &[
            col(
                "rank",
                3,
                true,
                (1..=ranking.len()).map(|r| r.to_string()).collect(),
            ),
            col("engine", 9, false, cells(&|s| s.name.clone())),
            col("games", 7, true, cells(&|s| s.games.to_string())),
            col("won", 6, true, cells(&|s| s.wins.to_string())),
            col("drew", 6, true, cells(&|s| s.draws.to_string())),
            col("lost", 6, true, cells(&|s| s.losses.to_string())),
            col(
                "score",
                8,
                true,
                cells(&|s| format!("{:.1}%", 100.0 * s.score)),
            ),
            col("Elo", 5, true, cells(&|s| elo(s))),
            col(
                "ms/move",
                2,
                true,
                cells(&|s| format!("{:.0}", s.ms_per_move)),
            ),
            col(
                "lost F/T",
                1,
                true,
                cells(&|s| format!("{}/{}", s.forfeits, s.time_losses)),
            ),
        ],
        width,
        bold,
        |_| Style::default(),
    ));
    if report.engines.len() > 2 {
        out.push(Line::from(Span::styled(
            "crosstable (points of the row against the column)",
            bold,
        )));
        let mut columns = vec![col("", 9, false, report.engines.clone())];
        for (j, name) in report.engines.iter().enumerate() {
            let cells = report
                .crosstable
                .iter()
                .map(|row| match row[j] {
                    Some((points, games)) => format!("{points}/{games}"),
                    None => "·".into(),
                })
                .collect();
            let title: String = name.chars().take(8).collect();
            columns.push(col(&title, 8 - (j as u8).min(7), true, cells));
        }
        out.extend(table::lines(&columns, width, bold, |_| Style::default()));
    }
    out.push(Line::from(Span::styled("pairs [LL LD DD/WL WD WW]", bold)));
    for p in &report.pairings {
        let [ll, ld, dd, wd, ww] = p.pentanomial.0;
        out.push(Line::from(format!(
            "{} vs {}: +{} ={} -{} [{ll} {ld} {dd} {wd} {ww}]",
            p.a, p.b, p.a_wins, p.draws, p.b_wins
        )));
    }
    out
}
