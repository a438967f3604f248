//! The keyboard task: turns the terminal events the main loop queued into
//! actions through the key map, and sends them to the state.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::door::Door;
use super::frames::SharedFrames;
use super::scheduler::{Ctx, Event, wait_for};
use crate::app::Message;

pub(crate) type InputQueue = Rc<RefCell<VecDeque<crossterm::event::Event>>>;

pub(crate) fn run_keyboard(ctx: &Ctx, door: Door, input: InputQueue, frames: SharedFrames) {
    loop {
        wait_for(ctx, Event::Input);
        ctx.cpu.measure(|| {
            loop {
                let Some(event) = input.borrow_mut().pop_front() else {
                    break;
                };
                if let crossterm::event::Event::Resize(width, height) = event {
                    // Clicks map to the new size before the next frame.
                    frames.borrow_mut().screen = (width, height);
                }
                // Mouse clicks map through the screen as last drawn.
                let screen = frames.borrow().screen;
                let message = {
                    let app = door.state();
                    Message::Input {
                        action: crate::input::action_for(&app, screen, &event),
                        column_key: crate::input::column_key(&app, &event),
                    }
                };
                door.send(message);
            }
        });
    }
}
