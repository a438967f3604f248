//! kxo-tui: several tic-tac-toe games between computer players, each player
//! a stackful coroutine, drawn live in the terminal.
//!
//! - [`game`]: rules, bitboards, win masks, symmetry, records.
//! - [`ai`]: engines behind one trait.

pub mod ai;
pub mod app;
pub mod cli;
pub mod game;
pub mod headless;
pub mod human;
pub mod model;
pub mod panics;
pub mod tasks;
pub mod terminal;
pub mod ui;
