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
pub(crate) mod patterns;
pub(crate) mod shape;
pub(crate) mod suite;
mod tables;
mod threats;
pub(crate) mod vcf;
pub(crate) mod vct;
pub(crate) mod yardstick;

pub(crate) use board::BigBoard;
pub use learner::BigRl;
pub use mcts::BigMcts;
pub use negamax::BigNegamax;
pub(crate) use negamax::DEFAULT_TIME;
pub(crate) use tables::Tables;
pub use threats::ThreatSearch;
