//! Wall-clock time for the live screen, from one injectable source: the
//! moves' delays, the result hold, the staggered starts and the moves/s
//! window all read it, so tests can run them without waiting.
//!
//! CPU time (how long a seat thought) is measured separately, with the
//! real monotonic clock: it is what the scheduler's accounting is for.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

pub trait Clock {
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that moves only when told to: for tests.
#[derive(Clone, Debug)]
pub struct ManualClock(Rc<Cell<Instant>>);

impl ManualClock {
    pub fn new(start: Instant) -> ManualClock {
        ManualClock(Rc::new(Cell::new(start)))
    }
    pub fn advance(&self, by: Duration) {
        self.0.set(self.0.get() + by);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Instant {
        self.0.get()
    }
}

/// The clock every task of one live screen shares.
pub type SharedClock = Rc<dyn Clock>;
