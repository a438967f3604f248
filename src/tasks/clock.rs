//! Wall-clock time for the live screen, from one injectable source: the
//! moves' delays, the result hold, the staggered starts and the moves/s
//! window all read it, so tests can run them without waiting.
//!
//! CPU time (how long a seat thought) is measured separately: a task's
//! [`Slice`] watches the wall clock at every tick (cheap), and charges
//! the thread's own CPU clock (`CLOCK_THREAD_CPUTIME_ID`, a system call)
//! once, when the slice may be over. A preemption by another process
//! stretches the wall clock, never what a task is charged.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// CPU time this thread has used.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime(2) writes into a valid timespec.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(
        ts.tv_sec.max(0) as u64,
        ts.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// One run of a task between two suspensions, on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Slice {
    wall: Instant,
    cpu: Duration,
}

impl Slice {
    pub fn start() -> Slice {
        Slice {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// Wall time since the start: never less than the CPU time used, so
    /// while it is short the slice is surely not over (read at every
    /// tick).
    pub fn wall_elapsed(&self) -> Duration {
        self.wall.elapsed()
    }

    /// CPU time this thread used since the start (a system call: read
    /// when the wall clock says the slice may be over).
    pub fn cpu_used(&self) -> Duration {
        thread_cpu_time().saturating_sub(self.cpu)
    }
}

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
