//! The board the big-board engines search: stones as [`Bits`], kept
//! together with what the engines ask of every position, updated one move
//! at a time:
//! - `wins[p]`: the empty cells where `p` would complete K in a row. A move
//!   wins exactly when it lands on one, so no line is ever walked to detect
//!   a win, and threats (win in one, forced blocks, double threats) are set
//!   lookups.
//! - `near`: the empty cells within two of a stone, the candidate moves.
//! - `score`: a line-count evaluation (from O's side), the sum over every
//!   window of K cells holding stones of one side only.
//!
//! Every quantity depends only on which cells hold which stones, so a move
//! changes it only in the K-cell windows through that move: each update
//! looks at the 4 x (2K - 1) cells around it.

use crate::game::{Bits, DIRECTIONS, Outcome, Player, Position, Rules};

/// What is fixed for one (N, K): the board mask and each cell's
/// neighbourhood.
pub struct Tables {
    pub size: u8,
    pub goal: u8,
    pub cells: usize,
    pub full: Bits,
    /// `near[c]`: the cells within two rows and two columns of `c`.
    near: Vec<Bits>,
    /// `weight[j]`: the value of a window holding `j` stones of one side
    /// and none of the other.
    weight: [i32; 9],
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
        // Each stone more in a window is worth 8 times as much: three in a
        // row outweighs any spread of twos around it.
        let mut weight = [0; 9];
        for (j, w) in weight.iter_mut().enumerate().skip(1) {
            *w = 8i32.pow(j as u32 - 1);
        }
        Tables {
            size,
            goal,
            cells: rules.cells() as usize,
            full: Bits::first_n(rules.cells() as usize),
            near,
            weight,
        }
    }

    /// A window's value from O's side: `o` and `x` stones in it.
    #[inline]
    fn window_value(&self, o: u32, x: u32) -> i32 {
        match (o, x) {
            (0, 0) => 0,
            (o, 0) => self.weight[o as usize],
            (0, x) => -self.weight[x as usize],
            _ => 0,
        }
    }
}

/// One line of 2K - 1 cells centred on a cell, as bit masks (bit `K - 1`
/// is the centre).
struct Segment {
    stones: [u32; 2],
    on_board: u32,
    /// The board index of each position of the segment that is on it.
    cells: [u16; 15],
}

#[derive(Clone, Copy, Debug)]
pub struct BigBoard {
    stones: [Bits; 2],
    wins: [Bits; 2],
    near: Bits,
    score: i32,
    moves: u16,
    to_move: Player,
    outcome: Outcome,
}

impl BigBoard {
    pub fn empty() -> BigBoard {
        BigBoard {
            stones: [Bits::EMPTY; 2],
            wins: [Bits::EMPTY; 2],
            near: Bits::EMPTY,
            score: 0,
            moves: 0,
            to_move: Player::O,
            outcome: Outcome::Ongoing,
        }
    }

    /// The board of a game position.
    pub fn from_position(t: &Tables, pos: &Position) -> BigBoard {
        let mut b = BigBoard::empty();
        for p in [Player::O, Player::X] {
            for cell in pos.board(p).iter() {
                b.place(t, p, cell);
            }
        }
        b.to_move = pos.to_move();
        b.outcome = pos.outcome();
        b
    }

    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    pub fn stones(&self, p: Player) -> Bits {
        self.stones[p.index()]
    }
    /// The empty cells where `p` would complete a line.
    pub fn wins(&self, p: Player) -> Bits {
        self.wins[p.index()]
    }
    /// The empty cells within two of a stone (none on an empty board).
    pub fn near(&self) -> Bits {
        self.near
    }
    pub fn empty_cells(&self, t: &Tables) -> Bits {
        t.full.and_not(self.stones[0] | self.stones[1])
    }
    pub fn moves(&self) -> u16 {
        self.moves
    }
    /// The line-count evaluation from the side to move's point of view.
    pub fn eval(&self) -> i32 {
        match self.to_move {
            Player::O => self.score,
            Player::X => -self.score,
        }
    }

    /// Where to look for moves: the cells near the stones, or the centre
    /// of an empty board.
    pub fn candidates(&self, t: &Tables) -> Bits {
        if self.moves == 0 {
            let mid = (t.size / 2) as usize;
            Bits::EMPTY.with(mid * t.size as usize + mid)
        } else if self.near.is_empty() {
            self.empty_cells(t)
        } else {
            self.near
        }
    }

    /// Plays `cell` (empty, the game not over) for the side to move.
    #[inline]
    pub fn play(&mut self, t: &Tables, cell: usize) {
        let me = self.to_move;
        let won = self.wins[me.index()].contains(cell);
        self.place(t, me, cell);
        self.to_move = me.other();
        self.outcome = if won {
            Outcome::Win(me)
        } else if self.moves as usize == t.cells {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
    }

    /// Puts a stone of `p` on `cell` and updates the win cells, the
    /// candidates and the score from the windows through it.
    fn place(&mut self, t: &Tables, p: Player, cell: usize) {
        let k = t.goal as u32;
        let me = p.index();
        let mut score = self.score;
        let mut wins = self.wins[me];
        self.for_each_window(t, cell, p, |seg, w, mine, theirs| {
            let (before, after) = match p {
                Player::O => (
                    t.window_value(mine, theirs),
                    t.window_value(mine + 1, theirs),
                ),
                Player::X => (
                    t.window_value(theirs, mine),
                    t.window_value(theirs, mine + 1),
                ),
            };
            score += after - before;
            if theirs == 0 && mine + 2 == k {
                // K - 1 of ours once this stone is down: the one empty
                // cell left completes the line.
                let gap = w & !seg.stones[me] & !(1 << (k - 1));
                wins.insert(seg.cells[gap.trailing_zeros() as usize] as usize);
            }
        });
        self.score = score;
        self.wins[me] = wins;
        self.stones[me].insert(cell);
        self.wins[0].remove(cell);
        self.wins[1].remove(cell);
        self.near = (self.near | t.near[cell]).and_not(self.stones[0] | self.stones[1]);
        self.moves += 1;
    }

    /// The 2K - 1 cells through `cell` along (dr, dc).
    #[inline]
    fn segment(&self, t: &Tables, cell: usize, dr: i32, dc: i32) -> Segment {
        let n = t.size as i32;
        let k = t.goal as i32;
        let (row, col) = (cell as i32 / n, cell as i32 % n);
        let mut seg = Segment {
            stones: [0; 2],
            on_board: 0,
            cells: [0; 15],
        };
        for i in 0..2 * k - 1 {
            let step = i - (k - 1);
            let (r, c) = (row + dr * step, col + dc * step);
            if !(0..n).contains(&r) || !(0..n).contains(&c) {
                continue;
            }
            let at = (r * n + c) as usize;
            seg.on_board |= 1 << i;
            seg.cells[i as usize] = at as u16;
            seg.stones[0] |= (self.stones[0].contains(at) as u32) << i;
            seg.stones[1] |= (self.stones[1].contains(at) as u32) << i;
        }
        seg
    }

    /// How much a stone on `cell` would change the score for the side to
    /// move, plus how much it would deny the opponent: an order for moves.
    pub fn move_value(&self, t: &Tables, cell: usize) -> i32 {
        let mut value = 0;
        self.for_each_window(t, cell, self.to_move, |_, _, mine, theirs| {
            let (mine, theirs) = (mine as usize, theirs as usize);
            if theirs == 0 {
                value += t.weight[mine + 1] - t.weight[mine];
            }
            if mine == 0 {
                value += t.weight[theirs + 1] - t.weight[theirs];
            }
        });
        value
    }

    /// Calls `f(segment, window, mine, theirs)` for every window of K cells
    /// on the board through `cell`, in the 4 directions: the window as a
    /// mask of its segment, and the stones of `p` and of the other side in
    /// it (the ones on `cell` itself not counted: it is empty).
    #[inline]
    fn for_each_window(
        &self,
        t: &Tables,
        cell: usize,
        p: Player,
        mut f: impl FnMut(&Segment, u32, u32, u32),
    ) {
        let k = t.goal as u32;
        let window = (1u32 << k) - 1;
        let (me, opp) = (p.index(), p.other().index());
        for (dr, dc) in DIRECTIONS {
            let seg = self.segment(t, cell, dr, dc);
            for start in 0..k {
                let w = window << start;
                if seg.on_board & w == w {
                    let mine = (seg.stones[me] & w).count_ones();
                    let theirs = (seg.stones[opp] & w).count_ones();
                    f(&seg, w, mine, theirs);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Cell;

    fn board(rules: Rules, moves: &str) -> (Tables, BigBoard, Position) {
        let t = Tables::new(rules);
        let pos =
            Position::from_moves(rules, &Cell::parse_list(moves, rules.size()).unwrap()).unwrap();
        (Tables::new(rules), BigBoard::from_position(&t, &pos), pos)
    }

    /// Win cells by brute force: every empty cell that would end the game.
    fn slow_wins(pos: &Position, p: Player) -> Bits {
        let rules = pos.rules();
        pos.empty()
            .iter()
            .filter(|&c| {
                let stones = pos.board(p).with(c);
                crate::game::line_through(&stones, rules.size(), rules.goal(), c).is_some()
            })
            .collect()
    }

    /// The score by brute force over every window of the board.
    fn slow_score(t: &Tables, pos: &Position) -> i32 {
        let n = t.size as i32;
        let k = t.goal as i32;
        let mut score = 0;
        for (dr, dc) in DIRECTIONS {
            for r in 0..n {
                for c in 0..n {
                    let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                    if !(0..n).contains(&er) || !(0..n).contains(&ec) {
                        continue;
                    }
                    let count = |p: Player| {
                        (0..k)
                            .filter(|i| {
                                let cell = ((r + dr * i) * n + c + dc * i) as usize;
                                pos.board(p).contains(cell)
                            })
                            .count() as u32
                    };
                    score += t.window_value(count(Player::O), count(Player::X));
                }
            }
        }
        score
    }

    #[test]
    fn incremental_state_matches_brute_force_in_random_games() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for (size, goal) in [(9, 3), (15, 5), (20, 5), (20, 6), (12, 4)] {
            let rules = Rules::new(size, goal).unwrap();
            let t = Tables::new(rules);
            for _ in 0..20 {
                let mut pos = Position::new(rules);
                let mut b = BigBoard::empty();
                while !pos.outcome().is_over() {
                    let empty: Vec<usize> = pos.empty().iter().collect();
                    let c = empty[rng.random_range(0..empty.len())];
                    let want_win = b.wins(pos.to_move()).contains(c);
                    pos.play(Cell::from_index(c)).unwrap();
                    b.play(&t, c);
                    assert_eq!(b.outcome(), pos.outcome());
                    assert_eq!(
                        want_win,
                        pos.outcome().is_over() && pos.outcome() != Outcome::Draw
                    );
                    for p in [Player::O, Player::X] {
                        if !pos.outcome().is_over() {
                            assert_eq!(b.wins(p), slow_wins(&pos, p), "{pos:?}");
                        }
                    }
                    assert_eq!(b.score, slow_score(&t, &pos));
                    let near = b.near();
                    for cell in near.iter() {
                        assert!(pos.at(Cell::from_index(cell)).is_none());
                    }
                }
            }
        }
    }

    #[test]
    fn a_board_rebuilt_from_a_position_is_the_same() {
        let rules = Rules::new(15, 5).unwrap();
        let (t, b, pos) = board(rules, "H8,H9,I8,I9,J8,G7");
        let mut played = BigBoard::empty();
        for m in ["H8", "H9", "I8", "I9", "J8", "G7"] {
            played.play(&t, Cell::parse(m, 15).unwrap().index());
        }
        assert_eq!(b.stones, played.stones);
        assert_eq!(b.wins, played.wins);
        assert_eq!(b.score, played.score);
        assert_eq!(b.near, played.near);
        assert_eq!(b.to_move(), pos.to_move());
        // O holds H8, I8, J8: G8 and K8 make four, no win cell yet.
        assert!(b.wins(Player::O).is_empty());
    }
}
