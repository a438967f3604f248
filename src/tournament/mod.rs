//! Tournaments between engines: what `kxo-tui arena` plays.
//!
//! A run is a list of games fixed by its settings and seed
//! ([`schedule`]): for each pairing of engines (round-robin or gauntlet),
//! rounds of one opening each, played twice with colours swapped. Each
//! game's engines are seeded from the run's seed and the game's number,
//! so a game is the same whichever thread, shard or rerun plays it. The
//! report ([`report::Report`]) is a function of the settings and the
//! finished games alone, which is what lets a run resume from its state
//! file and shards merge into the report of one run.

pub mod opening;
mod play;
pub mod records;
pub mod report;
pub mod spec;
pub mod state;
pub mod stats;

use serde::{Deserialize, Serialize};

pub use opening::{Opening, Openings};
pub use play::{Clocks, run};
pub use report::Report;
pub use spec::{EngineSpec, SeatEngine, SpecEngine};
pub use stats::{Pentanomial, Sprt, Verdict};

use crate::ai::ThinkLimit;
use crate::game::Rules;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "round-robin" | "roundrobin" | "rr" => Ok(Format::RoundRobin),
            "gauntlet" => Ok(Format::Gauntlet),
            _ => Err(format!(
                "'{}' is not a format: use round-robin or gauntlet",
                crate::text::shown(s)
            )),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
        })
    }
}

/// Everything that fixes a run's games and their results: written as the
/// first line of the state file, compared when a run resumes, and shared
/// by the shards that `arena merge` combines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub size: u8,
    pub goal: u8,
    /// The engines, `NAME=SPEC` as given.
    pub engines: Vec<spec::SpecText>,
    pub format: Format,
    /// Games per pairing of two engines.
    pub games: u32,
    /// Each opening twice, colours swapped.
    pub repeat: bool,
    /// `none`, `random`, or the file's count and checksum.
    pub openings: String,
    pub seed: u64,
    /// Time per move for engines with none of their own (ms), or MCTS
    /// iterations when there is no clock.
    pub think_ms: Option<u64>,
    pub mcts_iterations: Option<u32>,
    /// Each side's clock for a whole game (ms).
    pub match_ms: Option<u64>,
    pub sprt: Option<Sprt>,
}

impl Settings {
    pub fn rules(&self) -> Result<Rules, String> {
        Rules::new(self.size, self.goal).map_err(|e| e.to_string())
    }

    pub fn limit(&self) -> ThinkLimit {
        match (self.think_ms, self.mcts_iterations) {
            (Some(ms), _) => ThinkLimit::Millis(ms),
            (None, Some(mcts_iterations)) => ThinkLimit::Default { mcts_iterations },
            (None, None) => ThinkLimit::default(),
        }
    }
}

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

/// Every game of the run, in order: round by round, each pairing's pair
/// (its first engine first, then colours swapped).
pub fn schedule(settings: &Settings) -> Vec<Slot> {
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
            // The last round of an odd count plays its opening once.
            if settings.repeat && 2 * round + 1 < settings.games {
                push(b, a);
            }
        }
    }
    slots
}

/// `--shard I/N`: the I-th of N interleaved slices of the pairs (so both
/// games of a pair land in the same shard).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "'{}' is not a shard: write I/N with 1 ≤ I ≤ N, e.g. 2/8",
                crate::text::shown(text)
            )
        };
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count || count > 100_000 {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    pub fn holds(&self, slot: &Slot) -> bool {
        slot.pair % self.count == self.index - 1
    }
}

/// Who won a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    First,
    Second,
    Draw,
}

/// A finished game, as the state file keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedGame {
    pub game: u32,
    /// The engines' names, first player (O) first.
    pub first: String,
    pub second: String,
    /// How many of the moves are the opening's.
    pub opening: usize,
    /// Cell indices (`row * size + col`), the opening's first.
    pub moves: Vec<u16>,
    /// Thinking time of each move in microseconds (0 for the opening's).
    pub us: Vec<u64>,
    pub result: GameResult,
    pub end: End,
    /// In words: "5 in a row", "board full", "mine (X) forfeits: the
    /// brain exited", "mine (O) loses on time: …".
    pub reason: String,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// K in a row.
    Line,
    /// The board full: a draw.
    Full,
    /// A side failed (an outside brain crashed, cheated, was late).
    Forfeit,
    /// A side overran its match clock.
    Time,
}

/// A tournament the live screen shows: its engines, settings and games.
#[derive(Clone, Debug)]
pub struct Plan {
    pub specs: Vec<EngineSpec>,
    pub settings: Settings,
    pub openings: Openings,
    /// [`schedule`]'s games, in the order the boxes take them.
    pub slots: Vec<Slot>,
}

impl Plan {
    pub fn new(specs: Vec<EngineSpec>, settings: Settings, openings: Openings) -> Plan {
        let slots = schedule(&settings);
        Plan {
            specs,
            settings,
            openings,
            slots,
        }
    }

    /// The opening of a game of the plan.
    pub fn opening(&self, slot: &Slot) -> Opening {
        match self.settings.rules() {
            Ok(rules) => self.openings.get(rules, self.settings.seed, slot.round),
            Err(_) => Vec::new(),
        }
    }
}

/// A seed per game and side: SplitMix64's finaliser, so nearby games get
/// unrelated seeds.
pub fn seed_for(seed: u64, game: u32, side: u64) -> u64 {
    let mut z = seed
        .wrapping_add((game as u64) << 1 | side)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(engines: usize, format: Format, games: u32, repeat: bool) -> Settings {
        Settings {
            size: 4,
            goal: 3,
            engines: (0..engines)
                .map(|i| spec::SpecText {
                    name: format!("e{i}"),
                    spec: "random".into(),
                })
                .collect(),
            format,
            games,
            repeat,
            openings: "none".into(),
            seed: 1,
            think_ms: None,
            mcts_iterations: None,
            match_ms: None,
            sprt: None,
        }
    }

    #[test]
    fn pairs_swap_colours_on_the_same_opening() {
        let slots = schedule(&settings(2, Format::RoundRobin, 6, true));
        assert_eq!(slots.len(), 6);
        for pair in slots.chunks(2) {
            assert_eq!(pair[0].pair, pair[1].pair);
            assert_eq!(pair[0].round, pair[1].round);
            assert_eq!((pair[0].first, pair[0].second), (0, 1));
            assert_eq!((pair[1].first, pair[1].second), (1, 0));
        }
        // An odd count: the last opening once.
        let slots = schedule(&settings(2, Format::RoundRobin, 5, true));
        assert_eq!(slots.len(), 5);
        assert_eq!(slots[4].pair, 2);
        // Without repeat: the first engine always first.
        let slots = schedule(&settings(2, Format::RoundRobin, 3, false));
        assert!(slots.iter().all(|s| s.first == 0));
        assert_eq!(slots.iter().map(|s| s.pair).collect::<Vec<_>>(), [0, 1, 2]);
    }

    #[test]
    fn round_robin_and_gauntlet_pair_the_engines() {
        assert_eq!(
            pairings(4, Format::RoundRobin),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings(4, Format::Gauntlet), [(0, 1), (0, 2), (0, 3)]);
        let slots = schedule(&settings(3, Format::RoundRobin, 4, true));
        // 3 pairings x 2 rounds x 2 games; each engine plays 8 games, 4 first.
        assert_eq!(slots.len(), 12);
        for e in 0..3 {
            assert_eq!(slots.iter().filter(|s| s.first == e).count(), 4);
            assert_eq!(slots.iter().filter(|s| s.second == e).count(), 4);
        }
        assert!(slots.iter().enumerate().all(|(i, s)| s.game == i as u32));
    }

    #[test]
    fn shards_split_whole_pairs_and_cover_the_schedule_once() {
        let slots = schedule(&settings(3, Format::RoundRobin, 6, true));
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
        for bad in ["0/4", "5/4", "1", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }
}
