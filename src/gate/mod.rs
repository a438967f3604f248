//! The one gate for files: every file kxo-tui reads or writes passes
//! through this module, and nothing else in the program opens a file
//! (`tests/architecture.rs` checks the source for it).
//!
//! What holds for every path, whatever the command:
//! - **Links.** Each component of a path is opened here, one at a time,
//!   inside the folder before it (`openat`, never following a link), and
//!   what is read or written is reached from the last folder held open,
//!   never by the name again.
//!   A link is followed only when we or root made it, whatever folder it
//!   sits in and whatever the system's `protected_symlinks` setting
//!   ([`path`]). The file itself is opened
//!   without following a link (`O_NOFOLLOW`), so one swapped in after the
//!   check is refused too.
//! - **Types and sizes.** Only regular files are read or written: a FIFO
//!   is refused, never waited on (`O_NONBLOCK`), a device or a folder
//!   too. Every read is bounded, per line and for the whole file, by what
//!   a real file of its kind can hold ([`Kind`]).
//! - **Writing** is either a new file (made beside its name and linked in
//!   without replacing anything) or an atomic replace (a temporary file in
//!   the same folder, synced, renamed over the name, the folder synced).
//!   Nothing is truncated in place, and a crash at any moment leaves the
//!   old file or the new one.
//! - **Ownership.** A file kxo-tui did not make is never overwritten: an
//!   existing file must start with its kind's own header, or be empty.
//! - **Appending** (the arena's state) happens under an exclusive lock held
//!   for the whole run: a second run on the same file is refused by name.

mod error;
mod path;
mod read;
mod write;

pub use error::{Cause, FileError};
pub use path::{make_folder, resolve, resolve_folder};
pub use read::{Line, Lines, Reader, lines, open, read};
pub use write::{
    Appender, FileLock, Staged, check_replace, lock_beside, replace, stage, write_new,
};

/// The null device, open for reading and writing (close-on-exec): what
/// standard input and output become when their terminal went away.
pub fn null_device() -> std::io::Result<std::os::fd::OwnedFd> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")?;
    Ok(file.into())
}

/// What kind of file a path holds: how it is named in messages, how big
/// a real one can be, and how kxo-tui's own files of the kind start.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// "state file", "model file", "openings file"…
    pub what: &'static str,
    /// The most a real file of this kind holds, in bytes.
    pub max_bytes: u64,
    /// The longest line a file read line by line may hold.
    pub max_line: usize,
    /// How kxo-tui tells its own files of this kind: an existing file
    /// must be one (or be empty) to be replaced or appended to.
    pub ours: Ours,
}

/// How kxo-tui knows a file of a kind as its own.
#[derive(Clone, Copy, Debug)]
pub enum Ours {
    /// The kind is only ever read (an openings file).
    Never,
    /// The file starts with these bytes.
    Prefix(&'static [u8]),
    /// A JSON object whose `kind` member is this string.
    JsonKind(&'static str),
}

impl Kind {
    /// Whether the file `file` is one of ours.
    fn made_by_us(&self, file: &std::fs::File) -> bool {
        use std::io::Read;
        use std::os::unix::fs::FileExt;
        match self.ours {
            Ours::Never => false,
            Ours::Prefix(prefix) => {
                let mut start = vec![0u8; prefix.len()];
                file.read_exact_at(&mut start, 0).is_ok() && start == prefix
            }
            Ours::JsonKind(kind) => {
                let mut bytes = Vec::new();
                let mut reader = file;
                if std::io::Seek::rewind(&mut reader).is_err()
                    || reader.take(self.max_bytes).read_to_end(&mut bytes).is_err()
                {
                    return false;
                }
                serde_json::from_slice::<serde_json::Value>(&bytes)
                    .is_ok_and(|v| v.get("kind").and_then(|k| k.as_str()) == Some(kind))
            }
        }
    }
}

/// The effective user id: whose links may be followed, whose leftovers
/// may be removed.
pub(crate) fn euid() -> u32 {
    // SAFETY: geteuid(2) cannot fail.
    unsafe { libc::geteuid() }
}

/// Reads a small file of the system's (`/proc/PID/stat`, `/proc/cpuinfo`):
/// no link followed at the name, a bound on the size, `None` when it
/// cannot be read.
pub fn read_system(path: &std::path::Path, max_bytes: u64) -> Option<Vec<u8>> {
    read::read_system(path, max_bytes)
}

/// A small file of the system's kept open and read afresh from its start
/// each time (`/proc/PID/stat` of a brain, read before and after every
/// move: one `pread` instead of an open, reads and a close).
pub struct SystemFile(std::fs::File);

impl SystemFile {
    /// Opened as [`read_system`] opens it; `None` when it cannot be.
    pub fn open(path: &std::path::Path) -> Option<SystemFile> {
        read::open_system(path).map(SystemFile)
    }

    /// Its text now, up to `max_bytes` (more is cut), in one read.
    pub fn read_now(&self, max_bytes: usize) -> Option<Vec<u8>> {
        use std::os::unix::fs::FileExt;
        let mut buf = vec![0; max_bytes];
        let n = self.0.read_at(&mut buf, 0).ok()?;
        buf.truncate(n);
        Some(buf)
    }
}

/// Whether anything is at `path` (resolved as [`resolve`] does).
pub fn exists(path: &std::path::Path, what: &'static str) -> Result<bool, FileError> {
    let real = resolve(path, what)?;
    Ok(std::fs::symlink_metadata(real).is_ok())
}

/// The entries of a folder of the system's (`/proc`), by name.
pub fn system_folder(path: &std::path::Path) -> Vec<std::ffi::OsString> {
    std::fs::read_dir(path)
        .map(|entries| entries.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default()
}
