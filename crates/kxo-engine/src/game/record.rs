//! The record of one game: its rules, its moves in order and its result.

use super::coord::Cell;
use super::position::Outcome;
#[cfg(test)]
use super::position::Position;
use super::rules::Rules;

#[derive(Clone, Debug)]
pub struct GameRecord {
    pub rules: Rules,
    pub moves: Vec<Cell>,
    pub outcome: Outcome,
    /// Which game this is, when several players may report the same game
    /// (the learning table learns from each game once).
    pub id: Option<u64>,
}

impl GameRecord {
    pub fn new(rules: Rules) -> GameRecord {
        GameRecord {
            rules,
            moves: Vec::new(),
            outcome: Outcome::Ongoing,
            id: None,
        }
    }

    /// The moves as the Records tab shows them: "B2 → C3 → A1".
    pub fn notation(&self) -> String {
        self.moves
            .iter()
            .map(|&c| self.rules.cell_name(c))
            .collect::<Vec<_>>()
            .join(" → ")
    }

    /// Replays the record into a position.
    #[cfg(test)]
    pub fn position(&self) -> Position {
        let mut pos = Position::new(self.rules);
        for &c in &self.moves {
            pos.play_unchecked(c);
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_joins_with_arrows() {
        let rules = Rules::default_rules();
        let mut rec = GameRecord::new(rules);
        rec.moves = Cell::parse_list("B2,C3,A1", 4).unwrap();
        assert_eq!(rec.notation(), "B2 → C3 → A1");
        assert_eq!(rec.position().move_count(), 3);
    }
}
