//! `--state FILE`: a run's finished games, one JSON line each after a
//! first line with its settings, appended and synced as each game ends.
//! A rerun with the same settings reads it and plays only what is left; a
//! line cut short by a crash (kill -9, power loss) is dropped. `arena
//! merge` reads the state files of shards.
//!
//! Every state file goes through the gate ([`crate::gate`]): appended to
//! under a lock held for the run (a second run on it is refused), never
//! written unless it starts with this file's own header, read as a stream
//! with a bound on each line. What a file claims (its settings, shard and
//! games) is checked against what a real run can produce before anything
//! is allocated for it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{PlayedGame, Settings, Shard, Tally};
use crate::gate::{Appender, FileError, Kind, Line, Lines};
use kxo_engine::text::shown;

/// The most a line may hold (a 20x20 game is about 3 KB).
const MAX_LINE: usize = 256 << 10;

/// State files, as the gate knows them.
const STATE: Kind = Kind {
    what: "state file",
    max_bytes: u64::MAX,
    max_line: MAX_LINE,
    ours: crate::gate::Ours::Prefix(b"{\"kind\":\"kxo-tui arena state\""),
};

/// A state file that does not fit the run: another run's, or no state
/// file at all. The user's arguments are wrong, not the machine.
#[derive(Debug)]
pub struct Mismatch(pub String);

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for Mismatch {}

/// The first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Marks the file as ours: "kxo-tui arena state".
    pub kind: String,
    pub version: u32,
    pub settings: Settings,
    #[serde(default)]
    pub shard: Option<Shard>,
}

const KIND: &str = "kxo-tui arena state";

impl Header {
    pub fn new(settings: Settings, shard: Option<Shard>) -> Header {
        Header {
            kind: KIND.into(),
            version: 1,
            settings,
            shard,
        }
    }
}

fn name(path: &Path) -> String {
    shown(&path.display().to_string())
}

/// A file error as the user's mistake (a path that cannot be a state
/// file) or the machine's.
fn file_error(e: FileError) -> anyhow::Error {
    if e.is_refusal() {
        Mismatch(e.to_string()).into()
    } else {
        e.into()
    }
}

/// A line the file does not hold as it should.
fn bad_line(path: &Path, number: u64, why: &str) -> anyhow::Error {
    Mismatch(format!(
        "state file {}, line {number}: {} (not a kxo-tui arena state file?)",
        name(path),
        shown(why)
    ))
    .into()
}

/// Reads and checks the first line of a state file.
fn header_of(lines: &mut Lines) -> anyhow::Result<Option<Header>> {
    let path = lines.path().to_path_buf();
    let line = match lines.next_line().map_err(file_error)? {
        Some(Line::Whole(line)) => line,
        // No whole first line: a run killed before its header was synced.
        Some(Line::Cut(_)) | None => return Ok(None),
    };
    let h: Header =
        serde_json::from_slice(&line).map_err(|e| bad_line(&path, 1, &e.to_string()))?;
    if h.kind != KIND || h.version != 1 {
        return Err(Mismatch(format!("{} is not a kxo-tui arena state file", name(&path))).into());
    }
    let checked = h
        .settings
        .check()
        .and_then(|()| h.shard.map_or(Ok(()), |s| s.check()));
    if let Err(why) = checked {
        return Err(Mismatch(format!(
            "state file {} holds settings no run can have: {}",
            name(&path),
            shown(&why)
        ))
        .into());
    }
    // Now the file's size is known for a real run: its games, each a line.
    let games = super::Schedule::new(&h.settings).len() as u64;
    lines.limit_to((games + 1).saturating_mul(MAX_LINE as u64 + 1));
    Ok(Some(h))
}

/// The next game of a state file (after its header); `Ok(None)` at its
/// end, or at a last line that a crash cut short.
fn next_game(lines: &mut Lines) -> anyhow::Result<Option<PlayedGame>> {
    match lines.next_line().map_err(file_error)? {
        Some(Line::Whole(line)) => serde_json::from_slice(&line)
            .map(Some)
            .map_err(|e| bad_line(lines.path(), lines.number(), &e.to_string())),
        Some(Line::Cut(_)) | None => Ok(None),
    }
}

/// Reads the settings line of the state file at `path`, if there is one.
pub fn read_header(path: &Path) -> anyhow::Result<Option<Header>> {
    match crate::gate::lines(path, STATE).map_err(file_error)? {
        Some(mut lines) => header_of(&mut lines),
        None => Ok(None),
    }
}

/// The state file a run appends its games to, locked for the run.
pub struct StateFile {
    file: Appender,
}

impl StateFile {
    /// Opens `path` for this run: a new file gets the header; an existing
    /// one must hold the same settings and shard, and each of its games is
    /// folded into `tally` and handed to `each` (to write records a crash
    /// left missing).
    pub fn open(
        path: &Path,
        header: &Header,
        tally: &mut Tally,
        mut each: impl FnMut(&PlayedGame) -> anyhow::Result<()>,
    ) -> anyhow::Result<StateFile> {
        let line = serde_json::to_vec(header)?;
        let (mut file, old) = Appender::open(path, STATE, &line).map_err(file_error)?;
        let Some(mut lines) = old else {
            return Ok(StateFile { file });
        };
        let Some(found) = header_of(&mut lines)? else {
            // A header cut short: nothing was played; start again.
            file.drop_cut_line(0).map_err(file_error)?;
            file.append(&line).map_err(file_error)?;
            return Ok(StateFile { file });
        };
        if found != *header {
            return Err(Mismatch(format!(
                "state file {} belongs to another run (other engines, settings, seed or \
                 shard): give the same arguments to resume it, or another file",
                name(path)
            ))
            .into());
        }
        while let Some(game) = next_game(&mut lines)? {
            tally
                .add(&game)
                .map_err(|why| bad_line(path, lines.number(), &why))?;
            each(&game)?;
        }
        // Drop a cut last line, then append after the whole ones.
        file.drop_cut_line(lines.whole_bytes())
            .map_err(file_error)?;
        Ok(StateFile { file })
    }

    /// Appends a finished game and syncs it to disk.
    pub fn append(&mut self, game: &PlayedGame) -> anyhow::Result<()> {
        let line = serde_json::to_vec(game)?;
        self.file.append(&line)?;
        Ok(())
    }
}

/// One state file of a merge, with the game it is at.
struct Source {
    path: PathBuf,
    lines: Lines,
    next: Option<PlayedGame>,
}

/// Reads the state files of a run's shards and folds their games into
/// one tally, reading the files side by side in game order (so that the
/// games waiting for their pair stay few): every file must hold the same
/// settings; a game found twice counts once. Returns the tally and the
/// shards that are missing.
pub fn merge(paths: &[PathBuf]) -> anyhow::Result<(Tally, Vec<String>)> {
    let mut settings: Option<Settings> = None;
    let mut shards: Vec<Shard> = Vec::new();
    let mut whole = false;
    let mut sources = Vec::new();
    for path in paths {
        let mut lines = crate::gate::lines(path, STATE)
            .map_err(file_error)?
            .ok_or_else(|| Mismatch(format!("no state file {}", name(path))))?;
        let header = header_of(&mut lines)?
            .ok_or_else(|| Mismatch(format!("state file {} holds no run yet", name(path))))?;
        match &settings {
            None => settings = Some(header.settings.clone()),
            Some(s) if *s != header.settings => {
                return Err(Mismatch(format!(
                    "{} is the state of another run than {}: other engines, settings or seed",
                    name(path),
                    name(&paths[0])
                ))
                .into());
            }
            Some(_) => {}
        }
        match header.shard {
            Some(shard) => shards.push(shard),
            None => whole = true,
        }
        let next = next_game(&mut lines)?;
        sources.push(Source {
            path: path.clone(),
            lines,
            next,
        });
    }
    let settings = settings.ok_or_else(|| anyhow::anyhow!("merge needs state files"))?;
    let mut missing = Vec::new();
    let mut tally = Tally::new(settings);
    if !whole && let Some(count) = shards.first().map(|s| s.count) {
        if shards.iter().any(|s| s.count != count) {
            return Err(Mismatch(
                "the state files split the run into different numbers of shards".into(),
            )
            .into());
        }
        for index in 1..=count {
            if !shards.iter().any(|s| s.index == index) {
                missing.push(format!("{index}/{count}"));
            }
        }
        tally.restrict_to(&shards);
    }
    // Always the file whose next game comes first.
    while let Some(source) = sources
        .iter_mut()
        .filter(|s| s.next.is_some())
        .min_by_key(|s| s.next.as_ref().map(|g| g.game))
    {
        // A long merge (hundreds of MB) stops at a signal, as any command.
        if let Some(signal) = crate::signals::requested() {
            return Err(crate::signals::Stopped(signal).into());
        }
        if let Some(game) = source.next.take() {
            tally
                .add(&game)
                .map_err(|why| bad_line(&source.path, source.lines.number(), &why))?;
        }
        source.next = next_game(&mut source.lines)?;
    }
    Ok((tally, missing))
}
