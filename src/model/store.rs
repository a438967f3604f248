//! Model files on disk, treated as hostile: the path may be a link someone
//! planted, a device, a FIFO or a huge sparse file; the folder may be one
//! other users can write.
//!
//! - A path is resolved once ([`resolve`]): a link is followed only where
//!   the kernel's `protected_symlinks` rule would follow it (not a link
//!   another user owns in a sticky, world-writable folder), and what it
//!   names must be a regular file or nothing yet.
//! - Reading opens without following links and without blocking, checks
//!   the type with `fstat`, reads the header first and refuses a count that
//!   does not fit the board or the file's length: nothing is read past the
//!   size the header promises.
//! - Saving writes a temporary file with an unpredictable name, created
//!   exclusively (a planted file or link is never reused), syncs it,
//!   renames it over the model and syncs the folder; a crash at any moment
//!   leaves the old model or the new one, never a broken one. The
//!   temporary file goes on every error path, and ones that a killed save
//!   left are removed by the next save.
//! - The lock file is opened without following links and must be a
//!   regular file; it sits beside the model's real path, so one model
//!   reached through a link and through its real name is one lock.

use std::fs::{self, File, Permissions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::format::{HEADER, ModelError, decode, encode, read_header, refuse};
use crate::ai::rl::ValueTable;
use crate::game::Rules;

/// The default model file for these rules, under the user's data folder
/// (e.g. `~/.local/share/kxo-tui/rl-4x4-k3.model` on Linux).
pub fn default_path(rules: Rules) -> Result<PathBuf, ModelError> {
    let name = format!("rl-{n}x{n}-k{k}.model", n = rules.size(), k = rules.goal());
    directories::ProjectDirs::from("", "", "kxo-tui")
        .map(|dirs| dirs.data_dir().join(&name))
        .ok_or_else(|| {
            refuse(
                Path::new(&name),
                "no home folder to keep it in: pass --model PATH",
            )
        })
}

/// Links followed at most, as the kernel's own limit for a path.
const MAX_LINKS: usize = 40;

fn euid() -> u32 {
    // SAFETY: geteuid(2) cannot fail.
    unsafe { libc::geteuid() }
}

/// The real file a model path names: its folder made absolute with the
/// links in it followed, and a link at the file's own name followed when
/// it is safe to (see the module's comment). The file itself need not
/// exist yet; when it does, it must be a regular file.
pub fn resolve(path: &Path) -> Result<PathBuf, ModelError> {
    let mut current = absolute_folder(path)?;
    for _ in 0..MAX_LINKS {
        let meta = match fs::symlink_metadata(&current) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(e) => return Err(refuse(path, format!("cannot be examined: {e}"))),
        };
        let kind = meta.file_type();
        if kind.is_file() {
            return Ok(current);
        }
        if !kind.is_symlink() {
            return Err(refuse(path, not_a_file(&meta)));
        }
        let folder = current.parent().unwrap_or(Path::new("/")).to_path_buf();
        if !may_follow(&meta, &folder) {
            return Err(refuse(
                path,
                format!(
                    "{} is a link owned by another user (uid {}) in a folder others can write: not followed",
                    crate::text::shown_path(&current),
                    meta.uid()
                ),
            ));
        }
        let target = fs::read_link(&current)
            .map_err(|e| refuse(path, format!("its link cannot be read: {e}")))?;
        current = absolute_folder(&folder.join(target))?;
    }
    Err(refuse(path, "too many links"))
}

/// `path` with its folder made absolute and canonical (the folder must
/// exist), the file name kept as it is.
fn absolute_folder(path: &Path) -> Result<PathBuf, ModelError> {
    let name = path
        .file_name()
        .ok_or_else(|| refuse(path, "names a folder, not a file"))?;
    let folder = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let folder = fs::canonicalize(folder).map_err(|e| {
        refuse(
            path,
            format!(
                "its folder {} cannot be used: {e}",
                crate::text::shown_path(folder)
            ),
        )
    })?;
    Ok(folder.join(name))
}

/// The kernel's `protected_symlinks` rule: in a sticky folder anyone can
/// write, follow a link only when we or the folder's owner made it.
fn may_follow(link: &fs::Metadata, folder: &Path) -> bool {
    let Ok(dir) = fs::metadata(folder) else {
        return false;
    };
    let shared = dir.mode() & 0o1002 == 0o1002;
    !shared || link.uid() == euid() || link.uid() == dir.uid()
}

fn not_a_file(meta: &fs::Metadata) -> String {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    let what = if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    };
    format!("is {what}, not a model file")
}

/// Opens `real` (a resolved path) for reading: no link followed, no wait
/// on a FIFO, and only a regular file accepted.
fn open_regular(real: &Path, shown_as: &Path) -> Result<Option<(File, u64)>, ModelError> {
    let file = match fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(real)
    {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(refuse(shown_as, "became a link while it was read"));
        }
        Err(e) => return Err(refuse(shown_as, format!("cannot be read: {e}"))),
    };
    let meta = file
        .metadata()
        .map_err(|e| refuse(shown_as, format!("cannot be examined: {e}")))?;
    if !meta.is_file() {
        return Err(refuse(shown_as, not_a_file(&meta)));
    }
    Ok(Some((file, meta.len())))
}

/// Loads the model at `path`; a missing file gives `Ok(None)`.
pub fn load(path: &Path, rules: Rules) -> Result<Option<ValueTable>, ModelError> {
    let real = resolve(path)?;
    let Some((file, len)) = open_regular(&real, path)? else {
        return Ok(None);
    };
    // The header first, then no more than it promises.
    let mut start = Vec::with_capacity(HEADER + 4);
    let read_err = |e: io::Error| refuse(path, format!("cannot be read: {e}"));
    (&file)
        .take((HEADER + 4) as u64)
        .read_to_end(&mut start)
        .map_err(read_err)?;
    let header = read_header(&start, len, path)?;
    let whole = header.file_len().unwrap_or(0);
    let mut bytes = start;
    bytes.reserve_exact(whole.saturating_sub(bytes.len()));
    (&file)
        .take((whole - bytes.len().min(whole)) as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(read_err)?;
    decode(&bytes, rules, path).map(Some)
}

/// An advisory lock on a model file, held by the one process that may save
/// it: two processes learning into one model would otherwise each save
/// over the other, and one's learning would be lost without a word.
#[derive(Debug)]
pub struct ModelLock {
    _file: File,
}

/// The lock file of a model whose real path is `real` (the model itself is
/// replaced by a rename on every save, so it cannot carry the lock).
pub fn lock_path(real: &Path) -> PathBuf {
    let mut name = real
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".lock");
    real.with_file_name(name)
}

/// Takes the lock of the model at `path` (by its real path): `Ok(None)`
/// when another process holds it. Released when the returned value is
/// dropped (or the process ends, however it ends). Refuses a path that is
/// not a model file, and a lock file that is a link or not a regular file.
pub fn lock(path: &Path) -> Result<Option<ModelLock>, ModelError> {
    make_folder(path)?;
    let real = resolve(path)?;
    let lock = lock_path(&real);
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(&lock)
        .map_err(|e| {
            let why = if e.raw_os_error() == Some(libc::ELOOP) {
                "is a link: not followed".to_string()
            } else {
                format!("cannot be opened: {e}")
            };
            refuse(
                path,
                format!("its lock file {} {why}", crate::text::shown_path(&lock)),
            )
        })?;
    match file.metadata() {
        Ok(meta) if meta.is_file() => {}
        Ok(meta) => {
            return Err(refuse(
                path,
                format!(
                    "its lock file {} {}",
                    crate::text::shown_path(&lock),
                    not_a_file(&meta)
                ),
            ));
        }
        Err(e) => {
            return Err(refuse(
                path,
                format!("its lock file cannot be examined: {e}"),
            ));
        }
    }
    match file.try_lock() {
        Ok(()) => Ok(Some(ModelLock { _file: file })),
        Err(fs::TryLockError::WouldBlock) => Ok(None),
        Err(fs::TryLockError::Error(e)) => Err(refuse(path, format!("cannot be locked: {e}"))),
    }
}

/// A model written to a temporary file, not yet in place. Dropped without
/// [`commit`](Staged::commit), the temporary file is removed.
pub struct Staged {
    temp: tempfile::NamedTempFile,
    real: PathBuf,
    path: PathBuf,
}

impl Staged {
    /// Puts the new model in place (atomic rename) and syncs the folder.
    pub fn commit(self) -> Result<(), ModelError> {
        let Staged { temp, real, path } = self;
        temp.persist(&real)
            .map_err(|e| refuse(&path, format!("cannot be replaced: {}", e.error)))?;
        if let Some(dir) = real.parent()
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// The start of the names of a model's temporary files.
fn temp_prefix(real: &Path) -> String {
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into());
    format!(".{name}.tmp-")
}

/// Removes temporary files of this model that a killed save left: ours
/// only (never another user's), and never through a link.
fn remove_stray_temps(real: &Path) {
    let (Some(dir), prefix) = (real.parent(), temp_prefix(real)) else {
        return;
    };
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with(&prefix) {
            continue;
        }
        // symlink_metadata: a link is judged (and removed) as itself.
        if let Ok(meta) = fs::symlink_metadata(entry.path())
            && meta.uid() == euid()
            && (meta.is_file() || meta.file_type().is_symlink())
        {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Writes `table` next to the model at `path` and syncs it, without
/// replacing the model. The folder is made if it does not exist.
pub fn stage(table: &ValueTable, path: &Path) -> Result<Staged, ModelError> {
    make_folder(path)?;
    let real = resolve(path)?;
    let dir = real.parent().unwrap_or(Path::new("/"));
    remove_stray_temps(&real);
    let mut temp = tempfile::Builder::new()
        .prefix(&temp_prefix(&real))
        .rand_bytes(12)
        .permissions(Permissions::from_mode(0o644))
        .tempfile_in(dir)
        .map_err(|e| refuse(path, format!("cannot be written: {e}")))?;
    // On an error the temporary file is removed as `temp` drops.
    temp.write_all(&encode(table))
        .and_then(|_| temp.as_file().sync_all())
        .map_err(|e| refuse(path, format!("cannot be written: {e}")))?;
    Ok(Staged {
        temp,
        real,
        path: path.to_path_buf(),
    })
}

/// Makes the model's folder if it does not exist yet (the default one, on
/// first use; the command line refuses a folder the user named that does
/// not exist).
fn make_folder(path: &Path) -> Result<(), ModelError> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => fs::create_dir_all(dir)
            .map_err(|e| refuse(path, format!("its folder cannot be made: {e}"))),
        None => Ok(()),
    }
}

/// Saves `table` to `path` atomically.
pub fn save(table: &ValueTable, path: &Path) -> Result<(), ModelError> {
    stage(table, path)?.commit()
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::rl::Init;
    use crate::game::{Cell, GameRecord};

    fn trained(rules: Rules) -> ValueTable {
        let mut t = ValueTable::new(rules);
        for moves in ["B2,C3,A1,D4,B1", "A1,B1,C1,D1,A2,B2,C2"] {
            let mut r = GameRecord::new(rules);
            r.moves = Cell::parse_list(moves, rules.size()).unwrap();
            t.learn(&r, crate::ai::rl::ALPHA);
        }
        t
    }

    #[test]
    fn save_then_load_gives_back_the_same_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/m.model");
        let rules = Rules::default_rules();
        let t = trained(rules);
        save(&t, &path).unwrap();
        let back = load(&path, rules).unwrap().unwrap();
        assert_eq!(back.entries(), t.entries());
        assert_eq!(back.games, t.games);
        assert!(load(&dir.path().join("absent"), rules).unwrap().is_none());
    }

    /// `bytes` with its checksum made right again (a forged file).
    fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
        bytes.truncate(bytes.len() - 4);
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    #[test]
    fn a_forged_model_of_line_patterns_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::new(15, 5).unwrap();
        let mut t = ValueTable::with_init(rules, Init::Network);
        let mut r = GameRecord::new(rules);
        r.moves = Cell::parse_list("H8,H9,I8,I9,J8,J9,K8,K9,L8", 15).unwrap();
        t.learn(&r, crate::ai::rl::ALPHA);
        let good = encode(&t);
        let path = dir.path().join("m.model");
        std::fs::write(&path, &good).unwrap();
        assert_eq!(load(&path, rules).unwrap().unwrap().entries(), t.entries());
        fn entry(i: usize) -> usize {
            super::super::format::HEADER + i * 20
        }
        type Forge = fn(&mut Vec<u8>);
        let forgeries: [(&str, Forge); 4] = [
            // A 15x15 model claiming to be a table of positions.
            ("a table", |b: &mut Vec<u8>| b[10] = 0),
            // A pattern number beyond 3^5.
            ("beyond", |b: &mut Vec<u8>| b[entry(0)] = 250),
            // A pattern stored under its backward reading (kept once).
            ("backward", |b: &mut Vec<u8>| {
                // 1 (a stone on the last cell) read backwards is 81.
                b[entry(0)..entry(0) + 16].copy_from_slice(&81u128.to_le_bytes());
            }),
            // A weight that is not a number.
            ("nan", |b: &mut Vec<u8>| {
                b[entry(0) + 16..entry(0) + 20].copy_from_slice(&f32::NAN.to_le_bytes());
            }),
        ];
        for (what, forge) in forgeries {
            let mut bytes = good.clone();
            forge(&mut bytes);
            std::fs::write(&path, resealed(bytes)).unwrap();
            let err = load(&path, rules).expect_err(what);
            assert!(err.to_string().contains("corrupt"), "{what}: {err}");
        }
    }

    #[test]
    fn one_process_at_a_time_holds_a_model() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.model");
        let first = lock(&path).unwrap();
        assert!(first.is_some());
        // A second holder (another open file description, as another
        // process would have) is refused while the first holds it.
        assert!(lock(&path).unwrap().is_none());
        drop(first);
        assert!(lock(&path).unwrap().is_some());
        assert_eq!(lock_path(&path), dir.path().join("m.model.lock"));
    }

    #[test]
    fn the_start_is_kept_and_version_1_files_still_load() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::default_rules();
        let mut zero = ValueTable::with_init(rules, Init::Zero);
        let path = dir.path().join("zero.model");
        save(&zero, &path).unwrap();
        assert_eq!(load(&path, rules).unwrap().unwrap().init(), Init::Zero);
        assert_eq!(load(&path, rules).unwrap().unwrap().accuracy, None);
        zero.accuracy = Some(0.987);
        save(&zero, &path).unwrap();
        assert_eq!(load(&path, rules).unwrap().unwrap().accuracy, Some(0.987));
        // A version 1 file: no start byte; it started from the heuristic.
        let t = trained(rules);
        let mut v1 = encode(&t);
        v1.truncate(v1.len() - 4);
        v1.drain(10..15);
        v1[6..8].copy_from_slice(&1u16.to_le_bytes());
        let crc = crc32fast::hash(&v1);
        v1.extend_from_slice(&crc.to_le_bytes());
        let old = dir.path().join("v1.model");
        fs::write(&old, &v1).unwrap();
        let back = load(&old, rules).unwrap().unwrap();
        assert_eq!(back.init(), Init::Heuristic);
        assert_eq!(back.entries(), t.entries());
        assert_eq!(back.games, t.games);
    }

    #[test]
    fn every_kind_of_bad_file_is_refused_by_name_and_left_unchanged() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::default_rules();
        let good = encode(&trained(rules));
        let mut corrupt = good.clone();
        corrupt[HEADER + 3] ^= 0x40;
        let mut version = good.clone();
        version[6] = 9;
        let other_rules = encode(&trained(Rules::new(5, 4).unwrap()));
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            ("empty", Vec::new(), "not a kxo-tui model"),
            (
                "foreign",
                b"PK\x03\x04 a zip file".to_vec(),
                "not a kxo-tui model",
            ),
            ("short", good[..12].to_vec(), "truncated"),
            ("truncated", good[..good.len() - 7].to_vec(), "truncated"),
            (
                "trailing",
                [good.clone(), vec![0; 3]].concat(),
                "do not match",
            ),
            ("corrupt", corrupt, "checksum"),
            ("version", version, "version 9"),
            ("rules", other_rules, "trained for 5x5 with 4 in a row"),
        ];
        for (name, bytes, needle) in cases {
            let path = dir.path().join(name);
            fs::write(&path, &bytes).unwrap();
            let err = load(&path, rules).unwrap_err().to_string();
            assert!(err.contains(needle), "{name}: {err}");
            assert!(err.contains(&path.display().to_string()), "{name}: {err}");
            assert_eq!(fs::read(&path).unwrap(), bytes, "{name} was changed");
        }
    }

    #[test]
    fn a_save_interrupted_before_the_rename_leaves_the_old_model() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.model");
        let rules = Rules::default_rules();
        let old = trained(rules);
        save(&old, &path).unwrap();
        let mut newer = old.clone();
        let mut r = GameRecord::new(rules);
        r.moves = Cell::parse_list("D4,A1,C3,B1,B2", 4).unwrap();
        newer.learn(&r, 0.7);
        // Written and synced, then "the power goes": no rename.
        let staged = stage(&newer, &path).unwrap();
        std::mem::forget(staged);
        let back = load(&path, rules).unwrap().unwrap();
        assert_eq!(back.entries(), old.entries());
        // The next save goes through and replaces it.
        save(&newer, &path).unwrap();
        assert_eq!(
            load(&path, rules).unwrap().unwrap().entries(),
            newer.entries()
        );
    }
}
