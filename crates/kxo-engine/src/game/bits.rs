//! A set of cells on any supported board: a bitboard of several words.
//!
//! Boards of at most 64 cells (up to 8x8) fit one `u64`, and the engines
//! tuned for them work on plain `u64`s. A [`Bits`] holds up to 448 cells
//! (21x21), enough for the 20x20 board of the Gomoku tournaments; the
//! positions of the game layer and the big-board engines use it.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

/// Words of a [`Bits`].
pub(crate) const WORDS: usize = 7;
/// Cells a [`Bits`] can hold.
pub(crate) const CAPACITY: usize = WORDS * 64;

/// A set of cells, bit `row * size + col`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits([u64; WORDS]);

impl Bits {
    pub const EMPTY: Bits = Bits([0; WORDS]);

    /// The cells of a one-word bitboard.
    pub const fn from_word(word: u64) -> Bits {
        let mut w = [0; WORDS];
        w[0] = word;
        Bits(w)
    }

    /// The first `n` cells.
    pub fn first_n(n: usize) -> Bits {
        let mut b = Bits::EMPTY;
        for (i, word) in b.0.iter_mut().enumerate() {
            let start = i * 64;
            *word = match n.saturating_sub(start) {
                0 => 0,
                k if k >= 64 => u64::MAX,
                k => (1u64 << k) - 1,
            };
        }
        b
    }

    /// The cells below 64, for boards that fit one word.
    #[inline]
    pub const fn low_word(&self) -> u64 {
        self.0[0]
    }

    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        self.0[cell / 64] >> (cell % 64) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.0[cell / 64] &= !(1 << (cell % 64));
    }

    /// This set with `cell` added.
    #[inline]
    pub fn with(mut self, cell: usize) -> Bits {
        self.insert(cell);
        self
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// The cells of `self` that are not in `other`.
    #[inline]
    pub fn and_not(self, other: Bits) -> Bits {
        let mut out = self;
        for (o, w) in out.0.iter_mut().zip(other.0) {
            *o &= !w;
        }
        out
    }

    /// The lowest cell, if any.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// The `k`-th lowest cell (from 0), if there are more than `k`.
    #[inline]
    pub fn nth(&self, mut k: u32) -> Option<usize> {
        for (i, &w) in self.0.iter().enumerate() {
            let n = w.count_ones();
            if k < n {
                return Some(i * 64 + select_bit(w, k) as usize);
            }
            k -= n;
        }
        None
    }

    /// The cells in increasing order.
    #[inline]
    pub fn iter(&self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

/// The cells of a [`Bits`], lowest first: one word at a time, so a board
/// of one word costs one word's walk and a check of the empty rest.
pub struct BitsIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let w = &mut self.words[self.word];
            if *w != 0 {
                let bit = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.word * 64 + bit);
            }
            self.word += 1;
        }
        None
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    #[inline]
    fn bitand(mut self, rhs: Bits) -> Bits {
        self &= rhs;
        self
    }
}

impl BitAndAssign for Bits {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bits) {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a &= b;
        }
    }
}

impl BitOr for Bits {
    type Output = Bits;
    #[inline]
    fn bitor(mut self, rhs: Bits) -> Bits {
        self |= rhs;
        self
    }
}

impl BitOrAssign for Bits {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bits) {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a |= b;
        }
    }
}

/// The complement over all [`CAPACITY`] cells: mask it with the board.
impl Not for Bits {
    type Output = Bits;
    #[inline]
    fn not(self) -> Bits {
        Bits(self.0.map(|w| !w))
    }
}

impl FromIterator<usize> for Bits {
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> Bits {
        let mut b = Bits::EMPTY;
        for c in cells {
            b.insert(c);
        }
        b
    }
}

/// `SELECT_IN_BYTE[b][k]`: position of the k-th set bit of byte `b`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = build_select_table();

const fn build_select_table() -> [[u8; 8]; 256] {
    let mut table = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                table[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    table
}

/// Index of the `k`-th (from 0) set bit of `mask`; `k` must be below
/// `mask.count_ones()`. Portable: a byte at a time, then a 2 KiB table.
#[inline(always)]
pub(crate) fn select_bit(mask: u64, k: u32) -> u8 {
    let mut rest = mask;
    let mut k = k;
    let mut base = 0u8;
    loop {
        let byte = (rest & 0xff) as usize;
        let count = byte.count_ones();
        if k < count {
            return base + SELECT_IN_BYTE[byte][k as usize];
        }
        k -= count;
        rest >>= 8;
        base += 8;
    }
}

/// `SET_NIBBLES[b]`: the positions of the set bits of byte `b`, ascending,
/// one per 4-bit digit from the lowest.
static SET_NIBBLES: [u32; 256] = build_nibble_table(0);
/// The same for the high byte of a 16-bit mask: positions 8 to 15.
static SET_NIBBLES_HIGH: [u32; 256] = build_nibble_table(8);

/// The positions of the set bits of byte `b`, each plus `offset`,
/// ascending, one per `width`-bit digit from the lowest.
const fn byte_positions(b: u32, offset: u32, width: u32) -> u64 {
    let (mut list, mut digit, mut bit) = (0u64, 0, 0);
    while bit < 8 {
        if b & (1 << bit) != 0 {
            list |= ((bit + offset) as u64) << (width * digit);
            digit += 1;
        }
        bit += 1;
    }
    list
}

const fn build_nibble_table(offset: u32) -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        table[b as usize] = byte_positions(b, offset, 4) as u32;
        b += 1;
    }
    table
}

/// `SET_BYTES[b]`: the positions of the set bits of byte `b`, ascending,
/// one per byte from the lowest.
static SET_BYTES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        table[b as usize] = byte_positions(b, 0, 8);
        b += 1;
    }
    table
};

/// The positions (0 to 7) of the set bits of `byte`, ascending, one per
/// byte of the result from the lowest; the bytes past the last are zero.
#[inline(always)]
pub(crate) fn set_bits_as_bytes(byte: u8) -> u64 {
    SET_BYTES[byte as usize]
}

/// The set bits of a 16-bit mask as a list of 4-bit cell numbers,
/// ascending from the lowest digit: the k-th set bit is digit k. Two table
/// reads, no loop.
#[inline(always)]
pub(crate) fn set_bits_as_nibbles(mask: u16) -> u64 {
    let (low, high) = ((mask & 0xff) as usize, (mask >> 8) as usize);
    SET_NIBBLES[low] as u64 | (SET_NIBBLES_HIGH[high] as u64) << (4 * low.count_ones())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_lists_hold_the_set_bits_in_order() {
        for byte in 0..=255u8 {
            let want: Vec<u8> = (0..8).filter(|i| byte >> i & 1 == 1).collect();
            let got = set_bits_as_bytes(byte).to_le_bytes();
            assert_eq!(&got[..want.len()], &want[..], "{byte:#x}");
            assert!(got[want.len()..].iter().all(|&b| b == 0), "{byte:#x}");
        }
    }

    #[test]
    fn nibble_lists_hold_the_set_bits_in_order() {
        for mask in 0..=u16::MAX {
            let list = set_bits_as_nibbles(mask);
            for k in 0..mask.count_ones() {
                let cell = (list >> (4 * k)) & 0xf;
                assert_eq!(
                    cell as u8,
                    select_bit(mask as u64, k),
                    "mask {mask:#x} k {k}"
                );
            }
        }
    }

    #[test]
    fn cells_across_words() {
        let cells = [0, 63, 64, 127, 200, 399, CAPACITY - 1];
        let b: Bits = cells.into_iter().collect();
        assert_eq!(b.count(), cells.len() as u32);
        assert_eq!(b.iter().collect::<Vec<_>>(), cells);
        for (k, &c) in cells.iter().enumerate() {
            assert!(b.contains(c));
            assert_eq!(b.nth(k as u32), Some(c));
        }
        assert_eq!(b.nth(cells.len() as u32), None);
        assert_eq!(b.first(), Some(0));
        let mut c = b;
        c.remove(0);
        assert_eq!(c.first(), Some(63));
        assert_eq!((b & !c).iter().collect::<Vec<_>>(), [0]);
        assert_eq!(b.and_not(c), Bits::from_word(1));
        assert!((b & Bits::EMPTY).is_empty());
    }

    #[test]
    fn first_n_is_the_board_mask() {
        for n in [0, 1, 9, 64, 65, 225, 400, CAPACITY] {
            let b = Bits::first_n(n);
            assert_eq!(b.count() as usize, n);
            assert!(n == 0 || b.contains(n - 1));
            assert!(n == CAPACITY || !b.contains(n));
        }
    }
}
