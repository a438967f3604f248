//! Lines from a controlling program (a Gomoku manager, a GTP
//! controller) for the engines kxo-tui serves on standard input: read by
//! a thread of their own, so an engine never blocks on a read while it
//! should answer, one bounded line at a time into a bounded queue.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::Duration;

/// A line from the manager, or the end of its input.
pub(super) enum Input {
    Line(String),
    /// A line that could not be taken (too long, not UTF-8): why, for
    /// the protocol's error reply.
    Bad(String),
    Eof,
}

/// Lines from the manager held at most, waiting their turn: past these
/// the reader stops reading.
pub(super) const MAX_QUEUED: usize = 64;

/// The next line from the manager; `None` when a signal asked to stop.
pub(super) fn next_input(rx: &Receiver<Input>) -> Option<Input> {
    loop {
        if crate::signals::stopping() {
            return None;
        }
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(input) => return Some(input),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Some(Input::Eof),
        }
    }
}

/// The next line to answer: the queue's first, else the channel's; a
/// line that could not be taken is refused through `refuse` and skipped.
/// `None` at the end of input, or when a signal asks to stop.
pub(super) fn next_line(
    queue: &mut VecDeque<Input>,
    rx: &Receiver<Input>,
    mut refuse: impl FnMut(&str) -> io::Result<()>,
) -> io::Result<Option<String>> {
    loop {
        let next = match queue.pop_front() {
            Some(input) => input,
            None => match next_input(rx) {
                Some(input) => input,
                None => return Ok(None),
            },
        };
        match next {
            Input::Line(line) => return Ok(Some(line)),
            Input::Bad(why) => refuse(&why)?,
            Input::Eof => return Ok(None),
        }
    }
}

/// Starts the thread that reads `input` into a bounded channel: a
/// controller that writes faster than the engine answers (or never reads
/// the answers) fills it, and then waits on its pipe. The end of input
/// (or a read error) comes as [`Input::Eof`].
pub(super) fn read_lines(input: impl BufRead + Send + 'static) -> Receiver<Input> {
    let (tx, rx) = sync_channel(MAX_QUEUED);
    std::thread::spawn(move || {
        let mut input = input;
        let mut buf = Vec::new();
        loop {
            let next = match read_line_bounded(&mut input, &mut buf, MAX_INPUT_LINE) {
                Ok(LineRead::End) | Err(_) => break,
                Ok(LineRead::TooLong) => Input::Bad(format!(
                    "line too long: more than {MAX_INPUT_LINE} bytes (skipped)"
                )),
                Ok(LineRead::Line) => match std::str::from_utf8(&buf) {
                    Ok(text) => Input::Line(text.trim_end_matches(['\r', '\n']).to_string()),
                    Err(_) => Input::Bad("the line is not UTF-8 text (skipped)".into()),
                },
            };
            if tx.send(next).is_err() {
                return;
            }
        }
        let _ = tx.send(Input::Eof);
    });
    rx
}

/// Ends the process a moment after a signal asked to stop, should the
/// engine be blocked writing to a controller that never reads (an
/// engine keeps nothing that needs saving).
pub(super) fn exit_soon_after_a_signal() {
    std::thread::spawn(|| {
        while !crate::signals::stopping() {
            std::thread::sleep(Duration::from_millis(100));
        }
        std::thread::sleep(Duration::from_secs(1));
        let signal = crate::signals::requested().unwrap_or(libc::SIGTERM);
        std::process::exit(128 + signal);
    });
}

/// The longest line an engine takes from its controller; a longer one is
/// answered with an error and skipped to its end, never held whole.
pub(super) const MAX_INPUT_LINE: usize = 8192;

/// What [`read_line_bounded`] found.
enum LineRead {
    /// A line, in the buffer (without its newline).
    Line,
    /// A line longer than the limit, read to its end and dropped.
    TooLong,
    End,
}

/// Reads one line into `buf` (cleared first), holding at most `max` bytes
/// of it: the rest of a longer line is read and dropped.
fn read_line_bounded(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => LineRead::End,
                (true, true) => LineRead::TooLong,
                (true, false) => LineRead::Line,
            });
        }
        any = true;
        let (part, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long {
            if buf.len() + part.len() > max {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let used = ended.unwrap_or(chunk.len());
        input.consume(used);
        if ended.is_some() {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

/// While a search runs: takes what the manager sent meanwhile into
/// `queue` (up to [`MAX_QUEUED`]: the rest waits in the bounded channel,
/// and the reader stops reading until it is taken), and says whether the
/// search must end now — a signal, the end of input, or a line `ends`
/// names (the brain's END), which is not queued.
pub(super) fn take_arrived(
    input: &Receiver<Input>,
    queue: &mut VecDeque<Input>,
    ends: impl Fn(&str) -> bool,
) -> bool {
    let mut end = crate::signals::stopping();
    while queue.len() < MAX_QUEUED {
        match input.try_recv() {
            Ok(Input::Line(line)) if ends(&line) => end = true,
            Ok(Input::Eof) | Err(std::sync::mpsc::TryRecvError::Disconnected) => end = true,
            Ok(line) => {
                queue.push_back(line);
                continue;
            }
            Err(std::sync::mpsc::TryRecvError::Empty) => {}
        }
        break;
    }
    end
}
