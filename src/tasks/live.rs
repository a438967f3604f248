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
use crate::game::Player;

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
    /// The state, read here; changed only through `door`.
    app: Rc<RefCell<App>>,
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
        let app = Rc::new(RefCell::new(initial_state(
            config,
            now,
            terminal.size().ok(),
        )));
        let terminal = Rc::new(RefCell::new(terminal));
        let input: InputQueue = Rc::default();
        let mut sched = Scheduler::new();
        let frames = SharedFrames::default();
        let door = Door::new(
            app.clone(),
            sched.signals(),
            clock.clone(),
            frames.clone(),
            journal,
        );
        let games = app.borrow().games().len();
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
        if app.borrow().config().rl.is_some() {
            let learner_door = door.clone();
            sched.spawn("learner", TaskRole::Other, move |ctx| {
                super::learner::run_learner(ctx, learner_door)
            })?;
        }
        if human {
            let hint_door = door.clone();
            sched.spawn("hint", TaskRole::Hint, move |ctx| run_hint(ctx, hint_door))?;
        }
        Ok(Live {
            app,
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
        self.app.borrow()
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
        let work = *self.app.borrow().engine_work();
        if self.load.maybe_sample(now, &self.sched, &work) {
            self.send(Message::LoadSampled(self.load.snapshot.clone()));
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
            let a = self.app.borrow();
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
        let a = self.app.borrow();
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
        if !live.step()? {
            break;
        }
        if live.app.borrow().suspend_asked() {
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
mod tests {
    use super::*;
    use crate::ai::ThinkLimit;
    use crate::app::GameStatus;
    use crate::tasks::clock::{Clock, ManualClock};
    use crate::tasks::scheduler::TaskState;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::backend::TestBackend;
    use std::time::Instant;

    fn live_with(config: LiveConfig, clock: SharedClock) -> Live {
        let terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        Live::new(config, terminal, clock, None, None).unwrap()
    }

    fn press_ctrl_p(live: &mut Live) {
        let key = TermEvent::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL));
        live.push_input(key);
        // The interactive tasks run first: the keyboard among them.
        while !live.input.borrow().is_empty() {
            live.sched.run_next();
        }
    }

    fn seat_cpu(live: &Live) -> Vec<Duration> {
        live.sched
            .tasks()
            .iter()
            .filter(|t| matches!(t.role, TaskRole::Seat { .. }))
            .map(|t| t.cpu())
            .collect()
    }

    fn mcts_games(games: usize, think_ms: u64) -> LiveConfig {
        LiveConfig {
            games,
            o: Some(crate::ai::BuiltIn::Mcts.into()),
            x: Some(crate::ai::BuiltIn::Mcts.into()),
            delay: Duration::ZERO,
            limit: ThinkLimit::Millis(think_ms),
            seed: 5,
            ..LiveConfig::default()
        }
    }

    #[test]
    fn a_task_that_suspends_holding_the_app_is_named() {
        let clock = ManualClock::new(Instant::now());
        let mut live = live_with(mcts_games(1, 20), Rc::new(clock.clone()));
        let app = live.app.clone();
        live.sched
            .spawn("careless", TaskRole::Other, move |ctx| {
                let held = app.borrow();
                ctx.suspend(crate::tasks::Suspend::Yield);
                drop(held);
            })
            .unwrap();
        let mut outcome = Ok(true);
        for _ in 0..100 {
            outcome = live.step();
            if outcome.is_err() {
                break;
            }
        }
        let err = outcome.expect_err("the borrow held across a suspension");
        assert!(err.to_string().contains("careless"), "{err}");
    }

    #[test]
    fn a_thinking_seats_reports_wake_the_renderer_at_the_frame_rate() {
        // One game, one seat thinking for a long clock: what changes on
        // screen is its thinking bar, reported every slice. The renderer
        // must draw it at --fps, not only when the header's clock ticks.
        let config = LiveConfig {
            fps: 30,
            ..mcts_games(1, 60_000)
        };
        let mut live = live_with(config, Rc::new(SystemClock));
        let start = Instant::now();
        while start.elapsed() < Duration::from_millis(300) {
            live.sched.wake_due(Instant::now());
            live.sched.run_next();
        }
        let frames_before = live.frames.borrow().count;
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(1) {
            live.sched.wake_due(Instant::now());
            live.sched.run_next();
        }
        let frames = live.frames.borrow().count - frames_before;
        assert!(frames >= 15, "{frames} frames in a second at 30 fps");
        assert!(frames <= 31, "{frames} frames in a second at 30 fps");
    }

    /// Runs a live screen whose learner holds `table` (having learned from
    /// `games` games) until the learner task reports: (figure, games).
    fn learner_figure(
        mut config: LiveConfig,
        table: &crate::ai::rl::SharedTable,
        games: u64,
    ) -> (f64, u64) {
        let clock = ManualClock::new(Instant::now());
        table.borrow_mut().games = games;
        config.rl = Some(table.clone());
        let mut live = live_with(config, Rc::new(clock.clone()));
        let deadline = Instant::now() + Duration::from_secs(60);
        while live.app.borrow().learner_accuracy().is_none() && Instant::now() < deadline {
            live.sched.wake_due(clock.now());
            live.sched.run_next();
        }
        let figure = live.app.borrow().learner_accuracy();
        figure.expect("measured")
    }

    #[test]
    fn the_learner_task_measures_the_current_accuracy() {
        use crate::ai::accuracy::{Judge, model_accuracy};
        use crate::ai::rl::ValueTable;
        let config = mcts_games(1, 20);
        let table = Rc::new(RefCell::new(ValueTable::new(config.rules)));
        let (share, at) = learner_figure(config, &table, 5);
        assert_eq!(at, 5);
        let expected = model_accuracy(&table, &mut Judge::new(table.borrow().rules()));
        assert_eq!(Some(share as f32), expected);
    }

    #[test]
    fn above_8x8_the_learner_task_measures_the_score_against_the_yardstick() {
        use crate::ai::big::yardstick::{YARDSTICK_GAMES, against_yardstick};
        use crate::ai::rl::ValueTable;
        let mut config = mcts_games(1, 60_000);
        config.rules = crate::game::Rules::new(15, 5).unwrap();
        // Above 8x8 a new model is line patterns.
        let table = Rc::new(RefCell::new(ValueTable::new(config.rules)));
        assert!(table.borrow().patterns().is_some());
        let (share, at) = learner_figure(config, &table, 7);
        assert_eq!(at, 7);
        let seed = crate::ai::accuracy::SAMPLE_SEED;
        let expected = against_yardstick(&table, YARDSTICK_GAMES, seed).score();
        assert_eq!(share, expected);
    }

    #[test]
    fn nine_thinking_seats_get_the_same_cpu() {
        // A long clock, so every O seat is still on its first move.
        let clock = ManualClock::new(Instant::now());
        let mut live = live_with(mcts_games(9, 60_000), Rc::new(clock.clone()));
        // Past the staggered starts: every game's O seat is thinking.
        clock.advance(Duration::from_secs(2));
        // Each slice's CPU, from the thread's own clock, goes to the seat
        // that ran it: a seat's meter counts a slice's wall time, which a
        // preemption by another process would stretch for that seat alone.
        let mut spent = vec![Duration::ZERO; seat_cpu(&live).len()];
        // Until the seats have had 0.9 s of CPU between them, however
        // busy the machine (a wall-clock window starves on a loaded one).
        let deadline = Instant::now() + Duration::from_secs(20);
        while spent.iter().sum::<Duration>() < Duration::from_millis(900)
            && Instant::now() < deadline
        {
            live.sched.wake_due(clock.now());
            let before = seat_cpu(&live);
            let cpu = thread_cpu();
            live.sched.run_next();
            let cpu = thread_cpu() - cpu;
            for ((total, after), before) in spent.iter_mut().zip(seat_cpu(&live)).zip(before) {
                if after > before {
                    *total += cpu;
                }
            }
        }
        let cpu = seat_cpu(&live);
        // O seats are the even ones; X seats wait for their turn.
        let o: Vec<f64> = spent.iter().step_by(2).map(|d| d.as_secs_f64()).collect();
        let mean = o.iter().sum::<f64>() / o.len() as f64;
        assert!(mean > 0.05, "the seats hardly ran: {o:?}");
        for share in &o {
            assert!(
                (share - mean).abs() <= 0.10 * mean,
                "unequal shares {o:?} (mean {mean})"
            );
        }
        assert!(cpu.iter().skip(1).step_by(2).all(|d| d.is_zero()));
        // And the screen shows each of them thinking, with its clock used.
        let a = live.app.borrow();
        for g in a.games() {
            let t = g.thinking.as_ref().expect("a thinking seat");
            assert!(t.used > Duration::ZERO && !t.done);
            assert!(t.info.work > 0 && t.info.best.is_some());
        }
    }

    /// CPU time of the calling thread: unlike the wall clock, it does not
    /// run while the OS has the thread preempted for another process.
    fn thread_cpu() -> Duration {
        crate::tasks::clock::thread_cpu_time()
    }

    /// Pins the calling thread to one CPU.
    fn pin_to(cpu: usize) {
        // SAFETY: a zeroed cpu_set_t filled by CPU_SET, for this thread (0).
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
    }

    #[test]
    fn a_seat_sharing_its_core_with_a_busy_thread_still_gets_its_whole_clock() {
        // A busy loop on the same core takes about half of the wall time:
        // a clock that counted wall time would end the move after about
        // half of its CPU.
        let busy = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let spinning = busy.clone();
        pin_to(0);
        let competitor = std::thread::spawn(move || {
            pin_to(0);
            while spinning.load(std::sync::atomic::Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        });
        let clock = ManualClock::new(Instant::now());
        let mut live = live_with(mcts_games(1, 40), Rc::new(clock.clone()));
        clock.advance(Duration::from_secs(2));
        let (cpu_start, wall_start) = (thread_cpu(), Instant::now());
        let deadline = wall_start + Duration::from_secs(10);
        while live.app.borrow().games()[0].record.moves.is_empty() && Instant::now() < deadline {
            live.sched.wake_due(clock.now());
            live.sched.run_next();
        }
        let (cpu, wall) = (thread_cpu() - cpu_start, wall_start.elapsed());
        busy.store(false, std::sync::atomic::Ordering::Relaxed);
        let _ = competitor.join();
        pin_to_all();
        assert!(
            !live.app.borrow().games()[0].record.moves.is_empty(),
            "no move"
        );
        let charged = seat_cpu(&live)[0];
        // The seat was charged its clock, and really had it: the thread's
        // own CPU clock says so, whatever the wall clock did.
        assert!(charged >= Duration::from_millis(40), "{charged:?}");
        assert!(
            cpu >= Duration::from_millis(38),
            "the move had {cpu:?} of CPU in {wall:?} of wall time, charged {charged:?}"
        );
    }

    /// Lets the calling thread run on every CPU again.
    fn pin_to_all() {
        // SAFETY: as in `pin_to`, with every CPU the machine has.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            for cpu in 0..std::thread::available_parallelism().map_or(1, |n| n.get()) {
                libc::CPU_SET(cpu, &mut set);
            }
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
    }

    #[test]
    fn a_seat_never_runs_past_its_slice_by_more_than_a_slice() {
        use crate::tasks::seat::TIME_SLICE;
        let mut live = live_with(mcts_games(2, 60_000), Rc::new(SystemClock));
        // Each slice as the seat accounts it (its wall time, which yields
        // no earlier than the slice), and the CPU the thread really spent
        // in it (which a busy machine's preemptions do not inflate).
        let (mut accounted, mut spent) = (Vec::new(), Vec::new());
        while accounted.len() < 300 {
            let before = seat_cpu(&live);
            let cpu = thread_cpu();
            live.sched.run_next();
            let cpu = thread_cpu() - cpu;
            let after = seat_cpu(&live);
            for (a, b) in after.iter().zip(&before) {
                if a > b {
                    accounted.push(*a - *b);
                    spent.push(cpu);
                }
            }
        }
        accounted.sort();
        spent.sort();
        assert!(accounted[0] >= TIME_SLICE, "a slice shorter than the slice");
        let p95 = spent[spent.len() * 95 / 100];
        assert!(p95 <= 2 * TIME_SLICE, "95th percentile slice {p95:?}");
        assert!(*spent.last().unwrap() < Duration::from_millis(50));
    }

    #[test]
    fn the_clock_ends_a_search_and_pause_stops_every_clock() {
        let clock = ManualClock::new(Instant::now());
        let mut live = live_with(mcts_games(4, 20), Rc::new(clock.clone()));
        clock.advance(Duration::from_secs(2));
        // Until every game's first move (O's): each took about 20 ms of
        // CPU, not more.
        let deadline = Instant::now() + Duration::from_secs(10);
        let all_moved = |live: &Live| {
            live.app
                .borrow()
                .games()
                .iter()
                .all(|g| !g.record.moves.is_empty())
        };
        while !all_moved(&live) && Instant::now() < deadline {
            live.sched.wake_due(clock.now());
            live.sched.run_next();
        }
        assert!(all_moved(&live));
        let per_move: Vec<Duration> = seat_cpu(&live).into_iter().step_by(2).collect();
        for cpu in &per_move {
            assert!(
                *cpu >= Duration::from_millis(19) && *cpu <= Duration::from_millis(24),
                "{per_move:?}"
            );
        }
        // Pause: no seat runs or thinks, however long it lasts.
        press_ctrl_p(&mut live);
        assert!(live.app.borrow().paused());
        for _ in 0..5 {
            live.sched.run_round();
        }
        let moves = live.app.borrow().totals().moves;
        let cpu = seat_cpu(&live);
        let infos: Vec<_> = live
            .app
            .borrow()
            .games()
            .iter()
            .map(|g| g.thinking.clone())
            .collect();
        for _ in 0..200 {
            clock.advance(Duration::from_millis(50));
            live.sched.wake_due(clock.now());
            live.sched.run_round();
        }
        assert_eq!(live.app.borrow().totals().moves, moves);
        assert_eq!(seat_cpu(&live), cpu, "a seat's clock ran while paused");
        let after: Vec<_> = live
            .app
            .borrow()
            .games()
            .iter()
            .map(|g| g.thinking.clone())
            .collect();
        assert_eq!(infos, after, "the thinking info changed while paused");
        for task in live.sched.tasks() {
            if matches!(task.role, TaskRole::Seat { .. }) {
                assert!(
                    matches!(
                        task.state,
                        TaskState::Waiting(Event::Resume | Event::Turn(_), _)
                    ),
                    "{}: {:?}",
                    task.name,
                    task.state
                );
            }
        }
        // Resume: the same searches go on and moves are played.
        press_ctrl_p(&mut live);
        let deadline = Instant::now() + Duration::from_secs(10);
        while live.app.borrow().totals().moves == moves && Instant::now() < deadline {
            live.sched.wake_due(clock.now());
            live.sched.run_next();
        }
        assert!(
            live.app.borrow().totals().moves > moves,
            "no move after resuming"
        );
    }

    #[test]
    fn a_finished_game_holds_its_result_then_restarts_on_the_same_seats() {
        let clock = ManualClock::new(Instant::now());
        let hold = Duration::from_secs(3);
        let mut live = live_with(
            LiveConfig {
                games: 1,
                o: Some(crate::ai::BuiltIn::Random.into()),
                x: Some(crate::ai::BuiltIn::Random.into()),
                delay: Duration::ZERO,
                hold,
                ..LiveConfig::default()
            },
            Rc::new(clock.clone()),
        );
        let tasks = live.sched.tasks().len();
        let run_until = |live: &mut Live, done: &dyn Fn(&App) -> bool| {
            for _ in 0..100_000 {
                if done(&live.app.borrow()) {
                    return;
                }
                live.sched.wake_due(clock.now());
                if live.sched.run_next().is_none() {
                    // Nothing to do: time passes, without waiting for it.
                    clock.advance(Duration::from_millis(100));
                }
            }
            panic!("never happened");
        };
        run_until(&mut live, &|a| {
            matches!(a.games()[0].status, GameStatus::Over { .. })
        });
        let over_at = clock.now();
        let result = live.app.borrow().games()[0].pos.outcome();
        run_until(&mut live, &|a| a.games()[0].generation == 1);
        assert!(clock.now() - over_at >= hold);
        assert!(clock.now() - over_at <= hold + Duration::from_millis(100));
        {
            let a = live.app.borrow();
            assert_eq!(a.games()[0].previous.as_ref().map(|p| p.1), Some(result));
            assert_eq!(a.games()[0].status, GameStatus::Playing);
        }
        // The new game is played by the same coroutines: no task was added.
        run_until(&mut live, &|a| a.games()[0].pos.move_count() > 0);
        assert_eq!(live.sched.tasks().len(), tasks);
    }
}
