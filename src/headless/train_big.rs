//! `kxo-tui train` on boards above 8x8: the learner's line patterns
//! learned by self-play, with a learning curve of its score against a
//! fixed yardstick (no solver reaches these boards).
//!
//! The yardstick is Negamax held to a fixed number of nodes a move, so a
//! point of the curve is the same work on any machine and curves of two
//! runs compare.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::games::{Tally, play_from, play_game};
use crate::ai::big::{BigNegamax, BigRl};
use crate::ai::rl::SharedTable;
use crate::ai::{Budget, Engine};
use crate::game::{Cell, Outcome, Player, Position, Rules};

/// Games of the default training above 8x8 (about a millisecond each).
pub const DEFAULT_EPISODES: u64 = 20_000;
/// Exploration at the start and at the end of training (it decays linearly).
const EPSILON_START: f64 = 0.2;
const EPSILON_END: f64 = 0.05;
/// Nodes a move of the yardstick: Negamax ticks its budget every 128.
pub const YARDSTICK_TICKS: u32 = 2;
/// Games against the yardstick per point of the curve, half on each side.
pub const CURVE_GAMES: u32 = 50;

/// One point of the curve: games learned, and the learner's results
/// against the yardstick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BigPoint {
    pub episodes: u64,
    pub tally: Tally,
}

impl BigPoint {
    /// Wins and half the draws, over the games.
    pub fn score(&self) -> f64 {
        let t = self.tally;
        (t.wins as f64 + t.draws as f64 / 2.0) / t.games().max(1) as f64
    }
}

/// A search budget of a fixed number of ticks, whatever the clock says.
struct Ticks(u32);

impl Budget for Ticks {
    fn tick(&mut self) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 > 0
    }
    fn elapsed(&self) -> Duration {
        Duration::ZERO
    }
}

/// Negamax held to [`YARDSTICK_TICKS`] a move.
struct Yardstick(BigNegamax);

impl Engine for Yardstick {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "NEGA".into()
    }
    fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
        self.0.choose(pos, &mut Ticks(YARDSTICK_TICKS))
    }
}

/// The greedy learner (not learning, no exploration) against the
/// yardstick, `games` games in pairs from the same random opening (the
/// tournaments' balanced ones), one on each side; wins are the learner's.
pub fn against_yardstick(table: &SharedTable, games: u32, seed: u64) -> Tally {
    let rules = table.borrow().rules();
    let mut tally = Tally::default();
    for g in 0..games {
        let opening =
            crate::tournament::opening::random(rules, seed.wrapping_add(u64::from(g / 2)));
        let mut learner = BigRl::new(rules, table.clone(), seed ^ u64::from(g));
        learner.learning = false;
        let mut negamax = BigNegamax::new(rules).with_seed(seed.wrapping_add(u64::from(g)));
        // Its threat searches are sized by the time: a few milliseconds'.
        negamax.set_time_limit(Duration::from_millis(5));
        let mut yardstick = Yardstick(negamax);
        let side = if g % 2 == 0 { Player::O } else { Player::X };
        let record = match side {
            Player::O => play_from(rules, &opening, &mut [&mut learner, &mut yardstick]),
            Player::X => play_from(rules, &opening, &mut [&mut yardstick, &mut learner]),
        };
        match record.outcome {
            Outcome::Win(p) if p == side => tally.wins += 1,
            Outcome::Win(_) => tally.losses += 1,
            _ => tally.draws += 1,
        }
    }
    tally
}

/// Trains `table` (line patterns of `rules`) by self-play for `episodes`
/// games, measuring the curve `points` times (never when 0). Stops early,
/// keeping what it learned, when `stop` is set. `on_progress(games done,
/// latest point)` is called every 1,000 games.
pub fn train_big(
    table: &SharedTable,
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
        let record = play_game(rules, &mut [o, x]);
        table.borrow_mut().learn(&record, crate::ai::rl::ALPHA);
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
pub fn curve_table(curve: &[BigPoint]) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::rl::{Init, ValueTable};
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn the_yardstick_is_the_same_work_on_any_machine() {
        // Same seed, same games: the node budget, not the clock, ends
        // each of its searches.
        let rules = Rules::new(15, 5).unwrap();
        let table = Rc::new(RefCell::new(ValueTable::with_init(rules, Init::Network)));
        let a = against_yardstick(&table, 4, 3);
        let b = against_yardstick(&table, 4, 3);
        assert_eq!(a, b);
        // The untrained learner (random moves near the stones) loses.
        assert_eq!(a.losses, 4, "{a:?}");
    }
}
