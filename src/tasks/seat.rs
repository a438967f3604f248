//! A player seat: waits for its turn, thinks in time slices, plays.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use super::scheduler::{Ctx, Event, Signals, Suspend, sleep_until, wait_for};
use crate::ai::{Budget, Engine, EngineKind, make_engine_with};
use crate::app::{App, GameStatus};
use crate::game::{Player, Position};

/// How long a seat thinks before it gives the others a turn.
pub const TIME_SLICE: Duration = Duration::from_millis(1);

/// The seat's [`Budget`]: suspends the coroutine when its slice is used,
/// and holds it while the program is paused.
pub struct SeatBudget<'a> {
    ctx: &'a Ctx,
    app: &'a RefCell<App>,
    slice_start: Instant,
    thought: Duration,
}

impl<'a> SeatBudget<'a> {
    pub fn new(ctx: &'a Ctx, app: &'a RefCell<App>) -> SeatBudget<'a> {
        SeatBudget {
            ctx,
            app,
            slice_start: Instant::now(),
            thought: Duration::ZERO,
        }
    }
}

impl Budget for SeatBudget<'_> {
    fn tick(&mut self) -> bool {
        let ran = self.slice_start.elapsed();
        if ran < TIME_SLICE {
            return true;
        }
        self.thought += ran;
        self.ctx.suspend(Suspend::Yield);
        wait_while_paused(self.ctx, self.app);
        self.slice_start = Instant::now();
        !self.app.borrow().quit
    }

    fn elapsed(&self) -> Duration {
        self.thought + self.slice_start.elapsed()
    }
}

/// Suspends until the pause ends (no borrow is held while suspended).
pub fn wait_while_paused(ctx: &Ctx, app: &RefCell<App>) {
    while app.borrow().paused {
        wait_for(ctx, Event::Resume);
    }
}

/// What a seat should do next.
enum Job {
    /// The person's turn: play their move once they have made it.
    Person {
        pending: Option<crate::game::Cell>,
        generation: u64,
    },
    Think {
        pos: Position,
        generation: u64,
        kind: EngineKind,
    },
    Restart {
        at: Instant,
    },
    Wait,
}

fn next_job(app: &App, game: usize, me: Player) -> Job {
    let g = &app.games[game];
    if let Some(h) = &app.human
        && h.side == me
    {
        return match g.status {
            GameStatus::Playing if g.pos.to_move() == me => Job::Person {
                pending: h.pending,
                generation: g.generation,
            },
            _ => Job::Wait,
        };
    }
    match g.status {
        GameStatus::Playing if g.pos.to_move() == me => Job::Think {
            pos: g.pos,
            generation: g.generation,
            kind: g.engines[me.index()],
        },
        // O's seat restarts a finished game once its result has been shown.
        GameStatus::Over {
            restart_at: Some(at),
        } if me == Player::O => Job::Restart { at },
        _ => Job::Wait,
    }
}

/// The body of the seat task for `me` in game `game`.
pub fn run_seat(ctx: &Ctx, app: Rc<RefCell<App>>, signals: Signals, game: usize, me: Player) {
    let mut engine: Option<(u64, EngineKind, Box<dyn Engine>)> = None;
    let mut reported = None;
    loop {
        wait_while_paused(ctx, &app);
        // Tell the engine how its game ended (the learning player learns).
        if let Some((generation, _, e)) = engine.as_mut()
            && reported != Some(*generation)
        {
            let finished = {
                let a = app.borrow();
                let g = &a.games[game];
                (g.generation == *generation && matches!(g.status, GameStatus::Over { .. })).then(
                    || {
                        let mut record = g.record.clone();
                        record.id = Some((game as u64) << 32 | *generation);
                        record
                    },
                )
            };
            if let Some(record) = finished {
                e.game_over(&record, me);
                reported = Some(*generation);
            }
        }
        let job = next_job(&app.borrow(), game, me);
        match job {
            Job::Wait | Job::Person { pending: None, .. } => wait_for(ctx, Event::Turn(game)),
            Job::Person {
                pending: Some(cell),
                generation,
            } => {
                let posts = {
                    let mut a = app.borrow_mut();
                    if let Some(h) = a.human.as_mut() {
                        h.pending = None;
                    }
                    a.apply_move(game, generation, cell, Instant::now())
                };
                posts.into_iter().for_each(|e| signals.post(e));
            }
            Job::Restart { at } => {
                sleep_until(ctx, at);
                wait_while_paused(ctx, &app);
                let still_over = matches!(app.borrow().games[game].status, GameStatus::Over { .. });
                if still_over {
                    let posts = app.borrow_mut().restart_game(game);
                    posts.into_iter().for_each(|e| signals.post(e));
                }
            }
            Job::Think {
                pos,
                generation,
                kind,
            } => {
                let start = Instant::now();
                if me == Player::O && app.borrow().config.fault_game == Some(game) {
                    panic!("injected fault in game {} (KXO_FAULT_GAME)", game + 1);
                }
                let fresh = !matches!(&engine, Some((g, k, _)) if *g == generation && *k == kind);
                if fresh {
                    let (rules, limit, seed, table) = {
                        let a = app.borrow();
                        let seed = a.engine_seed(game, me.index(), generation);
                        (a.config.rules, a.config.limit, seed, a.config.rl.clone())
                    };
                    let made = make_engine_with(kind, rules, limit, seed, table.as_ref());
                    engine = Some((generation, kind, made));
                }
                let Some((_, _, e)) = engine.as_mut() else {
                    continue;
                };
                let cell = e.choose(&pos, &mut SeatBudget::new(ctx, &app));
                // Space the moves out so people can follow them.
                let delay = app.borrow().config.delay;
                sleep_until(ctx, start + delay);
                wait_while_paused(ctx, &app);
                let posts = app
                    .borrow_mut()
                    .apply_move(game, generation, cell, Instant::now());
                posts.into_iter().for_each(|e| signals.post(e));
                // Let the others run before this seat looks again.
                ctx.suspend(Suspend::Yield);
            }
        }
    }
}
