//! Random openings: a few stones near the centre from a seed, never one a
//! side has already decided. `arena`, the live screen and the engines'
//! own yardstick start games from them.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Cell, Player, Position, Rules, line_through};

/// A random opening drawn from `seed`, not decided at once: 2–4 stones
/// within three cells of the centre above 8x8, 0–2 anywhere on small
/// boards; in Go, a stone each off the two lines by the edge (none after
/// a handicap).
pub fn random(rules: Rules, seed: u64) -> Vec<Cell> {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    if rules.is_go() {
        return go_opening(rules, &mut rng);
    }
    let count = if rules.is_small() {
        rng.random_range(0..=2usize)
    } else {
        rng.random_range(2..=4usize)
    };
    near_the_centre(rules, count, &mut rng)
}

/// Go: Black's and White's first stones, two different points at least
/// two lines from the edge.
fn go_opening(rules: Rules, rng: &mut Xoshiro256PlusPlus) -> Vec<Cell> {
    if rules.handicap() > 0 {
        return Vec::new();
    }
    let n = rules.size() as usize;
    let inner: Vec<Cell> = (0..n * n)
        .filter(|i| (2..n - 2).contains(&(i / n)) && (2..n - 2).contains(&(i % n)))
        .map(Cell::from_index)
        .collect();
    if inner.len() < 2 {
        return Vec::new();
    }
    let first = inner[rng.random_range(0..inner.len())];
    let mut second = first;
    while second == first {
        second = inner[rng.random_range(0..inner.len())];
    }
    vec![first, second]
}

/// `count` stones drawn from `seed`, O and X in turn, placed as
/// [`random`] places them.
pub fn stones(rules: Rules, count: usize, seed: u64) -> Vec<Cell> {
    near_the_centre(rules, count, &mut Xoshiro256PlusPlus::seed_from_u64(seed))
}

/// `count` stones, O and X in turn, within three cells of the centre (the
/// whole board on small ones), none decided at once; the empty board if a
/// thousand draws find none (a few hundred find one on every board this
/// program plays).
fn near_the_centre(rules: Rules, count: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Cell> {
    let size = rules.size() as i32;
    let radius = if rules.is_small() { size } else { 3 };
    let centre = size / 2;
    let near: Vec<Cell> = (0..rules.cells())
        .map(Cell::new)
        .filter(|c| {
            let (r, k) = (c.row(rules.size()) as i32, c.col(rules.size()) as i32);
            (r - centre).abs() <= radius && (k - centre).abs() <= radius
        })
        .collect();
    for _ in 0..1000 {
        let mut pos = Position::new(rules);
        let mut opening = Vec::with_capacity(count);
        while opening.len() < count.min(near.len()) {
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
            .filter(|c| line_through(&board.with(c.index()), rules, c.index()).is_some())
            .count()
    };
    wins_for(pos.to_move()) > 0 || wins_for(pos.to_move().other()) >= 2
}
