//! An n-tuple network: the learning player's values on boards too big for
//! a table (5x5 and up).
//!
//! The network looks at small fixed groups of cells (the tuples): every
//! segment of K cells in a row (each a possible winning line) and every
//! segment of K + 1. Each tuple reads its cells as a base-3 number (empty,
//! the mover's, the opponent's) and looks up a weight; the value of a
//! position for the player who just moved is the logistic function of the
//! sum. Tuples that are images of each other under the 8 symmetries of the
//! square share one weight table, so the value does not depend on how the
//! board is turned, and what is learned in one corner serves all four.

use crate::game::{Geometry, Position, Rules};

#[derive(Clone, Debug)]
pub struct NTuple {
    /// Each tuple: its weight table and its cells, read in the order of
    /// that table's representative.
    tuples: Vec<(usize, Vec<u8>)>,
    /// One table per class of symmetric tuples: 3^len weights.
    weights: Vec<Vec<f32>>,
}

/// Step of a learning update, shared out over the tuples.
const RATE: f32 = 0.3;

impl NTuple {
    /// A network for `rules` with every weight zero (every value ½).
    pub fn new(rules: Rules) -> NTuple {
        let geo = rules.geometry();
        let mut tuples = Vec::new();
        let mut classes: Vec<Vec<u8>> = Vec::new();
        let goal = geo.goal as usize;
        for len in [goal, goal + 1] {
            for segment in segments(geo, len) {
                // The representative: the smallest ordered image under the
                // 8 symmetries, read either way.
                let mut best: Option<(Vec<u8>, usize)> = None;
                for s in 0..8 {
                    let image: Vec<u8> = segment.iter().map(|&c| geo.sym[s][c as usize]).collect();
                    let reversed: Vec<u8> = image.iter().rev().copied().collect();
                    for candidate in [image, reversed] {
                        if best.as_ref().is_none_or(|(b, _)| candidate < *b) {
                            best = Some((candidate, s));
                        }
                    }
                }
                let Some((rep, s)) = best else { continue };
                // This segment's cells in the representative's order.
                let cells: Vec<u8> = rep.iter().map(|&c| geo.sym_inv[s][c as usize]).collect();
                let class = match classes.iter().position(|r| *r == rep) {
                    Some(i) => i,
                    None => {
                        classes.push(rep);
                        classes.len() - 1
                    }
                };
                tuples.push((class, cells));
            }
        }
        let weights = classes
            .iter()
            .map(|rep| vec![0.0; 3usize.pow(rep.len() as u32)])
            .collect();
        NTuple { tuples, weights }
    }

    fn raw(&self, after: &Position) -> f32 {
        let mover = after.small_board(after.to_move().other());
        let other = after.small_board(after.to_move());
        self.tuples
            .iter()
            .map(|(class, cells)| self.weights[*class][index(cells, mover, other)])
            .sum()
    }

    /// The value of `after` (not over) for the player who just moved.
    pub fn value(&self, after: &Position) -> f32 {
        logistic(self.raw(after))
    }

    /// Moves the value of `after` towards `target` (a step of the
    /// cross-entropy gradient, shared over the tuples), scaled by `scale`
    /// (the step-size schedule, 1 at first).
    pub fn learn(&mut self, after: &Position, target: f32, scale: f32) {
        let error = target - self.value(after);
        let step = scale * RATE * error / self.tuples.len() as f32;
        let mover = after.small_board(after.to_move().other());
        let other = after.small_board(after.to_move());
        for (class, cells) in &self.tuples {
            let w = &mut self.weights[*class][index(cells, mover, other)];
            *w = (*w + step).clamp(-crate::ai::score::MAX_WEIGHT, crate::ai::score::MAX_WEIGHT);
        }
    }

    /// The non-zero weights, by their place in all the tables laid end to
    /// end (for saving).
    pub fn entries(&self) -> Vec<(u128, f32)> {
        let mut out = Vec::new();
        let mut base = 0u128;
        for table in &self.weights {
            for (i, &w) in table.iter().enumerate() {
                if w != 0.0 {
                    out.push((base + i as u128, w));
                }
            }
            base += table.len() as u128;
        }
        out
    }

    /// Sets a weight saved by [`entries`](Self::entries); `false` when the
    /// place is not in this network.
    pub fn set(&mut self, place: u128, weight: f32) -> bool {
        let mut base = 0u128;
        for table in &mut self.weights {
            let len = table.len() as u128;
            if place < base + len {
                if !weight.is_finite() || weight.abs() > crate::ai::score::MAX_WEIGHT {
                    return false;
                }
                table[(place - base) as usize] = weight;
                return true;
            }
            base += len;
        }
        false
    }

    /// Tuples, and weights in all.
    pub fn size(&self) -> (usize, usize) {
        (self.tuples.len(), self.weights.iter().map(Vec::len).sum())
    }
}

/// Every segment of `len` cells in a row, in the four directions, as cells
/// ordered along the segment.
fn segments(geo: &Geometry, len: usize) -> Vec<Vec<u8>> {
    let n = geo.size as i32;
    let len = len as i32;
    let mut out = Vec::new();
    if len > n {
        return out;
    }
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for r in 0..n {
            for c in 0..n {
                let (er, ec) = (r + dr * (len - 1), c + dc * (len - 1));
                if (0..n).contains(&er) && (0..n).contains(&ec) {
                    out.push(
                        (0..len)
                            .map(|i| ((r + dr * i) * n + c + dc * i) as u8)
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

#[inline]
fn index(cells: &[u8], mover: u64, other: u64) -> usize {
    cells.iter().fold(0, |acc, &c| {
        acc * 3 + (mover >> c & 1) as usize + 2 * (other >> c & 1) as usize
    })
}

fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Cell;

    fn pos(rules: Rules, moves: &str) -> Position {
        Position::from_moves(rules, &Cell::parse_list(moves, rules.size()).unwrap()).unwrap()
    }

    #[test]
    fn symmetric_tuples_share_weights() {
        let rules = Rules::new(5, 4).unwrap();
        let net = NTuple::new(rules);
        let (tuples, weights) = net.size();
        // 28 lines of 4 and 12 segments of 5, in a handful of classes.
        assert_eq!(tuples, 40);
        assert!(weights < 40 * 81, "{weights}");
        assert_eq!(net.value(&pos(rules, "C3")), 0.5);
    }

    #[test]
    fn values_are_the_same_for_every_image_and_learning_moves_them() {
        let rules = Rules::new(5, 4).unwrap();
        let mut net = NTuple::new(rules);
        let p = pos(rules, "B2,C3,B3");
        for _ in 0..50 {
            net.learn(&p, 1.0, 1.0);
        }
        let v = net.value(&p);
        assert!(v > 0.6, "{v}");
        for s in 0..8 {
            let image = p.transformed(s);
            assert!((net.value(&image) - v).abs() < 0.05, "image {s}");
        }
        // Saved and set back, the network gives the same values.
        let mut back = NTuple::new(rules);
        for (place, w) in net.entries() {
            assert!(back.set(place, w));
        }
        assert_eq!(back.value(&p), v);
    }
}
