//! A position: two bitboards, the side to move and the game's status.

use std::fmt;

use super::bits::Bits;
use super::coord::Cell;
use super::geometry::spread_bits;
#[cfg(test)]
use super::rules::Rule;
use super::rules::Rules;

/// A player. O moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    O = 0,
    X = 1,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::O => Player::X,
            Player::X => Player::O,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn symbol(self) -> char {
        match self {
            Player::O => 'O',
            Player::X => 'X',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Win(Player),
    Draw,
}

impl Outcome {
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    OffBoard(Cell),
    Occupied(Cell),
    GameOver,
    /// Go: the stone would have no liberty and take nothing.
    Suicide(Cell),
    /// Go: it retakes a ko at once.
    Ko(Cell),
    /// Go: it brings back the stones of an earlier position.
    Superko(Cell),
}

/// A position of a game under some [`Rules`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    rules: Rules,
    /// One bitboard per player, bit `row * size + col`.
    boards: [Bits; 2],
    to_move: Player,
    outcome: Outcome,
}

impl Position {
    /// The empty board, O to move.
    pub fn new(rules: Rules) -> Position {
        Position {
            rules,
            boards: [Bits::EMPTY; 2],
            to_move: Player::O,
            outcome: Outcome::Ongoing,
        }
    }

    /// Plays the moves in order from the empty board.
    pub fn from_moves(rules: Rules, moves: &[Cell]) -> Result<Position, (usize, MoveError)> {
        let mut pos = Position::new(rules);
        for (i, &cell) in moves.iter().enumerate() {
            pos.play(cell).map_err(|e| (i, e))?;
        }
        Ok(pos)
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    /// The cells held by `player`.
    pub fn board(&self, player: Player) -> Bits {
        self.boards[player.index()]
    }
    /// The cells held by `player` as one word, for the engines of boards
    /// of at most 64 cells (`Rules::is_small`).
    #[inline]
    pub fn small_board(&self, player: Player) -> u64 {
        debug_assert!(self.rules.is_small());
        self.boards[player.index()].low_word()
    }
    /// The empty cells as one word (boards of at most 64 cells).
    #[inline]
    pub fn small_empty(&self) -> u64 {
        self.rules.geometry().full & !(self.small_board(Player::O) | self.small_board(Player::X))
    }
    pub fn occupied(&self) -> Bits {
        self.boards[0] | self.boards[1]
    }
    pub fn empty(&self) -> Bits {
        Bits::first_n(self.rules.cells() as usize).and_not(self.occupied())
    }
    pub fn move_count(&self) -> u32 {
        self.occupied().count()
    }
    /// Who holds `cell`, if anyone.
    pub fn at(&self, cell: Cell) -> Option<Player> {
        if self.boards[0].contains(cell.index()) {
            Some(Player::O)
        } else if self.boards[1].contains(cell.index()) {
            Some(Player::X)
        } else {
            None
        }
    }

    /// The legal moves, in cell order (none once the game is over).
    pub fn legal_moves(&self) -> impl Iterator<Item = Cell> + use<> {
        let rest = if self.outcome.is_over() {
            Bits::EMPTY
        } else {
            self.empty()
        };
        rest.iter().map(Cell::from_index)
    }

    /// Plays `cell` for the side to move.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        if cell.index() >= self.rules.cells() as usize {
            return Err(MoveError::OffBoard(cell));
        }
        if self.outcome.is_over() {
            return Err(MoveError::GameOver);
        }
        if self.at(cell).is_some() {
            return Err(MoveError::Occupied(cell));
        }
        self.play_unchecked(cell);
        Ok(())
    }

    /// Plays a move known to be legal.
    pub fn play_unchecked(&mut self, cell: Cell) {
        let me = self.to_move;
        let board = &mut self.boards[me.index()];
        board.insert(cell.index());
        // Boards up to 8x8 keep their one-word tests: this is the learning
        // player's inner loop.
        let (won, full) = match self.rules.small_geometry() {
            Some(geo) => (
                geo.has_line_through(board.low_word(), cell.index() as u8),
                (self.boards[0].low_word() | self.boards[1].low_word()) == geo.full,
            ),
            None => (
                line_through(board, self.rules, cell.index()).is_some(),
                self.move_count() == self.rules.cells() as u32,
            ),
        };
        self.outcome = if won {
            Outcome::Win(me)
        } else if full {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
        self.to_move = me.other();
    }

    /// Takes back `cell`, which must be the last move played.
    #[cfg(test)]
    pub fn undo(&mut self, cell: Cell) {
        let mover = self.to_move.other();
        self.boards[mover.index()].remove(cell.index());
        self.to_move = mover;
        self.outcome = Outcome::Ongoing;
    }

    /// The 2-bit cell encoding: cell `i` is bits `2i..2i+2`, 01 = O, 10 = X.
    /// Boards of at most 64 cells only.
    pub fn table(&self) -> u128 {
        spread_bits(self.small_board(Player::O)) | spread_bits(self.small_board(Player::X)) << 1
    }

    /// The 2-bit table as a `u32`, for boards of at most 16 cells.
    #[cfg(test)]
    pub fn table32(&self) -> Option<u32> {
        u32::try_from(self.table()).ok()
    }

    /// The position mapped through symmetry `s` (0..8) of the square.
    /// Boards of at most 64 cells only.
    pub fn transformed(&self, s: usize) -> Position {
        let geo = self.rules.geometry();
        Position {
            boards: [
                Bits::from_word(geo.transform(s, self.small_board(Player::O))),
                Bits::from_word(geo.transform(s, self.small_board(Player::X))),
            ],
            ..*self
        }
    }

    /// The smallest 2-bit table among the 8 images of this position: equal
    /// for positions that are the same up to symmetry.
    pub fn canonical_table(&self) -> u128 {
        // On the one-word boards directly: the learning player's inner loop.
        let geo = self.rules.geometry();
        let (o, x) = (self.small_board(Player::O), self.small_board(Player::X));
        (0..8)
            .map(|s| spread_bits(geo.transform(s, o)) | spread_bits(geo.transform(s, x)) << 1)
            .min()
            .unwrap_or(0)
    }

    /// The Zobrist hash of the position (the side to move follows from the
    /// number of marks, so it is not hashed). Boards of at most 64 cells.
    pub fn zobrist(&self) -> u64 {
        let z = &self.rules.geometry().zobrist;
        let mut h = 0;
        for (keys, board) in z.iter().zip(&self.boards) {
            for cell in board.iter() {
                h ^= keys[cell];
            }
        }
        h
    }

    /// The line that won the game (K cells of the winner's), if it is won.
    pub fn winning_line(&self) -> Option<Bits> {
        let Outcome::Win(p) = self.outcome else {
            return None;
        };
        let mine = self.board(p);
        mine.iter()
            .find_map(|cell| line_through(&mine, self.rules, cell))
    }
}

/// The four directions of a line: right, down, down-right, down-left.
pub(crate) const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// The first K cells of a line of `board` through `cell`, if there is one
/// that wins under `rules` (under the standard rule, a run of exactly K):
/// a walk both ways along each direction, for boards of any size.
pub(crate) fn line_through(board: &Bits, rules: Rules, cell: usize) -> Option<Bits> {
    let (n, goal) = (rules.size() as i32, rules.goal() as i32);
    // A run longer than this is not walked further: K + 1 already tells
    // an overline.
    let longest = if rules.exact() { goal + 1 } else { goal };
    let (row, col) = (cell as i32 / n, cell as i32 % n);
    let held = |r: i32, c: i32| {
        (0..n).contains(&r) && (0..n).contains(&c) && board.contains((r * n + c) as usize)
    };
    for (dr, dc) in DIRECTIONS {
        // Back to the first stone of the run, then forward along it.
        let mut back = 0;
        while back < longest && held(row - dr * (back + 1), col - dc * (back + 1)) {
            back += 1;
        }
        let (r0, c0) = (row - dr * back, col - dc * back);
        let mut run = 0;
        while run < longest && held(r0 + dr * run, c0 + dc * run) {
            run += 1;
        }
        let wins = match rules.exact() {
            true => run == goal && back < longest,
            false => run == goal,
        };
        if wins {
            return Some(
                (0..run)
                    .map(|i| ((r0 + dr * i) * n + c0 + dc * i) as usize)
                    .collect(),
            );
        }
    }
    None
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.rules.size();
        writeln!(
            f,
            "{:?}, {} to move, {:?}",
            self.rules, self.to_move, self.outcome
        )?;
        for r in 0..n {
            for c in 0..n {
                let ch = match self.at(Cell::from_row_col(r, c, n)) {
                    Some(p) => p.symbol(),
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(rules: Rules, text: &str) -> Vec<Cell> {
        Cell::parse_list(text, rules.size()).unwrap()
    }

    #[test]
    fn row_win_is_detected() {
        let rules = Rules::default_rules();
        let pos = Position::from_moves(rules, &cells(rules, "A1,A2,B1,B2,C1")).unwrap();
        assert_eq!(pos.outcome(), Outcome::Win(Player::O));
        assert_eq!(pos.winning_line().map(|l| l.count()), Some(3));
        assert!(pos.legal_moves().next().is_none());
    }

    #[test]
    fn under_the_standard_rule_an_overline_does_not_win_and_an_exact_line_does() {
        let free = Rules::new(15, 5).unwrap();
        let standard = free.with_rule(Rule::Standard);
        // O: A1-D1 and F1, then E1 makes six in a row.
        let six = "A1,A15,B1,C15,C1,E15,D1,G15,F1,I15,E1";
        let pos = Position::from_moves(standard, &cells(standard, six)).unwrap();
        assert_eq!(pos.outcome(), Outcome::Ongoing);
        let pos = Position::from_moves(free, &cells(free, six)).unwrap();
        assert_eq!(pos.outcome(), Outcome::Win(Player::O));
        // The same six, but E2-E5 stand above E1: five up the column wins.
        let both = "A1,A15,B1,C15,C1,E15,D1,G15,F1,I15,E2,K15,E3,M15,E4,O15,E5,O13,E1";
        let pos = Position::from_moves(standard, &cells(standard, both)).unwrap();
        assert_eq!(pos.outcome(), Outcome::Win(Player::O));
        let line = pos.winning_line().expect("a line");
        assert_eq!(line.count(), 5);
        assert!(line.iter().all(|c| c % 15 == 4), "the E column: {line:?}");
    }

    #[test]
    fn the_standard_rule_sends_small_boards_where_an_overline_fits_to_the_big_engines() {
        let seven = Rules::new(7, 5).unwrap();
        assert!(seven.is_small());
        assert!(!seven.with_rule(Rule::Standard).is_small());
        assert!(
            seven
                .with_rule(Rule::Standard)
                .with_rule(Rule::Freestyle)
                .is_small()
        );
        // Where no overline fits, the rules play alike and keep their tables.
        let four = Rules::new(4, 4).unwrap().with_rule(Rule::Standard);
        assert!(four.is_small() && four.exact());
        assert_ne!(seven, seven.with_rule(Rule::Standard));
    }

    #[test]
    fn illegal_moves_are_refused() {
        let rules = Rules::default_rules();
        let mut pos = Position::new(rules);
        pos.play(Cell::new(5)).unwrap();
        assert_eq!(
            pos.play(Cell::new(5)),
            Err(MoveError::Occupied(Cell::new(5)))
        );
        assert_eq!(
            pos.play(Cell::new(16)),
            Err(MoveError::OffBoard(Cell::new(16)))
        );
    }

    #[test]
    fn undo_restores_the_position() {
        let rules = Rules::default_rules();
        let before = Position::from_moves(rules, &cells(rules, "B2,C3")).unwrap();
        let mut pos = before;
        pos.play(Cell::new(0)).unwrap();
        pos.undo(Cell::new(0));
        assert_eq!(pos, before);
    }

    #[test]
    fn table_uses_two_bits_per_cell() {
        let rules = Rules::default_rules();
        // O on A1 (cell 0), X on B1 (cell 1).
        let pos = Position::from_moves(rules, &cells(rules, "A1,B1")).unwrap();
        assert_eq!(pos.table32(), Some(0b10_01));
        let t = pos.table32().unwrap();
        // The design's "any empty cell" test.
        assert_ne!((t | t >> 1) & 0x5555_5555, 0x5555_5555);
    }

    #[test]
    fn all_eight_images_share_a_canonical_table_and_zobrist_class() {
        let rules = Rules::default_rules();
        let pos = Position::from_moves(rules, &cells(rules, "A1,B1,C3")).unwrap();
        let key = pos.canonical_table();
        let images: std::collections::HashSet<u128> =
            (0..8).map(|s| pos.transformed(s).table()).collect();
        // This position has no symmetry of its own: 8 distinct images.
        assert_eq!(images.len(), 8);
        for s in 0..8 {
            assert_eq!(pos.transformed(s).canonical_table(), key);
        }
    }
}
