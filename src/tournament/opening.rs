//! Openings: the stones a game starts from, so that engines which play the
//! same moves from the same position still give different games.
//!
//! `random` draws a few stones near the centre from a seed (2–4 on boards
//! above 8x8, 0–2 on small ones), O and X in turn, and skips any opening a
//! side has already decided: a win in one for the side to move, or two
//! cells that each win for the other side. A file holds one opening a
//! line, as cell names (`h8 i9 j7`) or as Gomocup opening offsets from the
//! centre (`0,0, 1,1, -1,1`), which fit every board size.

use std::path::Path;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::{Cell, Player, Position, Rules, line_through};
use crate::text::shown;

/// The stones a game starts from, in the order they are placed (O first).
pub type Opening = Vec<Cell>;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the empty board.
    None,
    /// Drawn from the run's seed, one per round of games.
    Random,
    /// Read from a file, used in order and again from the top.
    List(Vec<Opening>),
}

/// Openings in a file: at most this many, of at most this many bytes a line.
const MAX_OPENINGS: usize = 100_000;
const MAX_LINE: usize = 4096;

impl Openings {
    /// The default for a board: random above 8x8, where the engines are
    /// deterministic enough to repeat games; none on small boards.
    pub fn default_for(rules: Rules) -> Openings {
        if rules.is_small() {
            Openings::None
        } else {
            Openings::Random
        }
    }

    /// Reads `--openings random|none|FILE`.
    pub fn from_arg(arg: &str, rules: Rules) -> Result<Openings, String> {
        match arg {
            "none" => Ok(Openings::None),
            "random" => Ok(Openings::Random),
            path => read_file(Path::new(path), rules).map(Openings::List),
        }
    }

    /// The opening of round `round` (both games of a pair share it).
    pub fn get(&self, rules: Rules, seed: u64, round: u32) -> Opening {
        match self {
            Openings::None => Vec::new(),
            Openings::Random => random(rules, mix(seed, round)),
            Openings::List(list) => list[round as usize % list.len()].clone(),
        }
    }

    /// Words for the report and the state file's fingerprint.
    pub fn describe(&self) -> String {
        match self {
            Openings::None => "none".into(),
            Openings::Random => "random".into(),
            Openings::List(list) => {
                let text: Vec<String> = list
                    .iter()
                    .map(|o| {
                        o.iter()
                            .map(|c| c.index().to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .collect();
                format!(
                    "{} from a file (crc {:08x})",
                    list.len(),
                    crc32fast::hash(text.join(";").as_bytes())
                )
            }
        }
    }
}

/// A random opening drawn from `seed`, not decided at once.
pub fn random(rules: Rules, seed: u64) -> Opening {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let size = rules.size() as i32;
    let (stones, radius) = if rules.is_small() {
        (rng.random_range(0..=2usize), size)
    } else {
        (rng.random_range(2..=4usize), 3)
    };
    let centre = size / 2;
    let near: Vec<Cell> = (0..rules.cells())
        .map(Cell::new)
        .filter(|c| {
            let (r, k) = (c.row(rules.size()) as i32, c.col(rules.size()) as i32);
            (r - centre).abs() <= radius && (k - centre).abs() <= radius
        })
        .collect();
    // A few hundred tries find one on every board this program plays; the
    // empty board is the fallback that is never decided.
    for _ in 0..1000 {
        let mut pos = Position::new(rules);
        let mut opening = Vec::with_capacity(stones);
        while opening.len() < stones {
            let cell = near[rng.random_range(0..near.len())];
            if pos.play(cell).is_ok() {
                opening.push(cell);
            }
        }
        if !decided_at_once(&pos) {
            return opening;
        }
    }
    Vec::new()
}

/// The game is over, the side to move wins in one, or the other side has
/// two winning cells (one block cannot stop both).
pub fn decided_at_once(pos: &Position) -> bool {
    if pos.outcome().is_over() {
        return true;
    }
    let rules = pos.rules();
    let wins_for = |side: Player| {
        let board = pos.board(side);
        pos.legal_moves()
            .filter(|c| {
                line_through(
                    &board.with(c.index()),
                    rules.size(),
                    rules.goal(),
                    c.index(),
                )
                .is_some()
            })
            .count()
    };
    wins_for(pos.to_move()) > 0 || wins_for(pos.to_move().other()) >= 2
}

/// Openings files, as the gate knows them: only ever read.
const OPENINGS_FILE: crate::gate::Kind = crate::gate::Kind {
    what: "openings file",
    max_bytes: 64 << 20,
    max_line: MAX_LINE,
    ours: crate::gate::Ours::Never,
};

/// Reads an openings file: one opening a line; blank lines and lines
/// starting with `#` are skipped.
fn read_file(path: &Path, rules: Rules) -> Result<Vec<Opening>, String> {
    use crate::gate::Line;
    let name = shown(&path.display().to_string());
    let mut lines = crate::gate::lines(path, OPENINGS_FILE)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("openings file {name}: it does not exist"))?;
    let mut openings = Vec::new();
    while let Some(line) = lines.next_line().map_err(|e| e.to_string())? {
        let number = lines.number();
        let at = |why: String| format!("openings file {name}, line {number}: {why}");
        let (Line::Whole(line) | Line::Cut(line)) = line;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let opening = parse_line(text, rules).map_err(at)?;
        let pos = Position::from_moves(rules, &opening)
            .map_err(|(i, e)| at(format!("stone {}: {e}", i + 1)))?;
        if pos.outcome().is_over() {
            return Err(at("the game is already over".into()));
        }
        openings.push(opening);
        if openings.len() > MAX_OPENINGS {
            return Err(format!(
                "openings file {name}: more than {MAX_OPENINGS} openings"
            ));
        }
    }
    if openings.is_empty() {
        return Err(format!("openings file {name} has no opening"));
    }
    Ok(openings)
}

/// One line: cell names (`h8 i9`, `h8,i9`) or Gomocup offsets from the
/// centre (`0,0, 1,1`).
pub fn parse_line(text: &str, rules: Rules) -> Result<Opening, String> {
    let words: Vec<&str> = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let numeric = words.iter().all(|w| {
        w.trim_start_matches('-')
            .bytes()
            .all(|b| b.is_ascii_digit())
            && w.len() < 6
    });
    if !numeric {
        return words
            .iter()
            .map(|w| Cell::parse(w, rules.size()).map_err(|e| e.to_string()))
            .collect();
    }
    if !words.len().is_multiple_of(2) {
        return Err(format!(
            "'{}': offsets come in pairs (x,y from the centre)",
            shown(text)
        ));
    }
    let size = rules.size() as i32;
    let centre = size / 2;
    words
        .chunks(2)
        .map(|xy| {
            let (dx, dy): (i32, i32) = (
                xy[0].parse().unwrap_or(i32::MAX),
                xy[1].parse().unwrap_or(i32::MAX),
            );
            let (x, y) = (centre.saturating_add(dx), centre.saturating_add(dy));
            if !(0..size).contains(&x) || !(0..size).contains(&y) {
                return Err(format!("offset {dx},{dy} is off a {size}x{size} board"));
            }
            Ok(Cell::from_row_col(y as u8, x as u8, rules.size()))
        })
        .collect()
}

/// A seed per round: SplitMix64's finaliser over the run's seed.
fn mix(seed: u64, round: u32) -> u64 {
    super::seed_for(seed ^ 0x6f70_656e_696e_6773, round, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_near_the_centre_sized_by_board_and_never_decided() {
        let big = Rules::new(15, 5).unwrap();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..300 {
            let o = random(big, seed);
            assert!((2..=4).contains(&o.len()), "{o:?}");
            for c in &o {
                assert!((4..=10).contains(&c.row(15)) && (4..=10).contains(&c.col(15)));
            }
            let pos = Position::from_moves(big, &o).unwrap();
            assert!(!decided_at_once(&pos));
            seen.insert(o);
        }
        assert!(seen.len() > 290, "openings repeat: {}", seen.len());
        let small = Rules::new(4, 3).unwrap();
        for seed in 0..300 {
            let o = random(small, seed);
            assert!(o.len() <= 2);
            assert!(!decided_at_once(&Position::from_moves(small, &o).unwrap()));
        }
    }

    #[test]
    fn decided_openings_are_recognised() {
        let rules = Rules::new(15, 5).unwrap();
        let pos = |names: &str| {
            let cells: Vec<Cell> = names
                .split_whitespace()
                .map(|n| Cell::parse(n, 15).unwrap())
                .collect();
            Position::from_moves(rules, &cells).unwrap()
        };
        // O to move with four in a row: a win in one.
        assert!(decided_at_once(&pos("a1 a15 b1 b15 c1 c15 d1 o8")));
        // X to move, O has an open four: two winning cells.
        assert!(decided_at_once(&pos("b1 a15 c1 b15 d1 o15 e1")));
        // X to move, O has four blocked at one end: one block holds.
        assert!(!decided_at_once(&pos("a1 a15 b1 b15 c1 o15 d1")));
        assert!(!decided_at_once(&pos("h8 i9")));
    }

    #[test]
    fn opening_lines_read_names_and_gomocup_offsets() {
        let rules = Rules::new(15, 5).unwrap();
        let h8 = Cell::parse("h8", 15).unwrap();
        assert_eq!(
            parse_line("h8 i9, j7", rules).unwrap(),
            ["h8", "i9", "j7"].map(|n| Cell::parse(n, 15).unwrap())
        );
        let offsets = parse_line("0,0, 1,1, -1,2", rules).unwrap();
        assert_eq!(offsets[0], h8);
        assert_eq!(offsets[1], Cell::parse("i9", 15).unwrap());
        assert_eq!(offsets[2], Cell::parse("g10", 15).unwrap());
        // The same offsets fit 20x20 around its centre, K10.
        let twenty = Rules::new(20, 5).unwrap();
        assert_eq!(
            parse_line("0,0", twenty).unwrap()[0],
            Cell::parse("k11", 20).unwrap()
        );
        assert!(parse_line("0,0, 1", rules).unwrap_err().contains("pairs"));
        assert!(parse_line("9,9", rules).unwrap_err().contains("off"));
        assert!(parse_line("z99", rules).is_err());
    }

    #[test]
    fn opening_files_skip_comments_and_refuse_bad_lines_by_number() {
        let dir = tempfile::tempdir().unwrap();
        let rules = Rules::new(15, 5).unwrap();
        let path = dir.path().join("openings.txt");
        std::fs::write(&path, "# two openings\nh8 i9 j7\n\n0,0, 1,0\n").unwrap();
        let Openings::List(list) = Openings::from_arg(path.to_str().unwrap(), rules).unwrap()
        else {
            panic!("a list");
        };
        assert_eq!(list.len(), 2);
        std::fs::write(&path, "h8 i9\nh8 h8\n").unwrap();
        let err = Openings::from_arg(path.to_str().unwrap(), rules).unwrap_err();
        assert!(err.contains("line 2") && err.contains("taken"), "{err}");
        std::fs::write(&path, "# nothing\n").unwrap();
        assert!(
            Openings::from_arg(path.to_str().unwrap(), rules)
                .unwrap_err()
                .contains("no opening")
        );
        assert!(
            Openings::from_arg("/nonexistent/o.txt", rules)
                .unwrap_err()
                .contains("does not exist")
        );
    }
}
