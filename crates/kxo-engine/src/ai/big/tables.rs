//! What the big board's updates look up, fixed for one (N, K): each
//! cell's neighbourhood and lines, the window values, the Zobrist keys,
//! the shapes.

use super::shape::{PatternIndex, ShapeTable, window_weight};
use crate::game::{Bits, DIRECTIONS, MAX_SIZE, Rules};

/// Lines of one direction on the largest board (its diagonals).
pub(super) const MAX_LINES: usize = 2 * MAX_SIZE as usize - 1;

/// What is fixed for one (N, K): the board mask and each cell's
/// neighbourhood.
pub struct Tables {
    pub size: u8,
    pub goal: u8,
    /// Whether only exactly K in a row wins (the standard rule).
    pub exact: bool,
    pub cells: usize,
    pub full: Bits,
    /// `near[c]`: the cells within two rows and two columns of `c`.
    pub(super) near: Vec<Bits>,
    /// A window's stones as a pattern number.
    pub(super) patterns: PatternIndex,
    /// `window_values[pattern][side]`: what a window is worth to `side`
    /// when it has just moved, by its pattern read from O's side: by
    /// default the line count (`window_weight` of its stones when they are
    /// of one side only, the same whoever moved), or learned weights
    /// ([`Tables::with_window_values`]). Both sides' side by side: a move
    /// updates both.
    pub(super) window_values: Vec<[i32; 2]>,
    /// Zobrist keys `zobrist[cell][player]`, for the search's table.
    pub(super) zobrist: Vec<[u64; 2]>,
    /// `line_at[cell][d]`: the line of direction `d` through the cell, and
    /// the cell's place along it.
    pub(super) line_at: Vec<[(u8, u8); 4]>,
    /// `on_line[d][line]`: the places of the line that are on the board,
    /// each at bit `place + K + 1` (so that the K + 1 cells before place
    /// 0 read as off the board).
    pub(super) on_line: [[u32; MAX_LINES]; 4],
    /// `step[d]`: the index difference between neighbours along `d`.
    pub(super) step: [i32; 4],
    /// The shapes a stone makes along a line, for this K.
    pub(super) shapes: &'static ShapeTable,
}

impl Tables {
    pub fn new(rules: Rules) -> Tables {
        let (size, goal) = (rules.size(), rules.goal());
        let n = size as i32;
        let near = (0..n * n)
            .map(|c| {
                let (r, col) = (c / n, c % n);
                (-2..=2)
                    .flat_map(|dr| (-2..=2).map(move |dc| (r + dr, col + dc)))
                    .filter(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
                    .map(|(r, c)| (r * n + c) as usize)
                    .collect()
            })
            .collect();
        let patterns = PatternIndex::new(goal);
        let window_values = interleaved(line_count_values(&patterns));
        let half = goal as u32 + 1;
        let mut line_at = vec![[(0, 0); 4]; (n * n) as usize];
        let mut on_line = [[0; MAX_LINES]; 4];
        for (cell, at) in line_at.iter_mut().enumerate() {
            let (r, c) = (cell as i32 / n, cell as i32 % n);
            // Rows, columns, diagonals and anti-diagonals, each along the
            // way `DIRECTIONS` steps.
            let lines = [(r, c), (c, r), (c - r + n - 1, r), (r + c, r)];
            for (d, (line, place)) in lines.into_iter().enumerate() {
                at[d] = (line as u8, place as u8);
                on_line[d][line as usize] |= 1 << (place as u32 + half);
            }
        }
        Tables {
            size,
            goal,
            exact: rules.exact(),
            cells: rules.cells() as usize,
            full: Bits::first_n(rules.cells() as usize),
            near,
            patterns,
            window_values,
            zobrist: zobrist_keys(rules.cells() as usize),
            line_at,
            on_line,
            step: DIRECTIONS.map(|(dr, dc)| dr * n + dc),
            shapes: ShapeTable::for_goal(goal),
        }
    }

    /// The tables with another evaluation: `values[side]` what a window is
    /// worth to `side` when it has just moved, by pattern read from O's
    /// side, one for each of the 3^K patterns, the empty one 0.
    pub fn with_window_values(rules: Rules, values: [Vec<i32>; 2]) -> Tables {
        let mut t = Tables::new(rules);
        t.set_window_values(values);
        t
    }

    /// Changes the evaluation (see [`Tables::with_window_values`]).
    pub fn set_window_values(&mut self, values: [Vec<i32>; 2]) {
        for side in &values {
            assert_eq!(side.len(), self.patterns.count(), "one value a pattern");
            // The score starts at 0 on the empty board: so must the empty
            // window.
            assert_eq!(side[0], 0, "the empty window is worth nothing");
        }
        self.window_values = interleaved(values);
    }
}

/// Per pattern, both sides' values.
fn interleaved([for_o, for_x]: [Vec<i32>; 2]) -> Vec<[i32; 2]> {
    for_o.into_iter().zip(for_x).map(|(o, x)| [o, x]).collect()
}

/// The line count by pattern: a window of one side's stones only is worth
/// [`window_weight`] of their number to that side, and as much less to
/// the other, whichever moved last.
fn line_count_values(patterns: &PatternIndex) -> [Vec<i32>; 2] {
    let k = patterns.count().ilog(3);
    let mut values = vec![0; patterns.count()];
    for o in 0..1u32 << k {
        for x in (0..1u32 << k).filter(|x| x & o == 0) {
            values[patterns.of(o, x)] = match (o.count_ones(), x.count_ones()) {
                (o, 0) => window_weight(o),
                (0, x) => -window_weight(x),
                _ => 0,
            };
        }
    }
    let for_x = values.iter().map(|v| -v).collect();
    [values, for_x]
}

/// Fixed keys for each cell and side (splitmix64 of a counter: the same
/// on every run, so searches are reproducible).
fn zobrist_keys(cells: usize) -> Vec<[u64; 2]> {
    let mut state = 0x6b78_6f2d_7475_6921u64;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    (0..cells).map(|_| [next(), next()]).collect()
}
