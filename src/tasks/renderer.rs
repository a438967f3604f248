//! The renderer task: draws a frame when something changed, at most
//! `--fps` times a second, and keeps the header's clock ticking.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::Backend;

use super::clock::{SharedClock, Slice};
use super::scheduler::{Ctx, Event, Suspend};
use crate::app::App;

/// Hooks for tests and benchmarks: called after every frame is drawn.
pub type FrameHook = Box<dyn FnMut(&App)>;

/// How often the human mode's spinner turns.
const SPINNER_STEP: Duration = Duration::from_millis(100);

/// The renderer's own bookkeeping, apart from the state it draws.
#[derive(Debug, Default)]
pub(super) struct Frames {
    /// The app's revision on the last frame.
    drawn: u64,
    /// When the last frame was drawn.
    last: Option<Instant>,
    /// Frames drawn so far.
    pub(super) count: u64,
    /// The next frame redraws every cell: after the terminal was given back
    /// and taken again, its contents are unknown.
    pub(super) redraw_all: bool,
}

/// The renderer's bookkeeping, shared with the main loop (which reads the
/// count and asks for a full redraw after a suspension).
pub(super) type SharedFrames = Rc<RefCell<Frames>>;

pub(crate) fn run_renderer<B: Backend>(
    ctx: &Ctx,
    app: Rc<RefCell<App>>,
    terminal: Rc<RefCell<Terminal<B>>>,
    clock: SharedClock,
    frames: SharedFrames,
    mut on_frame: Option<FrameHook>,
) {
    let mut last_clock = String::new();
    loop {
        let work = Slice::start();
        let now = clock.now();
        let (gap, started) = {
            let a = app.borrow();
            (
                Duration::from_secs_f64(1.0 / a.config.fps.max(1) as f64),
                a.started,
            )
        };
        let clock_line = clock_text(started, now);
        let thinking = app.borrow().computer_thinking();
        if thinking {
            // Human mode: the spinner turns while the computer thinks.
            let frame = (now.saturating_duration_since(started).as_millis()
                / SPINNER_STEP.as_millis()) as usize;
            app.borrow_mut().turn_spinner(frame);
        }
        if clock_line != last_clock {
            last_clock.clone_from(&clock_line);
            app.borrow_mut().set_clock_text(clock_line);
        }
        let (revision, urgent, last_frame) = {
            let (a, f) = (app.borrow(), frames.borrow());
            (a.revision(), a.urgent_since(f.drawn), f.last)
        };
        let dirty = revision != frames.borrow().drawn;
        let frame_due = last_frame.is_none_or(|t| now >= t + gap);
        if dirty && (urgent || frame_due) {
            app.borrow_mut().begin_frame(now);
            let full_redraw = {
                let mut f = frames.borrow_mut();
                f.drawn = revision;
                f.last = Some(now);
                f.count += 1;
                std::mem::take(&mut f.redraw_all)
            };
            let drawn = {
                let mut term = terminal.borrow_mut();
                if full_redraw && let Ok(size) = term.size() {
                    // Clears the screen and forgets the last frame, so the
                    // next one draws every cell. (`Terminal::clear` would
                    // first ask the terminal where its cursor is.)
                    let _ = term.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height));
                }
                if let Ok(size) = term.size() {
                    app.borrow_mut().set_screen(size.width, size.height);
                    // What this screen holds, measured by the drawing code:
                    // the boards a box shows, how far the tab scrolls.
                    let area = ratatui::layout::Rect::new(0, 0, size.width, size.height);
                    let (fits, room) = {
                        let a = app.borrow();
                        let fits = crate::ui::grid_view(&a, area).map(|v| v.plan.fits);
                        (fits, crate::ui::scroll_room(&a, area))
                    };
                    if let Some(fits) = fits {
                        app.borrow_mut().set_fits(fits);
                    }
                    app.borrow_mut().set_scroll_room(room);
                }
                let a = app.borrow();
                term.draw(|f| crate::ui::draw(f, &a)).map(|_| ())
            };
            if let Err(e) = drawn {
                // Nothing can be shown any more: stop cleanly.
                app.borrow_mut().stop(Some(format!("cannot draw: {e}")));
                ctx.suspend(Suspend::Yield);
                continue;
            }
            if let Some(hook) = on_frame.as_mut() {
                hook(&app.borrow());
            }
        }
        ctx.cpu.add(work.cpu_used());
        // Sleep until the next clock second, or until the frame gap is over
        // if something is waiting to be drawn; a key or a move wakes us early.
        let mut next_wake = next_clock_tick(started, now);
        if thinking {
            next_wake = next_wake.min(now + SPINNER_STEP);
        }
        let still_dirty = app.borrow().revision() != frames.borrow().drawn;
        let deadline = match (still_dirty, frames.borrow().last) {
            (true, Some(t)) => (t + gap).min(next_wake),
            _ => next_wake,
        };
        ctx.suspend(Suspend::Wait(Event::Changed, Some(deadline)));
    }
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
