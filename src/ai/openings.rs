//! Random openings: a few stones near the centre from a seed, never one a
//! side has already decided. `arena`, the live screen and the engines'
//! own yardstick start games from them.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Cell, Player, Position, Rules, line_through};

/// A random opening drawn from `seed`, not decided at once.
pub fn random(rules: Rules, seed: u64) -> Vec<Cell> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let size = rules.size() as i32;
    let (stones, radius) = if rules.is_small() {
        (rng.random_range(0..=2usize), size)
    } else {
        (rng.random_range(2..=4usize), 3)
    };
    let centre = size / 2;
    let near: Vec<Cell> = (0..rules.cells())
        .map(Cell::new)
        .filter(|c| {
            let (r, k) = (c.row(rules.size()) as i32, c.col(rules.size()) as i32);
            (r - centre).abs() <= radius && (k - centre).abs() <= radius
        })
        .collect();
    // A few hundred tries find one on every board this program plays; the
    // empty board is the fallback that is never decided.
    for _ in 0..1000 {
        let mut pos = Position::new(rules);
        let mut opening = Vec::with_capacity(stones);
        while opening.len() < stones {
            let cell = near[rng.random_range(0..near.len())];
            if pos.play(cell).is_ok() {
                opening.push(cell);
            }
        }
        if !decided_at_once(&pos) {
            return opening;
        }
    }
    Vec::new()
}

/// The game is over, the side to move wins in one, or the other side has
/// two winning cells (one block cannot stop both).
pub fn decided_at_once(pos: &Position) -> bool {
    if pos.outcome().is_over() {
        return true;
    }
    let rules = pos.rules();
    let wins_for = |side: Player| {
        let board = pos.board(side);
        pos.legal_moves()
            .filter(|c| {
                line_through(
                    &board.with(c.index()),
                    rules.size(),
                    rules.goal(),
                    c.index(),
                )
                .is_some()
            })
            .count()
    };
    wins_for(pos.to_move()) > 0 || wins_for(pos.to_move().other()) >= 2
}
