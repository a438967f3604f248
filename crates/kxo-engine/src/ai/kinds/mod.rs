//! The kinds of engine: one list, one file per kind.
//!
//! **Adding an engine is one new file in this folder and one line in the
//! list at the foot of this file.** The file holds the kind's [`Entry`]:
//! its names, its label, its options, its limit when the run names none,
//! and its factory. Everything else reads the list: the names the command
//! line and `arena` take with their options (`mcts:iterations=500`), the
//! screen's labels, the columns of the Load tab and the leaderboard, the
//! live screen's random pairings, the tests that play every kind.

use std::fmt;
use std::str::FromStr;

use super::{Engine, GoEngine, Limit, rl};
use crate::game::Rules;

/// What the factory is given to build an engine.
#[derive(Clone, Copy)]
pub struct Recipe<'a> {
    pub rules: Rules,
    pub seed: u64,
    /// The kind's own options, as a spec set them (checked against its
    /// list); the defaults where none was set.
    pub options: &'a Options,
    /// The learning player's table to use and learn into; `None`: a fresh
    /// one of its own. Other kinds ignore it.
    pub table: Option<&'a rl::SharedTable>,
    /// The learner's line patterns as window values, for an evaluation
    /// that reads them (Negamax's `eval=learned`); the program reads the
    /// model that holds them.
    pub window_values: Option<&'a [Vec<i32>; 2]>,
}

impl Recipe<'static> {
    /// The recipe of an engine with its default options, no table.
    pub fn new(rules: Rules, seed: u64) -> Recipe<'static> {
        static NONE: Options = Options::NONE;
        Recipe {
            rules,
            seed,
            options: &NONE,
            table: None,
            window_values: None,
        }
    }
}

/// One of a kind's own options: its name, the values it takes, and what
/// it is for.
pub struct EngineOption {
    /// Its name in a spec: `iterations` in `mcts:iterations=500`.
    pub name: &'static str,
    /// Other names it answers to.
    pub aliases: &'static [&'static str],
    pub values: OptionValues,
    /// Whether it is the kind's work a move (MCTS's iterations): it then
    /// becomes the seat's [`Limit`], not a setting of the engine.
    pub work: bool,
}

/// The values an option takes.
pub enum OptionValues {
    Number { min: u64, max: u64 },
    Choice(&'static [&'static str]),
}

impl EngineOption {
    /// The value as the option takes it (a choice by its own spelling),
    /// or why not, in the words a user reads.
    pub fn check(&self, value: &str) -> Result<String, String> {
        let shown = crate::text::shown(value);
        match self.values {
            OptionValues::Number { min, max } => value
                .parse::<u64>()
                .ok()
                .filter(|v| (min..=max).contains(v))
                .map(|v| v.to_string())
                .ok_or_else(|| {
                    format!(
                        "{}: '{shown}' is not a number from {min} to {max}",
                        self.name
                    )
                }),
            OptionValues::Choice(choices) => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(value))
                .map(|c| c.to_string())
                .ok_or_else(|| {
                    format!(
                        "{}: '{shown}' is not one of {}: write {}",
                        self.name,
                        choices.join(", "),
                        choices
                            .iter()
                            .map(|c| format!("{}={c}", self.name))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    )
                }),
        }
    }

    /// How a message names it: `iterations=N`, `eval=shapes|learned`.
    pub fn usage(&self) -> String {
        match self.values {
            OptionValues::Number { .. } => format!("{}=N", self.name),
            OptionValues::Choice(choices) => format!("{}={}", self.name, choices.join("|")),
        }
    }
}

/// A kind's options as a spec set them, each checked against the kind's
/// list: (the option's name, its value), in the order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    set: Vec<(&'static str, String)>,
}

impl Options {
    /// No option set: every kind's defaults.
    pub const NONE: Options = Options { set: Vec::new() };

    /// Reads `key=value` as an option of `kind`: `Ok(false)` when the
    /// kind has no option of that name (the caller may know it), an error
    /// when it has but the value is not one it takes.
    pub fn set(&mut self, kind: BuiltIn, key: &str, value: &str) -> Result<bool, String> {
        let Some(option) = kind.option(key) else {
            return Ok(false);
        };
        let value = option.check(value)?;
        self.set.retain(|(name, _)| *name != option.name);
        self.set.push((option.name, value));
        Ok(true)
    }

    /// The value set for the option `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.set
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether option `name` is set to `value`.
    pub fn is(&self, name: &str, value: &str) -> bool {
        self.get(name) == Some(value)
    }

    /// Every option set, in order: (name, value).
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.set.iter().map(|(n, v)| (*n, v.as_str()))
    }

    /// The work a move the options set, for a kind whose option it is
    /// (MCTS's `iterations=`).
    pub fn work(&self, kind: BuiltIn) -> Option<u64> {
        kind.entry()
            .options
            .iter()
            .filter(|o| o.work)
            .find_map(|o| self.get(o.name))
            .and_then(|v| v.parse().ok())
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

/// A kind's factory of Go engines.
pub type MakeGo = fn(&Recipe) -> Box<dyn GoEngine>;

/// One built-in engine, as the rest of the program knows it.
pub struct Entry {
    /// Its name on the command line: "negamax".
    pub name: &'static str,
    /// Other names it answers to, lower case: "nega".
    pub aliases: &'static [&'static str],
    /// Its label on screen, at most five letters: "NEGA".
    pub label: &'static str,
    /// What its work counter counts, per CPU second: "nodes/s".
    pub work_unit: &'static str,
    /// Its own options, which a spec sets after its name
    /// (`mcts:iterations=500`, `negamax:eval=learned`).
    pub options: &'static [EngineOption],
    /// Its limit a move when neither its spec nor the run names one.
    pub default_limit: fn(Rules) -> Limit,
    /// Builds one, for any board (small boards and Gomoku boards alike).
    pub make: fn(&Recipe) -> Box<dyn Engine>,
    /// Builds one for Go, if the kind plays it.
    pub make_go: Option<MakeGo>,
}

/// Declares the kinds: a module per kind (the file of the same name) and
/// the enum (here [`BuiltIn`]) whose variants map to their entries.
macro_rules! engine_kinds {
    ($vis:vis enum $enum:ident; $($kind:ident => $file:ident,)+) => {
        $(mod $file;)+

        /// The engines built into kxo-tui, declared by the list in
        /// `ai/kinds/mod.rs`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $enum {
            $($kind,)+
        }

        impl $enum {
            $vis const COUNT: usize = [$(stringify!($kind)),+].len();
            /// Every kind, in the list's order.
            $vis const ALL: [$enum; $enum::COUNT] = [$($enum::$kind),+];

            /// What the program knows about this kind.
            $vis fn entry(self) -> &'static Entry {
                match self {
                    $($enum::$kind => &$file::ENTRY,)+
                }
            }
        }
    };
}

impl BuiltIn {
    /// Builds an engine of this kind.
    pub fn make(self, recipe: &Recipe) -> Box<dyn Engine> {
        (self.entry().make)(recipe)
    }

    /// The kind the screen and the statistics count it as.
    pub fn kind(self) -> EngineKind {
        EngineKind::BuiltIn(self)
    }

    /// Builds a Go engine of this kind, if it plays Go.
    pub fn make_go(self, recipe: &Recipe) -> Option<Box<dyn GoEngine>> {
        self.entry().make_go.map(|make| make(recipe))
    }

    /// Whether it plays Go.
    pub fn plays_go(self) -> bool {
        self.entry().make_go.is_some()
    }

    /// Its option called `name` (or by an alias).
    pub fn option(self, name: &str) -> Option<&'static EngineOption> {
        self.entry()
            .options
            .iter()
            .find(|o| o.name == name || o.aliases.contains(&name))
    }

    /// Its limit a move when none is named, on `rules`.
    pub fn default_limit(self, rules: Rules) -> Limit {
        (self.entry().default_limit)(rules)
    }

    /// The names the command line takes, for messages: "random, negamax, …".
    pub fn names() -> String {
        let names: Vec<&str> = BuiltIn::ALL.iter().map(|k| k.entry().name).collect();
        names.join(", ")
    }
}

impl fmt::Display for BuiltIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.entry().name)
    }
}

impl FromStr for BuiltIn {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.to_ascii_lowercase();
        let named = |k: &&BuiltIn| {
            let entry = k.entry();
            entry.name == wanted || entry.aliases.contains(&wanted.as_str())
        };
        if let Some(&kind) = BuiltIn::ALL.iter().find(named) {
            return Ok(kind);
        }
        if wanted == "brain" {
            return Err("an outside brain needs its program: brain:PATH [ARGS]".into());
        }
        Err(format!(
            "unknown engine '{}': choose one of {}, brain:PATH [ARGS] or gtp:PATH [ARGS]",
            crate::text::shown(s),
            BuiltIn::names()
        ))
    }
}

/// The engines a user can name, as the screen and the statistics count
/// them: the built-in kinds, and outside brains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineKind {
    BuiltIn(BuiltIn),
    /// An outside program speaking the Gomoku AI protocol
    /// (`brain:PATH [ARGS]`, made by the program, which knows its command).
    Brain,
}

impl EngineKind {
    pub const COUNT: usize = BuiltIn::COUNT + 1;
    /// Every kind: the built-in ones in the list's order, then brains.
    pub const ALL: [EngineKind; EngineKind::COUNT] = {
        let mut all = [EngineKind::Brain; EngineKind::COUNT];
        let mut i = 0;
        while i < BuiltIn::COUNT {
            all[i] = EngineKind::BuiltIn(BuiltIn::ALL[i]);
            i += 1;
        }
        all
    };

    /// Where this kind sits in [`EngineKind::ALL`] (statistics are arrays
    /// in that order).
    pub fn index(self) -> usize {
        match self {
            EngineKind::BuiltIn(kind) => kind as usize,
            EngineKind::Brain => BuiltIn::COUNT,
        }
    }

    /// The built-in engine of this kind; `None` for an outside brain.
    pub fn built_in(self) -> Option<BuiltIn> {
        match self {
            EngineKind::BuiltIn(kind) => Some(kind),
            EngineKind::Brain => None,
        }
    }

    /// Short label for the screen: "MCTS", "NEGA", "BRAIN".
    pub fn label(self) -> &'static str {
        self.built_in().map_or("BRAIN", |k| k.entry().label)
    }

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        self.built_in().map_or("brain", |k| k.entry().name)
    }

    /// What its work counter counts, per CPU second.
    pub fn work_unit(self) -> &'static str {
        self.built_in().map_or("nodes/s", |k| k.entry().work_unit)
    }

    /// The built-in engines (the ones a random pairing picks from).
    pub fn playable() -> Vec<EngineKind> {
        BuiltIn::ALL.iter().map(|&k| k.kind()).collect()
    }

    /// The built-in engines that play the game of `rules` (all of them
    /// the line games; in Go the kinds with a Go engine).
    pub fn playable_on(rules: Rules) -> Vec<EngineKind> {
        BuiltIn::ALL
            .iter()
            .filter(|k| !rules.is_go() || k.plays_go())
            .map(|&k| k.kind())
            .collect()
    }
}

impl From<BuiltIn> for EngineKind {
    fn from(kind: BuiltIn) -> EngineKind {
        kind.kind()
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// The list. A new engine: its file here, and its line below.
engine_kinds! {
    pub enum BuiltIn;
    Random => random,
    Negamax => negamax,
    Mcts => mcts,
    Rl => rl_player,
    Greedy => greedy,
}

#[cfg(test)]
mod tests;
