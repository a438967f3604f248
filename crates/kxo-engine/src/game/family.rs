//! What every game family gives the code written for any of them: the
//! m,n,k games ([`Position`]) and Go ([`crate::go::GoPosition`]) alike.
//! The random player, the generic tree search's tests and the program's
//! boards are written against it; a third family (Othello) would be one
//! more implementation, with a tree view of its own
//! ([`crate::ai::uct::TreeGame`]) for MCTS.

use super::{Cell, MoveError, Outcome, Player, Position, Rules};

/// A position of some game.
pub trait Game: Clone {
    fn rules(&self) -> Rules;
    fn to_move(&self) -> Player;
    fn outcome(&self) -> Outcome;
    /// The moves worth making: every legal move, but in Go none that
    /// fills the player's own eye, and a pass ([`Cell::PASS`]) only where
    /// nothing else is left. None once the game is over.
    fn sensible_moves(&self) -> Vec<Cell>;
    /// Plays `cell` (a pass in Go) for the side to move.
    fn play(&mut self, cell: Cell) -> Result<(), MoveError>;
    /// A key of the position: equal positions, equal keys.
    fn key(&self) -> u64;
}

impl Game for Position {
    fn rules(&self) -> Rules {
        Position::rules(self)
    }
    fn to_move(&self) -> Player {
        Position::to_move(self)
    }
    fn outcome(&self) -> Outcome {
        Position::outcome(self)
    }
    fn sensible_moves(&self) -> Vec<Cell> {
        self.legal_moves().collect()
    }
    fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        Position::play(self, cell)
    }
    fn key(&self) -> u64 {
        // Both boards and the side to move, mixed.
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for cell in 0..self.rules().cells() as usize {
            let c = match self.at(Cell::from_index(cell)) {
                None => 0,
                Some(Player::O) => 1,
                Some(Player::X) => 2,
            };
            h = (h ^ c).wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}
