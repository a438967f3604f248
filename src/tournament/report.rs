//! The report of a run: a function of its settings and its finished games
//! alone, so a resumed run, a single run and merged shards agree.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::Serialize;

use super::stats::{Pentanomial, Verdict};
use super::{End, GameResult, PlayedGame, Settings, Slot, pairings, schedule};
use crate::elo::elo_estimate;

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
    /// Its pairs' outcomes `[LL, LD, DD+WL, WD, WW]`.
    pub pentanomial: Pentanomial,
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
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
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
    pub format: super::Format,
    pub openings: String,
    pub seed: u64,
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
}

/// A game's points for the engine that played first.
fn first_points(result: GameResult) -> u32 {
    match result {
        GameResult::First => 2,
        GameResult::Draw => 1,
        GameResult::Second => 0,
    }
}

/// A pair's number and its games, `None` where one is not finished.
type PairGames<'a> = (u32, Vec<(Slot, Option<&'a PlayedGame>)>);

/// What two engines did against each other: their pairs from the first's
/// side, its Elo samples, and its [wins, draws, losses].
#[derive(Default)]
struct Meeting {
    pentanomial: Pentanomial,
    samples: Vec<f64>,
    wdl: [u32; 3],
}

/// The games of each pair in schedule order.
fn pairs<'a>(slots: &[Slot], by_game: &HashMap<u32, &'a PlayedGame>) -> Vec<PairGames<'a>> {
    let mut out: Vec<PairGames> = Vec::new();
    for slot in slots {
        let game = by_game.get(&slot.game).copied();
        match out.last_mut() {
            Some((pair, games)) if *pair == slot.pair => games.push((*slot, game)),
            _ => out.push((slot.pair, vec![(*slot, game)])),
        }
    }
    out
}

/// The SPRT's pentanomial after the first `n` complete pairs: the pairs
/// in order, as far as every game of them is finished.
fn sprt_pentanomials(settings: &Settings, games: &[PlayedGame]) -> Vec<Pentanomial> {
    let slots = schedule(settings);
    let by_game: HashMap<u32, &PlayedGame> = games.iter().map(|g| (g.game, g)).collect();
    let mut penta = Pentanomial::default();
    let mut out = Vec::new();
    for (_, pair) in pairs(&slots, &by_game) {
        if pair.iter().any(|(_, g)| g.is_none()) {
            break;
        }
        // From engine 0's side; a pair of one game counts twice.
        let half: u32 = pair
            .iter()
            .map(|(slot, g)| {
                let p = first_points(g.map_or(GameResult::Draw, |g| g.result));
                if slot.first == 0 { p } else { 2 - p }
            })
            .sum();
        penta.add(if pair.len() == 1 { half * 2 } else { half });
        out.push(penta);
    }
    out
}

/// The games that count, in game order, each once: those of the pairs up
/// to the one after which the SPRT stopped the run.
fn counted_games<'a>(
    slots: &[Slot],
    games: &'a [PlayedGame],
    decided: Option<u32>,
) -> Vec<&'a PlayedGame> {
    let last_pair = decided.unwrap_or(u32::MAX);
    let pair_of: HashMap<u32, u32> = slots.iter().map(|s| (s.game, s.pair)).collect();
    let mut counted: Vec<&PlayedGame> = games
        .iter()
        .filter(|g| pair_of.get(&g.game).is_some_and(|&p| p <= last_pair))
        .collect();
    counted.sort_by_key(|g| g.game);
    counted.dedup_by_key(|g| g.game);
    counted
}

/// The pair after which the SPRT stopped the run, if it did.
pub fn sprt_decided(settings: &Settings, games: &[PlayedGame]) -> Option<u32> {
    let sprt = settings.sprt?;
    sprt_pentanomials(settings, games)
        .iter()
        .position(|p| sprt.verdict(sprt.llr(p)) != Verdict::Continue)
        .map(|i| i as u32)
}

/// What one engine did over the counted games.
#[derive(Clone, Default)]
struct EngineTally {
    /// Wins, draws, losses.
    wdl: [u32; 3],
    /// Its own moves (after the opening) and their thinking time (µs).
    moves: u64,
    us: u64,
    /// Its Elo samples: a pair's score, or a lone game's (0 to 1).
    samples: Vec<f64>,
    pentanomial: Pentanomial,
}

/// The counted games, summed per engine and per meeting of two engines.
struct Tally {
    engines: Vec<EngineTally>,
    meetings: HashMap<(usize, usize), Meeting>,
}

impl Tally {
    /// Adds one pair's finished games (one or two), counting the colours'
    /// results and the forfeits into `report`.
    fn add_pair(&mut self, played: &[(Slot, &PlayedGame)], report: &mut Report) {
        for (slot, game) in played {
            match game.result {
                GameResult::First => report.first_wins += 1,
                GameResult::Second => report.second_wins += 1,
                GameResult::Draw => report.draws += 1,
            }
            if matches!(game.end, End::Forfeit | End::Time) {
                report
                    .forfeits
                    .push(format!("game {}: {}", game.game + 1, game.reason));
            }
            let p = first_points(game.result);
            for (engine, points) in [(slot.first, p), (slot.second, 2 - p)] {
                let tally = &mut self.engines[engine];
                tally.wdl[2 - points as usize] += 1;
                // The engine's own moves: the first player's are the even
                // ones after the opening, whoever placed it.
                let own = if engine == slot.first { 0 } else { 1 };
                for (i, us) in game.us.iter().enumerate().skip(game.opening) {
                    if i % 2 == own {
                        tally.moves += 1;
                        tally.us += *us;
                    }
                }
            }
        }
        let Some((first_slot, _)) = played.first() else {
            return;
        };
        let (a, b) = (
            first_slot.first.min(first_slot.second),
            first_slot.first.max(first_slot.second),
        );
        let a_half: u32 = played
            .iter()
            .map(|(s, g)| {
                let p = first_points(g.result);
                if s.first == a { p } else { 2 - p }
            })
            .sum();
        let meeting = self.meetings.entry((a, b)).or_default();
        if played.len() == 2 {
            self.engines[a].pentanomial.add(a_half);
            self.engines[b].pentanomial.add(4 - a_half);
            meeting.pentanomial.add(a_half);
        }
        // Elo samples: a whole pair is one sample, a lone game its own.
        let sample = a_half as f64 / (2.0 * played.len() as f64);
        self.engines[a].samples.push(sample);
        self.engines[b].samples.push(1.0 - sample);
        meeting.samples.push(sample);
        for (s, g) in played {
            let column = match winner(s, g) {
                Some(w) if w == a => 0,
                Some(_) => 2,
                None => 1,
            };
            meeting.wdl[column] += 1;
        }
    }
}

impl Report {
    /// The report of these games (in any order; games past the pair where
    /// the SPRT stopped the run are left out).
    pub fn new(settings: &Settings, games: &[PlayedGame]) -> Report {
        let slots = schedule(settings);
        let names: Vec<String> = settings.engines.iter().map(|e| e.name.clone()).collect();
        let n = names.len();
        let decided = sprt_decided(settings, games);
        let counted = counted_games(&slots, games, decided);
        let by_game: HashMap<u32, &PlayedGame> = counted.iter().map(|g| (g.game, *g)).collect();
        let mut report = Report {
            size: settings.size,
            goal: settings.goal,
            format: settings.format,
            openings: settings.openings.clone(),
            seed: settings.seed,
            games: counted.len() as u32,
            scheduled: slots.len() as u32,
            first_wins: 0,
            second_wins: 0,
            draws: 0,
            ranking: Vec::new(),
            engines: names,
            crosstable: vec![vec![None; n]; n],
            pairings: Vec::new(),
            sprt: None,
            forfeits: Vec::new(),
        };
        let mut tally = Tally {
            engines: vec![EngineTally::default(); n],
            meetings: HashMap::new(),
        };
        for (_, pair) in pairs(&slots, &by_game) {
            let played: Vec<(Slot, &PlayedGame)> = pair
                .iter()
                .filter_map(|(s, g)| g.map(|g| (*s, g)))
                .collect();
            tally.add_pair(&played, &mut report);
        }
        report.add_meetings(&tally, settings.format);
        report.add_standings(&tally, settings);
        if let Some(sprt) = settings.sprt {
            let seen = sprt_pentanomials(settings, games);
            let stop = decided.map_or(seen.len(), |p| p as usize + 1);
            let penta = seen.get(stop.wrapping_sub(1)).copied().unwrap_or_default();
            let llr = sprt.llr(&penta);
            let (lower, upper) = sprt.bounds();
            report.sprt = Some(SprtReport {
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
    fn add_meetings(&mut self, tally: &Tally, format: super::Format) {
        for (a, b) in pairings(self.engines.len(), format) {
            let Some(meeting) = tally.meetings.get(&(a, b)) else {
                continue;
            };
            let [aw, d, bw] = meeting.wdl;
            let games = aw + d + bw;
            let a_points = aw as f64 + d as f64 / 2.0;
            self.crosstable[a][b] = Some((a_points, games));
            self.crosstable[b][a] = Some((games as f64 - a_points, games));
            let elo = elo_estimate(&meeting.samples);
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
            });
        }
    }

    /// The ranking: best score first, ties in the order the engines were
    /// given.
    fn add_standings(&mut self, tally: &Tally, settings: &Settings) {
        for (e, t) in tally.engines.iter().enumerate() {
            let [w, d, l] = t.wdl;
            let games = w + d + l;
            let elo = elo_estimate(&t.samples);
            self.ranking.push(Standing {
                name: self.engines[e].clone(),
                spec: settings.engines[e].spec.clone(),
                games,
                wins: w,
                draws: d,
                losses: l,
                score: if games == 0 {
                    0.0
                } else {
                    (w as f64 + d as f64 / 2.0) / games as f64
                },
                elo: elo.map(|e| e.diff),
                elo_lo: elo.map(|e| e.lo),
                elo_hi: elo.map(|e| e.hi),
                ms_per_move: if t.moves == 0 {
                    0.0
                } else {
                    t.us as f64 / 1000.0 / t.moves as f64
                },
                pentanomial: t.pentanomial,
            });
        }
        self.ranking.sort_by(|x, y| y.score.total_cmp(&x.score));
    }

    /// The report as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} games of {}, {}x{} with {} in a row, {}, openings {}, seed {}",
            self.games,
            self.scheduled,
            self.size,
            self.size,
            self.goal,
            self.format,
            self.openings,
            self.seed
        );
        let width = self
            .engines
            .iter()
            .map(|e| e.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        let _ = writeln!(
            out,
            "\n{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>6}  {:<27}  {:>8}",
            "rank",
            "engine",
            "games",
            "wins",
            "draws",
            "loss",
            "score",
            "Elo (95% interval)",
            "ms/move"
        );
        for (rank, s) in self.ranking.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>6} {:>5} {:>5} {:>5}  {:>5.1}%  {:<27}  {:>8.1}",
                rank + 1,
                s.name,
                s.games,
                s.wins,
                s.draws,
                s.losses,
                100.0 * s.score,
                elo_text(s.elo, s.elo_lo, s.elo_hi, s.score),
                s.ms_per_move
            );
        }
        if self.engines.len() > 2 {
            self.crosstable_text(&mut out, width);
        }
        let _ = writeln!(
            out,
            "\npairs [LL LD DD/WL WD WW] and Elo of the first against the second:"
        );
        for p in &self.pairings {
            let [ll, ld, dd, wd, ww] = p.pentanomial.0;
            let score = (p.a_wins as f64 + p.draws as f64 / 2.0) / p.games.max(1) as f64;
            let _ = writeln!(
                out,
                "  {} vs {}: {} wins, {} draws, {} losses  [{ll} {ld} {dd} {wd} {ww}]  Elo difference: {}",
                p.a,
                p.b,
                p.a_wins,
                p.draws,
                p.b_wins,
                elo_text(p.elo, p.elo_lo, p.elo_hi, score)
            );
        }
        let _ = writeln!(
            out,
            "\nfirst player (O) wins {}, second player (X) wins {}, draws {}",
            self.first_wins, self.second_wins, self.draws
        );
        if let Some(s) = &self.sprt {
            let _ = writeln!(
                out,
                "SPRT {} vs {}, elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}) after {} pairs: {}",
                self.engines.first().map_or("", String::as_str),
                self.engines.get(1).map_or("", String::as_str),
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

/// The engine that won the game, if one did.
fn winner(slot: &Slot, game: &PlayedGame) -> Option<usize> {
    match game.result {
        GameResult::First => Some(slot.first),
        GameResult::Second => Some(slot.second),
        GameResult::Draw => None,
    }
}

fn elo_text(elo: Option<f64>, lo: Option<f64>, hi: Option<f64>, score: f64) -> String {
    match (elo, lo, hi) {
        (Some(d), Some(lo), Some(hi)) if lo == hi => format!("{d:+.0} (no spread)"),
        (Some(d), Some(lo), Some(hi)) => format!("{d:+.0} ({lo:+.0} to {hi:+.0})"),
        _ if score >= 1.0 => "unbounded: won every game".into(),
        _ if score <= 0.0 => "unbounded: lost every game".into(),
        _ => "n/a".into(),
    }
}
