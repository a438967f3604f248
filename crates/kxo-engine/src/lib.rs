//! kxo-tui's rules and engines, as a library of their own: nothing here
//! knows of the terminal, the scheduler, the Gomoku AI protocol or the
//! command line, and Cargo holds that line (none of those crates is a
//! dependency).
//!
//! - [`game`]: rules (free-style and standard), bitboards, win masks,
//!   symmetry, coordinates, records.
//! - [`ai`]: the engines behind one trait, the solver, the threat searches.
//! - [`text`]: outside text made safe to show.
//! - [`cpu`]: which playout and win-test kernels this CPU runs.

// Items are as public as their users need: a `pub` item that no path
// from the crate root reaches is a warning.
#![warn(unreachable_pub)]

pub mod ai;
pub mod cpu;
pub mod game;
pub mod text;
