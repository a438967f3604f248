//! The kinds of engine: one list, one file per kind.
//!
//! **Adding an engine is one new file in this folder and one line in the
//! list at the foot of this file.** The file holds the kind's [`Entry`]:
//! its names, its label and its factory. Everything else reads the list:
//! the names the command line and `arena` take, the screen's labels, the
//! columns of the Load tab and the leaderboard, the live screen's random
//! pairings, the tests that play every kind.

use std::fmt;
use std::str::FromStr;

use super::{Engine, ThinkLimit, rl};
use crate::game::Rules;

/// What the factory is given to build an engine.
#[derive(Clone, Copy)]
pub struct Recipe<'a> {
    pub rules: Rules,
    pub limit: ThinkLimit,
    pub seed: u64,
    /// The learning player's table to use and learn into; `None`: a fresh
    /// one of its own. Other kinds ignore it.
    pub table: Option<&'a rl::SharedTable>,
}

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
    /// Builds one, for any board (small boards and Gomoku boards alike).
    pub make: fn(&Recipe) -> Box<dyn Engine>,
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
            "unknown engine '{}': choose one of {}, or brain:PATH [ARGS]",
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
}

#[cfg(test)]
mod tests;
