//! Linux-style load averages, computed as the kernel does: fixed point with
//! 11 fractional bits, sampled every 5 seconds, exponentially damped over
//! 1, 5 and 15 minutes (kernel/sched/loadavg.c).

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::scheduler::{Scheduler, TaskRole};

pub const FSHIFT: u32 = 11;
pub const FIXED_1: u64 = 1 << FSHIFT;
/// `FIXED_1 / exp(5 s / 1 min)` and likewise for 5 and 15 minutes.
pub const EXP: [u64; 3] = [1884, 2014, 2037];
/// The kernel's sampling period.
pub const LOAD_FREQ: Duration = Duration::from_secs(5);
/// Samples kept for the sparklines (10 minutes).
pub const HISTORY: usize = 120;

/// One damped average of 1, 5 and 15 minutes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadAvg {
    fixed: [u64; 3],
}

/// The kernel's `calc_load`: `load * e + active * (1 - e)`, rounding up
/// while the load rises.
pub fn calc_load(load: u64, exp: u64, active: u64) -> u64 {
    let mut new = load * exp + active * (FIXED_1 - exp);
    if active >= load {
        new += FIXED_1 - 1;
    }
    new / FIXED_1
}

impl LoadAvg {
    /// Folds in one sample; `active` is in fixed point (FIXED_1 = 1.0).
    pub fn sample(&mut self, active: u64) {
        for (load, &e) in self.fixed.iter_mut().zip(&EXP) {
            *load = calc_load(*load, e, active);
        }
    }
    /// The three averages as numbers.
    pub fn values(&self) -> [f64; 3] {
        self.fixed.map(|f| f as f64 / FIXED_1 as f64)
    }
}

/// The load of one seat: the share of each 5 s its engine spent thinking.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatLoad {
    pub game: usize,
    pub side: usize,
    pub avg: LoadAvg,
    /// Share of the last period, 0 to 1.
    pub last_share: f64,
}

/// Everything the Load avg tab shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadSnapshot {
    /// Run-queue length averages of the scheduler (ready tasks).
    pub run_queue: LoadAvg,
    pub seats: Vec<SeatLoad>,
    /// 1-minute run-queue load after each sample, oldest first.
    pub history: VecDeque<f64>,
    /// Total engine share (sum over seats) after each sample.
    pub share_history: VecDeque<f64>,
    pub samples: u64,
    /// CPU time of every task so far, by role.
    pub cpu_seats: Duration,
    pub cpu_renderer: Duration,
    pub cpu_keyboard: Duration,
}

/// Samples the scheduler every [`LOAD_FREQ`].
pub struct LoadTracker {
    next: Instant,
    last: Instant,
    last_cpu: Vec<Duration>,
    pub snapshot: LoadSnapshot,
}

impl LoadTracker {
    pub fn new(now: Instant) -> LoadTracker {
        LoadTracker {
            next: now + LOAD_FREQ,
            last: now,
            last_cpu: Vec::new(),
            snapshot: LoadSnapshot::default(),
        }
    }

    /// When the next sample is due.
    pub fn next_sample(&self) -> Instant {
        self.next
    }

    /// Takes a sample if one is due; returns whether it did.
    pub fn maybe_sample(&mut self, now: Instant, sched: &Scheduler) -> bool {
        if now < self.next {
            return false;
        }
        self.sample(now, sched);
        true
    }

    /// Takes a sample now.
    pub fn sample(&mut self, now: Instant, sched: &Scheduler) {
        let period = now
            .saturating_duration_since(self.last)
            .max(Duration::from_millis(1));
        self.last = now;
        self.next = now + LOAD_FREQ;
        let tasks = sched.tasks();
        self.last_cpu.resize(tasks.len(), Duration::ZERO);
        let snap = &mut self.snapshot;
        snap.run_queue.sample(sched.ready_count() as u64 * FIXED_1);
        snap.cpu_seats = Duration::ZERO;
        snap.cpu_renderer = Duration::ZERO;
        snap.cpu_keyboard = Duration::ZERO;
        let mut total_share = 0.0;
        for (i, task) in tasks.iter().enumerate() {
            let used = task.cpu.saturating_sub(self.last_cpu[i]);
            self.last_cpu[i] = task.cpu;
            match task.role {
                TaskRole::Seat { game, side } => {
                    snap.cpu_seats += task.cpu;
                    let share = (used.as_secs_f64() / period.as_secs_f64()).min(1.0);
                    total_share += share;
                    let seat = match snap
                        .seats
                        .iter_mut()
                        .find(|s| s.game == game && s.side == side)
                    {
                        Some(seat) => seat,
                        None => {
                            snap.seats.push(SeatLoad {
                                game,
                                side,
                                ..SeatLoad::default()
                            });
                            snap.seats.sort_by_key(|s| (s.game, s.side));
                            let at = snap
                                .seats
                                .iter()
                                .position(|s| s.game == game && s.side == side);
                            &mut snap.seats[at.unwrap_or(0)]
                        }
                    };
                    seat.avg.sample((share * FIXED_1 as f64).round() as u64);
                    seat.last_share = share;
                }
                TaskRole::Renderer => snap.cpu_renderer += task.cpu,
                TaskRole::Keyboard => snap.cpu_keyboard += task.cpu,
                TaskRole::Other => {}
            }
        }
        snap.samples += 1;
        push_bounded(&mut snap.history, snap.run_queue.values()[0]);
        push_bounded(&mut snap.share_history, total_share);
    }
}

fn push_bounded(q: &mut VecDeque<f64>, v: f64) {
    if q.len() == HISTORY {
        q.pop_front();
    }
    q.push_back(v);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_load_converges_like_the_kernel() {
        // One task always runnable: after 1 minute (12 samples) the 1-minute
        // average is 1 - e^-1 ≈ 0.63, the 15-minute one about 0.06.
        let mut avg = LoadAvg::default();
        for _ in 0..12 {
            avg.sample(FIXED_1);
        }
        let [one, five, fifteen] = avg.values();
        assert!((one - 0.632).abs() < 0.02, "{one}");
        assert!((five - 0.181).abs() < 0.02, "{five}");
        assert!((fifteen - 0.064).abs() < 0.02, "{fifteen}");
        for _ in 0..1000 {
            avg.sample(FIXED_1);
        }
        assert!(
            avg.values().iter().all(|v| (v - 1.0).abs() < 0.01),
            "{:?}",
            avg.values()
        );
    }

    #[test]
    fn calc_load_matches_the_kernel_formula() {
        // load 0, one runnable: (0 * 1884 + 2048 * 164 + 2047) / 2048 = 164
        assert_eq!(calc_load(0, EXP[0], FIXED_1), 164);
        // Falling load rounds down: (2048 * 1884 + 0) / 2048 = 1884
        assert_eq!(calc_load(FIXED_1, EXP[0], 0), 1884);
    }
}
