//! A player seat: waits for its turn, thinks in time slices on its own CPU
//! clock, reports what it is considering, and plays.

use std::time::{Duration, Instant};

use super::clock::{Due, SharedClock, SliceClock};
use super::door::Door;
use super::scheduler::{Ctx, Event, Suspend, sleep_until, wait_for};
use crate::app::{App, GameStatus, Message, Thinking};
use crate::engines::{Choice, EngineSpec, SeatEngine, SpecEngine};
use kxo_engine::{AnyPosition, Cell, Player};
use kxo_engine::{Budget, EngineKind, Limit, SearchInfo};

/// How long a seat thinks before it gives the others a turn.
#[cfg(test)]
pub(super) const TIME_SLICE: Duration = super::clock::SLICE;

/// Who is thinking, for reports.
#[derive(Clone, Copy, Debug)]
pub(super) struct SeatId {
    pub game: usize,
    pub generation: u64,
    pub side: Player,
    pub kind: EngineKind,
}

/// The seat's [`Budget`]: suspends the coroutine when its slice is used,
/// holds it while the program is paused, and ends the search when the
/// move's CPU clock runs out. Only time spent running counts: a seat that
/// waits behind eight others gets the same computation as one alone.
pub(crate) struct SeatBudget<'a> {
    ctx: &'a Ctx<'a>,
    /// Where its reports go.
    door: &'a Door,
    seat: SeatId,
    /// The move's CPU, slice by slice, against its limit's time (none:
    /// the engine counts its work, or searches to its end).
    cpu: SliceClock,
    limit: Limit,
    info: SearchInfo,
    /// Work and CPU already added to the engine's totals.
    accounted_work: u64,
    accounted_cpu: Duration,
}

impl<'a> SeatBudget<'a> {
    pub(crate) fn new(
        ctx: &'a Ctx<'a>,
        door: &'a Door,
        seat: SeatId,
        limit: Limit,
    ) -> SeatBudget<'a> {
        SeatBudget {
            ctx,
            door,
            seat,
            cpu: SliceClock::new(limit),
            limit,
            info: SearchInfo::default(),
            accounted_work: 0,
            accounted_cpu: Duration::ZERO,
        }
    }

    /// Closes the current slice: the CPU time it took goes to the move's
    /// clock and to the task's CPU meter.
    fn end_slice(&mut self) {
        let ran = self.cpu.close();
        self.ctx.cpu.add(ran);
        self.cpu.restart();
    }

    /// Shows the search on screen and adds its work to the engine's totals.
    fn publish(&mut self, done: bool) {
        self.door.send(Message::Work {
            kind: self.seat.kind,
            cpu: self.cpu.thought() - self.accounted_cpu,
            work: self.info.work - self.accounted_work,
            moved: false,
        });
        self.accounted_cpu = self.cpu.thought();
        self.accounted_work = self.info.work;
        self.door.send(Message::Thinking {
            game: self.seat.game,
            generation: self.seat.generation,
            thinking: Thinking {
                side: self.seat.side,
                engine: self.seat.kind,
                used: self.cpu.thought(),
                clock: self.cpu.clock(),
                info: self.info,
                done,
            },
        });
    }

    /// Called when the engine has answered.
    pub(crate) fn finish(&mut self) {
        self.end_slice();
        self.publish(true);
    }
}

impl Budget for SeatBudget<'_> {
    fn tick(&mut self) -> bool {
        match self.cpu.due() {
            Due::Run => true,
            Due::Stop => false,
            Due::Yield => {
                self.end_slice();
                self.publish(false);
                self.ctx.suspend(Suspend::Yield);
                wait_while_paused(self.ctx, self.door);
                // The clock starts again only now: waiting is not thinking.
                self.cpu.restart();
                !self.door.state().quit()
            }
        }
    }

    /// CPU time on this move.
    fn elapsed(&self) -> Duration {
        self.cpu.elapsed()
    }

    fn report(&mut self, info: &SearchInfo) {
        self.info.work = info.work;
        self.info.proved = info.proved;
        if info.threat.is_some() {
            self.info.threat = info.threat;
        }
        if info.depth.is_some() {
            self.info.depth = info.depth;
        }
        if info.best.is_some() {
            self.info.best = info.best;
        }
        if info.estimate.is_some() {
            self.info.estimate = info.estimate;
        }
    }

    /// The move's limit: its time is CPU time on this clock.
    fn limit(&self) -> Limit {
        self.limit
    }
}

impl crate::protocol::outside::PipeBudget for SeatBudget<'_> {
    /// An outside brain thinks in its own process: the seat sleeps until
    /// the scheduler's poll finds its pipe readable (or the deadline), and
    /// every other task runs meanwhile.
    fn wait_readable(&mut self, fd: std::os::fd::RawFd, deadline: Instant) -> bool {
        self.end_slice();
        self.publish(false);
        self.ctx
            .suspend(Suspend::Wait(Event::Readable(fd), Some(deadline)));
        self.cpu.restart();
        let app = self.door.state();
        !app.quit()
            && app
                .games()
                .get(self.seat.game)
                .is_some_and(|g| g.generation == self.seat.generation)
    }
}

/// Suspends until the pause ends (no borrow is held while suspended).
pub(crate) fn wait_while_paused(ctx: &Ctx, door: &Door) {
    while door.state().paused() {
        wait_for(ctx, Event::Resume);
    }
}

/// What a seat should do next.
enum Job {
    /// The person's turn: play their move once they have made it.
    Person {
        pending: Option<Cell>,
        generation: u64,
    },
    /// Not yet: the game starts at this instant.
    Until(Instant),
    Think {
        pos: AnyPosition,
        generation: u64,
        kind: EngineKind,
    },
    Restart {
        at: Instant,
    },
    Wait,
}

fn next_job(app: &App, game: usize, me: Player, now: Instant) -> Job {
    let g = &app.games()[game];
    if let Some(h) = &app.human()
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
        GameStatus::Playing if g.pos.to_move() == me && now < g.not_before => {
            Job::Until(g.not_before)
        }
        GameStatus::Playing if g.pos.to_move() == me => Job::Think {
            pos: g.pos.clone(),
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
/// The record of game `game` when its round `generation` is over, with
/// the id the learner uses to learn a game once.
fn finished_record(app: &App, game: usize, generation: u64) -> Option<kxo_engine::GameRecord> {
    let g = &app.games()[game];
    (g.generation == generation && matches!(g.status, GameStatus::Over { .. })).then(|| {
        let mut record = g.record.clone();
        record.id = Some((game as u64) << 32 | generation);
        record
    })
}

/// A fresh engine for seat `me` of game `game` in its round `generation`:
/// its seed from the run's, an outside brain with the seat's clock; in a
/// tournament, the engine its game's participant names, seeded as `arena`
/// seeds that game.
fn seat_engine(
    app: &App,
    game: usize,
    me: Player,
    generation: u64,
    kind: EngineKind,
) -> Result<SeatEngine, String> {
    let config = &app.config();
    let (spec, seed) = match (&config.tournament, app.games()[game].slot) {
        (Some(plan), Some(slot)) => {
            let spec = &plan.specs[if me == Player::O {
                slot.first
            } else {
                slot.second
            }];
            let seed =
                crate::tournament::seed_for(plan.settings.seed, slot.game, me.index() as u64);
            (spec.clone(), seed)
        }
        _ => {
            // A seat is an outside brain only where the command line fixed
            // its side to one.
            let engine = match (kind.built_in(), config.seat(me)) {
                (Some(built_in), _) => SpecEngine::built_in(built_in),
                (None, Some(fixed)) => fixed.clone(),
                (None, None) => return Err(format!("no program for the {kind} seat")),
            };
            (
                EngineSpec::for_seat(engine),
                app.engine_seed(game, me.index(), generation),
            )
        }
    };
    // The game's own board and clock (the show mixes boards); the
    // learner's table only where it is of that board.
    let g = &app.games()[game];
    let rules = g.pos.rules();
    let rl = config.rl.as_ref().filter(|t| t.borrow().rules() == rules);
    let mut engine = spec.build(rules, g.limits[me.index()], seed, rl)?;
    engine.set_memory_limit(SEATS_MEMORY / (2 * app.games().len()).max(1));
    Ok(engine)
}

/// What the live screen's engines may hold together for their trees and
/// tables, shared equally by the seats: with 36 games of 20x20 each seat
/// gets 3.5 MB; with the usual nine, 14 MB: more than a small board's
/// MCTS tree may hold (a limit never raises it), what a Gomoku MCTS tree
/// may grow to, and half of Negamax's Gomoku table.
const SEATS_MEMORY: usize = 256 << 20;

/// One move's thinking: the engine searches on the seat's clock; what an
/// outside brain said goes to the Records tab.
fn think(
    ctx: &Ctx,
    door: &Door,
    seat: SeatId,
    engine: &mut SeatEngine,
    pos: &AnyPosition,
) -> Result<Choice, String> {
    let limit = door.state().seat_limit(seat.game, seat.side);
    let history = door
        .state()
        .games()
        .get(seat.game)
        .map(|g| g.record.moves.clone())
        .unwrap_or_default();
    engine.set_history(&history);
    let mut budget = SeatBudget::new(ctx, door, seat, limit);
    let choice = engine.choose(pos, &mut budget);
    budget.finish();
    let said = engine.messages();
    if !said.is_empty() {
        door.send(Message::BrainSaid {
            game: seat.game,
            side: seat.side,
            lines: said,
        });
    }
    choice
}

pub(crate) fn run_seat(ctx: &Ctx, door: Door, clock: SharedClock, game: usize, me: Player) {
    let mut engine: Option<(u64, EngineKind, SeatEngine)> = None;
    let mut reported = None;
    loop {
        wait_while_paused(ctx, &door);
        // Tell the engine how its game ended (the learning player learns).
        if let Some((generation, kind, e)) = engine.as_mut()
            && reported != Some(*generation)
        {
            let record = finished_record(&door.state(), game, *generation);
            if let Some(record) = record {
                e.game_over(&record, me);
                reported = Some(*generation);
                // What the learner now holds goes to the state by message.
                let table = door.state().config().rl.clone();
                if let (EngineKind::BuiltIn(kxo_engine::BuiltIn::Rl), Some(table)) = (*kind, table)
                {
                    let figures = crate::app::LearnerFigures::of(&table.borrow());
                    door.send(Message::Learned(figures));
                }
            }
        }
        let job = next_job(&door.state(), game, me, clock.now());
        match job {
            Job::Wait | Job::Person { pending: None, .. } => wait_for(ctx, Event::Turn(game)),
            Job::Person {
                pending: Some(cell),
                generation,
            } => {
                door.send(Message::PersonMoved {
                    game,
                    generation,
                    cell,
                });
            }
            Job::Until(at) => ctx.suspend(Suspend::Wait(Event::Turn(game), Some(at))),
            Job::Restart { at } => {
                sleep_until(ctx, clock.now(), at);
                wait_while_paused(ctx, &door);
                let still_over =
                    matches!(door.state().games()[game].status, GameStatus::Over { .. });
                if still_over {
                    door.send(Message::Restart { game });
                }
            }
            Job::Think {
                pos,
                generation,
                kind,
            } => {
                let start = clock.now();
                if me == Player::O && door.state().config().fault_game == Some(game) {
                    panic!("injected fault in game {} (KXO_FAULT_GAME)", game + 1);
                }
                let fresh = !matches!(&engine, Some((g, k, _)) if *g == generation && *k == kind);
                let mut unmade = None;
                if fresh {
                    engine = match seat_engine(&door.state(), game, me, generation, kind) {
                        Ok(made) => Some((generation, kind, made)),
                        Err(reason) => {
                            unmade = Some(reason);
                            None
                        }
                    };
                }
                let seat = SeatId {
                    game,
                    generation,
                    side: me,
                    kind,
                };
                let choice = match engine.as_mut() {
                    Some((_, _, e)) => think(ctx, &door, seat, e, &pos),
                    None => Err(unmade.unwrap_or_else(|| "no engine".into())),
                };
                let cell = match choice {
                    Ok(Choice::Move(cell)) => cell,
                    Ok(Choice::Resign) => {
                        door.send(Message::Resigned {
                            game,
                            generation,
                            side: me,
                        });
                        continue;
                    }
                    Err(reason) => {
                        door.send(Message::Forfeit {
                            game,
                            generation,
                            loser: me,
                            reason,
                        });
                        engine = None;
                        continue;
                    }
                };
                // Space the moves out so people can follow them.
                let delay = door.state().config().delay;
                sleep_until(ctx, clock.now(), start + delay);
                wait_while_paused(ctx, &door);
                door.send(Message::Work {
                    kind,
                    cpu: Duration::ZERO,
                    work: 0,
                    moved: true,
                });
                door.send(Message::Moved {
                    game,
                    generation,
                    cell,
                });
                // Let the others run before this seat looks again.
                ctx.suspend(Suspend::Yield);
            }
        }
    }
}
