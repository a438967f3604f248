//! Cells and their names: columns A.., rows 1.. from the top ("B3"). In
//! Go a move may also be a pass, which is a cell of no board
//! ([`Cell::PASS`]), as GTP's vertex is a point or "pass".

use std::fmt;

/// A cell of the board, by index `row * size + col`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

/// Why a coordinate could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoordError(pub String);

impl fmt::Display for CoordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for CoordError {}

impl Cell {
    /// A pass (Go): no cell of any board.
    pub const PASS: Cell = Cell(u16::MAX);

    /// Whether this is a pass rather than a cell.
    pub const fn is_pass(self) -> bool {
        self.0 == u16::MAX
    }

    pub const fn new(index: u16) -> Cell {
        Cell(index)
    }
    /// The cell at bit `index` of a bitboard.
    pub const fn from_index(index: usize) -> Cell {
        Cell(index as u16)
    }
    pub fn from_row_col(row: u8, col: u8, size: u8) -> Cell {
        Cell(row as u16 * size as u16 + col as u16)
    }
    /// The cell's bit in a bitboard: `row * size + col`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub fn row(self, size: u8) -> u8 {
        (self.0 / size as u16) as u8
    }
    pub fn col(self, size: u8) -> u8 {
        (self.0 % size as u16) as u8
    }

    /// The cell's name on a board of side `size`, e.g. "B3".
    pub fn name(self, size: u8) -> String {
        if self.is_pass() {
            return "pass".to_string();
        }
        format!("{}{}", (b'A' + self.col(size)) as char, self.row(size) + 1)
    }

    /// Reads a name such as "b3" (either case, surrounding spaces ignored).
    pub fn parse(text: &str, size: u8) -> Result<Cell, CoordError> {
        let t = text.trim();
        let mut chars = t.chars();
        let bad = || not_a_cell(t);
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() {
            return Err(bad());
        }
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: u32 = digits.parse().map_err(|_| bad())?;
        let col = letter as u32 - 'A' as u32;
        let last_col = (b'A' + size - 1) as char;
        if col >= size as u32 || row == 0 || row > size as u32 {
            return Err(CoordError(format!(
                "{} is off the board: columns are A to {last_col}, rows 1 to {size}",
                crate::text::shown(&t.to_ascii_uppercase())
            )));
        }
        Ok(Cell::from_row_col((row - 1) as u8, col as u8, size))
    }

    /// Reads a list of moves: "B2,C3", or a game's record as kxo-tui
    /// shows it, copied from the screen ("B2 → C3", "1. B2 C3  2. A1"):
    /// cells separated by commas, spaces (non-breaking ones too) or
    /// arrows, move numbers skipped. Nothing between two commas is an
    /// error: a move left out.
    pub fn parse_list(text: &str, size: u8) -> Result<Vec<Cell>, CoordError> {
        Cell::parse_list_with(text, |word| Cell::parse(word, size))
    }

    /// [`Cell::parse_list`] with each cell read by `parse`.
    pub fn parse_list_with(
        text: &str,
        parse: impl Fn(&str) -> Result<Cell, CoordError>,
    ) -> Result<Vec<Cell>, CoordError> {
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        let mut cells = Vec::new();
        for part in text.split(',') {
            let before = cells.len();
            for word in part
                .split(|c: char| c.is_whitespace() || c == '→')
                .filter(|w| !w.is_empty() && !is_move_number(w))
            {
                cells.push(parse(word)?);
            }
            if cells.len() == before {
                return Err(not_a_cell(part.trim()));
            }
        }
        Ok(cells)
    }
}

fn not_a_cell(text: &str) -> CoordError {
    CoordError(format!(
        "'{}' is not a cell: use a column letter and a row number, like B3",
        crate::text::shown(text)
    ))
}

/// A record's move number: "1.", "12.".
fn is_move_number(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_follow_columns_then_rows() {
        assert_eq!(Cell::from_row_col(2, 1, 4).name(4), "B3");
        assert_eq!(Cell::new(0).name(8), "A1");
        assert_eq!(Cell::new(63).name(8), "H8");
        assert_eq!(Cell::new(399).name(20), "T20");
        assert_eq!(Cell::parse("h12", 15), Ok(Cell::from_row_col(11, 7, 15)));
    }

    #[test]
    fn parse_accepts_either_case() {
        assert_eq!(Cell::parse("b3", 4), Ok(Cell::from_row_col(2, 1, 4)));
        assert_eq!(Cell::parse(" C1 ", 4), Ok(Cell::new(2)));
    }

    #[test]
    fn parse_rejects_bad_text_with_a_clear_message() {
        for bad in ["", "3b", "b", "bb", "b-1", "b3x", "é3"] {
            let err = Cell::parse(bad, 4).unwrap_err();
            assert!(err.0.contains("not a cell"), "{bad}: {err}");
        }
        for off in ["z9", "e1", "a5", "a0"] {
            let err = Cell::parse(off, 4).unwrap_err();
            assert!(err.0.contains("off the board"), "{off}: {err}");
        }
    }

    #[test]
    fn a_list_reads_commas_and_records_as_the_screen_shows_them() {
        let want = Ok(vec![Cell::new(5), Cell::new(10), Cell::new(0)]);
        for text in [
            "B2,C3,A1",
            "b2, c3, a1",
            "B2 → C3 → A1",
            "1. B2 C3   2. A1",
            "1.\u{a0}B2\u{a0}C3   2.\u{a0}A1",
            "  B2\tC3\nA1  ",
        ] {
            assert_eq!(Cell::parse_list(text, 4), want, "{text:?}");
        }
        assert_eq!(Cell::parse_list(" ", 4), Ok(Vec::new()));
        // A move left out between commas, a stray word, a cell off the board.
        for bad in ["B2,,C3", "B2,C3,", "1. B2 → x", "B2 → E5"] {
            assert!(Cell::parse_list(bad, 4).is_err(), "{bad}");
        }
        assert!(
            Cell::parse_list("B2,,C3", 4)
                .unwrap_err()
                .0
                .contains("'' is not a cell")
        );
    }

    proptest! {
        #[test]
        fn name_and_parse_round_trip(size in 3u8..=20, seed in 0u16..400) {
            let cell = Cell::new(seed % (size as u16 * size as u16));
            prop_assert_eq!(Cell::parse(&cell.name(size), size), Ok(cell));
        }
    }
}
