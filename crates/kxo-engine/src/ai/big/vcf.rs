//! Victory by continuous fours (VCF): a win forced with fours alone.
//!
//! The side to move plays a four (a move after which it has a cell that
//! completes K in a row); the opponent must block that cell, having no
//! win of its own; and so on until a four leaves two winning cells (one
//! block cannot stop both) or a win in one. Each reply is forced, so the
//! search branches only on the attacker's fours: it reads sequences far
//! deeper than a full-width search. A sequence found is a proof: every
//! step is checked by the board's own win cells.

use super::{BigBoard, Tables};
#[cfg(test)]
use crate::game::Player;

/// The engines' search for a VCF before they think: sequences up to this
/// many plies, with up to this many fours tried (well under a millisecond
/// on 15x15).
pub(crate) const ROOT_PLIES: u32 = 31;
pub(crate) const ROOT_BUDGET: u32 = 20_000;

/// A VCF for the side to move in `b`, if one is found within `max_plies`
/// plies and `budget` fours tried: the moves of both sides in order, the
/// last the attacker's winning move.
pub(crate) fn find(
    t: &Tables,
    b: &BigBoard,
    max_plies: u32,
    budget: &mut u32,
) -> Option<Vec<usize>> {
    let mut line = Vec::new();
    search(t, b, max_plies, budget, &mut line).then_some(line)
}

/// The plies of a VCF for the side to move in `b`, as [`find`] would
/// find it, without its moves: for the searches' leaves, where it is
/// asked at nearly every node and must not allocate. `None` at once
/// when the side to move can make no four.
pub(crate) fn win_length(
    t: &Tables,
    b: &BigBoard,
    max_plies: u32,
    budget: &mut u32,
) -> Option<u32> {
    let me = b.to_move();
    if b.four_cells(me).is_empty() && b.wins(me).is_empty() {
        return None;
    }
    let mut line = Length(0);
    search(t, b, max_plies, budget, &mut line).then_some(line.0)
}

/// [`win_length`] remembered by position, for a search that asks it at
/// its leaves: they are reached again by other orders of the same moves,
/// and in the next iteration of a deepening search. A slot keeps the
/// last position put in it. The answers hold for one `max_plies` and
/// budget: a search asks always with the same.
pub(crate) struct WinLengths {
    /// The position's key, and its answer: 0 for none, else the plies.
    slots: Vec<(u64, u8)>,
}

impl WinLengths {
    /// Room for 2^`bits` positions.
    pub(crate) fn new(bits: u32) -> WinLengths {
        WinLengths {
            slots: vec![(0, 0); 1 << bits],
        }
    }

    /// Resized, if it must be, to the most positions that fit in `bytes`:
    /// a power of two from 2^8 to 2^`max_bits` (what it holds is lost).
    pub(crate) fn fit(&mut self, bytes: usize, max_bits: u32) {
        let slots = (bytes / std::mem::size_of::<(u64, u8)>()).max(1 << 8);
        let bits = (usize::BITS - 1 - slots.leading_zeros()).min(max_bits);
        if self.slots.len() != 1 << bits {
            *self = WinLengths::new(bits);
        }
    }

    /// The memory its slots take.
    pub(crate) fn bytes(&self) -> usize {
        std::mem::size_of_val(self.slots.as_slice())
    }

    /// [`win_length`] of `b`, read from the slots when it was asked before.
    pub(crate) fn win_length(
        &mut self,
        t: &Tables,
        b: &BigBoard,
        max_plies: u32,
        budget: u32,
    ) -> Option<u32> {
        let me = b.to_move();
        if b.four_cells(me).is_empty() && b.wins(me).is_empty() {
            return None;
        }
        let key = b.key();
        let slot = key as usize & (self.slots.len() - 1);
        let (known, plies) = self.slots[slot];
        if known == key && key != 0 {
            return (plies != 0).then_some(u32::from(plies));
        }
        let mut budget = budget;
        let found = win_length(t, b, max_plies, &mut budget);
        // A win too long for a byte (no leaf search asks past 21 plies)
        // is not kept: it would read back as none.
        if let Ok(plies) = u8::try_from(found.unwrap_or(0)) {
            self.slots[slot] = (key, plies);
        }
        found
    }
}

/// A board as the search by fours plays it: its moves keep only the win
/// cells and the fours up to date ([`BigBoard::play_for_fours`], a third
/// less work a move), so only those are read.
#[derive(Clone, Copy)]
struct FoursBoard(BigBoard);

impl FoursBoard {
    fn play(&mut self, t: &Tables, cell: usize) {
        self.0.play_for_fours(t, cell);
    }
}

/// What the search by fours reads of a board: the position it starts
/// from (a [`BigBoard`], read where it is) or one it played.
trait Fours {
    /// A copy to play a four on.
    fn to_play_on(&self) -> FoursBoard;
    fn board(&self) -> &BigBoard;
}

impl Fours for BigBoard {
    fn to_play_on(&self) -> FoursBoard {
        FoursBoard(*self)
    }
    fn board(&self) -> &BigBoard {
        self
    }
}

impl Fours for FoursBoard {
    fn to_play_on(&self) -> FoursBoard {
        *self
    }
    fn board(&self) -> &BigBoard {
        &self.0
    }
}

/// Where the search writes the line it is on: its moves, or only how
/// many there are.
trait Line {
    fn push(&mut self, cell: usize);
    fn len(&self) -> usize;
    fn truncate(&mut self, len: usize);
}

impl Line for Vec<usize> {
    fn push(&mut self, cell: usize) {
        Vec::push(self, cell);
    }
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn truncate(&mut self, len: usize) {
        Vec::truncate(self, len);
    }
}

/// A line's length alone.
struct Length(u32);

impl Line for Length {
    fn push(&mut self, _cell: usize) {
        self.0 += 1;
    }
    fn len(&self) -> usize {
        self.0 as usize
    }
    fn truncate(&mut self, len: usize) {
        self.0 = len as u32;
    }
}

fn search(t: &Tables, b: &impl Fours, plies: u32, budget: &mut u32, line: &mut impl Line) -> bool {
    let here = b.board();
    let me = here.to_move();
    let opp = me.other();
    if let Some(win) = here.wins(me).first() {
        line.push(win);
        return true;
    }
    if plies < 3 || *budget == 0 {
        return false;
    }
    // An opponent's four must be blocked first: the block must itself be
    // a four to keep the initiative. Only the cells where a stone makes
    // a four can.
    let threats = here.wins(opp);
    let candidates = match threats.count() {
        0 => here.four_cells(me),
        1 => threats & here.four_cells(me),
        _ => return false,
    };
    for cell in candidates.iter() {
        if *budget == 0 {
            return false;
        }
        let mut next = b.to_play_on();
        next.play(t, cell);
        let made = next.0.wins(me);
        if made.is_empty() {
            continue;
        }
        *budget -= 1;
        // The opponent, to move, wins first if it can.
        if !next.0.wins(opp).is_empty() {
            continue;
        }
        line.push(cell);
        if made.count() >= 2 {
            // Two winning cells: block one, the other wins.
            let block = made.first().unwrap_or(cell);
            next.play(t, block);
            line.push(block);
            if let Some(win) = next.0.wins(me).first() {
                line.push(win);
                return true;
            }
            line.truncate(line.len() - 2);
            continue;
        }
        let block = made.first().unwrap_or(cell);
        next.play(t, block);
        line.push(block);
        if search(t, &next, plies - 2, budget, line) {
            return true;
        }
        line.truncate(line.len() - 2);
    }
    false
}

/// Whether `line` is a VCF for `attacker` from `b` (to move): each of its
/// moves a four or the win, each reply the one block, the last a win.
/// Walks the moves on the board's own rules (for tests and checks).
#[cfg(test)]
pub(crate) fn is_vcf(t: &Tables, b: &BigBoard, line: &[usize]) -> bool {
    let attacker: Player = b.to_move();
    let mut board = *b;
    for (i, &cell) in line.iter().enumerate() {
        if !board.empty_cells(t).contains(cell) || board.outcome().is_over() {
            return false;
        }
        let attacking = i % 2 == 0;
        let last = i + 1 == line.len();
        if attacking {
            board.play(t, cell);
            if last {
                return board.outcome() == crate::game::Outcome::Win(attacker);
            }
            // A four, and the defender has no win of its own.
            if board.wins(attacker).is_empty() || !board.wins(attacker.other()).is_empty() {
                return false;
            }
        } else {
            // The block: the attacker's only winning cell, unless it has
            // two (then any block loses).
            let wins = board.wins(attacker);
            if wins.count() == 1 && !wins.contains(cell) {
                return false;
            }
            board.play(t, cell);
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cell, Player, Position, Rule, Rules};
    use rand::{RngExt, SeedableRng};

    fn board(rules: Rules, t: &Tables, moves: &[&str]) -> BigBoard {
        let cells: Vec<Cell> = moves
            .iter()
            .map(|m| Cell::parse(m, rules.size()).unwrap())
            .collect();
        BigBoard::from_position(t, &Position::from_moves(rules, &cells).unwrap())
    }

    #[test]
    fn an_open_three_and_a_four_make_a_vcf() {
        let rules = Rules::new(15, 5).unwrap();
        let t = Tables::new(rules);
        // O: H8 I8 J8 (three in a row, open) with X far away; O to move.
        let b = board(rules, &t, &["h8", "a1", "i8", "a3", "j8", "a5"]);
        let mut budget = 10_000;
        let line = find(&t, &b, 9, &mut budget).expect("a VCF");
        assert!(is_vcf(&t, &b, &line), "{line:?}");
        // Four then five: three plies at most.
        assert!(line.len() <= 3, "{line:?}");
    }

    #[test]
    fn no_vcf_where_the_defender_wins_first() {
        let rules = Rules::new(15, 5).unwrap();
        let t = Tables::new(rules);
        // X has four in a row (A1..A4, A5 open); O (to move) has an open
        // three but must block A5, which makes no four: no VCF.
        let b = board(
            rules,
            &t,
            &["h8", "a1", "i8", "a2", "j8", "a3", "o15", "a4"],
        );
        let mut budget = 10_000;
        assert!(find(&t, &b, 15, &mut budget).is_none());
    }

    /// A slow VCF search on `Position` alone: every cell tried, every
    /// rule checked by replaying the game.
    fn slow_vcf(pos: &Position, plies: u32) -> bool {
        let rules = pos.rules();
        // The empty cells that complete a line for `side` in `p`.
        let wins_of = |p: &Position, side: Player| -> Vec<Cell> {
            let board = p.board(side);
            p.legal_moves()
                .filter(|c| {
                    let with = board.with(c.index());
                    crate::game::line_through(&with, rules, c.index()).is_some()
                })
                .collect()
        };
        let me = pos.to_move();
        if !wins_of(pos, me).is_empty() {
            return true;
        }
        if plies < 3 {
            return false;
        }
        for c in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(c);
            let made = wins_of(&next, me);
            if made.is_empty() || !wins_of(&next, me.other()).is_empty() {
                continue;
            }
            if made.len() >= 2 {
                return true;
            }
            let mut after = next;
            after.play_unchecked(made[0]);
            if slow_vcf(&after, plies - 2) {
                return true;
            }
        }
        false
    }

    #[test]
    fn remembered_win_lengths_are_the_ones_searched() {
        // Four slots for many positions: each answer, asked once or again
        // after other positions took its slot, is the search's own.
        let rules = Rules::new(15, 5).unwrap();
        let t = Tables::new(rules);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut memo = WinLengths::new(2);
        let mut boards = Vec::new();
        while boards.len() < 60 {
            let mut pos = Position::new(rules);
            while pos.move_count() < rng.random_range(10..30) {
                let c = Cell::from_row_col(rng.random_range(4..11), rng.random_range(4..11), 15);
                let _ = pos.play(c);
            }
            if !pos.outcome().is_over() {
                boards.push(BigBoard::from_position(&t, &pos));
            }
        }
        let mut found = 0;
        for b in boards.iter().chain(&boards).chain(boards.iter().rev()) {
            let mut budget = 20;
            let want = win_length(&t, b, 21, &mut budget);
            assert_eq!(memo.win_length(&t, b, 21, 20), want);
            assert_eq!(memo.win_length(&t, b, 21, 20), want, "asked again");
            found += usize::from(want.is_some());
        }
        // Both answers met.
        assert!(found > 0 && found < 3 * boards.len(), "{found}");
    }

    #[test]
    fn on_random_positions_vcf_agrees_with_a_slow_search_and_every_line_checks() {
        // 9x9 with five in a row, stones near the centre: positions where
        // a VCF of up to 7 plies (three fours, then five) exists or not,
        // by the slow search, under either rule.
        for rule in [Rule::Freestyle, Rule::Standard] {
            vcf_agrees_with_a_slow_search(Rules::new(9, 5).unwrap().with_rule(rule));
        }
    }

    fn vcf_agrees_with_a_slow_search(rules: Rules) {
        let t = Tables::new(rules);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        let (mut with, mut without) = (0, 0);
        while with + without < 120 {
            let mut pos = Position::new(rules);
            let stones = rng.random_range(8..16);
            // Stones near the centre, so that lines form.
            while pos.move_count() < stones {
                let c = Cell::from_row_col(rng.random_range(2..7), rng.random_range(2..7), 9);
                let _ = pos.play(c);
            }
            if pos.outcome().is_over() {
                continue;
            }
            let b = BigBoard::from_position(&t, &pos);
            let mut budget = 1_000_000;
            let found = find(&t, &b, 7, &mut budget);
            let slow = slow_vcf(&pos, 7);
            assert_eq!(found.is_some(), slow, "{pos:?} {found:?}");
            // The leaves' form finds the same line's length, and as soon.
            let mut leaf_budget = 1_000_000;
            let length = win_length(&t, &b, 7, &mut leaf_budget);
            assert_eq!(length, found.as_ref().map(|l| l.len() as u32), "{pos:?}");
            assert_eq!(leaf_budget, budget, "{pos:?}");
            if let Some(line) = found {
                assert!(is_vcf(&t, &b, &line), "a false VCF {line:?} in {pos:?}");
                with += 1;
            } else {
                without += 1;
            }
        }
        assert!(
            with >= 10 && without >= 10,
            "{with} with, {without} without"
        );
    }
}
