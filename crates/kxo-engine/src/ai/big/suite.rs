//! The threat suite: positions from games against Rapfi where the side
//! to move has a forced win of 15 to 35 plies.
//!
//! Each line of `threat_suite.txt` is a position (its moves from the
//! empty 15x15 board, free-style five in a row), then the plies of the win
//! kxo-tui's threat search ([`super::vct`]) proves in it (`-` for none
//! within a million nodes), then the plies of the win Rapfi announced in a
//! second (`-` for none). A position is in the suite when the longer of
//! the two is 15 to 35 plies; each win of kxo-tui's was also checked
//! against every reply of the defender, not only the ones its search
//! reads. The program's `cargo run --release --example threat_suite`
//! builds it from games and measures it beside Rapfi (BENCHMARKS.md).

use crate::game::{Cell, Position, Rules};

/// The suite's text.
const TEXT: &str = include_str!("threat_suite.txt");

/// One position of the suite.
#[derive(Clone, Debug)]
pub struct SuitePosition {
    pub moves: Vec<Cell>,
    /// The plies of the threat win kxo-tui's search proved, if any.
    pub vct_plies: Option<u32>,
    /// The plies of the win Rapfi announced, if any.
    pub rapfi_plies: Option<u32>,
}

impl SuitePosition {
    /// The rules of every position: 15x15, five in a row, free-style.
    pub fn rules() -> Rules {
        Rules::new(15, 5).unwrap_or_else(|_| unreachable!("15x15 with five is valid"))
    }

    /// The position itself, if its moves are legal (the suite's own are,
    /// by its tests).
    pub fn position(&self) -> Option<Position> {
        Position::from_moves(Self::rules(), &self.moves).ok()
    }

    /// A line of the suite (`None` for a comment, a blank line, or a line
    /// that is not one).
    pub fn parse(line: &str) -> Option<SuitePosition> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut parts = line.split('|').map(str::trim);
        let moves = parts
            .next()?
            .split_whitespace()
            .map(|name| Cell::parse(name, 15).ok())
            .collect::<Option<Vec<Cell>>>()?;
        let plies = |text: Option<&str>| text.and_then(|t| t.parse().ok());
        Some(SuitePosition {
            moves,
            vct_plies: plies(parts.next()),
            rapfi_plies: plies(parts.next()),
        })
    }

    /// The position as a line of the suite.
    pub fn line(&self) -> String {
        let names: Vec<String> = self.moves.iter().map(|c| c.name(15)).collect();
        let shown = |p: Option<u32>| p.map_or("-".to_string(), |p| p.to_string());
        format!(
            "{} | {} | {}",
            names.join(" "),
            shown(self.vct_plies),
            shown(self.rapfi_plies)
        )
    }
}

/// The suite's positions, in the file's order.
pub fn positions() -> Vec<SuitePosition> {
    TEXT.lines().filter_map(SuitePosition::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::big::{BigBoard, Tables, vct};

    /// Every line is a position, so that none is dropped unread.
    #[test]
    fn every_line_is_a_position_of_the_suites_kind() {
        let lines = TEXT
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        let all = positions();
        assert_eq!(all.len(), lines, "a line did not parse");
        assert!(all.len() >= 50, "only {} positions", all.len());
        let mut seen = std::collections::HashSet::new();
        for p in &all {
            let pos = p.position().expect("legal moves");
            assert_eq!(
                SuitePosition::parse(&p.line()).map(|q| q.line()),
                Some(p.line())
            );
            assert!(!pos.outcome().is_over());
            assert!(seen.insert(p.moves.clone()), "a position twice");
            let longest = p
                .vct_plies
                .max(p.rapfi_plies)
                .expect("a win, by one or the other");
            assert!((15..=35).contains(&longest), "a win of {longest} plies");
        }
    }

    /// The threat search still proves each win it proved when the suite
    /// was made, as short, within the nodes a second allows; and, of the
    /// whole suite, at least the 75 it proved when its replies were last
    /// ordered (BENCHMARKS.md run AF), so that a change that makes it
    /// weaker shows here.
    #[test]
    fn the_threat_search_proves_its_wins_in_the_suite() {
        let rules = SuitePosition::rules();
        let t = Tables::new(rules);
        let (mut labelled, mut proved) = (0, 0);
        for p in positions() {
            let b = BigBoard::from_position(&t, &p.position().expect("legal moves"));
            let mut budget = 1_000_000;
            let found = vct::find(&t, &b, 35, &mut budget);
            proved += usize::from(found.is_some());
            let Some(plies) = p.vct_plies else { continue };
            assert_eq!(found.map(|f| f.1), Some(plies), "{:?}", p.moves);
            labelled += 1;
        }
        assert!(labelled >= 60, "only {labelled} threat wins in the suite");
        assert!(proved >= 75, "only {proved} of the suite proved");
    }
}
