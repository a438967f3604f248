//! Entering and leaving the full screen. The guard restores the terminal
//! when dropped, on every exit path including a panic's unwinding.

use std::io::{self, Write};

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

pub struct TerminalGuard {
    mouse: bool,
}

impl TerminalGuard {
    /// Raw mode, the alternate screen, a hidden cursor (and mouse reports
    /// when asked for).
    pub fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        enable_raw_mode()?;
        let guard = TerminalGuard { mouse };
        let mut out = io::stdout();
        execute!(out, EnterAlternateScreen, crossterm::cursor::Hide)?;
        if mouse {
            execute!(out, EnableMouseCapture)?;
        }
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore(self.mouse);
    }
}

/// Puts the terminal back as it was: cooked mode, main screen, cursor shown.
pub fn restore(mouse: bool) {
    let mut out = io::stdout();
    if mouse {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(out, LeaveAlternateScreen, crossterm::cursor::Show);
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Whether standard input's terminal has hung up (its window was closed).
/// Async-signal-safe: one `poll` call.
pub fn stdin_hung_up() -> bool {
    let mut fds = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, zero timeout.
    let ready = unsafe { libc::poll(&mut fds, 1, 0) };
    ready > 0 && fds.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

/// Terminal input through crossterm.
pub struct CrosstermInput;

impl crate::tasks::live::InputSource for CrosstermInput {
    fn next_event(
        &mut self,
        timeout: std::time::Duration,
    ) -> io::Result<Option<crossterm::event::Event>> {
        if crossterm::event::poll(timeout)? {
            // crossterm's read() spins forever on end-of-file, which is what
            // a terminal that went away (a closed window) gives: check first.
            if stdin_hung_up() {
                return Err(io::Error::new(
                    io::ErrorKind::BrokenPipe,
                    "the terminal went away",
                ));
            }
            Ok(Some(crossterm::event::read()?))
        } else {
            Ok(None)
        }
    }
}
