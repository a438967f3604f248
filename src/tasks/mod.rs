//! Cooperative tasks: the scheduler, the wall clock, the load accounting,
//! and the seat, keyboard, renderer, hint and learner tasks of the live
//! screen.

mod clock;
mod door;
mod files;
mod flag;
mod frames;
mod hint;
mod keyboard;
mod learner;
pub mod live;
mod load;
pub(crate) mod panics;
mod renderer;
mod requests;
mod review;
mod scheduler;
mod seat;

pub use scheduler::{Ctx, Event, Scheduler, Signals, Suspend, TaskRole, TaskState};
