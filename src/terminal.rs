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

/// Starts a synchronized update (DEC private mode 2026): the terminal shows
/// nothing of a frame until [`END_FRAME`]. Terminals without it ignore it.
pub const BEGIN_FRAME: &[u8] = b"\x1b[?2026h";
/// Ends a synchronized update: the terminal shows the whole frame at once.
pub const END_FRAME: &[u8] = b"\x1b[?2026l";

/// A writer that keeps everything written between two flushes and sends it
/// as one synchronized update, so that no terminal (nor a test reading the
/// screen) ever shows half of a frame: a status line from the new frame over
/// a board from the old one.
pub struct FrameWriter<W: Write> {
    inner: W,
    frame: Vec<u8>,
}

impl<W: Write> FrameWriter<W> {
    pub fn new(inner: W) -> FrameWriter<W> {
        FrameWriter {
            inner,
            frame: Vec::with_capacity(64 * 1024),
        }
    }
}

impl<W: Write> Write for FrameWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.frame.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.frame.is_empty() {
            self.frame.splice(0..0, BEGIN_FRAME.iter().copied());
            self.frame.extend_from_slice(END_FRAME);
            let written = self.inner.write_all(&self.frame);
            self.frame.clear();
            written?;
        }
        self.inner.flush()
    }
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
/// Terminal input through crossterm, for the live screen.
pub struct CrosstermInput {
    /// Whether the screen asked for mouse reports (human mode).
    pub mouse: bool,
}

impl crate::tasks::live::InputSource for CrosstermInput {
    fn suspend(&mut self) -> io::Result<()> {
        restore(self.mouse);
        // Stop as the shell's Ctrl-Z would; execution goes on from here
        // when the shell continues the process (`fg`, SIGCONT).
        // SAFETY: raise(3) with a valid signal number.
        unsafe { libc::raise(libc::SIGTSTP) };
        enable_raw_mode()?;
        let mut out = io::stdout();
        execute!(out, EnterAlternateScreen, crossterm::cursor::Hide)?;
        if self.mouse {
            execute!(out, EnableMouseCapture)?;
        }
        Ok(())
    }

    /// Polls the terminal and the outside brains' pipes together: one
    /// `poll(2)`, no thread per brain. (A resize reaches crossterm through
    /// a signal, seen at the next turn of the loop.)
    fn wait(
        &mut self,
        timeout: std::time::Duration,
        fds: &[std::os::fd::RawFd],
    ) -> io::Result<crate::tasks::live::Wake> {
        use crate::tasks::live::{Wake, poll_readable};
        use std::time::Duration;
        if fds.is_empty() {
            return Ok(Wake {
                event: self.next_event(timeout)?,
                readable: Vec::new(),
            });
        }
        // Events crossterm has already read come first.
        if crossterm::event::poll(Duration::ZERO)? {
            let event = self.next_event(Duration::ZERO)?;
            let readable = poll_readable(None, fds, Duration::ZERO)?.1;
            return Ok(Wake { event, readable });
        }
        let (terminal, readable) = poll_readable(Some(libc::STDIN_FILENO), fds, timeout)?;
        let event = if terminal {
            self.next_event(Duration::ZERO)?
        } else {
            None
        };
        Ok(Wake { event, readable })
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_reaches_the_terminal_whole_between_the_sync_marks() {
        let mut out = FrameWriter::new(Vec::new());
        out.write_all(b"board").unwrap();
        out.write_all(b" status").unwrap();
        assert!(out.inner.is_empty(), "nothing before the flush");
        out.flush().unwrap();
        out.flush().unwrap(); // an empty flush adds no empty frame
        let expected = [BEGIN_FRAME, b"board status", END_FRAME].concat();
        assert_eq!(out.inner, expected);
    }
}
