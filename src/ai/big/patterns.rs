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

use super::board::{BigBoard, Tables};
use super::shape::PatternIndex;
use crate::game::Player;

/// Step of a learning update, shared out over the windows with stones.
const RATE: f32 = 0.5;
/// How far one learned weight may reach in Negamax's scale (a window of
/// the shape evaluation is worth 1 to 4,096).
pub const EVAL_SCALE: f32 = 512.0;
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

    pub fn goal(&self) -> u8 {
        self.index.goal()
    }

    /// The weight of pattern `p` (seen by the side whose value it is).
    pub fn weight(&self, p: usize) -> f32 {
        self.weights[p]
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
        for p in seen {
            self.weights[p] += step;
            let r = self.reversed[p] as usize;
            if r != p {
                self.weights[r] += step;
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
        if r < p || !weight.is_finite() {
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
        let scaled = |w: f32| (EVAL_SCALE * w).clamp(-MAX_WINDOW, MAX_WINDOW) as i32;
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

pub fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
