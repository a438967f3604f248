//! Each side's time in an `arena` game, and the one rule by which a side
//! loses on time, built-in engine or outside brain alike:
//!
//! - a side with a time a move (its `think-ms`, the run's `--think-ms`,
//!   or a brain's default second) loses when a move takes longer than
//!   that time plus the margin;
//! - a side with a game clock (`--tc BASE+INC`, `--match-ms`, or its own
//!   `tc=`) loses when a move leaves its clock below minus the margin;
//!   the increment is added after each move;
//! - its first move of a game may take [`SETUP_ALLOWANCE`] more (an
//!   engine builds its tables then: Rapfi its hash of hundreds of MB);
//!   the time is still charged to its clock.
//!
//! A built-in engine with no time at all (MCTS by iterations, Negamax
//! solving a small board) has nothing to overrun. The margin is 500 ms
//! unless `--time-margin` or the engine's `margin=` says otherwise; the
//! time charged is wall time from the question to the answer. For an
//! outside engine the question is the move command (`TURN`, `BEGIN`,
//! `BOARD`; `genmove`): starting it and its set-up (`START` and the
//! `INFO` lines, `RESTART`; `boardsize`, `komi`, `play`) have their own
//! time limits and are not charged, as in Gomocup's manager, c-gomoku-cli
//! and gogui-twogtp.

use std::time::Duration;

pub(super) use crate::protocol::outside::SETUP_ALLOWANCE;
use kxo_engine::AnyPosition;

/// The margin when neither the run nor the engine gives one.
pub(super) const DEFAULT_MARGIN: Duration = crate::protocol::outside::TOLERANCE;

/// One side's clocks in one game.
#[derive(Clone, Debug)]
pub(super) struct SideClock {
    /// Its time a move, when it has one.
    pub per_move: Option<Duration>,
    /// Its game clock: base and increment.
    pub game: Option<(Duration, Duration)>,
    pub margin: Duration,
    /// Time charged so far, and its moves so far.
    used: Duration,
    moves: u32,
}

impl SideClock {
    pub(super) fn new(
        per_move: Option<Duration>,
        game: Option<(Duration, Duration)>,
        margin: Duration,
    ) -> SideClock {
        SideClock {
            per_move,
            game,
            margin,
            used: Duration::ZERO,
            moves: 0,
        }
    }

    /// What is left on its game clock before its next move (increments
    /// earned included), when it has one.
    pub(super) fn left(&self) -> Option<Duration> {
        self.allowed().map(|all| all.saturating_sub(self.used))
    }

    /// Its game clock with the increments earned so far.
    fn allowed(&self) -> Option<Duration> {
        self.game.map(|(base, inc)| base + inc * self.moves)
    }

    /// How long its next move may take: its time a move, cut to a share
    /// of its game clock (a thirtieth early on, more as the board fills:
    /// about as many moves as half the empty cells remain, at least five,
    /// plus the increment it will earn).
    pub(super) fn allot(&self, pos: &AnyPosition) -> Option<Duration> {
        let share = self.left().zip(self.game).map(|(left, (_, inc))| {
            let moves_to_go = (pos.empty_count() / 2).clamp(5, 30);
            (left / moves_to_go + inc).min(left)
        });
        match (self.per_move, share) {
            (Some(own), Some(share)) => Some(own.min(share)),
            (own, share) => own.or(share),
        }
    }

    /// The time its first move may take besides: the set-up allowance.
    fn setup(&self) -> Duration {
        if self.moves == 0 {
            SETUP_ALLOWANCE
        } else {
            Duration::ZERO
        }
    }

    /// The longest its next move may take before it loses on time (the
    /// margin and, on its first move, the set-up allowance included);
    /// `None` when it has no clock.
    pub(super) fn deadline(&self) -> Option<Duration> {
        let extra = self.margin + self.setup();
        let per_move = self.per_move.map(|t| t + extra);
        let game = self
            .allowed()
            .map(|all| (all + extra).saturating_sub(self.used));
        match (per_move, game) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Charges a move's time; `Err` says how it lost on time.
    pub(super) fn charge(&mut self, spent: Duration) -> Result<(), String> {
        let extra = self.margin + self.setup();
        let margin_text = if self.moves == 0 {
            format!(
                "a margin of {} ms and a first move's allowance of {} ms",
                self.margin.as_millis(),
                SETUP_ALLOWANCE.as_millis()
            )
        } else {
            format!("a margin of {} ms", self.margin.as_millis())
        };
        if let Some(per_move) = self.per_move
            && spent > per_move + extra
        {
            return Err(format!(
                "a move took {} ms of its {} ms, with {margin_text}",
                spent.as_millis(),
                per_move.as_millis()
            ));
        }
        if let (Some(allowed), Some((base, inc))) = (self.allowed(), self.game)
            && self.used + spent > allowed + extra
        {
            return Err(format!(
                "a move took {} ms with {} ms left on its {} s clock, with {margin_text}",
                spent.as_millis(),
                allowed.as_millis() as i128 - self.used.as_millis() as i128,
                crate::engines::tc_text(base.as_millis() as u64, inc.as_millis() as u64)
            ));
        }
        self.used += spent;
        self.moves += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kxo_engine::Rules;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn a_move_past_its_time_and_the_margin_loses_after_the_first() {
        let mut clock = SideClock::new(Some(100 * MS), None, 50 * MS);
        // The first move may build tables.
        assert_eq!(clock.deadline(), Some(100 * MS + 50 * MS + SETUP_ALLOWANCE));
        assert_eq!(clock.charge(1000 * MS), Ok(()));
        assert_eq!(clock.charge(150 * MS), Ok(()));
        let err = clock.charge(151 * MS).unwrap_err();
        assert!(err.contains("took 151 ms of its 100 ms"), "{err}");
    }

    #[test]
    fn the_game_clock_earns_its_increment_and_loses_below_the_margin() {
        let rules = Rules::new(15, 5).unwrap();
        let pos = AnyPosition::new(rules);
        let mut clock = SideClock::new(None, Some((1000 * MS, 100 * MS)), 20 * MS);
        assert_eq!(clock.left(), Some(1000 * MS));
        // A thirtieth of what is left, and the increment.
        assert_eq!(clock.allot(&pos), Some(1000 * MS / 30 + 100 * MS));
        clock.charge(600 * MS).unwrap();
        assert_eq!(clock.left(), Some(500 * MS));
        clock.charge(600 * MS).unwrap_err();
        clock.charge(520 * MS).unwrap();
        assert_eq!(clock.left(), Some(80 * MS));
        // 20 ms past its clock, within the margin: the increment comes after.
        clock.charge(100 * MS).unwrap();
        assert_eq!(
            (clock.left(), clock.deadline()),
            (Some(80 * MS), Some(100 * MS))
        );
        let err = clock.charge(101 * MS).unwrap_err();
        assert!(
            err.contains("took 101 ms with 80 ms left on its 1+0.1 s clock"),
            "{err}"
        );
    }

    #[test]
    fn the_tighter_of_both_clocks_allots_and_ends() {
        let rules = Rules::new(15, 5).unwrap();
        let pos = AnyPosition::new(rules);
        let mut clock = SideClock::new(Some(50 * MS), Some((60_000 * MS, Duration::ZERO)), 10 * MS);
        assert_eq!(clock.allot(&pos), Some(50 * MS));
        clock.charge(10 * MS).unwrap();
        assert_eq!(clock.deadline(), Some(60 * MS));
        let none = SideClock::new(None, None, 10 * MS);
        assert_eq!((none.allot(&pos), none.deadline()), (None, None));
    }
}
