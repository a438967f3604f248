//! What a node knows of the lines: wins in one, threats, open cells and
//! the moves' sort keys, from a table (boards up to 16 cells), from each
//! side's stones counted on every line at once (boards of at most 64
//! lines), or from a walk over the lines.

use super::{Solver, State};

/// What the line pass of a node found, for move ordering.
pub(super) struct Lines {
    pub mine: u64,
    pub theirs: u64,
    /// Each side's stones counted on every line (see [`State::counts`]).
    pub my_counts: LineCounts,
    pub their_counts: LineCounts,
    /// Whether each side's lines count (both, except in a weak game).
    pub my_lines: bool,
    pub their_lines: bool,
}

/// Stones counted on every line at once, in bit planes over the line
/// indices: bit `i` of plane `b` is bit `b` of line `i`'s count (counts
/// below 8; a line holds at most 8 cells).
pub(super) type LineCounts = [u64; 3];

/// The lines whose count is `n` (below 8).
#[inline(always)]
pub(super) fn lines_holding(counts: LineCounts, n: usize) -> u64 {
    let plane = |b: usize| {
        if n >> b & 1 != 0 {
            counts[b]
        } else {
            !counts[b]
        }
    };
    plane(0) & plane(1) & plane(2)
}

/// Counts `stones` on every line (`masks`: the geometry's line-index
/// masks).
pub(super) fn count_stones(masks: &[u64], mut stones: u64) -> LineCounts {
    let mut counts = [0; 3];
    while stones != 0 {
        count_stone(&mut counts, masks[stones.trailing_zeros() as usize]);
        stones &= stones - 1;
    }
    counts
}

/// Adds one stone, on the lines `through` (a cell's line-index mask).
#[inline(always)]
pub(super) fn count_stone(counts: &mut LineCounts, through: u64) {
    let carry = counts[0] & through;
    counts[0] ^= through;
    counts[2] |= counts[1] & carry;
    counts[1] ^= carry;
}

impl Solver {
    /// The sort keys of `moves`, the best move's the largest: moves that
    /// make or stop a threat, then open lines through the cell (the fuller
    /// the better: for me to build on, for them to be blocked), then
    /// history. The search sorts by them lazily, as most nodes cut on
    /// their first move.
    #[inline]
    pub(super) fn order(&self, moves: &[u8], me: usize, lines: &Lines, keys: &mut [u32]) {
        match &self.geo.line_index_masks {
            Some(masks) => self.line_planes_keys(masks, moves, me, lines, keys),
            None => self.line_walk_keys(moves, me, lines, keys),
        }
    }

    /// A move's sort key from what `order` found.
    #[inline(always)]
    fn key(&self, me: usize, cell: u8, makes_mine: bool, makes_theirs: bool, shape: u32) -> u32 {
        (u32::from(makes_mine) << 28)
            + (u32::from(makes_theirs) << 27)
            + (shape.min((1 << 12) - 1) << 14)
            + self.history[me][cell as usize].min((1 << 14) - 1)
    }

    /// What `search` needs of the lines, by one walk over them: my wins in
    /// one, their threats, and the cells of the lines still open to me and
    /// to them (not yet masked with the empty cells).
    #[inline]
    pub(super) fn line_facts_by_walk(
        &self,
        mine: u64,
        theirs: u64,
        my_lines: bool,
        their_lines: bool,
    ) -> (u64, u64, u64, u64) {
        let (mut wins, mut threats) = (0u64, 0u64);
        let (mut my_open, mut their_open) = (0u64, 0u64);
        // `rest` has one bit when the line lacks one stone.
        for &line in &self.geo.lines {
            if my_lines && line & theirs == 0 {
                my_open |= line;
                let rest = line & !mine;
                if rest & rest.wrapping_sub(1) == 0 {
                    wins |= rest;
                }
            }
            if their_lines && line & mine == 0 {
                their_open |= line;
                let rest = line & !theirs;
                if rest & rest.wrapping_sub(1) == 0 {
                    threats |= rest;
                }
            }
        }
        (wins, threats, my_open, their_open)
    }

    /// What `search` needs of the lines, from the line counts (boards of
    /// at most 64 lines): my wins in one, their threats, and the cells of
    /// the lines still open to me and to them.
    #[inline]
    pub(super) fn line_facts_from_counts(
        &self,
        masks: &[u64],
        st: &State,
        my_lines: bool,
        their_lines: bool,
        empty: u64,
    ) -> (u64, u64, u64, u64) {
        let (me, opp) = (st.side, st.side ^ 1);
        let (my_open_lines, their_open_lines) = (
            self.open_lines(my_lines, st.counts[opp]),
            self.open_lines(their_lines, st.counts[me]),
        );
        let goal = self.geo.goal as usize;
        let cells_of = |mut lines: u64| {
            let mut cells = 0;
            while lines != 0 {
                cells |= self.geo.lines[lines.trailing_zeros() as usize];
                lines &= lines - 1;
            }
            cells
        };
        let wins = cells_of(my_open_lines & lines_holding(st.counts[me], goal - 1));
        let threats = cells_of(their_open_lines & lines_holding(st.counts[opp], goal - 1));
        let (mut my_open, mut their_open) = (0u64, 0u64);
        let mut rest = empty;
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            let through = masks[cell as usize];
            my_open |= u64::from(through & my_open_lines != 0) << cell;
            their_open |= u64::from(through & their_open_lines != 0) << cell;
        }
        (wins, threats, my_open, their_open)
    }

    /// The lines open to a side (when its lines count): those the other
    /// side, counted in `other`, has no stone on.
    #[inline]
    fn open_lines(&self, counts: bool, other: LineCounts) -> u64 {
        let all = u64::MAX >> (64 - self.geo.lines.len());
        if counts {
            all & !(other[0] | other[1] | other[2])
        } else {
            0
        }
    }

    /// `order`'s keys on boards of at most 64 lines, with no walk over the
    /// lines: from each side's stones counted on every line (kept up by the
    /// moves), a move's shape is a few popcounts of the lines through it.
    #[inline]
    fn line_planes_keys(
        &self,
        masks: &[u64],
        moves: &[u8],
        me: usize,
        lines: &Lines,
        keys: &mut [u32],
    ) {
        let (mine, theirs) = (lines.my_counts, lines.their_counts);
        let (my_open, their_open) = (
            self.open_lines(lines.my_lines, theirs),
            self.open_lines(lines.their_lines, mine),
        );
        // The open lines holding `s` stones of a side, for s < goal.
        let goal = self.geo.goal as usize;
        let with = |open: u64, counts: LineCounts| {
            let mut by_count = [0u64; 8];
            for (s, lines) in by_count.iter_mut().enumerate().take(goal) {
                *lines = open & lines_holding(counts, s);
            }
            by_count
        };
        let (my_by_count, their_by_count) = (with(my_open, mine), with(their_open, theirs));
        for (key, &cell) in keys.iter_mut().zip(moves) {
            let through = masks[cell as usize];
            let mut shape = 0;
            for s in 0..goal {
                shape += ((through & my_by_count[s]).count_ones()
                    + (through & their_by_count[s]).count_ones())
                    << (2 * s);
            }
            *key = self.key(
                me,
                cell,
                through & my_by_count[goal - 2] != 0,
                through & their_by_count[goal - 2] != 0,
                shape,
            );
        }
    }

    /// `order`'s keys on boards of more than 64 lines: each open line adds
    /// its weight to its empty cells, in one walk over the lines.
    #[inline]
    fn line_walk_keys(&self, moves: &[u8], me: usize, lines: &Lines, keys: &mut [u32]) {
        // It also finds the cells that would make a threat (on an open
        // line two stones short).
        let mut shape = [0u32; 64];
        let (mut my_makers, mut their_makers) = (0u64, 0u64);
        let empty = self.geo.full & !(lines.mine | lines.theirs);
        for &line in &self.geo.lines {
            let mut weight = 0;
            if lines.my_lines && line & lines.theirs == 0 {
                weight += 1 << (2 * (line & lines.mine).count_ones());
                let rest = line & !lines.mine;
                if rest.count_ones() == 2 {
                    my_makers |= rest;
                }
            }
            if lines.their_lines && line & lines.mine == 0 {
                weight += 1 << (2 * (line & lines.theirs).count_ones());
                let rest = line & !lines.theirs;
                if rest.count_ones() == 2 {
                    their_makers |= rest;
                }
            }
            if weight != 0 {
                let mut cells = line & empty;
                while cells != 0 {
                    shape[cells.trailing_zeros() as usize] += weight;
                    cells &= cells - 1;
                }
            }
        }
        for (key, &cell) in keys.iter_mut().zip(moves) {
            let bit = 1u64 << cell;
            *key = self.key(
                me,
                cell,
                my_makers & bit != 0,
                their_makers & bit != 0,
                shape[cell as usize],
            );
        }
    }
}

/// The index of the largest key, the first of equals.
#[inline]
pub(super) fn best_key_index(keys: &[u32]) -> usize {
    let mut best = 0;
    for (i, &key) in keys.iter().enumerate().skip(1) {
        if key > keys[best] {
            best = i;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::solver::Solver;
    use crate::game::Rules;

    /// Random positions (two disjoint stone sets, some with whole lines)
    /// on every board whose solver counts stones per line, in a state with
    /// those counts, for both sides to move and every weak game.
    fn counted_positions(mut check: impl FnMut(&Solver, &State, bool, bool)) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut boards_seen = 0;
        for (size, goal) in [(4, 3), (5, 4), (6, 4), (7, 5), (8, 8)] {
            let rules = Rules::new(size, goal).unwrap();
            let solver = Solver::new(rules);
            let geo = solver.geo;
            let Some(masks) = &geo.line_index_masks else {
                continue;
            };
            boards_seen += 1;
            for _ in 0..2000 {
                let (a, b) = (rng.random::<u64>(), rng.random::<u64>());
                let density = rng.random_range(0..4);
                let taken = (0..density).fold(geo.full, |m, _| m & rng.random::<u64>());
                let boards = [a & taken, !a & b & taken];
                let counts = boards.map(|stones| count_stones(masks, stones));
                for side in 0..2 {
                    let st = State {
                        boards,
                        side,
                        hashes: [0; 8],
                        counts,
                    };
                    for (my_lines, their_lines) in [(true, true), (true, false), (false, true)] {
                        check(&solver, &st, my_lines, their_lines);
                    }
                }
            }
        }
        assert_eq!(
            boards_seen, 4,
            "boards with more lines than cells, up to 64"
        );
    }

    #[test]
    fn line_counts_match_a_count_on_each_line() {
        counted_positions(|solver, st, _, _| {
            for (index, &line) in solver.geo.lines.iter().enumerate() {
                for p in 0..2 {
                    let stones = (line & st.boards[p]).count_ones() as usize;
                    let holding = |n| lines_holding(st.counts[p], n) >> index & 1 != 0;
                    assert!(holding(stones.min(7)), "{stones} stones on line {index}");
                    assert!(!holding(stones + 1));
                }
            }
        });
    }

    #[test]
    fn line_facts_from_counts_match_the_walk_over_the_lines() {
        counted_positions(|solver, st, my_lines, their_lines| {
            let (me, opp) = (st.side, st.side ^ 1);
            let empty = solver.geo.full & !(st.boards[0] | st.boards[1]);
            let masked =
                |(w, t, m, o): (u64, u64, u64, u64)| (w & empty, t & empty, m & empty, o & empty);
            let walked =
                solver.line_facts_by_walk(st.boards[me], st.boards[opp], my_lines, their_lines);
            let masks = solver.geo.line_index_masks.as_deref().unwrap_or_default();
            let counted = solver.line_facts_from_counts(masks, st, my_lines, their_lines, empty);
            assert_eq!(masked(counted), masked(walked), "{:?}", st.boards);
        });
    }

    #[test]
    fn move_keys_from_counts_match_the_walk_over_the_lines() {
        counted_positions(|solver, st, my_lines, their_lines| {
            let (me, opp) = (st.side, st.side ^ 1);
            let empty = solver.geo.full & !(st.boards[0] | st.boards[1]);
            let moves: Vec<u8> = (0..solver.geo.cells)
                .filter(|&c| empty >> c & 1 != 0)
                .collect();
            let lines = Lines {
                mine: st.boards[me],
                theirs: st.boards[opp],
                my_counts: st.counts[me],
                their_counts: st.counts[opp],
                my_lines,
                their_lines,
            };
            let (mut walked, mut counted) = ([0u32; 64], [0u32; 64]);
            solver.line_walk_keys(&moves, me, &lines, &mut walked);
            let masks = solver.geo.line_index_masks.as_deref().unwrap_or_default();
            solver.line_planes_keys(masks, &moves, me, &lines, &mut counted);
            assert_eq!(counted, walked, "{:?}", st.boards);
        });
    }

    #[test]
    fn the_first_of_the_largest_keys_is_picked() {
        assert_eq!(best_key_index(&[3, 9, 2, 9, 1]), 1);
        assert_eq!(best_key_index(&[7]), 0);
        assert_eq!(best_key_index(&[1, 2, 3]), 2);
    }
}
