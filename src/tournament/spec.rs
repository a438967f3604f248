//! `--engine NAME=SPEC`: a named participant of a tournament.
//!
//! SPEC is a built-in engine with options (`mcts`, `mcts:think-ms=300`,
//! `negamax:think-ms=50`, `mcts:iterations=2000`) or an outside program
//! (`brain:PATH ARGS`).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::ai::rl::SharedTable;
use crate::ai::{Engine, EngineKind, ThinkLimit, make_engine_with};
use crate::game::Rules;
use crate::protocol::outside::{BRAIN_THINK, BrainCommand, OutsideBrain};
use crate::text::shown;

/// One participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How the reports call it.
    pub name: String,
    pub kind: EngineKind,
    /// The program, for [`EngineKind::Brain`].
    pub brain: Option<BrainCommand>,
    /// Its own time per move, over the run's `--think-ms`.
    pub think_ms: Option<u64>,
    /// Its own MCTS iterations per move.
    pub iterations: Option<u32>,
}

/// How a spec is written back: the text the user gave, for the state
/// file's fingerprint and the records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpecText {
    pub name: String,
    pub spec: String,
}

impl EngineSpec {
    /// Reads `NAME=SPEC`.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let (name, spec) = text.split_once('=').ok_or_else(|| {
            format!(
                "'{}' is not NAME=SPEC: write e.g. --engine fast=mcts:think-ms=100",
                shown(text)
            )
        })?;
        let name = name.trim();
        if name.is_empty()
            || name.len() > 24
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c))
        {
            return Err(format!(
                "'{}' is not an engine name: use 1 to 24 letters, digits, - _ . +",
                shown(name)
            ));
        }
        EngineSpec::from_spec(name, spec.trim())
    }

    /// A participant named `name` playing `spec`.
    pub fn from_spec(name: &str, spec: &str) -> Result<EngineSpec, String> {
        let mut out = EngineSpec {
            name: name.to_string(),
            kind: EngineKind::Brain,
            brain: None,
            think_ms: None,
            iterations: None,
        };
        if spec.starts_with("brain:") {
            out.brain = Some(BrainCommand::parse(spec)?);
            return Ok(out);
        }
        let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
        out.kind = kind.parse()?;
        for option in options.split(',').filter(|o| !o.trim().is_empty()) {
            let (key, value) = option.split_once('=').unwrap_or((option, ""));
            let number = |max: u64| {
                value
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|v| (1..=max).contains(v))
                    .ok_or_else(|| {
                        format!(
                            "{}: '{}' is not a number from 1 to {max}",
                            key.trim(),
                            shown(value)
                        )
                    })
            };
            match key.trim() {
                "think-ms" => out.think_ms = Some(number(600_000)?),
                "iterations" if out.kind == EngineKind::Mcts => {
                    out.iterations = Some(number(100_000_000)? as u32)
                }
                other => {
                    return Err(format!(
                        "'{}' is not an option of {kind}: use think-ms=T{}",
                        shown(other),
                        if out.kind == EngineKind::Mcts {
                            " or iterations=N"
                        } else {
                            ""
                        }
                    ));
                }
            }
        }
        if out.think_ms.is_some() && out.iterations.is_some() {
            return Err(format!("{name}: give think-ms or iterations, not both"));
        }
        Ok(out)
    }

    /// The participant an `--o`/`--x` seat names: called by its engine.
    pub fn for_seat(kind: EngineKind, brain: Option<BrainCommand>) -> EngineSpec {
        let name = match &brain {
            // Outside text: its control characters escaped before it is shown.
            Some(command) => crate::text::shown(command.name())
                .chars()
                .take(24)
                .collect(),
            None => kind.name().to_string(),
        };
        EngineSpec {
            name,
            kind,
            brain,
            think_ms: None,
            iterations: None,
        }
    }

    /// How long it thinks, given the run's limit.
    pub fn limit(&self, run: ThinkLimit) -> ThinkLimit {
        match (self.think_ms, self.iterations) {
            (Some(ms), _) => ThinkLimit::Millis(ms),
            (None, Some(mcts_iterations)) => ThinkLimit::Default { mcts_iterations },
            (None, None) => run,
        }
    }

    /// A brain's time per move: its own, the run's, or the protocol's
    /// default when nothing says.
    pub fn brain_think(&self, run: ThinkLimit) -> Duration {
        match self.limit(run) {
            ThinkLimit::Millis(ms) => Duration::from_millis(ms),
            ThinkLimit::Default { .. } => BRAIN_THINK,
        }
    }

    /// Its name and spec, as the settings keep them.
    pub fn text(&self) -> SpecText {
        SpecText {
            name: self.name.clone(),
            spec: self.spec_text(),
        }
    }

    /// The outside brain this spec names, if it names one, with its time
    /// per move (INFO timeout_turn).
    pub fn outside_brain(&self, rules: Rules, run: ThinkLimit) -> Option<OutsideBrain> {
        let command = self.brain.as_ref()?;
        Some(OutsideBrain::new(
            command.clone(),
            rules,
            self.brain_think(run),
        ))
    }

    /// The engine this spec names, fresh for one game: an outside brain,
    /// or a built-in engine seeded with `seed` under its own limit or the
    /// run's (a learning player learns into `rl`). The one place a seat's
    /// engine is made, for `arena` and the live screen alike.
    pub fn build(
        &self,
        rules: Rules,
        run: ThinkLimit,
        seed: u64,
        rl: Option<&SharedTable>,
    ) -> Box<dyn Engine> {
        match self.outside_brain(rules, run) {
            Some(brain) => Box::new(brain),
            None => make_engine_with(self.kind, rules, self.limit(run), seed, rl),
        }
    }

    /// The spec as text: `mcts:think-ms=300`, `brain:./x --flag`.
    pub fn spec_text(&self) -> String {
        if let Some(command) = &self.brain {
            return command.to_string();
        }
        let mut text = self.kind.name().to_string();
        if let Some(ms) = self.think_ms {
            text += &format!(":think-ms={ms}");
        }
        if let Some(n) = self.iterations {
            text += &format!(":iterations={n}");
        }
        text
    }
}

/// A tournament needs two engines or more, each with its own name.
pub fn check_names(engines: &[EngineSpec]) -> Result<(), String> {
    if engines.len() < 2 {
        return Err("a tournament needs at least two engines: give --engine twice or more".into());
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|other| other.name == e.name) {
            return Err(format!(
                "two engines are called '{}': give each its own NAME",
                e.name
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_kinds_options_and_brains() {
        let s = EngineSpec::parse("fast=mcts:think-ms=300").unwrap();
        assert_eq!(
            (s.name.as_str(), s.kind, s.think_ms),
            ("fast", EngineKind::Mcts, Some(300))
        );
        assert_eq!(s.limit(ThinkLimit::Millis(5)), ThinkLimit::Millis(300));
        assert_eq!(s.spec_text(), "mcts:think-ms=300");
        let s = EngineSpec::parse("m2=mcts:iterations=2000").unwrap();
        assert_eq!(
            s.limit(ThinkLimit::Millis(5)),
            ThinkLimit::Default {
                mcts_iterations: 2000
            }
        );
        let s = EngineSpec::parse("n=negamax").unwrap();
        assert_eq!(s.limit(ThinkLimit::Millis(5)), ThinkLimit::Millis(5));
        let s = EngineSpec::parse("mine=brain:./pbrain --level 'very hard'").unwrap();
        assert_eq!(s.kind, EngineKind::Brain);
        let command = s.brain.unwrap();
        assert_eq!(command.args, ["--level", "very hard"]);
    }

    #[test]
    fn bad_specs_are_refused_by_name() {
        for (text, needle) in [
            ("mcts", "not NAME=SPEC"),
            ("=mcts", "not an engine name"),
            ("a b=mcts", "not an engine name"),
            ("a=chess", "unknown engine"),
            ("a=mcts:think-ms=0", "not a number"),
            ("a=negamax:iterations=5", "not an option"),
            ("a=mcts:depth=3", "not an option"),
            ("a=mcts:think-ms=5,iterations=9", "not both"),
            ("a=brain:", "needs a program"),
        ] {
            let err = EngineSpec::parse(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
