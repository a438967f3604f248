//! The live screen: spawns the tasks and runs the event loop.

use std::cell::RefCell;
use std::io;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::Event as TermEvent;
use ratatui::Terminal;
use ratatui::backend::Backend;

use super::load::LoadTracker;
use super::scheduler::{Ctx, Event, Scheduler, Signals, Suspend, TaskRole, wait_for};
use super::seat::run_seat;
use crate::app::{App, LiveConfig};
use crate::game::Player;

/// How often the human mode's spinner turns.
const SPINNER_STEP: Duration = Duration::from_millis(100);

/// The longest the loop blocks on input, so that signals are noticed.
const MAX_BLOCK: Duration = Duration::from_millis(250);

/// Where terminal events come from: the real terminal, or a script in tests
/// and benchmarks.
pub trait InputSource {
    /// Waits up to `timeout` for one event.
    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<TermEvent>>;
}

/// Terminal input through crossterm.
pub struct CrosstermInput;

impl InputSource for CrosstermInput {
    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<TermEvent>> {
        if crossterm::event::poll(timeout)? {
            // crossterm's read() spins forever on end-of-file, which is what
            // a terminal that went away (a closed window) gives: check first.
            if crate::terminal::stdin_hung_up() {
                return Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the terminal went away",
                ));
            }
            Ok(Some(crossterm::event::read()?))
        } else {
            Ok(None)
        }
    }
}

/// How the run ended.
#[derive(Debug)]
pub struct Summary {
    pub totals: crate::app::Totals,
    pub frames: u64,
    pub elapsed: Duration,
}

/// Hooks for tests and benchmarks: called after every frame is drawn.
pub type FrameHook = Box<dyn FnMut(&App)>;

/// Builds the scheduler with every task of the live screen.
pub fn spawn_tasks<B: Backend + 'static>(
    sched: &mut Scheduler,
    app: &Rc<RefCell<App>>,
    terminal: Rc<RefCell<Terminal<B>>>,
    on_frame: Option<FrameHook>,
) -> io::Result<()> {
    let games = app.borrow().games.len();
    for game in 0..games {
        for me in [Player::O, Player::X] {
            let (app, signals) = (app.clone(), sched.signals());
            sched.spawn(
                format!("game{}-{}", game + 1, me),
                TaskRole::Seat {
                    game,
                    side: me.index(),
                },
                move |ctx| run_seat(ctx, app, signals, game, me),
            )?;
        }
    }
    let (kb_app, kb_signals) = (app.clone(), sched.signals());
    sched.spawn("keyboard", TaskRole::Keyboard, move |ctx| {
        run_keyboard(ctx, kb_app, kb_signals)
    })?;
    let render_app = app.clone();
    sched.spawn("renderer", TaskRole::Renderer, move |ctx| {
        run_renderer(ctx, render_app, terminal, on_frame)
    })?;
    Ok(())
}

fn run_keyboard(ctx: &Ctx, app: Rc<RefCell<App>>, signals: Signals) {
    loop {
        wait_for(ctx, Event::Input);
        loop {
            let Some(event) = app.borrow_mut().input.pop_front() else {
                break;
            };
            let posts = app.borrow_mut().handle_event(&event);
            posts.into_iter().for_each(|e| signals.post(e));
        }
    }
}

fn run_renderer<B: Backend>(
    ctx: &Ctx,
    app: Rc<RefCell<App>>,
    terminal: Rc<RefCell<Terminal<B>>>,
    mut on_frame: Option<FrameHook>,
) {
    let mut last_frame: Option<Instant> = None;
    let mut last_clock = String::new();
    loop {
        let now = Instant::now();
        let (gap, started) = {
            let a = app.borrow();
            (
                Duration::from_secs_f64(1.0 / a.config.fps.max(1) as f64),
                a.started,
            )
        };
        let clock = clock_text(started, now);
        let thinking = app.borrow().computer_thinking();
        if thinking {
            // Human mode: the spinner turns while the computer thinks.
            let mut a = app.borrow_mut();
            let frame = (now.saturating_duration_since(started).as_millis()
                / SPINNER_STEP.as_millis()) as usize;
            if let Some(h) = a.human.as_mut()
                && h.spinner != frame
            {
                h.spinner = frame;
                a.dirty = true;
            }
        }
        if clock != last_clock {
            last_clock.clone_from(&clock);
            let mut a = app.borrow_mut();
            a.clock = clock;
            a.dirty = true;
        }
        let (dirty, urgent) = {
            let a = app.borrow();
            (a.dirty, a.urgent)
        };
        let frame_due = last_frame.is_none_or(|t| now >= t + gap);
        if dirty && (urgent || frame_due) {
            {
                let mut a = app.borrow_mut();
                a.dirty = false;
                a.urgent = false;
                a.frames += 1;
            }
            let drawn = {
                let mut term = terminal.borrow_mut();
                let size = term.size();
                if let Ok(size) = size {
                    app.borrow_mut().screen =
                        ratatui::layout::Rect::new(0, 0, size.width, size.height);
                }
                let a = app.borrow();
                term.draw(|f| crate::ui::draw(f, &a)).map(|_| ())
            };
            if let Err(e) = drawn {
                // Nothing can be shown any more: stop cleanly.
                let mut a = app.borrow_mut();
                a.quit = true;
                a.error = Some(format!("cannot draw: {e}"));
                drop(a);
                ctx.suspend(Suspend::Yield);
                continue;
            }
            last_frame = Some(now);
            if let Some(hook) = on_frame.as_mut() {
                hook(&app.borrow());
            }
        }
        // Sleep until the next clock second, or until the frame gap is over
        // if something is waiting to be drawn; a key or a move wakes us early.
        let mut next_wake = next_clock_tick(started, Instant::now());
        if thinking {
            next_wake = next_wake.min(Instant::now() + SPINNER_STEP);
        }
        let deadline = match (app.borrow().dirty, last_frame) {
            (true, Some(t)) => (t + gap).min(next_wake),
            _ => next_wake,
        };
        ctx.suspend(Suspend::Wait(Event::Changed, Some(deadline)));
    }
}

/// The header's clock: local time and time since start.
fn clock_text(started: Instant, now: Instant) -> String {
    let up = now.saturating_duration_since(started).as_secs();
    format!(
        "{}  up {:02}:{:02}:{:02}",
        chrono::Local::now().format("%H:%M:%S"),
        up / 3600,
        up / 60 % 60,
        up % 60
    )
}

fn next_clock_tick(started: Instant, now: Instant) -> Instant {
    let since = now.saturating_duration_since(started);
    started + Duration::from_secs(since.as_secs() + 1)
}

/// Runs the live screen until the user quits or `stop` is raised (a
/// signal). The caller owns the terminal's modes; this only draws.
pub fn run<B: Backend + 'static>(
    config: LiveConfig,
    terminal: Terminal<B>,
    input: &mut dyn InputSource,
    stop: Arc<AtomicBool>,
    on_frame: Option<FrameHook>,
) -> anyhow::Result<Summary> {
    let now = Instant::now();
    let app = Rc::new(RefCell::new(App::new(config, now)));
    let terminal = Rc::new(RefCell::new(terminal));
    let mut sched = Scheduler::new();
    spawn_tasks(&mut sched, &app, terminal, on_frame)?;
    let mut load = LoadTracker::new(now);
    loop {
        let now = Instant::now();
        sched.wake_due(now);
        if load.maybe_sample(now, &sched) {
            let mut a = app.borrow_mut();
            a.load = load.snapshot.clone();
            if a.tab == crate::app::Tab::Load {
                a.dirty = true;
                sched.deliver(Event::Changed);
            }
        }
        while let Some(failure) = sched.take_failure() {
            if let TaskRole::Seat { game, .. } = failure.role {
                for e in app.borrow_mut().fail_game(game, &failure.message) {
                    sched.deliver(e);
                }
            } else {
                anyhow::bail!("the {:?} task failed: {}", failure.role, failure.message);
            }
        }
        if stop.load(Ordering::Relaxed) {
            app.borrow_mut().quit = true;
        }
        {
            let a = app.borrow();
            if a.quit {
                if let Some(e) = &a.error {
                    anyhow::bail!("{e}");
                }
                break;
            }
        }
        // Read input: without blocking while tasks are ready, otherwise
        // blocking until the next wake-up (no busy loop).
        let timeout = if sched.ready_count() > 0 {
            Duration::ZERO
        } else {
            let next = sched
                .next_deadline()
                .map_or(load.next_sample(), |d| d.min(load.next_sample()));
            next.saturating_duration_since(Instant::now())
                .min(MAX_BLOCK)
        };
        let mut first = true;
        loop {
            let event = match input.next_event(if first { timeout } else { Duration::ZERO }) {
                Ok(Some(event)) => event,
                Ok(None) => break,
                // The terminal is gone: nobody is left to watch, so stop.
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    app.borrow_mut().quit = true;
                    break;
                }
                Err(e) => return Err(e.into()),
            };
            first = false;
            app.borrow_mut().input.push_back(event);
            sched.deliver(Event::Input);
            if app.borrow().input.len() >= 64 {
                break;
            }
        }
        sched.run_next();
    }
    let a = app.borrow();
    Ok(Summary {
        totals: a.totals,
        frames: a.frames,
        elapsed: a.started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{EngineKind, ThinkLimit};
    use crate::tasks::scheduler::TaskState;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use ratatui::backend::TestBackend;

    fn setup() -> (Scheduler, Rc<RefCell<App>>) {
        setup_with(LiveConfig {
            games: 4,
            o: Some(EngineKind::Mcts),
            x: Some(EngineKind::Mcts),
            delay: Duration::ZERO,
            // Long searches, so seats are caught mid-thought.
            limit: ThinkLimit::Default {
                mcts_iterations: 300_000,
            },
            seed: 5,
            ..LiveConfig::default()
        })
    }

    fn setup_with(config: LiveConfig) -> (Scheduler, Rc<RefCell<App>>) {
        let app = Rc::new(RefCell::new(App::new(config, Instant::now())));
        let terminal = Rc::new(RefCell::new(
            Terminal::new(TestBackend::new(80, 24)).unwrap(),
        ));
        let mut sched = Scheduler::new();
        spawn_tasks(&mut sched, &app, terminal, None).unwrap();
        (sched, app)
    }

    fn press_ctrl_p(sched: &mut Scheduler, app: &Rc<RefCell<App>>) {
        let key = TermEvent::Key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL));
        app.borrow_mut().input.push_back(key);
        sched.deliver(Event::Input);
        sched.run_next();
    }

    fn seat_states(sched: &Scheduler) -> Vec<TaskState> {
        sched
            .tasks()
            .iter()
            .filter(|t| matches!(t.role, TaskRole::Seat { .. }))
            .map(|t| t.state.clone())
            .collect()
    }

    #[test]
    fn pause_stops_every_seat_mid_thought_and_resume_goes_on() {
        let (mut sched, app) = setup();
        // Let every seat start; the O seats are now deep in a search.
        for _ in 0..50 {
            sched.run_round();
        }
        let thinking_before: Vec<u64> = sched.tasks().iter().map(|t| t.resumes).collect();
        press_ctrl_p(&mut sched, &app);
        assert!(app.borrow().paused);
        // Each thinking seat runs at most to the end of its slice, then waits.
        for _ in 0..5 {
            sched.run_round();
        }
        let moves = app.borrow().totals.moves;
        let resumes: Vec<u64> = sched.tasks().iter().map(|t| t.resumes).collect();
        for _ in 0..200 {
            sched.run_round();
            sched.wake_due(Instant::now());
        }
        assert_eq!(
            app.borrow().totals.moves,
            moves,
            "a move was played while paused"
        );
        for (i, task) in sched.tasks().iter().enumerate() {
            if matches!(task.role, TaskRole::Seat { .. }) {
                assert_eq!(task.resumes, resumes[i], "{} ran while paused", task.name);
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
        assert!(seat_states(&sched).contains(&TaskState::Waiting(Event::Resume, None)));
        assert!(resumes.iter().zip(&thinking_before).any(|(a, b)| a > b));
        // Resume: the same searches go on and moves are played.
        press_ctrl_p(&mut sched, &app);
        assert!(!app.borrow().paused);
        let deadline = Instant::now() + Duration::from_secs(20);
        while app.borrow().totals.moves == moves && Instant::now() < deadline {
            sched.run_round();
        }
        assert!(app.borrow().totals.moves > moves, "no move after resuming");
    }

    #[test]
    fn a_finished_game_shows_its_result_then_restarts_on_the_same_seats() {
        use crate::app::{GameStatus, RESULT_PAUSE};
        let (mut sched, app) = setup_with(LiveConfig {
            games: 1,
            o: Some(EngineKind::Random),
            x: Some(EngineKind::Random),
            delay: Duration::ZERO,
            ..LiveConfig::default()
        });
        let tasks = sched.tasks().len();
        let run_until = |sched: &mut Scheduler, done: &dyn Fn(&App) -> bool| {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !done(&app.borrow()) {
                assert!(Instant::now() < deadline, "timed out");
                sched.wake_due(Instant::now());
                if sched.run_next().is_none() {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
        };
        run_until(&mut sched, &|a| {
            matches!(a.games[0].status, GameStatus::Over { .. })
        });
        let over_at = Instant::now();
        let result = app.borrow().games[0].pos.outcome();
        run_until(&mut sched, &|a| a.games[0].generation == 1);
        assert!(over_at.elapsed() >= RESULT_PAUSE - Duration::from_millis(50));
        let a = app.borrow();
        assert_eq!(a.games[0].previous.map(|p| p.1), Some(result));
        assert_eq!(a.games[0].status, GameStatus::Playing);
        drop(a);
        // The new game is played by the same coroutines: no task was added.
        run_until(&mut sched, &|a| a.games[0].pos.move_count() > 0);
        assert_eq!(sched.tasks().len(), tasks);
    }
}
