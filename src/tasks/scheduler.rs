//! A round-robin scheduler of stackful coroutines (corosensei).
//!
//! Each task runs until it suspends with a [`Suspend`] that says what it
//! waits for. Tasks never touch the scheduler directly: they post events to
//! a shared [`Signals`] mailbox, which the scheduler reads after every
//! resume to wake whoever waits on them. A panic inside a task ends that
//! task only; the scheduler records it and goes on with the others.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::time::{Duration, Instant};

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};

/// Stack per task: engines recurse at most one frame per cell, a few
/// hundred bytes each, so this leaves a wide margin. Pages are only
/// committed when touched.
pub const STACK_SIZE: usize = 1 << 20;

/// Something a task can wait for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// Terminal input arrived.
    Input,
    /// The pause ended.
    Resume,
    /// Something on screen changed.
    Changed,
    /// Game `n` changed hands (a move was played, or it restarted).
    Turn(usize),
}

/// Why a task gave control back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suspend {
    /// Its time slice is used up; it is ready to go on.
    Yield,
    /// Wake it at this instant.
    Sleep(Instant),
    /// Wake it when the event is posted, or at the deadline if one is given.
    Wait(Event, Option<Instant>),
}

/// What a task is doing, as the scheduler sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskState {
    Ready,
    Waiting(Event, Option<Instant>),
    Sleeping(Instant),
    /// It returned.
    Done,
    /// It panicked with this message.
    Failed(String),
}

/// The handle a task's body receives: suspend through it.
pub type Ctx = Yielder<(), Suspend>;

/// Where tasks post events for the scheduler to deliver.
#[derive(Clone, Default)]
pub struct Signals(Rc<RefCell<Vec<Event>>>);

impl Signals {
    pub fn post(&self, event: Event) {
        self.0.borrow_mut().push(event);
    }
    fn take(&self) -> Option<Vec<Event>> {
        let mut posted = self.0.borrow_mut();
        (!posted.is_empty()).then(|| std::mem::take(&mut *posted))
    }
}

impl TaskRole {
    /// The keyboard and the renderer answer the person at the keyboard:
    /// when ready they run before the seats, so a key press is not kept
    /// waiting for a whole round of thinking engines.
    pub fn is_interactive(self) -> bool {
        matches!(self, TaskRole::Keyboard | TaskRole::Renderer)
    }
}

/// Who a task belongs to, for accounting and for reporting failures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskRole {
    /// A player seat: game index and side (0 = O, 1 = X).
    Seat {
        game: usize,
        side: usize,
    },
    Keyboard,
    Renderer,
    Other,
}

pub struct Task {
    pub name: String,
    pub role: TaskRole,
    pub state: TaskState,
    /// Time spent running, summed over every resume.
    pub cpu: Duration,
    pub resumes: u64,
    coroutine: Coroutine<(), Suspend, (), DefaultStack>,
}

/// A task that panicked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub task: usize,
    pub role: TaskRole,
    pub message: String,
}

pub struct Scheduler {
    tasks: Vec<Task>,
    /// Indices of the keyboard and renderer tasks, looked at first.
    interactive: Vec<usize>,
    signals: Signals,
    /// Where the next round-robin search starts.
    cursor: usize,
    failures: VecDeque<Failure>,
}

impl Default for Scheduler {
    fn default() -> Self {
        Scheduler::new()
    }
}

impl Scheduler {
    pub fn new() -> Scheduler {
        Scheduler {
            tasks: Vec::new(),
            interactive: Vec::new(),
            signals: Signals::default(),
            cursor: 0,
            failures: VecDeque::new(),
        }
    }

    /// The mailbox tasks post events to.
    pub fn signals(&self) -> Signals {
        self.signals.clone()
    }

    /// Adds a task, ready to run. Its stack is allocated once, here.
    pub fn spawn<F>(
        &mut self,
        name: impl Into<String>,
        role: TaskRole,
        body: F,
    ) -> std::io::Result<usize>
    where
        F: FnOnce(&Ctx) + 'static,
    {
        let stack = DefaultStack::new(STACK_SIZE)?;
        let coroutine = Coroutine::with_stack(stack, move |ctx: &Ctx, ()| body(ctx));
        if role.is_interactive() {
            self.interactive.push(self.tasks.len());
        }
        self.tasks.push(Task {
            name: name.into(),
            role,
            state: TaskState::Ready,
            cpu: Duration::ZERO,
            resumes: 0,
            coroutine,
        });
        Ok(self.tasks.len() - 1)
    }

    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The next failure not yet collected.
    pub fn take_failure(&mut self) -> Option<Failure> {
        self.failures.pop_front()
    }

    /// Number of tasks ready to run.
    pub fn ready_count(&self) -> usize {
        self.tasks
            .iter()
            .filter(|t| t.state == TaskState::Ready)
            .count()
    }

    /// Wakes sleepers and waiters whose deadline has passed.
    pub fn wake_due(&mut self, now: Instant) {
        for task in &mut self.tasks {
            let due = match task.state {
                TaskState::Sleeping(at) | TaskState::Waiting(_, Some(at)) => at <= now,
                _ => false,
            };
            if due {
                task.state = TaskState::Ready;
            }
        }
    }

    /// Wakes every task waiting for `event`.
    pub fn deliver(&mut self, event: Event) {
        for task in &mut self.tasks {
            if matches!(task.state, TaskState::Waiting(e, _) if e == event) {
                task.state = TaskState::Ready;
            }
        }
    }

    /// Delivers the events tasks posted.
    fn deliver_posted(&mut self) {
        if let Some(events) = self.signals.take() {
            for event in events {
                self.deliver(event);
            }
        }
    }

    /// The earliest instant a sleeping or waiting task must wake.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.tasks
            .iter()
            .filter_map(|t| match t.state {
                TaskState::Sleeping(at) | TaskState::Waiting(_, Some(at)) => Some(at),
                _ => None,
            })
            .min()
    }

    /// Resumes the next ready task: an interactive one (keyboard, renderer)
    /// if any is ready, else the next ready task after the last one run.
    /// Returns its index.
    pub fn run_next(&mut self) -> Option<usize> {
        self.deliver_posted();
        let n = self.tasks.len();
        let ready = |t: &Task| t.state == TaskState::Ready;
        if let Some(index) =
            (0..n).find(|&i| ready(&self.tasks[i]) && self.tasks[i].role.is_interactive())
        {
            self.resume(index);
            self.deliver_posted();
            return Some(index);
        }
        let index = (0..n)
            .map(|i| (self.cursor + i) % n)
            .find(|&i| ready(&self.tasks[i]))?;
        self.cursor = (index + 1) % n;
        self.resume(index);
        self.deliver_posted();
        Some(index)
    }

    /// Runs each task that is ready now once, in ring order: one round.
    pub fn run_round(&mut self) -> usize {
        self.deliver_posted();
        let ready: Vec<usize> = (0..self.tasks.len())
            .filter(|&i| self.tasks[i].state == TaskState::Ready)
            .collect();
        for &i in &ready {
            if self.tasks[i].state == TaskState::Ready {
                self.resume(i);
                self.deliver_posted();
            }
        }
        ready.len()
    }

    fn resume(&mut self, index: usize) {
        let task = &mut self.tasks[index];
        // The TSC clock costs a few ns a read where `Instant::now` costs
        // about 45 ns on these virtual machines; it is read twice per switch.
        let start = quanta::Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| task.coroutine.resume(())));
        task.cpu += start.elapsed();
        task.resumes += 1;
        task.state = match result {
            Ok(CoroutineResult::Yield(Suspend::Yield)) => TaskState::Ready,
            Ok(CoroutineResult::Yield(Suspend::Sleep(at))) => TaskState::Sleeping(at),
            Ok(CoroutineResult::Yield(Suspend::Wait(e, at))) => TaskState::Waiting(e, at),
            Ok(CoroutineResult::Return(())) => TaskState::Done,
            Err(payload) => {
                let message = crate::panics::message(&*payload);
                self.failures.push_back(Failure {
                    task: index,
                    role: task.role,
                    message: message.clone(),
                });
                TaskState::Failed(message)
            }
        };
    }
}

/// Suspends the calling task until `deadline`.
pub fn sleep_until(ctx: &Ctx, deadline: Instant) {
    if Instant::now() < deadline {
        ctx.suspend(Suspend::Sleep(deadline));
    }
}

/// Suspends the calling task until `event` is posted.
pub fn wait_for(ctx: &Ctx, event: Event) {
    ctx.suspend(Suspend::Wait(event, None));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log() -> Rc<RefCell<Vec<String>>> {
        Rc::new(RefCell::new(Vec::new()))
    }

    #[test]
    fn every_ready_task_runs_once_per_round() {
        let mut s = Scheduler::new();
        let seen = log();
        for name in ["a", "b", "c"] {
            let seen = seen.clone();
            s.spawn(name, TaskRole::Other, move |ctx| {
                loop {
                    seen.borrow_mut().push(name.to_string());
                    ctx.suspend(Suspend::Yield);
                }
            })
            .unwrap();
        }
        for _ in 0..4 {
            assert_eq!(s.run_round(), 3);
        }
        assert_eq!(seen.borrow().join(""), "abcabcabcabc");
        // run_next goes round the ring the same way.
        seen.borrow_mut().clear();
        for _ in 0..6 {
            s.run_next();
        }
        assert_eq!(seen.borrow().join(""), "abcabc");
    }

    #[test]
    fn interactive_tasks_jump_the_queue_and_seats_stay_fair() {
        let mut s = Scheduler::new();
        let seen = log();
        for (name, role) in [
            ("a", TaskRole::Seat { game: 0, side: 0 }),
            ("b", TaskRole::Seat { game: 1, side: 0 }),
            ("k", TaskRole::Keyboard),
        ] {
            let seen = seen.clone();
            s.spawn(name, role, move |ctx| {
                loop {
                    seen.borrow_mut().push(name.to_string());
                    if name == "k" {
                        wait_for(ctx, Event::Input);
                    } else {
                        ctx.suspend(Suspend::Yield);
                    }
                }
            })
            .unwrap();
        }
        for _ in 0..3 {
            s.run_next();
        }
        assert_eq!(seen.borrow().join(""), "kab");
        s.deliver(Event::Input);
        for _ in 0..3 {
            s.run_next();
        }
        // The keyboard runs at once; the seats keep their alternation.
        assert_eq!(seen.borrow().join(""), "kabkab");
    }

    #[test]
    fn a_sleeper_wakes_only_when_due() {
        let mut s = Scheduler::new();
        let seen = log();
        let start = Instant::now();
        let wake = start + Duration::from_millis(30);
        let seen2 = seen.clone();
        s.spawn("sleeper", TaskRole::Other, move |ctx| {
            seen2.borrow_mut().push("before".into());
            sleep_until(ctx, wake);
            seen2.borrow_mut().push("after".into());
        })
        .unwrap();
        s.run_round();
        assert_eq!(s.tasks()[0].state, TaskState::Sleeping(wake));
        assert_eq!(s.next_deadline(), Some(wake));
        s.wake_due(wake - Duration::from_millis(1));
        assert_eq!(s.run_round(), 0);
        s.wake_due(wake);
        s.run_round();
        assert_eq!(*seen.borrow(), ["before", "after"]);
        assert_eq!(s.tasks()[0].state, TaskState::Done);
    }

    #[test]
    fn seats_take_turns_by_waiting_for_each_other() {
        // Two seats share a counter; each moves only on its turn and posts
        // the turn event after moving.
        let mut s = Scheduler::new();
        let turn = Rc::new(RefCell::new(0usize));
        let moves = log();
        for side in 0..2 {
            let (turn, moves, signals) = (turn.clone(), moves.clone(), s.signals());
            s.spawn(
                format!("seat{side}"),
                TaskRole::Seat { game: 0, side },
                move |ctx| {
                    for _ in 0..3 {
                        while *turn.borrow() % 2 != side {
                            wait_for(ctx, Event::Turn(0));
                        }
                        moves.borrow_mut().push(format!("{side}"));
                        *turn.borrow_mut() += 1;
                        signals.post(Event::Turn(0));
                    }
                },
            )
            .unwrap();
        }
        for _ in 0..20 {
            s.run_round();
        }
        assert_eq!(moves.borrow().join(""), "010101");
        assert!(s.tasks().iter().all(|t| t.state == TaskState::Done));
    }

    #[test]
    fn waiting_tasks_do_not_run_until_their_event() {
        let mut s = Scheduler::new();
        let runs = Rc::new(RefCell::new(0));
        let r = runs.clone();
        s.spawn("waiter", TaskRole::Other, move |ctx| {
            loop {
                wait_for(ctx, Event::Input);
                *r.borrow_mut() += 1;
            }
        })
        .unwrap();
        s.run_round();
        for _ in 0..5 {
            assert_eq!(s.run_round(), 0);
        }
        assert_eq!(*runs.borrow(), 0);
        s.deliver(Event::Resume);
        assert_eq!(s.run_round(), 0);
        s.deliver(Event::Input);
        s.run_round();
        assert_eq!(*runs.borrow(), 1);
    }

    #[test]
    fn a_wait_with_a_deadline_times_out() {
        let mut s = Scheduler::new();
        let deadline = Instant::now() + Duration::from_millis(5);
        s.spawn("w", TaskRole::Other, move |ctx| {
            ctx.suspend(Suspend::Wait(Event::Changed, Some(deadline)));
        })
        .unwrap();
        s.run_round();
        assert_eq!(s.next_deadline(), Some(deadline));
        s.wake_due(deadline);
        s.run_round();
        assert_eq!(s.tasks()[0].state, TaskState::Done);
    }

    #[test]
    fn a_panicking_task_is_contained() {
        crate::panics::set_quiet(true);
        let mut s = Scheduler::new();
        let seen = log();
        let seen2 = seen.clone();
        s.spawn("bad", TaskRole::Seat { game: 3, side: 1 }, |ctx| {
            ctx.suspend(Suspend::Yield);
            panic!("engine blew up");
        })
        .unwrap();
        s.spawn("good", TaskRole::Other, move |ctx| {
            loop {
                seen2.borrow_mut().push("good".into());
                ctx.suspend(Suspend::Yield);
            }
        })
        .unwrap();
        for _ in 0..3 {
            s.run_round();
        }
        assert_eq!(seen.borrow().len(), 3);
        let failure = s.take_failure().expect("the panic is recorded");
        assert_eq!(failure.role, TaskRole::Seat { game: 3, side: 1 });
        assert!(
            failure.message.contains("engine blew up"),
            "{}",
            failure.message
        );
        assert!(matches!(s.tasks()[0].state, TaskState::Failed(_)));
        assert!(s.take_failure().is_none());
    }

    #[test]
    fn cpu_time_is_accounted_per_task() {
        let mut s = Scheduler::new();
        s.spawn("busy", TaskRole::Other, |ctx| {
            loop {
                let start = Instant::now();
                while start.elapsed() < Duration::from_millis(2) {}
                ctx.suspend(Suspend::Yield);
            }
        })
        .unwrap();
        s.spawn("idle", TaskRole::Other, |ctx| {
            loop {
                ctx.suspend(Suspend::Yield);
            }
        })
        .unwrap();
        for _ in 0..5 {
            s.run_round();
        }
        let (busy, idle) = (s.tasks()[0].cpu, s.tasks()[1].cpu);
        assert!(busy >= Duration::from_millis(10), "{busy:?}");
        assert!(idle < busy / 10, "{idle:?} vs {busy:?}");
        assert_eq!(s.tasks()[0].resumes, 5);
    }
}
