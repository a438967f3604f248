//! `kxo-tui train` on boards above 8x8: the learner's line patterns
//! learned by self-play, with a learning curve of its score against a
//! fixed yardstick (`ai::big::yardstick`: no solver reaches these boards).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use kxo_engine::Rules;
use kxo_engine::gomoku::BigRl;
use kxo_engine::learner::SharedTable;
pub(super) use kxo_engine::learner::YARDSTICK_NODES;
use kxo_engine::learner::{against_yardstick, play_yardstick};
use kxo_engine::{Tally, play_game};

/// Whom the learner plays while it learns above 8x8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partner {
    /// Itself: self-play.
    Itself,
    /// Every other game the yardstick, Negamax held to 256 nodes a move.
    Negamax,
}

/// Games of the default training above 8x8 (about a millisecond each).
pub(super) const DEFAULT_EPISODES: u64 = 20_000;
/// Mixed into the seed of the training games against the yardstick, so
/// that they start from other openings than the curve's.
const TRAINING_OPENINGS: u64 = 0x0074_7261_696e;
/// Exploration at the start and at the end of training (it decays linearly).
const EPSILON_START: f64 = 0.2;
const EPSILON_END: f64 = 0.05;
pub(super) use kxo_engine::learner::YARDSTICK_GAMES as CURVE_GAMES;

/// One point of the curve: games learned, and the learner's results
/// against the yardstick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BigPoint {
    pub episodes: u64,
    pub tally: Tally,
}

impl BigPoint {
    /// Wins and half the draws, over the games.
    pub(super) fn score(&self) -> f64 {
        self.tally.score()
    }
}

/// Trains `table` (line patterns of `rules`) for `episodes` games against
/// `partner` (itself, or every other game the yardstick), measuring the
/// curve `points` times (never when 0). Stops early, keeping what it
/// learned, when `stop` is set. `on_progress(games done, latest point)` is
/// called every 1,000 games.
pub(super) fn train_big(
    table: &SharedTable,
    partner: Partner,
    episodes: u64,
    seed: u64,
    points: u64,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(u64, Option<&BigPoint>),
) -> (Vec<BigPoint>, u64, Duration) {
    let start = Instant::now();
    let rules: Rules = table.borrow().rules();
    let mut players = [0, 1].map(|i| {
        let mut p = BigRl::new(rules, table.clone(), seed ^ (0x9e37 * i));
        // Learned once per game, below.
        p.learning = false;
        p
    });
    let every = episodes.checked_div(points).map_or(u64::MAX, |e| e.max(1));
    let measure = |done: u64| BigPoint {
        episodes: done,
        tally: against_yardstick(table, CURVE_GAMES, seed ^ 0x5eed),
    };
    let mut curve = Vec::new();
    if points > 0 {
        curve.push(measure(0));
    }
    on_progress(0, curve.last());
    let mut done = 0;
    while done < episodes && !stop.load(Ordering::Relaxed) {
        let progress = done as f64 / episodes as f64;
        let epsilon = EPSILON_START + (EPSILON_END - EPSILON_START) * progress;
        let [o, x] = &mut players;
        o.epsilon = epsilon;
        x.epsilon = epsilon;
        let record = match partner {
            // Its own openings, not the curve's.
            Partner::Negamax if done % 2 == 1 => {
                play_yardstick(table, done as u32, seed ^ TRAINING_OPENINGS, epsilon).0
            }
            _ => play_game(rules, &mut [o, x]),
        };
        table
            .borrow_mut()
            .learn(&record, kxo_engine::learner::ALPHA);
        done += 1;
        if points > 0 && (done % every == 0 || done == episodes) {
            curve.push(measure(done));
            on_progress(done, curve.last());
        } else if done % 1_000 == 0 {
            on_progress(done, None);
        }
    }
    if curve.last().is_some_and(|p| p.episodes != done) {
        curve.push(measure(done));
    }
    (curve, done, start.elapsed())
}

/// The curve as a table.
pub(super) fn curve_table(curve: &[BigPoint]) -> String {
    let mut out = format!(
        "{:>10}  {:>6}  {:>5}  {:>5}  {:>6}\n",
        "episodes", "score", "won", "drawn", "lost"
    );
    for p in curve {
        out.push_str(&format!(
            "{:>10}  {:>5.1}%  {:>5}  {:>5}  {:>6}\n",
            super::thousands(p.episodes),
            100.0 * p.score(),
            p.tally.wins,
            p.tally.draws,
            p.tally.losses
        ));
    }
    out
}
