//! kxo-tui: several tic-tac-toe games between computer players, each player
//! a stackful coroutine, drawn live in the terminal.
//!
//! - [`game`]: rules, bitboards, win masks, symmetry, records, and
//! - [`ai`]: engines behind one trait: both from the engine crate
//!   (`crates/kxo-engine`), which Cargo keeps free of the terminal, the
//!   scheduler, the protocol and the command line.
//! - [`app`]: the live screen's state, changed only by a message to
//!   `App::update`.
//! - [`engines`]: what a seat holds (a built-in engine or an outside
//!   brain), built from a spec: the one factory.
//! - `input`: terminal events to actions, through one key map.
//! - [`tasks`]: the scheduler and the coroutines that play, read keys and draw.
//! - [`ui`]: drawing, a pure function of the state.
//! - [`headless`]: `solve`, `arena`, `train`, `eval`, `bench`.
//! - [`tournament`]: what `arena` plays: schedules, openings, paired
//!   statistics and the SPRT, records, state files and shards.
//! - [`protocol`]: the Gomoku AI protocol, as a brain and with outside brains.
//! - [`model`]: the learning player's model file and its policy.
//! - [`screen`]: the live screen as a command; `terminal`: its terminal.
//! - [`cli`]: the command line (clap), turned into each command's options.
//! - [`gate`]: the one way to files: paths resolved link by link, sizes
//!   bounded, writes atomic.
//! - [`text`]: outside text made safe to show; `cpu`: which kernels run;
//!   `poll`: the one `poll(2)`; `out`: the one writer of standard output;
//!   `elo`: Elo differences. (`input`, `terminal`, `cpu`, `poll`, `out`
//!   and `elo` are private: only the program uses them.)

// Items are as public as their users need: a `pub` item that no path
// from the crate root reaches is a warning.
#![warn(unreachable_pub)]

pub mod app;
pub mod cli;
mod cpu;
mod elo;
pub mod engines;
pub mod error;

pub mod gate;
pub mod headless;
mod input;
pub mod model;
mod out;
mod poll;
pub mod protocol;
pub mod screen;
pub mod signals;
pub mod tasks;
mod terminal;

pub mod tournament;
pub mod ui;

/// A line on standard error for `main.rs`'s errors (the one writer of
/// standard error is `out`).
pub fn report_error(line: &str) {
    out::stderr_line(line);
}
