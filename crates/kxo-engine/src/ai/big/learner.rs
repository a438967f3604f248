//! The learning player on boards above 8x8: one ply, greedy on the values
//! of the line patterns it learns ([`super::patterns`]), learning from
//! every game it finishes (`ValueTable::learn`).
//!
//! It looks at the cells near the stones, as the other engines of big
//! boards do, takes a win in one (a finished game's value is exact) and
//! otherwise plays the afterstate its patterns value most. It is told
//! nothing else: blocking the other side's four, making threes, all of it
//! comes from the values it learns.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{BigBoard, Tables};
use crate::ai::rl::SharedTable;
use crate::ai::{Budget, Engine};
use crate::game::{Cell, GameRecord, Player, Position, Rules};

/// Values closer than this count as a tie (broken at random).
const TIE: f32 = 1e-4;

pub struct BigRl {
    tables: Tables,
    table: SharedTable,
    rng: Xoshiro256PlusPlus,
    /// Chance of a random candidate instead of the greedy move.
    pub epsilon: f64,
    /// Whether to learn from finished games.
    pub learning: bool,
}

impl BigRl {
    /// A player learning into `table`, whose values must be line patterns
    /// (a model of `rules` that starts from the network).
    pub fn new(rules: Rules, table: SharedTable, seed: u64) -> BigRl {
        BigRl {
            tables: Tables::new(rules),
            table,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            epsilon: 0.0,
            learning: true,
        }
    }

    /// The greedy move of `b` (not over), ties broken at random.
    fn greedy(&mut self, b: &BigBoard) -> usize {
        let t = &self.tables;
        let me = b.to_move();
        let candidates = b.candidates(t);
        if let Some(win) = b.wins(me).iter().next() {
            return win;
        }
        let table = self.table.borrow();
        let Some(net) = table.patterns() else {
            // Not a model of line patterns: every value is ½.
            drop(table);
            return self.any_of(candidates.iter().collect());
        };
        let mut best = f32::NEG_INFINITY;
        let mut ties = Vec::new();
        for c in candidates.iter() {
            let v = net.gain(t, b, me, c);
            if v > best + TIE {
                best = v;
                ties.clear();
                ties.push(c);
            } else if v > best - TIE {
                ties.push(c);
            }
        }
        drop(table);
        if ties.is_empty() {
            // No gain compared (weights past any sum): any candidate.
            ties = candidates.iter().collect();
        }
        self.any_of(ties)
    }

    /// One of `cells` (not empty) at random.
    fn any_of(&mut self, cells: Vec<usize>) -> usize {
        cells[self.rng.random_range(0..cells.len())]
    }
}

impl Engine for BigRl {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "RL".into()
    }

    fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
        let b = BigBoard::from_position(&self.tables, pos);
        let cell = if self.epsilon > 0.0 && self.rng.random_bool(self.epsilon.min(1.0)) {
            self.any_of(b.candidates(&self.tables).iter().collect())
        } else {
            self.greedy(&b)
        };
        Cell::from_index(cell)
    }

    fn game_over(&mut self, record: &GameRecord, _me: Player) {
        if self.learning {
            self.table.borrow_mut().learn(record, crate::ai::rl::ALPHA);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::games::play_game;
    use crate::ai::rl::{Init, ValueTable};
    use std::cell::RefCell;
    use std::rc::Rc;

    fn fresh(rules: Rules) -> SharedTable {
        Rc::new(RefCell::new(ValueTable::with_init(rules, Init::Network)))
    }

    /// `games` games of self-play learned into a fresh table.
    fn trained(rules: Rules, games: u32) -> SharedTable {
        let table = fresh(rules);
        let mut players = [1, 2].map(|seed| {
            let mut p = BigRl::new(rules, table.clone(), seed);
            p.epsilon = 0.1;
            p
        });
        for id in 0..games {
            let [o, x] = &mut players;
            let mut record = play_game(rules, &mut [o, x]);
            // Both seats report the game, as on the live screen.
            record.id = Some(u64::from(id));
            o.game_over(&record, Player::O);
            x.game_over(&record, Player::X);
        }
        assert_eq!(
            table.borrow().games,
            u64::from(games),
            "each game learned once"
        );
        table
    }

    /// Positions from the learner's own games where the side to move has
    /// no win in one and the other side has exactly one: the block is the
    /// only move that does not lose at once.
    fn must_block(rules: Rules, table: &SharedTable, want: usize) -> Vec<Position> {
        let t = Tables::new(rules);
        let mut out = Vec::new();
        let mut player = BigRl::new(rules, table.clone(), 77);
        player.learning = false;
        player.epsilon = 0.3;
        while out.len() < want {
            let mut pos = Position::new(rules);
            while !pos.outcome().is_over() {
                let b = BigBoard::from_position(&t, &pos);
                let me = b.to_move();
                if b.wins(me).is_empty() && b.wins(me.other()).count() == 1 {
                    out.push(pos);
                    break;
                }
                let cell = player.choose(&pos, &mut crate::ai::Unlimited::new());
                pos.play(cell).unwrap();
            }
        }
        out
    }

    /// How many of `positions` the greedy learner answers with the block.
    fn blocks(rules: Rules, table: &SharedTable, positions: &[Position]) -> usize {
        let t = Tables::new(rules);
        let mut player = BigRl::new(rules, table.clone(), 5);
        player.learning = false;
        positions
            .iter()
            .filter(|pos| {
                let b = BigBoard::from_position(&t, pos);
                let block = b.wins(b.to_move().other()).iter().next();
                let cell = player.choose(pos, &mut crate::ai::Unlimited::new());
                Some(cell.index()) == block
            })
            .count()
    }

    #[test]
    fn self_play_teaches_it_to_block_a_four_which_it_was_never_told() {
        let rules = Rules::new(15, 5).unwrap();
        let table = trained(rules, 10_000);
        let positions = must_block(rules, &table, 100);
        // Untrained, every move near the stones is worth the same: it
        // blocks by chance (one cell of dozens).
        let before = blocks(rules, &fresh(rules), &positions);
        let after = blocks(rules, &table, &positions);
        assert!(before <= 20, "untrained blocked {before} of 100");
        assert!(after >= 90, "trained blocked only {after} of 100");
    }

    #[test]
    fn the_trained_learner_beats_the_untrained_one_on_both_sides() {
        for (size, goal) in [(15, 5), (20, 5)] {
            let rules = Rules::new(size, goal).unwrap();
            let table = trained(rules, 2_000);
            let mut wins = 0;
            for g in 0..20u64 {
                let mut learned = BigRl::new(rules, table.clone(), g);
                let mut zero = BigRl::new(rules, fresh(rules), g + 100);
                learned.learning = false;
                zero.learning = false;
                let (record, side) = if g % 2 == 0 {
                    (play_game(rules, &mut [&mut learned, &mut zero]), Player::O)
                } else {
                    (play_game(rules, &mut [&mut zero, &mut learned]), Player::X)
                };
                wins += u32::from(record.outcome == crate::game::Outcome::Win(side));
            }
            assert!(wins >= 18, "{size}x{size}: won {wins} of 20");
        }
    }
}
