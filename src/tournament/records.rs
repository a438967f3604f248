//! Game records on disk: SGF (`GM[4]`, every board size) and Gomocup's
//! `.psq` (15x15 and 20x20, which piskvork and the Gomocup tools read).
//!
//! SGF: Black is the first player (O here). Coordinates are two letters,
//! column then row, `a` the first from the top left, so H8 is `hh`. Each
//! move carries its thinking time as a comment (`C[312 ms]`), an opening
//! stone `C[opening]`; the root names the engines (`PB`, `PW`), the result
//! (`RE[B+]`, `RE[W+T]` on time, `RE[B+F]` by forfeit, `RE[0]` a draw), the
//! goal (`KX[5]`, a private property: SGF has none for K) and the reason.
//!
//! psq: a header `Piskvorky 15x15, 11:11, 0`, then a line `x,y,ms` a move
//! (from 1, `x` the column), then the two engines' names, first player
//! first, and piskvork's closing code: 0 for a game that ended on the
//! board, 15 on time, -2 for a brain's error (a forfeit).

use std::fmt::Write as _;

use super::{End, GameResult, PlayedGame};
use kxo_engine::{Cell, Rules};

/// The SGF text of a game.
pub fn sgf(game: &PlayedGame, rules: Rules) -> String {
    sgf_of(game, rules, true)
}

/// The SGF text of a game, or of one still going (`finished` false: no
/// result, `RE`, is written).
pub fn sgf_of(game: &PlayedGame, rules: Rules, finished: bool) -> String {
    let text = match rules.is_go() {
        true => go_sgf(game, rules),
        false => line_sgf(game, rules),
    };
    match finished {
        true => text,
        // The result is the root's only RE and comes before any move.
        false => match text.find("RE[") {
            Some(at) => match text[at..].find(']') {
                Some(end) => format!("{}{}", &text[..at], &text[at + end + 1..]),
                None => text,
            },
            None => text,
        },
    }
}

fn line_sgf(game: &PlayedGame, rules: Rules) -> String {
    let result = match game.result {
        GameResult::Draw => "0".to_string(),
        GameResult::First | GameResult::Second => {
            let winner = if game.result == GameResult::First {
                'B'
            } else {
                'W'
            };
            let how = match game.end {
                End::Time => "T",
                End::Forfeit => "F",
                End::Resign => "R",
                End::Line | End::Full | End::Score => "",
            };
            format!("{winner}+{how}")
        }
    };
    let mut out = root(
        game,
        &format!(
            "GM[4]FF[4]CA[UTF-8]AP[kxo-tui:{}]SZ[{}]KX[{}]RU[{}]",
            env!("CARGO_PKG_VERSION"),
            rules.size(),
            rules.goal(),
            rules.rule().name()
        ),
        &result,
        &format!(
            "{}x{}, {} {} in a row",
            rules.size(),
            rules.size(),
            if rules.exact() { "exactly" } else { "at least" },
            rules.goal()
        ),
    );
    for (i, &cell) in game.moves.iter().enumerate() {
        let cell = Cell::new(cell);
        let colour = if i % 2 == 0 { 'B' } else { 'W' };
        let (col, row) = (cell.col(rules.size()), cell.row(rules.size()));
        let _ = write!(
            out,
            "\n;{colour}[{}{}]{}",
            (b'a' + col) as char,
            (b'a' + row) as char,
            move_comment(game, i)
        );
    }
    out.push_str(")\n");
    out
}

/// An SGF root node: the game's own properties (`GM` to `RU`), then its
/// number, the engines, the result and a comment with the reason, the
/// board (`about`) and the opening.
fn root(game: &PlayedGame, properties: &str, result: &str, about: &str) -> String {
    format!(
        "(;{properties}GN[game {}]PB[{}]PW[{}]RE[{result}]C[{}]",
        game.number(),
        escape(&game.first),
        escape(&game.second),
        escape(&format!(
            "{}; {about}; {} opening stones",
            game.reason, game.opening
        )),
    )
}

/// A move's comment: `C[opening]`, or its thinking time; none for a
/// game whose times were not kept (a person's game).
fn move_comment(game: &PlayedGame, i: usize) -> String {
    if i < game.opening {
        "C[opening]".to_string()
    } else if game.us.is_empty() {
        String::new()
    } else {
        format!("C[{} ms]", game.us.get(i).copied().unwrap_or(0) / 1000)
    }
}

/// The SGF text of a game of Go (`GM[1]`): komi, rules, handicap stones
/// (`HA`, `AB`), the result as Go writes it (`RE[B+3.5]`, `W+R` by
/// resignation, `B+T` on time, `W+F` by forfeit, `0` a draw), and passes
/// as empty moves (`B[]`).
fn go_sgf(game: &PlayedGame, rules: Rules) -> String {
    let n = rules.size();
    let winner = match game.result {
        GameResult::First => 'B',
        GameResult::Second => 'W',
        GameResult::Draw => '0',
    };
    let result = match (game.end, winner) {
        (_, '0') => "0".to_string(),
        // The reason starts with the count ("B+3.5 after a clean-up").
        (End::Score, _) => escape(game.reason.split([' ', ',']).next().unwrap_or_default()),
        (End::Resign, w) => format!("{w}+R"),
        (End::Time, w) => format!("{w}+T"),
        (_, w) => format!("{w}+F"),
    };
    let handicap = kxo_engine::go::handicap_points(n, rules.handicap());
    let mut out = root(
        game,
        &format!(
            "GM[1]FF[4]CA[UTF-8]AP[kxo-tui:{}]SZ[{n}]KM[{}]RU[Chinese]",
            env!("CARGO_PKG_VERSION"),
            rules.komi()
        ),
        &result,
        &format!("{n}x{n} Go, area scoring, komi {}", rules.komi()),
    );
    if !handicap.is_empty() {
        let _ = write!(out, "HA[{}]AB", handicap.len());
        for &c in &handicap {
            let _ = write!(out, "[{}]", kxo_engine::go::sgf_point(c, n));
        }
    }
    // White moves first after a handicap.
    let first_white = !handicap.is_empty();
    for (i, &cell) in game.moves.iter().enumerate() {
        let white = (i % 2 == 1) != first_white;
        let colour = if white { 'W' } else { 'B' };
        let comment = move_comment(game, i);
        let point = kxo_engine::go::sgf_point(Cell::new(cell), n);
        let _ = write!(out, "\n;{colour}[{point}]{comment}");
    }
    out.push_str(")\n");
    out
}

/// SGF text values escape `]` and `\`.
fn escape(text: &str) -> String {
    kxo_engine::text::shown(text)
        .replace('\\', "\\\\")
        .replace(']', "\\]")
}

/// What a record file says: the board, the moves and the result.
#[derive(Debug, PartialEq, Eq)]
pub struct ReadRecord {
    pub size: u8,
    pub moves: Vec<Cell>,
    /// `B+`, `W+T`, `0`… (SGF only).
    pub result: Option<String>,
    pub names: [String; 2],
}

/// The psq text of a game (15x15 and 20x20 boards).
pub fn psq(game: &PlayedGame, rules: Rules) -> String {
    let size = rules.size();
    let mut out = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for (i, &cell) in game.moves.iter().enumerate() {
        let cell = Cell::new(cell);
        let ms = if i < game.opening {
            0
        } else {
            game.us.get(i).copied().unwrap_or(0) / 1000
        };
        let _ = writeln!(out, "{},{},{ms}", cell.col(size) + 1, cell.row(size) + 1);
    }
    let _ = writeln!(out, "{}", kxo_engine::text::shown(&game.first));
    let _ = writeln!(out, "{}", kxo_engine::text::shown(&game.second));
    let closing = match game.end {
        End::Line | End::Full | End::Score => 0,
        End::Time => 15,
        End::Forfeit | End::Resign => -2,
    };
    let _ = writeln!(out, "{closing}");
    out
}

/// Reads a psq record: the header's size, then `x,y,ms` lines.
pub fn read_psq(text: &str) -> Result<ReadRecord, String> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let size: u8 = header
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.trim_end_matches(',').split('x').next())
        .and_then(|s| s.parse().ok())
        .filter(|s| (3..=26).contains(s))
        .ok_or_else(|| format!("'{}' is not a psq header", kxo_engine::text::shown(header)))?;
    let mut coords = Vec::new();
    let mut names = Vec::new();
    for line in lines {
        let parts: Vec<Option<u32>> = line.split(',').map(|p| p.trim().parse().ok()).collect();
        match parts.as_slice() {
            [Some(x), Some(y), Some(_)] if names.is_empty() => {
                if !(1..=size as u32).contains(x) || !(1..=size as u32).contains(y) {
                    return Err(format!("{x},{y} is off the board"));
                }
                coords.push((*x as u8 - 1, *y as u8 - 1));
            }
            // piskvork's closing code after the names.
            _ if names.len() == 2 && line.trim().parse::<i32>().is_ok() => {}
            _ => names.push(line.to_string()),
        }
    }
    Ok(ReadRecord {
        size,
        moves: to_cells(&coords, size)?,
        result: None,
        names: [
            names.first().cloned().unwrap_or_default(),
            names.get(1).cloned().unwrap_or_default(),
        ],
    })
}

fn to_cells(coords: &[(u8, u8)], size: u8) -> Result<Vec<Cell>, String> {
    coords
        .iter()
        .map(|&(col, row)| {
            if col < size && row < size {
                Ok(Cell::from_row_col(row, col, size))
            } else {
                Err(format!("({col},{row}) is off a {size}x{size} board"))
            }
        })
        .collect()
}

/// SGF records, as the gate knows them (ours name kxo-tui as the program).
const SGF: crate::gate::Kind = crate::gate::Kind {
    what: "record",
    max_bytes: 1 << 20,
    max_line: 0,
    ours: crate::gate::Ours::Prefix(b"(;GM[4]FF[4]CA[UTF-8]AP[kxo-tui:"),
};

/// psq records (piskvork's header: other programs' psq files look alike).
const PSQ: crate::gate::Kind = crate::gate::Kind {
    what: "record",
    max_bytes: 1 << 20,
    max_line: 0,
    ours: crate::gate::Ours::Prefix(b"Piskvorky "),
};

/// A game saved from the board (human mode's `s`), in `dir`: the first
/// free `kxo-tui-game-001.sgf`, with its `.psq` beside it on the line
/// boards. Returns the files written.
pub fn save_game(
    dir: &std::path::Path,
    game: &PlayedGame,
    rules: Rules,
    finished: bool,
) -> Result<Vec<std::path::PathBuf>, crate::gate::FileError> {
    let mut files = vec![("sgf", SGF, sgf_of(game, rules, finished))];
    if !rules.is_go() {
        files.push(("psq", PSQ, psq(game, rules)));
    }
    for number in 1..=9999 {
        let stem = dir.join(format!("kxo-tui-game-{number:03}"));
        let mut taken = false;
        for (ext, kind, _) in &files {
            taken |= crate::gate::exists(&stem.with_extension(ext), kind.what)?;
        }
        if taken {
            continue;
        }
        let mut written = Vec::new();
        for (ext, kind, text) in &files {
            let path = stem.with_extension(ext);
            if !crate::gate::write_new(&path, *kind, text.as_bytes())? {
                // Made by someone else just now: the next number.
                break;
            }
            written.push(path);
        }
        if written.len() == files.len() {
            return Ok(written);
        }
    }
    Err(crate::gate::FileError::refused(
        "record",
        &dir.join("kxo-tui-game-9999.sgf"),
        "every name up to kxo-tui-game-9999 is taken".to_string(),
    ))
}

/// `--records DIR`: the folder games are written into, as
/// `game-0001.sgf`, and `game-0001.psq` on 15x15 and 20x20.
pub struct Records {
    dir: std::path::PathBuf,
    rules: Rules,
}

impl Records {
    /// The folder at `dir`, made if it does not exist (never through a
    /// link another user planted).
    pub fn open(dir: &std::path::Path, rules: Rules) -> Result<Records, crate::gate::FileError> {
        let dir = crate::gate::make_folder(dir, "records folder")?;
        Ok(Records { dir, rules })
    }

    /// Writes the records of a game this run played, synced, over any
    /// earlier record of that game number (ours only: a file of another
    /// program there is refused).
    pub fn write(&self, game: &PlayedGame) -> Result<(), crate::gate::FileError> {
        for (path, kind, text) in self.files(game) {
            crate::gate::replace(&path, kind, text.as_bytes())?;
        }
        Ok(())
    }

    /// Writes the records of a game an earlier run played (a resumed run)
    /// where they are missing or empty: a run killed between a game's
    /// state line and its records, or a full disk, leaves them so.
    pub fn fill_in(&self, game: &PlayedGame) -> Result<(), crate::gate::FileError> {
        for (path, kind, text) in self.files(game) {
            crate::gate::write_new(&path, kind, text.as_bytes())?;
        }
        Ok(())
    }

    fn files(&self, game: &PlayedGame) -> Vec<(std::path::PathBuf, crate::gate::Kind, String)> {
        let stem = self.dir.join(format!("game-{:04}", game.number()));
        let mut out = vec![(stem.with_extension("sgf"), SGF, sgf(game, self.rules))];
        if matches!(self.rules.size(), 15 | 20) {
            out.push((stem.with_extension("psq"), PSQ, psq(game, self.rules)));
        }
        out
    }
}

/// Brain logs, as the gate knows them.
const LOG: crate::gate::Kind = crate::gate::Kind {
    what: "brain log",
    max_bytes: 2 << 20,
    max_line: 0,
    ours: crate::gate::Ours::Prefix(b"# kxo-tui brain log"),
};

/// `--log DIR`: each game's conversation with each brain, as
/// `game-0001-X.log` (the side the brain played).
pub struct Logs {
    dir: std::path::PathBuf,
}

impl Logs {
    /// The folder at `dir`, made if it does not exist.
    pub fn open(dir: &std::path::Path) -> Result<Logs, crate::gate::FileError> {
        let dir = crate::gate::make_folder(dir, "log folder")?;
        Ok(Logs { dir })
    }

    /// Writes a game's transcripts, synced (over an earlier log of that
    /// game number, ours only).
    pub fn write(&self, game: &PlayedGame) -> Result<(), crate::gate::FileError> {
        for (side, lines) in &game.transcripts {
            let letter = if side.ends_with("(O)") { 'O' } else { 'X' };
            let path = self
                .dir
                .join(format!("game-{:04}-{letter}.log", game.number()));
            let mut text = format!(
                "# kxo-tui brain log: game {}, {}\n# ms since it started, > to the brain, < from it\n",
                game.number(),
                kxo_engine::text::shown(side)
            );
            if lines.is_empty() {
                text.push_str("# it was not asked for a move in this game\n");
            }
            for line in lines {
                text.push_str(line);
                text.push('\n');
            }
            crate::gate::replace(&path, LOG, text.as_bytes())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indices(cells: &[Cell]) -> Vec<u16> {
        cells.iter().map(|c| c.index() as u16).collect()
    }

    fn game(rules: Rules, names: &[&str]) -> PlayedGame {
        let cells: Vec<u16> = names
            .iter()
            .map(|n| Cell::parse(n, rules.size()).unwrap().index() as u16)
            .collect();
        PlayedGame {
            game: 6,
            first: "mcts]x".into(),
            second: "brain\\y".into(),
            opening: 2,
            us: (0..cells.len() as u64).map(|i| i * 10_000).collect(),
            cpu_us: [0; 2],
            moves: cells,
            result: GameResult::Second,
            end: End::Time,
            reason: "mcts]x (X) loses on time".into(),
            transcripts: Vec::new(),
        }
    }

    #[test]
    fn sgf_is_written_and_read_back() {
        let rules = Rules::new(15, 5).unwrap();
        let g = game(rules, &["H8", "I9", "J7", "A15", "O1"]);
        let text = sgf(&g, rules);
        assert!(text.starts_with("(;GM[4]FF[4]"), "{text}");
        assert!(
            text.contains("SZ[15]") && text.contains("RE[W+T]"),
            "{text}"
        );
        assert!(text.contains(";B[hh]C[opening]"), "{text}");
        assert!(text.contains(";W[ao]C[30 ms]"), "{text}");
        let back = super::super::game_file::parse(&text).unwrap();
        assert_eq!(back.rules.size(), 15);
        assert_eq!(indices(&back.moves), g.moves);
        assert_eq!(back.result.as_deref(), Some("W+T"));
        assert_eq!(back.names, ["mcts]x".to_string(), "brain\\y".to_string()]);
    }

    #[test]
    fn psq_is_written_and_read_back() {
        let rules = Rules::new(20, 5).unwrap();
        let g = game(rules, &["J10", "K11", "T20", "A1"]);
        let text = psq(&g, rules);
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("Piskvorky 20x20, 11:11, 0"));
        assert_eq!(lines.next(), Some("10,10,0"));
        assert_eq!(lines.next(), Some("11,11,0"));
        assert_eq!(lines.next(), Some("20,20,20"));
        let back = read_psq(&text).unwrap();
        assert_eq!(back.size, 20);
        assert_eq!(indices(&back.moves), g.moves);
        assert_eq!(back.names[0], "mcts]x");
        assert_eq!(text.lines().last(), Some("15"), "lost on time: {text}");
        assert_eq!(back.names[1], "brain\\y");
    }

    #[test]
    fn broken_records_are_refused() {
        let parse = super::super::game_file::parse;
        assert!(parse("(;GM[4]SZ[15];B[hh").is_err());
        assert!(parse("(;GM[4]SZ[15];W[hh])").is_err());
        assert!(parse("(;GM[4]SZ[15];B[hh]C[open").is_err());
        assert!(read_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n").is_err());
        assert!(read_psq("hello\n").is_err());
    }
}
