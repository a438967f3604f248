//! A position: two bitboards, the side to move and the game's status.

use std::fmt;

use super::coord::Cell;
use super::rules::{Rules, spread_bits};

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
}

/// A position of a game under some [`Rules`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    rules: Rules,
    /// One bitboard per player, bit `row * size + col`.
    boards: [u64; 2],
    to_move: Player,
    outcome: Outcome,
}

impl Position {
    /// The empty board, O to move.
    pub fn new(rules: Rules) -> Position {
        Position {
            rules,
            boards: [0, 0],
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
    pub fn board(&self, player: Player) -> u64 {
        self.boards[player.index()]
    }
    pub fn occupied(&self) -> u64 {
        self.boards[0] | self.boards[1]
    }
    pub fn empty(&self) -> u64 {
        self.rules.geometry().full & !self.occupied()
    }
    pub fn move_count(&self) -> u32 {
        self.occupied().count_ones()
    }
    /// Who holds `cell`, if anyone.
    pub fn at(&self, cell: Cell) -> Option<Player> {
        let bit = 1u64 << cell.index();
        if self.boards[0] & bit != 0 {
            Some(Player::O)
        } else if self.boards[1] & bit != 0 {
            Some(Player::X)
        } else {
            None
        }
    }

    /// The legal moves, in cell order (none once the game is over).
    pub fn legal_moves(&self) -> impl Iterator<Item = Cell> + use<> {
        let mut rest = if self.outcome.is_over() {
            0
        } else {
            self.empty()
        };
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let i = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                Cell::new(i)
            })
        })
    }

    /// Plays `cell` for the side to move.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        if cell.index() >= self.rules.cells() {
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
        *board |= 1u64 << cell.index();
        let geo = self.rules.geometry();
        self.outcome = if geo.has_line_through(*board, cell.index()) {
            Outcome::Win(me)
        } else if self.occupied() == geo.full {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
        self.to_move = me.other();
    }

    /// Takes back `cell`, which must be the last move played.
    pub fn undo(&mut self, cell: Cell) {
        let mover = self.to_move.other();
        self.boards[mover.index()] &= !(1u64 << cell.index());
        self.to_move = mover;
        self.outcome = Outcome::Ongoing;
    }

    /// The 2-bit cell encoding: cell `i` is bits `2i..2i+2`, 01 = O, 10 = X.
    pub fn table(&self) -> u128 {
        spread_bits(self.boards[0]) | spread_bits(self.boards[1]) << 1
    }

    /// The 2-bit table as a `u32`, for boards of at most 16 cells.
    pub fn table32(&self) -> Option<u32> {
        u32::try_from(self.table()).ok()
    }

    /// The position mapped through symmetry `s` (0..8) of the square.
    pub fn transformed(&self, s: usize) -> Position {
        let geo = self.rules.geometry();
        Position {
            boards: [
                geo.transform(s, self.boards[0]),
                geo.transform(s, self.boards[1]),
            ],
            ..*self
        }
    }

    /// The smallest 2-bit table among the 8 images of this position: equal
    /// for positions that are the same up to symmetry.
    pub fn canonical_table(&self) -> u128 {
        (0..8)
            .map(|s| self.transformed(s).table())
            .min()
            .unwrap_or(0)
    }

    /// The Zobrist hash of the position (the side to move follows from the
    /// number of marks, so it is not hashed).
    pub fn zobrist(&self) -> u64 {
        let z = &self.rules.geometry().zobrist;
        let mut h = 0;
        for (keys, &board) in z.iter().zip(&self.boards) {
            let mut rest = board;
            while rest != 0 {
                h ^= keys[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        h
    }

    /// The line that won the game, if it is won.
    pub fn winning_line(&self) -> Option<u64> {
        let Outcome::Win(p) = self.outcome else {
            return None;
        };
        let mine = self.board(p);
        self.rules
            .geometry()
            .lines
            .iter()
            .copied()
            .find(|&l| mine & l == l)
    }
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
                let ch = match self.at(Cell::new(r * n + c)) {
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
        assert_eq!(pos.winning_line().map(u64::count_ones), Some(3));
        assert!(pos.legal_moves().next().is_none());
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
