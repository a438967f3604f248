//! The learning player's model file.
//!
//! Layout (little-endian): the magic `KXORL\0`, a format version (u16),
//! the rules it was trained for (size u8, goal u8), what unseen positions
//! are worth (u8: 0 the heuristic, 1 zero, 2 no table but an n-tuple
//! network whose entries are its weights; version 2 on), its accuracy on
//! the fixed sample when it was saved (f32, NaN when not measured; version
//! 2 on), the games learned from (u64), the entry count (u64), then per entry the canonical
//! 2-bit table (u128) and its value (f32), and last a CRC-32 of everything
//! before it. Version 1 files (no start byte) started from the heuristic.
//!
//! Saving writes a temporary file in the same folder, syncs it, and renames
//! it over the old one (then syncs the folder), so a crash at any moment
//! leaves the old model or the new one, never a broken one. A file that
//! cannot be read is never overwritten.

use std::fmt;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::ai::rl::{Init, ValueTable};
use crate::game::Rules;

const MAGIC: &[u8; 6] = b"KXORL\0";
pub const VERSION: u16 = 2;
const HEADER: usize = 6 + 2 + 1 + 1 + 1 + 4 + 8 + 8;
/// Version 1 had no start byte and no accuracy.
const HEADER_V1: usize = HEADER - 5;
const ENTRY: usize = 16 + 4;

/// Why a model file was refused; always names the file.
#[derive(Debug)]
pub struct ModelError {
    pub path: PathBuf,
    pub problem: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "model file {}: {}", self.path.display(), self.problem)
    }
}
impl std::error::Error for ModelError {}

fn refuse(path: &Path, problem: impl Into<String>) -> ModelError {
    ModelError {
        path: path.to_path_buf(),
        problem: problem.into(),
    }
}

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

/// An advisory lock on a model file, held by the one process that may save
/// it: two processes learning into one model would otherwise each save
/// over the other, and one's learning would be lost without a word.
#[derive(Debug)]
pub struct ModelLock {
    _file: File,
}

/// The lock file beside a model (the model itself is replaced by a rename
/// on every save, so it cannot carry the lock).
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".lock");
    path.with_file_name(name)
}

/// Takes the lock of the model at `path`: `Ok(None)` when another process
/// holds it. Released when the returned value is dropped (or the process
/// ends, however it ends).
pub fn lock(path: &Path) -> Result<Option<ModelLock>, ModelError> {
    let lock = lock_path(path);
    if let Some(dir) = lock.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)
            .map_err(|e| refuse(path, format!("its folder cannot be made: {e}")))?;
    }
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(|e| refuse(path, format!("its lock file cannot be opened: {e}")))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(ModelLock { _file: file })),
        Err(fs::TryLockError::WouldBlock) => Ok(None),
        Err(fs::TryLockError::Error(e)) => Err(refuse(path, format!("cannot be locked: {e}"))),
    }
}

/// The file's bytes for `table`.
pub fn encode(table: &ValueTable) -> Vec<u8> {
    let entries = table.entries();
    let rules = table.rules();
    let mut out = Vec::with_capacity(HEADER + entries.len() * ENTRY + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(rules.size());
    out.push(rules.goal());
    out.push(match table.init() {
        Init::Heuristic => 0,
        Init::Zero => 1,
        Init::Network => 2,
    });
    out.extend_from_slice(&table.accuracy.unwrap_or(f32::NAN).to_le_bytes());
    out.extend_from_slice(&table.games.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (key, value) in entries {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&value.to_le_bytes());
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// Reads a table from the file's bytes; `rules` are the ones it must have
/// been trained for.
pub fn decode(bytes: &[u8], rules: Rules, path: &Path) -> Result<ValueTable, ModelError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(refuse(
            path,
            "not a kxo-tui model (it does not start with the model header)",
        ));
    }
    if bytes.len() < HEADER_V1 + 4 {
        return Err(refuse(
            path,
            format!("truncated: {} bytes, shorter than the header", bytes.len()),
        ));
    }
    let version = u16::from_le_bytes([bytes[6], bytes[7]]);
    let (header, init) = match version {
        1 => (HEADER_V1, Init::Heuristic),
        VERSION => {
            let init = match bytes[10] {
                0 => Init::Heuristic,
                1 => Init::Zero,
                2 => Init::Network,
                other => return Err(refuse(path, format!("corrupt: unknown start {other}"))),
            };
            (HEADER, init)
        }
        _ => {
            return Err(refuse(
                path,
                format!("format version {version}; this kxo-tui reads versions 1 and {VERSION}"),
            ));
        }
    };
    if bytes.len() < header + 4 {
        return Err(refuse(
            path,
            format!("truncated: {} bytes, shorter than the header", bytes.len()),
        ));
    }
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
    let (size, goal) = (bytes[8], bytes[9]);
    let games = u64_at(header - 16);
    let count = u64_at(header - 8);
    let expected = (count as usize)
        .checked_mul(ENTRY)
        .and_then(|n| n.checked_add(header + 4));
    if expected != Some(bytes.len()) {
        let problem = if expected.is_some_and(|e| bytes.len() < e) {
            format!(
                "truncated: {} bytes where {count} entries need {}",
                bytes.len(),
                expected.unwrap_or(0)
            )
        } else {
            format!("{} bytes do not match its {count} entries", bytes.len())
        };
        return Err(refuse(path, problem));
    }
    let body = &bytes[..bytes.len() - 4];
    let crc = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap_or([0; 4]));
    if crc32fast::hash(body) != crc {
        return Err(refuse(path, "corrupt: the checksum does not match"));
    }
    if (size, goal) != (rules.size(), rules.goal()) {
        return Err(refuse(
            path,
            format!(
                "trained for {size}x{size} with {goal} in a row, not {n}x{n} with {k}",
                n = rules.size(),
                k = rules.goal()
            ),
        ));
    }
    let entries = body[header..].chunks_exact(ENTRY).map(|e| {
        let key = u128::from_le_bytes(e[..16].try_into().unwrap_or([0; 16]));
        let value = f32::from_le_bytes(e[16..].try_into().unwrap_or([0; 4]));
        (key, value)
    });
    let accuracy = match version {
        1 => None,
        _ => {
            let a = f32::from_le_bytes(bytes[11..15].try_into().unwrap_or([0; 4]));
            (0.0..=1.0).contains(&a).then_some(a)
        }
    };
    let mut table = ValueTable::from_entries(rules, init, games, entries);
    table.accuracy = accuracy;
    if table.len() as u64 != count {
        return Err(refuse(path, "corrupt: repeated entries"));
    }
    Ok(table)
}

/// Loads the model at `path`; a missing file gives `Ok(None)`.
pub fn load(path: &Path, rules: Rules) -> Result<Option<ValueTable>, ModelError> {
    match fs::read(path) {
        Ok(bytes) => decode(&bytes, rules, path).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(refuse(path, format!("cannot be read: {e}"))),
    }
}

/// A model written to a temporary file, not yet in place.
pub struct Staged {
    temp: PathBuf,
    path: PathBuf,
}

impl Staged {
    /// Puts the new model in place (atomic rename) and syncs the folder.
    pub fn commit(self) -> Result<(), ModelError> {
        fs::rename(&self.temp, &self.path)
            .map_err(|e| refuse(&self.path, format!("cannot be replaced: {e}")))?;
        if let Some(dir) = self.path.parent()
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

/// Writes `table` next to `path` and syncs it, without replacing `path`.
pub fn stage(table: &ValueTable, path: &Path) -> Result<Staged, ModelError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&dir)
        .map_err(|e| refuse(path, format!("its folder cannot be made: {e}")))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into());
    let temp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&temp)?;
        f.write_all(&encode(table))?;
        f.sync_all()
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&temp);
        return Err(refuse(path, format!("cannot be written: {e}")));
    }
    Ok(Staged {
        temp,
        path: path.to_path_buf(),
    })
}

/// Saves `table` to `path` atomically.
pub fn save(table: &ValueTable, path: &Path) -> Result<(), ModelError> {
    stage(table, path)?.commit()
}

#[cfg(test)]
mod tests {
    use super::*;
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
