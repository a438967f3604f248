//! Moves per second over a sliding window of running time.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// The window the status line's moves/s is measured over.
pub(super) const RATE_WINDOW: Duration = Duration::from_secs(5);

/// Counts events over the last [`RATE_WINDOW`] of running time: time spent
/// paused is cut out, so a pause neither freezes an old figure nor drags
/// the rate down after it ends.
#[derive(Clone, Debug)]
pub struct MoveRate {
    times: VecDeque<Instant>,
    /// When counting began (moved forward by pauses).
    since: Instant,
    paused_at: Option<Instant>,
}

impl MoveRate {
    pub fn new(now: Instant) -> MoveRate {
        MoveRate {
            times: VecDeque::new(),
            since: now,
            paused_at: None,
        }
    }

    pub fn record(&mut self, now: Instant) {
        self.forget(now);
        self.times.push_back(now);
    }

    pub fn pause(&mut self, now: Instant) {
        self.paused_at.get_or_insert(now);
    }

    /// Shifts every stamp by the time spent paused.
    pub fn resume(&mut self, now: Instant) {
        if let Some(at) = self.paused_at.take() {
            let gap = now.saturating_duration_since(at);
            for t in &mut self.times {
                *t += gap;
            }
            self.since += gap;
        }
    }

    fn forget(&mut self, now: Instant) {
        while self
            .times
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) > RATE_WINDOW)
        {
            self.times.pop_front();
        }
    }

    /// Events per second over the window; `None` while paused.
    pub fn per_second(&self, now: Instant) -> Option<f64> {
        if self.paused_at.is_some() {
            return None;
        }
        let span = now
            .saturating_duration_since(self.since)
            .min(RATE_WINDOW)
            .max(Duration::from_secs(1));
        let count = self
            .times
            .iter()
            .filter(|&&t| now.saturating_duration_since(t) <= RATE_WINDOW)
            .count();
        Some(count as f64 / span.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_covers_the_window_and_skips_pauses() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut r = MoveRate::new(t0);
        // 10 moves a second for 10 s.
        for i in 0..100 {
            r.record(t0 + ms(100 * i));
        }
        let now = t0 + ms(10_000);
        let rate = r.per_second(now).unwrap();
        assert!((rate - 10.0).abs() < 0.5, "{rate}");
        // Paused: no figure.
        r.pause(now);
        assert_eq!(r.per_second(now + ms(30_000)), None);
        // After a 30 s pause the rate is what it was, not diluted.
        r.resume(now + ms(30_000));
        let rate = r.per_second(now + ms(30_000)).unwrap();
        assert!((rate - 10.0).abs() < 0.5, "{rate}");
        // Nothing for a whole window: zero.
        assert_eq!(r.per_second(now + ms(36_000)), Some(0.0));
    }

    #[test]
    fn the_first_seconds_are_not_inflated() {
        let t0 = Instant::now();
        let mut r = MoveRate::new(t0);
        for i in 0..5 {
            r.record(t0 + Duration::from_millis(200 * i));
        }
        let rate = r.per_second(t0 + Duration::from_secs(1)).unwrap();
        assert!((rate - 5.0).abs() < 0.01, "{rate}");
    }
}
