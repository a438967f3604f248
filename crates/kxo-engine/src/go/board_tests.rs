//! The board against Tromp's counts of legal Go positions (every chain
//! with a liberty): 57 on 2x2, 12,675 on 3x3, 24,318,165 on 4x4. The
//! small boards by an exhaustive walk of the board itself — every stone
//! either side may legally play, from every position reached, captures
//! and all — and 4x4 (too many positions to walk with a board of 19x19's
//! size) by counting every colouring that a flood of liberties proves
//! legal, a method the walk checks on 3x3.

use super::*;
use std::collections::{HashSet, VecDeque};

/// A position's key: its stones in base 3, cell by cell.
fn key(b: &Board) -> u64 {
    let n = b.size() as usize;
    (0..n * n).rev().fold(0u64, |k, cell| {
        k * 3
            + match b.at(b.point(cell)) {
                Stone::Black => 1,
                Stone::White => 2,
                _ => 0,
            }
    })
}

/// The board holding the stones of `key`.
fn from_key(size: u8, mut key: u64) -> Board {
    let mut b = Board::new(size);
    for cell in 0..size as usize * size as usize {
        let v = b.point(cell);
        match key % 3 {
            1 => b.place_unchecked(Player::O, v),
            2 => b.place_unchecked(Player::X, v),
            _ => {}
        }
        key /= 3;
    }
    b
}

/// Every position reachable from the empty board by legal stones of
/// either side (a position reached is legal, and every legal position
/// can be reached).
fn walked(size: u8) -> usize {
    let empty = Board::new(size);
    let mut seen = HashSet::from([key(&empty)]);
    let mut queue = VecDeque::from([key(&empty)]);
    while let Some(k) = queue.pop_front() {
        let board = from_key(size, k);
        board.check();
        for &e in board.empty_points() {
            for p in [Player::O, Player::X] {
                if !board.is_legal(p, e as usize) {
                    continue;
                }
                let mut next = board;
                next.play_legal(p, e as usize);
                let nk = key(&next);
                if seen.insert(nk) {
                    queue.push_back(nk);
                }
            }
        }
    }
    seen.len()
}

/// Colourings of an `n` x `n` board (n ≤ 4) in which every chain has a
/// liberty, counted with bitboards: a colour's stones that a flood from
/// the empty points reaches are alive; a position is legal when all are.
fn counted(n: u32) -> u64 {
    let cells = n * n;
    let all = (1u32 << cells) - 1;
    let col0: u32 = (0..n).map(|r| 1 << (r * n)).sum();
    let col_last = col0 << (n - 1);
    let dilate = |m: u32| ((m << 1) & !col0) | ((m >> 1) & !col_last) | (m << n) | (m >> n) & all;
    let alive = |stones: u32, empty: u32| {
        let mut reached = dilate(empty) & stones;
        loop {
            let more = reached | (dilate(reached) & stones);
            if more == reached {
                return reached == stones;
            }
            reached = more;
        }
    };
    let mut legal = 0u64;
    for black in 0..=all {
        // Every white set among the rest (submasks of the complement).
        let rest = all & !black;
        let mut white = rest;
        loop {
            let empty = rest & !white;
            if alive(black, empty) && alive(white, empty) {
                legal += 1;
            }
            if white == 0 {
                break;
            }
            white = (white - 1) & rest;
        }
    }
    legal
}

#[test]
fn walking_the_board_reaches_tromps_counts_of_legal_positions() {
    assert_eq!(walked(2), 57);
    assert_eq!(walked(3), 12_675);
}

#[test]
fn counting_colourings_gives_tromps_counts_up_to_4x4() {
    assert_eq!(counted(2), 57);
    assert_eq!(counted(3), 12_675);
    assert_eq!(counted(4), 24_318_165);
}
