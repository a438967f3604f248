//! `kxo-tui arena`: many games between two engines, with an Elo estimate.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::ai::rl::SharedTable;
use crate::ai::{EngineKind, ThinkLimit, Unlimited, make_engine_with};
use crate::game::{GameRecord, Outcome, Player, Position, Rules};

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub rules: Rules,
    pub o: EngineKind,
    pub x: EngineKind,
    pub games: u32,
    pub seed: u64,
    pub limit: ThinkLimit,
    /// The learning player's table (shared by both seats if both are RL).
    pub rl: Option<SharedTable>,
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ArenaReport {
    pub games: u32,
    pub o_wins: u32,
    pub x_wins: u32,
    pub draws: u32,
    /// O's rating minus X's; `null` when one side won every point.
    pub elo_diff: Option<f64>,
    /// Half-width of the 95% interval of `elo_diff`.
    pub elo_ci95: Option<f64>,
    pub o_ms_per_move: f64,
    pub x_ms_per_move: f64,
    pub seed: u64,
    #[serde(skip)]
    pub o_engine: String,
    #[serde(skip)]
    pub x_engine: String,
}

/// Plays the games; `on_game` is called after each one (for a progress bar).
pub fn run(config: &ArenaConfig, mut on_game: impl FnMut(&GameRecord)) -> ArenaReport {
    let rules = config.rules;
    let mut seats = [
        make_engine_with(
            config.o,
            rules,
            config.limit,
            seed_for(config.seed, 0),
            config.rl.as_ref(),
        ),
        make_engine_with(
            config.x,
            rules,
            config.limit,
            seed_for(config.seed, 1),
            config.rl.as_ref(),
        ),
    ];
    let mut think = [Duration::ZERO; 2];
    let mut moves = [0u64; 2];
    let mut report = ArenaReport {
        games: config.games,
        seed: config.seed,
        o_engine: config.o.name().into(),
        x_engine: config.x.name().into(),
        ..ArenaReport::default()
    };
    let mut scores = Vec::with_capacity(config.games as usize);
    for game in 0..config.games {
        let mut pos = Position::new(rules);
        let mut record = GameRecord::new(rules);
        record.id = Some(game as u64);
        while !pos.outcome().is_over() {
            let side = pos.to_move().index();
            let start = Instant::now();
            let cell = seats[side].choose(&pos, &mut Unlimited::new());
            think[side] += start.elapsed();
            moves[side] += 1;
            if pos.play(cell).is_err() {
                // An engine that picks an illegal move forfeits the game.
                record.outcome = Outcome::Win(pos.to_move().other());
                break;
            }
            record.moves.push(cell);
            record.outcome = pos.outcome();
        }
        for (side, seat) in seats.iter_mut().enumerate() {
            let me = if side == 0 { Player::O } else { Player::X };
            seat.game_over(&record, me);
        }
        let score = match record.outcome {
            Outcome::Win(Player::O) => {
                report.o_wins += 1;
                1.0
            }
            Outcome::Win(Player::X) => {
                report.x_wins += 1;
                0.0
            }
            _ => {
                report.draws += 1;
                0.5
            }
        };
        scores.push(score);
        on_game(&record);
    }
    let ms = |t: Duration, n: u64| {
        if n == 0 {
            0.0
        } else {
            t.as_secs_f64() * 1e3 / n as f64
        }
    };
    report.o_ms_per_move = ms(think[0], moves[0]);
    report.x_ms_per_move = ms(think[1], moves[1]);
    (report.elo_diff, report.elo_ci95) = elo_estimate(&scores);
    report
}

/// A per-seat seed, different for each side.
fn seed_for(seed: u64, side: u64) -> u64 {
    seed.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(side * 0x2545_f491_4f6c_dd1d + 1)
}

fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Elo difference from per-game scores (1, ½, 0) and the half-width of its
/// 95% interval (normal approximation of the mean score). `None` when the
/// mean score is 0 or 1: the difference is then unbounded.
pub fn elo_estimate(scores: &[f64]) -> (Option<f64>, Option<f64>) {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return (None, None);
    }
    let mean = scores.iter().sum::<f64>() / n;
    if mean <= 0.0 || mean >= 1.0 {
        return (None, None);
    }
    let var = scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / n;
    let se = (var / n).sqrt();
    let clamp = |p: f64| p.clamp(1e-6, 1.0 - 1e-6);
    let lo = elo(clamp(mean - 1.96 * se));
    let hi = elo(clamp(mean + 1.96 * se));
    (Some(elo(mean)), Some((hi - lo) / 2.0))
}

impl ArenaReport {
    pub fn to_text(&self) -> String {
        let pct = |n: u32| 100.0 * n as f64 / self.games.max(1) as f64;
        let elo = match (self.elo_diff, self.elo_ci95) {
            (Some(d), Some(ci)) => format!("{d:+.0} ± {ci:.0} (95%), O minus X"),
            _ if self.o_wins == self.games => "unbounded: O won every game".into(),
            _ if self.x_wins == self.games => "unbounded: X won every game".into(),
            _ => "n/a".into(),
        };
        format!(
            "{games} games, O = {o}, X = {x}, seed {seed}\n\
             O wins:  {ow:>6} ({owp:5.1}%)\n\
             X wins:  {xw:>6} ({xwp:5.1}%)\n\
             draws:   {d:>6} ({dp:5.1}%)\n\
             time per move: O {oms:.3} ms, X {xms:.3} ms\n\
             Elo difference: {elo}\n",
            games = self.games,
            o = self.o_engine,
            x = self.x_engine,
            seed = self.seed,
            ow = self.o_wins,
            owp = pct(self.o_wins),
            xw = self.x_wins,
            xwp = pct(self.x_wins),
            d = self.draws,
            dp = pct(self.draws),
            oms = self.o_ms_per_move,
            xms = self.x_ms_per_move,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_an_even_score_is_zero() {
        let (d, ci) = elo_estimate(&[1.0, 0.0, 0.5, 0.5]);
        assert!(d.unwrap().abs() < 1e-9);
        assert!(ci.unwrap() > 0.0);
    }

    #[test]
    fn elo_of_three_quarters_is_about_191() {
        let scores: Vec<f64> = (0..400)
            .map(|i| if i % 4 == 0 { 0.0 } else { 1.0 })
            .collect();
        let (d, ci) = elo_estimate(&scores);
        assert!((d.unwrap() - 190.85).abs() < 0.1, "{d:?}");
        // se = sqrt(0.1875 / 400) ≈ 0.02165; Elo(0.75 ± 1.96 se) spans
        // 151.9 to 231.1, a half-width of 39.61.
        assert!((ci.unwrap() - 39.61).abs() < 0.01, "{ci:?}");
    }

    #[test]
    fn a_clean_sweep_has_no_finite_elo() {
        assert_eq!(elo_estimate(&[1.0; 10]), (None, None));
    }

    #[test]
    fn same_seed_same_result() {
        let config = ArenaConfig {
            rules: Rules::default_rules(),
            o: EngineKind::Mcts,
            x: EngineKind::Random,
            games: 6,
            seed: 42,
            limit: ThinkLimit::Default {
                mcts_iterations: 500,
            },
            rl: None,
        };
        let strip = |mut r: ArenaReport| {
            r.o_ms_per_move = 0.0;
            r.x_ms_per_move = 0.0;
            r
        };
        let mut records_a = Vec::new();
        let a = strip(run(&config, |r| records_a.push(r.notation())));
        let mut records_b = Vec::new();
        let b = strip(run(&config, |r| records_b.push(r.notation())));
        assert_eq!(a, b);
        assert_eq!(records_a, records_b);
    }
}
