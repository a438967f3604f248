//! The default show: what the live screen plays when the command line
//! names no board and no engines. A rotating mix of boards where the
//! engines are close, so that the screen tells a story for an hour:
//! games that differ, both sides winning, draws, games that last.
//!
//! - kxo's own 4x4 with three in a row, from an opening of three stones
//!   whose winner is drawn at random (the solver knows them all: X to move
//!   wins after some, loses after the others), so either side can win;
//! - 4x4 with four and 6x6 with five, draws with perfect play, from random
//!   openings: draws, and a win when an engine slips;
//! - 5x5 with four and 7x7 with five, where the engines do not see to the
//!   end: decisive games of both colours;
//! - Gomoku, 15x15 with five, wherever a box is big enough to show it.
//!
//! Each box moves to the next board of the mix when its game ends, and
//! each game seats its two engines on sides drawn at random.

use std::sync::OnceLock;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use kxo_engine::{BuiltIn, Limit, Value};
use kxo_engine::{Cell, Position, Rules};

/// Where a game of a variant starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// A few stones near the centre, drawn from the seed (never one that
    /// is decided at once).
    Random,
    /// This many stones, O and X in turn, near the centre: an odd number
    /// leaves X to move, which evens out the first player's edge.
    Stones(usize),
    /// Three stones after which the side to move wins or loses with
    /// perfect play, the winner drawn at random (kxo's 4x4).
    Decided,
}

/// One board of the mix, and who plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    pub rules: Rules,
    /// The two engines; each game seats them on sides drawn at random.
    pub engines: [BuiltIn; 2],
    /// Their clocks, in the same order.
    pub limits: [Limit; 2],
    /// The second player's clock is this many times its engine's: time
    /// odds where the first player's edge is large (Gomoku).
    pub x_odds: u32,
    pub opening: Opening,
}

/// The mix, in the order a box plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct Show {
    pub variants: Vec<Variant>,
}

fn variant(n: u8, k: u8, engines: [BuiltIn; 2], ms: [u64; 2], opening: Opening) -> Variant {
    Variant {
        rules: Rules::new(n, k).unwrap_or_else(|_| Rules::default_rules()),
        engines,
        limits: ms.map(|ms| Limit::Time(std::time::Duration::from_millis(ms))),
        x_odds: 1,
        opening,
    }
}

impl Show {
    /// The default show's mix.
    pub fn mixed() -> Show {
        use BuiltIn::{Mcts, Negamax};
        Show {
            variants: vec![
                variant(6, 5, [Mcts, Negamax], [150, 60], Opening::Random),
                variant(4, 3, [Mcts, Negamax], [100, 100], Opening::Decided),
                variant(7, 5, [Mcts, Negamax], [150, 100], Opening::Random),
                variant(4, 4, [Mcts, Mcts], [100, 60], Opening::Random),
                Variant {
                    x_odds: 3,
                    ..variant(15, 5, [Mcts, Negamax], [120, 150], Opening::Stones(3))
                },
                variant(5, 4, [Mcts, Negamax], [150, 60], Opening::Stones(3)),
            ],
        }
    }

    /// The largest board side of the mix.
    pub fn largest(&self) -> u8 {
        self.variants
            .iter()
            .map(|v| v.rules.size())
            .max()
            .unwrap_or(4)
    }

    /// The variant box `index` plays in its round `round`, among those
    /// whose board fits a box (`fits`: the largest side a box shows).
    pub fn pick(&self, index: usize, round: u64, fits: u8) -> Option<&Variant> {
        let shown: Vec<&Variant> = self
            .variants
            .iter()
            .filter(|v| v.rules.size() <= fits)
            .collect();
        let at = (index as u64 + round) % shown.len().max(1) as u64;
        shown.get(at as usize).copied()
    }
}

/// The opening of a game of `variant`, drawn from `seed`.
pub(crate) fn opening(variant: &Variant, seed: u64) -> Vec<Cell> {
    match variant.opening {
        Opening::Random => crate::tournament::opening::random(variant.rules, seed),
        Opening::Stones(n) => kxo_engine::openings::stones(variant.rules, n, seed),
        // Decided by the solver, which plays only the small boards' rules.
        Opening::Decided if variant.rules.is_small() => decided_opening(variant.rules, seed),
        Opening::Decided => crate::tournament::opening::random(variant.rules, seed),
    }
}

/// Three stones on kxo's 4x4 after which X (to move) wins, or loses, with
/// perfect play: which of the two drawn from `seed`, then the opening.
fn decided_opening(rules: Rules, seed: u64) -> Vec<Cell> {
    let [x_wins, o_wins] = decided_openings(rules);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let list = if rng.random_bool(0.5) { x_wins } else { o_wins };
    match list.len() {
        0 => Vec::new(),
        n => list[rng.random_range(0..n)].clone(),
    }
}

/// Every three-stone opening of kxo's 4x4 not decided at once, split by
/// its winner under perfect play: X (to move) first, then O. Solved once
/// (about a millisecond).
fn decided_openings(rules: Rules) -> &'static [Vec<Vec<Cell>>; 2] {
    static OPENINGS: OnceLock<[Vec<Vec<Cell>>; 2]> = OnceLock::new();
    OPENINGS.get_or_init(|| {
        let mut solver = kxo_engine::solver::Solver::with_hash_bytes(rules, 4 << 20);
        let mut split: [Vec<Vec<Cell>>; 2] = [Vec::new(), Vec::new()];
        let cells = rules.cells();
        for a in 0..cells {
            for b in 0..cells {
                for c in 0..cells {
                    let moves = [a, b, c].map(Cell::new).to_vec();
                    let Ok(pos) = Position::from_moves(rules, &moves) else {
                        continue;
                    };
                    if crate::tournament::opening::decided_at_once(&pos) {
                        continue;
                    }
                    match solver.solve(&pos).map(|s| s.value) {
                        Ok(Value::Win { .. }) => split[0].push(moves),
                        Ok(Value::Loss { .. }) => split[1].push(moves),
                        _ => {}
                    }
                }
            }
        }
        split
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kxo_s_four_by_four_openings_give_either_side_the_win() {
        let rules = Rules::default_rules();
        let [x_wins, o_wins] = decided_openings(rules);
        assert!(x_wins.len() > 100 && o_wins.len() > 100);
        let mut solver = kxo_engine::solver::Solver::with_hash_bytes(rules, 4 << 20);
        let mut winners = [0; 2];
        for seed in 0..200 {
            let moves = decided_opening(rules, seed);
            assert_eq!(moves.len(), 3);
            let pos = Position::from_moves(rules, &moves).unwrap();
            let x_to_move_wins = matches!(solver.solve(&pos).unwrap().value, Value::Win { .. });
            winners[usize::from(!x_to_move_wins)] += 1;
        }
        // Each side the winner about half the time.
        assert!(winners.iter().all(|&w| w > 70), "{winners:?}");
    }

    #[test]
    fn odd_openings_leave_x_to_move() {
        let rules = Rules::new(5, 4).unwrap();
        for seed in 0..50 {
            let moves = kxo_engine::openings::stones(rules, 3, seed);
            let pos = Position::from_moves(rules, &moves).unwrap();
            assert_eq!(pos.to_move(), kxo_engine::Player::X);
            assert!(!crate::tournament::opening::decided_at_once(&pos));
        }
    }

    #[test]
    fn boxes_rotate_through_the_boards_that_fit_them() {
        let show = Show::mixed();
        let big = show.largest();
        assert_eq!(big, 15);
        // Small boxes: no Gomoku; every box meets every board in turn.
        for index in 0..9 {
            let boards: std::collections::BTreeSet<u8> = (0..12)
                .filter_map(|round| show.pick(index, round, 7))
                .map(|v| v.rules.size())
                .collect();
            assert_eq!(boards.into_iter().collect::<Vec<_>>(), [4, 5, 6, 7]);
        }
        assert!((0..6).any(|r| show.pick(0, r, 15).is_some_and(|v| v.rules.size() == 15)));
        // Nine boxes start on different boards where they can.
        let first: Vec<u8> = (0..5)
            .filter_map(|i| show.pick(i, 0, 7))
            .map(|v| v.rules.size() * 10 + v.rules.goal())
            .collect();
        assert_eq!(first, [65, 43, 75, 44, 54]);
    }
}
