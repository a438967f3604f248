//! The shapes of Gomoku, line by line: what a stone on a cell makes along
//! one direction — a five, an open four, a four, an open three, a three,
//! an open two, a two, or nothing — read from a table indexed by the
//! 2K - 2 cells around it (K - 1 each way), so that judging a move costs
//! four lookups, not a walk over its windows.
//!
//! The names are Gomoku's (K = 5) and count from K: a "five" is K in a
//! row, a "four" leaves one cell to complete K, and so on down. Only the
//! K-cell windows through the cell count, so a shape is what the move
//! itself builds:
//! - five: a window full of the side's stones;
//! - open four: two or more different cells that would complete a window
//!   (one block cannot stop it); four: exactly one;
//! - open three: a cell after which the line is an open four; three: one
//!   after which it is a four;
//! - open two and two: the same, one step further from a four.

use std::sync::OnceLock;

use crate::game::MAX_GOAL;

/// What a stone makes along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Shape {
    None,
    Two,
    OpenTwo,
    Three,
    OpenThree,
    Four,
    OpenFour,
    Five,
}

impl Shape {
    /// The shape one step short of `self`: what a line is when one more
    /// stone can make it `self`.
    fn one_short(self) -> Shape {
        match self {
            Shape::OpenFour => Shape::OpenThree,
            Shape::Four => Shape::Three,
            Shape::OpenThree => Shape::OpenTwo,
            Shape::Three => Shape::Two,
            _ => Shape::None,
        }
    }
}

/// The value of a K-cell window holding `j` stones of one side and none
/// of the other: each stone more is worth 8 times as much, so three in a
/// row outweighs any spread of twos around it.
pub(crate) fn window_weight(j: u32) -> i32 {
    if j == 0 { 0 } else { 8i32.pow(j - 1) }
}

/// Per K: the shape and the window value a stone makes along a line, for
/// every arrangement of the 2K - 2 cells around it.
pub(crate) struct ShapeTable {
    /// K - 1: the cells each side of the centre.
    half: u32,
    /// `ternary[bits]`: `bits` read as base-3 digits (each 0 or 1).
    ternary: Vec<u32>,
    /// By `ternary[mine] + 2 * ternary[blocked]`.
    shapes: Vec<Shape>,
    /// By the same index: what a stone there adds to the windows through
    /// it that the other side does not block (by [`window_weight`]).
    values: Vec<i32>,
}

/// Marks an entry not yet worked out while the table is built.
const UNKNOWN: i32 = i32::MIN;

impl ShapeTable {
    /// The table for K = `goal` (3 to [`MAX_GOAL`]), built at its first
    /// use and kept for the process (K = 5: 6,561 entries; K = 8, the
    /// largest, 4.8 million: 24 MB, built in under 0.1 s).
    pub(crate) fn for_goal(goal: u8) -> &'static ShapeTable {
        static TABLES: [OnceLock<ShapeTable>; MAX_GOAL as usize + 1] =
            [const { OnceLock::new() }; MAX_GOAL as usize + 1];
        TABLES[goal as usize].get_or_init(|| ShapeTable::build(goal))
    }

    fn build(goal: u8) -> ShapeTable {
        let half = goal as u32 - 1;
        let ternary = (0..1u32 << (2 * half))
            .map(|bits| {
                (0..2 * half)
                    .rev()
                    .fold(0, |acc, i| acc * 3 + (bits >> i & 1))
            })
            .collect();
        let entries = 3usize.pow(2 * half);
        let mut table = ShapeTable {
            half,
            ternary,
            shapes: vec![Shape::None; entries],
            values: vec![UNKNOWN; entries],
        };
        let cells = (1u32 << (2 * half)) - 1;
        for mine in 0..=cells {
            // Every `blocked` among the cells `mine` leaves free: its
            // subsets, counted down from all of them to none.
            let free = cells & !mine;
            let mut blocked = free;
            loop {
                table.classify(mine, blocked);
                if blocked == 0 {
                    break;
                }
                blocked = (blocked - 1) & free;
            }
        }
        table
    }

    /// The index of the centre-less `mine` and `blocked` (2K - 2 bits).
    #[inline(always)]
    fn index(&self, mine: u32, blocked: u32) -> usize {
        (self.ternary[mine as usize] + 2 * self.ternary[blocked as usize]) as usize
    }

    /// The 2K - 1 bits of a segment without its centre (bit K - 1).
    #[inline(always)]
    fn without_centre(&self, bits: u32) -> u32 {
        let h = self.half;
        (bits & ((1 << h) - 1)) | (((bits >> (h + 1)) << h) & ((1 << (2 * h)) - 1))
    }

    /// The inverse: 2K - 2 bits spread around an empty centre.
    fn with_gap(&self, bits: u32) -> u32 {
        let h = self.half;
        (bits & ((1 << h) - 1)) | ((bits >> h) << (h + 1))
    }

    /// Works out (once) and returns the entry of the centre-less `mine`
    /// and `blocked`, for a stone of `mine`'s side on the centre.
    fn classify(&mut self, mine: u32, blocked: u32) -> Shape {
        let at = self.index(mine, blocked);
        if self.values[at] != UNKNOWN {
            return self.shapes[at];
        }
        let (k, h) = (self.half + 1, self.half);
        let stones = self.with_gap(mine) | 1 << h;
        let walls = self.with_gap(blocked);
        let (mut five, mut win_cells, mut room, mut value) = (false, 0u32, 0u32, 0);
        // Every window of K bits of the 2K - 1 holds the centre.
        for start in 0..k {
            let window = ((1u32 << k) - 1) << start;
            if window & walls != 0 {
                continue;
            }
            room |= window;
            let before = (window & stones).count_ones() - 1;
            value += window_weight(before + 1) - window_weight(before);
            let holes = window & !stones;
            match holes.count_ones() {
                0 => five = true,
                1 => win_cells |= holes,
                _ => {}
            }
        }
        let shape = if five {
            Shape::Five
        } else if win_cells.count_ones() >= 2 {
            Shape::OpenFour
        } else if win_cells != 0 {
            Shape::Four
        } else {
            // One stone more on an empty cell of a window: the best shape
            // that makes, one step back.
            let mut best = Shape::None;
            let mut empty = room & !stones;
            while empty != 0 {
                let cell = empty & empty.wrapping_neg();
                empty ^= cell;
                let more = mine | self.without_centre(cell);
                best = best.max(self.classify(more, blocked).one_short());
            }
            best
        };
        self.shapes[at] = shape;
        self.values[at] = value;
        shape
    }

    /// The shape and the window value a stone makes on the centre of a
    /// segment of 2K - 1 bits (bit K - 1 the centre, empty): `mine` the
    /// side's stones, `blocked` the other side's and the cells off the
    /// board (the two disjoint).
    #[inline(always)]
    pub(crate) fn entry(&self, mine: u32, blocked: u32) -> (Shape, i32) {
        let at = self.index(self.without_centre(mine), self.without_centre(blocked));
        (self.shapes[at], self.values[at])
    }
}

/// What a stone of one side on a cell is worth beyond its windows, from
/// its shapes in the four directions: a win on the next move (five), a
/// threat one block cannot stop (an open four, two fours, a four and an
/// open three, two open threes), or the sum of single threats.
pub(crate) fn threat_value(shapes: [Shape; 4]) -> i32 {
    let mut count = [0u8; 8];
    for s in shapes {
        count[s as usize] += 1;
    }
    let n = |s: Shape| count[s as usize];
    if n(Shape::Five) > 0 {
        return 1_000_000;
    }
    if n(Shape::OpenFour) > 0 || n(Shape::Four) >= 2 {
        return 100_000;
    }
    if n(Shape::Four) > 0 && n(Shape::OpenThree) > 0 {
        return 50_000;
    }
    if n(Shape::OpenThree) >= 2 {
        return 20_000;
    }
    i32::from(n(Shape::Four)) * 400
        + i32::from(n(Shape::OpenThree)) * 500
        + i32::from(n(Shape::Three)) * 60
        + i32::from(n(Shape::OpenTwo)) * 50
}

/// A window's stones as a base-3 pattern number, for one K.
#[derive(Clone, Debug)]
pub(crate) struct PatternIndex {
    /// `ternary[bits]`: the K bits read as base-3 digits (each 0 or 1).
    ternary: Vec<u16>,
    goal: u8,
}

impl PatternIndex {
    pub(crate) fn new(goal: u8) -> PatternIndex {
        debug_assert!((3..=MAX_GOAL).contains(&goal));
        let ternary = (0..1u32 << goal)
            .map(|bits| {
                (0..goal as u32)
                    .rev()
                    .fold(0, |acc, i| acc * 3 + (bits >> i & 1) as u16)
            })
            .collect();
        PatternIndex { ternary, goal }
    }

    /// Patterns of K cells: 3^K.
    pub(crate) fn count(&self) -> usize {
        3usize.pow(self.goal as u32)
    }

    /// The pattern of a window holding `mine` and `theirs` (K-bit masks).
    #[inline(always)]
    pub(crate) fn of(&self, mine: u32, theirs: u32) -> usize {
        self.ternary[mine as usize] as usize + 2 * self.ternary[theirs as usize] as usize
    }

    /// What a stone of "mine" on the window's cell `bit` (a one-bit mask)
    /// adds to its pattern.
    #[inline(always)]
    pub(crate) fn digit(&self, bit: u32) -> usize {
        self.ternary[bit as usize] as usize
    }

    /// The digits of a pattern, first cell first.
    fn digits(&self, pattern: usize) -> Vec<usize> {
        let k = self.goal as u32;
        (0..k).rev().map(|i| pattern / 3usize.pow(i) % 3).collect()
    }

    fn from_digits(digits: impl Iterator<Item = usize>) -> usize {
        digits.fold(0, |acc, d| acc * 3 + d)
    }

    /// The same window read backwards.
    pub(crate) fn reversed(&self, pattern: usize) -> usize {
        PatternIndex::from_digits(self.digits(pattern).into_iter().rev())
    }

    /// The same window seen by the other side (its 1s and 2s swapped).
    pub(crate) fn swapped(&self, pattern: usize) -> usize {
        PatternIndex::from_digits(self.digits(pattern).into_iter().map(|d| (3 - d) % 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line written as a string: `x` the side's stones, `o` the other
    /// side's, `#` off the board, `.` empty; the centre is `_`.
    fn shape_of(line: &str) -> Shape {
        let goal = (line.len() as u8).div_ceil(2);
        let table = ShapeTable::for_goal(goal);
        let bit = |want: &[char]| -> u32 {
            line.chars()
                .enumerate()
                .filter(|(_, c)| want.contains(c))
                .map(|(i, _)| 1 << i)
                .sum()
        };
        assert_eq!(line.chars().nth(goal as usize - 1), Some('_'));
        table.entry(bit(&['x']), bit(&['o', '#'])).0
    }

    #[test]
    fn gomoku_shapes_by_name() {
        for (line, want) in [
            ("xx.x_....", Shape::Four),
            ("xxxx_....", Shape::Five),
            ("..xx_x...", Shape::OpenFour),
            ("o.xx_x...", Shape::OpenFour),
            (".oxx_x...", Shape::Four),
            ("...x_x...", Shape::OpenThree),
            ("..ox_x...", Shape::Three),
            ("...x_.x..", Shape::OpenThree),
            ("####_x.x.", Shape::Three),
            ("...._x...", Shape::OpenTwo),
            ("...o_xo..", Shape::None),
            ("x.x._.x.x", Shape::OpenThree),
            (".x.x_x.x.", Shape::OpenFour),
        ] {
            assert_eq!(shape_of(line), want, "{line}");
        }
    }

    /// Every arrangement of the cells around the centre has its entry:
    /// the build visited each pair of disjoint masks.
    #[test]
    fn every_entry_is_worked_out() {
        for goal in 3..=6 {
            let table = ShapeTable::for_goal(goal);
            assert!(table.values.iter().all(|&v| v != UNKNOWN), "K = {goal}");
        }
    }

    /// What a cell of a line holds, seen from one side.
    #[derive(Clone, Copy, PartialEq)]
    enum Spot {
        Mine,
        Blocked,
        Empty,
    }

    /// The shape by the definition, on the whole line (every cell of the
    /// board along the direction, the stone already on `at`): the windows
    /// of K through `at`, then one more stone on each empty cell (at most
    /// two more deep: a line two stones from a four is no shape).
    fn slow_shape(line: &mut [Spot], at: usize, k: usize, added: u32) -> Shape {
        let windows: Vec<std::ops::Range<usize>> = (at.saturating_sub(k - 1)..=at)
            .map(|s| s..s + k)
            .filter(|w| w.end <= line.len() && line[w.clone()].iter().all(|&c| c != Spot::Blocked))
            .collect();
        let mut wins = std::collections::BTreeSet::new();
        for w in &windows {
            let holes: Vec<usize> = w.clone().filter(|&i| line[i] == Spot::Empty).collect();
            match holes.len() {
                0 => return Shape::Five,
                1 => {
                    wins.insert(holes[0]);
                }
                _ => {}
            }
        }
        match wins.len() {
            0 => {}
            1 => return Shape::Four,
            _ => return Shape::OpenFour,
        }
        if added == 2 {
            return Shape::None;
        }
        let empties: std::collections::BTreeSet<usize> = windows
            .iter()
            .flat_map(|w| w.clone())
            .filter(|&i| line[i] == Spot::Empty)
            .collect();
        let mut best = Shape::None;
        for e in empties {
            line[e] = Spot::Mine;
            best = best.max(slow_shape(line, at, k, added + 1).one_short());
            line[e] = Spot::Empty;
        }
        best
    }

    /// The shapes and window values a board reads from the tables, against
    /// the definition walked along each line of random boards (stones of
    /// both sides near the centre, every empty cell, both sides).
    #[test]
    fn the_tables_agree_with_a_slow_line_scan_on_random_boards() {
        use crate::ai::big::{BigBoard, Tables};
        use crate::game::{Cell, DIRECTIONS, Player, Position, Rules};
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(23);
        let mut seen = [0u32; 8];
        for (size, goal) in [(15, 5), (12, 4), (20, 6), (9, 3)] {
            let rules = Rules::new(size, goal).unwrap();
            let t = Tables::new(rules);
            let n = size as i32;
            for _ in 0..30 {
                let mut pos = Position::new(rules);
                let stones = rng.random_range(4..40);
                let (lo, hi) = (n / 2 - 4, n / 2 + 4);
                while pos.move_count() < stones && !pos.outcome().is_over() {
                    let (r, c) = (rng.random_range(lo..hi), rng.random_range(lo..hi));
                    let _ = pos.play(Cell::from_row_col(r as u8, c as u8, size));
                }
                let b = BigBoard::from_position(&t, &pos);
                for cell in pos.empty().iter() {
                    let (shapes, windows) = b.shapes_at(&t, cell);
                    let (row, col) = (cell as i32 / n, cell as i32 % n);
                    let mut slow_windows = 0;
                    for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                        // The whole line through the cell, from one edge.
                        let back = (0..).take_while(|&i| {
                            let (r, c) = (row - dr * i, col - dc * i);
                            (0..n).contains(&r) && (0..n).contains(&c)
                        });
                        let first = back.last().unwrap_or(0);
                        let cells: Vec<usize> = (-first..)
                            .map(|i| (row + dr * i, col + dc * i))
                            .take_while(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
                            .map(|(r, c)| (r * n + c) as usize)
                            .collect();
                        let at = first as usize;
                        for p in [Player::O, Player::X] {
                            let mut line: Vec<Spot> = cells
                                .iter()
                                .map(|&x| match pos.at(Cell::from_index(x)) {
                                    Some(q) if q == p => Spot::Mine,
                                    Some(_) => Spot::Blocked,
                                    None => Spot::Empty,
                                })
                                .collect();
                            line[at] = Spot::Mine;
                            let want = slow_shape(&mut line, at, goal as usize, 0);
                            assert_eq!(shapes[p.index()][d], want, "{pos:?} {cell} {d} {p:?}");
                            seen[want as usize] += 1;
                            // The windows through the cell free of the other side.
                            for s in at.saturating_sub(goal as usize - 1)..=at {
                                let w = s..s + goal as usize;
                                if w.end <= line.len()
                                    && line[w.clone()].iter().all(|&c| c != Spot::Blocked)
                                {
                                    let mine = line[w].iter().filter(|&&c| c == Spot::Mine);
                                    let before = mine.count() as u32 - 1;
                                    slow_windows +=
                                        window_weight(before + 1) - window_weight(before);
                                }
                            }
                        }
                    }
                    assert_eq!(windows, slow_windows, "{pos:?} {cell}");
                }
            }
        }
        // Every shape came up, so each was compared.
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}
