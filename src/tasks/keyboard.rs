//! The keyboard task: turns the terminal events the main loop queued into
//! actions through the key map, and applies them.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::clock::SharedClock;
use super::effects::post_all;
use super::scheduler::{Ctx, Event, Signals, wait_for};
use crate::app::App;

/// Terminal events waiting for the keyboard task.
pub(crate) type InputQueue = Rc<RefCell<VecDeque<crossterm::event::Event>>>;

pub(crate) fn run_keyboard(
    ctx: &Ctx,
    app: Rc<RefCell<App>>,
    signals: Signals,
    input: InputQueue,
    clock: SharedClock,
) {
    loop {
        wait_for(ctx, Event::Input);
        ctx.cpu.measure(|| {
            loop {
                let Some(event) = input.borrow_mut().pop_front() else {
                    break;
                };
                let action = crate::input::action_for(&app.borrow(), &event);
                let column_key = crate::input::column_key(&app.borrow(), &event);
                if let Some(action) = action {
                    let effects = app.borrow_mut().update(action, clock.now());
                    post_all(&signals, effects);
                }
                app.borrow_mut().remember_column_key(column_key);
            }
        });
    }
}
