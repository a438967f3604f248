//! A learner's skill measured so that it cannot be fooled: the share of its
//! moves that keep the game-theoretic value (win, draw or loss, judged by
//! the perfect solver), over the positions it meets in games against Random
//! and over a fixed sample of reachable positions.
//!
//! Win rates can flatter a player (on 4x4 with three in a row the untrained
//! heuristic already beats Random); a move that turns a won position into a
//! draw, or a drawn one into a loss, is a mistake whoever the opponent is.

use std::collections::HashMap;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::rl::{RlPlayer, SharedTable};
use super::solver::Solver;
use super::{Engine, RandomPlayer, Unlimited, Value};
use crate::game::{Cell, Outcome, Player, Position, Rules};

/// Moves judged and moves that kept the value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Accuracy {
    pub moves: u64,
    pub kept: u64,
    /// The learner's results, when the moves came from whole games
    /// (against Random): wins, draws, losses.
    pub results: [u32; 3],
}

impl Accuracy {
    /// The share of moves that kept the value (1 when nothing was judged).
    pub fn share(&self) -> f64 {
        if self.moves == 0 {
            1.0
        } else {
            self.kept as f64 / self.moves as f64
        }
    }

    /// Counts one judged move.
    pub fn add(&mut self, kept: bool) {
        self.moves += 1;
        self.kept += u64::from(kept);
    }
}

/// The game-theoretic value of positions, from the solver, remembered.
pub struct Judge {
    solver: Solver,
    known: HashMap<u128, i8>,
    /// Set from outside to stop a measure (its figures are then void).
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Judge {
    pub fn new(rules: Rules) -> Judge {
        Judge {
            solver: Solver::with_hash_bytes(rules, 64 << 20),
            known: HashMap::new(),
            stop: None,
        }
    }

    /// Stops its searches when `stop` is set (their values are then
    /// meaningless: the caller reports nothing).
    pub fn set_stop_flag(&mut self, stop: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.solver.set_stop_flag(stop.clone());
        self.stop = Some(stop);
    }

    /// Whether a stop was asked for: the measure ends early.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// 1 when the side to move wins with perfect play, 0 for a draw, -1
    /// when it loses. `pos` must not be over.
    pub fn value(&mut self, pos: &Position) -> i8 {
        let key = pos.canonical_table();
        if let Some(&v) = self.known.get(&key) {
            return v;
        }
        let v = match self.solver.solve(pos).map(|a| a.value) {
            Ok(Value::Win { .. }) => 1,
            Ok(Value::Loss { .. }) => -1,
            // No limit is set, so the solver always settles.
            _ => 0,
        };
        self.known.insert(key, v);
        v
    }

    /// Whether playing `cell` in `pos` keeps the value `pos` has for the
    /// side to move.
    pub fn keeps(&mut self, pos: &Position, cell: Cell) -> bool {
        let before = self.value(pos);
        let mut after = *pos;
        if after.play(cell).is_err() {
            return false;
        }
        let kept = match after.outcome() {
            Outcome::Win(_) => 1,
            Outcome::Draw => 0,
            Outcome::Ongoing => -self.value(&after),
        };
        kept == before
    }
}

/// The greedy learner (not learning) playing `side` in `games` games
/// against Random: its accuracy over the positions it met.
pub fn against_random(
    table: &SharedTable,
    side: Player,
    games: u32,
    seed: u64,
    judge: &mut Judge,
) -> Accuracy {
    let rules = table.borrow().rules();
    let mut learner = RlPlayer::new(table.clone(), seed);
    learner.learning = false;
    let mut random = RandomPlayer::new(seed ^ 0x5eed_5eed);
    let mut accuracy = Accuracy::default();
    for _ in 0..games {
        if judge.stopped() {
            break;
        }
        let mut pos = Position::new(rules);
        while !pos.outcome().is_over() {
            let cell = if pos.to_move() == side {
                let cell = learner.greedy(&pos);
                accuracy.add(judge.keeps(&pos, cell));
                cell
            } else {
                random.choose(&pos, &mut Unlimited::new())
            };
            if pos.play(cell).is_err() {
                break;
            }
        }
        let result = match pos.outcome() {
            Outcome::Win(p) if p == side => 0,
            Outcome::Win(_) => 2,
            _ => 1,
        };
        accuracy.results[result] += 1;
    }
    accuracy
}

/// A fixed sample of `count` reachable, unfinished positions: random games
/// cut at a uniformly random ply. The same seed gives the same sample.
pub fn sample_positions(rules: Rules, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let plies = rng.random_range(0..rules.cells() as u32);
        let mut pos = Position::new(rules);
        for _ in 0..plies {
            let moves: Vec<Cell> = pos.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !pos.outcome().is_over() {
            out.push(pos);
        }
    }
    out
}

/// The greedy learner's accuracy on `positions`.
pub fn on_positions(table: &SharedTable, positions: &[Position], judge: &mut Judge) -> Accuracy {
    let mut learner = RlPlayer::new(table.clone(), 1);
    learner.learning = false;
    let mut accuracy = Accuracy::default();
    for pos in positions {
        if judge.stopped() {
            break;
        }
        let cell = learner.greedy(pos);
        accuracy.add(judge.keeps(pos, cell));
    }
    accuracy
}

/// The seed of the fixed sample every measurement uses.
pub const SAMPLE_SEED: u64 = 0x6b78_6f5f_7361_6d70;
/// Positions of the sample a model's accuracy is kept for.
pub const MODEL_SAMPLE: usize = 1_000;

/// Whether the solver judges a model of `rules` in passing: games it
/// plays (see [`Rules::beyond_small`]) of at most 16 cells.
pub fn judged_in_passing(rules: Rules) -> bool {
    rules.is_small() && rules.cells() <= 16
}

/// The accuracy a model file keeps: on the fixed sample of 1,000
/// positions. `None` beyond 16 cells, where the solver is too slow to judge
/// a thousand positions in passing.
pub fn model_accuracy(table: &SharedTable, judge: &mut Judge) -> Option<f32> {
    let rules = table.borrow().rules();
    judged_in_passing(rules).then(|| {
        let positions = sample_positions(rules, MODEL_SAMPLE, SAMPLE_SEED);
        on_positions(table, &positions, judge).share() as f32
    })
}

/// Every figure of a learner's skill.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Skill {
    /// Over the positions met as O, and as X, in games against Random.
    pub vs_random_o: Accuracy,
    pub vs_random_x: Accuracy,
    /// Over the fixed sample of reachable positions.
    pub sample: Accuracy,
}

/// Measures a learner: `games` games against Random on each side, and the
/// fixed sample of `sample` positions.
pub fn measure(
    table: &SharedTable,
    games: u32,
    sample: usize,
    seed: u64,
    judge: &mut Judge,
) -> Skill {
    let rules = table.borrow().rules();
    let positions = sample_positions(rules, sample, SAMPLE_SEED);
    Skill {
        vs_random_o: against_random(table, Player::O, games, seed, judge),
        vs_random_x: against_random(table, Player::X, games, seed ^ 1, judge),
        sample: on_positions(table, &positions, judge),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::rl::ValueTable;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn the_judge_knows_which_moves_keep_the_value() {
        let rules = Rules::default_rules();
        let mut judge = Judge::new(rules);
        // The empty 4x4 board is won for O, and B2 keeps the win.
        let empty = Position::new(rules);
        assert_eq!(judge.value(&empty), 1);
        assert!(judge.keeps(&empty, Cell::parse("B2", 4).unwrap()));
        // On 3x3 every first move keeps the draw.
        let r3 = Rules::new(3, 3).unwrap();
        let mut j3 = Judge::new(r3);
        for m in Position::new(r3).legal_moves() {
            assert!(j3.keeps(&Position::new(r3), m));
        }
        // X's only move against A1, B1 (threat on C1) is to block it.
        let p = Position::from_moves(r3, &Cell::parse_list("A1,B2,B1", 3).unwrap()).unwrap();
        assert!(j3.keeps(&p, Cell::parse("C1", 3).unwrap()));
        assert!(!j3.keeps(&p, Cell::parse("A3", 3).unwrap()));
    }

    #[test]
    fn the_sample_is_fixed_and_unfinished() {
        let rules = Rules::default_rules();
        let a = sample_positions(rules, 50, 3);
        let b = sample_positions(rules, 50, 3);
        assert_eq!(a, b);
        assert!(a.iter().all(|p| !p.outcome().is_over()));
    }

    #[test]
    fn accuracy_counts_what_it_judges() {
        let rules = Rules::new(3, 3).unwrap();
        let table = Rc::new(RefCell::new(ValueTable::new(rules)));
        let mut judge = Judge::new(rules);
        let a = against_random(&table, Player::O, 20, 1, &mut judge);
        assert!(a.moves >= 20 * 3 && a.kept <= a.moves);
    }
}
