//! Linux-style load averages, computed as the kernel does: fixed point with
//! 11 fractional bits, sampled every 5 seconds, exponentially damped over
//! 1, 5 and 15 minutes (kernel/sched/loadavg.c).

use std::collections::VecDeque;
use std::time::Duration;

pub const FSHIFT: u32 = 11;
pub const FIXED_1: u64 = 1 << FSHIFT;
/// `FIXED_1 / exp(5 s / 1 min)` and likewise for 5 and 15 minutes.
pub const EXP: [u64; 3] = [1884, 2014, 2037];
/// The kernel's sampling period.
pub const LOAD_FREQ: Duration = Duration::from_secs(5);
/// Samples kept for the chart (10 minutes).
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
    /// An average with these values (for tests and tools).
    pub fn from_values(values: [f64; 3]) -> LoadAvg {
        LoadAvg {
            fixed: values.map(|v| (v * FIXED_1 as f64).round() as u64),
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

/// CPU use and work of one engine kind over the last sample period.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EngineLoad {
    /// Share of one core its seats used, 0 to 1.
    pub share: f64,
    /// Iterations or nodes per second of its own CPU time (its speed).
    pub work_per_cpu_second: f64,
    /// Whether it thought at all in the period.
    pub active: bool,
}

/// Everything the Load avg tab shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadSnapshot {
    /// Run-queue length averages of the scheduler (ready tasks).
    pub run_queue: LoadAvg,
    pub seats: Vec<SeatLoad>,
    /// (seconds since start, 1-minute run-queue load) after each sample.
    pub history: VecDeque<(f64, f64)>,
    /// (seconds since start, ready tasks at the sample) after each sample.
    pub queue_history: VecDeque<(f64, f64)>,
    pub samples: u64,
    /// Seconds since start at the last sample.
    pub at: f64,
    /// CPU time of every task so far, by role.
    pub cpu_seats: Duration,
    pub cpu_renderer: Duration,
    pub cpu_keyboard: Duration,
    /// Task switches per second over the last period.
    pub switches_per_second: f64,
    /// The whole process's CPU (user + system) over the last period, as a
    /// share of one core; `None` where the system does not say.
    pub process_share: Option<f64>,
    /// Per engine kind, in `EngineKind::ALL` order.
    pub engines: [EngineLoad; kxo_engine::EngineKind::COUNT],
}

/// Appends to a bounded history.
pub fn push_bounded<T>(q: &mut VecDeque<T>, v: T) {
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
