//! The renderer task: draws a frame when something changed, at most
//! `--fps` times a second, and keeps the header's clock ticking. It keeps
//! its own books ([`Frames`]): whether the screen changed since the last
//! frame, the screen's size, the clock text; the state knows none of them.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::layout::Rect;

use super::clock::{SharedClock, Slice};
use super::door::Door;
use super::frames::{Frames, SharedFrames};
use super::scheduler::{Ctx, Event, Suspend};
use crate::app::{App, Message};
use crate::ui::Chrome;
use crate::ui::human::SPINNER_STEP;

/// Hooks for tests and benchmarks: called after every frame is drawn,
/// with the state and what the renderer drew it with.
pub type FrameHook = Box<dyn FnMut(&App, &Chrome)>;

pub(crate) fn run_renderer<B: Backend>(
    ctx: &Ctx,
    door: Door,
    terminal: Rc<RefCell<Terminal<B>>>,
    clock: SharedClock,
    frames: SharedFrames,
    mut on_frame: Option<FrameHook>,
) {
    loop {
        let work = Slice::start();
        let now = clock.now();
        let (gap, started, thinking) = {
            let a = door.state();
            (
                Duration::from_secs_f64(1.0 / a.config().fps.max(1) as f64),
                a.started(),
                a.computer_thinking(),
            )
        };
        {
            let mut f = frames.borrow_mut();
            let clock_line = clock_text(started, now);
            if f.chrome.clock != clock_line {
                f.chrome.clock = clock_line;
                f.dirty = true;
            }
            // Human mode: the spinner turns while the computer thinks.
            if thinking {
                f.dirty = true;
            }
        }
        let (dirty, urgent, last_frame) = {
            let f = frames.borrow();
            (f.dirty, f.urgent, f.last)
        };
        let frame_due = last_frame.is_none_or(|t| now >= t + gap);
        if dirty && (urgent || frame_due) {
            let full_redraw = {
                let mut f = frames.borrow_mut();
                f.dirty = false;
                f.urgent = false;
                f.last = Some(now);
                f.count += 1;
                std::mem::take(&mut f.redraw_all)
            };
            if let Err(e) = draw(&door, &terminal, &frames, full_redraw) {
                // Nothing can be shown any more: stop cleanly.
                door.send(Message::CannotDraw(e.to_string()));
                ctx.suspend(Suspend::Yield);
                continue;
            }
            if let Some(hook) = on_frame.as_mut() {
                hook(&door.state(), &frames.borrow().chrome);
            }
        }
        ctx.cpu.add(work.cpu_used());
        // Sleep until the next clock second, or until the frame gap is over
        // if something is waiting to be drawn; a key or a move wakes us early.
        let mut next_wake = next_clock_tick(started, now);
        if thinking {
            next_wake = next_wake.min(now + SPINNER_STEP);
        }
        let deadline = match (frames.borrow().dirty, frames.borrow().last) {
            (true, Some(t)) => (t + gap).min(next_wake),
            _ => next_wake,
        };
        ctx.suspend(Suspend::Wait(Event::Changed, Some(deadline)));
    }
}

/// One frame: the screen measured (the boards a box shows, how far the
/// tab scrolls) and told to the state, then drawn from it.
fn draw<B: Backend>(
    door: &Door,
    terminal: &RefCell<Terminal<B>>,
    frames: &RefCell<Frames>,
    full_redraw: bool,
) -> Result<(), B::Error> {
    let mut term = terminal.borrow_mut();
    if full_redraw && let Ok(size) = term.size() {
        // Clears the screen and forgets the last frame, so the next one
        // draws every cell. (`Terminal::clear` would first ask the
        // terminal where its cursor is.)
        let _ = term.resize(Rect::new(0, 0, size.width, size.height));
    }
    if let Ok(size) = term.size() {
        frames.borrow_mut().screen = (size.width, size.height);
        let area = Rect::new(0, 0, size.width, size.height);
        let measured = {
            let a = door.state();
            Message::Measured {
                fits: crate::ui::grid_view(&a, area).map(|v| v.plan.fits),
                scroll_room: crate::ui::scroll_room(&a, area),
            }
        };
        door.send(measured);
    }
    door.send(Message::Frame);
    let chrome = frames.borrow().chrome.clone();
    let app = door.state();
    term.draw(|f| crate::ui::draw(f, &app, &chrome)).map(|_| ())
}

/// The header's clock: local time and time since start.
fn clock_text(started: Instant, now: Instant) -> String {
    let up = now.saturating_duration_since(started).as_secs();
    format!(
        "{}  up {:02}:{:02}:{:02}",
        chrono::Local::now().format("%H:%M:%S"),
        up / 3600,
        up / 60 % 60,
        up % 60
    )
}

fn next_clock_tick(started: Instant, now: Instant) -> Instant {
    let since = now.saturating_duration_since(started);
    started + Duration::from_secs(since.as_secs() + 1)
}
