//! Reading, always bounded: a regular file only (a FIFO is refused, not
//! waited on), opened without following a link at its name, never more
//! than its kind's bound, and line by line never a line longer than the
//! kind's longest.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use rustix::fs::OFlags;

use super::path::{Place, describe, place};
use super::{FileError, Kind};

/// An open file of a kind, to be read within its bound.
pub struct Reader {
    file: File,
    len: u64,
    read: u64,
    kind: Kind,
    path: PathBuf,
}

/// Opens the file at `place` (a walked path) for reading: no link
/// followed, no wait on a FIFO, and only a regular file accepted.
/// `Ok(None)` when there is no file.
pub(super) fn open_real(
    place: &Place,
    shown: &Path,
    kind: Kind,
) -> Result<Option<File>, FileError> {
    let file = match place.open(OFlags::RDONLY | OFlags::NONBLOCK, 0) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(FileError::refused(
                kind.what,
                shown,
                "became a link while it was read",
            ));
        }
        Err(e) => return Err(FileError::io(kind.what, shown, "read", e)),
    };
    let meta = file
        .metadata()
        .map_err(|e| FileError::io(kind.what, shown, "examined", e))?;
    if !meta.is_file() {
        return Err(FileError::refused(
            kind.what,
            shown,
            format!("is {}, not a regular file", describe(&meta)),
        ));
    }
    Ok(Some(file))
}

/// Opens the file at `path` to read it: `Ok(None)` when there is none.
/// A file larger than its kind's bound is refused before anything is read.
pub fn open(path: &Path, kind: Kind) -> Result<Option<Reader>, FileError> {
    let place = place(path, kind.what)?;
    let Some(file) = open_real(&place, path, kind)? else {
        return Ok(None);
    };
    Reader::new(file, path, kind).map(Some)
}

impl Reader {
    pub(super) fn new(file: File, path: &Path, kind: Kind) -> Result<Reader, FileError> {
        let len = file
            .metadata()
            .map_err(|e| FileError::io(kind.what, path, "examined", e))?
            .len();
        if len > kind.max_bytes {
            return Err(FileError::refused(
                kind.what,
                path,
                format!(
                    "{len} bytes, more than a {} can hold ({}): not one",
                    kind.what, kind.max_bytes
                ),
            ));
        }
        Ok(Reader {
            file,
            len,
            read: 0,
            kind,
            path: path.to_path_buf(),
        })
    }

    /// The file's length when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads up to `n` more bytes (fewer at the end of the file), never
    /// past the kind's bound.
    pub fn read_up_to(&mut self, n: u64) -> Result<Vec<u8>, FileError> {
        let n = n.min(self.kind.max_bytes.saturating_sub(self.read));
        let mut out = Vec::with_capacity(n.min(self.len.saturating_sub(self.read)) as usize);
        (&self.file)
            .take(n)
            .read_to_end(&mut out)
            .map_err(|e| FileError::io(self.kind.what, &self.path, "read", e))?;
        self.read += out.len() as u64;
        Ok(out)
    }

    /// The rest of the file, line by line.
    pub fn lines(self) -> Lines {
        Lines::new(self.file, &self.path, self.kind)
    }
}

/// Reads the whole file at `path`: `Ok(None)` when there is none.
pub fn read(path: &Path, kind: Kind) -> Result<Option<Vec<u8>>, FileError> {
    let Some(mut reader) = open(path, kind)? else {
        return Ok(None);
    };
    // One byte past the bound: a file that grew since it was opened.
    let bytes = reader.read_up_to(kind.max_bytes)?;
    let mut more = [0u8; 1];
    if (&reader.file).read(&mut more).unwrap_or(0) > 0 {
        return Err(FileError::refused(
            kind.what,
            path,
            format!("more than a {} can hold: not one", kind.what),
        ));
    }
    Ok(Some(bytes))
}

/// The file at `path` line by line: `Ok(None)` when there is none.
pub fn lines(path: &Path, kind: Kind) -> Result<Option<Lines>, FileError> {
    Ok(open(path, kind)?.map(Reader::lines))
}

/// A line of a file.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, without its newline.
    Whole(Vec<u8>),
    /// The last line, with no newline: cut short by a crash, for a file
    /// that is appended to.
    Cut(Vec<u8>),
}

/// A file read line by line within its kind's bounds.
pub struct Lines {
    reader: BufReader<File>,
    path: PathBuf,
    kind: Kind,
    /// The most bytes to read in all (the kind's bound, or less once a
    /// header says what the file can hold).
    limit: u64,
    /// Bytes of the whole lines read so far.
    whole: u64,
    number: u64,
    buf: Vec<u8>,
}

impl Lines {
    pub(super) fn new(file: File, path: &Path, kind: Kind) -> Lines {
        Lines {
            reader: BufReader::new(file),
            path: path.to_path_buf(),
            kind,
            limit: kind.max_bytes,
            whole: 0,
            number: 0,
            buf: Vec::new(),
        }
    }

    /// Lowers the bound on the whole file (after a header said what the
    /// file can hold).
    pub fn limit_to(&mut self, bytes: u64) {
        self.limit = self.limit.min(bytes);
    }

    /// The number of the last line read, from 1.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// Bytes of the whole lines read so far: where a cut line starts.
    pub fn whole_bytes(&self) -> u64 {
        self.whole
    }

    /// The path, as the user gave it.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next line; `Ok(None)` at the end.
    pub fn next_line(&mut self) -> Result<Option<Line>, FileError> {
        self.buf.clear();
        self.number += 1;
        let max = self.kind.max_line as u64;
        let n = (&mut self.reader)
            .take(max + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| FileError::io(self.kind.what, &self.path, "read", e))?
            as u64;
        if n == 0 {
            return Ok(None);
        }
        let ended = self.buf.last() == Some(&b'\n');
        if !ended && n > max {
            return Err(FileError::refused(
                self.kind.what,
                &self.path,
                format!(
                    "line {}: longer than {max} bytes (not a {}?)",
                    self.number, self.kind.what
                ),
            ));
        }
        if self.whole + n > self.limit {
            return Err(FileError::refused(
                self.kind.what,
                &self.path,
                format!(
                    "more than {} bytes, more than a {} of its settings can hold",
                    self.limit, self.kind.what
                ),
            ));
        }
        if !ended {
            return Ok(Some(Line::Cut(std::mem::take(&mut self.buf))));
        }
        self.whole += n;
        self.buf.pop();
        Ok(Some(Line::Whole(std::mem::take(&mut self.buf))))
    }
}

/// See [`super::read_system`].
pub(super) fn read_system(path: &Path, max_bytes: u64) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    open_system(path)?
        .take(max_bytes)
        .read_to_end(&mut out)
        .ok()?;
    Some(out)
}

/// A file of the system's opened as [`read_system`] opens it.
pub(super) fn open_system(path: &Path) -> Option<File> {
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: Kind = Kind {
        what: "test file",
        max_bytes: 100,
        max_line: 10,
        ours: super::super::Ours::Never,
    };

    #[test]
    fn a_system_file_kept_open_is_read_afresh_each_time() {
        // /proc/self/stat of this process: its CPU time grows between two
        // reads of the one open file, and a read is cut at its bound.
        let stat = super::super::SystemFile::open(Path::new("/proc/self/stat")).unwrap();
        let ticks = |text: Vec<u8>| {
            let text = String::from_utf8(text).unwrap();
            let after = text.rsplit_once(')').unwrap().1.to_string();
            let fields: Vec<u64> = after
                .split_whitespace()
                .skip(11)
                .take(2)
                .map(|f| f.parse().unwrap())
                .collect();
            fields.iter().sum::<u64>()
        };
        let before = ticks(stat.read_now(4096).unwrap());
        // Reading costs CPU: within a few million reads (a tick is 10 ms
        // of CPU) the count the same open file gives must have moved.
        let moved = (0..5_000_000).any(|_| ticks(stat.read_now(4096).unwrap()) > before);
        assert!(moved, "the file gave the same text every time");
        assert_eq!(stat.read_now(5).unwrap().len(), 5);
    }

    #[test]
    fn lines_are_bounded_and_a_last_line_without_newline_is_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "one\ntwo\nthr").unwrap();
        let mut lines = lines(&path, TEXT).unwrap().unwrap();
        assert_eq!(
            lines.next_line().unwrap(),
            Some(Line::Whole(b"one".to_vec()))
        );
        assert_eq!(
            lines.next_line().unwrap(),
            Some(Line::Whole(b"two".to_vec()))
        );
        assert_eq!(lines.whole_bytes(), 8);
        assert_eq!(lines.next_line().unwrap(), Some(Line::Cut(b"thr".to_vec())));
        assert_eq!(lines.next_line().unwrap(), None);
        std::fs::write(&path, "0123456789\n").unwrap();
        assert!(lines_of(&path).is_ok());
        for long in ["0123456789a\n", "0123456789ab"] {
            std::fs::write(&path, long).unwrap();
            assert!(lines_of(&path).unwrap_err().problem.contains("longer"));
        }
        // More than the kind can hold: refused before a byte is read.
        std::fs::write(&path, "x\n".repeat(51)).unwrap();
        assert!(read(&path, TEXT).unwrap_err().problem.contains("more than"));
        assert!(read(&dir.path().join("none"), TEXT).unwrap().is_none());
    }

    fn lines_of(path: &Path) -> Result<Vec<Line>, FileError> {
        let mut lines = lines(path, TEXT)?.unwrap();
        let mut out = Vec::new();
        while let Some(line) = lines.next_line()? {
            out.push(line);
        }
        Ok(out)
    }

    #[test]
    fn fifos_devices_and_folders_are_refused_without_waiting() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (path, what) in [
            (fifo.as_path(), "a FIFO"),
            (Path::new("/dev/zero"), "a character device"),
            (dir.path(), "a folder"),
        ] {
            let err = read(path, TEXT).err().unwrap();
            assert!(err.problem.contains(what), "{err}");
        }
    }
}
