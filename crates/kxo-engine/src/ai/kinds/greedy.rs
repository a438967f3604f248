//! Greedy: takes a win in one when it has one, blocks the other side's
//! win in one (unless `block=no`), and else plays at random. A baseline
//! one step above random, and the list's example of a kind with an
//! option: this file and its line in the list are all of it.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{EngineOption, Entry, OptionValues, Recipe};
use crate::ai::{Budget, Engine, Limit};
use crate::game::{Cell, Player, Position, line_through};

pub(super) const ENTRY: Entry = Entry {
    name: "greedy",
    aliases: &[],
    label: "GRDY",
    work_unit: "nodes/s",
    options: &[EngineOption {
        name: "block",
        aliases: &[],
        values: OptionValues::Choice(&["yes", "no"]),
        work: false,
    }],
    default_limit: |_| Limit::Whole,
    make,
    make_go: None,
};

fn make(recipe: &Recipe) -> Box<dyn Engine> {
    Box::new(Greedy {
        block: !recipe.options.is("block", "no"),
        rng: Xoshiro256PlusPlus::seed_from_u64(recipe.seed),
    })
}

struct Greedy {
    block: bool,
    rng: Xoshiro256PlusPlus,
}

/// Whether `player` would complete a winning line by a stone on `cell`.
fn wins_at(pos: &Position, player: Player, cell: Cell) -> bool {
    let board = pos.board(player).with(cell.index());
    line_through(&board, pos.rules(), cell.index()).is_some()
}

impl Engine for Greedy {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "GRDY".into()
    }

    fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
        let me = pos.to_move();
        let moves: Vec<Cell> = pos.legal_moves().collect();
        let first = |p: Player| moves.iter().copied().find(|&c| wins_at(pos, p, c));
        if let Some(win) = first(me) {
            return win;
        }
        if self.block
            && let Some(block) = first(me.other())
        {
            return block;
        }
        moves[self.rng.random_range(0..moves.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Unlimited;
    use crate::ai::kinds::{BuiltIn, Options};
    use crate::game::Rules;

    #[test]
    fn it_wins_when_it_can_and_blocks_unless_told_not_to() {
        let rules = Rules::default_rules();
        let pos = |text: &str| {
            Position::from_moves(rules, &Cell::parse_list(text, 4).unwrap()).unwrap()
        };
        let engine = |block: &str| {
            let mut options = Options::default();
            assert_eq!(options.set(BuiltIn::Greedy, "block", block), Ok(true));
            BuiltIn::Greedy.make(&Recipe {
                options: &options,
                ..Recipe::new(rules, 1)
            })
        };
        // O to move with A1 B1 held: C1 wins.
        let mut greedy = engine("yes");
        let cell = greedy.choose(&pos("A1,A4,B1,B4"), &mut Unlimited::new());
        assert_eq!(cell.name(4), "C1");
        // X to move, O threatens C1 (A1 B1): blocked, unless block=no.
        let threat = pos("A1,D4,B1");
        assert_eq!(engine("yes").choose(&threat, &mut Unlimited::new()).name(4), "C1");
        let picks: std::collections::HashSet<String> = (0..20)
            .map(|seed| {
                let mut options = Options::default();
                options.set(BuiltIn::Greedy, "block", "no").unwrap();
                BuiltIn::Greedy
                    .make(&Recipe {
                        options: &options,
                        ..Recipe::new(rules, seed)
                    })
                    .choose(&threat, &mut Unlimited::new())
                    .name(4)
            })
            .collect();
        assert!(picks.len() > 1, "block=no still only blocks: {picks:?}");
        let mut bad = Options::default();
        let err = bad.set(BuiltIn::Greedy, "block", "maybe").unwrap_err();
        assert!(err.contains("block=yes or block=no"), "{err}");
    }
}
