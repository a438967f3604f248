//! The baseline: a uniformly random legal move.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Budget, Engine};
use crate::game::{Cell, Position};

pub struct RandomPlayer {
    rng: Xoshiro256PlusPlus,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Engine for RandomPlayer {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "RAND".into()
    }

    fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
        let empty = pos.empty();
        let k = self.rng.random_range(0..empty.count());
        Cell::from_index(empty.nth(k).unwrap_or(0))
    }
}
