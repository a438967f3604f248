//! Entering and leaving the full screen. The guard restores the terminal
//! when dropped, on every exit path including a panic's unwinding.

use std::io::{self, Write};

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

pub(crate) struct TerminalGuard {
    mouse: bool,
}

impl TerminalGuard {
    /// Raw mode, the alternate screen, a hidden cursor (and mouse reports
    /// when asked for).
    pub(crate) fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        enable_raw_mode()?;
        let guard = TerminalGuard { mouse };
        let mut out = crate::out::screen();
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
pub(crate) fn restore(mouse: bool) {
    // A terminal that takes no output (stalled) cannot be told to leave
    // the alternate screen: writing would block the exit for good. Its
    // modes are still set back.
    let mut fds = [libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: libc::POLLOUT,
        revents: 0,
    }];
    let takes_output = crate::poll::wait(&mut fds, 2 * TERMINAL_LOOK).is_ok()
        && fds[0].revents & libc::POLLOUT != 0;
    if takes_output {
        let mut out = crate::out::screen();
        if mouse {
            let _ = execute!(out, DisableMouseCapture);
        }
        let _ = execute!(out, LeaveAlternateScreen, crossterm::cursor::Show);
        let _ = out.flush();
    }
    let _ = disable_raw_mode();
}

/// Starts a synchronized update (DEC private mode 2026): the terminal shows
/// nothing of a frame until [`END_FRAME`]. Terminals without it ignore it.
pub(crate) const BEGIN_FRAME: &[u8] = b"\x1b[?2026h";
/// Ends a synchronized update: the terminal shows the whole frame at once.
pub(crate) const END_FRAME: &[u8] = b"\x1b[?2026l";

/// A writer that keeps everything written between two flushes and sends it
/// as one synchronized update, so that no terminal (nor a test reading the
/// screen) ever shows half of a frame: a status line from the new frame over
/// a board from the old one.
pub(crate) struct FrameWriter<W: Write> {
    inner: W,
    frame: Vec<u8>,
    /// The terminal's descriptor, when `inner` writes to one: frames then
    /// go out as the terminal takes them (see [`write_paced`]).
    fd: Option<std::os::fd::RawFd>,
}

impl<W: Write> FrameWriter<W> {
    pub(crate) fn new(inner: W) -> FrameWriter<W> {
        FrameWriter {
            inner,
            frame: Vec::with_capacity(64 * 1024),
            fd: None,
        }
    }
}

impl FrameWriter<io::Stdout> {
    /// Frames for the terminal on standard output.
    pub(crate) fn terminal(out: io::Stdout) -> FrameWriter<io::Stdout> {
        FrameWriter {
            fd: Some(libc::STDOUT_FILENO),
            ..FrameWriter::new(out)
        }
    }
}

/// What a write to the terminal waits at most before it looks again
/// whether a stop was asked for.
const TERMINAL_LOOK: std::time::Duration = std::time::Duration::from_millis(100);
/// The most written at once once the terminal takes output: a pty (every
/// terminal emulator, ssh, tmux) says so only with fewer than 256 bytes
/// pending and kilobytes of room, so such a write does not block.
const TERMINAL_PART: usize = 4096;

/// Writes `bytes` to the terminal at `fd` a part at a time, each once
/// `poll(2)` says the terminal takes output: a terminal that stops reading
/// (a stalled link, a frozen emulator) blocks no write, so a signal's stop
/// is still seen; then the frame is dropped (nobody is reading it) and the
/// error says the terminal stalled.
fn write_paced(fd: std::os::fd::RawFd, bytes: &[u8]) -> io::Result<()> {
    let mut rest = bytes;
    while !rest.is_empty() {
        let mut fds = [libc::pollfd {
            fd,
            events: libc::POLLOUT,
            revents: 0,
        }];
        crate::poll::wait(&mut fds, TERMINAL_LOOK)?;
        if crate::signals::stopping() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, STALLED));
        }
        if crate::poll::hung_up(&fds[0]) {
            return Err(io::Error::from_raw_os_error(libc::EIO));
        }
        if fds[0].revents & libc::POLLOUT == 0 {
            continue;
        }
        let part = &rest[..rest.len().min(TERMINAL_PART)];
        // SAFETY: write(2) of a valid buffer's bytes to an open descriptor.
        let n = unsafe { libc::write(fd, part.as_ptr().cast(), part.len()) };
        match n {
            n if n > 0 => rest = &rest[n as usize..],
            0 => return Err(io::ErrorKind::WriteZero.into()),
            _ => {
                let e = io::Error::last_os_error();
                if !matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) {
                    return Err(e);
                }
            }
        }
    }
    Ok(())
}

/// Why a frame was dropped: a stop came while the terminal took no output.
pub(crate) const STALLED: &str = "the terminal takes no output";

impl<W: Write> Write for FrameWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.frame.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.frame.is_empty() {
            self.frame.splice(0..0, BEGIN_FRAME.iter().copied());
            self.frame.extend_from_slice(END_FRAME);
            let written = match self.fd {
                // What `inner` holds goes first, then the frame, paced.
                Some(fd) => self
                    .inner
                    .flush()
                    .and_then(|()| write_paced(fd, &self.frame)),
                None => self.inner.write_all(&self.frame),
            };
            self.frame.clear();
            written?;
        }
        self.inner.flush()
    }
}

/// Whether standard input's terminal has hung up (its window was closed,
/// or its connection dropped): one `poll` that does not wait.
pub(crate) fn stdin_hung_up() -> bool {
    let mut fds = [crate::poll::for_reading(libc::STDIN_FILENO)];
    crate::poll::wait(&mut fds, std::time::Duration::ZERO).is_ok() && crate::poll::hung_up(&fds[0])
}

/// Terminal input through crossterm, for the live screen.
///
/// crossterm's reader spins forever once the terminal reads end-of-file or
/// fails (a window closed without SIGHUP reaching us), so it is only asked
/// for an event after our own `poll(2)` says the terminal has input and
/// has not hung up. A hang-up is reported as [`io::ErrorKind::BrokenPipe`].
pub(crate) struct CrosstermInput {
    /// Whether the screen asked for mouse reports.
    mouse: bool,
    /// Raised by SIGTSTP from outside (`kill -TSTP`): handled as the key.
    tstp: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl CrosstermInput {
    /// Input for a screen with mouse reports (or not); SIGTSTP and
    /// SIGWINCH wake its wait ([`crate::signals::screen_signals`]).
    pub(crate) fn new(mouse: bool) -> io::Result<CrosstermInput> {
        let tstp = crate::signals::screen_signals()?;
        Ok(CrosstermInput { mouse, tstp })
    }

    /// The Ctrl-Z key, for a SIGTSTP that came from outside.
    fn take_stop_request(&self) -> Option<crossterm::event::Event> {
        use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
        self.tstp
            .swap(false, std::sync::atomic::Ordering::Relaxed)
            .then(|| Event::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL)))
    }

    /// The next event crossterm has, without waiting; never called on a
    /// terminal that hung up.
    fn ready_event(&mut self) -> io::Result<Option<crossterm::event::Event>> {
        if stdin_hung_up() {
            // From here on, writing to it fails: the screen's last frame,
            // the cursor shown back, a panic's message would each fail
            // (and `eprintln!` panics when it cannot write).
            detach_from_lost_terminal();
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the terminal went away",
            ));
        }
        if crossterm::event::poll(std::time::Duration::ZERO)? {
            Ok(Some(crossterm::event::read()?))
        } else {
            Ok(None)
        }
    }
}

impl crate::tasks::live::InputSource for CrosstermInput {
    fn hung_up(&self) -> bool {
        stdin_hung_up()
    }

    fn suspend(&mut self) -> io::Result<()> {
        restore(self.mouse);
        crate::signals::stop_as_the_shell_would();
        enable_raw_mode()?;
        let mut out = crate::out::screen();
        execute!(out, EnterAlternateScreen, crossterm::cursor::Hide)?;
        if self.mouse {
            execute!(out, EnableMouseCapture)?;
        }
        Ok(())
    }

    /// Polls the terminal and the outside brains' pipes together: one
    /// `poll(2)`, no thread per brain. A signal (a resize, SIGTSTP) ends
    /// the wait early.
    fn wait(
        &mut self,
        timeout: std::time::Duration,
        fds: &[std::os::fd::RawFd],
    ) -> io::Result<crate::tasks::live::Wake> {
        use crate::tasks::live::{Wake, poll_readable};
        use std::time::Duration;
        if let Some(event) = self.take_stop_request() {
            return Ok(Wake {
                event: Some(event),
                readable: Vec::new(),
            });
        }
        // Events crossterm has already read (or a resize it heard of) first.
        if let Some(event) = self.ready_event()? {
            let readable = poll_readable(None, fds, Duration::ZERO)?.1;
            return Ok(Wake {
                event: Some(event),
                readable,
            });
        }
        let (_, readable) = poll_readable(Some(libc::STDIN_FILENO), fds, timeout)?;
        let event = match self.take_stop_request() {
            Some(event) => Some(event),
            None => self.ready_event()?,
        };
        Ok(Wake { event, readable })
    }

    fn next_event(
        &mut self,
        timeout: std::time::Duration,
    ) -> io::Result<Option<crossterm::event::Event>> {
        Ok(self.wait(timeout, &[])?.event)
    }
}

/// Refuses a terminal that cannot draw the screen (`TERM=dumb`, or
/// standard input or output not a terminal), with the headless commands
/// named instead.
pub(crate) fn check_can_draw() -> Result<(), crate::headless::InputError> {
    use std::io::IsTerminal;
    if std::env::var_os("TERM").is_some_and(|t| t == "dumb") {
        return Err(crate::headless::InputError(
            "TERM=dumb: this terminal cannot draw the live screen (no cursor movement); \
             headless commands work: `kxo-tui solve`, `kxo-tui arena`"
                .into(),
        ));
    }
    if !crate::out::stdout_is_terminal() || !std::io::stdin().is_terminal() {
        return Err(crate::headless::InputError(
            "the live screen needs a terminal; for headless use try `kxo-tui solve` or `kxo-tui arena`"
                .into(),
        ));
    }
    Ok(())
}

/// A last resort for a terminal that hung up: if the screen has not
/// stopped by itself within [`HangupWatchdog::GRACE`] of the hang-up
/// (crossterm stuck reading it), end the brains and leave with 129.
pub(crate) struct HangupWatchdog {
    done: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl HangupWatchdog {
    pub(crate) const GRACE: std::time::Duration = std::time::Duration::from_secs(3);

    pub(crate) fn start() -> HangupWatchdog {
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let seen = done.clone();
        let spawned = std::thread::Builder::new()
            .name("hangup-watchdog".into())
            .spawn(move || {
                let mut hung_since: Option<std::time::Instant> = None;
                while !seen.load(std::sync::atomic::Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    if !stdin_hung_up() {
                        hung_since = None;
                        continue;
                    }
                    let since = *hung_since.get_or_insert_with(std::time::Instant::now);
                    if since.elapsed() >= Self::GRACE
                        && !seen.load(std::sync::atomic::Ordering::Relaxed)
                    {
                        crate::protocol::outside::kill_all();
                        // SAFETY: _exit(2) ends the process at once.
                        unsafe { libc::_exit(129) };
                    }
                }
            });
        if spawned.is_err() {
            // Without the thread only the last resort is missing.
            done.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        HangupWatchdog { done }
    }

    /// The screen has stopped: the watchdog ends.
    pub(crate) fn stop(&self) {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Points standard input, output and error at /dev/null when they are the
/// terminal that went away, so that what is still said (the model's save)
/// neither fails nor panics.
pub(crate) fn detach_from_lost_terminal() {
    use std::os::fd::AsRawFd;
    let Ok(null) = crate::gate::null_device() else {
        return;
    };
    let null = null.as_raw_fd();
    // SAFETY: fstat(2) into a zeroed struct, and dup2(2) of an open
    // descriptor onto the standard ones.
    unsafe {
        for fd in [libc::STDIN_FILENO, libc::STDOUT_FILENO, libc::STDERR_FILENO] {
            // A terminal is a character device (a hung-up one may no
            // longer answer isatty); a file or pipe stays as it is.
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFCHR {
                libc::dup2(null, fd);
            }
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
