//! `solve --checkpoint FILE` / `--resume FILE`: a long solve split by the
//! root's moves, each settled one kept in a small JSON file, so that a
//! run stopped (Ctrl-C, a timeout, a crash) goes on where it was.
//!
//! ```json
//! {"kind": "kxo-tui solve checkpoint", "version": 1, "size": 7, "goal": 5,
//!  "moves": "", "settled": [{"move": "A1", "value": "draw", "plies": 49,
//!  "nodes": 123456}], "nodes": 123456, "seconds": 12.5}
//! ```
//!
//! `value` is the root's side's: what it gets by playing `move`; `no win`
//! when only its weak game was searched (a draw or a loss, not yet known
//! which).
//!
//! Version 2 adds `lemmas`: weak-game results inside the root move being
//! solved that took a million nodes or more (see
//! [`Lemma`](kxo_engine::solver::Lemma)), each as
//! `{"maker": "D4,E5", "breaker": "C3", "to_move": "breaker",
//! "winner": "breaker", "zone": "B2,C2,…"}`. A resumed run takes them in,
//! so that the hours spent inside a root move are not lost either.
//!
//! The file is replaced whole after each settled move and every few
//! minutes while one is searched (a new file renamed over it), never
//! written through a link, and read with a bound. Its contents are
//! trusted as they are read: a doctored checkpoint gives a wrong answer.

use std::path::Path;

use serde::{Deserialize, Serialize};

use kxo_engine::Cell;
use kxo_engine::solver::Lemma;
use kxo_engine::text::shown;

const KIND: &str = "kxo-tui solve checkpoint";
/// Far above any checkpoint (at most 64 root moves and 65,536 lemmas of
/// a few hundred bytes).
const MAX_BYTES: u64 = 64 << 20;
/// The format written; version 1 (no lemmas) is read too.
pub(super) const VERSION: u32 = 2;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct Checkpoint {
    pub kind: String,
    pub version: u32,
    pub size: u8,
    pub goal: u8,
    /// The position's moves, as given to `--moves`.
    pub moves: String,
    pub settled: Vec<SettledMove>,
    /// Results inside the root move being solved (version 2).
    #[serde(default)]
    pub lemmas: Vec<LemmaRecord>,
    /// Nodes and seconds of every run so far.
    pub nodes: u64,
    pub seconds: f64,
}

/// A root move whose value is known.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct SettledMove {
    #[serde(rename = "move")]
    pub cell: String,
    /// "win", "draw" or "loss", for the side to move at the root; or "no
    /// win" (a draw or a loss, not known which yet).
    pub value: String,
    /// Plies to the end of the game after the root, under best play.
    pub plies: u32,
    pub nodes: u64,
}

/// A [`Lemma`] in a checkpoint: cells by name, comma-separated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct LemmaRecord {
    pub maker: String,
    pub breaker: String,
    /// "maker" or "breaker".
    pub to_move: String,
    /// "maker" or "breaker".
    pub winner: String,
    /// For a breaker win, the cells its proof depends on.
    pub zone: String,
}

impl LemmaRecord {
    pub(super) fn new(lemma: &Lemma, size: u8) -> LemmaRecord {
        let names = |cells: u64| {
            (0..64)
                .filter(|i| cells >> i & 1 != 0)
                .map(|i| Cell::from_index(i).name(size))
                .collect::<Vec<_>>()
                .join(",")
        };
        let role = |breaker: bool| if breaker { "breaker" } else { "maker" }.to_string();
        LemmaRecord {
            maker: names(lemma.maker),
            breaker: names(lemma.breaker),
            to_move: role(lemma.breaker_to_move),
            winner: role(!lemma.maker_wins),
            zone: names(lemma.zone),
        }
    }

    /// The lemma, if its cells are on a `size` board, the two sides'
    /// stones apart, and its zone on empty cells.
    pub(super) fn lemma(&self, size: u8) -> Result<Lemma, String> {
        let cells = |text: &str| -> Result<u64, String> {
            let list = Cell::parse_list(text, size).map_err(|e| shown(&e.to_string()))?;
            Ok(list.iter().fold(0, |bits, c| bits | 1u64 << c.index()))
        };
        let role = |text: &str| match text {
            "maker" => Ok(false),
            "breaker" => Ok(true),
            other => Err(format!("{} is not maker or breaker", shown(other))),
        };
        let (maker, breaker, zone) = (
            cells(&self.maker)?,
            cells(&self.breaker)?,
            cells(&self.zone)?,
        );
        if maker & breaker != 0 || zone & (maker | breaker) != 0 {
            return Err("a lemma has two things on one cell".into());
        }
        Ok(Lemma {
            maker,
            breaker,
            breaker_to_move: role(&self.to_move)?,
            maker_wins: !role(&self.winner)?,
            zone,
        })
    }
}

impl Checkpoint {
    pub(super) fn new(size: u8, goal: u8, moves: &str) -> Checkpoint {
        Checkpoint {
            kind: KIND.into(),
            version: VERSION,
            size,
            goal,
            moves: moves.into(),
            settled: Vec::new(),
            lemmas: Vec::new(),
            nodes: 0,
            seconds: 0.0,
        }
    }

    /// Whether it is a checkpoint of this position.
    pub(super) fn is_for(&self, size: u8, goal: u8, moves: &str) -> bool {
        // The same moves however written ("b2,a1", "B2 → A1").
        let cells = |text: &str| kxo_engine::Cell::parse_list(text, size).ok();
        self.size == size
            && self.goal == goal
            && cells(&self.moves).is_some_and(|c| Some(c) == cells(moves))
    }
}

/// Checkpoints, as the gate knows them: a pretty-printed JSON object whose
/// first member is its kind.
const CHECKPOINT: crate::gate::Kind = crate::gate::Kind {
    what: "checkpoint",
    max_bytes: MAX_BYTES,
    max_line: 0,
    ours: crate::gate::Ours::JsonKind(KIND),
};

/// The most lemmas a checkpoint may hold (the solver keeps no more).
const MAX_LEMMAS: usize = 1 << 16;

/// Reads a checkpoint; `Ok(None)` when there is no file.
pub(super) fn read(path: &Path) -> Result<Option<Checkpoint>, String> {
    let name = shown(&path.display().to_string());
    let Some(bytes) = crate::gate::read(path, CHECKPOINT).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let c: Checkpoint = serde_json::from_slice(&bytes).map_err(|e| {
        format!(
            "checkpoint {name} cannot be read: {} (not a kxo-tui solve checkpoint?)",
            shown(&e.to_string())
        )
    })?;
    if c.kind != KIND || !(1..=VERSION).contains(&c.version) {
        return Err(format!("{name} is not a kxo-tui solve checkpoint"));
    }
    if c.settled
        .iter()
        .any(|s| !["win", "draw", "loss", "no win"].contains(&s.value.as_str()))
    {
        return Err(format!(
            "checkpoint {name} holds a value that is not win, draw, loss or no win"
        ));
    }
    let mut cells: Vec<&str> = c.settled.iter().map(|s| s.cell.as_str()).collect();
    cells.sort_unstable();
    if let Some(twice) = cells.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!(
            "checkpoint {name} settles {} twice: it is damaged",
            shown(twice[0])
        ));
    }
    if c.lemmas.len() > MAX_LEMMAS || !(c.seconds.is_finite() && c.seconds >= 0.0) {
        return Err(format!(
            "checkpoint {name} holds more than a solve can make: it is damaged"
        ));
    }
    Ok(Some(c))
}

/// Writes `c` to `path`, whole: to a new file beside it, then renamed
/// over it, so that a run killed mid-write leaves the last checkpoint as
/// it was. A file at `path` that is not a checkpoint is never replaced.
pub(super) fn write(path: &Path, c: &Checkpoint) -> Result<(), crate::gate::FileError> {
    let text = serde_json::to_string_pretty(c)
        .map_err(|e| crate::gate::FileError::io(CHECKPOINT.what, path, "written", e.into()))?
        + "\n";
    crate::gate::replace(path, CHECKPOINT, text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_reads_back_and_bad_ones_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        assert_eq!(read(&path), Ok(None));
        let mut c = Checkpoint::new(5, 4, "C3");
        c.settled.push(SettledMove {
            cell: "B2".into(),
            value: "draw".into(),
            plies: 20,
            nodes: 99,
        });
        write(&path, &c).unwrap();
        assert_eq!(read(&path), Ok(Some(c.clone())));
        assert!(c.is_for(5, 4, "C3") && !c.is_for(5, 4, "") && !c.is_for(6, 4, "C3"));
        // The same moves however written; other moves are another position.
        assert!(c.is_for(5, 4, " c3") && c.is_for(5, 4, "1. C3") && !c.is_for(5, 4, "C3,D4"));
        std::fs::write(&path, "{\"kind\": 1}").unwrap();
        assert!(
            read(&path)
                .unwrap_err()
                .contains("not a kxo-tui solve checkpoint")
        );
        std::fs::write(&path, "x".repeat(MAX_BYTES as usize + 1)).unwrap();
        assert!(read(&path).unwrap_err().contains("can hold"));
        let text = serde_json::to_string(&c).unwrap().replace("draw", "maybe");
        std::fs::write(&path, text).unwrap();
        assert!(
            read(&path)
                .unwrap_err()
                .contains("not win, draw, loss or no win")
        );
        // A link at the name is neither followed nor written through.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "keep").unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        assert!(read(&link).is_err());
        assert!(write(&link, &c).is_err());
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        // Nor through a FIFO or a device at the name.
        assert!(write(Path::new("/dev/null"), &c).is_err());
        assert!(read(Path::new("/dev/zero")).is_err());
        // A file that is not a checkpoint is never written over.
        std::fs::write(&path, "my notes").unwrap();
        assert!(
            write(&path, &c)
                .unwrap_err()
                .problem
                .contains("not overwritten")
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "my notes");
        // A write goes to a new file renamed over the old: nothing else is
        // left beside it.
        let path = dir.path().join("again.json");
        write(&path, &c).unwrap();
        write(&path, &c).unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(
            names
                .iter()
                .all(|n| !n.to_string_lossy().starts_with(".kxo-")),
            "{names:?}"
        );
    }

    #[test]
    fn lemmas_read_back_and_bad_ones_are_refused() {
        let lemma = Lemma {
            maker: 1 << 24 | 1 << 32,
            breaker: 1 << 16,
            breaker_to_move: true,
            maker_wins: false,
            zone: 1 << 8 | 1 << 9,
        };
        let record = LemmaRecord::new(&lemma, 7);
        assert_eq!(record.maker, "D4,E5");
        assert_eq!(
            (record.to_move.as_str(), record.winner.as_str()),
            ("breaker", "breaker")
        );
        assert_eq!(record.lemma(7), Ok(lemma));
        let mut c = Checkpoint::new(7, 5, "");
        c.lemmas.push(record.clone());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        write(&path, &c).unwrap();
        assert_eq!(read(&path), Ok(Some(c)));
        let bad = |f: fn(&mut LemmaRecord)| {
            let mut r = record.clone();
            f(&mut r);
            r.lemma(7).unwrap_err()
        };
        assert!(bad(|r| r.breaker = "D4".into()).contains("two things on one cell"));
        assert!(bad(|r| r.zone = "D4".into()).contains("two things on one cell"));
        assert!(bad(|r| r.winner = "both".into()).contains("not maker or breaker"));
        assert!(!bad(|r| r.maker = "Z99".into()).is_empty());
        // A checkpoint of version 1 (no lemmas) still reads.
        let old = r#"{"kind": "kxo-tui solve checkpoint", "version": 1, "size": 7, "goal": 5,
            "moves": "", "settled": [], "nodes": 0, "seconds": 0.0}"#;
        std::fs::write(&path, old).unwrap();
        assert!(read(&path).unwrap().unwrap().lemmas.is_empty());
    }
}
