//! Openings: the stones a game starts from, so that engines which play the
//! same moves from the same position still give different games.
//!
//! `random` draws a few stones near the centre from a seed (2–4 on boards
//! above 8x8, 0–2 on small ones), O and X in turn, and skips any opening a
//! side has already decided: a win in one for the side to move, or two
//! cells that each win for the other side. A file holds one opening a
//! line, as cell names (`h8 i9 j7`) or as Gomocup opening offsets from the
//! centre (`0,0, 1,1, -1,1`), which fit every board size. A file's
//! openings are used in its order or shuffled by the run's seed, from a
//! chosen one, each round's turned or not by one of the board's eight
//! symmetries (as c-gomoku-cli's `order=random` and `-transform`).

use std::path::Path;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

pub use kxo_engine::openings::{decided_at_once, random};
use kxo_engine::text::shown;
use kxo_engine::{Cell, Position, Rules};

/// The stones a game starts from, in the order they are placed (O first).
pub type Opening = Vec<Cell>;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the empty board.
    None,
    /// Drawn from the run's seed, one per round of games.
    Random,
    /// Read from a file, used in turn (from the top again after the last).
    List(Vec<Opening>, ListUse),
}

/// How a file's openings are used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListUse {
    /// Shuffled by the run's seed (see [`Openings::arrange`]).
    pub shuffled: bool,
    /// The first used, counted from 0.
    pub start: usize,
    /// Each round's opening turned by one of the 8 symmetries of the
    /// square, drawn from the seed and the round.
    pub transform: bool,
}

/// Openings in a file: at most this many, of at most this many bytes a line.
const MAX_OPENINGS: usize = 100_000;
const MAX_LINE: usize = 4096;

impl Openings {
    /// The default for a board: random above 8x8, where the engines are
    /// deterministic enough to repeat games; none on small boards.
    pub fn default_for(rules: Rules) -> Openings {
        if rules.is_small() || rules.is_go() {
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
            path => read_file(Path::new(path), rules)
                .map(|list| Openings::List(list, ListUse::default())),
        }
    }

    /// Sets how a file's openings are used, the list shuffled now by
    /// `seed` when asked; an error for openings not from a file.
    pub fn arrange(&mut self, mut how: ListUse, seed: u64) -> Result<(), String> {
        let Openings::List(list, used) = self else {
            return if how == ListUse::default() {
                Ok(())
            } else {
                Err("the order, start and symmetries of openings are for --openings FILE".into())
            };
        };
        if how.start >= list.len() {
            return Err(format!(
                "--openings-start {} is past the file's {} openings",
                how.start + 1,
                list.len()
            ));
        }
        if how.shuffled && !used.shuffled {
            use rand::seq::SliceRandom;
            list.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(mix(seed, u32::MAX)));
        }
        how.shuffled |= used.shuffled;
        *used = how;
        Ok(())
    }

    /// The opening of round `round` (both games of a pair share it).
    pub fn get(&self, rules: Rules, seed: u64, round: u32) -> Opening {
        match self {
            Openings::None => Vec::new(),
            Openings::Random => random(rules, mix(seed, round)),
            Openings::List(list, how) => {
                let opening = &list[(how.start + round as usize) % list.len()];
                if how.transform {
                    let symmetry = (mix(seed ^ 0x0074_7261_6e73, round) % 8) as u8;
                    opening
                        .iter()
                        .map(|&c| turned(c, rules, symmetry))
                        .collect()
                } else {
                    opening.clone()
                }
            }
        }
    }

    /// Words for the report and the state file's fingerprint.
    pub fn describe(&self) -> String {
        match self {
            Openings::None => "none".into(),
            Openings::Random => "random".into(),
            Openings::List(list, how) => {
                let text: Vec<String> = list
                    .iter()
                    .map(|o| {
                        o.iter()
                            .map(|c| c.index().to_string())
                            .collect::<Vec<_>>()
                            .join(",")
                    })
                    .collect();
                let mut words = format!(
                    "{} from a file (crc {:08x})",
                    list.len(),
                    crc32fast::hash(text.join(";").as_bytes())
                );
                if how.shuffled {
                    words += ", shuffled";
                }
                if how.start > 0 {
                    words += &format!(", from number {}", how.start + 1);
                }
                if how.transform {
                    words += ", turned";
                }
                words
            }
        }
    }
}

/// `cell` under one of the eight symmetries of the square board: turned
/// a quarter `symmetry % 4` times, mirrored when `symmetry >= 4`.
pub fn turned(cell: Cell, rules: Rules, symmetry: u8) -> Cell {
    let n = rules.size();
    let (mut row, mut col) = (cell.row(n), cell.col(n));
    if symmetry >= 4 {
        col = n - 1 - col;
    }
    for _ in 0..symmetry % 4 {
        (row, col) = (col, n - 1 - row);
    }
    Cell::from_row_col(row, col, n)
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
            .map(|w| rules.parse_cell(w).map_err(|e| e.to_string()))
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
    fn the_eight_symmetries_are_distinct_and_keep_lines_lines() {
        let rules = Rules::new(15, 5).unwrap();
        // An opening with no symmetry of its own: eight different images.
        let opening = parse_line("h8 i8 h10", rules).unwrap();
        let images: std::collections::HashSet<Vec<Cell>> = (0..8)
            .map(|t| opening.iter().map(|&c| turned(c, rules, t)).collect())
            .collect();
        assert_eq!(images.len(), 8);
        // The centre stays, and five in a row stay five in a row.
        let centre = Cell::parse("h8", 15).unwrap();
        let lines = [
            "a1 b2 c3 d4 e5",
            "c4 d4 e4 f4 g4",
            "k2 k3 k4 k5 k6",
            "o1 n2 m3 l4 k5",
        ];
        for t in 0..8 {
            assert_eq!(turned(centre, rules, t), centre);
            for line in lines {
                let cells: Vec<(i32, i32)> = parse_line(line, rules)
                    .unwrap()
                    .iter()
                    .map(|&c| {
                        let c = turned(c, rules, t);
                        (c.row(15) as i32, c.col(15) as i32)
                    })
                    .collect();
                let step = (cells[1].0 - cells[0].0, cells[1].1 - cells[0].1);
                assert!(step.0.abs() <= 1 && step.1.abs() <= 1 && step != (0, 0));
                assert!(
                    cells
                        .windows(2)
                        .all(|w| (w[1].0 - w[0].0, w[1].1 - w[0].1) == step),
                    "symmetry {t}: {line} became {cells:?}"
                );
            }
        }
    }

    #[test]
    fn a_file_s_openings_shuffle_start_and_turn_by_the_seed() {
        let rules = Rules::new(15, 5).unwrap();
        let list: Vec<Opening> = ["h8", "h9", "h10", "i8", "i9", "i10"]
            .iter()
            .map(|l| parse_line(l, rules).unwrap())
            .collect();
        let plain = Openings::List(list.clone(), ListUse::default());
        let firsts = |o: &Openings, seed| (0..6).map(|r| o.get(rules, seed, r)).collect::<Vec<_>>();
        assert_eq!(firsts(&plain, 1), list);
        // From the third, round the end.
        let mut started = plain.clone();
        let from_third = ListUse {
            start: 2,
            ..ListUse::default()
        };
        started.arrange(from_third, 1).unwrap();
        assert_eq!(started.get(rules, 1, 0), list[2]);
        assert_eq!(started.get(rules, 1, 4), list[0]);
        // Shuffled: every opening once a cycle, in an order the seed sets.
        let shuffled = |seed| {
            let mut o = plain.clone();
            o.arrange(
                ListUse {
                    shuffled: true,
                    ..ListUse::default()
                },
                seed,
            )
            .unwrap();
            firsts(&o, seed)
        };
        let (one, two) = (shuffled(1), shuffled(2));
        assert_eq!(one, shuffled(1));
        assert_ne!(one, two);
        let mut sorted = one.clone();
        sorted.sort();
        let mut expected = list.clone();
        expected.sort();
        assert_eq!(sorted, expected);
        // Turned: a pair's two games share their symmetry; rounds differ.
        let mut turned_list = plain.clone();
        turned_list
            .arrange(
                ListUse {
                    transform: true,
                    ..ListUse::default()
                },
                5,
            )
            .unwrap();
        let centre_off: std::collections::HashSet<Opening> = (0..60)
            .map(|r| turned_list.get(rules, 5, r * 6 + 1))
            .collect();
        assert!(centre_off.len() >= 3, "{centre_off:?}");
        assert!(turned_list.describe().ends_with(", turned"));
        // Past the end, or not for a file: a clear error.
        let mut short = plain.clone();
        assert!(
            short
                .arrange(
                    ListUse {
                        start: 6,
                        ..ListUse::default()
                    },
                    1
                )
                .is_err()
        );
        assert!(Openings::Random.arrange(from_third, 1).is_err());
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
        // Names as Gomoku writes them: rows from the bottom.
        let h8 = rules.parse_cell("h8").unwrap();
        assert_eq!(h8, Cell::from_row_col(7, 7, 15));
        assert_eq!(
            parse_line("h8 i9, j7", rules).unwrap(),
            ["h8", "i9", "j7"].map(|n| rules.parse_cell(n).unwrap())
        );
        assert_eq!(
            rules.parse_cell("a1").unwrap(),
            Cell::from_row_col(14, 0, 15)
        );
        // Gomocup's offsets: y grows downward, so 1,1 is I7.
        let offsets = parse_line("0,0, 1,1, -1,2", rules).unwrap();
        assert_eq!(offsets[0], h8);
        assert_eq!(offsets[1], rules.parse_cell("i7").unwrap());
        assert_eq!(offsets[2], rules.parse_cell("g6").unwrap());
        // The same offsets fit 20x20 around its centre, K10.
        let twenty = Rules::new(20, 5).unwrap();
        assert_eq!(
            parse_line("0,0", twenty).unwrap()[0],
            twenty.parse_cell("k10").unwrap()
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
        let Openings::List(list, _) = Openings::from_arg(path.to_str().unwrap(), rules).unwrap()
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
