//! Victory by continuous threats (VCT): a win forced with fours and
//! threes.
//!
//! The attacker plays a threat: a four (a move after which it has a cell
//! that completes K in a row), or a three (a move after which it has a
//! double four: a cell that would leave two win cells, which one block
//! cannot stop). Against a four the defender has one reply, the block.
//! Against a three it has more, and every one must be refuted. Only a
//! stone in one of the attacker's windows of K - 2 (its four cells) can
//! stop a double four, and the defender may instead make a four of its
//! own (its four cells), which the attacker must block. So the defender's
//! replies are the four cells of both sides, and that set is complete:
//! any other move leaves the double four on the board.
//!
//! The search is an AND/OR tree over those moves, by iterative deepening
//! on the number of plies, within a budget of nodes. A win it reports is a
//! proof under those rules: the attacker's moves are threats, and every
//! reply that could answer them is searched.

use rustc_hash::FxHashMap;

use super::{BigBoard, Tables};
use crate::game::Bits;

/// What one search learned of the attacker's positions it met (threat
/// sequences reach one position in many orders): by key, the most plies
/// it failed to win in, or the move that won and in how many plies.
#[derive(Default)]
struct Memo {
    failed: FxHashMap<u64, u32>,
    won: FxHashMap<u64, (usize, u32)>,
}

/// The search's state: the tables, its memo and its node budget.
struct Search<'a> {
    t: &'a Tables,
    memo: Memo,
    budget: &'a mut u32,
}

/// The engines' search for a VCT before they think: sequences up to this
/// many plies (the suite's longest wins; the nodes, not the plies, bound
/// its time), within at least this many nodes.
pub(crate) const ROOT_PLIES: u32 = 35;
pub(crate) const ROOT_BUDGET: u32 = 4_000;

/// The last look's searches, one for each move it weighs: shorter, so
/// that a few fit in the little time left.
const LOOK_PLIES: u32 = 17;

/// The first move of a VCT for the side to move in `b`, and the plies to
/// the win, if one is found within `max_plies` plies and `budget` nodes.
pub(crate) fn find(
    t: &Tables,
    b: &BigBoard,
    max_plies: u32,
    budget: &mut u32,
) -> Option<(usize, u32)> {
    let mut search = Search {
        t,
        memo: Memo::default(),
        budget,
    };
    // Shortest first: a short win found early costs little.
    (1..=max_plies).step_by(2).find_map(|plies| {
        if *search.budget == 0 {
            return None;
        }
        search.attack(b, plies).map(|cell| (cell, plies))
    })
}

impl Search<'_> {
    fn attack(&mut self, b: &BigBoard, plies: u32) -> Option<usize> {
        let key = b.key();
        if let Some(&(cell, _)) = self.memo.won.get(&key).filter(|(_, p)| *p <= plies) {
            return Some(cell);
        }
        if self.memo.failed.get(&key).is_some_and(|&p| p >= plies) {
            return None;
        }
        let found = attack(self, b, plies);
        match found {
            Some(cell) => {
                self.memo.won.insert(key, (cell, plies));
            }
            // A search cut by the budget proved nothing.
            None if *self.budget > 0 => {
                let p = self.memo.failed.entry(key).or_insert(0);
                *p = (*p).max(plies);
            }
            None => {}
        }
        found
    }
}

/// `best` in `root`, unless it lets the other side win by threats (a VCT
/// after it, within `budget` nodes) and one of the next `tries` moves in
/// `order` does not: the engines' last look before they play. Each
/// alternative is tried only while `in_time()` says the move's time is
/// not up, so the look costs at most one search past it.
pub(crate) fn avoiding_threat_wins(
    t: &Tables,
    root: &BigBoard,
    best: usize,
    order: &[usize],
    budget: u32,
    tries: usize,
    mut in_time: impl FnMut() -> bool,
) -> usize {
    let allows_vct = |m: usize| {
        let mut next = *root;
        next.play(t, m);
        let mut left = budget;
        !next.outcome().is_over() && find(t, &next, LOOK_PLIES, &mut left).is_some()
    };
    if !allows_vct(best) {
        return best;
    }
    order
        .iter()
        .copied()
        .filter(|&m| m != best)
        .take(tries)
        .take_while(|_| in_time())
        .find(|&m| !allows_vct(m))
        .unwrap_or(best)
}

/// The attacker's winning move in `b` (attacker to move) within `plies`.
fn attack(search: &mut Search, b: &BigBoard, plies: u32) -> Option<usize> {
    let t = search.t;
    let me = b.to_move();
    let opp = me.other();
    if let Some(win) = b.wins(me).first() {
        return Some(win);
    }
    let threats = b.wins(opp);
    if threats.count() >= 2 || plies < 3 || *search.budget == 0 {
        return None;
    }
    *search.budget -= 1;
    if let Some(cell) = b.winning_double_four(t) {
        return Some(cell);
    }
    for cell in threats_to_try(t, b, plies) {
        if *search.budget == 0 {
            return None;
        }
        let mut next = *b;
        next.play(t, cell);
        if defend(search, &next, plies - 1) {
            return Some(cell);
        }
    }
    None
}

/// The attacker's moves in `b` (attacker to move, no win cell of its
/// own, the defender at most one) with `plies` left: the block of the
/// defender's four, or else its fours, and its threes when five plies or
/// more are left, the threats that build the most first.
fn threats_to_try(t: &Tables, b: &BigBoard, plies: u32) -> Vec<usize> {
    let me = b.to_move();
    let threats = b.wins(me.other());
    if threats.count() == 1 {
        return threats.iter().collect();
    }
    let fours = b.four_cells(me);
    let mut moves: Vec<usize> = fours.iter().collect();
    if plies >= 5 {
        moves.extend(threes(t, b, fours));
    }
    moves.sort_by_key(|&c| std::cmp::Reverse(potential(b, me, c)));
    moves
}

/// How much a stone of `p` on `cell` builds: the fours and windows of
/// K - 2 it makes, and what it takes from the other side.
fn potential(b: &BigBoard, p: crate::game::Player, cell: usize) -> u32 {
    let (mine, theirs) = (p, p.other());
    4 * u32::from(b.fours_at(mine, cell))
        + u32::from(b.threes_at(mine, cell))
        + 2 * u32::from(b.fours_at(theirs, cell))
        + u32::from(b.threes_at(theirs, cell))
}

/// The cells, not fours, after which the side to move has a double four
/// (an open three, or two threes made at once). Only a cell that makes a
/// window of K - 2 can ([`BigBoard::three_cells`]).
fn threes(t: &Tables, b: &BigBoard, fours: Bits) -> Vec<usize> {
    let me = b.to_move();
    // With a double four on the board every move keeps one: the quick
    // test would leave those out.
    let any = b.double_four(t, me).is_some();
    b.three_cells(me)
        .and_not(fours)
        .iter()
        .filter(|&cell| any || b.may_make_double_four(t, me, cell))
        .filter(|&cell| b.double_four_after(t, cell, me))
        .collect()
}

/// What the defender (to move in `b`, with no win cell) faces after the
/// attacker's move.
enum Answer {
    /// Two win cells or more: one block cannot stop them.
    Lost,
    /// No threat: the attacker's move forced nothing.
    Free,
    /// These replies could stop the threat (every other move loses), the
    /// likeliest refutations first.
    Replies(Vec<usize>),
}

fn answers(t: &Tables, b: &BigBoard) -> Answer {
    let def = b.to_move();
    let att = def.other();
    let threats = b.wins(att);
    let replies = match threats.count() {
        0 => {
            if b.double_four(t, att).is_none() {
                return Answer::Free;
            }
            (b.four_cells(att) | b.four_cells(def)) & b.empty_cells(t)
        }
        1 => threats,
        _ => return Answer::Lost,
    };
    // The likeliest refutations first: the defender's own fours (the
    // attacker must answer them, and they may break its threats), the
    // ones that make the most win cells first, then where the attacker's
    // lines meet. (Against the suite: a third of the nodes, and six more
    // wins proved within a million: BENCHMARKS.md run AF.)
    let mut replies: Vec<usize> = replies.iter().collect();
    replies.sort_by_key(|&c| std::cmp::Reverse((b.fours_at(def, c), potential(b, att, c))));
    Answer::Replies(replies)
}

/// Whether the side to move's stone on `reply` could hold against the
/// other side's double four: it makes a four of its own (which must be
/// answered first), or it leaves the other side no double four. Any
/// other move loses to the double four.
pub(crate) fn may_hold(t: &Tables, b: &BigBoard, reply: usize) -> bool {
    let me = b.to_move();
    b.fours_at(me, reply) > 0 || !b.double_four_after(t, reply, me.other())
}

/// Whether the attacker, who just moved in `b`, wins against every reply
/// of the defender (to move) within `plies`.
fn defend(search: &mut Search, b: &BigBoard, plies: u32) -> bool {
    let t = search.t;
    let def = b.to_move();
    let att = def.other();
    if b.outcome().is_over() {
        return b.outcome() == crate::game::Outcome::Win(att);
    }
    if !b.wins(def).is_empty() || *search.budget == 0 {
        return false;
    }
    *search.budget -= 1;
    let replies = match answers(t, b) {
        Answer::Lost => return true,
        Answer::Free => return false,
        Answer::Replies(replies) => replies,
    };
    replies.into_iter().all(|reply| {
        // What the memo knows needs no move played.
        let key = b.key_after(t, reply);
        if search.memo.won.get(&key).is_some_and(|&(_, p)| p < plies) {
            return true;
        }
        if search
            .memo
            .failed
            .get(&key)
            .is_some_and(|&p| p >= plies - 1)
        {
            return false;
        }
        let mut next = *b;
        next.play(t, reply);
        search.attack(&next, plies - 1).is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cell, Player, Position, Rule, Rules};

    fn board(rules: Rules, o: &[&str], x: &[&str]) -> (Tables, BigBoard) {
        let mut moves = Vec::new();
        for i in 0..o.len().max(x.len()) {
            for side in [o, x] {
                if let Some(m) = side.get(i) {
                    moves.push(Cell::parse(m, rules.size()).unwrap());
                }
            }
        }
        let pos = Position::from_moves(rules, &moves).unwrap();
        let t = Tables::new(rules);
        let b = BigBoard::from_position(&t, &pos);
        (t, b)
    }

    /// Whether `attacker`, having played into `b`, wins against every
    /// reply the defender has (all empty cells, not the search's set),
    /// each answered by a VCT within `plies` more.
    fn wins_against_every_reply(t: &Tables, b: &BigBoard, plies: u32) -> bool {
        b.empty_cells(t).iter().all(|reply| {
            let mut next = *b;
            next.play(t, reply);
            let mut budget = 200_000;
            find(t, &next, plies, &mut budget).is_some()
        })
    }

    #[test]
    fn two_threes_made_at_once_win_against_every_reply() {
        let rules = Rules::new(15, 5).unwrap();
        // I8 makes G8-H8-I8 and I6-I7-I8, two open threes: one block
        // cannot stop both.
        let (t, b) = board(
            rules,
            &["G8", "H8", "I6", "I7"],
            &["A1", "O1", "A15", "O15"],
        );
        assert_eq!(b.to_move(), Player::O);
        let mut budget = 50_000;
        let (cell, plies) = find(&t, &b, 11, &mut budget).expect("a VCT");
        assert_eq!((cell, plies), (Cell::parse("I8", 15).unwrap().index(), 5));
        let mut next = b;
        next.play(&t, cell);
        assert!(wins_against_every_reply(&t, &next, 3));
    }

    #[test]
    fn vcts_in_random_positions_hold_against_every_reply() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            vcts_hold_under(Rules::new(15, 5).unwrap().with_rule(rule));
        }
    }

    fn vcts_hold_under(rules: Rules) {
        use rand::{RngExt, SeedableRng};
        let t = Tables::new(rules);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(31);
        let (mut found, mut threes) = (0, 0);
        let mut tries = 0;
        while found < 12 {
            tries += 1;
            assert!(tries < 20_000, "only {found} VCTs found");
            let mut pos = Position::new(rules);
            let stones = rng.random_range(6..20) & !1;
            while pos.move_count() < stones && !pos.outcome().is_over() {
                let c = Cell::from_row_col(rng.random_range(4..11), rng.random_range(4..11), 15);
                let _ = pos.play(c);
            }
            let b = BigBoard::from_position(&t, &pos);
            if pos.outcome().is_over() || !b.wins(b.to_move()).is_empty() {
                continue;
            }
            let mut budget = 20_000;
            let Some((cell, plies)) = find(&t, &b, 7, &mut budget) else {
                continue;
            };
            if plies < 5 {
                continue;
            }
            found += 1;
            let mut next = b;
            next.play(&t, cell);
            threes += usize::from(next.wins(b.to_move()).is_empty());
            assert!(
                wins_against_every_reply(&t, &next, plies - 2),
                "{pos:?}: {cell} in {plies}"
            );
        }
        assert!(threes > 0, "no VCT began with a three");
    }

    #[test]
    fn a_double_four_wins_though_the_defender_can_make_a_four() {
        let rules = Rules::new(15, 5).unwrap();
        // O (to move) has the open three F8 G8 H8; X has C3 C4 C5, so it
        // can make a four, but not before O completes its line.
        let (t, b) = board(rules, &["F8", "G8", "H8"], &["C3", "C4", "C5"]);
        assert_eq!(b.to_move(), Player::O);
        assert!(!b.four_cells(Player::X).is_empty());
        let mut budget = 1;
        let (cell, plies) = find(&t, &b, 3, &mut budget).expect("a win in 3");
        assert_eq!(plies, 3);
        let mut next = b;
        next.play(&t, cell);
        assert!(wins_against_every_reply(&t, &next, 1));
    }

    #[test]
    fn the_last_look_takes_another_move_only_while_there_is_time() {
        let rules = Rules::new(15, 5).unwrap();
        // X to move against O's open three G8-H8-I8: only a block at
        // F8 or J8 keeps O from an open four.
        let (t, b) = board(rules, &["G8", "H8", "I8"], &["A1", "O1"]);
        assert_eq!(b.to_move(), Player::X);
        let cell = |name| Cell::parse(name, 15).unwrap().index();
        let (far, block) = (cell("O14"), cell("J8"));
        let order = [far, cell("N14"), block];
        let mut asked = 0;
        let chosen = avoiding_threat_wins(&t, &b, far, &order, 20_000, 6, || {
            asked += 1;
            true
        });
        assert_eq!(chosen, block);
        // One question before each alternative tried: N14, then J8.
        assert_eq!(asked, 2);
        // Out of time: the move found by the search stands.
        assert_eq!(
            avoiding_threat_wins(&t, &b, far, &order, 20_000, 6, || false),
            far
        );
    }

    #[test]
    fn no_threat_no_vct() {
        let rules = Rules::new(15, 5).unwrap();
        let (t, b) = board(rules, &["H8", "A1"], &["O15", "O14"]);
        let mut budget = 50_000;
        assert_eq!(find(&t, &b, 11, &mut budget), None);
    }
}
