//! Standard output and standard error for the commands. A pipe closed on
//! either (`kxo-tui arena | head -4`) is a request to stop, as SIGPIPE
//! would be if Rust did not ignore it: the command ends quietly at its
//! next check, its brains ended and its files whole, with the shell's
//! status for SIGPIPE (141). Never a panic (`println!` panics there, and
//! `tests/architecture.rs` keeps it out of the program).

use std::io::{self, Write};

/// The error a closed output gives: the command stops.
fn closed() -> anyhow::Error {
    crate::signals::request(libc::SIGPIPE);
    crate::signals::Stopped(libc::SIGPIPE).into()
}

/// Writes `text` to standard output. A closed pipe asks the command to
/// stop and says so as [`crate::signals::Stopped`].
pub(crate) fn stdout(text: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(closed()),
        Err(e) => Err(anyhow::Error::new(e).context("cannot write to standard output")),
    }
}

/// Writes `text` to standard error. A closed pipe asks the command to stop
/// (it has nowhere left to say anything); other errors are dropped.
pub(crate) fn stderr(text: &str) {
    let mut err = io::stderr().lock();
    if let Err(e) = err.write_all(text.as_bytes())
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        let _ = closed();
    }
}

/// A line on standard error that never fails nor stops the command: for
/// what is said as the program ends (its terminal may be gone).
pub(crate) fn stderr_line(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}

/// A line on standard output that never fails nor stops the command.
pub(crate) fn stdout_line(line: &str) {
    let _ = writeln!(io::stdout(), "{line}");
}

/// Whether standard error is a terminal (progress lines are for people).
pub(crate) fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal;
    io::stderr().is_terminal()
}

/// Whether standard output is a terminal (the live screen needs one).
pub(crate) fn stdout_is_terminal() -> bool {
    use std::io::IsTerminal;
    io::stdout().is_terminal()
}

/// The full screen's writer: the terminal on standard output, which the
/// live screen draws on (`terminal.rs`) and its frames go to.
pub(crate) fn screen() -> io::Stdout {
    io::stdout()
}

/// Standard output for a protocol that answers line by line (`kxo-tui
/// brain`), locked for the whole session.
pub(crate) fn protocol() -> io::StdoutLock<'static> {
    io::stdout().lock()
}

/// How a protocol session on [`protocol`] ended: a controller that closed
/// its end asks the engine to stop, as for every command (status 141,
/// nothing said); other errors are said.
pub(crate) fn protocol_ended(result: io::Result<()>) -> anyhow::Result<()> {
    match result {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(closed()),
        Err(e) => Err(anyhow::Error::new(e).context("cannot write to standard output")),
    }
}

/// `say!("…", …)`: a line on standard output; `anyhow::Result<()>`.
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::out::stdout(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `note!("…", …)`: a line on standard error (notes, progress, warnings).
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::out::stderr(&format!("{}\n", format_args!($($arg)*)))
    };
}
