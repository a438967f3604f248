//! Go, the second game family: a lib-ego board ([`board`]), a game on it
//! with positional superko, passes, handicap and area scoring
//! ([`position`]), light and heavy playouts ([`playout`]) with MoGo's 3x3
//! patterns ([`patterns`]), and moves as GTP writes them (columns A to T
//! without I, row 1 at the bottom) and as SGF writes them.
//!
//! Cells are the program's (`row * size + col`, row 0 at the top), a
//! pass is [`Cell::PASS`]; the board's own points have a border
//! ([`Board::point`]).

pub(crate) mod board;
pub(crate) mod patterns;
pub(crate) mod playout;
pub(crate) mod position;
pub(crate) mod tree;

pub use board::{Board, Stone};
pub use playout::{Playouts, playouts};
pub use position::{GoPosition, GoScore, OWNERSHIP_PLAYOUTS};
pub use tree::GoMcts;

use crate::game::{Cell, CoordError};

/// GTP's column letters: A to T without I.
const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// A move's name as GTP writes it: "C7" (row 1 at the bottom), "pass".
pub fn vertex_name(cell: Cell, size: u8) -> String {
    if cell.is_pass() {
        return "pass".to_string();
    }
    let n = size as usize;
    let (row, col) = (cell.index() / n, cell.index() % n);
    format!("{}{}", COLUMNS[col] as char, n - row)
}

/// Reads a GTP vertex ("c7", "C7", "pass", either case) on a `size` board.
pub fn parse_vertex(text: &str, size: u8) -> Result<Cell, CoordError> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("pass") {
        return Ok(Cell::PASS);
    }
    let shown = || crate::text::shown(&t.to_ascii_uppercase());
    let bad = || {
        CoordError(format!(
            "'{}' is not a point: write a column and a row, like C7, or pass",
            shown()
        ))
    };
    let mut chars = t.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let digits = chars.as_str();
    if !letter.is_ascii_uppercase()
        || digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let n = size as usize;
    let last = COLUMNS[n - 1] as char;
    let off = || {
        CoordError(format!(
            "{} is off the board: columns are A to {last} (no I), rows 1 to {n}",
            shown()
        ))
    };
    if letter == 'I' {
        return Err(CoordError(format!(
            "{}: Go boards have no column I (A to {last}, no I)",
            shown()
        )));
    }
    let col = COLUMNS
        .iter()
        .position(|&c| c as char == letter)
        .filter(|&c| c < n)
        .ok_or_else(off)?;
    let row: usize = digits.parse().map_err(|_| off())?;
    if !(1..=n).contains(&row) {
        return Err(off());
    }
    Ok(Cell::from_index((n - row) * n + col))
}

/// A move as SGF writes it: "cg" (column then row, `a` at the top left),
/// "" for a pass.
pub fn sgf_point(cell: Cell, size: u8) -> String {
    if cell.is_pass() {
        return String::new();
    }
    let n = size as usize;
    let (row, col) = (cell.index() / n, cell.index() % n);
    format!(
        "{}{}",
        (b'a' + col as u8) as char,
        (b'a' + row as u8) as char
    )
}

/// Reads an SGF point; "" (and "tt" on boards up to 19x19) is a pass.
pub fn parse_sgf_point(text: &str, size: u8) -> Option<Cell> {
    let b = text.trim().as_bytes();
    if b.is_empty() || b == b"tt" && size <= 19 {
        return Some(Cell::PASS);
    }
    let [c, r] = b else {
        return None;
    };
    let (col, row) = (c.checked_sub(b'a')? as usize, r.checked_sub(b'a')? as usize);
    let n = size as usize;
    (col < n && row < n).then(|| Cell::from_index(row * n + col))
}

/// The fixed handicap stones GTP places for `count` stones on a `size`
/// board (`fixed_handicap`): star points on the third line below 13x13,
/// the fourth from 13x13; none where the board has no such layout.
pub fn handicap_points(size: u8, count: u8) -> Vec<Cell> {
    let n = size as usize;
    let most = match n {
        0..=6 => 0,
        7 => 4,
        _ if n.is_multiple_of(2) => 4,
        _ => 9,
    };
    if count < 2 || count > most {
        return Vec::new();
    }
    let d = if n >= 13 { 3 } else { 2 };
    let (lo, mid, hi) = (d, n / 2, n - 1 - d);
    // (row from the top, column), in GTP's order.
    let at = |row: usize, col: usize| Cell::from_index(row * n + col);
    let corners = [at(hi, lo), at(lo, hi), at(hi, hi), at(lo, lo)];
    let mut points: Vec<Cell> = corners[..(count as usize).min(4)].to_vec();
    let sides_lr = [at(mid, lo), at(mid, hi)];
    let sides_tb = [at(lo, mid), at(hi, mid)];
    let centre = at(mid, mid);
    match count {
        5 => points.push(centre),
        6 => points.extend(sides_lr),
        7 => {
            points.extend(sides_lr);
            points.push(centre);
        }
        8 => {
            points.extend(sides_lr);
            points.extend(sides_tb);
        }
        9 => {
            points.extend(sides_lr);
            points.extend(sides_tb);
            points.push(centre);
        }
        _ => {}
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_read_back_as_gtp_writes_them() {
        for size in [5u8, 9, 13, 19] {
            for i in 0..size as usize * size as usize {
                let cell = Cell::from_index(i);
                let name = vertex_name(cell, size);
                assert_eq!(parse_vertex(&name, size), Ok(cell));
                assert_eq!(parse_vertex(&name.to_lowercase(), size), Ok(cell));
                assert_eq!(parse_sgf_point(&sgf_point(cell, size), size), Some(cell));
            }
        }
        // Row 1 at the bottom, no I: the bottom-left is A1, the top-right
        // of 19x19 is T19, and J follows H.
        assert_eq!(vertex_name(Cell::from_index(72), 9), "A1");
        assert_eq!(vertex_name(Cell::from_index(18), 19), "T19");
        assert_eq!(vertex_name(Cell::from_index(8), 9), "J9");
        assert_eq!(parse_vertex("pass", 9), Ok(Cell::PASS));
        assert!(parse_vertex("I5", 9).unwrap_err().0.contains("no column I"));
        assert!(
            parse_vertex("K5", 9)
                .unwrap_err()
                .0
                .contains("off the board")
        );
        assert!(parse_vertex("A10", 9).is_err());
        assert!(parse_vertex("A0", 9).is_err());
        let escaped = parse_vertex("\u{1b}[2J", 9).unwrap_err().0;
        assert!(
            escaped.contains("\\e") && !escaped.contains('\u{1b}'),
            "{escaped}"
        );
    }

    #[test]
    fn fixed_handicap_follows_gtp() {
        let names = |size, count| -> Vec<String> {
            handicap_points(size, count)
                .into_iter()
                .map(|c| vertex_name(c, size))
                .collect()
        };
        assert_eq!(names(9, 2), ["C3", "G7"]);
        assert_eq!(names(9, 5), ["C3", "G7", "G3", "C7", "E5"]);
        assert_eq!(names(19, 9).len(), 9);
        assert_eq!(names(19, 4), ["D4", "Q16", "Q4", "D16"]);
        assert!(names(19, 9).contains(&"K10".to_string()));
        assert!(handicap_points(8, 5).is_empty());
        assert!(handicap_points(5, 2).is_empty());
    }
}
