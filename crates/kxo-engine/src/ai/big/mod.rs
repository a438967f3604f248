//! Engines for boards above 8x8 (up to 20x20): Gomoku and its relatives.
//!
//! The engines of the small boards live on one-word bitboards and tables
//! sized for 64 cells. These work on [`Bits`](crate::game::Bits) through a
//! [`BigBoard`] that keeps its threats (wins in one for each side), its
//! candidate cells and an evaluation up to date move by move, so that
//! neither engine walks the 15x15 board to find what matters.

mod board;
mod learner;
mod mcts;
mod negamax;
pub mod patterns;
pub mod shape;
pub mod suite;
mod tables;
pub mod vcf;
pub mod vct;
pub mod yardstick;

pub use board::BigBoard;
pub use learner::BigRl;
pub use mcts::{BigMcts, tactical_moves};
pub use negamax::{BigNegamax, DEFAULT_TIME, WIDTH};
pub use tables::Tables;
