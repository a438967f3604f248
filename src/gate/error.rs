//! Why a file was refused or could not be written: always naming the file.

use std::fmt;
use std::path::{Path, PathBuf};

/// Whose fault: the path the user gave (exit status 2), or the machine
/// (a full disk, an I/O error: exit status 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The path cannot be used as it is: a link not followed, a FIFO, a
    /// file of another program or format, one in use by another run.
    Refused,
    /// Reading or writing failed.
    Io,
}

/// A file the gate refused, or an operation on it that failed.
#[derive(Debug)]
pub struct FileError {
    /// "state file", "model file"…
    pub what: &'static str,
    pub path: PathBuf,
    pub problem: String,
    pub cause: Cause,
}

impl FileError {
    pub(crate) fn refused(what: &'static str, path: &Path, problem: impl Into<String>) -> Self {
        FileError {
            what,
            path: path.to_path_buf(),
            problem: problem.into(),
            cause: Cause::Refused,
        }
    }

    pub fn io(what: &'static str, path: &Path, doing: &str, e: std::io::Error) -> Self {
        FileError {
            what,
            path: path.to_path_buf(),
            problem: format!("cannot be {doing}: {e}"),
            cause: Cause::Io,
        }
    }

    /// Whether the user's path is at fault (an input error, exit status 2).
    pub fn is_refusal(&self) -> bool {
        self.cause == Cause::Refused
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.what,
            kxo_engine::text::shown_path(&self.path),
            self.problem
        )
    }
}

impl std::error::Error for FileError {}
