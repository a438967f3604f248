//! Human mode's game clock (`--tc BASE+INC`): each side's time, the one
//! to move running, the increment after each move, a flag that falls at
//! zero. Read on the state's time (`now`), so tests step a manual clock.
//! The computer thinks a share of what it has left, as in `arena`.

use std::time::{Duration, Instant};

use kxo_engine::Player;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HumanClock {
    pub base: Duration,
    pub increment: Duration,
    /// Each side's time left, as of its last stop.
    left: [Duration; 2],
    /// The side whose time runs, and since when (none: not started,
    /// paused, or the game is over).
    running: Option<(Player, Instant)>,
}

impl HumanClock {
    pub fn new(base: Duration, increment: Duration) -> HumanClock {
        HumanClock {
            base,
            increment,
            left: [base; 2],
            running: None,
        }
    }

    /// `side`'s time left at `now`.
    pub fn left(&self, side: Player, now: Instant) -> Duration {
        let left = self.left[side.index()];
        match self.running {
            Some((p, since)) if p == side => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// The side whose time runs, if any.
    pub fn running(&self) -> Option<Player> {
        self.running.map(|(p, _)| p)
    }

    /// `side`'s time starts (it is to move).
    pub fn start(&mut self, side: Player, now: Instant) {
        self.stop(now);
        self.running = Some((side, now));
    }

    /// The running time stops (a pause, the game's end): what it used is
    /// charged.
    pub fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            self.left[side.index()] = self.left(side, now);
            self.running = None;
        }
    }

    /// `side` moved at `now`: its time stops and earns the increment;
    /// `false` when its flag had fallen.
    pub fn moved(&mut self, side: Player, now: Instant) -> bool {
        let in_time = !self.left(side, now).is_zero();
        if self.running() == Some(side) {
            self.stop(now);
        }
        if in_time {
            self.left[side.index()] += self.increment;
        }
        in_time
    }

    /// The side whose flag has fallen at `now`, if one has.
    pub fn fallen(&self, now: Instant) -> Option<Player> {
        self.running().filter(|&p| self.left(p, now).is_zero())
    }

    /// When the screen should look again: the flag's fall or the next
    /// tenth of a second shown (whole seconds above ten).
    pub fn next_wake(&self, now: Instant) -> Option<Instant> {
        let (side, _) = self.running?;
        let left = self.left(side, now);
        let step = match left > Duration::from_secs(10) {
            true => Duration::from_secs(1),
            false => Duration::from_millis(100),
        };
        let into_step = Duration::from_nanos((left.as_nanos() % step.as_nanos()) as u64);
        let wait = match into_step.is_zero() {
            true => step,
            false => into_step,
        };
        Some(now + wait.min(left))
    }

    /// What the computer may think on its next move: a share of its time
    /// (about as many moves as half the `empty` cells remain, 5 to 30,
    /// plus the increment), never all of it.
    pub fn allot(&self, side: Player, now: Instant, empty: u32) -> Duration {
        let left = self.left(side, now);
        let moves_to_go = (empty / 2).clamp(5, 30);
        (left / moves_to_go + self.increment).min(left / 2)
    }
}

/// A clock's reading: "4:05", and tenths under ten seconds ("0:07.3").
pub fn clock_text(left: Duration) -> String {
    let tenths = left.as_millis() / 100;
    let secs = tenths / 10;
    match secs < 10 {
        true => format!("0:{:02}.{}", secs, tenths % 10),
        false => format!("{}:{:02}", secs / 60, secs % 60),
    }
}

impl super::App {
    /// The mover's clock as its move lands: `false` when its flag had
    /// already fallen (the move is not played).
    pub(super) fn clock_moved(&mut self, mover: Player, now: Instant) -> bool {
        match self.human.as_mut().and_then(|h| h.clock.as_mut()) {
            Some(clock) => clock.moved(mover, now),
            None => true,
        }
    }

    /// Brings the clock up to the game at `now`: the side to move's time
    /// runs while the game is played (not paused, not marking dead
    /// stones), the computer's next move gets its share, and a flag that
    /// has fallen loses the game.
    pub(super) fn clock_tick(&mut self, now: Instant) -> Vec<super::Effect> {
        let paused = self.paused;
        let (Some(human), Some(game)) = (self.human.as_mut(), self.games.first_mut()) else {
            return Vec::new();
        };
        let Some(clock) = human.clock.as_mut() else {
            return Vec::new();
        };
        let playing = game.status == super::GameStatus::Playing && !paused && !human.marking;
        if !playing {
            clock.stop(now);
            return Vec::new();
        }
        let to_move = game.pos.to_move();
        if clock.running() != Some(to_move) {
            clock.start(to_move, now);
        }
        let computer = human.side.other();
        if to_move == computer {
            let share = clock.allot(computer, now, game.pos.empty_count());
            game.limits[computer.index()] = kxo_engine::Limit::Time(share);
        }
        let (fallen, generation) = (clock.fallen(now), game.generation);
        self.touch(false);
        match fallen {
            Some(loser) => self.forfeit(0, generation, loser, super::Loss::Time, now),
            None => vec![super::Effect::Redraw],
        }
    }

    /// When the clock task should tick next: the next change the clock
    /// shows, or its flag's fall; `None` while no time runs.
    pub fn clock_wake(&self) -> Option<Instant> {
        self.human.as_ref()?.clock.as_ref()?.next_wake(self.now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn the_side_to_move_runs_earns_its_increment_and_its_flag_falls_at_zero() {
        let t0 = Instant::now();
        let mut clock = HumanClock::new(5 * S, 2 * S);
        assert_eq!(clock.fallen(t0), None);
        clock.start(Player::O, t0);
        assert_eq!(clock.left(Player::O, t0 + 3 * S), 2 * S);
        assert_eq!(clock.left(Player::X, t0 + 3 * S), 5 * S);
        assert!(clock.moved(Player::O, t0 + 3 * S));
        assert_eq!(clock.left(Player::O, t0 + 9 * S), 4 * S);
        clock.start(Player::X, t0 + 3 * S);
        // A pause stops it; the time from then on is not charged.
        clock.stop(t0 + 4 * S);
        assert_eq!(clock.left(Player::X, t0 + 60 * S), 4 * S);
        clock.start(Player::X, t0 + 60 * S);
        assert_eq!(clock.fallen(t0 + 63 * S), None);
        assert_eq!(clock.fallen(t0 + 64 * S), Some(Player::X));
        assert!(!clock.moved(Player::X, t0 + 65 * S));
        // The wake-ups: every second above ten, then at the fall.
        let mut c = HumanClock::new(Duration::from_millis(10_500), Duration::ZERO);
        c.start(Player::O, t0);
        assert_eq!(c.next_wake(t0), Some(t0 + Duration::from_millis(500)));
        let late = t0 + Duration::from_millis(10_450);
        assert_eq!(c.next_wake(late), Some(late + Duration::from_millis(50)));
        assert_eq!(clock_text(Duration::from_millis(245_900)), "4:05");
        assert_eq!(clock_text(Duration::from_millis(7_390)), "0:07.3");
    }

    /// A person's game of Gomoku as O, at 5+0: nothing is pressed.
    fn clocked_app(now: Instant) -> crate::app::App {
        let config = crate::app::LiveConfig {
            games: 1,
            rules: kxo_engine::Rules::new(15, 5).unwrap(),
            o: Some(kxo_engine::BuiltIn::Mcts.into()),
            x: Some(kxo_engine::BuiltIn::Mcts.into()),
            human: Some(Player::O),
            human_tc: Some((5 * S, Duration::ZERO)),
            ..crate::app::LiveConfig::default()
        };
        crate::app::App::new(config, now)
    }

    #[test]
    fn a_person_who_waits_loses_on_time_and_the_computer_gets_a_share() {
        use crate::app::{Loss, Message};
        let t0 = Instant::now();
        let mut app = clocked_app(t0);
        app.update(Message::ClockTick, t0 + 4 * S);
        assert_eq!(app.games()[0].status, crate::app::GameStatus::Playing);
        // The person moves at 4 s: the computer's time runs, with a share.
        let h8 = kxo_engine::Cell::parse("H8", 15).unwrap();
        app.update(
            Message::PersonMoved {
                game: 0,
                generation: 0,
                cell: h8,
            },
            t0 + 4 * S,
        );
        let clock = app.human().as_ref().unwrap().clock.clone().unwrap();
        assert_eq!(clock.running(), Some(Player::X));
        assert_eq!(clock.left(Player::O, t0 + 9 * S), S);
        assert_eq!(app.seat_limit(0, Player::X), kxo_engine::Limit::Time(S / 6));
        // Its answer at 4.1 s; the person then waits past their last second.
        let h9 = kxo_engine::Cell::parse("H9", 15).unwrap();
        let t = t0 + 4 * S + S / 10;
        app.update(
            Message::Moved {
                game: 0,
                generation: 0,
                cell: h9,
            },
            t,
        );
        app.update(Message::ClockTick, t + S - S / 100);
        assert_eq!(app.games()[0].forfeit, None);
        app.update(Message::ClockTick, t + S);
        assert_eq!(app.games()[0].forfeit, Some((Player::O, Loss::Time)));
        assert!(matches!(
            app.games()[0].status,
            crate::app::GameStatus::Over { .. }
        ));
        assert_eq!(app.human().as_ref().unwrap().score.computer, 1);
        // A move that comes after the flag fell is not played.
        let mut late = clocked_app(t0);
        late.update(
            Message::PersonMoved {
                game: 0,
                generation: 0,
                cell: h8,
            },
            t0 + 6 * S,
        );
        assert!(late.games()[0].record.moves.is_empty());
        assert_eq!(late.games()[0].forfeit, Some((Player::O, Loss::Time)));
    }

    #[test]
    fn the_computer_thinks_a_share_never_the_whole() {
        let t0 = Instant::now();
        let clock = HumanClock::new(60 * S, Duration::ZERO);
        assert_eq!(clock.allot(Player::X, t0, 225), 2 * S);
        assert_eq!(clock.allot(Player::X, t0, 4), 12 * S);
        let short = HumanClock::new(S, 10 * S);
        assert_eq!(short.allot(Player::X, t0, 200), S / 2);
    }
}
