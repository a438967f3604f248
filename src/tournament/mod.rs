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

mod clock;
pub mod game_file;
pub mod opening;
pub mod pgn;
mod play;
pub mod records;
pub(crate) mod report;
mod schedule;
pub mod sgf;
pub mod state;
mod stats;
mod tally;

use serde::{Deserialize, Serialize};

use crate::engines::EngineSpec;
pub use opening::{Opening, Openings};
pub use play::{Clocks, Ended, run};
pub use report::Report;
pub use schedule::{Schedule, Shard, Slot, pairings};
pub use stats::{Pentanomial, Sprt, Verdict};
pub use tally::Tally;

use kxo_engine::{Rule, Rules};

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
                kxo_engine::text::shown(s)
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
    /// Which lines win (runs from before the standard rule read as
    /// free-style).
    #[serde(default, skip_serializing_if = "Rule::is_freestyle")]
    pub rule: Rule,
    /// Go's komi in half points and its handicap stones (runs of the
    /// line games have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub komi2: Option<i16>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub handicap: u8,
    /// The engines, `NAME=SPEC` as given.
    pub engines: Vec<crate::engines::SpecText>,
    pub format: Format,
    /// Games per pairing of two engines.
    pub games: u32,
    /// Each opening twice, colours swapped.
    pub repeat: bool,
    /// `none`, `random`, or the file's count and checksum.
    pub openings: String,
    pub seed: u64,
    /// The run's limit a move, for engines with none of their own (kept
    /// as `think_ms` and `mcts_iterations`, as state files always had it).
    #[serde(flatten)]
    pub limit: crate::engines::RunLimit,
    /// Each side's clock for a whole game (ms), and what each move adds
    /// to it (`--tc BASE+INC`).
    pub match_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub increment_ms: Option<u64>,
    /// How late a move may be before it loses on time (ms; see
    /// [`clock`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin_ms: Option<u64>,
    pub sprt: Option<Sprt>,
}

/// For `skip_serializing_if`: a handicap of none.
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// The most moves a game of Go may take, a cell: at that many it is
/// scored as it stands (real games take under two a cell).
pub const GO_MOVES_PER_CELL: usize = 4;

/// The most engines a run plays (a round-robin of 100 is 4,950 pairings).
pub const MAX_ENGINES: usize = 100;
/// The most games per pairing (as `--games` allows).
pub const MAX_GAMES: u32 = 10_000_000;
/// The longest engine name and spec a run keeps.
const MAX_NAME: usize = 64;
const MAX_SPEC: usize = 4096;
/// The longest reason a game line may give: a brain's escaped words, or
/// the dead stones of a 19x19 game named, stay far below.
pub(crate) const MAX_REASON: usize = 16 << 10;

/// Whether `text` is plain: no control character, so that a state file
/// from anywhere (a shard from another machine is outside text) can put
/// nothing on a terminal but its words.
pub(crate) fn plain(text: &str) -> bool {
    !text.chars().any(char::is_control)
}
/// The longest clock, a day in milliseconds.
const MAX_MS: u64 = 86_400_000;

impl Settings {
    /// The run's time control in words: its game clock (`tc 60+0.6`) and
    /// its limit a move (`200 ms a move`, `MCTS 2000 iterations a move`),
    /// else each engine's own default.
    pub fn time_control(&self) -> String {
        let clock = self.match_ms.map(|base| {
            format!(
                "tc {}",
                crate::engines::tc_text(base, self.increment_ms.unwrap_or(0))
            )
        });
        let each = match self.limit {
            crate::engines::RunLimit::Millis(ms) => Some(format!("{ms} ms a move")),
            crate::engines::RunLimit::MctsIterations(n) => {
                Some(format!("MCTS {n} iterations a move"))
            }
            crate::engines::RunLimit::Default => None,
        };
        match (clock, each) {
            (Some(clock), Some(each)) => format!("{clock}, {each}"),
            (Some(one), None) | (None, Some(one)) => one,
            (None, None) => "each engine's default time".into(),
        }
    }

    pub fn rules(&self) -> Result<Rules, String> {
        if self.rule == Rule::Go {
            let komi2 = self.komi2.unwrap_or(kxo_engine::GO_KOMI2);
            return Rules::go(self.size, komi2, self.handicap).map_err(|e| e.to_string());
        }
        let rules = Rules::new(self.size, self.goal).map_err(|e| e.to_string())?;
        Ok(rules.with_rule(self.rule))
    }

    /// The fields of `rules`, as settings keep them.
    pub fn set_rules(&mut self, rules: Rules) {
        self.size = rules.size();
        self.goal = rules.goal();
        self.rule = rules.rule();
        self.komi2 = rules.is_go().then(|| rules.komi2());
        self.handicap = rules.handicap();
    }

    /// Refuses settings no run can have (from the command line, or read
    /// from a state file that may say anything), before anything is
    /// allocated for them.
    pub fn check(&self) -> Result<(), String> {
        self.rules()?;
        let engines = self.engines.len();
        if !(2..=MAX_ENGINES).contains(&engines) {
            return Err(format!(
                "a run plays 2 to {MAX_ENGINES} engines, not {engines}"
            ));
        }
        for (i, e) in self.engines.iter().enumerate() {
            if e.name.is_empty() || e.name.len() > MAX_NAME || e.spec.len() > MAX_SPEC {
                return Err(format!("engine {} has no name or too long a one", i + 1));
            }
            if !plain(&e.name) || !plain(&e.spec) {
                return Err(format!(
                    "engine {}'s name or program holds a control character: '{}'",
                    i + 1,
                    kxo_engine::text::shown(&e.name)
                ));
            }
            if self.engines[..i].iter().any(|other| other.name == e.name) {
                return Err(format!(
                    "two engines are called '{}': give each its own NAME",
                    kxo_engine::text::shown(&e.name)
                ));
            }
        }
        if !(1..=MAX_GAMES).contains(&self.games) {
            return Err(format!(
                "a pairing plays 1 to {MAX_GAMES} games, not {}",
                self.games
            ));
        }
        if Schedule::count(engines, self.format, self.games).is_none() {
            return Err(format!(
                "{engines} engines playing {} games a pairing ({}) make more games than a run can number",
                self.games, self.format
            ));
        }
        let clock = |ms: Option<u64>| ms.is_some_and(|ms| ms == 0 || ms > MAX_MS);
        let (think_ms, mcts_iterations) = self.limit.parts();
        if clock(think_ms) || clock(self.match_ms) || mcts_iterations == Some(0) {
            return Err("a clock is 1 ms to a day, an iteration count at least 1".into());
        }
        if [self.increment_ms, self.margin_ms]
            .iter()
            .any(|ms| ms.is_some_and(|ms| ms > MAX_MS))
        {
            return Err("an increment or a margin is at most a day".into());
        }
        if self.increment_ms.is_some() && self.match_ms.is_none() {
            return Err("an increment needs a game clock".into());
        }
        if self.openings.len() > 256 {
            return Err("the openings' description is too long".into());
        }
        if !plain(&self.openings) {
            return Err("the openings' description holds a control character".into());
        }
        if let Some(sprt) = self.sprt {
            if engines != 2 || !self.repeat {
                return Err(
                    "--sprt tests two engines on paired games: give two engines and no --no-repeat"
                        .into(),
                );
            }
            let text = format!(
                "elo0={},elo1={},alpha={},beta={}",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            );
            Sprt::parse(&text)?;
        }
        Ok(())
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
    /// Each side's CPU time over the game in microseconds, first player
    /// first: a built-in's thread, a brain's process (0 in states written
    /// before it was kept).
    #[serde(default)]
    pub cpu_us: [u64; 2],
    pub result: GameResult,
    pub end: End,
    /// In words: "5 in a row", "board full", "mine (X) forfeits: the
    /// brain exited", "mine (O) loses on time: …".
    pub reason: String,
    /// With `arena --log`: each brain's side ("mine (X)") and what it and
    /// kxo-tui said in this game. Written to the log folder, never to the
    /// state file.
    #[serde(skip)]
    pub transcripts: Vec<(String, Vec<String>)>,
}

impl PlayedGame {
    /// The game's number as people count, from 1 (`game-0001.sgf`): in
    /// u64, so that the last game a state line can name is no game 0.
    pub fn number(&self) -> u64 {
        u64::from(self.game) + 1
    }
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
    /// A side overran its time (see [`clock`]).
    Time,
    /// Go: two passes, and the count (area with komi).
    Score,
    /// Go: a side resigned.
    Resign,
}

/// A tournament the live screen shows: its engines, settings and games.
#[derive(Clone, Debug)]
pub struct Plan {
    pub specs: Vec<EngineSpec>,
    pub settings: Settings,
    pub openings: Openings,
    /// Its games, in the order the boxes take them.
    pub schedule: Schedule,
}

impl Plan {
    /// The plan of checked settings (see [`Settings::check`]).
    pub fn new(specs: Vec<EngineSpec>, settings: Settings, openings: Openings) -> Plan {
        Plan {
            schedule: Schedule::new(&settings),
            specs,
            settings,
            openings,
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
impl Settings {
    /// Settings of a small run, for tests to vary.
    pub(crate) fn example() -> Settings {
        Settings {
            size: 4,
            goal: 3,
            rule: Rule::Freestyle,
            komi2: None,
            handicap: 0,
            engines: ["a", "b"]
                .map(|name| crate::engines::SpecText {
                    name: name.into(),
                    spec: "random".into(),
                })
                .to_vec(),
            format: Format::RoundRobin,
            games: 2,
            repeat: true,
            openings: "none".into(),
            seed: 1,
            limit: crate::engines::RunLimit::Default,
            match_ms: None,
            increment_ms: None,
            margin_ms: None,
            sprt: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_no_run_can_have_are_refused() {
        assert_eq!(Settings::example().check(), Ok(()));
        type Forge = fn(&mut Settings);
        let bad: [(&str, Forge); 7] = [
            ("board", |s| s.size = 200),
            ("goal", |s| s.goal = 0),
            ("no engines", |s| s.engines.clear()),
            ("games", |s| s.games = u32::MAX),
            ("too many", |s| {
                s.engines = (0..MAX_ENGINES + 1)
                    .map(|i| crate::engines::SpecText {
                        name: format!("e{i}"),
                        spec: "random".into(),
                    })
                    .collect()
            }),
            ("same name", |s| s.engines[1].name = "a".into()),
            ("clock", |s| s.limit = crate::engines::RunLimit::Millis(0)),
        ];
        for (what, forge) in bad {
            let mut s = Settings::example();
            forge(&mut s);
            assert!(s.check().is_err(), "{what}");
        }
    }
}
