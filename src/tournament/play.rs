//! Playing the games of a schedule, on as many threads as asked.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::{
    End, EngineSpec, GameResult, Openings, PlayedGame, SeatEngine, Settings, Shard, Slot,
    SpecEngine, report, schedule, seed_for,
};
use crate::ai::rl::SharedTable;
use crate::ai::{Budget, ThinkLimit, Unlimited};
use crate::game::{GameRecord, Outcome, Player, Position, Rules};

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

/// Plays the games of the schedule that `done` does not hold (and that
/// are in the shard), calling `on_game` with each as it finishes; stops
/// early when the SPRT is decided. Returns every finished game, `done`'s
/// included, in game order. An error from `on_game` stops the run. With
/// the learning player's table `rl` the games run on one thread, in order,
/// each learning from the ones before.
pub fn run(
    clocks: &Clocks,
    rl: Option<&SharedTable>,
    done: Vec<PlayedGame>,
    mut on_game: impl FnMut(&PlayedGame, &[PlayedGame]) -> anyhow::Result<()>,
) -> anyhow::Result<Vec<PlayedGame>> {
    let settings = clocks.settings;
    let rules = settings.rules().map_err(anyhow::Error::msg)?;
    let mut games = done;
    let finished: std::collections::HashSet<u32> = games.iter().map(|g| g.game).collect();
    let todo: Vec<Slot> = schedule(settings)
        .into_iter()
        .filter(|s| clocks.shard.is_none_or(|shard| shard.holds(s)) && !finished.contains(&s.game))
        .collect();
    if report::sprt_decided(settings, &games).is_some() {
        return Ok(games);
    }
    let mut keep = |game: PlayedGame, games: &mut Vec<PlayedGame>| -> anyhow::Result<bool> {
        games.push(game);
        on_game(&games[games.len() - 1], games)?;
        Ok(report::sprt_decided(settings, games).is_some())
    };
    let jobs = clocks.jobs.clamp(1, todo.len().max(1));
    if rl.is_some() || jobs == 1 {
        for slot in &todo {
            let game = play_game(clocks, rules, slot, rl);
            if keep(game, &mut games)? {
                break;
            }
        }
    } else {
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        let (sender, results) = std::sync::mpsc::channel::<PlayedGame>();
        std::thread::scope(|scope| -> anyhow::Result<()> {
            for _ in 0..jobs {
                let (next, stop, sender, todo) = (&next, &stop, sender.clone(), &todo);
                scope.spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        let Some(slot) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                            break;
                        };
                        if sender.send(play_game(clocks, rules, slot, None)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            for game in results {
                match keep(game, &mut games) {
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
    }
    games.sort_by_key(|g| g.game);
    Ok(games)
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

/// A move's share of a match clock: stops the search when it is spent.
struct MoveClock {
    start: Instant,
    allot: Duration,
}

impl Budget for MoveClock {
    fn tick(&mut self) -> bool {
        self.start.elapsed() < self.allot
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
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
/// game's number and the side.
fn play_game(clocks: &Clocks, rules: Rules, slot: &Slot, rl: Option<&SharedTable>) -> PlayedGame {
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
        let choice = match left {
            Some(left) => {
                let own = specs[side]
                    .think_ms
                    .or(settings.think_ms)
                    .map(Duration::from_millis);
                let mut budget = MoveClock {
                    start,
                    allot: move_share(left, &pos, own),
                };
                if let SeatEngine::Outside(brain) = &mut seats[side] {
                    brain.set_time_left(left);
                }
                seats[side].choose(&pos, &mut budget)
            }
            None => seats[side].choose(&pos, &mut Unlimited::new()),
        };
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
    game
}
