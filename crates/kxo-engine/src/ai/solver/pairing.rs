//! Pairing strategies: a proof, found in a position, that one side can no
//! longer complete any line.
//!
//! The defender picks disjoint pairs of empty cells such that every line
//! still open to the attacker (no defender stone on it) holds a whole
//! pair. Whenever the attacker takes a cell of a pair, the defender takes
//! the other; any other move is answered anywhere (an extra stone never
//! hurts in these games, and a defender stone on a pair kills every line
//! through that pair). The attacker then never owns both cells of a pair,
//! so never a whole open line. Two cells lie together on several windows
//! of one row, so a pair in the middle of a row covers all of them.
//!
//! Finding a pairing is a covering problem: a backtracking search that
//! takes the open line with the fewest choices first and gives up after a
//! budget of steps (not found is not a proof of anything; found is).

/// Pairs of cells (bit indices), each the defender's answer to the other.
pub(crate) type Pairs = Vec<(u8, u8)>;

/// A pairing of `empty` cells against `attacker` on `lines` (the line
/// masks of the board), if the search finds one within `budget` steps.
/// Every open line must have two empty cells at least: a line one move
/// from complete is a threat, which no pairing answers.
pub(crate) fn find(lines: &[u64], defender: u64, empty: u64, budget: u32) -> Option<Pairs> {
    // Each open line's empty cells, on the stack (this runs at many
    // nodes of the solver's searches).
    let mut open_lines = [0u64; 128];
    let mut count = 0;
    for &line in lines.iter().filter(|&&l| l & defender == 0) {
        let free = line & empty;
        if count == open_lines.len() || free.count_ones() < 2 {
            return None;
        }
        open_lines[count] = free;
        count += 1;
    }
    let open = &open_lines[..count];
    let mut lines_through = [0u128; 64];
    for (i, &line) in open.iter().enumerate() {
        let mut cells = line;
        while cells != 0 {
            lines_through[cells.trailing_zeros() as usize] |= 1u128 << i;
            cells &= cells - 1;
        }
    }
    let mut search = Search {
        open,
        lines_through: &lines_through,
        pairs: Vec::new(),
        steps: budget,
    };
    let all = if open.len() == 128 {
        u128::MAX
    } else {
        (1u128 << open.len()) - 1
    };
    search.cover(all, 0).then_some(search.pairs)
}

/// The backtracking search: `open` holds each open line's empty cells;
/// a set of them is a bit mask over its indices (at most 128 lines).
struct Search<'a> {
    open: &'a [u64],
    /// For each cell, the open lines through it (a set of indices).
    lines_through: &'a [u128; 64],
    pairs: Pairs,
    steps: u32,
}

impl Search<'_> {
    /// Covers the lines of `remaining` with pairs of cells not in `used`.
    fn cover(&mut self, remaining: u128, used: u64) -> bool {
        if remaining == 0 {
            return true;
        }
        // The line with the fewest free cells: the most constrained.
        let mut line = 0u64;
        let mut fewest = u32::MAX;
        let mut rest = remaining;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let free = (self.open[i] & !used).count_ones();
            if free < fewest {
                fewest = free;
                line = self.open[i];
            }
        }
        let free = line & !used;
        if fewest < 2 {
            return false;
        }
        // Its candidate pairs, those that cover the most lines first (at
        // most 28: a line has at most 8 cells).
        let mut candidates = [(0u32, 0u8, 0u8); 28];
        let mut count = 0;
        let mut a_bits = free;
        while a_bits != 0 {
            let a = a_bits.trailing_zeros() as u8;
            a_bits &= a_bits - 1;
            let mut b_bits = a_bits;
            while b_bits != 0 && count < candidates.len() {
                let b = b_bits.trailing_zeros() as u8;
                b_bits &= b_bits - 1;
                candidates[count] = (self.covered(remaining, a, b).count_ones(), a, b);
                count += 1;
            }
        }
        let candidates = &mut candidates[..count];
        candidates.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
        for &(_, a, b) in candidates.iter() {
            if self.steps == 0 {
                return false;
            }
            self.steps -= 1;
            let both = (1u64 << a) | (1u64 << b);
            self.pairs.push((a, b));
            if self.cover(remaining & !self.covered(remaining, a, b), used | both) {
                return true;
            }
            self.pairs.pop();
        }
        false
    }

    /// The lines of `remaining` that hold both `a` and `b`.
    #[inline]
    fn covered(&self, remaining: u128, a: u8, b: u8) -> u128 {
        remaining & self.lines_through[a as usize] & self.lines_through[b as usize]
    }
}

/// Whether `pairs` is a pairing strategy for the defender: disjoint pairs
/// of empty cells, every open line holding one (checked directly, for the
/// tests and the proof checker).
#[cfg(test)]
pub(crate) fn holds(lines: &[u64], defender: u64, empty: u64, pairs: &[(u8, u8)]) -> bool {
    let mut used = 0u64;
    for &(a, b) in pairs {
        let both = (1u64 << a) | (1u64 << b);
        if a == b || both & used != 0 || both & empty != both {
            return false;
        }
        used |= both;
    }
    lines.iter().filter(|&&l| l & defender == 0).all(|&l| {
        pairs.iter().any(|&(a, b)| {
            let both = (1u64 << a) | (1u64 << b);
            l & both == both
        })
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::game::Rules;
    use rand::{RngExt, SeedableRng};

    /// Whether the attacker, moving first (`attacker_to_move`) or second,
    /// can complete a line against every defence: a plain game-tree search
    /// over the weak game with a memo, for small boards.
    pub(in crate::ai::solver) fn attacker_wins(
        lines: &[u64],
        (a, d): (u64, u64),
        empty: u64,
        attacker_to_move: bool,
        memo: &mut std::collections::HashMap<(u64, u64), bool>,
    ) -> bool {
        if lines.iter().any(|&l| l & !a == 0) {
            return true;
        }
        if empty == 0 || lines.iter().all(|&l| l & d != 0) {
            return false;
        }
        if let Some(&known) = memo.get(&(a, d)) {
            return known;
        }
        let mut cells = empty;
        let mut result = !attacker_to_move;
        while cells != 0 {
            let c = 1u64 << cells.trailing_zeros();
            cells &= cells - 1;
            let wins = if attacker_to_move {
                attacker_wins(lines, (a | c, d), empty & !c, false, memo)
            } else {
                attacker_wins(lines, (a, d | c), empty & !c, true, memo)
            };
            if wins == attacker_to_move {
                result = wins;
                break;
            }
        }
        memo.insert((a, d), result);
        result
    }

    #[test]
    fn a_found_pairing_holds_and_the_attacker_never_wins_against_it() {
        // 4x4 with four in a row, positions a few stones in: whenever a
        // pairing is found, it checks out, and brute force agrees that the
        // attacker (to move) cannot complete a line.
        let rules = Rules::new(4, 4).unwrap();
        let lines = &rules.geometry().lines;
        let full = (1u64 << 16) - 1;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut found, mut refuted) = (0, 0);
        for _ in 0..300 {
            let (mut a, mut d) = (0u64, 0u64);
            for i in 0..rng.random_range(3..9) {
                let free: Vec<u32> = (0..16).filter(|c| (a | d) >> c & 1 == 0).collect();
                let c = 1u64 << free[rng.random_range(0..free.len())];
                if i % 2 == 0 { a |= c } else { d |= c }
            }
            let empty = full & !(a | d);
            match find(lines, d, empty, 10_000) {
                Some(pairs) => {
                    found += 1;
                    assert!(holds(lines, d, empty, &pairs), "{pairs:?}");
                    let mut memo = Default::default();
                    let wins = attacker_wins(lines, (a, d), empty, true, &mut memo);
                    assert!(!wins, "a {a:x} d {d:x} {pairs:?}");
                }
                None => refuted += 1,
            }
        }
        // Both kinds occur: after a few defender stones the lines left
        // fit pairs; threats, or too many lines for 16 cells, do not.
        assert!(found > 50 && refuted > 10, "{found} found, {refuted} not");
    }

    #[test]
    fn five_in_a_row_on_five_by_five_is_a_draw_by_pairing_and_a_threat_has_none() {
        // 12 lines (5 rows, 5 columns, 2 diagonals), 25 cells: 12 pairs fit.
        let rules = Rules::new(5, 5).unwrap();
        let lines = &rules.geometry().lines;
        let full = (1u64 << 25) - 1;
        let pairs = find(lines, 0, full, 10_000).expect("a pairing of the empty board");
        assert_eq!(pairs.len(), 12);
        assert!(holds(lines, 0, full, &pairs));
        // 4x4 with four in a row: 10 lines, no two sharing a pair, need 20
        // cells of 16: none.
        let four = Rules::new(4, 4).unwrap();
        assert!(find(&four.geometry().lines, 0, (1 << 16) - 1, 10_000).is_none());
        // Four of a row's five cells taken by the attacker: a threat.
        assert!(find(lines, 0, full & !0b1111, 10_000).is_none());
        // A broken pairing is refused by the check.
        let mut bad = pairs.clone();
        bad[0].1 = bad[1].0;
        assert!(!holds(lines, 0, full, &bad));
    }
}
