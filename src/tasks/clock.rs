//! Wall-clock time for the live screen, from one injectable source: the
//! moves' delays, the result hold, the staggered starts and the moves/s
//! window all read it, so tests can run them without waiting.
//!
//! CPU time (how long a seat thought) is measured separately: a task's
//! [`Slice`] watches the wall clock at every tick (cheap), and charges
//! the thread's own CPU clock (`CLOCK_THREAD_CPUTIME_ID`, a system call)
//! once, when the slice may be over. A preemption by another process
//! stretches the wall clock, never what a task is charged.

#[cfg(test)]
use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

pub(super) use crate::cpu::thread_cpu_time;

/// One run of a task between two suspensions, on both clocks.
#[derive(Clone, Copy, Debug)]
pub(super) struct Slice {
    wall: Instant,
    cpu: Duration,
}

impl Slice {
    pub(super) fn start() -> Slice {
        Slice {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// Wall time since the start: never less than the CPU time used, so
    /// while it is short the slice is surely not over (read at every
    /// tick).
    pub(super) fn wall_elapsed(&self) -> Duration {
        self.wall.elapsed()
    }

    /// CPU time this thread used since the start (a system call: read
    /// when the wall clock says the slice may be over).
    pub(super) fn cpu_used(&self) -> Duration {
        thread_cpu_time().saturating_sub(self.cpu)
    }
}

/// The CPU a search has used, slice by slice, against the move's limit:
/// the logic every budget of the live screen (a seat's, the hint's)
/// shares. A slice ends when it has had [`SLICE`] of CPU; the wall clock
/// is read at each tick, the CPU clock only when the slice (or the clock)
/// may be over.
#[derive(Debug)]
pub(super) struct SliceClock {
    slice: Slice,
    /// CPU of the slices already closed.
    thought: Duration,
    /// The move's limit: a time is of CPU, on this clock.
    limit: kxo_engine::Limit,
}

/// What a tick finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Due {
    /// Go on searching.
    Run,
    /// The slice has had its time: close it and yield.
    Yield,
    /// The clock is spent: the search must stop.
    Stop,
}

/// CPU time a task runs before it yields to the others.
pub(super) const SLICE: Duration = Duration::from_millis(1);

impl SliceClock {
    pub(super) fn new(limit: kxo_engine::Limit) -> SliceClock {
        SliceClock {
            slice: Slice::start(),
            thought: Duration::ZERO,
            limit,
        }
    }

    /// The stopper: the limit's own rule ([`kxo_engine::Limit::reached`]).
    fn out_of_clock(&self, used: Duration) -> bool {
        self.limit.reached(used, 0)
    }

    /// Whether to go on, yield, or stop. The wall clock runs at least as
    /// fast as the CPU clock: while it says the slice and the clock go on,
    /// they do; when it says they may be over, the CPU clock decides
    /// (another process may have had the core meanwhile).
    pub(super) fn due(&self) -> Due {
        let wall = self.slice.wall_elapsed();
        if wall < SLICE && !self.out_of_clock(self.thought + wall) {
            return Due::Run;
        }
        let ran = self.slice.cpu_used();
        if self.out_of_clock(self.thought + ran) {
            Due::Stop
        } else if ran < SLICE {
            Due::Run
        } else {
            Due::Yield
        }
    }

    /// Closes the slice: returns the CPU it took, now counted.
    pub(super) fn close(&mut self) -> Duration {
        let ran = self.slice.cpu_used();
        self.thought += ran;
        ran
    }

    /// A new slice starts (after a wait, which is not thinking).
    pub(super) fn restart(&mut self) {
        self.slice = Slice::start();
    }

    /// CPU of the closed slices.
    pub(super) fn thought(&self) -> Duration {
        self.thought
    }

    /// CPU used so far. The wall clock bounds it from above, so while that
    /// stays under the clock it serves (no system call); near or past it,
    /// the thread's CPU clock answers.
    pub(super) fn elapsed(&self) -> Duration {
        let bound = self.thought + self.slice.wall_elapsed();
        if self.clock().is_some_and(|c| bound < c) {
            return bound;
        }
        self.thought + self.slice.cpu_used()
    }

    /// The move's time, when its limit is one.
    pub(super) fn clock(&self) -> Option<Duration> {
        self.limit.time()
    }
}

pub trait Clock {
    fn now(&self) -> Instant;
}

/// The real monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that moves only when told to: for tests.
#[derive(Clone, Debug)]
#[cfg(test)]
pub(super) struct ManualClock(Rc<Cell<Instant>>);

#[cfg(test)]
impl ManualClock {
    pub(super) fn new(start: Instant) -> ManualClock {
        ManualClock(Rc::new(Cell::new(start)))
    }
    pub(super) fn advance(&self, by: Duration) {
        self.0.set(self.0.get() + by);
    }
}

#[cfg(test)]
impl Clock for ManualClock {
    fn now(&self) -> Instant {
        self.0.get()
    }
}

/// The clock every task of one live screen shares.
pub(super) type SharedClock = Rc<dyn Clock>;
