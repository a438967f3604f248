//! `--state FILE`: a run's finished games, one JSON line each after a
//! first line with its settings, appended and synced as each game ends.
//! A rerun with the same settings reads it and plays only what is left; a
//! line cut short by a crash (kill -9, power loss) is dropped. `arena
//! merge` reads the state files of shards.
//!
//! The file is opened without following a link at its name, and read with
//! a bound on each line and on the whole.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{PlayedGame, Settings, Shard};
use crate::text::shown;

/// The most a line may hold (a 20x20 game is about 3 KB).
const MAX_LINE: u64 = 256 << 10;

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

/// A state file's contents.
#[derive(Debug)]
pub struct Contents {
    pub header: Header,
    pub games: Vec<PlayedGame>,
    /// Bytes of whole lines: anything after (a cut line) is dropped.
    valid_len: u64,
}

fn name(path: &Path) -> String {
    shown(&path.display().to_string())
}

/// Opens without following a link at the file's own name.
fn open_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    // Non-blocking too, so that a FIFO at the name is refused (it is not a
    // regular file), not waited on.
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    options
}

/// Reads a state file; `Ok(None)` if there is none.
pub fn read(path: &Path) -> anyhow::Result<Option<Contents>> {
    let file = match open_options().read(true).open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => anyhow::bail!("cannot read state file {}: {e}", name(path)),
    };
    if !file.metadata()?.is_file() {
        return Err(Mismatch(format!("state file {} is not a regular file", name(path))).into());
    }
    let mut reader = BufReader::new(file);
    let mut line = Vec::new();
    let mut header: Option<Header> = None;
    let mut games = Vec::new();
    let mut valid_len = 0u64;
    let mut number = 0;
    loop {
        line.clear();
        number += 1;
        let n = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            break;
        }
        if line.last() != Some(&b'\n') {
            if n as u64 > MAX_LINE {
                return Err(Mismatch(format!(
                    "state file {}, line {number}: too long (not a kxo-tui arena state file?)",
                    name(path)
                ))
                .into());
            }
            // A line cut short by a crash: the game is played again.
            break;
        }
        let bad = |e: serde_json::Error| {
            anyhow::Error::from(Mismatch(format!(
                "state file {}, line {number}: {} (not a kxo-tui arena state file?)",
                name(path),
                shown(&e.to_string())
            )))
        };
        if header.is_none() {
            let h: Header = serde_json::from_slice(&line).map_err(bad)?;
            if h.kind != KIND || h.version != 1 {
                return Err(
                    Mismatch(format!("{} is not a kxo-tui arena state file", name(path))).into(),
                );
            }
            header = Some(h);
        } else {
            games.push(serde_json::from_slice::<PlayedGame>(&line).map_err(bad)?);
        }
        valid_len += n as u64;
    }
    Ok(header.map(|header| Contents {
        header,
        games,
        valid_len,
    }))
}

/// The state file a run appends its games to.
pub struct StateFile {
    file: File,
    path: PathBuf,
}

impl StateFile {
    /// Opens `path` for this run: a new file gets the header; an existing
    /// one must hold the same settings and shard, and its games are
    /// returned to be skipped.
    pub fn open(path: &Path, header: &Header) -> anyhow::Result<(StateFile, Vec<PlayedGame>)> {
        let existing = read(path)?;
        let mut file = open_options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o644)
            .open(path)
            .map_err(|e| anyhow::anyhow!("cannot write state file {}: {e}", name(path)))?;
        let games = match existing {
            Some(contents) => {
                if contents.header != *header {
                    return Err(Mismatch(format!(
                        "state file {} belongs to another run (other engines, settings, seed or \
                         shard): give the same arguments to resume it, or another file",
                        name(path)
                    ))
                    .into());
                }
                // Drop a cut last line, then append after the whole ones.
                file.set_len(contents.valid_len)?;
                contents.games
            }
            None => {
                file.set_len(0)?;
                let mut line = serde_json::to_vec(header)?;
                line.push(b'\n');
                file.write_all(&line)?;
                file.sync_data()?;
                Vec::new()
            }
        };
        use std::io::Seek;
        file.seek(std::io::SeekFrom::End(0))?;
        Ok((
            StateFile {
                file,
                path: path.to_path_buf(),
            },
            games,
        ))
    }

    /// Appends a finished game and syncs it to disk.
    pub fn append(&mut self, game: &PlayedGame) -> anyhow::Result<()> {
        let mut line = serde_json::to_vec(game)?;
        line.push(b'\n');
        self.file
            .write_all(&line)
            .and_then(|_| self.file.sync_data())
            .map_err(|e| anyhow::anyhow!("cannot write state file {}: {e}", name(&self.path)))
    }
}

/// Reads the state files of a run's shards and combines their games:
/// every file must hold the same settings; a game found twice counts once.
/// Returns the settings, the games and the shards that are missing.
pub fn merge(paths: &[PathBuf]) -> anyhow::Result<(Settings, Vec<PlayedGame>, Vec<String>)> {
    let mut settings: Option<Settings> = None;
    let mut games: std::collections::BTreeMap<u32, PlayedGame> = Default::default();
    let mut shards: Vec<Shard> = Vec::new();
    let mut whole = false;
    for path in paths {
        let contents =
            read(path)?.ok_or_else(|| Mismatch(format!("no state file {}", name(path))))?;
        match &settings {
            None => settings = Some(contents.header.settings.clone()),
            Some(s) if *s != contents.header.settings => {
                return Err(Mismatch(format!(
                    "{} is the state of another run than {}: other engines, settings or seed",
                    name(path),
                    name(&paths[0])
                ))
                .into());
            }
            Some(_) => {}
        }
        match contents.header.shard {
            Some(shard) => shards.push(shard),
            None => whole = true,
        }
        for game in contents.games {
            games.entry(game.game).or_insert(game);
        }
    }
    let settings = settings.ok_or_else(|| anyhow::anyhow!("merge needs state files"))?;
    let mut missing = Vec::new();
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
    }
    Ok((settings, games.into_values().collect(), missing))
}
