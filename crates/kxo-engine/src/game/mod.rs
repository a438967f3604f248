//! The rules of N x N tic-tac-toe with K in a row.

mod bits;
mod coord;
mod family;
mod geometry;
mod position;
mod record;
mod rules;

pub use bits::Bits;
pub(crate) use bits::{select_bit, set_bits_as_bytes, set_bits_as_nibbles};
pub use coord::{Cell, CoordError};
pub use family::Game;
pub(crate) use geometry::for_goal;
pub(crate) use geometry::{CellTables, Geometry, LINE_TABLE_WORDS, table_has_line};
pub(crate) use position::{DIRECTIONS, line_through};
pub use position::{MoveError, Outcome, Player, Position};
pub use record::GameRecord;
pub use rules::{
    GO_KOMI2, GO_MAX_SIZE, GO_MIN_SIZE, MAX_GOAL, MAX_SIZE, MIN_SIZE, Rule, Rules, RulesError,
    SMALL_MAX_SIZE,
};

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::OffBoard(c) => write!(f, "cell #{} is off the board", c.index()),
            MoveError::Occupied(_) => write!(f, "that cell is already taken"),
            MoveError::GameOver => write!(f, "the game is already over"),
            MoveError::Suicide(_) => write!(f, "that stone would have no liberty (suicide)"),
            MoveError::Ko(_) => write!(f, "that retakes the ko at once: play elsewhere first"),
            MoveError::Superko(_) => {
                write!(f, "that repeats an earlier position (positional superko)")
            }
        }
    }
}
impl std::error::Error for MoveError {}
