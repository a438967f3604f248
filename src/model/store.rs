//! Model files on disk, through the gate ([`crate::gate`]), which treats
//! them as hostile: the path may be a link someone planted, a device, a
//! FIFO or a huge sparse file; the folder may be one other users can write.
//!
//! - Reading checks the header first and refuses a count that does not fit
//!   the board or the file's length: nothing is read past the size the
//!   header promises.
//! - Saving is the gate's atomic replace: a crash at any moment leaves the
//!   old model or the new one, never a broken one; a file that is not a
//!   model is never written over.
//! - The lock file sits beside the model's real path, so one model reached
//!   through a link and through its real name is one lock.

use std::path::{Path, PathBuf};

use super::format::{HEADER, ModelError, decode, encode, read_header, refuse};
use crate::gate::{self, FileLock, Kind};
use kxo_engine::Rules;
use kxo_engine::learner::ValueTable;

/// Model files, as the gate knows them. The header's own checks bound a
/// model far tighter, by its board (see `format::max_entries`).
pub(super) const MODEL: Kind = Kind {
    what: "model file",
    max_bytes: 1 << 30,
    max_line: 0,
    ours: gate::Ours::Prefix(super::format::MAGIC),
};

/// The default model file for these rules, under the user's data folder
/// (e.g. `~/.local/share/kxo-tui/rl-4x4-k3.model` on Linux).
pub fn default_path(rules: Rules) -> Result<PathBuf, ModelError> {
    let rule = if rules.exact() { "-standard" } else { "" };
    let name = format!(
        "rl-{n}x{n}-k{k}{rule}.model",
        n = rules.size(),
        k = rules.goal()
    );
    directories::ProjectDirs::from("", "", "kxo-tui")
        .map(|dirs| dirs.data_dir().join(&name))
        .ok_or_else(|| {
            refuse(
                Path::new(&name),
                "no home folder to keep it in: pass --model PATH",
            )
        })
}

/// Loads the model at `path`; a missing file gives `Ok(None)`.
pub fn load(path: &Path, rules: Rules) -> Result<Option<ValueTable>, ModelError> {
    let Some(mut reader) = gate::open(path, MODEL)? else {
        return Ok(None);
    };
    // The header first, then no more than it promises.
    let mut bytes = reader.read_up_to((HEADER + 4) as u64)?;
    let header = read_header(&bytes, reader.len(), path)?;
    let whole = header.file_len().unwrap_or(0);
    bytes.extend(reader.read_up_to(whole.saturating_sub(bytes.len()) as u64 + 1)?);
    decode(&bytes, rules, path).map(Some)
}

/// An advisory lock on a model file, held by the one process that may save
/// it: two processes learning into one model would otherwise each save
/// over the other, and one's learning would be lost without a word.
pub type ModelLock = FileLock;

/// Takes the lock of the model at `path` (by its real path): `Ok(None)`
/// when another process holds it. Released when the returned value is
/// dropped (or the process ends, however it ends). Refuses a path that is
/// not a model file, and a lock file that is a link or not a regular file.
pub fn lock(path: &Path) -> Result<Option<ModelLock>, ModelError> {
    make_folder(path)?;
    // The model's own type is checked before any lock file is made.
    if let Some(reader) = gate::open(path, MODEL)? {
        drop(reader);
    }
    gate::lock_beside(path, MODEL)
}

/// A model written beside its file, not yet in place (see [`gate::Staged`]).
pub type Staged = gate::Staged;

/// Writes `table` next to the model at `path` and syncs it, without
/// replacing the model. The folder is made if it does not exist.
pub fn stage(table: &ValueTable, path: &Path) -> Result<Staged, ModelError> {
    make_folder(path)?;
    gate::stage(path, MODEL, &encode(table))
}

/// Makes the model's folder if it does not exist yet (the default one, on
/// first use; the command line refuses a folder the user named that does
/// not exist).
fn make_folder(path: &Path) -> Result<(), ModelError> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => gate::make_folder(dir, MODEL.what).map(|_| ()),
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
    use kxo_engine::learner::Init;
    use kxo_engine::{Cell, GameRecord};
    use std::fs;

    fn trained(rules: Rules) -> ValueTable {
        let mut t = ValueTable::new(rules);
        for moves in ["B2,C3,A1,D4,B1", "A1,B1,C1,D1,A2,B2,C2"] {
            let mut r = GameRecord::new(rules);
            r.moves = Cell::parse_list(moves, rules.size()).unwrap();
            t.learn(&r, kxo_engine::learner::ALPHA);
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
    fn a_table_at_the_learners_cap_is_saved_and_loads() {
        // 5x5 with four meets more positions than a model may hold: the
        // learner stops taking new ones at the cap, and what it saves
        // there its loader reads (it called 2,151,912 entries corrupt).
        use kxo_engine::learner::MAX_TABLE_ENTRIES;
        let rules = Rules::new(5, 4).unwrap();
        let full = (0..MAX_TABLE_ENTRIES as u128).map(|k| (k << 64, 0.5));
        let mut table = ValueTable::from_entries(rules, Init::Zero, 7, full);
        let mut record = GameRecord::new(rules);
        record.moves = Cell::parse_list("C3,B2,D4,A1,E5", 5).unwrap();
        table.learn(&record, kxo_engine::learner::ALPHA);
        assert_eq!(table.len(), MAX_TABLE_ENTRIES);
        assert_eq!(table.games, 8, "the game is learned, in what it holds");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.model");
        save(&table, &path).unwrap();
        let back = load(&path, rules).unwrap().expect("saved");
        assert_eq!(back.len(), MAX_TABLE_ENTRIES);
    }

    #[test]
    fn a_model_of_line_patterns_is_saved_and_read_back_the_same() {
        // 15x15: the learner's line patterns, learned from 300 random games.
        let rules = Rules::new(15, 5).unwrap();
        let mut table = ValueTable::with_init(rules, Init::Network);
        let [mut o, mut x] = [1, 2].map(kxo_engine::RandomPlayer::new);
        for _ in 0..300 {
            let record = kxo_engine::play_game(rules, &mut [&mut o, &mut x]);
            table.learn(&record, kxo_engine::learner::ALPHA);
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.kxo");
        save(&table, &path).unwrap();
        let back = load(&path, rules).unwrap().expect("saved");
        assert_eq!(back.entries(), table.entries());
        assert_eq!(back.games, 300);
        assert!(back.len() > 50, "{}", back.len());
    }

    #[test]
    fn a_model_keeps_its_rule_and_is_refused_under_the_other() {
        use kxo_engine::Rule;
        let dir = tempfile::tempdir().unwrap();
        // 7x7 with five under the standard rule: the big boards' learner.
        for (size, goal) in [(15, 5), (7, 5)] {
            let free = Rules::new(size, goal).unwrap();
            let standard = free.with_rule(Rule::Standard);
            let mut table = ValueTable::with_init(standard, Init::Network);
            let mut r = GameRecord::new(standard);
            r.moves = Cell::parse_list("A1,B1,C1,D1,A2,B2,C2", size).unwrap();
            table.learn(&r, kxo_engine::learner::ALPHA);
            let path = dir.path().join(format!("{size}.model"));
            save(&table, &path).unwrap();
            let back = load(&path, standard).unwrap().expect("saved");
            assert_eq!(back.rules(), standard);
            assert_eq!(back.entries(), table.entries());
            let err = load(&path, free).unwrap_err().to_string();
            assert!(err.contains("with exactly 5 in a row, not"), "{err}");
            assert_ne!(default_path(free).ok(), default_path(standard).ok());
        }
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
        t.learn(&r, kxo_engine::learner::ALPHA);
        let good = encode(&t);
        let path = dir.path().join("m.model");
        std::fs::write(&path, &good).unwrap();
        assert_eq!(load(&path, rules).unwrap().unwrap().entries(), t.entries());
        fn entry(i: usize) -> usize {
            super::super::format::HEADER + i * 20
        }
        type Forge = fn(&mut Vec<u8>);
        let forgeries: [(&str, Forge); 5] = [
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
            // A finite weight whose sums overflow (the learner then had no
            // move to pick and panicked).
            ("huge", |b: &mut Vec<u8>| {
                b[entry(0) + 16..entry(0) + 20].copy_from_slice(&3e38f32.to_le_bytes());
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
    fn a_table_claiming_more_positions_than_a_game_has_is_refused_unread() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("forged.model");
        // A 5x5 table of 2^26 entries (1.34 GB), checksum and all: its
        // header alone is enough to refuse it.
        let rules = Rules::new(5, 4).unwrap();
        let mut head = encode(&ValueTable::with_init(rules, Init::Zero));
        head.truncate(HEADER);
        head[HEADER - 8..].copy_from_slice(&(1u64 << 26).to_le_bytes());
        std::fs::write(&path, &head).unwrap();
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(HEADER as u64 + (1 << 26) * 20 + 4).unwrap();
        let err = load(&path, rules).unwrap_err();
        assert!(err.problem.contains("more than a model"), "{err}");
        // A table value outside 0 to 1.
        let small = Rules::default_rules();
        let mut bytes = encode(&trained(small));
        bytes[HEADER + 16..HEADER + 20].copy_from_slice(&2.5f32.to_le_bytes());
        std::fs::write(&path, resealed(bytes)).unwrap();
        let err = load(&path, small).unwrap_err();
        assert!(err.problem.contains("outside 0 to 1"), "{err}");
        // The bound for 3x3 holds the 765 positions up to symmetry, and
        // the one for 4x4 is far below 3^16.
        assert!(
            super::super::format::max_entries(3, 3, kxo_engine::Rule::Freestyle, Init::Zero) >= 765
        );
        assert!(
            super::super::format::max_entries(4, 3, kxo_engine::Rule::Freestyle, Init::Zero)
                < 1_400_000
        );
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
        assert!(dir.path().join("m.model.lock").is_file());
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
