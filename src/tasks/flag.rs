//! Human mode's clock task (`--tc`): ticks the game clock whenever what it
//! shows changes, a move lands, or its flag is due to fall, so that a
//! person who waits loses on time without pressing a key.

use std::time::Duration;

use super::door::Door;
use super::scheduler::{Ctx, Event, Suspend};
use crate::app::Message;

/// How long the task sleeps while no time runs (a start screen, a pause,
/// a game over): a new game or a resume is seen within it.
const IDLE: Duration = Duration::from_millis(250);

/// The body of the clock task.
pub(crate) fn run_flag(ctx: &Ctx, door: Door) {
    loop {
        door.send(Message::ClockTick);
        let wake = door.state().clock_wake().unwrap_or(door.now() + IDLE);
        ctx.suspend(Suspend::Wait(Event::Turn(0), Some(wake)));
    }
}
