//! Cooperative tasks: the scheduler, the wall clock, the load accounting,
//! and the seat, keyboard, renderer, hint and learner tasks of the live
//! screen.

pub mod clock;
mod door;
mod frames;
pub mod hint;
mod keyboard;
pub mod learner;
pub mod live;
pub mod load;
pub mod panics;
mod renderer;
pub mod scheduler;
pub mod seat;

pub use scheduler::{Ctx, Event, Scheduler, Signals, Suspend, TaskRole, TaskState};
