//! A position of either family, for the code that plays any game the
//! same way (the program's boards, seats, records and screen): the rules
//! say which ([`Rules::is_go`]), and each method answers for both.

use crate::game::{Bits, Cell, Game, MoveError, Outcome, Player, Position, Rules};
use crate::go::{GoPosition, GoScore};

/// An m,n,k position or a game of Go.
#[derive(Clone, Debug)]
pub enum AnyPosition {
    Mnk(Position),
    /// Boxed: a Go board is some kilobytes, an m,n,k one some bytes.
    Go(Box<GoPosition>),
}

impl AnyPosition {
    /// The start of a game of `rules`: the empty board (Go's with its
    /// handicap).
    pub fn new(rules: Rules) -> AnyPosition {
        match rules.is_go() {
            true => AnyPosition::Go(Box::new(GoPosition::new(rules))),
            false => AnyPosition::Mnk(Position::new(rules)),
        }
    }

    /// Plays the moves in order from the start.
    pub fn from_moves(rules: Rules, moves: &[Cell]) -> Result<AnyPosition, (usize, MoveError)> {
        let mut pos = AnyPosition::new(rules);
        for (i, &cell) in moves.iter().enumerate() {
            pos.play(cell).map_err(|e| (i, e))?;
        }
        Ok(pos)
    }

    pub fn rules(&self) -> Rules {
        match self {
            AnyPosition::Mnk(p) => p.rules(),
            AnyPosition::Go(g) => g.rules(),
        }
    }
    pub fn to_move(&self) -> Player {
        match self {
            AnyPosition::Mnk(p) => p.to_move(),
            AnyPosition::Go(g) => g.to_move(),
        }
    }
    pub fn outcome(&self) -> Outcome {
        match self {
            AnyPosition::Mnk(p) => p.outcome(),
            AnyPosition::Go(g) => g.outcome(),
        }
    }
    /// Who holds `cell`.
    pub fn at(&self, cell: Cell) -> Option<Player> {
        match self {
            AnyPosition::Mnk(p) => p.at(cell),
            AnyPosition::Go(g) => g.at(cell),
        }
    }
    /// Moves played (Go: passes included, the handicap not).
    pub fn move_count(&self) -> u32 {
        match self {
            AnyPosition::Mnk(p) => p.move_count(),
            AnyPosition::Go(g) => g.move_count(),
        }
    }
    /// Empty cells.
    pub fn empty_count(&self) -> u32 {
        match self {
            AnyPosition::Mnk(p) => p.empty().count(),
            AnyPosition::Go(g) => g.board().empty_points().len() as u32,
        }
    }
    /// Why `cell` is no move now, if it is not.
    pub fn check(&self, cell: Cell) -> Result<(), MoveError> {
        match self {
            AnyPosition::Mnk(p) => {
                let mut next = *p;
                next.play(cell)
            }
            AnyPosition::Go(g) => g.check(cell),
        }
    }
    /// Plays `cell` (in Go, a pass too) for the side to move.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        match self {
            AnyPosition::Mnk(p) => p.play(cell),
            AnyPosition::Go(g) => g.play(cell),
        }
    }
    /// The line that won an m,n,k game.
    pub fn winning_line(&self) -> Option<Bits> {
        match self {
            AnyPosition::Mnk(p) => p.winning_line(),
            AnyPosition::Go(_) => None,
        }
    }
    /// The m,n,k position, if it is one.
    pub fn mnk(&self) -> Option<&Position> {
        match self {
            AnyPosition::Mnk(p) => Some(p),
            AnyPosition::Go(_) => None,
        }
    }
    /// The game of Go, if it is one.
    pub fn go(&self) -> Option<&GoPosition> {
        match self {
            AnyPosition::Go(g) => Some(g),
            AnyPosition::Mnk(_) => None,
        }
    }
    /// The game of Go, to settle its count.
    pub fn go_mut(&mut self) -> Option<&mut GoPosition> {
        match self {
            AnyPosition::Go(g) => Some(g),
            AnyPosition::Mnk(_) => None,
        }
    }
    /// Go's count as the stones stand.
    pub fn go_score(&self) -> Option<GoScore> {
        self.go().map(GoPosition::score)
    }
}

impl From<Position> for AnyPosition {
    fn from(p: Position) -> AnyPosition {
        AnyPosition::Mnk(p)
    }
}

impl From<GoPosition> for AnyPosition {
    fn from(g: GoPosition) -> AnyPosition {
        AnyPosition::Go(Box::new(g))
    }
}

impl Game for AnyPosition {
    fn rules(&self) -> Rules {
        AnyPosition::rules(self)
    }
    fn to_move(&self) -> Player {
        AnyPosition::to_move(self)
    }
    fn outcome(&self) -> Outcome {
        AnyPosition::outcome(self)
    }
    fn sensible_moves(&self) -> Vec<Cell> {
        match self {
            AnyPosition::Mnk(p) => p.sensible_moves(),
            AnyPosition::Go(g) => g.sensible_moves(),
        }
    }
    fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        AnyPosition::play(self, cell)
    }
    fn key(&self) -> u64 {
        match self {
            AnyPosition::Mnk(p) => p.key(),
            AnyPosition::Go(g) => g.key(),
        }
    }
}
