//! The threat search as the measuring tools ask it: a position in, the
//! first move of a forced win by threats and its plies out, and whether
//! that win holds against every reply (the threat suite's labels).

use super::{BigBoard, Tables, vcf, vct};
use crate::game::{Bits, Cell, Player, Position, Rules};

/// The threat search (VCT) of one board, its tables built once.
pub struct ThreatSearch {
    tables: Tables,
}

impl ThreatSearch {
    pub fn new(rules: Rules) -> ThreatSearch {
        ThreatSearch {
            tables: Tables::new(rules),
        }
    }

    /// The first move of a win by threats for the side to move in `pos`
    /// and its plies, if one is found within `max_plies` and `budget`
    /// nodes (what is left of the budget stays in it).
    pub fn find(&self, pos: &Position, max_plies: u32, budget: &mut u32) -> Option<(Cell, u32)> {
        let b = BigBoard::from_position(&self.tables, pos);
        vct::find(&self.tables, &b, max_plies, budget)
            .map(|(c, plies)| (Cell::from_index(c), plies))
    }

    /// A victory by continuous fours for the side to move in `pos`: its
    /// moves, the attacker's and the forced replies, if one is found
    /// within `max_plies` and `budget` nodes.
    pub fn find_vcf(&self, pos: &Position, max_plies: u32, budget: &mut u32) -> Option<Vec<Cell>> {
        let b = BigBoard::from_position(&self.tables, pos);
        vcf::find(&self.tables, &b, max_plies, budget)
            .map(|line| line.into_iter().map(Cell::from_index).collect())
    }

    /// The cells where `player` would win at once in `pos`.
    pub fn wins_in_one(&self, pos: &Position, player: Player) -> Bits {
        BigBoard::from_position(&self.tables, pos).wins(player)
    }

    /// Whether, after `cell`, the attacker wins against every empty cell
    /// the defender could play, each answered by a threat win within
    /// `plies - 2` plies and `reply_budget` nodes.
    pub fn holds_against_every_reply(
        &self,
        pos: &Position,
        cell: Cell,
        plies: u32,
        reply_budget: u32,
    ) -> bool {
        let t = &self.tables;
        let mut next = BigBoard::from_position(t, pos);
        next.play(t, cell.index());
        if next.outcome().is_over() {
            return true;
        }
        next.empty_cells(t).iter().all(|reply| {
            let mut after = next;
            after.play(t, reply);
            let mut budget = reply_budget;
            !after.outcome().is_over()
                && vct::find(t, &after, plies.saturating_sub(2), &mut budget).is_some()
        })
    }
}
