//! MoGo's 3x3 patterns (Gelly, Wang, Munos and Teytaud, "Modification of
//! UCT with Patterns in Monte-Carlo Go", 2006): hane, cuts and moves on
//! the edge, each matched at a point from the 8 points around it, under
//! the 8 symmetries of the square and with the colours swapped. One table
//! of 2^16 bits, indexed by [`super::Board::pattern_key`].
//!
//! The letters: `X` and `O` a stone of either colour (the other `O` or
//! `X`: the patterns hold for both sides), `.` empty, `x` not an `X`
//! (empty or `O`), `o` not an `O`, `#` off the board, `?` anything.
//! The centre of each pattern is the move.

use std::sync::OnceLock;

use super::board::Stone;

/// The patterns, rows from the top, the centre left out of none: each is
/// 9 letters, the fifth the move's own (always `.`).
const PATTERNS: [&str; 13] = [
    // Hane: the enclosing one, the non-cutting one, magari, the thin one.
    "XOX...???",
    "XO....?.?",
    "XO?X..?.?",
    "XOO...?.?",
    // Cuts: an unprotected cut, a peeped cut, and "de".
    "XO?O.o?o?",
    "XO?O.X???",
    "?X?O.Oooo",
    // On the edge: chase, block a cut, block a connection, sagari, cut.
    "X.?O.?###",
    "OX?X.O###",
    "?X?x.O###",
    "?XOx.x###",
    "?OXX.O###",
    // A placement under a stone on the edge side (make an eye).
    "?X.O.X###",
];

/// Whether `stone` is what `letter` asks for, `swap` telling which colour
/// `X` stands for.
fn fits(letter: u8, stone: Stone, swap: bool) -> bool {
    let (x, o) = match swap {
        false => (Stone::Black, Stone::White),
        true => (Stone::White, Stone::Black),
    };
    match letter {
        b'?' => true,
        b'.' => stone == Stone::Empty,
        b'#' => stone == Stone::OffBoard,
        b'X' => stone == x,
        b'O' => stone == o,
        b'x' => stone == Stone::Empty || stone == o,
        b'o' => stone == Stone::Empty || stone == x,
        _ => false,
    }
}

/// The pattern's 8 letters round its centre after symmetry `s` (0..8),
/// in the key's order (reading order, the centre left out).
fn turned(pattern: &[u8], s: usize) -> [u8; 8] {
    // (row, col) of each of the key's points, from the centre.
    const AROUND: [(i32, i32); 8] = [
        (-1, -1),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let mut out = [b'?'; 8];
    for (slot, &(r, c)) in out.iter_mut().zip(&AROUND) {
        // Where this point of the board comes from in the pattern.
        let (r, c) = match s {
            0 => (r, c),
            1 => (c, -r),
            2 => (-r, -c),
            3 => (-c, r),
            4 => (r, -c),
            5 => (-r, c),
            6 => (c, r),
            _ => (-c, -r),
        };
        *slot = pattern[((r + 1) * 3 + c + 1) as usize];
    }
    out
}

/// The table: bit `key` is set where some pattern matches. Each pattern,
/// turned and with its colours swapped, is spread into the keys its
/// letters allow (a `?` four ways, an `x` or `o` two).
fn table() -> &'static [u64; 1024] {
    static TABLE: OnceLock<Box<[u64; 1024]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let stones = [Stone::Empty, Stone::Black, Stone::White, Stone::OffBoard];
        let mut table = Box::new([0u64; 1024]);
        for pattern in PATTERNS {
            for s in 0..8 {
                let shape = turned(pattern.as_bytes(), s);
                for swap in [false, true] {
                    // The stones each of the 8 points may hold.
                    let allowed: Vec<Vec<u16>> = shape
                        .iter()
                        .map(|&l| {
                            (0..4u16)
                                .filter(|&st| fits(l, stones[st as usize], swap))
                                .collect()
                        })
                        .collect();
                    let mut keys = vec![0u16];
                    for choices in &allowed {
                        keys = keys
                            .iter()
                            .flat_map(|&k| choices.iter().map(move |&c| k << 2 | c))
                            .collect();
                    }
                    for key in keys {
                        table[key as usize >> 6] |= 1 << (key & 63);
                    }
                }
            }
        }
        table
    })
}

/// Whether a move with `key` around it matches one of the patterns.
#[inline]
pub(crate) fn matches(key: u16) -> bool {
    table()[key as usize >> 6] >> (key & 63) & 1 == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::go::{Board, parse_vertex};

    fn board(moves: &str) -> Board {
        let mut b = Board::new(9);
        let mut side = Player::O;
        for m in moves.split_whitespace() {
            let cell = parse_vertex(m, 9).unwrap();
            let v = b.point(cell.index());
            b.play_legal(side, v);
            side = side.other();
        }
        b
    }

    #[test]
    fn the_patterns_match_hane_and_cuts_in_every_orientation() {
        // A hane: Black E5, White E6 (above); D6 is the enclosing hane's
        // point once Black also has F6... here "XO." above the move D5:
        // Black C6, White D6, the move at D5 with E6 empty.
        let b = board("C6 D6");
        let d5 = b.point(parse_vertex("D5", 9).unwrap().index());
        assert!(matches(b.pattern_key(d5)));
        // The empty board matches nothing.
        let empty = Board::new(9);
        let e5 = empty.point(parse_vertex("E5", 9).unwrap().index());
        assert!(!matches(empty.pattern_key(e5)));
        // Each of the 8 turns of the board, and the colours swapped, is
        // the same shape: count the keys each pattern gives.
        let keys = (0..=u16::MAX).filter(|&k| matches(k)).count();
        assert!(keys > 100 && keys < 20_000, "{keys} keys");
    }
}
