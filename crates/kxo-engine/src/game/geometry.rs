//! Board geometry for an N x N board with K in a row: win masks, symmetries
//! and Zobrist keys, generated once per (N, K) and shared by every position
//! of boards up to 8x8.

use rand::{Rng, SeedableRng};
use rand_xoshiro::SplitMix64;

/// Words of the line table of boards of at most 16 cells: one bit per
/// cell set.
pub(crate) const LINE_TABLE_WORDS: usize = (1 << 16) / 64;

/// Evaluates `$body` with `$k` a constant equal to the goal `$goal` (3 to
/// 7, and 8 for 8 and above), so that a win test written for a constant K
/// unrolls: `for_goal!(geo.goal, |K| geo.has_line_through_bmi2::<K>(bb, cell))`.
macro_rules! for_goal {
    ($goal:expr, |$k:ident| $body:expr) => {
        match $goal {
            3 => {
                const $k: u32 = 3;
                $body
            }
            4 => {
                const $k: u32 = 4;
                $body
            }
            5 => {
                const $k: u32 = 5;
                $body
            }
            6 => {
                const $k: u32 = 6;
                $body
            }
            7 => {
                const $k: u32 = 7;
                $body
            }
            _ => {
                const $k: u32 = 8;
                $body
            }
        }
    };
}
pub(crate) use for_goal;

/// Whether the cell set `bb` (of a board of at most 16 cells) contains a
/// line, by one bit of that board's line table.
#[inline(always)]
pub(crate) fn table_has_line(table: &[u64; LINE_TABLE_WORDS], bb: u64) -> bool {
    // `bb` holds at most 16 cells, so the mask changes nothing; it lets the
    // compiler drop the bounds check.
    table[(bb >> 6) as usize & (LINE_TABLE_WORDS - 1)] >> (bb & 63) & 1 != 0
}

/// Per cell set of a board of at most 16 cells: the cells that complete a
/// line for a player holding it, and the cells of the lines it does not
/// touch ([`Geometry::cell_tables`]).
pub(crate) type CellTables = [(u16, u16)];

/// The one-word tables of a board of at most 64 cells: win masks,
/// symmetries and Zobrist keys, shared by every position.
pub struct Geometry {
    pub size: u8,
    pub goal: u8,
    pub cells: u8,
    /// Mask of all cells of the board.
    pub full: u64,
    /// Every winning line as a bitboard (bit `row * size + col`).
    pub lines: Vec<u64>,
    /// For each cell, the lines through it.
    pub lines_through: Vec<Vec<u64>>,
    /// For boards with more lines than cells, up to 64 lines: for each
    /// cell, the indices in `lines` of the lines through it, as bits. The
    /// solver then counts stones on all lines at once, in bit planes, and
    /// reads per-cell facts from a few popcounts; with fewer lines than
    /// cells, walking the lines is cheaper (measured on 4x4 K=4 and 5x5
    /// K=5).
    pub line_index_masks: Option<Vec<u64>>,
    /// Every winning line in the 2-bit table encoding, for O (X's is this
    /// shifted left by one bit).
    pub table_lines: Vec<u128>,
    /// For boards of at most 16 cells: bit `m` is set when the cell set `m`
    /// contains a line. 8 KiB, so it stays in L1 during playouts; its fixed
    /// length lets a lookup mask its index instead of checking it.
    pub line_bits: Option<Box<[u64; LINE_TABLE_WORDS]>>,
    /// For boards of at most 16 cells, per cell set `m`: the cells that
    /// complete a line for a player holding `m` (`.0`; mask with the empty
    /// cells), and the cells of the lines `m` does not touch (`.1`: the
    /// lines still open to the other player). 256 KiB for 4x4, built when
    /// a solver first asks (see [`Geometry::cell_tables`]).
    cell_tables: std::sync::OnceLock<Option<Box<CellTables>>>,
    /// The shift-and win test of larger boards: for each direction, its
    /// shift and, for each step `j < K`, the cells whose `j`-th neighbour in
    /// that direction is on the board (so a shift never wraps a row).
    pub shift: [(u32, [u64; 8]); 4],
    /// `segments[c][d]`: the cells within K-1 of cell `c` along direction
    /// `d`, `c` included: every line through `c` in that direction lies in
    /// it. Extracted with `pext`, a segment reads as consecutive bits.
    pub segments: Box<[[u64; 4]; 64]>,
    /// `sym[s][c]` is the cell that `c` moves to under symmetry `s`
    /// (s = 0 is the identity).
    pub sym: [[u8; 64]; 8],
    /// `sym_inv[s]` undoes `sym[s]`.
    pub sym_inv: [[u8; 64]; 8],
    /// Byte-wise lookup tables to map a whole bitboard through a symmetry:
    /// `sym_bytes[s][byte][value]`.
    sym_bytes: Vec<[[u64; 256]; 8]>,
    /// Zobrist keys `zobrist[player][cell]`.
    pub zobrist: [[u64; 64]; 2],
    /// `sym_zobrist[s][player][cell]`: the key of `cell` after symmetry `s`,
    /// so a search can keep the hashes of all 8 images of a position.
    pub sym_zobrist: Box<[[[u64; 64]; 2]; 8]>,
}

impl Geometry {
    pub(super) fn build(size: u8, goal: u8) -> Geometry {
        let (n, k) = (size as i32, goal as i32);
        let cells = size * size;
        let lines = all_lines(n, k);
        let lines_through = (0..cells)
            .map(|cell| {
                lines
                    .iter()
                    .copied()
                    .filter(|m| m & (1u64 << cell) != 0)
                    .collect()
            })
            .collect();
        let line_index_masks = (lines.len() <= 64 && lines.len() > cells as usize).then(|| {
            (0..cells)
                .map(|cell| {
                    lines
                        .iter()
                        .enumerate()
                        .filter(|&(_, &m)| m & (1u64 << cell) != 0)
                        .fold(0u64, |mask, (index, _)| mask | 1u64 << index)
                })
                .collect()
        });
        let table_lines = lines.iter().map(|&m| spread_bits(m)).collect();
        let line_bits = (cells <= 16).then(|| line_table(&lines, cells));
        let (sym, sym_inv) = symmetries(n);
        let sym_bytes = (0..8).map(|s| symmetry_bytes(&sym[s], cells)).collect();
        // Fixed seed: keys are the same on every run, so hashes are reproducible.
        let mut rng = SplitMix64::seed_from_u64(0x6b78_6f5f_7a6f_6272);
        let mut zobrist = [[0u64; 64]; 2];
        for keys in zobrist.iter_mut() {
            for key in keys.iter_mut() {
                *key = rng.next_u64();
            }
        }
        let mut sym_zobrist = Box::new([[[0u64; 64]; 2]; 8]);
        for (s, keys) in sym_zobrist.iter_mut().enumerate() {
            for (player_keys, base) in keys.iter_mut().zip(&zobrist) {
                for (c, key) in player_keys.iter_mut().enumerate().take(cells as usize) {
                    *key = base[sym[s][c] as usize];
                }
            }
        }
        Geometry {
            size,
            goal,
            cells,
            full: if cells == 64 {
                u64::MAX
            } else {
                (1u64 << cells) - 1
            },
            lines,
            lines_through,
            line_index_masks,
            table_lines,
            line_bits,
            cell_tables: std::sync::OnceLock::new(),
            shift: shift_masks(n, k),
            segments: segments(n, k),
            sym,
            sym_inv,
            sym_bytes,
            zobrist,
            sym_zobrist,
        }
    }

    /// On boards of at most 16 cells, per cell set `m`: the cells that
    /// complete a line for a player holding `m` (mask them with the empty
    /// cells), and the cells of the lines `m` does not touch. Built on the
    /// first call (a few milliseconds for 4x4).
    pub fn cell_tables(&self) -> Option<&CellTables> {
        self.cell_tables
            .get_or_init(|| {
                (self.cells <= 16).then(|| {
                    (0..1u64 << self.cells)
                        .map(|m| {
                            self.lines.iter().fold((0u16, 0u16), |(wins, open), &line| {
                                let rest = line & !m;
                                let wins = if rest.count_ones() == 1 {
                                    wins | rest as u16
                                } else {
                                    wins
                                };
                                let open = if line & m == 0 {
                                    open | line as u16
                                } else {
                                    open
                                };
                                (wins, open)
                            })
                        })
                        .collect()
                })
            })
            .as_deref()
    }

    /// Whether the cell set `bb` contains a whole line.
    #[inline(always)]
    pub fn has_line(&self, bb: u64) -> bool {
        match &self.line_bits {
            Some(table) => table_has_line(table, bb),
            None => self.has_line_shifted(bb),
        }
    }

    /// The Zobrist hashes of a position (O's cells, X's cells) under each
    /// of the 8 symmetries; the smallest is its key up to symmetry.
    pub fn symmetric_hashes(&self, boards: [u64; 2]) -> [u64; 8] {
        let mut hashes = [0u64; 8];
        for (s, hash) in hashes.iter_mut().enumerate() {
            for (p, &board) in boards.iter().enumerate() {
                let mut rest = board;
                while rest != 0 {
                    *hash ^= self.sym_zobrist[s][p][rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
            }
        }
        hashes
    }

    /// Whether `bb` contains a line through `cell` (the move just played).
    #[inline(always)]
    pub fn has_line_through(&self, bb: u64, _cell: u8) -> bool {
        self.has_line(bb)
    }

    /// Whether `bb` contains a line through `cell`, for CPUs with BMI2: the
    /// four segments through the cell are extracted with `pext` into the
    /// four 16-bit lanes of one word, and one shift-and finds K in a row.
    /// A segment has at most 2K - 1 = 15 cells, so each lane's top bit is
    /// clear and no run crosses lanes.
    ///
    /// # Safety
    /// The CPU must support BMI2 (`is_x86_feature_detected!("bmi2")`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    #[inline]
    pub fn has_line_through_bmi2<const K: u32>(&self, bb: u64, cell: u32) -> bool {
        use core::arch::x86_64::_pext_u64;
        let [a, b, c, d] = self.segments[cell as usize & 63];
        let mut runs = _pext_u64(bb, a)
            | _pext_u64(bb, b) << 16
            | _pext_u64(bb, c) << 32
            | _pext_u64(bb, d) << 48;
        let mut len = 1;
        while 2 * len <= K {
            runs &= runs >> len;
            len *= 2;
        }
        if len < K {
            runs &= runs >> (K - len);
        }
        runs != 0
    }

    /// Whether `bb` contains a line through `cell`, without BMI2, for
    /// boards whose K is `K`: each of the four segments through the cell
    /// is masked out of `bb`, and runs double along the segment's own
    /// direction as in [`has_line_shifted`](Self::has_line_shifted). A
    /// segment's cells lie on one line, so no run can wrap to another row
    /// and no edge masks are needed; the four directions are independent.
    ///
    /// The board's side is the constant `N` too, so that the four steps
    /// between neighbours are immediates: without BMI2, x86 shifts by a
    /// variable amount only through `cl`, and four variable steps cost
    /// moves and spills (the 5x5 playout ran 15% slower).
    #[inline(always)]
    pub fn has_line_through_segments<const K: u32, const N: u32>(
        &self,
        bb: u64,
        cell: u32,
    ) -> bool {
        debug_assert_eq!(u32::from(self.size), N);
        let segments = &self.segments[cell as usize & 63];
        let mut any = 0;
        // The steps of `DIRECTIONS_RC` in order: along a row, down a
        // column, down each diagonal.
        for (segment, step) in segments.iter().zip([1, N, N + 1, N - 1]) {
            let mut starts = bb & segment;
            let mut len = 1;
            while 2 * len <= K {
                starts &= starts >> (len * step);
                len *= 2;
            }
            if len < K {
                starts &= starts >> ((K - len) * step);
            }
            any |= starts;
        }
        any != 0
    }

    /// The shift-and test: for each direction, the cells that start K in a
    /// row of `bb` are those whose 0th to (K-1)th neighbours are all in
    /// `bb`; no list of lines is walked. Runs double in length each step
    /// (1, 2, 4 cells), and a last step overlaps two runs to reach K, so
    /// K = 4 takes two steps a direction and K = 5 to 8 three.
    // Out of line: inlined, its code bloats the 4x4 table path of the
    // engines' inner loops (MCTS mid-game ran 25% slower).
    #[inline(never)]
    pub fn has_line_shifted(&self, bb: u64) -> bool {
        let k = self.goal as u32;
        if bb.count_ones() < k {
            return false;
        }
        let mut any = 0;
        for (step, valid) in &self.shift {
            // `starts`: the cells that start a run of `len` cells of `bb`.
            let mut starts = bb;
            let mut len = 1;
            while 2 * len <= k {
                starts &= (starts >> (len * step)) & valid[(2 * len - 1) as usize];
                len *= 2;
            }
            if len < k {
                starts &= (starts >> ((k - len) * step)) & valid[(k - 1) as usize];
            }
            any |= starts;
        }
        any != 0
    }

    /// The empty cells where a player holding `mine` would complete a line.
    #[inline]
    pub fn winning_cells(&self, mine: u64, empty: u64) -> u64 {
        let mut wins = 0;
        for &line in &self.lines {
            let rest = line & !mine;
            if rest & empty == rest && rest.count_ones() == 1 {
                wins |= rest;
            }
        }
        wins
    }

    /// Maps a bitboard through symmetry `s`.
    #[inline]
    pub fn transform(&self, s: usize, bb: u64) -> u64 {
        let t = &self.sym_bytes[s];
        let mut out = 0;
        let mut rest = bb;
        let mut b = 0;
        while rest != 0 {
            out |= t[b][(rest & 0xff) as usize];
            rest >>= 8;
            b += 1;
        }
        out
    }
}

/// Image of (row, col) under symmetry `s` of the square: the four rotations,
/// then the same after a mirror.
fn transform(s: usize, r: i32, c: i32, n: i32) -> (i32, i32) {
    let (r, c) = if s >= 4 { (r, n - 1 - c) } else { (r, c) };
    match s % 4 {
        0 => (r, c),
        1 => (c, n - 1 - r),
        2 => (n - 1 - r, n - 1 - c),
        _ => (n - 1 - c, r),
    }
}

/// Spreads bit `i` of `bb` to bit `2i`: a bitboard in the 2-bit table encoding.
pub(crate) fn spread_bits(bb: u64) -> u128 {
    spread32(bb as u32) as u128 | (spread32((bb >> 32) as u32) as u128) << 64
}

/// Interleaves zeros between the bits of `x` (the Morton spread).
fn spread32(x: u32) -> u64 {
    let mut x = x as u64;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// The four directions of a line: right, down, down-right, down-left.
const DIRECTIONS_RC: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// The bit of cell (`r`, `c`) on a board `n` wide.
fn cell_bit(n: i32, r: i32, c: i32) -> u64 {
    1u64 << (r * n + c)
}

/// Every line of `k` cells on an `n` x `n` board, as cell masks.
fn all_lines(n: i32, k: i32) -> Vec<u64> {
    let mut lines = Vec::new();
    for (dr, dc) in DIRECTIONS_RC {
        for r in 0..n {
            for c in 0..n {
                let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                if !(0..n).contains(&er) || !(0..n).contains(&ec) {
                    continue;
                }
                lines.push((0..k).fold(0u64, |m, i| m | cell_bit(n, r + dr * i, c + dc * i)));
            }
        }
    }
    lines
}

/// Bit `m` set when cell set `m` holds a line (boards of up to 16 cells).
fn line_table(lines: &[u64], cells: u8) -> Box<[u64; LINE_TABLE_WORDS]> {
    let mut bits = Box::new([0u64; LINE_TABLE_WORDS]);
    for m in 0..1usize << cells {
        if lines.iter().any(|&l| l & !(m as u64) == 0) {
            bits[m / 64] |= 1 << (m % 64);
        }
    }
    bits
}

/// The 8 symmetries of the square as cell permutations, and their
/// inverses.
fn symmetries(n: i32) -> ([[u8; 64]; 8], [[u8; 64]; 8]) {
    let mut sym = [[0u8; 64]; 8];
    let mut sym_inv = [[0u8; 64]; 8];
    for (s, (perm, inv)) in sym.iter_mut().zip(sym_inv.iter_mut()).enumerate() {
        for r in 0..n {
            for c in 0..n {
                let (r2, c2) = transform(s, r, c, n);
                let from = (r * n + c) as usize;
                let to = (r2 * n + c2) as u8;
                perm[from] = to;
                inv[to as usize] = from as u8;
            }
        }
    }
    (sym, sym_inv)
}

/// One symmetry applied a byte of the board at a time: `t[b][v]` is the
/// image of value `v` in byte `b`.
fn symmetry_bytes(perm: &[u8; 64], cells: u8) -> [[u64; 256]; 8] {
    let mut t = [[0u64; 256]; 8];
    for (b, table) in t.iter_mut().enumerate().take((cells as usize).div_ceil(8)) {
        for (v, out) in table.iter_mut().enumerate() {
            for i in 0..8 {
                let cell = b * 8 + i;
                if v & (1 << i) != 0 && cell < cells as usize {
                    *out |= 1u64 << perm[cell];
                }
            }
        }
    }
    t
}

/// Per direction: its shift (1, n, n + 1, n - 1) and, for each `j` below
/// K, the cells whose `j`-th neighbour that way is on the board.
fn shift_masks(n: i32, k: i32) -> [(u32, [u64; 8]); 4] {
    let mut shift = [(0u32, [0u64; 8]); 4];
    for (d, (dr, dc)) in DIRECTIONS_RC.into_iter().enumerate() {
        shift[d].0 = (dr * n + dc) as u32;
        for j in 0..k {
            for r in 0..n {
                for c in 0..n {
                    let (er, ec) = (r + dr * j, c + dc * j);
                    if (0..n).contains(&er) && (0..n).contains(&ec) {
                        shift[d].1[j as usize] |= cell_bit(n, r, c);
                    }
                }
            }
        }
    }
    shift
}

/// Per cell and direction: the cells within K - 1 of it that way.
fn segments(n: i32, k: i32) -> Box<[[u64; 4]; 64]> {
    let mut segments = Box::new([[0u64; 4]; 64]);
    for (cell, segment) in segments.iter_mut().enumerate().take((n * n) as usize) {
        let (r, c) = (cell as i32 / n, cell as i32 % n);
        *segment = DIRECTIONS_RC.map(|(dr, dc)| {
            (1 - k..k)
                .map(|j| (r + dr * j, c + dc * j))
                .filter(|&(er, ec)| (0..n).contains(&er) && (0..n).contains(&ec))
                .fold(0, |mask, (er, ec)| mask | cell_bit(n, er, ec))
        });
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{MIN_SIZE, Rules, SMALL_MAX_SIZE};

    #[test]
    fn line_counts_match_geometry() {
        // 3x3 K=3: 3 rows, 3 columns, 2 diagonals.
        assert_eq!(Rules::new(3, 3).unwrap().geometry().lines.len(), 8);
        // 4x4 K=3: 8 horizontal, 8 vertical, 4 + 4 diagonal.
        assert_eq!(Rules::new(4, 3).unwrap().geometry().lines.len(), 24);
        // 4x4 K=4: 4 + 4 + 2.
        assert_eq!(Rules::new(4, 4).unwrap().geometry().lines.len(), 10);
    }

    #[test]
    fn x_masks_are_o_masks_shifted_by_one() {
        let geo = Rules::new(4, 3).unwrap().geometry();
        for (&line, &table) in geo.lines.iter().zip(&geo.table_lines) {
            assert_eq!(table.count_ones(), 3);
            assert_eq!((table << 1) & 0x5555_5555_5555_5555_5555_5555_5555_5555, 0);
            assert_eq!(spread_bits(line) << 1, table << 1);
        }
    }

    #[test]
    fn symmetries_are_permutations_and_map_lines_to_lines() {
        for size in MIN_SIZE..=SMALL_MAX_SIZE {
            let geo = Rules::new(size, 3).unwrap().geometry();
            for s in 0..8 {
                let mut seen = 0u64;
                for c in 0..geo.cells {
                    let to = geo.sym[s][c as usize];
                    seen |= 1 << to;
                    assert_eq!(geo.sym_inv[s][to as usize], c);
                }
                assert_eq!(seen, geo.full);
                for &line in &geo.lines {
                    assert!(geo.lines.contains(&geo.transform(s, line)));
                }
            }
        }
    }

    #[test]
    fn spread_bits_puts_bit_i_at_bit_2i() {
        for i in 0..64 {
            assert_eq!(spread_bits(1u64 << i), 1u128 << (2 * i));
        }
        assert_eq!(spread_bits(u64::MAX), u128::MAX / 3);
    }

    /// The win test along the segments through a cell (every CPU), and
    /// the `pext` one (where the CPU has BMI2), against the lines through
    /// the cell, on random boards of every size and K.
    #[test]
    fn both_segment_tests_agree_with_the_lines_through_the_cell() {
        #[cfg(target_arch = "x86_64")]
        let bmi2 = std::arch::is_x86_feature_detected!("bmi2");
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(4);
        for size in MIN_SIZE..=SMALL_MAX_SIZE {
            for goal in 3..=size {
                let geo = Rules::new(size, goal).unwrap().geometry();
                for _ in 0..3_000 {
                    let m = (rng.next_u64() | rng.next_u64()) & geo.full;
                    for cell in 0..geo.cells {
                        let slow = geo.lines_through[cell as usize]
                            .iter()
                            .any(|&l| l & !m == 0);
                        let cell = u32::from(cell);
                        macro_rules! on_side {
                            ($n:literal) => {
                                for_goal!(goal, |K| geo.has_line_through_segments::<K, $n>(m, cell))
                            };
                        }
                        let portable = match size {
                            3 => on_side!(3),
                            4 => on_side!(4),
                            5 => on_side!(5),
                            6 => on_side!(6),
                            7 => on_side!(7),
                            _ => on_side!(8),
                        };
                        assert_eq!(portable, slow, "{size} {goal} {m:#x} cell {cell}");
                        #[cfg(target_arch = "x86_64")]
                        if bmi2 {
                            // SAFETY: the CPU supports BMI2, checked above.
                            let fast = for_goal!(goal, |K| unsafe {
                                geo.has_line_through_bmi2::<K>(m, cell)
                            });
                            assert_eq!(fast, slow, "{size} {goal} {m:#x} cell {cell}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_cell_tables_agree_with_the_lines() {
        for (size, goal) in [(3, 3), (4, 3), (4, 4)] {
            let geo = Rules::new(size, goal).unwrap().geometry();
            let tables = geo.cell_tables().expect("boards up to 16 cells have them");
            assert_eq!(tables.len(), 1 << geo.cells);
            for (m, &(wins, open)) in tables.iter().enumerate() {
                let m = m as u64;
                let slow_wins = geo.lines.iter().filter(|&&l| (l & !m).count_ones() == 1);
                let slow_open = geo.lines.iter().filter(|&&l| l & m == 0);
                assert_eq!(u64::from(wins), slow_wins.fold(0, |a, &l| a | (l & !m)));
                assert_eq!(u64::from(open), slow_open.fold(0, |a, &l| a | l));
            }
        }
        assert!(Rules::new(5, 4).unwrap().geometry().cell_tables().is_none());
    }

    #[test]
    fn the_shift_and_test_agrees_with_the_line_loop() {
        use rand::SeedableRng;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        for size in MIN_SIZE..=SMALL_MAX_SIZE {
            for goal in 3..=size {
                let geo = Rules::new(size, goal).unwrap().geometry();
                for _ in 0..3_000 {
                    let m = (rng.next_u64() | rng.next_u64()) & geo.full;
                    let slow = geo.lines.iter().any(|&l| l & !m == 0);
                    assert_eq!(geo.has_line_shifted(m), slow, "{size} {goal} {m:#x}");
                }
                for &line in &geo.lines {
                    assert!(geo.has_line_shifted(line));
                    assert!(!geo.has_line_shifted(line & (line - 1)));
                }
            }
        }
    }

    #[test]
    fn line_table_agrees_with_line_loop() {
        let geo = Rules::new(4, 3).unwrap().geometry();
        for m in 0..(1u64 << 16) {
            let slow = geo.lines.iter().any(|&l| l & !m == 0);
            assert_eq!(geo.has_line(m), slow, "mask {m:#x}");
        }
    }
}
