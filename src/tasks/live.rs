//! The live screen: spawns the tasks and runs the event loop.

use std::cell::RefCell;
use std::io;
use std::os::fd::RawFd;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::Event as TermEvent;
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::layout::Size;

use super::clock::{SharedClock, SystemClock};
use super::door::{Door, Journal};
use super::frames::SharedFrames;
use super::hint::run_hint;
use super::keyboard::{InputQueue, run_keyboard};
use super::load::LoadTracker;
pub use super::renderer::FrameHook;
use super::renderer::run_renderer;
use super::scheduler::{Event, Scheduler, TaskRole};
use super::seat::run_seat;
use crate::app::{App, LiveConfig, Message};
use kxo_engine::Player;

/// The longest the loop blocks on input, so that signals are noticed.
const MAX_BLOCK: Duration = Duration::from_millis(250);

/// Where terminal events come from: the real terminal, or a script in tests
/// and benchmarks.
/// What woke the main loop: a terminal event, descriptors that became
/// readable (outside brains' pipes), or neither (the timeout).
#[derive(Debug, Default)]
pub struct Wake {
    pub event: Option<TermEvent>,
    pub readable: Vec<RawFd>,
}

pub trait InputSource {
    /// Waits up to `timeout` for one event.
    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<TermEvent>>;
    /// Waits up to `timeout` for one event or for any of `fds` to become
    /// readable. Sources with a real terminal poll it and the descriptors
    /// together; this default, for sources without one, checks the
    /// descriptors and then waits for an event a few milliseconds at most.
    fn wait(&mut self, timeout: Duration, fds: &[RawFd]) -> io::Result<Wake> {
        if fds.is_empty() {
            return Ok(Wake {
                event: self.next_event(timeout)?,
                readable: Vec::new(),
            });
        }
        let readable = poll_readable(None, fds, Duration::ZERO)?.1;
        if !readable.is_empty() {
            return Ok(Wake {
                event: None,
                readable,
            });
        }
        Ok(Wake {
            event: self.next_event(timeout.min(Duration::from_millis(5)))?,
            readable: Vec::new(),
        })
    }
    /// Gives the terminal back to the shell and stops the process until it
    /// is continued, then takes the terminal again (Ctrl-Z). Sources
    /// without a real terminal do nothing.
    fn suspend(&mut self) -> io::Result<()> {
        Ok(())
    }
    /// Whether the terminal hung up (asked when a frame failed: a write
    /// can fail with EIO before a read sees the hang-up). Sources without
    /// a real terminal never do.
    fn hung_up(&self) -> bool {
        false
    }
}

/// `poll(2)` on `own` (the terminal, if given) and `fds` for reading, up to
/// `timeout`: whether `own` is ready, and which of `fds` are (a hung-up or
/// closed descriptor counts as ready: its reader finds out).
pub fn poll_readable(
    own: Option<RawFd>,
    fds: &[RawFd],
    timeout: Duration,
) -> io::Result<(bool, Vec<RawFd>)> {
    let mut all: Vec<libc::pollfd> = own
        .iter()
        .chain(fds)
        .map(|&fd| crate::poll::for_reading(fd))
        .collect();
    crate::poll::wait(&mut all, timeout)?;
    let ready = |p: &libc::pollfd| p.revents != 0;
    let own_ready = own.is_some() && all.first().is_some_and(ready);
    let skip = usize::from(own.is_some());
    let readable = all[skip..]
        .iter()
        .filter(|p| ready(p))
        .map(|p| p.fd)
        .collect();
    Ok((own_ready, readable))
}

/// How the run ended.
#[derive(Debug)]
pub struct Summary {
    pub totals: crate::app::Totals,
    pub frames: u64,
    pub elapsed: Duration,
    /// Human mode: the person's score.
    pub score: Option<crate::app::human::Score>,
    /// The run ended because the terminal went away (end of input, or an
    /// error reading it).
    pub terminal_lost: bool,
    /// Human mode's choice of game (from its start screen), to keep.
    pub choice: Option<crate::app::setup::Choice>,
    /// The tournament the screen showed, as `arena` reports it.
    pub tournament: Option<crate::tournament::Report>,
}

/// One live screen: the app state, its tasks and the scheduler.
pub struct Live {
    /// The state's one door: read through it, changed only by its messages.
    door: Door,
    pub sched: Scheduler,
    input: InputQueue,
    clock: SharedClock,
    load: LoadTracker,
    /// The renderer's bookkeeping: frames drawn, full redraws asked for.
    frames: SharedFrames,
}

impl Live {
    /// Builds the state and spawns every task: two seats per game, the
    /// keyboard, the renderer, (with a learning player) the learner's
    /// accuracy and (in human mode) the hint search.
    pub fn new<B: Backend + 'static>(
        config: LiveConfig,
        terminal: Terminal<B>,
        clock: SharedClock,
        on_frame: Option<FrameHook>,
        journal: Option<Journal>,
    ) -> io::Result<Live> {
        let now = clock.now();
        let human = config.human.is_some();
        let app = initial_state(config, now, terminal.size().ok());
        let terminal = Rc::new(RefCell::new(terminal));
        let input: InputQueue = Rc::default();
        let mut sched = Scheduler::new();
        let frames = SharedFrames::default();
        let door = Door::new(app, sched.signals(), clock.clone(), frames.clone(), journal);
        let games = door.state().games().len();
        for game in 0..games {
            for me in [Player::O, Player::X] {
                let (door, clock) = (door.clone(), clock.clone());
                sched.spawn(
                    format!("game{}-{}", game + 1, me),
                    TaskRole::Seat {
                        game,
                        side: me.index(),
                    },
                    move |ctx| run_seat(ctx, door, clock, game, me),
                )?;
            }
        }
        let (kb_door, kb_input, kb_frames) = (door.clone(), input.clone(), frames.clone());
        sched.spawn("keyboard", TaskRole::Keyboard, move |ctx| {
            run_keyboard(ctx, kb_door, kb_input, kb_frames)
        })?;
        let (render_door, render_clock, render_frames) =
            (door.clone(), clock.clone(), frames.clone());
        sched.spawn("renderer", TaskRole::Renderer, move |ctx| {
            run_renderer(
                ctx,
                render_door,
                terminal,
                render_clock,
                render_frames,
                on_frame,
            )
        })?;
        // What the learner's table holds, from the start: by message, as
        // every change (the state never reads the table).
        let table = door.state().config().rl.clone();
        if let Some(table) = table {
            let figures = crate::app::LearnerFigures::of(&table.borrow());
            door.send(Message::Learned(figures));
        }
        if door.state().config().rl.is_some() {
            let learner_door = door.clone();
            sched.spawn("learner", TaskRole::Other, move |ctx| {
                super::learner::run_learner(ctx, learner_door)
            })?;
        }
        if human {
            let hint_door = door.clone();
            sched.spawn("hint", TaskRole::Hint, move |ctx| run_hint(ctx, hint_door))?;
            if door.state().human().is_some_and(|h| h.clock.is_some()) {
                let flag_door = door.clone();
                sched.spawn("clock", TaskRole::Other, move |ctx| {
                    super::flag::run_flag(ctx, flag_door)
                })?;
            }
            let review_door = door.clone();
            sched.spawn("review", TaskRole::Hint, move |ctx| {
                super::review::run_review(ctx, review_door)
            })?;
            // Saved games go to the folder kxo-tui runs in.
            let files_door = door.clone();
            sched.spawn("files", TaskRole::Other, move |ctx| {
                super::files::run_files(ctx, files_door, std::path::PathBuf::from("."))
            })?;
        }
        Ok(Live {
            door,
            sched,
            input,
            load: LoadTracker::new(now),
            clock,
            frames,
        })
    }

    /// The state, to read.
    pub fn state(&self) -> std::cell::Ref<'_, App> {
        self.door.state()
    }

    /// The main loop's own message (a load sample, a failure, a stop, a
    /// suspension): applied, and its events delivered at once.
    fn send(&mut self, message: Message) {
        self.door.send(message);
        self.sched.deliver_posted();
    }

    /// Hands a terminal event to the keyboard task.
    pub fn push_input(&mut self, event: TermEvent) {
        self.input.borrow_mut().push_back(event);
        self.sched.deliver(Event::Input);
    }

    /// One turn of the loop without reading input: wake what is due, take
    /// a load sample if one is due, collect failures, run one task.
    /// Returns false once the screen should close.
    pub fn step(&mut self) -> anyhow::Result<bool> {
        let now = self.clock.now();
        self.sched.wake_due(now);
        let work = *self.door.state().engine_work();
        if self.load.maybe_sample(now, &self.sched, &work) {
            self.send(Message::LoadSampled(Box::new(self.load.snapshot.clone())));
        }
        while let Some(failure) = self.sched.take_failure() {
            if let TaskRole::Seat { game, .. } = failure.role {
                self.send(Message::Failed {
                    game,
                    message: failure.message,
                });
            } else {
                anyhow::bail!("the {:?} task failed: {}", failure.role, failure.message);
            }
        }
        {
            let a = self.door.state();
            if a.quit() {
                if let Some(e) = &a.error() {
                    anyhow::bail!("{e}");
                }
                return Ok(false);
            }
        }
        let ran = self.sched.run_next();
        // A task that suspends while it borrows the app would make every
        // other task's borrow fail later, somewhere else: say which one.
        if let Some(index) = ran
            && self.door.is_held()
        {
            let name = self
                .sched
                .tasks()
                .get(index)
                .map_or("?", |t| t.name.as_str());
            anyhow::bail!("task {name} suspended while it held the app state");
        }
        Ok(true)
    }

    /// How long the loop may block on input: not at all while tasks are
    /// ready, else until the next wake-up or load sample.
    fn idle_timeout(&mut self) -> Duration {
        if self.sched.ready_count() > 0 {
            return Duration::ZERO;
        }
        let next = self
            .sched
            .next_deadline()
            .map_or(self.load.next_sample(), |d| d.min(self.load.next_sample()));
        next.saturating_duration_since(self.clock.now())
            .min(MAX_BLOCK)
    }

    fn summary(&self) -> Summary {
        let a = self.door.state();
        Summary {
            totals: a.totals().clone(),
            frames: self.frames.borrow().count,
            elapsed: self.clock.now().saturating_duration_since(a.started()),
            score: a.human().map(|h| h.score),
            terminal_lost: false,
            // Kept only once made: quitting the start screen keeps nothing.
            choice: a.chosen().filter(|_| a.setup().is_none()),
            tournament: a.tournament().map(|t| t.report.clone()),
        }
    }
}

/// The state a live screen starts from at `now`, on a terminal of `size`:
/// the first games are of boards the screen's boxes can show.
pub(crate) fn initial_state(config: LiveConfig, now: Instant, size: Option<Size>) -> App {
    let fits = size.and_then(|size| {
        let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
        let sides = match &config.show {
            Some(show) => show.variants.iter().map(|v| v.rules.size()).collect(),
            None => vec![config.rules.size()],
        };
        crate::ui::layout::plan(area, config.games, &sides).map(|p| p.fits)
    });
    App::with_fits(config, now, fits.unwrap_or(7))
}

/// Runs the live screen on the real clock until the user quits or `stop`
/// is raised (a signal). The caller owns the terminal's modes; this only
/// draws.
pub fn run<B: Backend + 'static>(
    config: LiveConfig,
    terminal: Terminal<B>,
    input: &mut dyn InputSource,
    stop: Arc<AtomicBool>,
    on_frame: Option<FrameHook>,
) -> anyhow::Result<Summary> {
    let mut live = Live::new(config, terminal, Rc::new(SystemClock), on_frame, None)?;
    let mut terminal_lost = false;
    loop {
        if stop.load(Ordering::Relaxed) {
            live.send(Message::Stop { error: None });
        }
        // Read input: without blocking while tasks are ready, otherwise
        // blocking until the next wake-up (no busy loop).
        let mut timeout = live.idle_timeout();
        let fds = live.sched.watched_fds();
        loop {
            let wake = match input.wait(timeout, &fds) {
                Ok(wake) => wake,
                // The terminal is gone (end of input, or it fails):
                // nobody is left to watch, so stop.
                Err(_) => {
                    live.send(Message::Stop { error: None });
                    terminal_lost = true;
                    break;
                }
            };
            for fd in wake.readable {
                live.sched.deliver(Event::Readable(fd));
            }
            let Some(event) = wake.event else {
                break;
            };
            timeout = Duration::ZERO;
            live.push_input(event);
            if live.input.borrow().len() >= 64 {
                break;
            }
        }
        match live.step() {
            Ok(true) => {}
            Ok(false) => break,
            // A frame that failed because the terminal went away (EIO
            // before the input saw the hang-up) is a lost terminal, as
            // when the input sees it first; any other failure is one.
            Err(e) => {
                // A stop (a signal) while the terminal took no output: the
                // frame was dropped, and the terminal is as good as lost.
                let stopped = stop.load(Ordering::Relaxed);
                if live.door.state().cannot_draw() && (input.hung_up() || stopped) {
                    terminal_lost = true;
                    break;
                }
                return Err(e);
            }
        }
        if live.door.state().suspend_asked() {
            // Between slices: no seat is running, so no engine's clock
            // counts the time the process is stopped.
            live.send(Message::Suspending);
            input.suspend()?;
            live.frames.borrow_mut().redraw_all = true;
            live.send(Message::Resumed);
        }
    }
    Ok(Summary {
        terminal_lost,
        ..live.summary()
    })
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
