//! The learner's current accuracy on the live screen: measured again by a
//! coroutine of its own whenever the rl seats have learned from more games
//! (at most every 20 s), one position at a time, so the screen never waits
//! for it. Nothing is measured while paused (no game is learned then).
//! Above 8x8, where no solver judges, the figure is its score against the
//! yardstick (`ai::big::yardstick`), one game at a time.

use std::time::Duration;

use super::clock::Slice;
use super::door::Door;
use super::scheduler::{Ctx, Suspend, sleep_until};
use crate::app::Message;
use kxo_engine::Tally;
use kxo_engine::learner::{Accuracy, Judge, MODEL_SAMPLE, SAMPLE_SEED, sample_positions};
use kxo_engine::learner::{RlPlayer, SharedTable};
use kxo_engine::learner::{YARDSTICK_GAMES, yardstick_game};

/// The least time between two measurements.
pub(super) const EVERY: Duration = Duration::from_secs(20);

/// The body of the learner task (it ends at once without a learning
/// player, or from 5x5 to 8x8, where the solver is too slow to judge and
/// no yardstick is set).
pub(crate) fn run_learner(ctx: &Ctx, door: Door) {
    let Some(table) = door.state().config().rl.clone() else {
        return;
    };
    let rules = table.borrow().rules();
    if !rules.is_small() {
        // Above 8x8: its score against the yardstick, a game a step.
        let measure = |ctx: &Ctx| {
            let mut tally = Tally::default();
            for g in 0..YARDSTICK_GAMES {
                step(ctx, || yardstick_game(&table, g, SAMPLE_SEED, &mut tally));
            }
            tally.score()
        };
        return measure_as_it_learns(ctx, &door, &table, measure);
    }
    if !kxo_engine::learner::judged_in_passing(rules) {
        return;
    }
    // The sample and the tie-breaking seed of the accuracy a model file
    // keeps, so the figures compare.
    let positions = sample_positions(rules, MODEL_SAMPLE, SAMPLE_SEED);
    let mut judge = Judge::new(rules);
    let measure = |ctx: &Ctx| {
        let mut player = RlPlayer::new(table.clone(), 1);
        player.learning = false;
        let mut accuracy = Accuracy::default();
        for pos in &positions {
            step(ctx, || accuracy.add(judge.keeps(pos, player.greedy(pos))));
        }
        accuracy.share()
    };
    measure_as_it_learns(ctx, &door, &table, measure)
}

/// Runs `measure` whenever the rl seats have learned from more games (at
/// most every [`EVERY`], never while paused) and posts its figure.
fn measure_as_it_learns(
    ctx: &Ctx,
    door: &Door,
    table: &SharedTable,
    mut measure: impl FnMut(&Ctx) -> f64,
) {
    let mut measured_at = None;
    loop {
        let games = table.borrow().games;
        if measured_at != Some(games) && !door.state().paused() {
            let share = measure(ctx);
            door.send(Message::LearnerMeasured { share, games });
            measured_at = Some(games);
        }
        let now = door.now();
        sleep_until(ctx, now, now + EVERY);
    }
}

/// One step of a measurement: its CPU time counted, then the others' turn.
fn step(ctx: &Ctx, work: impl FnOnce()) {
    let slice = Slice::start();
    work();
    ctx.cpu.add(slice.cpu_used());
    ctx.suspend(Suspend::Yield);
}
