//! How long a seat thinks on a move: one value, resolved where the run is
//! planned (a spec's `think-ms=` or `iterations=`, the run's flags, else
//! the kind's own default) and carried by the move's [`Budget`]. The
//! budget's `tick` is the one stopper of a time: it answers `false` once
//! the move's time is used ([`Limit::reached`]). A count of work
//! (iterations, nodes) is the engine's own unit, so the engine counts it,
//! reading the same value from the same budget.
//!
//! [`Budget`]: super::Budget

use std::time::{Duration, Instant};

use super::{Budget, SearchInfo};

/// A move's limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    /// This much thinking time: the budget stops the search at it.
    Time(Duration),
    /// This much work (MCTS's iterations, a search's nodes): the engine
    /// stops when it has done it.
    Work(u64),
    /// Nothing but the search's own end (a solve, a random move).
    Whole,
}

impl Limit {
    /// Whether a move that has thought `elapsed` and done `work` is at its
    /// limit: what every budget's `tick` asks.
    pub fn reached(self, elapsed: Duration, work: u64) -> bool {
        match self {
            Limit::Time(t) => elapsed >= t,
            Limit::Work(n) => work >= n,
            Limit::Whole => false,
        }
    }

    /// Its time, when it is one.
    pub fn time(self) -> Option<Duration> {
        match self {
            Limit::Time(t) => Some(t),
            _ => None,
        }
    }

    /// Its work, when it is a count.
    pub fn work(self) -> Option<u64> {
        match self {
            Limit::Work(n) => Some(n),
            _ => None,
        }
    }
}

/// The budget of headless runs, tests and benchmarks: a move's limit on
/// the wall clock from its start and on the work the search reports; it
/// never suspends.
pub struct MoveBudget {
    start: Instant,
    limit: Limit,
    work: u64,
}

impl MoveBudget {
    pub fn new(limit: Limit) -> MoveBudget {
        MoveBudget {
            start: Instant::now(),
            limit,
            work: 0,
        }
    }

    /// A budget of `ms` milliseconds.
    pub fn millis(ms: u64) -> MoveBudget {
        MoveBudget::new(Limit::Time(Duration::from_millis(ms)))
    }
}

impl Budget for MoveBudget {
    fn tick(&mut self) -> bool {
        !self.limit.reached(self.start.elapsed(), self.work)
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    fn report(&mut self, info: &SearchInfo) {
        self.work = info.work;
    }
    fn limit(&self) -> Limit {
        self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_is_reached_by_its_own_measure_only() {
        let ms = Duration::from_millis;
        assert!(Limit::Time(ms(5)).reached(ms(5), 0));
        assert!(!Limit::Time(ms(5)).reached(ms(4), u64::MAX));
        assert!(Limit::Work(10).reached(ms(0), 10));
        assert!(!Limit::Work(10).reached(Duration::MAX, 9));
        assert!(!Limit::Whole.reached(Duration::MAX, u64::MAX));
    }

    #[test]
    fn a_move_budget_stops_at_the_work_reported() {
        let mut b = MoveBudget::new(Limit::Work(3));
        assert!(b.tick());
        b.report(&SearchInfo {
            work: 3,
            ..SearchInfo::default()
        });
        assert!(!b.tick());
        assert_eq!(b.limit(), Limit::Work(3));
    }
}
