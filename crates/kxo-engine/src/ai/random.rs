//! The baseline: a uniformly random legal move.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Budget, Engine, GoEngine, GoMove};
use crate::game::{Cell, Game, Position};

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

impl RandomPlayer {
    /// A move at random among the sensible ones of any game's position
    /// ([`Game::sensible_moves`]); a pass when none is left.
    pub fn random_move<G: Game>(&mut self, pos: &G) -> Cell {
        let moves = pos.sensible_moves();
        match moves.len() {
            0 => Cell::PASS,
            n => moves[self.rng.random_range(0..n)],
        }
    }
}

impl GoEngine for RandomPlayer {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "RAND".into()
    }

    fn choose(&mut self, pos: &crate::go::GoPosition, _budget: &mut dyn Budget) -> GoMove {
        match self.random_move(pos) {
            c if c.is_pass() => GoMove::Pass,
            c => GoMove::Play(c),
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
