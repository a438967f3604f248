//! `kxo-tui train`: self-play for the learning player, with a learning curve
//! measured against Random and Negamax as it goes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::ai::rl::{ALPHA, RlPlayer, SharedTable};
use crate::ai::{Engine, EngineKind, ThinkLimit, Unlimited, make_engine};
use crate::game::{GameRecord, Outcome, Player, Position, Rules};

/// Self-play games of the default training.
pub const DEFAULT_EPISODES: u64 = 100_000;
/// Exploration at the start and at the end of training (it decays linearly).
const EPSILON_START: f64 = 0.3;
const EPSILON_END: f64 = 0.02;
/// Games per measurement: against Random, and against Negamax (which is
/// deterministic, so few games tell).
const EVAL_RANDOM: u32 = 200;
const EVAL_NEGAMAX: u32 = 20;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }
    pub fn win_rate(&self) -> f64 {
        self.wins as f64 / self.games().max(1) as f64
    }
}

/// One point of the learning curve: the greedy player as O.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    pub episodes: u64,
    pub vs_random: Tally,
    pub vs_negamax: Tally,
    pub entries: usize,
}

#[derive(Clone, Debug)]
pub struct TrainReport {
    pub episodes: u64,
    pub stopped_early: bool,
    pub elapsed: Duration,
    pub curve: Vec<CurvePoint>,
}

impl TrainReport {
    pub fn episodes_per_second(&self) -> f64 {
        self.episodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The learning curve as a table.
    pub fn curve_table(&self) -> String {
        let pct = |t: Tally, n: u32| 100.0 * n as f64 / t.games().max(1) as f64;
        let mut out = String::from(
            "  episodes   vs Random (as O)         vs Negamax (as O)        table entries\n\
             \x20            win   draw  loss        win   draw  loss\n",
        );
        for p in &self.curve {
            out.push_str(&format!(
                "{:>10}   {:5.1}% {:5.1}% {:5.1}%      {:5.1}% {:5.1}% {:5.1}%     {:>9}\n",
                p.episodes,
                pct(p.vs_random, p.vs_random.wins),
                pct(p.vs_random, p.vs_random.draws),
                pct(p.vs_random, p.vs_random.losses),
                pct(p.vs_negamax, p.vs_negamax.wins),
                pct(p.vs_negamax, p.vs_negamax.draws),
                pct(p.vs_negamax, p.vs_negamax.losses),
                p.entries
            ));
        }
        out
    }
}

/// Plays one game; `seats[0]` is O.
pub fn play_game(rules: Rules, seats: &mut [&mut dyn Engine; 2]) -> GameRecord {
    let mut pos = Position::new(rules);
    let mut record = GameRecord::new(rules);
    while !pos.outcome().is_over() {
        let side = pos.to_move().index();
        let cell = seats[side].choose(&pos, &mut Unlimited::new());
        if pos.play(cell).is_err() {
            record.outcome = Outcome::Win(pos.to_move().other());
            return record;
        }
        record.moves.push(cell);
    }
    record.outcome = pos.outcome();
    record
}

/// The greedy learner as O against `opponent`, without learning.
pub fn evaluate(table: &SharedTable, opponent: EngineKind, games: u32, seed: u64) -> Tally {
    evaluate_as(table, Player::O, opponent, games, seed)
}

/// The greedy learner playing `side` against `opponent`, without learning;
/// wins and losses are the learner's.
pub fn evaluate_as(
    table: &SharedTable,
    side: Player,
    opponent: EngineKind,
    games: u32,
    seed: u64,
) -> Tally {
    let rules = table.borrow().rules();
    let mut rl = RlPlayer::new(table.clone(), seed);
    rl.learning = false;
    let mut other = make_engine(opponent, rules, ThinkLimit::default(), seed ^ 0x5eed);
    let mut tally = Tally::default();
    for _ in 0..games {
        let record = match side {
            Player::O => play_game(rules, &mut [&mut rl, other.as_mut()]),
            Player::X => play_game(rules, &mut [other.as_mut(), &mut rl]),
        };
        match record.outcome {
            Outcome::Win(p) if p == side => tally.wins += 1,
            Outcome::Win(_) => tally.losses += 1,
            _ => tally.draws += 1,
        }
    }
    tally
}

fn measure(table: &SharedTable, episodes: u64, seed: u64) -> CurvePoint {
    CurvePoint {
        episodes,
        vs_random: evaluate(table, EngineKind::Random, EVAL_RANDOM, seed ^ episodes),
        vs_negamax: evaluate(table, EngineKind::Negamax, EVAL_NEGAMAX, seed ^ episodes),
        entries: table.borrow().len(),
    }
}

/// Self-play training of `table` for `episodes` games, measuring the curve
/// `points` times. Stops early (keeping what it learned) when `stop` is set.
/// `on_progress(episodes done, latest curve point)` is called every
/// 1,000 games.
pub fn train(
    table: &SharedTable,
    episodes: u64,
    seed: u64,
    points: u64,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(u64, Option<&CurvePoint>),
) -> TrainReport {
    let start = Instant::now();
    let rules = table.borrow().rules();
    let mut player = RlPlayer::new(table.clone(), seed);
    player.learning = false; // learning is done once per game, below
    let every = (episodes / points.max(1)).max(1);
    let mut curve = vec![measure(table, 0, seed)];
    on_progress(0, curve.last());
    let mut done = 0;
    while done < episodes {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let progress = done as f64 / episodes as f64;
        player.epsilon = EPSILON_START + (EPSILON_END - EPSILON_START) * progress;
        // The same player on both sides: it learns both sides' afterstates.
        let record = {
            let mut o = RlPlayer::new(table.clone(), seed ^ done);
            o.epsilon = player.epsilon;
            play_game(rules, &mut [&mut o, &mut player])
        };
        table.borrow_mut().learn(&record, ALPHA);
        done += 1;
        if done % every == 0 || done == episodes {
            curve.push(measure(table, done, seed));
            on_progress(done, curve.last());
        } else if done % 1_000 == 0 {
            on_progress(done, None);
        }
    }
    if curve.last().is_some_and(|p| p.episodes != done) {
        curve.push(measure(table, done, seed));
    }
    TrainReport {
        episodes: done,
        stopped_early: done < episodes,
        elapsed: start.elapsed(),
        curve,
    }
}
