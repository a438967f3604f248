//! The renderer's books: what it keeps apart from the state it draws.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use crate::ui::Chrome;

/// The renderer's own bookkeeping, apart from the state it draws.
#[derive(Debug)]
pub(crate) struct Frames {
    /// The screen changed since the last frame.
    pub(crate) dirty: bool,
    /// A key changed it: the next frame is due at once.
    pub(crate) urgent: bool,
    /// When the last frame was drawn.
    pub(crate) last: Option<Instant>,
    /// Frames drawn so far.
    pub(crate) count: u64,
    /// The next frame redraws every cell: after the terminal was given back
    /// and taken again, its contents are unknown.
    pub(crate) redraw_all: bool,
    /// The terminal's size (columns, rows) as last drawn: where a click lands.
    pub(crate) screen: (u16, u16),
    /// What the frames show besides the state: the clock.
    pub(crate) chrome: Chrome,
}

impl Default for Frames {
    fn default() -> Frames {
        Frames {
            // The first frame is due.
            dirty: true,
            urgent: true,
            last: None,
            count: 0,
            redraw_all: false,
            screen: (0, 0),
            chrome: Chrome::default(),
        }
    }
}

impl Frames {
    /// The state changed what the screen shows.
    pub(crate) fn changed(&mut self, urgent: bool) {
        self.dirty = true;
        self.urgent |= urgent;
    }
}

/// The renderer's bookkeeping, shared with the door (which marks changes),
/// the keyboard (which maps clicks through the screen's size) and the main
/// loop (which reads the count and asks for a full redraw after a
/// suspension).
pub(crate) type SharedFrames = Rc<RefCell<Frames>>;
