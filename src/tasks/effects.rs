//! The tasks layer's side of the app's effects: each becomes the scheduler
//! event that wakes whoever must act on it.

use super::scheduler::{Event, Signals};
use crate::app::Effect;

pub fn event_for(effect: Effect) -> Event {
    match effect {
        Effect::Redraw => Event::Changed,
        Effect::Turn(game) => Event::Turn(game),
        Effect::Resumed => Event::Resume,
        Effect::StartHint => Event::Hint,
    }
}

/// Posts the events for `effects`.
pub fn post_all(signals: &Signals, effects: Vec<Effect>) {
    for effect in effects {
        signals.post(event_for(effect));
    }
}
