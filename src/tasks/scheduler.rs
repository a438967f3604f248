//! A round-robin scheduler of stackful coroutines (corosensei).
//!
//! Each task runs until it suspends with a [`Suspend`] that says what it
//! waits for. Tasks never touch the scheduler directly: they post events to
//! a shared [`Signals`] mailbox, which the scheduler reads after every
//! resume to wake whoever waits on them. A panic inside a task ends that
//! task only; the scheduler records it and goes on with the others.
//!
//! A switch costs what corosensei costs plus a queue pop and push: ready
//! tasks wait in FIFO queues, waiters are indexed by event and sleepers sit
//! in a heap, so nothing scans the whole ring. The scheduler reads no clock
//! around a switch; each task adds the CPU time it used to its own
//! [`CpuMeter`] (a seat does it once per time slice, where its budget reads
//! the clock anyway). Two things keep the switch itself short: what a task
//! hands back is one word (corosensei passes it in a register; a sleep's
//! or a wait's details go through a cell of the task's), and a task's panic
//! is caught once, at the bottom of its own stack, not around each resume.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::time::{Duration, Instant};

use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use rustc_hash::FxHashMap;

/// Stack per task: engines recurse at most one frame per cell, a few
/// hundred bytes each, so this leaves a wide margin. Pages are only
/// committed when touched.
pub(super) const STACK_SIZE: usize = 1 << 20;

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
    /// Human mode asked for a hint.
    Hint,
    /// Human mode asked to save its game.
    Save,
    /// A review wants the engine's opinion of its positions.
    Review,
    /// This descriptor (an outside brain's pipe) has something to read.
    Readable(std::os::fd::RawFd),
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

/// CPU time a task has used, added by the task itself.
#[derive(Clone, Debug, Default)]
pub struct CpuMeter(Rc<Cell<Duration>>);

impl CpuMeter {
    pub fn add(&self, used: Duration) {
        self.0.set(self.0.get() + used);
    }
    pub fn get(&self) -> Duration {
        self.0.get()
    }
    /// Runs `f` and adds the CPU time it took.
    pub fn measure<T>(&self, f: impl FnOnce() -> T) -> T {
        let slice = super::clock::Slice::start();
        let out = f();
        self.add(slice.cpu_used());
        out
    }
}

/// What a task hands the scheduler at a switch: one word, passed in a
/// register. (A [`Suspend`] with an instant in it is three words, passed
/// through memory: a bare resume and suspend took 4.1 ns with one, 2.7
/// with a unit.)
#[derive(Clone, Copy, Debug)]
enum Handoff {
    /// `Suspend::Yield`.
    Yield,
    /// Any other `Suspend`: it is in the task's `suspended` cell.
    Posted,
}

/// How a task's coroutine ends: it returned, or it panicked (the payload,
/// caught at the bottom of its stack).
type Ending = Result<(), Box<dyn Any + Send>>;

/// What a task's body receives: suspend through it, account CPU into it.
pub struct Ctx<'a> {
    yielder: &'a Yielder<(), Handoff>,
    suspended: &'a Cell<Suspend>,
    pub cpu: CpuMeter,
}

impl Ctx<'_> {
    #[inline]
    pub fn suspend(&self, why: Suspend) {
        let handoff = match why {
            Suspend::Yield => Handoff::Yield,
            _ => {
                self.suspended.set(why);
                Handoff::Posted
            }
        };
        self.yielder.suspend(handoff);
    }
}

/// Where tasks post events for the scheduler to deliver.
#[derive(Clone, Default)]
pub struct Signals(Rc<RefCell<Vec<Event>>>);

impl Signals {
    pub fn post(&self, event: Event) {
        self.0.borrow_mut().push(event);
    }
    #[inline]
    fn take(&self) -> Option<Vec<Event>> {
        let mut posted = self.0.borrow_mut();
        (!posted.is_empty()).then(|| std::mem::take(&mut *posted))
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
    /// Human mode's hint search.
    Hint,
    Other,
}

impl TaskRole {
    /// The keyboard and the renderer answer the person at the keyboard:
    /// when ready they run before the seats, so a key press is not kept
    /// waiting for a whole round of thinking engines.
    pub fn is_interactive(self) -> bool {
        matches!(self, TaskRole::Keyboard | TaskRole::Renderer)
    }
}

pub struct Task {
    pub name: String,
    pub role: TaskRole,
    pub state: TaskState,
    pub resumes: u64,
    cpu: CpuMeter,
    /// Bumped at each timed suspend, so stale heap entries are ignored.
    timer: u64,
    /// Why it suspended, when that is more than a yield ([`Handoff::Posted`]).
    suspended: Rc<Cell<Suspend>>,
    coroutine: Coroutine<(), Handoff, Ending, DefaultStack>,
}

impl Task {
    /// CPU time the task has accounted so far.
    pub fn cpu(&self) -> Duration {
        self.cpu.get()
    }
}

/// A task that panicked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub task: usize,
    pub role: TaskRole,
    pub message: String,
}

#[derive(Default)]
pub struct Scheduler {
    tasks: Vec<Task>,
    /// Ready keyboard and renderer tasks, served first.
    interactive: VecDeque<usize>,
    /// Every other ready task, in round-robin order.
    ready: VecDeque<usize>,
    waiters: FxHashMap<Event, Vec<usize>>,
    timers: BinaryHeap<Reverse<(Instant, usize, u64)>>,
    signals: Signals,
    failures: VecDeque<Failure>,
}

impl Scheduler {
    pub fn new() -> Scheduler {
        Scheduler::default()
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
        let cpu = CpuMeter::default();
        let task_cpu = cpu.clone();
        let suspended = Rc::new(Cell::new(Suspend::Yield));
        let task_suspended = suspended.clone();
        let coroutine = Coroutine::with_stack(stack, move |yielder: &Yielder<(), Handoff>, ()| {
            // A panic stops here, at the bottom of the task's stack. (So
            // does the unwind corosensei forces when a suspended task is
            // dropped: it then sees the coroutine return, which is all it
            // asks.)
            catch_unwind(AssertUnwindSafe(|| {
                body(&Ctx {
                    yielder,
                    suspended: &task_suspended,
                    cpu: task_cpu,
                })
            }))
        });
        let index = self.tasks.len();
        self.tasks.push(Task {
            name: name.into(),
            role,
            state: TaskState::Ready,
            resumes: 0,
            cpu,
            timer: 0,
            suspended,
            coroutine,
        });
        self.queue(index);
        Ok(index)
    }

    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// Task switches so far (summed when asked, not counted per switch).
    pub fn switches(&self) -> u64 {
        self.tasks.iter().map(|t| t.resumes).sum()
    }

    /// The next failure not yet collected.
    pub fn take_failure(&mut self) -> Option<Failure> {
        self.failures.pop_front()
    }

    /// Number of tasks ready to run (the run queue's length).
    pub fn ready_count(&self) -> usize {
        self.ready.len() + self.interactive.len()
    }

    fn queue(&mut self, index: usize) {
        if self.tasks[index].role.is_interactive() {
            self.interactive.push_back(index);
        } else {
            self.ready.push_back(index);
        }
    }

    /// Makes a suspended task ready (once, however often it is woken).
    fn wake(&mut self, index: usize) {
        let task = &mut self.tasks[index];
        if matches!(task.state, TaskState::Sleeping(_) | TaskState::Waiting(..)) {
            task.state = TaskState::Ready;
            self.queue(index);
        }
    }

    /// Wakes sleepers and waiters whose deadline has passed.
    pub fn wake_due(&mut self, now: Instant) {
        while let Some(&Reverse((at, index, timer))) = self.timers.peek() {
            if at > now {
                break;
            }
            self.timers.pop();
            if self.tasks[index].timer == timer {
                self.wake(index);
            }
        }
    }

    /// The descriptors tasks wait to read (outside brains' pipes), for the
    /// main loop to poll together with the terminal.
    pub fn watched_fds(&self) -> Vec<std::os::fd::RawFd> {
        self.waiters
            .keys()
            .filter_map(|e| match e {
                Event::Readable(fd) => Some(*fd),
                _ => None,
            })
            .collect()
    }

    /// Wakes every task waiting for `event`.
    pub fn deliver(&mut self, event: Event) {
        let Some(waiting) = self.waiters.remove(&event) else {
            return;
        };
        for index in waiting {
            if matches!(self.tasks[index].state, TaskState::Waiting(e, _) if e == event) {
                self.wake(index);
            }
        }
    }

    /// Delivers the events tasks posted.
    #[inline]
    pub(crate) fn deliver_posted(&mut self) {
        if let Some(events) = self.signals.take() {
            for event in events {
                self.deliver(event);
            }
        }
    }

    /// The earliest instant a sleeping or waiting task must wake.
    pub fn next_deadline(&mut self) -> Option<Instant> {
        while let Some(&Reverse((at, index, timer))) = self.timers.peek() {
            let task = &self.tasks[index];
            let live = task.timer == timer
                && matches!(
                    task.state,
                    TaskState::Sleeping(_) | TaskState::Waiting(_, Some(_))
                );
            if live {
                return Some(at);
            }
            self.timers.pop();
        }
        None
    }

    /// Resumes the next ready task: an interactive one (keyboard, renderer)
    /// if any is ready, else the task at the head of the run queue.
    /// Returns its index.
    #[inline(always)]
    pub fn run_next(&mut self) -> Option<usize> {
        // Only tasks post events, and every resume is followed by a
        // delivery, so nothing is waiting in the mailbox here.
        let index = self
            .interactive
            .pop_front()
            .or_else(|| self.ready.pop_front())?;
        self.resume(index);
        self.deliver_posted();
        Some(index)
    }

    /// Runs each task that is ready now once, in queue order: one round.
    #[cfg(test)]
    pub fn run_round(&mut self) -> usize {
        self.deliver_posted();
        let ready: Vec<usize> = self
            .interactive
            .drain(..)
            .chain(self.ready.drain(..))
            .collect();
        for &index in &ready {
            self.resume(index);
            self.deliver_posted();
        }
        ready.len()
    }

    #[inline(always)]
    fn resume(&mut self, index: usize) {
        let task = &mut self.tasks[index];
        let handoff = task.coroutine.resume(());
        task.resumes += 1;
        let why = match handoff {
            CoroutineResult::Yield(Handoff::Yield) => Suspend::Yield,
            CoroutineResult::Yield(Handoff::Posted) => task.suspended.get(),
            CoroutineResult::Return(Ok(())) => {
                task.state = TaskState::Done;
                return;
            }
            CoroutineResult::Return(Err(payload)) => {
                let message = super::panics::message(&*payload);
                self.failures.push_back(Failure {
                    task: index,
                    role: task.role,
                    message: message.clone(),
                });
                task.state = TaskState::Failed(message);
                return;
            }
        };
        match why {
            // Its state is still `Ready`, as when it left the queue.
            Suspend::Yield => {
                let queue = if task.role.is_interactive() {
                    &mut self.interactive
                } else {
                    &mut self.ready
                };
                queue.push_back(index);
            }
            Suspend::Sleep(at) => {
                task.state = TaskState::Sleeping(at);
                task.timer += 1;
                self.timers.push(Reverse((at, index, task.timer)));
            }
            Suspend::Wait(event, at) => {
                task.state = TaskState::Waiting(event, at);
                if let Some(at) = at {
                    task.timer += 1;
                    self.timers.push(Reverse((at, index, task.timer)));
                }
                self.waiters.entry(event).or_default().push(index);
            }
        }
    }
}

/// Suspends the calling task until `deadline` (on the clock the caller
/// read `now` from).
pub(super) fn sleep_until(ctx: &Ctx, now: Instant, deadline: Instant) {
    if now < deadline {
        ctx.suspend(Suspend::Sleep(deadline));
    }
}

/// Suspends the calling task until `event` is posted.
pub(super) fn wait_for(ctx: &Ctx, event: Event) {
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
        assert_eq!(s.switches(), 18);
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
            sleep_until(ctx, start, wake);
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
        assert_eq!(s.next_deadline(), None);
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
        // Delivered twice before it runs: it still runs once.
        s.deliver(Event::Input);
        assert_eq!(s.ready_count(), 1);
        s.run_round();
        assert_eq!(*runs.borrow(), 1);
    }

    #[test]
    fn a_wait_with_a_deadline_times_out_and_a_stale_timer_is_ignored() {
        let mut s = Scheduler::new();
        let now = Instant::now();
        let (first, second) = (
            now + Duration::from_millis(5),
            now + Duration::from_millis(50),
        );
        s.spawn("w", TaskRole::Other, move |ctx| {
            ctx.suspend(Suspend::Wait(Event::Changed, Some(first)));
            ctx.suspend(Suspend::Wait(Event::Changed, Some(second)));
        })
        .unwrap();
        s.run_round();
        assert_eq!(s.next_deadline(), Some(first));
        // The event comes first: the task now waits with the later deadline,
        // and the first timer must not wake it.
        s.deliver(Event::Changed);
        s.run_round();
        assert_eq!(s.next_deadline(), Some(second));
        s.wake_due(first);
        assert_eq!(s.ready_count(), 0);
        s.wake_due(second);
        s.run_round();
        assert_eq!(s.tasks()[0].state, TaskState::Done);
    }

    #[test]
    fn a_panicking_task_is_contained() {
        super::super::panics::set_quiet(true);
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
    fn cpu_time_is_what_each_task_accounts() {
        let mut s = Scheduler::new();
        s.spawn("busy", TaskRole::Other, |ctx| {
            loop {
                ctx.cpu.measure(|| {
                    // 2 ms of this thread's CPU, however long the wall.
                    let start = crate::tasks::clock::Slice::start();
                    while start.cpu_used() < Duration::from_millis(2) {}
                });
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
        let (busy, idle) = (s.tasks()[0].cpu(), s.tasks()[1].cpu());
        assert!(busy >= Duration::from_millis(10), "{busy:?}");
        assert_eq!(idle, Duration::ZERO);
        assert_eq!(s.tasks()[0].resumes, 5);
    }
}
