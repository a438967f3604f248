//! Writing: a new file, an atomic replace, or an append under a lock.
//! Nothing is ever truncated in place, and a file kxo-tui did not make is
//! never written over.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, FileType, OFlags, RenameFlags};

use super::path::{Place, describe, open_in, place};
use super::read::{Lines, open_real};
use super::{FileError, Kind, euid};

/// `KXO_FAULT_FULL_DISK=N`: every write after the first N bytes (in the
/// whole process) fails as on a full disk. For the tests of machines
/// where no small tmpfs can be mounted; unset, it costs one atomic load.
fn disk_room() -> &'static AtomicU64 {
    static ROOM: OnceLock<AtomicU64> = OnceLock::new();
    ROOM.get_or_init(|| {
        let room = std::env::var("KXO_FAULT_FULL_DISK")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(u64::MAX);
        AtomicU64::new(room)
    })
}

/// Writes `bytes` whole, or fails (as the disk would when it is full).
fn write_all(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    let room = disk_room();
    let left = room.load(Ordering::Relaxed);
    if left != u64::MAX {
        if left < bytes.len() as u64 {
            room.store(0, Ordering::Relaxed);
            file.write_all(&bytes[..left as usize])?;
            return Err(io::Error::from_raw_os_error(libc::ENOSPC));
        }
        room.fetch_sub(bytes.len() as u64, Ordering::Relaxed);
    }
    file.write_all(bytes)
}

/// What stands at a place now: nothing, or a regular file (its length and
/// owner, and whether it starts with the kind's header).
struct Existing {
    len: u64,
    uid: u32,
    ours: bool,
}

fn existing(place: &Place, shown: &Path, kind: Kind) -> Result<Option<Existing>, FileError> {
    let Some(file) = open_real(place, shown, kind)? else {
        return Ok(None);
    };
    let meta = file
        .metadata()
        .map_err(|e| FileError::io(kind.what, shown, "examined", e))?;
    Ok(Some(Existing {
        len: meta.len(),
        uid: meta.uid(),
        ours: kind.made_by_us(&file),
    }))
}

/// Refuses to write over a file kxo-tui did not make: one that is not
/// empty and does not start with the kind's header.
fn check_ours(found: &Existing, shown: &Path, kind: Kind) -> Result<(), FileError> {
    if found.len == 0 || found.ours {
        return Ok(());
    }
    Err(FileError::refused(
        kind.what,
        shown,
        format!(
            "it exists and is not a kxo-tui {} (it lacks the header kxo-tui writes): not \
             overwritten; name another file",
            kind.what
        ),
    ))
}

/// A temporary file in a folder held open, removed when dropped unless it
/// was put in place.
struct TempFile {
    folder: OwnedFd,
    name: OsString,
    placed: bool,
}

impl TempFile {
    /// Renames the file over `name` (replacing what is there).
    fn rename_over(mut self, name: &OsStr) -> io::Result<()> {
        rustix::fs::renameat(&self.folder, self.name.as_os_str(), &self.folder, name)?;
        self.placed = true;
        Ok(())
    }

    /// Gives the file the name `name`, failing with `AlreadyExists` when
    /// something has it (nothing is replaced).
    fn place_new(mut self, name: &OsStr) -> io::Result<()> {
        let (folder, temp) = (&self.folder, self.name.as_os_str());
        match rustix::fs::renameat_with(folder, temp, folder, name, RenameFlags::NOREPLACE) {
            Ok(()) => {}
            // A file system without the flag: a second link, then the
            // temporary name removed.
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {
                rustix::fs::linkat(folder, temp, folder, name, AtFlags::empty())?;
                let _ = rustix::fs::unlinkat(folder, temp, AtFlags::empty());
            }
            Err(e) => return Err(e.into()),
        }
        self.placed = true;
        Ok(())
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.placed {
            let _ = rustix::fs::unlinkat(&self.folder, self.name.as_os_str(), AtFlags::empty());
        }
    }
}

/// A file written beside its name and synced, not yet in place. Dropped
/// without [`commit`](Staged::commit), the temporary file is removed.
pub struct Staged {
    temp: TempFile,
    place: Place,
    path: PathBuf,
    kind: Kind,
}

impl Staged {
    /// Puts the new file in place (an atomic rename) and syncs the folder.
    pub fn commit(self) -> Result<(), FileError> {
        let Staged {
            temp,
            place,
            path,
            kind,
        } = self;
        // Checked again: a file may have been put at the name meanwhile.
        if let Some(found) = existing(&place, &path, kind)? {
            check_ours(&found, &path, kind)?;
        }
        temp.rename_over(&place.name)
            .map_err(|e| FileError::io(kind.what, &path, "replaced", e))?;
        place.sync_folder();
        Ok(())
    }
}

/// The start of the names of a file's temporary files.
fn temp_prefix(name: &OsStr) -> String {
    format!(".{}.tmp-", name.to_string_lossy())
}

/// Whether process `pid` runs (or is another user's: it exists).
fn process_alive(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 sends nothing; it only asks.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Removes temporary files of this file that a killed write left: ours
/// only (never another user's), never through a link, and never one a
/// live process is writing (its name carries the writer's pid: two runs
/// on one records folder or checkpoint leave each other's alone).
fn remove_stray_temps(place: &Place) {
    let prefix = temp_prefix(&place.name);
    let Ok(entries) = rustix::fs::Dir::read_from(&place.folder) else {
        return;
    };
    for entry in entries.flatten() {
        let name = OsStr::from_bytes(entry.file_name().to_bytes());
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        let writer = rest
            .split_once('-')
            .and_then(|(pid, _)| pid.parse::<i32>().ok());
        if writer.is_some_and(process_alive) {
            continue;
        }
        // Judged (and removed) as itself: a link is not followed.
        if let Ok(stat) = rustix::fs::statat(&place.folder, name, AtFlags::SYMLINK_NOFOLLOW)
            && stat.st_uid == euid()
            && matches!(
                FileType::from_raw_mode(stat.st_mode),
                FileType::RegularFile | FileType::Symlink
            )
        {
            let _ = rustix::fs::unlinkat(&place.folder, name, AtFlags::empty());
        }
    }
}

/// Twelve letters or digits no one can guess.
fn random_tag() -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    (0..12)
        .map(|_| LETTERS[rand::random_range(0..LETTERS.len())] as char)
        .collect()
}

/// A temporary file with an unpredictable name, created exclusively (a
/// planted file or link is never reused) in the place's folder, holding
/// `bytes`, synced.
fn temp_beside(
    place: &Place,
    shown: &Path,
    kind: Kind,
    bytes: &[u8],
) -> Result<TempFile, FileError> {
    let failed = |e| FileError::io(kind.what, shown, "written", e);
    remove_stray_temps(place);
    let folder = place.folder.try_clone().map_err(failed)?;
    let prefix = format!("{}{}-", temp_prefix(&place.name), std::process::id());
    let mut tries = 0;
    let (name, mut file) = loop {
        let name = OsString::from(format!("{prefix}{}", random_tag()));
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL;
        match open_in(&folder, &name, flags, 0o644) {
            Ok(file) => break (name, file),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
            Err(e) => return Err(failed(e)),
        }
    };
    // On an error the temporary file is removed as `temp` drops.
    let temp = TempFile {
        folder,
        name,
        placed: false,
    };
    write_all(&mut file, bytes)
        .and_then(|()| file.sync_all())
        .map_err(failed)?;
    Ok(temp)
}

/// Writes `bytes` beside the file at `path` and syncs them, without
/// replacing it yet; refuses a file there that kxo-tui did not make.
pub fn stage(path: &Path, kind: Kind, bytes: &[u8]) -> Result<Staged, FileError> {
    let place = place(path, kind.what)?;
    if let Some(found) = existing(&place, path, kind)? {
        check_ours(&found, path, kind)?;
    }
    let temp = temp_beside(&place, path, kind, bytes)?;
    Ok(Staged {
        temp,
        place,
        path: path.to_path_buf(),
        kind,
    })
}

/// Whether [`replace`] could write `path` now: its folders there, a file
/// of ours (or none) at it, a file creatable beside it. For a command
/// that writes only after long work, so that a wrong path fails first.
pub fn check_replace(path: &Path, kind: Kind) -> Result<(), FileError> {
    stage(path, kind, b"").map(drop)
}

/// Replaces the file at `path` with `bytes`, atomically: a crash leaves
/// the old file or the new one. Refuses a file kxo-tui did not make.
pub fn replace(path: &Path, kind: Kind, bytes: &[u8]) -> Result<(), FileError> {
    stage(path, kind, bytes)?.commit()
}

/// Writes a new file at `path`, whole or not at all: `Ok(false)` when a
/// file that is not empty is already there (it is kept as it is). An
/// empty one of ours (a write a full disk cut short) is replaced.
pub fn write_new(path: &Path, kind: Kind, bytes: &[u8]) -> Result<bool, FileError> {
    let place = place(path, kind.what)?;
    let found = existing(&place, path, kind)?;
    match found {
        Some(f) if f.len > 0 => return Ok(false),
        Some(f) if f.uid != euid() => {
            return Err(FileError::refused(
                kind.what,
                path,
                format!(
                    "an empty file of another user (uid {}) is there: not overwritten",
                    f.uid
                ),
            ));
        }
        _ => {}
    }
    let temp = temp_beside(&place, path, kind, bytes)?;
    let placed = match found {
        Some(_) => temp.rename_over(&place.name),
        None => temp.place_new(&place.name),
    };
    match placed {
        Ok(()) => {}
        // Someone made it meanwhile: theirs stays.
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(false),
        Err(e) => return Err(FileError::io(kind.what, path, "written", e)),
    }
    place.sync_folder();
    Ok(true)
}

/// An advisory lock held while this process may write a file; released
/// when dropped (or when the process ends, however it ends).
#[derive(Debug)]
pub struct FileLock {
    _file: File,
}

/// Takes the lock beside the file `path` names (`NAME.lock` beside its
/// real path, so a file reached through a link and through its real name
/// is one lock): `Ok(None)` when another process holds it. For files that
/// are replaced by a rename, which cannot carry a lock themselves.
pub fn lock_beside(path: &Path, kind: Kind) -> Result<Option<FileLock>, FileError> {
    let place = place(path, kind.what)?;
    let mut name = place.name.clone();
    name.push(".lock");
    let shown_lock = kxo_engine::text::shown_path(&place.real.with_file_name(&name));
    let flags = OFlags::CREATE | OFlags::RDWR | OFlags::NONBLOCK;
    let file = open_in(&place.folder, &name, flags, 0o600).map_err(|e| {
        let why = if e.raw_os_error() == Some(libc::ELOOP) {
            "is a link: not followed".to_string()
        } else {
            format!("cannot be opened: {e}")
        };
        FileError::refused(kind.what, path, format!("its lock file {shown_lock} {why}"))
    })?;
    match file.metadata() {
        Ok(meta) if meta.is_file() => {}
        Ok(meta) => {
            return Err(FileError::refused(
                kind.what,
                path,
                format!(
                    "its lock file {shown_lock} is {}, not a lock file",
                    describe(&meta)
                ),
            ));
        }
        Err(e) => return Err(FileError::io(kind.what, path, "locked", e)),
    }
    match file.try_lock() {
        Ok(()) => Ok(Some(FileLock { _file: file })),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(FileError::io(kind.what, path, "locked", e)),
    }
}

/// A file appended to line by line (the arena's state), under an exclusive
/// lock held as long as this value lives.
pub struct Appender {
    file: File,
    path: PathBuf,
    kind: Kind,
}

impl Appender {
    /// Opens `path` to append to it. A new (or empty) file gets `header`
    /// as its first line, and `Ok((appender, None))`; an existing one must
    /// start with the kind's header, and comes back to be read line by
    /// line from its start. Refused when another process has it open for
    /// appending.
    pub fn open(
        path: &Path,
        kind: Kind,
        header: &[u8],
    ) -> Result<(Appender, Option<Lines>), FileError> {
        let place = place(path, kind.what)?;
        let flags = OFlags::RDWR | OFlags::APPEND | OFlags::CREATE | OFlags::NONBLOCK;
        let file = place
            .open(flags, 0o644)
            .map_err(|e| match e.raw_os_error() {
                Some(libc::ELOOP) => FileError::refused(kind.what, path, "is a link: not followed"),
                Some(libc::ENXIO) => {
                    FileError::refused(kind.what, path, "is a FIFO, not a regular file")
                }
                _ => FileError::io(kind.what, path, "opened", e),
            })?;
        let meta = file
            .metadata()
            .map_err(|e| FileError::io(kind.what, path, "examined", e))?;
        if !meta.is_file() {
            return Err(FileError::refused(
                kind.what,
                path,
                format!("is {}, not a regular file", describe(&meta)),
            ));
        }
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(FileError::refused(
                    kind.what,
                    path,
                    "is in use by another kxo-tui run: wait for it to end, or name another file",
                ));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(FileError::io(kind.what, path, "locked", e));
            }
        }
        let mut appender = Appender {
            file,
            path: path.to_path_buf(),
            kind,
        };
        if meta.len() == 0 {
            appender.append(header)?;
            place.sync_folder();
            return Ok((appender, None));
        }
        if !kind.made_by_us(&appender.file) {
            return Err(FileError::refused(
                kind.what,
                path,
                format!(
                    "it is not a kxo-tui {} (it lacks the header kxo-tui writes): not \
                     overwritten; name another file",
                    kind.what
                ),
            ));
        }
        let reading = appender
            .file
            .try_clone()
            .map_err(|e| FileError::io(kind.what, path, "read", e))?;
        let lines = super::read::Reader::new(reading, path, kind)?.lines();
        Ok((appender, Some(lines)))
    }

    /// Drops a last line that a crash cut short (everything after the
    /// first `whole` bytes), so the next line starts on a line of its own.
    /// The only shortening the gate does: of a file it verified as its
    /// own, under its lock, and only of a line no run finished.
    pub fn drop_cut_line(&mut self, whole: u64) -> Result<(), FileError> {
        let len = self
            .file
            .metadata()
            .map_err(|e| FileError::io(self.kind.what, &self.path, "examined", e))?
            .len();
        if len > whole {
            self.file
                .set_len(whole)
                .and_then(|()| self.file.sync_data())
                .map_err(|e| FileError::io(self.kind.what, &self.path, "repaired", e))?;
        }
        Ok(())
    }

    /// Appends one line (`line` has no newline) and syncs it to disk. A
    /// write that fails (a full disk) is taken back whole: the file keeps
    /// ending with a whole line.
    pub fn append(&mut self, line: &[u8]) -> Result<(), FileError> {
        let mut whole = Vec::with_capacity(line.len() + 1);
        whole.extend_from_slice(line);
        whole.push(b'\n');
        let before = self.file.metadata().map(|m| m.len());
        write_all(&mut self.file, &whole)
            .and_then(|()| self.file.sync_data())
            .map_err(|e| {
                if let Ok(len) = before {
                    let _ = self.file.set_len(len);
                }
                FileError::io(self.kind.what, &self.path, "written", e)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OURS: Kind = Kind {
        what: "test file",
        max_bytes: 1 << 20,
        max_line: 1 << 10,
        ours: super::super::Ours::Prefix(b"KXO"),
    };

    #[test]
    fn replace_writes_over_our_files_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        replace(&path, OURS, b"KXO one").unwrap();
        replace(&path, OURS, b"KXO two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"KXO two");
        std::fs::write(&path, "notes").unwrap();
        let err = replace(&path, OURS, b"KXO three").unwrap_err();
        assert!(err.problem.contains("not overwritten"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"notes");
        // An empty file loses nothing.
        std::fs::write(&path, "").unwrap();
        replace(&path, OURS, b"KXO four").unwrap();
        // No temporary file is left.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_live_writers_temp_stays_and_a_dead_ones_goes() {
        // Two runs on one folder: a temp file of a process that still runs
        // is its write in flight; one of a process that ended is a stray.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        let mut ended = std::process::Command::new("true").spawn().unwrap();
        let dead = ended.id();
        ended.wait().unwrap();
        let mut running = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let live = dir.path().join(format!(".f.tmp-{}-abc", running.id()));
        let stray = dir.path().join(format!(".f.tmp-{dead}-abc"));
        let old_style = dir.path().join(".f.tmp-abcdef");
        for temp in [&live, &stray, &old_style] {
            std::fs::write(temp, "KXO half").unwrap();
        }
        replace(&path, OURS, b"KXO one").unwrap();
        assert!(live.exists(), "a live writer's temp was removed");
        assert!(!stray.exists() && !old_style.exists());
        let _ = running.kill();
        let _ = running.wait();
    }

    #[test]
    fn write_new_keeps_what_is_there() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g");
        assert!(write_new(&path, OURS, b"KXO first").unwrap());
        assert!(!write_new(&path, OURS, b"KXO second").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"KXO first");
        std::fs::write(&path, "").unwrap();
        assert!(write_new(&path, OURS, b"KXO third").unwrap());
        assert_eq!(std::fs::read(&path).unwrap(), b"KXO third");
    }

    #[test]
    fn an_appended_file_is_locked_checked_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state");
        let (mut a, old) = Appender::open(&path, OURS, b"KXO header").unwrap();
        assert!(old.is_none());
        a.append(b"line 1").unwrap();
        // A second run on the same file is refused while the first holds it.
        let err = Appender::open(&path, OURS, b"KXO header").err().unwrap();
        assert!(err.problem.contains("in use"), "{err}");
        drop(a);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"cut")
            .unwrap();
        let (mut a, old) = Appender::open(&path, OURS, b"KXO header").unwrap();
        let mut old = old.unwrap();
        let mut whole = Vec::new();
        while let Some(super::super::Line::Whole(l)) = old.next_line().unwrap() {
            whole.push(String::from_utf8(l).unwrap());
        }
        assert_eq!(whole, ["KXO header", "line 1"]);
        a.drop_cut_line(old.whole_bytes()).unwrap();
        a.append(b"line 2").unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "KXO header\nline 1\nline 2\n"
        );
        // Someone else's file is never appended to.
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "notes").unwrap();
        assert!(Appender::open(&notes, OURS, b"KXO header").is_err());
        assert_eq!(std::fs::read(&notes).unwrap(), b"notes");
    }
}
