//! The games of a run, computed one by one from their number: which
//! engines, which opening, which pair. Never stored: a run of ten million
//! games costs no more memory than a run of ten.
//!
//! The order: round by round (one opening a round), each pairing's pair
//! (its first engine first, then colours swapped); the last round of an
//! odd count plays its opening once.

use serde::{Deserialize, Serialize};

use super::{Format, Settings};

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Its number in the run, from 0.
    pub game: u32,
    /// Its pair (one opening, both colours), from 0.
    pub pair: u32,
    /// Its round: the opening it starts from.
    pub round: u32,
    /// The engines (indices into the settings' list) playing first (O)
    /// and second (X).
    pub first: usize,
    pub second: usize,
}

/// The pairings of engines the format plays, in order.
pub fn pairings(engines: usize, format: Format) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// A run's games, as arithmetic on their numbers.
#[derive(Clone, Debug)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    /// Games per pairing.
    games: u32,
    repeat: bool,
}

impl Schedule {
    /// The schedule of `settings` (checked: see [`Settings::check`]).
    pub fn new(settings: &Settings) -> Schedule {
        Schedule {
            pairings: pairings(settings.engines.len(), settings.format),
            games: settings.games,
            repeat: settings.repeat,
        }
    }

    /// The number of games, if it fits a game number.
    pub fn count(engines: usize, format: Format, games: u32) -> Option<u32> {
        let pairings = match format {
            Format::RoundRobin => engines.checked_mul(engines.saturating_sub(1))? / 2,
            Format::Gauntlet => engines.saturating_sub(1),
        };
        u32::try_from(pairings).ok()?.checked_mul(games)
    }

    /// How many games the run holds.
    pub fn len(&self) -> u32 {
        self.pairings.len() as u32 * self.games
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The engine pairings, in order.
    pub fn pairings(&self) -> &[(usize, usize)] {
        &self.pairings
    }

    /// Games a pair of openings holds: 2 with colours swapped, 1 for the
    /// last of an odd count or without repeats.
    pub fn pair_len(&self, pair: u32) -> u32 {
        let p = self.pairings.len() as u32;
        if !self.repeat || p == 0 {
            return 1;
        }
        let round = pair / p;
        if 2 * round + 1 < self.games { 2 } else { 1 }
    }

    /// Game number `game`, if the run has it.
    pub fn slot(&self, game: u32) -> Option<Slot> {
        if game >= self.len() {
            return None;
        }
        let p = self.pairings.len() as u32;
        let (round, k, swapped) = if !self.repeat {
            (game / p, game % p, false)
        } else {
            let full_rounds = self.games / 2;
            let in_full = 2 * p * full_rounds;
            if game < in_full {
                let within = game % (2 * p);
                (game / (2 * p), within / 2, within % 2 == 1)
            } else {
                (full_rounds, game - in_full, false)
            }
        };
        let (a, b) = self.pairings[k as usize];
        let (first, second) = if swapped { (b, a) } else { (a, b) };
        Some(Slot {
            game,
            pair: round * p + k,
            round,
            first,
            second,
        })
    }

    /// Every game, in order.
    pub fn iter(&self) -> impl Iterator<Item = Slot> + '_ {
        (0..self.len()).filter_map(|g| self.slot(g))
    }
}

/// `--shard I/N`: the I-th of N interleaved slices of the pairs (so both
/// games of a pair land in the same shard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// The most shards a run is split into.
pub(super) const MAX_SHARDS: u32 = 100_000;

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "'{}' is not a shard: write I/N with 1 ≤ I ≤ N ≤ {MAX_SHARDS}, e.g. 2/8",
                kxo_engine::text::shown(text)
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let shard = Shard {
            index: i.trim().parse().map_err(|_| bad())?,
            count: n.trim().parse().map_err(|_| bad())?,
        };
        shard.check().map_err(|_| bad())?;
        Ok(shard)
    }

    /// Whether the numbers make a shard (a state file may say anything).
    pub fn check(&self) -> Result<(), String> {
        if self.index == 0 || self.index > self.count || self.count > MAX_SHARDS {
            return Err(format!(
                "shard {}/{} is not one: 1 ≤ I ≤ N ≤ {MAX_SHARDS}",
                self.index, self.count
            ));
        }
        Ok(())
    }

    pub fn holds(&self, slot: &Slot) -> bool {
        slot.pair % self.count == self.index - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::SpecText;

    fn settings(engines: usize, format: Format, games: u32, repeat: bool) -> Settings {
        Settings {
            engines: (0..engines)
                .map(|i| SpecText {
                    name: format!("e{i}"),
                    spec: "random".into(),
                })
                .collect(),
            format,
            games,
            repeat,
            ..Settings::example()
        }
    }

    /// The schedule as a list, written the plain way: what the arithmetic
    /// must give.
    fn listed(settings: &Settings) -> Vec<Slot> {
        let pairings = pairings(settings.engines.len(), settings.format);
        let rounds = if settings.repeat {
            settings.games.div_ceil(2)
        } else {
            settings.games
        };
        let mut slots = Vec::new();
        for round in 0..rounds {
            for (k, &(a, b)) in pairings.iter().enumerate() {
                let pair = round * pairings.len() as u32 + k as u32;
                let mut push = |first, second| {
                    slots.push(Slot {
                        game: slots.len() as u32,
                        pair,
                        round,
                        first,
                        second,
                    })
                };
                push(a, b);
                if settings.repeat && 2 * round + 1 < settings.games {
                    push(b, a);
                }
            }
        }
        slots
    }

    #[test]
    fn the_arithmetic_gives_the_listed_schedule() {
        for engines in 2..6 {
            for format in [Format::RoundRobin, Format::Gauntlet] {
                for games in 1..8 {
                    for repeat in [true, false] {
                        let s = settings(engines, format, games, repeat);
                        let schedule = Schedule::new(&s);
                        let listed = listed(&s);
                        assert_eq!(schedule.iter().collect::<Vec<_>>(), listed);
                        assert_eq!(
                            Schedule::count(engines, format, games),
                            Some(listed.len() as u32)
                        );
                        for slot in &listed {
                            let len = listed.iter().filter(|s| s.pair == slot.pair).count();
                            assert_eq!(schedule.pair_len(slot.pair), len as u32);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn pairs_swap_colours_on_the_same_opening() {
        let schedule = Schedule::new(&settings(2, Format::RoundRobin, 6, true));
        let slots: Vec<Slot> = schedule.iter().collect();
        assert_eq!(slots.len(), 6);
        for pair in slots.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].round, pair[1].round);
            assert_eq!((pair[0].first, pair[0].second), (0, 1));
            assert_eq!((pair[1].first, pair[1].second), (1, 0));
        }
        // Ten million games are arithmetic, not a list.
        let huge = Schedule::new(&settings(2, Format::RoundRobin, 10_000_000, true));
        assert_eq!(huge.len(), 10_000_000);
        assert_eq!(huge.slot(9_999_999).map(|s| s.pair), Some(4_999_999));
        assert_eq!(huge.slot(10_000_000), None);
        assert_eq!(
            Schedule::count(100_000, Format::RoundRobin, 10_000_000),
            None
        );
    }

    #[test]
    fn round_robin_and_gauntlet_pair_the_engines() {
        assert_eq!(
            pairings(4, Format::RoundRobin),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings(4, Format::Gauntlet), [(0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn shards_split_whole_pairs_and_cover_the_schedule_once() {
        let schedule = Schedule::new(&settings(3, Format::RoundRobin, 6, true));
        let slots: Vec<Slot> = schedule.iter().collect();
        let shards: Vec<Shard> = (1..=4)
            .map(|i| Shard::parse(&format!("{i}/4")).unwrap())
            .collect();
        for slot in &slots {
            assert_eq!(shards.iter().filter(|s| s.holds(slot)).count(), 1);
        }
        for pair in slots.chunks(2) {
            for s in &shards {
                assert_eq!(s.holds(&pair[0]), s.holds(&pair[1]));
            }
        }
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "1/4294967295"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
