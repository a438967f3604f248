//! A fixed yardstick for the learner on boards above 8x8, where no solver
//! judges: Negamax held to a fixed number of nodes a move, so a score
//! against it is the same work on any machine and scores of two runs
//! compare.

use std::time::Duration;

use super::{BigNegamax, BigRl};
use crate::ai::games::{Tally, play_from};
use crate::ai::rl::SharedTable;
use crate::ai::{Budget, Engine};
use crate::game::{Cell, GameRecord, Outcome, Player, Position, Rules};

/// Nodes a move of the yardstick: Negamax ticks its budget every 128.
pub const YARDSTICK_TICKS: u32 = 2;
/// The same, in nodes: the yardstick's name on screen ("Negamax-256").
pub const YARDSTICK_NODES: u64 = YARDSTICK_TICKS as u64 * super::negamax::TICK_NODES;

/// Games of a measure against the yardstick, half on each side.
pub const YARDSTICK_GAMES: u32 = 50;

/// Game `g` of a series against the yardstick from `seed`: the learner
/// (not learning; a random move with chance `epsilon`) plays O in even
/// games and X in odd ones, each pair from one random opening. Its record,
/// and the learner's side.
pub fn play_yardstick(
    table: &SharedTable,
    g: u32,
    seed: u64,
    epsilon: f64,
) -> (GameRecord, Player) {
    let rules: Rules = table.borrow().rules();
    let opening = crate::ai::openings::random(rules, seed.wrapping_add(u64::from(g / 2)));
    let mut learner = BigRl::new(rules, table.clone(), seed ^ u64::from(g));
    learner.learning = false;
    learner.epsilon = epsilon;
    let negamax = BigNegamax::new(rules).with_seed(seed.wrapping_add(u64::from(g)));
    let mut yardstick = Ticked {
        engine: negamax,
        ticks: YARDSTICK_TICKS,
    };
    let side = if g.is_multiple_of(2) {
        Player::O
    } else {
        Player::X
    };
    let record = match side {
        Player::O => play_from(rules, &opening, &mut [&mut learner, &mut yardstick]),
        Player::X => play_from(rules, &opening, &mut [&mut yardstick, &mut learner]),
    };
    (record, side)
}

/// A search budget of a fixed number of ticks, whatever the clock says
/// (Negamax ticks every 128 nodes): the same work on any machine. Its
/// limit is a time the threat searches are sized by (a few milliseconds
/// unless [`Ticks::sized`] says); its clock never runs, so only the ticks
/// stop the search.
pub struct Ticks {
    left: u32,
    sized: Duration,
}

impl Ticks {
    /// `ticks` ticks, the threat searches sized as for 5 ms.
    pub fn new(ticks: u32) -> Ticks {
        Ticks::sized(ticks, Duration::from_millis(5))
    }

    /// `ticks` ticks, the threat searches sized as for `time`.
    pub fn sized(ticks: u32, time: Duration) -> Ticks {
        Ticks {
            left: ticks,
            sized: time,
        }
    }
}

impl Budget for Ticks {
    fn tick(&mut self) -> bool {
        self.left = self.left.saturating_sub(1);
        self.left > 0
    }
    fn elapsed(&self) -> Duration {
        Duration::ZERO
    }
    fn limit(&self) -> crate::ai::Limit {
        crate::ai::Limit::Time(self.sized)
    }
}

/// Negamax held to `ticks` a move (the yardstick: [`YARDSTICK_TICKS`]),
/// so that its games are the same on any machine.
pub(crate) struct Ticked {
    pub engine: BigNegamax,
    pub ticks: u32,
}

impl Engine for Ticked {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "NEGA".into()
    }
    fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
        self.engine.choose(pos, &mut Ticks::new(self.ticks))
    }
}

/// The greedy learner (not learning, no exploration) against the
/// yardstick, `games` games in pairs from the same random opening (the
/// tournaments' balanced ones), one on each side; wins are the learner's.
pub fn against_yardstick(table: &SharedTable, games: u32, seed: u64) -> Tally {
    let mut tally = Tally::default();
    for g in 0..games {
        yardstick_game(table, g, seed, &mut tally);
    }
    tally
}

/// Game `g` of [`against_yardstick`], counted into `tally`.
pub fn yardstick_game(table: &SharedTable, g: u32, seed: u64, tally: &mut Tally) {
    let (record, side) = play_yardstick(table, g, seed, 0.0);
    match record.outcome {
        Outcome::Win(p) if p == side => tally.wins += 1,
        Outcome::Win(_) => tally.losses += 1,
        _ => tally.draws += 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::rl::{Init, ValueTable};
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn the_yardstick_is_the_same_work_on_any_machine() {
        // Same seed, same games: the node budget, not the clock, ends
        // each of its searches.
        let rules = Rules::new(15, 5).unwrap();
        let table = Rc::new(RefCell::new(ValueTable::with_init(rules, Init::Network)));
        let a = against_yardstick(&table, 4, 3);
        let b = against_yardstick(&table, 4, 3);
        assert_eq!(a, b);
        // The untrained learner (random moves near the stones) loses.
        assert_eq!(a.losses, 4, "{a:?}");
    }
}
