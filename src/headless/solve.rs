//! `kxo-tui solve`: the perfect-play value of a position.

use serde::Serialize;

use super::InputError;
use crate::ai::{Negamax, Value};
use crate::game::{Cell, MoveError, Player, Position, Rules};

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SolveReport {
    pub size: u8,
    pub goal: u8,
    /// "first" (O wins), "second" (X wins) or "draw".
    pub value: &'static str,
    pub best_move: String,
    /// Plies to the end of the game under best play.
    pub plies: u32,
    pub nodes: u64,
    pub ms: f64,
    /// The position's moves, for the text report.
    #[serde(skip)]
    pub moves: Vec<String>,
    #[serde(skip)]
    pub to_move: char,
}

/// Reads a move list such as "B2,C3" and plays it, with a clear error for
/// malformed, repeated or illegal moves.
pub fn position_from_moves(rules: Rules, text: &str) -> Result<Position, InputError> {
    let cells = Cell::parse_list(text, rules.size()).map_err(|e| InputError(e.0))?;
    let size = rules.size();
    Position::from_moves(rules, &cells).map_err(|(i, e)| {
        let name = cells[i].name(size);
        InputError(match e {
            MoveError::Occupied(_) => format!("move {} ({name}) is on a cell already taken", i + 1),
            MoveError::GameOver => format!("move {} ({name}) comes after the game is over", i + 1),
            MoveError::OffBoard(_) => format!("move {} ({name}) is off the board", i + 1),
        })
    })
}

/// Solves the position reached by `moves` under `rules`.
pub fn solve(rules: Rules, moves: &str) -> Result<SolveReport, InputError> {
    let pos = position_from_moves(rules, moves)?;
    if pos.outcome().is_over() {
        return Err(InputError(
            "that position is already over: there is nothing to solve".into(),
        ));
    }
    let analysis = Negamax::new(rules).solve(&pos);
    let me = pos.to_move();
    let (winner, plies) = match analysis.value {
        Value::Win { plies } => (Some(me), plies),
        Value::Loss { plies } => (Some(me.other()), plies),
        Value::Draw => (None, pos.empty().count_ones()),
        // A solve has no limit, so it always proves its result.
        Value::Unknown(_) => unreachable!("an unlimited solve is always proven"),
    };
    Ok(SolveReport {
        size: rules.size(),
        goal: rules.goal(),
        value: match winner {
            Some(Player::O) => "first",
            Some(Player::X) => "second",
            None => "draw",
        },
        best_move: analysis.best.name(rules.size()),
        plies,
        nodes: analysis.nodes,
        ms: analysis.elapsed.as_secs_f64() * 1e3,
        moves: Cell::parse_list(moves, rules.size())
            .unwrap_or_default()
            .iter()
            .map(|c| c.name(rules.size()))
            .collect(),
        to_move: me.symbol(),
    })
}

impl SolveReport {
    pub fn to_text(&self) -> String {
        let from = if self.moves.is_empty() {
            "the empty board".to_string()
        } else {
            self.moves.join(", ")
        };
        let value = match self.value {
            "first" => format!("the first player (O) wins in {} plies", self.plies),
            "second" => format!("the second player (X) wins in {} plies", self.plies),
            _ => format!("draw (the board fills in {} plies)", self.plies),
        };
        format!(
            "{n}x{n}, {k} in a row, from {from}; {to} to move\n\
             value:     {value}\n\
             best move: {best}\n\
             nodes:     {nodes}\n\
             time:      {ms:.3} ms\n",
            n = self.size,
            k = self.goal,
            to = self.to_move,
            best = self.best_move,
            nodes = super::thousands(self.nodes),
            ms = self.ms,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_and_late_moves_are_named() {
        let rules = Rules::default_rules();
        let err = solve(rules, "B2,B2").unwrap_err();
        assert_eq!(err.0, "move 2 (B2) is on a cell already taken");
        let err = solve(rules, "A1,A2,B1,B2,C1,D4").unwrap_err();
        assert_eq!(err.0, "move 6 (D4) comes after the game is over");
        let err = solve(rules, "A1,A2,B1,B2,C1").unwrap_err();
        assert!(err.0.contains("already over"));
        let err = solve(rules, "B2,Q7").unwrap_err();
        assert!(err.0.contains("off the board"), "{err}");
    }

    #[test]
    fn side_to_move_is_reported_from_the_first_player() {
        // X to move, O threatens two lines: the first player wins in 2.
        let r = solve(Rules::default_rules(), "B2,A1,C2,D4,B4").unwrap();
        assert_eq!((r.value, r.plies), ("first", 2));
    }
}
