//! Playing the games of a schedule, on as many threads as asked.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::tally::DoneSet;
use super::{
    End, EngineSpec, GameResult, Openings, PlayedGame, Schedule, SeatEngine, Settings, Shard, Slot,
    SpecEngine, Tally, seed_for,
};
use crate::ai::rl::SharedTable;
use crate::ai::{Budget, ThinkLimit};
use crate::game::{Cell, GameRecord, Outcome, Player, Position, Rules};

/// How far past its match clock a side may go before it loses on time:
/// a search notices its budget at its next tick, a brain's answer
/// crosses a pipe.
const MATCH_GRACE: Duration = Duration::from_millis(100);

/// What a run needs besides its settings.
pub struct Clocks<'a> {
    pub settings: &'a Settings,
    pub specs: &'a [EngineSpec],
    pub openings: &'a Openings,
    pub shard: Option<Shard>,
    pub jobs: usize,
}

/// Why a run ended before its schedule did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every game is played (or the SPRT decided).
    Done,
    /// A signal (or a closed output) asked to stop: the games in progress
    /// were dropped, to be played again by a resumed run.
    Stopped,
}

/// The games still to play: those of the shard that the tally has not
/// seen, in order, handed out one at a time (to every thread).
struct Todo<'a> {
    schedule: &'a Schedule,
    shard: Option<Shard>,
    done: DoneSet,
    next: u32,
}

impl Todo<'_> {
    fn next(&mut self) -> Option<Slot> {
        while let Some(slot) = self.schedule.slot(self.next) {
            self.next += 1;
            if self.shard.is_none_or(|s| s.holds(&slot)) && !self.done.contains(slot.game) {
                return Some(slot);
            }
        }
        None
    }
}

/// Plays the games of the schedule that `tally` has not seen (and that
/// are in the shard), folding each into the tally as it finishes and then
/// calling `on_game` with it; stops early when the SPRT is decided or a
/// stop is asked for ([`crate::signals`]). An error from `on_game` stops
/// the run. With the learning player's table `rl` the games run on one
/// thread, in order, each learning from the ones before.
pub fn run(
    clocks: &Clocks,
    rl: Option<&SharedTable>,
    tally: &mut Tally,
    mut on_game: impl FnMut(&PlayedGame, &Tally) -> anyhow::Result<()>,
) -> anyhow::Result<Ended> {
    let settings = clocks.settings;
    let rules = settings.rules().map_err(anyhow::Error::msg)?;
    if tally.decided().is_some() {
        return Ok(Ended::Done);
    }
    let schedule = tally.schedule().clone();
    let todo = Mutex::new(Todo {
        schedule: &schedule,
        shard: clocks.shard,
        done: tally.done().clone(),
        next: 0,
    });
    let take = || todo.lock().unwrap_or_else(|e| e.into_inner()).next();
    let mut keep = |game: PlayedGame, tally: &mut Tally| -> anyhow::Result<bool> {
        tally.add(&game).map_err(anyhow::Error::msg)?;
        on_game(&game, tally)?;
        Ok(tally.decided().is_some())
    };
    let stopped = || {
        if crate::signals::stopping() {
            Ended::Stopped
        } else {
            Ended::Done
        }
    };
    if rl.is_some() || clocks.jobs <= 1 {
        while let Some(slot) = take() {
            let Some(game) = play_game(clocks, rules, &slot, rl) else {
                break;
            };
            if keep(game, tally)? {
                break;
            }
        }
        return Ok(stopped());
    }
    let stop = AtomicBool::new(false);
    // Bounded: a finished game waits for the main thread to take it.
    let (sender, results) = std::sync::mpsc::sync_channel::<PlayedGame>(clocks.jobs);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        for _ in 0..clocks.jobs {
            let (stop, sender, take) = (&stop, sender.clone(), &take);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(slot) = take() else {
                        break;
                    };
                    let Some(game) = play_game(clocks, rules, &slot, None) else {
                        break;
                    };
                    if sender.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for game in results {
            match keep(game, tally) {
                Ok(false) => {}
                Ok(true) => stop.store(true, Ordering::Relaxed),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(())
    })?;
    Ok(stopped())
}

/// The engine of one seat for one game. Under a match clock a brain is
/// told the clock; a built-in search with no time of its own may use all
/// of each move's share (its budget stops it).
fn seat_engine(
    clocks: &Clocks,
    rules: Rules,
    spec: &EngineSpec,
    seed: u64,
    rl: Option<&SharedTable>,
) -> SeatEngine {
    let settings = clocks.settings;
    let run_limit = settings.limit();
    let limit = match (&spec.engine, settings.match_ms) {
        (SpecEngine::BuiltIn(_), Some(ms)) if spec.iterations.is_none() => {
            ThinkLimit::Millis(spec.think_ms.or(settings.think_ms).unwrap_or(ms))
        }
        _ => spec.limit(run_limit),
    };
    let mut seat = spec.build_with(rules, limit, seed, rl);
    if let (SeatEngine::Outside(brain), Some(ms)) = (&mut seat, settings.match_ms) {
        brain.set_match_clock(Duration::from_millis(ms));
    }
    seat
}

/// A move's budget in `arena`: its share of a match clock, if it has
/// one, and a stop asked for ends it either way.
struct MoveClock {
    start: Instant,
    allot: Option<Duration>,
}

impl Budget for MoveClock {
    fn tick(&mut self) -> bool {
        !crate::signals::stopping() && self.allot.is_none_or(|a| self.start.elapsed() < a)
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    /// Waits on a brain's pipe in short slices, so that a stop asked for
    /// ends the wait at once.
    fn wait_readable(&mut self, fd: std::os::fd::RawFd, deadline: Instant) -> bool {
        let slice = Instant::now() + Duration::from_millis(50);
        let left = deadline
            .min(slice)
            .saturating_duration_since(Instant::now());
        let _ = crate::poll::wait(&mut [crate::poll::for_reading(fd)], left);
        !crate::signals::stopping()
    }
}

/// The share of `left` a move may take: a thirtieth early on, more as
/// the board fills (about as many moves as half the empty cells remain,
/// at least five), never more than the engine's own time per move.
fn move_share(left: Duration, pos: &Position, own: Option<Duration>) -> Duration {
    let moves_to_go = (pos.empty().count() / 2).clamp(5, 30);
    let share = left / moves_to_go;
    own.map_or(share, |own| own.min(share))
}

/// Plays one game with fresh engines seeded from the run's seed, the
/// game's number and the side; `None` when a stop was asked for before
/// it ended (a game cut short counts for nobody).
fn play_game(
    clocks: &Clocks,
    rules: Rules,
    slot: &Slot,
    rl: Option<&SharedTable>,
) -> Option<PlayedGame> {
    if crate::signals::stopping() {
        return None;
    }
    let settings = clocks.settings;
    let specs = [&clocks.specs[slot.first], &clocks.specs[slot.second]];
    let mut seats = [0u64, 1].map(|side| {
        seat_engine(
            clocks,
            rules,
            specs[side as usize],
            seed_for(settings.seed, slot.game, side),
            rl,
        )
    });
    let opening = clocks.openings.get(rules, settings.seed, slot.round);
    let mut pos = Position::from_moves(rules, &opening).unwrap_or_else(|_| Position::new(rules));
    let opening_len = pos.move_count() as usize;
    let mut game = PlayedGame {
        game: slot.game,
        first: specs[0].name.clone(),
        second: specs[1].name.clone(),
        opening: opening_len,
        moves: opening[..opening_len]
            .iter()
            .map(|c| c.index() as u16)
            .collect(),
        us: vec![0; opening_len],
        result: GameResult::Draw,
        end: End::Full,
        reason: "board full".into(),
    };
    let match_clock = settings.match_ms.map(Duration::from_millis);
    let mut used = [Duration::ZERO; 2];
    let outcome = loop {
        match pos.outcome() {
            Outcome::Ongoing => {}
            Outcome::Win(_) => {
                game.end = End::Line;
                game.reason = format!("{} in a row", rules.goal());
                break pos.outcome();
            }
            Outcome::Draw => break Outcome::Draw,
        }
        let me = pos.to_move();
        let side = me.index();
        let left = match_clock.map(|total| total.saturating_sub(used[side]));
        let start = Instant::now();
        let own = specs[side]
            .think_ms
            .or(settings.think_ms)
            .map(Duration::from_millis);
        let mut budget = MoveClock {
            start,
            allot: left.map(|left| move_share(left, &pos, own)),
        };
        if let (SeatEngine::Outside(brain), Some(left)) = (&mut seats[side], left) {
            brain.set_time_left(left);
        }
        let history: Vec<Cell> = game.moves.iter().map(|&c| Cell::new(c)).collect();
        seats[side].set_history(&history);
        let choice = seats[side].choose(&pos, &mut budget);
        if crate::signals::stopping() {
            return None;
        }
        // A brain is not charged for the wait before it was asked.
        let settled = match &seats[side] {
            SeatEngine::Outside(brain) => brain.settled(),
            SeatEngine::BuiltIn(_) => Duration::ZERO,
        };
        let spent = start.elapsed().saturating_sub(settled);
        used[side] += spent;
        let played =
            choice.and_then(|cell| pos.play(cell).map(|_| cell).map_err(|e| e.to_string()));
        match played {
            Ok(cell) => {
                game.moves.push(cell.index() as u16);
                game.us.push(spent.as_micros().min(u64::MAX as u128) as u64);
            }
            Err(why) => {
                game.end = End::Forfeit;
                game.reason = format!("{} ({me}) forfeits: {why}", specs[side].name);
                break Outcome::Win(me.other());
            }
        }
        if let Some(total) = match_clock
            && used[side] > total + MATCH_GRACE
        {
            game.end = End::Time;
            game.reason = format!(
                "{} ({me}) loses on time: {} ms used of a {} ms match clock",
                specs[side].name,
                used[side].as_millis(),
                total.as_millis()
            );
            break Outcome::Win(me.other());
        }
    };
    game.result = match outcome {
        Outcome::Win(Player::O) => GameResult::First,
        Outcome::Win(Player::X) => GameResult::Second,
        _ => GameResult::Draw,
    };
    let mut record = GameRecord::new(rules);
    record.moves = game
        .moves
        .iter()
        .map(|&c| crate::game::Cell::new(c))
        .collect();
    record.outcome = outcome;
    record.id = Some(slot.game as u64);
    for (side, seat) in seats.iter_mut().enumerate() {
        seat.game_over(&record, if side == 0 { Player::O } else { Player::X });
    }
    Some(game)
}
