//! Cooperative tasks: the scheduler, the load accounting, and the seat,
//! keyboard and renderer tasks of the live screen.

pub mod live;
pub mod load;
pub mod scheduler;
pub mod seat;

pub use scheduler::{Ctx, Event, Scheduler, Signals, Suspend, TaskRole, TaskState};
