//! `arena --pgn FILE`: every game's result as a PGN game without moves,
//! the file rating tools read (BayesElo, Ordo), as c-gomoku-cli writes
//! one. Gomoku's and Go's first player is Black: `[Black]` names it,
//! `[White]` the second, and `[Result]` is White's score first ("1-0" a
//! win of the second player), as PGN has it.
//!
//! The file is written whole, through the gate, when the run ends or
//! stops (and checked before the first game): with `--state`, a resumed
//! run writes every game of the run, those of its earlier runs too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{GameResult, PlayedGame, Settings};
use crate::gate::FileError;

/// PGN files, as the gate knows them: ours start with our event's tag.
const PGN: crate::gate::Kind = crate::gate::Kind {
    what: "PGN file",
    max_bytes: 1 << 30,
    max_line: 0,
    ours: crate::gate::Ours::Prefix(b"[Event \"kxo-tui arena\"]"),
};

/// The games of a run, by number, as PGN text.
pub struct Pgn {
    path: PathBuf,
    /// The board, as the `[Site]` tag gives it.
    site: String,
    games: BTreeMap<u32, String>,
}

impl Pgn {
    /// The PGN of a run at `path`: refused now, before any game, when
    /// the file could not be written there (a file of another program, a
    /// folder that is not there).
    pub fn open(path: &Path, settings: &Settings) -> Result<Pgn, FileError> {
        crate::gate::check_replace(path, PGN)?;
        let site = match settings.komi2 {
            Some(komi2) => format!("{n}x{n} Go, komi {}", komi2 as f32 / 2.0, n = settings.size),
            None => format!(
                "{n}x{n} with {}",
                settings.rule.in_a_row(settings.goal),
                n = settings.size
            ),
        };
        Ok(Pgn {
            path: path.to_path_buf(),
            site,
            games: BTreeMap::new(),
        })
    }

    /// Adds a game (again: the later one stands).
    pub fn add(&mut self, game: &PlayedGame) {
        self.games.insert(game.game, entry(game, &self.site));
    }

    /// Writes the file, every game in the order of its number.
    pub fn write(&self) -> Result<(), FileError> {
        let text: String = self.games.values().map(String::as_str).collect();
        crate::gate::replace(&self.path, PGN, text.as_bytes())
    }
}

/// One game as PGN: its tags, and its result as the movetext.
fn entry(game: &PlayedGame, site: &str) -> String {
    let result = match game.result {
        GameResult::First => "0-1",
        GameResult::Second => "1-0",
        GameResult::Draw => "1/2-1/2",
    };
    let tags = [
        ("Event", "kxo-tui arena".to_string()),
        ("Site", site.to_string()),
        ("Round", game.number().to_string()),
        ("Black", game.first.clone()),
        ("White", game.second.clone()),
        ("Result", result.to_string()),
        ("Termination", game.reason.clone()),
        ("PlyCount", game.moves.len().to_string()),
    ];
    let mut out = String::new();
    for (name, value) in tags {
        out += &format!("[{name} \"{}\"]\n", tag_value(&value));
    }
    out += &format!("\n{result}\n\n");
    out
}

/// A tag's value as PGN writes a string: a backslash and a quote escaped
/// with a backslash, control characters as kxo-tui shows outside text.
fn tag_value(text: &str) -> String {
    kxo_engine::text::shown(text)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::End;

    #[test]
    fn a_game_is_tags_and_its_result_with_black_the_first_player() {
        let game = PlayedGame {
            game: 2,
            first: "a".into(),
            second: "b\"q".into(),
            opening: 0,
            moves: vec![0, 1, 2, 3, 4],
            us: vec![0; 5],
            cpu_us: [0; 2],
            result: GameResult::First,
            end: End::Forfeit,
            reason: "b\"q (X) forfeits: the brain answered 'x\\y'\u{1b}[2J".into(),
            transcripts: Vec::new(),
        };
        let text = entry(&game, "15x15 with 5 in a row");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "[Event \"kxo-tui arena\"]");
        assert_eq!(lines[2], "[Round \"3\"]");
        assert_eq!(lines[3], "[Black \"a\"]");
        assert_eq!(lines[4], "[White \"b\\\"q\"]");
        // The first player won: White's score first.
        assert_eq!(lines[5], "[Result \"0-1\"]");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert!(
            lines[6].starts_with("[Termination \"b\\\"q (X) forfeits"),
            "{text}"
        );
        assert_eq!(&lines[7..], ["[PlyCount \"5\"]", "", "0-1", ""]);
    }
}
