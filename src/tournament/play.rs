//! Playing the games of a schedule, on as many threads as asked.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::clock::SideClock;
use super::tally::DoneSet;
use super::{
    End, GameResult, Openings, PlayedGame, Schedule, Settings, Shard, Slot, Tally, seed_for,
};
use crate::engines::{Choice, EngineSpec, SeatEngine, SpecEngine};
use crate::protocol::OutsideEngine;
use crate::protocol::outside::BRAIN_THINK;
use kxo_engine::learner::SharedTable;
use kxo_engine::{AnyPosition, Cell, GameRecord, Outcome, Player, Rules};
use kxo_engine::{Budget, Limit, SearchInfo};

/// What a run needs besides its settings.
pub struct Clocks<'a> {
    pub settings: &'a Settings,
    pub specs: &'a [EngineSpec],
    pub openings: &'a Openings,
    pub shard: Option<Shard>,
    pub jobs: usize,
    /// Keep each brain's conversation with the game (`--log DIR`).
    pub log_brains: bool,
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
        let mut kept = Kept::default();
        while let Some(slot) = take() {
            let Some(game) = play_game(clocks, rules, &slot, rl, &mut kept) else {
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
                let mut kept = Kept::default();
                while !stop.load(Ordering::Relaxed) {
                    let Some(slot) = take() else {
                        break;
                    };
                    let Some(game) = play_game(clocks, rules, &slot, None, &mut kept) else {
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

/// Outside programs kept between the games of one thread (`restart=off`),
/// by the index of their spec; ended when the thread's games are done.
#[derive(Default)]
struct Kept(Vec<(usize, Box<dyn OutsideEngine>)>);

impl Kept {
    fn take(&mut self, spec: usize) -> Option<Box<dyn OutsideEngine>> {
        let at = self.0.iter().position(|(s, _)| *s == spec)?;
        Some(self.0.swap_remove(at).1)
    }

    /// Keeps `side`'s program for the next game when its spec asks so and
    /// it may play on.
    fn keep(&mut self, spec: usize, side: Side<'_>) {
        if let (true, SeatEngine::Outside(mut outside)) = (side.spec.keeps_process(), side.engine)
            && outside.reusable()
        {
            self.0.push((spec, outside));
        }
    }
}

/// One side of a game: its engine, its clocks, the CPU time it used.
struct Side<'a> {
    spec: &'a EngineSpec,
    engine: SeatEngine,
    clock: SideClock,
    /// Its limit a move, resolved when the game was planned; a game
    /// clock's share cuts its time move by move.
    limit: Limit,
    cpu: Duration,
}

impl<'a> Side<'a> {
    /// The side `spec` plays in a game of the run, its engine seeded with
    /// `seed`. Under a game clock a built-in with no time of its own may
    /// use each move's share (its budget stops it); a brain is told the
    /// clock, and its time a move (the whole clock when it has none).
    fn new(
        settings: &Settings,
        rules: Rules,
        spec: &'a EngineSpec,
        seed: u64,
        rl: Option<&SharedTable>,
        kept: Option<Box<dyn OutsideEngine>>,
    ) -> Result<Side<'a>, String> {
        let limit = seat_limit(settings, spec, rules);
        let clock = side_clock(settings, spec, limit);
        let mut engine = match kept {
            Some(mut outside) => {
                outside.new_game();
                SeatEngine::Outside(outside)
            }
            None => spec.build(rules, limit, seed, rl)?,
        };
        if let (SeatEngine::Outside(brain), Some((base, _))) = (&mut engine, clock.game) {
            brain.set_match_clock(base);
        }
        Ok(Side {
            spec,
            engine,
            clock,
            limit,
            cpu: Duration::ZERO,
        })
    }

    /// Its move in `pos` after `history`: the cell, or how it lost (a
    /// forfeit, or on time by the rule of [`super::clock`]); the time
    /// charged.
    fn play(
        &mut self,
        pos: &AnyPosition,
        history: &[Cell],
    ) -> (Result<Choice, (End, String)>, Duration) {
        let start = Instant::now();
        let mut budget = MoveClock {
            start,
            limit: self.clock.allot(pos).map_or(self.limit, Limit::Time),
            work: 0,
        };
        if let SeatEngine::Outside(brain) = &mut self.engine {
            if let Some(left) = self.clock.left() {
                brain.set_time_left(left);
            }
            brain.set_move_limit(self.clock.deadline());
        }
        self.engine.set_history(history);
        let cpu_before = crate::cpu::thread_cpu_time();
        let choice = self.engine.choose(pos, &mut budget);
        // A brain is not charged for its set-up before it was asked, and
        // its CPU time is its process's.
        let (before_asked, cpu) = match &self.engine {
            SeatEngine::Outside(brain) => (brain.before_asked(), brain.last_cpu()),
            SeatEngine::BuiltIn(_) | SeatEngine::Go(_) => (
                Duration::ZERO,
                crate::cpu::thread_cpu_time().saturating_sub(cpu_before),
            ),
        };
        self.cpu += cpu;
        let spent = start.elapsed().saturating_sub(before_asked);
        let out_of_time = match &self.engine {
            SeatEngine::Outside(brain) => brain.out_of_time(),
            _ => false,
        };
        let name = &self.spec.name;
        let me = pos.to_move();
        let lost_on_time =
            |why: String| Err((End::Time, format!("{name} ({me}) loses on time: {why}")));
        let result = match choice {
            // Its clock says by how much (the brain's own deadline was it).
            Err(why) if out_of_time => lost_on_time(self.clock.charge(spent).err().unwrap_or(why)),
            Err(why) => Err((End::Forfeit, format!("{name} ({me}) forfeits: {why}"))),
            Ok(cell) => self
                .clock
                .charge(spent)
                .map_or_else(lost_on_time, |()| Ok(cell)),
        };
        (result, spent)
    }
}

/// A side's limit a move: its spec's, resolved from the run's limit; under
/// a game clock, a built-in engine with no limit of its own thinks for
/// each move's share of it (the budget's time, move by move).
fn seat_limit(settings: &Settings, spec: &EngineSpec, rules: kxo_engine::Rules) -> Limit {
    let game = spec.clock.tc.map(|(base, _)| base).or(settings.match_ms);
    let own = spec.clock.think_ms.is_some() || spec.counts_work();
    match (&spec.engine, game) {
        (SpecEngine::BuiltIn { .. }, Some(base)) if !own => {
            Limit::Time(Duration::from_millis(base))
        }
        (SpecEngine::Brain { .. }, Some(base)) if spec.clock.think_ms.is_none() => {
            let run = settings.limit.parts().0.unwrap_or(base);
            Limit::Time(Duration::from_millis(run))
        }
        _ => spec.limit(settings.limit, rules),
    }
}

/// A side's clocks from the run's settings, its spec's own and its limit.
fn side_clock(settings: &Settings, spec: &EngineSpec, limit: Limit) -> SideClock {
    let ms = Duration::from_millis;
    let margin = spec
        .clock
        .margin_ms
        .or(settings.margin_ms)
        .map_or(super::clock::DEFAULT_MARGIN, ms);
    let game = spec
        .clock
        .tc
        .or(settings
            .match_ms
            .map(|base| (base, settings.increment_ms.unwrap_or(0))))
        .map(|(base, inc)| (ms(base), ms(inc)));
    let named = spec.clock.think_ms.or(settings.limit.parts().0).map(ms);
    let per_move = match &spec.engine {
        // A brain always has a time a move: its own or the run's, else the
        // protocol's default unless a game clock rules.
        SpecEngine::Brain { .. } => named.or(game.is_none().then_some(BRAIN_THINK)),
        // A built-in's is its limit's time; under a game clock only a time
        // named for it (the clock's share is the budget's, not a rule).
        SpecEngine::BuiltIn { .. } if spec.counts_work() => None,
        SpecEngine::BuiltIn { .. } if game.is_some() => named,
        SpecEngine::BuiltIn { .. } => limit.time(),
    };
    SideClock::new(per_move, game, margin)
}

/// A move's budget in `arena`: the side's limit, its time cut to its
/// share of the clocks; a stop asked for ends it either way.
struct MoveClock {
    start: Instant,
    limit: Limit,
    /// The work the search has reported.
    work: u64,
}

impl Budget for MoveClock {
    fn tick(&mut self) -> bool {
        !crate::signals::stopping() && !self.limit.reached(self.start.elapsed(), self.work)
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    fn report(&mut self, info: &SearchInfo) {
        self.work = info.work;
    }
    fn limit(&self) -> Limit {
        self.limit
    }
}

impl crate::protocol::outside::PipeBudget for MoveClock {
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

/// Go, after two passes: the dead stones both sides name, when they name
/// the same; `None` when they differ.
fn agreed_dead(sides: &mut [Side<'_>; 2]) -> Option<Vec<Cell>> {
    let ask = |side: &mut Side<'_>| {
        let mut budget = MoveClock {
            start: Instant::now(),
            limit: Limit::Whole,
            work: 0,
        };
        side.engine.dead_stones(&mut budget)
    };
    let [first, second] = sides;
    let dead = ask(first);
    (ask(second) == dead).then_some(dead)
}

/// Go, at a count: what each outside engine counts itself ("; g counts
/// B+3.5"), so that a record shows where the counts differ.
fn own_counts(sides: &mut [Side<'_>; 2]) -> String {
    let mut text = String::new();
    for side in sides.iter_mut() {
        let mut budget = MoveClock {
            start: Instant::now(),
            limit: Limit::Whole,
            work: 0,
        };
        if let Some(count) = side.engine.final_score(&mut budget) {
            text.push_str(&format!("; {} counts {count}", side.spec.name));
        }
    }
    text
}

/// Go, when the position says the game is over: the count after a
/// resignation-free end, or, after two passes, the count without the
/// stones both sides name dead. `None` when they name different stones:
/// play goes on in a clean-up, to a count of the stones as they stand.
fn go_over(
    pos: &mut AnyPosition,
    sides: &mut [Side<'_>; 2],
    game: &mut PlayedGame,
    rules: Rules,
    over: Outcome,
) -> Option<Outcome> {
    let Some(go) = pos.go_mut() else {
        return Some(over);
    };
    // Each side is asked about the game as it ended, its last moves (the
    // other side's pass) included.
    let history: Vec<Cell> = game.moves.iter().map(|&c| Cell::new(c)).collect();
    for side in sides.iter_mut() {
        side.engine.set_history(&history);
    }
    game.end = End::Score;
    if go.passes() < 2 || go.in_cleanup() {
        game.reason = go.score().text();
        if go.in_cleanup() {
            game.reason.push_str(" after a clean-up");
        }
        game.reason.push_str(&own_counts(sides));
        return Some(over);
    }
    let Some(dead) = agreed_dead(sides) else {
        go.resume_for_cleanup();
        return None;
    };
    let score = go.score_without(&dead);
    go.settle(score);
    game.reason = score.text();
    if !dead.is_empty() {
        let names: Vec<String> = dead.iter().map(|&c| rules.cell_name(c)).collect();
        game.reason
            .push_str(&format!(", dead by agreement: {}", names.join(" ")));
    }
    game.reason.push_str(&own_counts(sides));
    Some(score.outcome())
}

/// After the last move: the sides' CPU, their transcripts and the result
/// go into the game, and each engine hears how the game went.
fn finish_game(
    sides: &mut [Side<'_>; 2],
    game: &mut PlayedGame,
    outcome: Outcome,
    rules: Rules,
    slot: &Slot,
) {
    game.cpu_us = sides
        .each_ref()
        .map(|s| s.cpu.as_micros().min(u64::MAX as u128) as u64);
    for (side, me) in sides.iter_mut().zip([Player::O, Player::X]) {
        if let SeatEngine::Outside(brain) = &mut side.engine
            && let Some(lines) = brain.take_transcript()
        {
            game.transcripts
                .push((format!("{} ({me})", side.spec.name), lines));
        }
    }
    game.result = match outcome {
        Outcome::Win(Player::O) => GameResult::First,
        Outcome::Win(Player::X) => GameResult::Second,
        _ => GameResult::Draw,
    };
    let mut record = GameRecord::new(rules);
    record.moves = game.moves.iter().map(|&c| Cell::new(c)).collect();
    record.outcome = outcome;
    record.id = Some(slot.game as u64);
    for (side, s) in sides.iter_mut().enumerate() {
        let me = if side == 0 { Player::O } else { Player::X };
        s.engine.game_over(&record, me);
    }
}

/// Whether the first side's engine is the one that could not be made.
fn made_failed_first<T>(made: &[Result<T, String>; 2]) -> bool {
    made[0].is_err()
}

/// Plays one game between the sides [`make_sides`] gives, and keeps the
/// programs that play on for the next (`restart=off`); `None` when a stop
/// was asked for before it ended (a game cut short counts for nobody).
fn play_game(
    clocks: &Clocks,
    rules: Rules,
    slot: &Slot,
    rl: Option<&SharedTable>,
    kept: &mut Kept,
) -> Option<PlayedGame> {
    if crate::signals::stopping() {
        return None;
    }
    let settings = clocks.settings;
    let specs = [&clocks.specs[slot.first], &clocks.specs[slot.second]];
    let made = make_sides(clocks, rules, slot, rl, kept);
    let opening = clocks.openings.get(rules, settings.seed, slot.round);
    let mut pos =
        AnyPosition::from_moves(rules, &opening).unwrap_or_else(|_| AnyPosition::new(rules));
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
        cpu_us: [0; 2],
        result: GameResult::Draw,
        end: End::Full,
        reason: "board full".into(),
        transcripts: Vec::new(),
    };
    // A side whose engine cannot be made loses by forfeit, its game empty.
    let loser = if made_failed_first(&made) {
        Player::O
    } else {
        Player::X
    };
    let mut sides = match made {
        [Ok(first), Ok(second)] => [first, second],
        [Err(why), _] | [_, Err(why)] => {
            game.end = End::Forfeit;
            game.reason = why;
            game.result = match loser {
                Player::O => GameResult::Second,
                Player::X => GameResult::First,
            };
            return Some(game);
        }
    };
    let longest = super::GO_MOVES_PER_CELL * rules.cells() as usize;
    let outcome = loop {
        if rules.is_go() && game.moves.len() >= longest {
            // A game that will not end (two engines that never pass): the
            // count as it stands decides it.
            let score = pos.go_score().expect("a game of Go");
            game.end = End::Score;
            game.reason = format!("{} after {longest} moves", score.text());
            break score.outcome();
        }
        match pos.outcome() {
            Outcome::Ongoing => {}
            over if rules.is_go() => {
                if let Some(outcome) = go_over(&mut pos, &mut sides, &mut game, rules, over) {
                    break outcome;
                }
            }
            Outcome::Win(_) => {
                game.end = End::Line;
                game.reason = rules.in_a_row();
                break pos.outcome();
            }
            Outcome::Draw => break Outcome::Draw,
        }
        let me = pos.to_move();
        let history: Vec<Cell> = game.moves.iter().map(|&c| Cell::new(c)).collect();
        let (played, spent) = sides[me.index()].play(&pos, &history);
        if crate::signals::stopping() {
            return None;
        }
        let name = &sides[me.index()].spec.name;
        match played.and_then(|choice| match choice {
            Choice::Move(cell) => pos
                .play(cell)
                .map(|_| cell)
                .map_err(|e| (End::Forfeit, format!("{name} ({me}) forfeits: {e}"))),
            Choice::Resign => Err((End::Resign, format!("{name} ({me}) resigns"))),
        }) {
            Ok(cell) => {
                game.moves.push(cell.index() as u16);
                game.us.push(spent.as_micros().min(u64::MAX as u128) as u64);
            }
            Err((end, why)) => {
                game.end = end;
                game.reason = why;
                break Outcome::Win(me.other());
            }
        }
    };
    finish_game(&mut sides, &mut game, outcome, rules, slot);
    let [first, second] = sides;
    kept.keep(slot.first, first);
    kept.keep(slot.second, second);
    Some(game)
}

/// The two sides of `slot`'s game, each with a fresh engine seeded from
/// the run's seed, the game's number and the side, or the program `kept`
/// from its last game; why one cannot be made.
fn make_sides<'a>(
    clocks: &Clocks<'a>,
    rules: Rules,
    slot: &Slot,
    rl: Option<&SharedTable>,
    kept: &mut Kept,
) -> [Result<Side<'a>, String>; 2] {
    let settings = clocks.settings;
    [(0u64, slot.first), (1, slot.second)].map(|(side, spec)| {
        let seed = seed_for(settings.seed, slot.game, side);
        let mut side = Side::new(
            settings,
            rules,
            &clocks.specs[spec],
            seed,
            rl,
            kept.take(spec),
        )?;
        if let (true, SeatEngine::Outside(brain)) = (clocks.log_brains, &mut side.engine) {
            brain.keep_transcript();
        }
        Ok(side)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kxo_engine::{BuiltIn, Engine, Position};

    /// A built-in engine that ignores its budget: it sleeps, then plays
    /// the first empty cell.
    struct Oversleeper(Duration);

    impl Engine for Oversleeper {
        fn label(&self) -> std::borrow::Cow<'static, str> {
            "LATE".into()
        }
        fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
            std::thread::sleep(self.0);
            pos.legal_moves().next().expect("a legal move")
        }
    }

    #[test]
    fn a_built_in_engine_is_held_to_the_same_clock_rule_as_a_brain() {
        let rules = Rules::new(15, 5).unwrap();
        let spec = EngineSpec::for_seat(SpecEngine::built_in(BuiltIn::Random));
        let ms = Duration::from_millis;
        let mut side = Side {
            spec: &spec,
            engine: SeatEngine::BuiltIn(Box::new(Oversleeper(ms(60)))),
            // 10 ms a move and a 20 ms margin: 60 ms is past it.
            clock: SideClock::new(Some(ms(10)), None, ms(20)),
            limit: Limit::Time(ms(10)),
            cpu: Duration::ZERO,
        };
        let mut pos = AnyPosition::new(rules);
        // Its first move has the set-up allowance.
        let (first, _) = side.play(&pos, &[]);
        let Ok(Choice::Move(cell)) = first else {
            panic!("not a move within the set-up allowance: {first:?}");
        };
        pos.play(cell).unwrap();
        let next = pos.mnk().unwrap().legal_moves().next().unwrap();
        pos.play(next).unwrap();
        let (second, spent) = side.play(&pos, &[]);
        let (end, why) = second.expect_err("past its time and the margin");
        assert_eq!(end, End::Time);
        assert!(spent >= ms(60), "{spent:?}");
        assert!(
            why.contains("random (O) loses on time: a move took")
                && why.contains("of its 10 ms, with a margin of 20 ms"),
            "{why}"
        );
    }
}
