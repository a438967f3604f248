//! The clock a GTP controller gives (`time_settings`, `time_left`), and
//! the time a move may take under it.

use std::time::Duration;

use kxo_engine::Player;

/// The controller's clock (`time_settings`, `time_left`).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    pub(super) main: Duration,
    pub(super) byo_time: Duration,
    pub(super) byo_stones: u32,
    /// What `time_left` last said of the side to move: time and, in
    /// byo-yomi, the stones of the period still to play.
    pub(super) left: [Option<(Duration, u32)>; 2],
}

impl Clock {
    /// No clock at all: what `time_settings 0 T 0` (T > 0) means, and the
    /// state before any `time_settings`.
    fn unlimited(&self) -> bool {
        self.main.is_zero()
            && (self.byo_time.is_zero() || self.byo_stones == 0)
            && self.left == [None, None]
    }

    /// Time for `side`'s next move: its share of what is left, less a
    /// reserve for the answer (a twentieth, at least 50 ms); `None`
    /// without a clock.
    pub(super) fn allowance(&self, side: Player, empty_points: usize) -> Option<Duration> {
        if self.unlimited() {
            return None;
        }
        let (left, stones) = self.left[side as usize].unwrap_or(if self.main.is_zero() {
            (self.byo_time, self.byo_stones)
        } else {
            (self.main, 0)
        });
        let share = if stones > 0 {
            left / stones
        } else {
            // Main time: a share of the moves a game has left, and the
            // period after it when there is one.
            let moves = (empty_points as u32 / 3).max(10);
            let main_share = left / moves;
            match self.byo_stones {
                0 => main_share,
                n => main_share.max(self.byo_time / n),
            }
        };
        let reserve = (share / 20).max(Duration::from_millis(50));
        Some(share.saturating_sub(reserve).max(Duration::from_millis(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn a_move_takes_its_share_of_the_clock_less_a_reserve() {
        let mut clock = Clock::default();
        assert_eq!(clock.allowance(Player::O, 81), None, "no clock");
        // Canadian byo-yomi, one stone in 1 s (what arena sends).
        clock = Clock {
            byo_time: MS(1000),
            byo_stones: 1,
            ..Clock::default()
        };
        assert_eq!(clock.allowance(Player::O, 81), Some(MS(950)));
        // In a period: 10 s for 5 stones left.
        clock.left[1] = Some((MS(10_000), 5));
        assert_eq!(clock.allowance(Player::X, 81), Some(MS(1900)));
        // Absolute time, 60 s left, 81 points empty: 60 s / 27.
        let absolute = Clock {
            main: Duration::from_secs(60),
            ..Clock::default()
        };
        let share = Duration::from_secs(60) / 27;
        assert_eq!(absolute.allowance(Player::O, 81), Some(share - share / 20));
        // Nothing left: at once, never a negative wait.
        let mut none = absolute;
        none.left[0] = Some((Duration::ZERO, 0));
        assert_eq!(none.allowance(Player::O, 81), Some(MS(1)));
        // time_settings 0 T 0: no time limit, as the specification says.
        let unlimited = Clock {
            byo_time: MS(5000),
            ..Clock::default()
        };
        assert_eq!(unlimited.allowance(Player::O, 81), None);
    }
}
