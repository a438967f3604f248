//! The one `poll(2)` of the program: the terminal, outside brains' pipes
//! and a brain's wait all go through it.

use std::io;
use std::os::fd::RawFd;
use std::time::Duration;

/// A descriptor to watch for reading.
pub(crate) fn for_reading(fd: RawFd) -> libc::pollfd {
    libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    }
}

/// Waits up to `timeout` until one of `fds` is ready (their `revents` say
/// which and how: readable, hung up, failed). A signal ends the wait early,
/// as a timeout (nothing ready). Allocates nothing.
pub(crate) fn wait(fds: &mut [libc::pollfd], timeout: Duration) -> io::Result<()> {
    let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
    // SAFETY: `fds` is a valid array of pollfd for the duration of the call.
    let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
    if n < 0 {
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
        for fd in fds.iter_mut() {
            fd.revents = 0;
        }
    }
    Ok(())
}

/// Whether a descriptor's `revents` say it hung up or failed.
pub(crate) fn hung_up(fd: &libc::pollfd) -> bool {
    fd.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}
