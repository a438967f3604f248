//! Playouts on the Go board: light ones, as lib-ego plays them (a random
//! legal move that fills none of the player's own eyes, a pass when there
//! is none; two passes or a cap on moves end it, with no superko check),
//! and heavy ones in MoGo's way (answer the last move: save a chain it put
//! in atari, take a chain it left in atari, play a 3x3 pattern next to
//! it; else a light move).

use super::board::{Board, MAX_POINTS, Stone};
use super::patterns;
use crate::game::Player;

/// Which playouts a Go engine runs (an engine option: `playouts=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Playouts {
    /// Uniform over the legal moves that fill no own eye.
    Light,
    /// MoGo's: atari answers and 3x3 patterns around the last move first.
    #[default]
    Heavy,
}

/// A small, fast generator for the playouts (wyrand).
#[derive(Clone, Debug)]
pub(crate) struct FastRng(u64);

impl FastRng {
    pub(crate) fn new(seed: u64) -> FastRng {
        FastRng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    #[inline]
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xa076_1d64_78bd_642f);
        let t = (self.0 as u128).wrapping_mul((self.0 ^ 0xe703_7ed1_a0b4_28db) as u128);
        (t >> 64) as u64 ^ t as u64
    }
    /// A number below `n` (`n` > 0).
    #[inline]
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// Who played each point first in a playout (0: nobody, 1 Black, 2
/// White): the all-moves-as-first statistics the tree's RAVE reads.
pub(crate) type FirstPlay = [u8; MAX_POINTS];

/// The most moves a playout plays before it is scored as it stands.
pub(crate) fn move_cap(board: &Board) -> u32 {
    3 * board.size() as u32 * board.size() as u32
}

/// Plays `board` out to its end with `kind` playouts and returns Black's
/// margin in half points (area, komi `komi2` included): positive when
/// Black wins. Each point's first player goes into `first` (points that
/// already hold a mark keep it).
pub(crate) fn playout(
    board: &mut Board,
    kind: Playouts,
    komi2: i16,
    rng: &mut FastRng,
    first: &mut FirstPlay,
) -> i32 {
    let cap = board.moves() + move_cap(board);
    while board.passes() < 2 && board.moves() < cap {
        let me = board.to_move();
        let choice = match kind {
            Playouts::Heavy => heavy_move(board, me, rng),
            Playouts::Light => None,
        }
        .or_else(|| board.random_light_move(me, rng.below(usize::from(u16::MAX))));
        match choice {
            Some(v) => {
                if first[v] == 0 {
                    first[v] = 1 + me.index() as u8;
                }
                board.play_legal(me, v);
            }
            None => board.pass(),
        }
    }
    let [black, white] = board.playout_area();
    2 * (black - white) - i32::from(komi2)
}

/// Plays `count` playouts from `board` (the benchmarks' kernel): Black's
/// wins, and the moves played in all.
pub fn playouts(board: &Board, kind: Playouts, komi2: i16, count: u32, seed: u64) -> (u32, u64) {
    let mut rng = FastRng::new(seed);
    let mut first = [0u8; MAX_POINTS];
    let (mut wins, mut moves) = (0, 0u64);
    for _ in 0..count {
        let mut b = *board;
        let before = b.moves();
        wins += u32::from(playout(&mut b, kind, komi2, &mut rng, &mut first) > 0);
        moves += u64::from(b.moves() - before);
    }
    (wins, moves)
}

/// A move that answers the last one, MoGo's way, if there is one.
fn heavy_move(board: &Board, me: Player, rng: &mut FastRng) -> Option<usize> {
    let last = board.last_point()?;
    // Chains next to the last move: ours in atari are saved by their
    // liberty when it gives them room; theirs in atari are taken.
    let mut answers = [0usize; 8];
    let mut count = 0;
    for root in board.neighbour_chains(last) {
        if root == 0 {
            continue;
        }
        let Some(liberty) = board.atari_of_root(root) else {
            continue;
        };
        let ours = board.owner(root) == Some(me);
        let worth = !ours || board.empty_neighbours(liberty) >= 2;
        if worth && board.is_legal(me, liberty) && !answers[..count].contains(&liberty) {
            answers[count] = liberty;
            count += 1;
        }
    }
    // The last move's own chain, left in atari, is taken.
    if let Some(liberty) = board.atari_of_root(board.root_of(last))
        && board.is_legal(me, liberty)
        && !answers[..count].contains(&liberty)
        && count < answers.len()
    {
        answers[count] = liberty;
        count += 1;
    }
    if count > 0 {
        return Some(answers[rng.below(count)]);
    }
    // 3x3 patterns on the empty points around the last move.
    let mut matched = [0usize; 8];
    let mut found = 0;
    for v in board.around(last) {
        if board.at(v) == Stone::Empty
            && patterns::matches(board.pattern_key(v))
            && !board.is_eye(me, v)
            && board.is_legal(me, v)
        {
            matched[found] = v;
            found += 1;
        }
    }
    (found > 0).then(|| matched[rng.below(found)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_playouts_end_with_every_chain_alive_and_the_books_kept() {
        let mut rng = FastRng::new(3);
        for size in [5u8, 9, 13, 19] {
            for kind in [Playouts::Light, Playouts::Heavy] {
                for _ in 0..20 {
                    let mut b = Board::new(size);
                    let mut first = [0u8; MAX_POINTS];
                    let margin = playout(&mut b, kind, 15, &mut rng, &mut first);
                    b.check();
                    // The count is every point owned or dame, komi off.
                    let [black, white] = b.playout_area();
                    assert_eq!(margin, 2 * (black - white) - 15);
                    assert!(black + white <= size as i32 * size as i32);
                    // A playout ends by two passes (or its cap): the side
                    // that passed last had no move that fills no own eye.
                    if b.passes() >= 2 {
                        let p = b.to_move().other();
                        for &e in b.empty_points() {
                            let v = e as usize;
                            assert!(b.is_eye(p, v) || !b.is_legal(p, v), "{b:?}");
                        }
                    }
                }
            }
        }
    }
}
