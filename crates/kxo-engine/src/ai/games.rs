//! Playing a game to its end between two engines, and counting results:
//! what training and its measures share.

use super::{Engine, Unlimited};
use crate::game::{Cell, GameRecord, Outcome, Position, Rules};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Wins and half the draws, over the games (0 with none).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }
}

/// Plays one game; `seats[0]` is O.
pub fn play_game(rules: Rules, seats: &mut [&mut dyn Engine; 2]) -> GameRecord {
    play_from(rules, &[], seats)
}

/// Plays one game from the stones of `opening` (legal moves of `rules`,
/// the game not over), which the record keeps as its first moves.
pub fn play_from(rules: Rules, opening: &[Cell], seats: &mut [&mut dyn Engine; 2]) -> GameRecord {
    let mut pos = Position::new(rules);
    let mut record = GameRecord::new(rules);
    for &cell in opening {
        if pos.play(cell).is_ok() {
            record.moves.push(cell);
        }
    }
    while !pos.outcome().is_over() {
        let side = pos.to_move().index();
        let cell = seats[side].choose(&pos, &mut Unlimited::new());
        if pos.play(cell).is_err() {
            record.outcome = Outcome::Win(pos.to_move().other());
            return record;
        }
        record.moves.push(cell);
    }
    record.outcome = pos.outcome();
    record
}
