//! Go for the tree search ([`crate::ai::uct`]): a board, the moves a node
//! expands to with the priors a Go engine gives them, and its playouts;
//! and the engine that searches it.
//!
//! Priors, in virtual visits and wins for the side to move: every move
//! starts even; a capture, an escape from atari and a MoGo pattern next to
//! the last move start ahead; a move on the first line of a large empty
//! board, and a stone that puts itself in atari, start behind. The tree
//! plays simple ko only; the root leaves out moves that positional superko
//! forbids. It passes only when passing wins: the other side passed and
//! the count as the stones stand is a win, so no dead stone of the other
//! side is left to be counted alive.

use super::board::{Board, MAX_POINTS};
use super::playout::{FastRng, Playouts, playout};
use super::position::GoPosition;
use crate::ai::uct::{TreeGame, Uct};
use crate::ai::{Budget, GoEngine, GoMove};
use crate::game::{Cell, Player};

/// The point index of a pass (point 0 is off the board, never a move).
const PASS: u16 = 0;

/// A node's game: the board, komi and the playouts' kind; at the root,
/// the points superko forbids.
#[derive(Clone)]
pub(crate) struct GoState {
    board: Board,
    komi2: i16,
    playouts: Playouts,
    banned: [u16; 8],
}

impl GoState {
    fn root(pos: &GoPosition, playouts: Playouts) -> GoState {
        let board = *pos.board();
        let mut banned = [u16::MAX; 8];
        let mut k = 0;
        for &e in board.empty_points() {
            let v = e as usize;
            let cell = Cell::from_index(board.cell(v));
            if k < banned.len() && board.is_legal(board.to_move(), v) && pos.check(cell).is_err() {
                banned[k] = e;
                k += 1;
            }
        }
        GoState {
            board,
            komi2: pos.rules().komi2(),
            playouts,
            banned,
        }
    }

    /// Black's margin in half points as the stones stand (Tromp–Taylor).
    fn margin_now(&self) -> i32 {
        let [black, white] = self.board.area();
        2 * (black as i32 - white as i32) - i32::from(self.komi2)
    }

    /// The prior of a move at `v` for `me`: (virtual visits, wins).
    fn prior(&self, me: Player, v: usize) -> (u32, f32) {
        let b = &self.board;
        let mut wins = 0.5f32;
        let mut captures = false;
        let mut escapes = false;
        for root in b.neighbour_chains(v) {
            if root == 0 {
                continue;
            }
            if let Some(liberty) = b.atari_of_root(root)
                && liberty == v
            {
                match b.owner(root) == Some(me) {
                    true => escapes = true,
                    false => captures = true,
                }
            }
        }
        if captures {
            wins = 0.9;
        } else if escapes && b.empty_neighbours(v) >= 2 {
            wins = 0.8;
        } else if b.empty_neighbours(v) <= 1 && self.self_atari(me, v) {
            wins = 0.1;
        } else if b
            .last_point()
            .is_some_and(|last| b.around(last).contains(&v))
            && super::patterns::matches(b.pattern_key(v))
        {
            wins = 0.7;
        } else {
            let n = b.size() as usize;
            let cell = b.cell(v);
            let line = (cell / n)
                .min(cell % n)
                .min(n - 1 - cell / n)
                .min(n - 1 - cell % n);
            let crowded = b.empty_points().len() * 4 < n * n * 3;
            if line == 0 && !crowded && n >= 9 {
                wins = 0.2;
            } else if line == 2 && !crowded {
                wins = 0.6;
            }
        }
        const VISITS: u32 = 10;
        (VISITS, wins * VISITS as f32)
    }

    /// Whether `me` at `v` would be a chain with one liberty (and take
    /// nothing): a copy of the board plays it.
    fn self_atari(&self, me: Player, v: usize) -> bool {
        let mut after = self.board;
        if after.play_legal(me, v) > 0 {
            return false;
        }
        after.in_atari(v)
    }
}

impl TreeGame for GoState {
    const MOVE_INDICES: usize = MAX_POINTS;

    fn to_move(&self) -> Player {
        self.board.to_move()
    }

    fn is_over(&self) -> bool {
        self.board.passes() >= 2
    }

    fn children(&self, out: &mut Vec<(u16, u32, f32)>) {
        let me = self.board.to_move();
        for &e in self.board.empty_points() {
            let v = e as usize;
            if self.banned.contains(&e) || self.board.is_eye(me, v) || !self.board.is_legal(me, v) {
                continue;
            }
            let (visits, wins) = self.prior(me, v);
            out.push((e, visits, wins));
        }
        // A pass where it ends the game in a win, or where nothing else
        // is left (the count is only made then: it walks the board).
        if out.is_empty() || self.board.passes() == 1 {
            let wins_now = match me {
                Player::O => self.margin_now() > 0,
                Player::X => self.margin_now() < 0,
            };
            if out.is_empty() || wins_now {
                out.push((PASS, 10, if wins_now { 9.0 } else { 5.0 }));
            }
        }
    }

    fn play(&mut self, mv: u16) {
        self.banned = [u16::MAX; 8];
        match mv {
            PASS => self.board.pass(),
            v => {
                let me = self.board.to_move();
                self.board.play_legal(me, v as usize);
            }
        }
    }

    fn playout(&mut self, rng: &mut FastRng, first: &mut [u8]) -> f32 {
        let first: &mut [u8; MAX_POINTS] = first.try_into().expect("one mark a point");
        let margin = if self.is_over() {
            self.margin_now()
        } else {
            playout(&mut self.board, self.playouts, self.komi2, rng, first)
        };
        match margin {
            m if m > 0 => 1.0,
            m if m < 0 => 0.0,
            _ => 0.5,
        }
    }

    fn cell(&self, mv: u16) -> Cell {
        match mv {
            PASS => Cell::PASS,
            v => Cell::from_index(self.board.cell(v as usize)),
        }
    }
}

/// MCTS on Go: UCT with RAVE and priors, light or heavy playouts.
pub struct GoMcts {
    uct: Uct,
    playouts: Playouts,
    /// Below this win rate (after enough iterations) it resigns.
    resign_below: f32,
    /// The line its last search expects (for a hint).
    line: Vec<Cell>,
}

/// Nodes the tree may hold unless a memory limit says fewer (about 40
/// bytes each: 160 MB).
const MAX_NODES: usize = 4 << 20;
/// Iterations a search needs before its win rate may resign a game.
const RESIGN_AFTER: u64 = 2_000;

impl GoMcts {
    pub fn new(seed: u64, playouts: Playouts) -> GoMcts {
        GoMcts {
            uct: Uct::new(seed, MAX_NODES),
            playouts,
            resign_below: 0.03,
            line: Vec::new(),
        }
    }

    /// The line its last search expects, its move first: the most visited
    /// reply after each move, as far as the tree has looked.
    pub fn line(&self) -> &[Cell] {
        &self.line
    }

    /// Never resigns (tests that play games to their end).
    pub fn without_resigning(mut self) -> GoMcts {
        self.resign_below = -1.0;
        self
    }
}

impl GoEngine for GoMcts {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "MCTS".into()
    }

    fn choose(&mut self, pos: &GoPosition, budget: &mut dyn Budget) -> GoMove {
        // The other side passed and the count as the stones stand is a
        // win: a pass ends the game so, with nothing left to search.
        let margin = pos.score().margin();
        let ahead = match pos.to_move() {
            Player::O => margin > 0.0,
            Player::X => margin < 0.0,
        };
        if pos.passes() == 1 && ahead {
            return GoMove::Pass;
        }
        let root = GoState::root(pos, self.playouts);
        let answer = self.uct.search(&root, budget);
        self.line = answer.line;
        match answer.mv {
            _ if answer.iterations >= RESIGN_AFTER && answer.win_rate < self.resign_below => {
                GoMove::Resign
            }
            None | Some(PASS) => GoMove::Pass,
            Some(mv) => GoMove::Play(root.cell(mv)),
        }
    }

    fn set_memory_limit(&mut self, bytes: usize) {
        self.uct.set_memory_limit(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::{Limit, MoveBudget};
    use crate::game::Rules;

    #[test]
    fn the_expected_line_starts_with_the_move_played_and_alternates_legally() {
        let rules = Rules::go(9, 15, 0).unwrap();
        let mut pos = GoPosition::new(rules);
        let mut mcts = GoMcts::new(7, Playouts::Light).without_resigning();
        let GoMove::Play(first) = mcts.choose(&pos, &mut MoveBudget::new(Limit::Work(20_000)))
        else {
            panic!("no move on an empty board");
        };
        let line = mcts.line().to_vec();
        assert_eq!(line.first(), Some(&first));
        assert!(line.len() >= 2, "{line:?}");
        for &cell in &line {
            assert!(pos.play(cell).is_ok(), "{line:?}");
        }
    }
}
