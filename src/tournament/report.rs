//! The report of a run: a function of its settings and its finished games
//! alone, so a resumed run, a single run and merged shards agree.

use std::fmt::Write as _;

use serde::Serialize;

use super::stats::{Pentanomial, Verdict};
use super::tally::{Counts, Tally};
use super::{PlayedGame, Settings, pairings};

/// One engine's line of the ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub name: String,
    pub spec: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points (win 1, draw ½) over games.
    pub score: f64,
    /// Its Elo against the field it met, with the 95% interval (from its
    /// pairs when games are paired); `null` when it won or lost every point.
    pub elo: Option<f64>,
    pub elo_lo: Option<f64>,
    pub elo_hi: Option<f64>,
    pub ms_per_move: f64,
    /// The CPU time it used a move, beside the wall time above: far less
    /// says it waited (on a busy machine, or a brain on its pipe), more
    /// says it thought on several threads.
    pub cpu_ms_per_move: f64,
    /// Its pairs' outcomes `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: Pentanomial,
    /// Wins, draws, losses as the first player (O) and as the second
    /// (X): where the openings favour one colour, how often it converts
    /// the advantage and how often it holds without it.
    pub as_o: [u32; 3],
    pub as_x: [u32; 3],
    /// Games it lost by failing (a crash, an illegal move, no answer in
    /// time) and on its match clock.
    pub forfeits: u32,
    pub time_losses: u32,
}

/// Two engines' games against each other.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    pub a: String,
    pub b: String,
    pub games: u32,
    pub a_wins: u32,
    pub draws: u32,
    pub b_wins: u32,
    /// From `a`'s side.
    pub pentanomial: Pentanomial,
    /// `a`'s Elo minus `b`'s, with the 95% interval.
    pub elo: Option<f64>,
    pub elo_lo: Option<f64>,
    pub elo_hi: Option<f64>,
    /// Normalized Elo from the pairs, half its 95% interval's width, and
    /// the likelihood that `a` is the stronger (as fastchess gives them).
    pub nelo: Option<f64>,
    pub nelo_error: Option<f64>,
    pub los: Option<f64>,
    /// The share of the complete pairs that scored one point of two (a
    /// win and a loss, or two draws): fastchess's draw ratio; `None`
    /// before a pair is complete.
    pub draw_ratio: Option<f64>,
    /// The share of the games drawn.
    pub game_draw_ratio: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    pub model: super::stats::EloModel,
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Verdict,
    /// Pairs the test has seen (the complete pairs in order).
    pub pairs: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub size: u8,
    pub goal: u8,
    #[serde(skip_serializing_if = "kxo_engine::Rule::is_freestyle")]
    pub rule: kxo_engine::Rule,
    /// Go's komi in points, and its handicap stones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub komi: Option<f32>,
    #[serde(skip_serializing_if = "is_zero_u8")]
    pub handicap: u8,
    pub format: super::Format,
    pub openings: String,
    pub seed: u64,
    /// The run's time control: `--tc`, `--match-ms`, `--think-ms` or
    /// `--mcts-iterations` ("200 ms a move", "tc 60+0.6"); an engine's
    /// own is in its spec.
    pub time_control: String,
    /// Games finished and counted, and games the schedule holds.
    pub games: u32,
    pub scheduled: u32,
    pub first_wins: u32,
    pub second_wins: u32,
    pub draws: u32,
    /// Best first.
    pub ranking: Vec<Standing>,
    /// `crosstable[i][j]`: the points of engine `i` (in `engines` order)
    /// against engine `j`, and the games they played; `null` on the
    /// diagonal and for engines that did not meet.
    pub engines: Vec<String>,
    pub crosstable: Vec<Vec<Option<(f64, u32)>>>,
    pub pairings: Vec<Pairing>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtReport>,
    /// Games lost by failing or on time: "game 3: mine (X) forfeits: the
    /// brain exited".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<String>,
    /// Forfeits past the first [`super::tally::LISTED_FORFEITS`], counted only.
    #[serde(skip_serializing_if = "is_zero")]
    pub more_forfeits: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

impl Report {
    /// The report of these games (in any order; games past the pair where
    /// the SPRT stopped the run are left out). For tests and small runs:
    /// a run folds its games into a [`Tally`] as they come.
    pub fn new(settings: &Settings, games: &[PlayedGame]) -> Report {
        let mut tally = Tally::new(settings.clone());
        for game in games {
            let _ = tally.add(game);
        }
        Report::from_tally(&tally)
    }

    /// The report of a tally.
    pub fn from_tally(tally: &Tally) -> Report {
        let settings = &tally.settings;
        let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
        let n = names.len();
        let counts = tally.counts();
        let mut report = Report {
            size: settings.size,
            goal: settings.goal,
            rule: settings.rule,
            komi: settings.komi2.map(|k| k as f32 / 2.0),
            handicap: settings.handicap,
            format: settings.format,
            openings: settings.openings.clone(),
            seed: settings.seed,
            time_control: settings.time_control(),
            games: counts.games,
            scheduled: tally.schedule().len(),
            first_wins: counts.first_wins,
            second_wins: counts.second_wins,
            draws: counts.draws,
            ranking: Vec::new(),
            engines: names,
            crosstable: vec![vec![None; n]; n],
            pairings: Vec::new(),
            sprt: None,
            forfeits: counts.forfeits.clone(),
            more_forfeits: counts.more_forfeits,
        };
        report.add_meetings(&counts, settings.format);
        report.add_standings(&counts, settings);
        // A shard's own run leaves the test to the merge of the shards.
        if let Some(sprt) = settings.sprt.filter(|_| tally.sprt_stops()) {
            let penta = tally.sprt().pentanomial;
            let llr = sprt.llr(&penta);
            let (lower, upper) = sprt.bounds();
            report.sprt = Some(SprtReport {
                model: sprt.model,
                elo0: sprt.elo0,
                elo1: sprt.elo1,
                alpha: sprt.alpha,
                beta: sprt.beta,
                llr,
                lower,
                upper,
                verdict: sprt.verdict(llr),
                pairs: penta.pairs(),
            });
        }
        report
    }

    /// The crosstable and the pairings, from the meetings.
    fn add_meetings(&mut self, counts: &Counts, format: super::Format) {
        for (a, b) in pairings(self.engines.len(), format) {
            let Some(meeting) = counts.meetings.get(&(a, b)) else {
                continue;
            };
            let [aw, d, bw] = meeting.wdl;
            let games = aw + d + bw;
            let a_points = aw as f64 + d as f64 / 2.0;
            self.crosstable[a][b] = Some((a_points, games));
            self.crosstable[b][a] = Some((games as f64 - a_points, games));
            let elo = meeting.samples.estimate();
            let figures = meeting.pentanomial.figures();
            self.pairings.push(Pairing {
                a: self.engines[a].clone(),
                b: self.engines[b].clone(),
                games,
                a_wins: aw,
                draws: d,
                b_wins: bw,
                pentanomial: meeting.pentanomial,
                elo: elo.map(|e| e.diff),
                elo_lo: elo.map(|e| e.lo),
                elo_hi: elo.map(|e| e.hi),
                nelo: figures.map(|f| f.nelo),
                nelo_error: figures.map(|f| f.nelo_error),
                los: figures.map(|f| f.los),
                draw_ratio: (meeting.pentanomial.pairs() > 0)
                    .then(|| meeting.pentanomial.0[2] as f64 / meeting.pentanomial.pairs() as f64),
                game_draw_ratio: d as f64 / games.max(1) as f64,
            });
        }
    }

    /// The ranking: best score first, ties in the order the engines were
    /// given.
    fn add_standings(&mut self, counts: &Counts, settings: &Settings) {
        for (e, t) in counts.engines.iter().enumerate() {
            let [w, d, l] = t.wdl;
            let games = w + d + l;
            let elo = t.samples.estimate();
            self.ranking.push(Standing {
                name: self.engines[e].clone(),
                spec: settings.engines[e].spec.clone(),
                games,
                wins: w,
                draws: d,
                losses: l,
                score: share(w, d, games),
                elo: elo.map(|e| e.diff),
                elo_lo: elo.map(|e| e.lo),
                elo_hi: elo.map(|e| e.hi),
                ms_per_move: per_move_ms(t.us, t.moves),
                cpu_ms_per_move: per_move_ms(t.cpu_us, t.moves),
                pentanomial: t.pentanomial,
                as_o: t.by_side[0],
                as_x: t.by_side[1],
                forfeits: t.forfeits,
                time_losses: t.time_losses,
            });
        }
        self.ranking.sort_by(|x, y| y.score.total_cmp(&x.score));
    }

    /// The ranking table and its legend.
    fn ranking_text(&self, out: &mut String, width: usize) {
        let _ = writeln!(
            *out,
            "\n{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>6}  {:<27}  {:>8} {:>8}  {:>7}",
            "rank",
            "engine",
            "games",
            "wins",
            "draws",
            "loss",
            "score",
            "Elo (95% interval)",
            "ms/move",
            "cpu ms",
            "F/T"
        );
        for (rank, s) in self.ranking.iter().enumerate() {
            let _ = writeln!(
                *out,
                "{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>5.1}%  {:<27}  {:>8.1} {:>8.1}  {:>7}",
                rank + 1,
                s.name,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.score,
                elo_text(s.elo, s.elo_lo, s.elo_hi, s.score, s.games),
                s.ms_per_move,
                s.cpu_ms_per_move,
                format!("{}/{}", s.forfeits, s.time_losses)
            );
        }
        let _ = writeln!(
            *out,
            "(ms/move wall time, cpu ms its CPU time a move; F/T games lost by forfeit / on time)"
        );
    }

    /// Each engine's score as O and as X, in the ranking's order:
    /// "scores as O: a 95.0% of 40, b 62.5% of 40; as X: …".
    fn sides_text(&self, out: &mut String) {
        let side = |wdl: fn(&Standing) -> [u32; 3]| -> String {
            let scores: Vec<String> = self
                .ranking
                .iter()
                .filter_map(|s| {
                    let [w, d, l] = wdl(s);
                    let games = w + d + l;
                    (games > 0).then(|| {
                        let score = 100.0 * share(w, d, games);
                        format!("{} {score:.1}% of {games}", s.name)
                    })
                })
                .collect();
            scores.join(", ")
        };
        let (o, x) = (side(|s| s.as_o), side(|s| s.as_x));
        if !o.is_empty() || !x.is_empty() {
            let _ = writeln!(*out, "scores as O: {o}; as X: {x}");
        }
    }

    /// The report as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let game = match self.komi {
            Some(komi) => {
                let handicap = match self.handicap {
                    0 => String::new(),
                    h => format!(", handicap {h}"),
                };
                format!("{n}x{n} Go, komi {komi}{handicap}", n = self.size)
            }
            None => format!(
                "{n}x{n} with {}",
                self.rule.in_a_row(self.goal),
                n = self.size
            ),
        };
        let _ = writeln!(
            out,
            "{} games of {}, {game}, {}, openings {}, seed {}, {}",
            self.games, self.scheduled, self.format, self.openings, self.seed, self.time_control
        );
        let width = self
            .engines
            .iter()
            .map(|e| e.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        self.ranking_text(&mut out, width);
        if self.engines.len() > 2 {
            self.crosstable_text(&mut out, width);
        }
        let _ = writeln!(
            out,
            "\npairs [LL LD DD/WL WD WW] and Elo of the first against the second:"
        );
        for p in &self.pairings {
            let [ll, ld, dd, wd, ww] = p.pentanomial.0;
            let score = share(p.a_wins, p.draws, p.games);
            let _ = writeln!(
                out,
                "  {} vs {}: {} wins, {} draws, {} losses  [{ll} {ld} {dd} {wd} {ww}]  Elo difference: {}",
                p.a,
                p.b,
                p.a_wins,
                p.draws,
                p.b_wins,
                elo_text(p.elo, p.elo_lo, p.elo_hi, score, p.games)
            );
            let mut extra = match (p.nelo, p.nelo_error, p.los) {
                (Some(n), Some(e), Some(los)) => {
                    format!("nElo {n:+.1} ± {e:.1}, LOS {:.1}%, ", 100.0 * los)
                }
                _ => String::new(),
            };
            if let Some(pairs) = p.draw_ratio {
                extra += &format!("draw ratio {:.1}% of pairs, ", 100.0 * pairs);
            }
            extra += &format!("{:.1}% of games drawn", 100.0 * p.game_draw_ratio);
            let _ = writeln!(out, "    {extra}");
        }
        let _ = writeln!(
            out,
            "\nfirst player (O) wins {}, second player (X) wins {}, draws {}",
            self.first_wins, self.second_wins, self.draws
        );
        self.sides_text(&mut out);
        if let Some(s) = &self.sprt {
            let _ = writeln!(
                out,
                "SPRT {} vs {}, {} Elo, elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) after {} pairs: {}",
                self.engines.first().map_or("", String::as_str),
                self.engines.get(1).map_or("", String::as_str),
                match s.model {
                    super::stats::EloModel::Normalized => "normalized",
                    super::stats::EloModel::Logistic => "logistic",
                },
                s.elo0,
                s.elo1,
                s.alpha,
                s.beta,
                s.llr,
                s.lower,
                s.upper,
                s.pairs,
                match s.verdict {
                    Verdict::H1 => "H1 accepted",
                    Verdict::H0 => "H0 accepted",
                    Verdict::Continue => "not decided",
                }
            );
        }
        for f in &self.forfeits {
            let _ = writeln!(out, "{f}");
        }
        if self.more_forfeits > 0 {
            let _ = writeln!(
                out,
                "… and {} more forfeits (the ranking counts each engine's)",
                self.more_forfeits
            );
        }
        out
    }

    /// The crosstable: the points of the row's engine against the column's.
    fn crosstable_text(&self, out: &mut String, width: usize) {
        let _ = writeln!(
            out,
            "\ncrosstable (points of the row's engine against the column's):"
        );
        let cell = 9;
        let _ = write!(out, "{:<width$}", "");
        for name in &self.engines {
            let _ = write!(
                out,
                " {:>cell$}",
                name.chars().take(cell).collect::<String>()
            );
        }
        out.push('\n');
        for (i, name) in self.engines.iter().enumerate() {
            let _ = write!(out, "{name:<width$}");
            for entry in &self.crosstable[i] {
                let text = match entry {
                    Some((points, games)) => format!("{points}/{games}"),
                    None => "·".into(),
                };
                let _ = write!(out, " {text:>cell$}");
            }
            out.push('\n');
        }
    }
}

fn elo_text(elo: Option<f64>, lo: Option<f64>, hi: Option<f64>, score: f64, games: u32) -> String {
    match (elo, lo, hi) {
        // A run stopped before its first game: nothing won or lost.
        _ if games == 0 => "no games".into(),
        (Some(d), Some(lo), Some(hi)) if lo == hi => format!("{d:+.0} (no spread)"),
        (Some(d), Some(lo), Some(hi)) => format!("{d:+.0} ({lo:+.0} to {hi:+.0})"),
        _ if score >= 1.0 => "unbounded: won every game".into(),
        _ if score <= 0.0 => "unbounded: lost every game".into(),
        _ => "n/a".into(),
    }
}

/// Milliseconds a move from a total in microseconds.
/// The share of the points (a win 1, a draw ½) of `games`; 0 for none.
fn share(wins: u32, draws: u32, games: u32) -> f64 {
    if games == 0 {
        return 0.0;
    }
    (wins as f64 + draws as f64 / 2.0) / games as f64
}

fn per_move_ms(total_us: u64, moves: u64) -> f64 {
    if moves == 0 {
        0.0
    } else {
        total_us as f64 / 1000.0 / moves as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{End, GameResult};

    /// Game `game` of the run, `first` against `second`, a win of `result`.
    fn won(game: u32, first: &str, second: &str, result: GameResult) -> PlayedGame {
        PlayedGame {
            game,
            first: first.into(),
            second: second.into(),
            opening: 0,
            moves: vec![0, 1, 2, 3, 4],
            us: vec![0; 5],
            cpu_us: [0; 2],
            result,
            end: End::Line,
            reason: "3 in a row".into(),
            transcripts: Vec::new(),
        }
    }

    #[test]
    fn draw_ratio_counts_pairs_that_split_as_fastchess_does_and_games_drawn_beside() {
        // Pair 1: each wins as the first player (a win and a loss: one
        // point of two, fastchess's "draw" pair); pair 2: a wins both.
        // No game is drawn.
        let mut settings = Settings::example();
        settings.games = 4;
        settings.limit = crate::engines::RunLimit::Millis(200);
        let games = [
            won(0, "a", "b", GameResult::First),
            won(1, "b", "a", GameResult::First),
            won(2, "a", "b", GameResult::First),
            won(3, "b", "a", GameResult::Second),
        ];
        let report = Report::new(&settings, &games);
        let pairing = &report.pairings[0];
        assert_eq!(pairing.pentanomial.0, [0, 0, 1, 0, 1]);
        assert_eq!(pairing.draw_ratio, Some(0.5));
        assert_eq!(pairing.game_draw_ratio, 0.0);
        let text = report.to_text();
        assert!(
            text.contains("draw ratio 50.0% of pairs, 0.0% of games drawn"),
            "{text}"
        );
        // The time control in the header and the JSON.
        assert!(
            text.lines()
                .next()
                .is_some_and(|l| l.ends_with("seed 1, 200 ms a move")),
            "{text}"
        );
        settings.match_ms = Some(60_000);
        settings.increment_ms = Some(600);
        settings.limit = crate::engines::RunLimit::Default;
        assert_eq!(Report::new(&settings, &games).time_control, "tc 60+0.6");
    }

    #[test]
    fn an_engine_without_games_has_no_rating_and_no_verdict() {
        assert_eq!(elo_text(None, None, None, 0.0, 0), "no games");
        assert_eq!(
            elo_text(None, None, None, 0.0, 4),
            "unbounded: lost every game"
        );
        assert_eq!(
            elo_text(None, None, None, 1.0, 4),
            "unbounded: won every game"
        );
        assert_eq!(
            elo_text(Some(50.0), Some(-10.0), Some(110.0), 0.6, 40),
            "+50 (-10 to +110)"
        );
    }
}
