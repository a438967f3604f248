//! Line patterns: the learning player's values on boards above 8x8, and
//! an evaluation Negamax can take from them.
//!
//! Every window of K cells in a row is read as a base-3 number, one digit
//! a cell (0 empty, 1 a stone of the side whose value it is, 2 one of the
//! other side's), and looks up one weight. The weights belong to the
//! pattern, not to the place: every window of the board shares them, and a
//! window read backwards is the same pattern. A position's value for a
//! side is the logistic function of the sum over the board's windows. The
//! empty window's weight stays zero, so an empty board is worth ½ and only
//! the windows with stones count.
//!
//! A move changes only the windows through its cell (4 x K of them), so
//! what a move would gain is read in that many lookups
//! ([`LinePatterns::gain`]), without playing it.

use super::shape::PatternIndex;
use super::{BigBoard, Tables};
use crate::game::Player;

/// Step of a learning update, shared out over the windows with stones.
const RATE: f32 = 0.5;
/// Negamax's units for one unit of a learned weight (a logit), the line
/// count's value of a window of four stones. (Only the ratios between
/// positions matter to the search; proven results lie far above.)
pub(crate) const EVAL_SCALE: f32 = 512.0;
/// The most a window may be worth to Negamax, far below a proven win
/// however many windows add up.
const MAX_WINDOW: f32 = 8_192.0;

#[derive(Clone, Debug)]
pub struct LinePatterns {
    index: PatternIndex,
    /// `reversed[p]`: the pattern `p` read backwards, which shares its
    /// weight (both entries are kept equal).
    reversed: Vec<u16>,
    weights: Vec<f32>,
}

impl LinePatterns {
    /// Patterns for K = `goal`, every weight zero (every value ½).
    pub fn new(goal: u8) -> LinePatterns {
        let index = PatternIndex::new(goal);
        let reversed = (0..index.count())
            .map(|p| index.reversed(p) as u16)
            .collect();
        LinePatterns {
            weights: vec![0.0; index.count()],
            index,
            reversed,
        }
    }

    /// The sum over the board's windows for `side`.
    pub fn raw(&self, t: &Tables, b: &BigBoard, side: Player) -> f32 {
        let mut sum = 0.0;
        b.for_each_board_window(t, |o, x| {
            let (mine, theirs) = by_side(side, o, x);
            sum += self.weights[self.index.of(mine, theirs)];
        });
        sum
    }

    /// What a stone of `side` on the empty `cell` adds to [`raw`](Self::raw)
    /// for `side`.
    #[inline]
    pub fn gain(&self, t: &Tables, b: &BigBoard, side: Player, cell: usize) -> f32 {
        let mut sum = 0.0;
        b.for_each_window_through(t, cell, |o, x, bit| {
            let (mine, theirs) = by_side(side, o, x);
            let before = self.index.of(mine, theirs);
            sum += self.weights[before + self.index.digit(bit)] - self.weights[before];
        });
        sum
    }

    /// Moves the value of `b` for `side` towards `target` (a step of the
    /// cross-entropy gradient, shared over the windows with stones),
    /// scaled by `scale` (the step-size schedule, 1 at first).
    pub fn learn(&mut self, t: &Tables, b: &BigBoard, side: Player, target: f32, scale: f32) {
        let error = target - logistic(self.raw(t, b, side));
        let mut seen = Vec::with_capacity(256);
        b.for_each_board_window(t, |o, x| {
            if o | x != 0 {
                let (mine, theirs) = by_side(side, o, x);
                seen.push(self.index.of(mine, theirs));
            }
        });
        if seen.is_empty() {
            return;
        }
        let step = scale * RATE * error / seen.len() as f32;
        let max = crate::ai::score::MAX_WEIGHT;
        for p in seen {
            self.weights[p] = (self.weights[p] + step).clamp(-max, max);
            let r = self.reversed[p] as usize;
            if r != p {
                self.weights[r] = (self.weights[r] + step).clamp(-max, max);
            }
        }
    }

    /// The weights not zero, each pattern once (by the smaller of its two
    /// readings), for saving.
    pub fn entries(&self) -> Vec<(u128, f32)> {
        (0..self.weights.len())
            .filter(|&p| p <= self.reversed[p] as usize && self.weights[p] != 0.0)
            .map(|p| (p as u128, self.weights[p]))
            .collect()
    }

    /// Sets a weight saved by [`entries`](Self::entries); `false` when the
    /// place is not one of them (not a pattern, or its backward reading).
    pub fn set(&mut self, place: u128, weight: f32) -> bool {
        let Ok(p) = usize::try_from(place) else {
            return false;
        };
        if p == 0 || p >= self.weights.len() {
            return false;
        }
        let r = self.reversed[p] as usize;
        if r < p || !weight.is_finite() || weight.abs() > crate::ai::score::MAX_WEIGHT {
            return false;
        }
        self.weights[p] = weight;
        self.weights[r] = weight;
        true
    }

    /// The patterns with a weight of their own (a pattern and its backward
    /// reading count once; the empty window has none).
    pub fn size(&self) -> usize {
        (1..self.weights.len())
            .filter(|&p| p <= self.reversed[p] as usize)
            .count()
    }

    /// Negamax's evaluation from these weights: per side, what a window
    /// is worth to it when it has just moved, by the pattern read from O's
    /// side (1 an O stone, 2 an X stone), in Negamax's units. A position
    /// is then worth to the side to move the logit of the learned value,
    /// scaled: less what it is worth to the side that just moved.
    pub fn window_values(&self) -> [Vec<i32>; 2] {
        let scaled = |w: f32| (EVAL_SCALE * w).clamp(-MAX_WINDOW, MAX_WINDOW).round() as i32;
        let for_o = self.weights.iter().map(|&w| scaled(w)).collect();
        let for_x = (0..self.weights.len())
            .map(|p| scaled(self.weights[self.index.swapped(p)]))
            .collect();
        [for_o, for_x]
    }
}

/// The stones of `side` and of the other side, from O's and X's.
#[inline(always)]
fn by_side(side: Player, o: u32, x: u32) -> (u32, u32) {
    match side {
        Player::O => (o, x),
        Player::X => (x, o),
    }
}

pub(crate) fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cell, Position, Rules};
    use rand::{RngExt, SeedableRng};

    /// Patterns with random weights, kept equal for a pattern and its
    /// backward reading (as learning keeps them), the empty one zero.
    fn random_patterns(goal: u8, seed: u64) -> LinePatterns {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut net = LinePatterns::new(goal);
        for p in 1..net.weights.len() {
            if p <= net.reversed[p] as usize {
                assert!(net.set(p as u128, rng.random_range(-2.0..2.0)));
            }
        }
        net
    }

    #[test]
    fn a_moves_gain_is_the_change_of_the_whole_sum() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for (size, goal) in [(15, 5), (20, 6), (10, 4)] {
            let rules = Rules::new(size, goal).unwrap();
            let t = Tables::new(rules);
            let net = random_patterns(goal, size as u64);
            let mut pos = Position::new(rules);
            for _ in 0..40 {
                let b = BigBoard::from_position(&t, &pos);
                let empty: Vec<usize> = pos.empty().iter().collect();
                let c = empty[rng.random_range(0..empty.len())];
                let me = pos.to_move();
                let mut after = b;
                after.play(&t, c);
                let sum = net.raw(&t, &after, me) - net.raw(&t, &b, me);
                let gain = net.gain(&t, &b, me, c);
                assert!((sum - gain).abs() < 1e-3, "{sum} {gain}");
                pos.play(Cell::from_index(c)).unwrap();
                if pos.outcome().is_over() {
                    break;
                }
            }
        }
    }

    #[test]
    fn a_board_and_its_mirror_are_worth_the_same() {
        // Backward readings share a weight, so turning the board (which
        // reads some lines the other way) changes nothing.
        let rules = Rules::new(15, 5).unwrap();
        let t = Tables::new(rules);
        let net = random_patterns(5, 9);
        let moves = Cell::parse_list("H8,I9,G7,H10,J8,F6,H9", 15).unwrap();
        let pos = Position::from_moves(rules, &moves).unwrap();
        let b = BigBoard::from_position(&t, &pos);
        let n = 15;
        for s in 0..8 {
            // Transposed or not, then each axis flipped or not.
            let turned: Vec<Cell> = moves
                .iter()
                .map(|m| {
                    let (mut r, mut c) = (m.row(n), m.col(n));
                    if s & 1 != 0 {
                        (r, c) = (c, r);
                    }
                    if s & 2 != 0 {
                        r = n - 1 - r;
                    }
                    if s & 4 != 0 {
                        c = n - 1 - c;
                    }
                    Cell::from_row_col(r, c, n)
                })
                .collect();
            let image = BigBoard::from_position(&t, &Position::from_moves(rules, &turned).unwrap());
            for side in [Player::O, Player::X] {
                let (v, w) = (net.raw(&t, &b, side), net.raw(&t, &image, side));
                assert!((v - w).abs() < 1e-3, "image {s}: {v} {w}");
            }
        }
    }

    #[test]
    fn learning_moves_a_value_and_the_weights_survive_saving() {
        let rules = Rules::new(15, 5).unwrap();
        let t = Tables::new(rules);
        let mut net = LinePatterns::new(5);
        let moves = Cell::parse_list("H8,I9,H9,H10", 15).unwrap();
        let b = BigBoard::from_position(&t, &Position::from_moves(rules, &moves).unwrap());
        assert_eq!(logistic(net.raw(&t, &b, Player::X)), 0.5);
        for _ in 0..20 {
            net.learn(&t, &b, Player::X, 0.9, 1.0);
        }
        let v = logistic(net.raw(&t, &b, Player::X));
        assert!(v > 0.8, "{v}");
        let mut back = LinePatterns::new(5);
        for (place, w) in net.entries() {
            assert!(back.set(place, w));
        }
        assert_eq!(back.raw(&t, &b, Player::X), net.raw(&t, &b, Player::X));
        // The empty window and backward readings are never places.
        assert!(!back.set(0, 1.0));
        assert!(!back.set(81, 1.0));
        assert!(!back.set(243, 1.0));
    }

    #[test]
    fn negamax_reads_the_learned_value_of_the_side_that_just_moved() {
        let rules = Rules::new(15, 5).unwrap();
        let net = random_patterns(5, 4);
        let t = Tables::with_window_values(rules, net.window_values());
        let moves = Cell::parse_list("H8,I9,H9,H10,G8", 15).unwrap();
        let b = BigBoard::from_position(&t, &Position::from_moves(rules, &moves).unwrap());
        // X to move; O just moved: X's score is minus O's logit, scaled
        // (each window's value rounded).
        let want = -EVAL_SCALE * net.raw(&t, &b, Player::O);
        let mut windows = 0;
        b.for_each_board_window(&t, |_, _| windows += 1);
        let error = (b.eval() as f32 - want).abs();
        assert!(error <= 0.5 * windows as f32, "{} {want}", b.eval());
    }
}
