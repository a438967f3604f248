//! The live run's tests: its seats, learner and renderer run together
//! through the scheduler (slices and CPU shares, clocks, pause, a game's
//! end and restart, a task that suspends holding the state).

use super::*;
use crate::app::GameStatus;
use crate::engines::RunLimit;
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
        o: Some(kxo_engine::BuiltIn::Mcts.into()),
        x: Some(kxo_engine::BuiltIn::Mcts.into()),
        delay: Duration::ZERO,
        limit: RunLimit::Millis(think_ms),
        seed: 5,
        ..LiveConfig::default()
    }
}

#[test]
fn a_task_that_suspends_holding_the_app_is_named() {
    let clock = ManualClock::new(Instant::now());
    let mut live = live_with(mcts_games(1, 20), Rc::new(clock.clone()));
    let door = live.door.clone();
    live.sched
        .spawn("careless", TaskRole::Other, move |ctx| {
            let held = door.state();
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
    table: &kxo_engine::learner::SharedTable,
    games: u64,
) -> (f64, u64) {
    let clock = ManualClock::new(Instant::now());
    table.borrow_mut().games = games;
    config.rl = Some(table.clone());
    let mut live = live_with(config, Rc::new(clock.clone()));
    let deadline = Instant::now() + Duration::from_secs(60);
    while live.door.state().learner_accuracy().is_none() && Instant::now() < deadline {
        live.sched.wake_due(clock.now());
        live.sched.run_next();
    }
    let figure = live.door.state().learner_accuracy();
    figure.expect("measured")
}

#[test]
fn the_learner_task_measures_the_current_accuracy() {
    use kxo_engine::learner::ValueTable;
    use kxo_engine::learner::{Judge, model_accuracy};
    let config = mcts_games(1, 20);
    let table = Rc::new(RefCell::new(ValueTable::new(config.rules)));
    let (share, at) = learner_figure(config, &table, 5);
    assert_eq!(at, 5);
    let expected = model_accuracy(&table, &mut Judge::new(table.borrow().rules()));
    assert_eq!(Some(share as f32), expected);
}

#[test]
fn above_8x8_the_learner_task_measures_the_score_against_the_yardstick() {
    use kxo_engine::learner::ValueTable;
    use kxo_engine::learner::{YARDSTICK_GAMES, against_yardstick};
    let mut config = mcts_games(1, 60_000);
    config.rules = kxo_engine::Rules::new(15, 5).unwrap();
    // Above 8x8 a new model is line patterns.
    let table = Rc::new(RefCell::new(ValueTable::new(config.rules)));
    assert!(table.borrow().patterns().is_some());
    let (share, at) = learner_figure(config, &table, 7);
    assert_eq!(at, 7);
    let seed = kxo_engine::learner::SAMPLE_SEED;
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
    let mut slices: Vec<Vec<Duration>> = vec![Vec::new(); seat_cpu(&live).len()];
    let mut total = Duration::ZERO;
    // Until the seats have had 0.9 s of CPU between them, however
    // busy the machine (a wall-clock window starves on a loaded one).
    let deadline = Instant::now() + Duration::from_secs(20);
    while total < Duration::from_millis(900) && Instant::now() < deadline {
        live.sched.wake_due(clock.now());
        let before = seat_cpu(&live);
        let cpu = thread_cpu();
        live.sched.run_next();
        let cpu = thread_cpu() - cpu;
        for ((ran, after), before) in slices.iter_mut().zip(seat_cpu(&live)).zip(before) {
            if after > before {
                ran.push(cpu);
                total += cpu;
            }
        }
    }
    let cpu = seat_cpu(&live);
    // O seats are the even ones; X seats wait for their turn.
    let o: Vec<&Vec<Duration>> = slices.iter().step_by(2).collect();
    // Round robin: every thinking seat has had as many slices as the
    // others, give or take the round the window ended in.
    let counts: Vec<usize> = o.iter().map(|s| s.len()).collect();
    let (fewest, most) = (counts.iter().min(), counts.iter().max());
    assert!(
        most.zip(fewest).is_some_and(|(m, f)| m - f <= 1),
        "unequal turns {counts:?}"
    );
    // And as much CPU. Each seat's longest slice is left out: a stall
    // of the machine (a hypervisor's, a page fault's reclaim) inside one
    // slice is charged to whichever thread ran, up to 14 ms of a 100 ms
    // share on a CI run, and no scheduler can prevent it; an engine that
    // overran its slices would overrun them all (and the next test
    // bounds every slice).
    let shares: Vec<f64> = o
        .iter()
        .map(|ran| {
            let longest = ran.iter().max().copied().unwrap_or_default();
            (ran.iter().sum::<Duration>() - longest).as_secs_f64()
        })
        .collect();
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    assert!(mean > 0.05, "the seats hardly ran: {shares:?}");
    for share in &shares {
        assert!(
            (share - mean).abs() <= 0.10 * mean,
            "unequal shares {shares:?} (mean {mean})"
        );
    }
    assert!(cpu.iter().skip(1).step_by(2).all(|d| d.is_zero()));
    // And the screen shows each of them thinking, with its clock used.
    let a = live.door.state();
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
    while live.door.state().games()[0].record.moves.is_empty() && Instant::now() < deadline {
        live.sched.wake_due(clock.now());
        live.sched.run_next();
    }
    let (cpu, wall) = (thread_cpu() - cpu_start, wall_start.elapsed());
    busy.store(false, std::sync::atomic::Ordering::Relaxed);
    let _ = competitor.join();
    pin_to_all();
    assert!(
        !live.door.state().games()[0].record.moves.is_empty(),
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
        live.door
            .state()
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
    assert!(live.door.state().paused());
    for _ in 0..5 {
        live.sched.run_round();
    }
    let moves = live.door.state().totals().moves;
    let cpu = seat_cpu(&live);
    let infos: Vec<_> = live
        .door
        .state()
        .games()
        .iter()
        .map(|g| g.thinking.clone())
        .collect();
    for _ in 0..200 {
        clock.advance(Duration::from_millis(50));
        live.sched.wake_due(clock.now());
        live.sched.run_round();
    }
    assert_eq!(live.door.state().totals().moves, moves);
    assert_eq!(seat_cpu(&live), cpu, "a seat's clock ran while paused");
    let after: Vec<_> = live
        .door
        .state()
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
    while live.door.state().totals().moves == moves && Instant::now() < deadline {
        live.sched.wake_due(clock.now());
        live.sched.run_next();
    }
    assert!(
        live.door.state().totals().moves > moves,
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
            o: Some(kxo_engine::BuiltIn::Random.into()),
            x: Some(kxo_engine::BuiltIn::Random.into()),
            delay: Duration::ZERO,
            hold,
            ..LiveConfig::default()
        },
        Rc::new(clock.clone()),
    );
    let tasks = live.sched.tasks().len();
    let run_until = |live: &mut Live, done: &dyn Fn(&App) -> bool| {
        for _ in 0..100_000 {
            if done(&live.door.state()) {
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
    let result = live.door.state().games()[0].pos.outcome();
    run_until(&mut live, &|a| a.games()[0].generation == 1);
    assert!(clock.now() - over_at >= hold);
    assert!(clock.now() - over_at <= hold + Duration::from_millis(100));
    {
        let a = live.door.state();
        assert_eq!(a.games()[0].previous.as_ref().map(|p| p.1), Some(result));
        assert_eq!(a.games()[0].status, GameStatus::Playing);
    }
    // The new game is played by the same coroutines: no task was added.
    run_until(&mut live, &|a| a.games()[0].pos.move_count() > 0);
    assert_eq!(live.sched.tasks().len(), tasks);
}

/// A terminal that goes away after its first frames: every write fails
/// with EIO from then on, as a closed window's pty does, while reading it
/// has not failed yet (the race a closed window runs).
struct Vanishing {
    inner: TestBackend,
    frames: usize,
    gone: Rc<std::cell::Cell<bool>>,
}

impl Vanishing {
    fn io<T>(&self, r: Result<T, std::convert::Infallible>) -> io::Result<T> {
        match self.gone.get() {
            true => Err(io::Error::from_raw_os_error(libc::EIO)),
            false => r.map_err(|e| match e {}),
        }
    }
}

impl ratatui::backend::Backend for Vanishing {
    type Error = io::Error;
    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a ratatui::buffer::Cell)>,
    {
        self.frames += 1;
        if self.frames > 2 {
            self.gone.set(true);
        }
        let r = self.inner.draw(content);
        self.io(r)
    }
    fn hide_cursor(&mut self) -> io::Result<()> {
        let r = self.inner.hide_cursor();
        self.io(r)
    }
    fn show_cursor(&mut self) -> io::Result<()> {
        let r = self.inner.show_cursor();
        self.io(r)
    }
    fn get_cursor_position(&mut self) -> io::Result<ratatui::layout::Position> {
        let r = self.inner.get_cursor_position();
        self.io(r)
    }
    fn set_cursor_position<P: Into<ratatui::layout::Position>>(&mut self, p: P) -> io::Result<()> {
        let r = self.inner.set_cursor_position(p);
        self.io(r)
    }
    fn clear(&mut self) -> io::Result<()> {
        let r = self.inner.clear();
        self.io(r)
    }
    fn clear_region(&mut self, t: ratatui::backend::ClearType) -> io::Result<()> {
        let r = self.inner.clear_region(t);
        self.io(r)
    }
    fn size(&self) -> io::Result<ratatui::layout::Size> {
        let r = self.inner.size();
        self.io(r)
    }
    fn window_size(&mut self) -> io::Result<ratatui::backend::WindowSize> {
        let r = self.inner.window_size();
        self.io(r)
    }
    fn flush(&mut self) -> io::Result<()> {
        let r = self.inner.flush();
        self.io(r)
    }
}

/// Input from that terminal: no key, but hung up once it has gone.
struct GoneInput(Rc<std::cell::Cell<bool>>);

impl InputSource for GoneInput {
    fn next_event(&mut self, _timeout: Duration) -> io::Result<Option<TermEvent>> {
        Ok(None)
    }
    fn hung_up(&self) -> bool {
        self.0.get()
    }
}

/// A live run on a terminal that vanishes after its first frames; its
/// input says it hung up only when `hangs_up`.
fn run_on_a_vanishing_terminal(hangs_up: bool) -> anyhow::Result<Summary> {
    let gone = Rc::new(std::cell::Cell::new(false));
    let terminal = Terminal::new(Vanishing {
        inner: TestBackend::new(80, 24),
        frames: 0,
        gone: gone.clone(),
    })?;
    let seen = match hangs_up {
        true => gone,
        false => Rc::new(std::cell::Cell::new(false)),
    };
    let stop = Arc::new(AtomicBool::new(false));
    run(
        mcts_games(1, 20),
        terminal,
        &mut GoneInput(seen),
        stop,
        None,
    )
}

#[test]
fn a_frame_that_fails_on_a_terminal_gone_is_a_lost_terminal_not_an_error() {
    // The screen draws, the window closes, the next frame fails with EIO
    // before any read does: the run ends as a lost terminal (129, the
    // model saved), not "cannot draw" and 1.
    let summary = run_on_a_vanishing_terminal(true).expect("a lost terminal is no error");
    assert!(summary.terminal_lost);
    // Without the hang-up the same failure is an error, as before.
    let err =
        run_on_a_vanishing_terminal(false).expect_err("a frame that fails on a live terminal");
    assert!(err.to_string().contains("cannot draw"), "{err}");
}
