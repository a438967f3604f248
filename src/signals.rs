//! SIGINT, SIGTERM and SIGHUP as a request to stop, for every command.
//!
//! The handlers only note which signal came; the command sees it at its
//! next check (a search's budget tick, a wait on a brain's pipe, the end
//! of a game), stops, ends its brains, keeps what is done and says so.
//! Its exit status is then the shell's for that signal (128 + its number:
//! 130, 143, 129).

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The signal that asked to stop, 0 for none.
fn flag() -> &'static Arc<AtomicUsize> {
    static FLAG: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    FLAG.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// The same request as a flag, for code that takes one (the solver, the
/// training loop).
pub fn stop_flag() -> Arc<AtomicBool> {
    static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    STOP.get_or_init(|| Arc::new(AtomicBool::new(false)))
        .clone()
}

/// Makes SIGINT, SIGTERM and SIGHUP requests to stop (instead of ending
/// the process at once, which would leave brains running and files
/// unsaved).
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        signal_hook::flag::register_usize(signal, flag().clone(), signal as usize)?;
        signal_hook::flag::register(signal, stop_flag())?;
    }
    Ok(())
}

/// Raised by SIGTSTP from outside (`kill -TSTP`), which the live screen
/// handles as its Ctrl-Z key; and SIGWINCH heard, only so that either
/// ends the screen's wait for input early (crossterm hears the resize
/// itself).
pub fn screen_signals() -> std::io::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGTSTP, SIGWINCH};
    let tstp = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(SIGTSTP, tstp.clone())?;
    signal_hook::flag::register(SIGWINCH, Arc::new(AtomicBool::new(false)))?;
    Ok(tstp)
}

/// Stops the process as the shell's Ctrl-Z would (SIGTSTP with its
/// default action, so the shell sees a stopped job); returns when the
/// shell continues it (`fg`, SIGCONT). The handler that was there is put
/// back after.
pub fn stop_as_the_shell_would() {
    // SAFETY: sigaction(2) with valid structures, and raise(3) with a
    // valid signal number; the old action is restored as it was.
    unsafe {
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        let mut ours: libc::sigaction = std::mem::zeroed();
        libc::sigaction(libc::SIGTSTP, &default, &mut ours);
        libc::raise(libc::SIGTSTP);
        libc::sigaction(libc::SIGTSTP, &ours, std::ptr::null_mut());
    }
}

/// The signal that asked the command to stop, if one did.
pub fn requested() -> Option<i32> {
    match flag().load(Ordering::Relaxed) {
        0 => None,
        signal => Some(signal as i32),
    }
}

/// Whether a stop has been asked for.
pub fn stopping() -> bool {
    requested().is_some()
}

/// Asks to stop as if `signal` had come (a closed output, a test).
pub fn request(signal: i32) {
    flag().store(signal as usize, Ordering::Relaxed);
    stop_flag().store(true, Ordering::Relaxed);
}

/// The exit status for a command a signal stopped.
pub fn exit_code(signal: i32) -> ExitCode {
    ExitCode::from(128u8.saturating_add(signal.clamp(0, 127) as u8))
}

/// The signal's name for messages: "SIGTERM".
pub fn name(signal: i32) -> &'static str {
    match signal {
        libc::SIGINT => "SIGINT (Ctrl-C)",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// A stop asked for: which signal, for the exit status.
#[derive(Clone, Copy, Debug)]
pub struct Stopped(pub i32);

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped by {}", name(self.0))
    }
}

impl std::error::Error for Stopped {}
