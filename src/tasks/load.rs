//! Samples the scheduler every [`LOAD_FREQ`] into the app's
//! [`LoadSnapshot`]: the run queue's load averages, each seat's share of
//! the CPU, switches per second, engine speeds and the process's own CPU.

use std::time::{Duration, Instant};

use super::scheduler::{Scheduler, TaskRole};
use crate::app::EngineWork;
use crate::app::load::{EngineLoad, FIXED_1, LOAD_FREQ, LoadSnapshot, SeatLoad, push_bounded};

pub(super) struct LoadTracker {
    started: Instant,
    next: Instant,
    last: Instant,
    last_cpu: Vec<Duration>,
    last_switches: u64,
    last_process: Option<Duration>,
    last_work: [EngineWork; kxo_engine::EngineKind::COUNT],
    pub snapshot: LoadSnapshot,
}

/// The process's CPU time (user + system) so far.
pub(super) fn process_cpu() -> Option<Duration> {
    // SAFETY: getrusage fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } == 0;
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    ok.then(|| tv(usage.ru_utime) + tv(usage.ru_stime))
}

impl LoadTracker {
    pub(super) fn new(now: Instant) -> LoadTracker {
        LoadTracker {
            started: now,
            next: now + LOAD_FREQ,
            last: now,
            last_cpu: Vec::new(),
            last_switches: 0,
            last_process: process_cpu(),
            last_work: [EngineWork::default(); kxo_engine::EngineKind::COUNT],
            snapshot: LoadSnapshot::default(),
        }
    }

    /// When the next sample is due.
    pub(super) fn next_sample(&self) -> Instant {
        self.next
    }

    /// Takes a sample if one is due; returns whether it did.
    pub(super) fn maybe_sample(
        &mut self,
        now: Instant,
        sched: &Scheduler,
        work: &[EngineWork; kxo_engine::EngineKind::COUNT],
    ) -> bool {
        if now < self.next {
            return false;
        }
        self.sample(now, sched, work);
        true
    }

    /// Takes a sample now. `work` is each engine kind's totals so far.
    pub(super) fn sample(
        &mut self,
        now: Instant,
        sched: &Scheduler,
        work: &[EngineWork; kxo_engine::EngineKind::COUNT],
    ) {
        let period = now
            .saturating_duration_since(self.last)
            .max(Duration::from_millis(1));
        let secs = period.as_secs_f64();
        self.last = now;
        self.next = now + LOAD_FREQ;
        let tasks = sched.tasks();
        self.last_cpu.resize(tasks.len(), Duration::ZERO);
        let snap = &mut self.snapshot;
        let ready = sched.ready_count();
        snap.run_queue.sample(ready as u64 * FIXED_1);
        snap.cpu_seats = Duration::ZERO;
        snap.cpu_renderer = Duration::ZERO;
        snap.cpu_keyboard = Duration::ZERO;
        for (i, task) in tasks.iter().enumerate() {
            let cpu = task.cpu();
            let used = cpu.saturating_sub(self.last_cpu[i]);
            self.last_cpu[i] = cpu;
            match task.role {
                TaskRole::Seat { game, side } => {
                    snap.cpu_seats += cpu;
                    let share = (used.as_secs_f64() / secs).min(1.0);
                    let at = match snap
                        .seats
                        .binary_search_by_key(&(game, side), |s| (s.game, s.side))
                    {
                        Ok(at) => at,
                        Err(at) => {
                            snap.seats.insert(
                                at,
                                SeatLoad {
                                    game,
                                    side,
                                    ..SeatLoad::default()
                                },
                            );
                            at
                        }
                    };
                    let seat = &mut snap.seats[at];
                    seat.avg.sample((share * FIXED_1 as f64).round() as u64);
                    seat.last_share = share;
                }
                TaskRole::Renderer => snap.cpu_renderer += cpu,
                TaskRole::Keyboard => snap.cpu_keyboard += cpu,
                TaskRole::Hint | TaskRole::Other => {}
            }
        }
        let switches = sched.switches();
        snap.switches_per_second = (switches - self.last_switches) as f64 / secs;
        self.last_switches = switches;
        let process = process_cpu();
        snap.process_share = match (process, self.last_process) {
            (Some(now_cpu), Some(before)) => {
                Some(now_cpu.saturating_sub(before).as_secs_f64() / secs)
            }
            _ => None,
        };
        self.last_process = process;
        for (i, (w, before)) in work.iter().zip(&self.last_work).enumerate() {
            let cpu = w.cpu.saturating_sub(before.cpu).as_secs_f64();
            let done = w.work.saturating_sub(before.work) as f64;
            snap.engines[i] = EngineLoad {
                share: (cpu / secs).min(1.0),
                work_per_cpu_second: if cpu > 0.0 { done / cpu } else { 0.0 },
                active: cpu > 0.0,
            };
        }
        self.last_work = *work;
        snap.samples += 1;
        snap.at = now.saturating_duration_since(self.started).as_secs_f64();
        push_bounded(&mut snap.history, (snap.at, snap.run_queue.values()[0]));
        push_bounded(&mut snap.queue_history, (snap.at, ready as f64));
    }
}
