//! Panic handling while the full screen is up.
//!
//! The default hook prints to stderr, which would garble the screen. Ours
//! records the message, and prints through the default hook only when the
//! thread is not in quiet mode: a task's panic is shown in its game's box,
//! and a panic that escapes is printed after the terminal is restored.

use std::any::Any;
use std::cell::Cell;
use std::sync::{Mutex, Once};

static LAST: Mutex<Option<String>> = Mutex::new(None);

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

/// Installs the recording hook (once) and sets this thread's quiet mode.
pub(crate) fn set_quiet(quiet: bool) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let text = payload_text(info.payload());
            let full = match info.location() {
                Some(loc) => format!("{text} ({}:{})", loc.file(), loc.line()),
                None => text,
            };
            if let Ok(mut last) = LAST.lock() {
                *last = Some(full);
            }
            if !QUIET.with(Cell::get) {
                default(info);
            }
        }));
    });
    QUIET.with(|q| q.set(quiet));
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// The message of a caught panic: what the hook recorded (with its
/// location), else the payload's text.
pub(crate) fn message(payload: &(dyn Any + Send)) -> String {
    let recorded = LAST.lock().ok().and_then(|mut last| last.take());
    recorded.unwrap_or_else(|| payload_text(payload))
}
