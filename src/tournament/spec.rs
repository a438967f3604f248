//! `--engine NAME=SPEC`: a named participant of a tournament.
//!
//! SPEC is a built-in engine with options (`mcts`, `mcts:think-ms=300`,
//! `negamax:think-ms=50`, `mcts:iterations=2000`) or an outside program
//! (`brain:PATH ARGS`).

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::ai::rl::SharedTable;
use crate::ai::{
    Budget, BuiltIn, Engine, EngineKind, ThinkLimit, make_engine_with, make_learned_negamax,
};
use crate::game::{Cell, GameRecord, Player, Position, Rules};
use crate::protocol::outside::{BRAIN_THINK, BrainCommand, OutsideBrain};
use crate::text::shown;

/// One participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How the reports call it.
    pub name: String,
    pub engine: SpecEngine,
    /// Its own time per move, over the run's `--think-ms`.
    pub think_ms: Option<u64>,
    /// Its own MCTS iterations per move.
    pub iterations: Option<u32>,
    /// Negamax above 8x8: evaluate with the learner's line patterns
    /// (`eval=learned`) instead of the line count (`eval=shapes`).
    pub learned_eval: bool,
    /// With `learned_eval`: the evaluation by window pattern, read from
    /// the model before the run ([`EngineSpec::use_model`]).
    pub window_values: Option<std::sync::Arc<[Vec<i32>; 2]>>,
}

/// What plays for a participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecEngine {
    BuiltIn(BuiltIn),
    /// An outside program speaking the Gomoku AI protocol.
    Brain(BrainCommand),
}

impl SpecEngine {
    /// The kind the screen and the statistics count it as.
    pub fn kind(&self) -> EngineKind {
        match self {
            SpecEngine::BuiltIn(kind) => kind.kind(),
            SpecEngine::Brain(_) => EngineKind::Brain,
        }
    }
}

impl From<BuiltIn> for SpecEngine {
    fn from(kind: BuiltIn) -> SpecEngine {
        SpecEngine::BuiltIn(kind)
    }
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
        if spec.starts_with("brain:") {
            return Ok(EngineSpec::named(
                name.to_string(),
                SpecEngine::Brain(BrainCommand::parse(spec)?),
            ));
        }
        let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
        let built_in: BuiltIn = kind.parse()?;
        let mut out = EngineSpec::named(name.to_string(), SpecEngine::BuiltIn(built_in));
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
                "iterations" if built_in == BuiltIn::Mcts => {
                    out.iterations = Some(number(100_000_000)? as u32)
                }
                "eval" if built_in == BuiltIn::Negamax => {
                    out.learned_eval = match value.trim() {
                        "learned" => true,
                        "shapes" => false,
                        other => {
                            return Err(format!(
                                "eval: '{}' is not an evaluation: use eval=shapes or eval=learned",
                                shown(other)
                            ));
                        }
                    }
                }
                other => {
                    return Err(format!(
                        "'{}' is not an option of {kind}: use think-ms=T{}",
                        shown(other),
                        match built_in {
                            BuiltIn::Mcts => " or iterations=N",
                            BuiltIn::Negamax => " or eval=shapes|learned",
                            _ => "",
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

    fn named(name: String, engine: SpecEngine) -> EngineSpec {
        EngineSpec {
            name,
            engine,
            think_ms: None,
            iterations: None,
            learned_eval: false,
            window_values: None,
        }
    }

    /// The participant an `--o`/`--x` seat names: called by its engine.
    pub fn for_seat(engine: SpecEngine) -> EngineSpec {
        let name = match &engine {
            // Outside text: its control characters escaped before it is shown.
            SpecEngine::Brain(command) => crate::text::shown(command.name())
                .chars()
                .take(24)
                .collect(),
            SpecEngine::BuiltIn(kind) => kind.to_string(),
        };
        EngineSpec::named(name, engine)
    }

    /// The kind the statistics count it as.
    pub fn kind(&self) -> EngineKind {
        self.engine.kind()
    }

    /// How long it thinks, given the run's limit.
    pub fn limit(&self, run: ThinkLimit) -> ThinkLimit {
        match (self.think_ms, self.iterations) {
            (Some(ms), _) => ThinkLimit::Millis(ms),
            (None, Some(mcts_iterations)) => ThinkLimit::Default { mcts_iterations },
            (None, None) => run,
        }
    }

    /// Its name and spec, as the settings keep them.
    pub fn text(&self) -> SpecText {
        SpecText {
            name: self.name.clone(),
            spec: self.spec_text(),
        }
    }

    /// The engine this spec names, fresh for one game: an outside brain
    /// with its time per move (INFO timeout_turn), or a built-in engine
    /// seeded with `seed` under `limit` (a learning player learns into
    /// `rl`). The one place a seat's engine is made, for `arena` and the
    /// live screen alike.
    pub fn build_with(
        &self,
        rules: Rules,
        limit: ThinkLimit,
        seed: u64,
        rl: Option<&SharedTable>,
    ) -> SeatEngine {
        match &self.engine {
            SpecEngine::Brain(command) => SeatEngine::Outside(Box::new(OutsideBrain::new(
                command.clone(),
                rules,
                brain_think(limit),
            ))),
            SpecEngine::BuiltIn(BuiltIn::Negamax) if self.learned_eval => {
                // The run gave it the model before its first game.
                let values = self
                    .window_values
                    .as_deref()
                    .expect("eval=learned has its model");
                SeatEngine::BuiltIn(make_learned_negamax(rules, limit, seed, values.clone()))
            }
            SpecEngine::BuiltIn(kind) => {
                SeatEngine::BuiltIn(make_engine_with(*kind, rules, limit, seed, rl))
            }
        }
    }

    /// As [`EngineSpec::build_with`], under the spec's own limit or the
    /// run's.
    pub fn build(
        &self,
        rules: Rules,
        run: ThinkLimit,
        seed: u64,
        rl: Option<&SharedTable>,
    ) -> SeatEngine {
        self.build_with(rules, self.limit(run), seed, rl)
    }

    /// `eval=learned` is for boards above 8x8.
    pub fn check_board(&self, rules: Rules) -> Result<(), String> {
        match self.learned_eval && rules.is_small() {
            true => Err(format!(
                "{}: eval=learned is for boards above 8x8; below, Negamax solves the game",
                self.name
            )),
            false => Ok(()),
        }
    }

    /// With `eval=learned`: takes its evaluation from the learner's model
    /// of `rules` (boards above 8x8, a model that has learned).
    pub fn use_model(
        &mut self,
        rules: Rules,
        model: &crate::ai::rl::ValueTable,
    ) -> Result<(), String> {
        if !self.learned_eval {
            return Ok(());
        }
        self.check_board(rules)?;
        match model.patterns() {
            Some(patterns) if model.games > 0 => {
                self.window_values = Some(std::sync::Arc::new(patterns.window_values()));
                Ok(())
            }
            _ => Err(format!(
                "{}: eval=learned needs a model that has learned; train one first: \
                 kxo-tui train --size {} --goal {}",
                self.name,
                rules.size(),
                rules.goal()
            )),
        }
    }

    /// The spec as text: `mcts:think-ms=300`, `brain:./x --flag`.
    pub fn spec_text(&self) -> String {
        let kind = match &self.engine {
            SpecEngine::Brain(command) => return command.to_string(),
            SpecEngine::BuiltIn(kind) => kind,
        };
        let mut options = Vec::new();
        if let Some(ms) = self.think_ms {
            options.push(format!("think-ms={ms}"));
        }
        if let Some(n) = self.iterations {
            options.push(format!("iterations={n}"));
        }
        if self.learned_eval {
            options.push("eval=learned".to_string());
        }
        match options.is_empty() {
            true => kind.to_string(),
            false => format!("{kind}:{}", options.join(",")),
        }
    }
}

/// A brain's time per move under `limit`, or the protocol's default when
/// the limit is not a time.
fn brain_think(limit: ThinkLimit) -> Duration {
    match limit {
        ThinkLimit::Millis(ms) => Duration::from_millis(ms),
        ThinkLimit::Default { .. } => BRAIN_THINK,
    }
}

/// The engine in a seat for one game: built in, or an outside program,
/// which alone can fail (and forfeit), say things, and be told its clock.
pub enum SeatEngine {
    BuiltIn(Box<dyn Engine>),
    Outside(Box<OutsideBrain>),
}

impl SeatEngine {
    /// Its move in `pos`; `Err(reason)` when an outside brain crashed,
    /// cheated or ran out of time, and so forfeits the game.
    pub fn choose(&mut self, pos: &Position, budget: &mut dyn Budget) -> Result<Cell, String> {
        match self {
            SeatEngine::BuiltIn(engine) => Ok(engine.choose(pos, budget)),
            SeatEngine::Outside(brain) => brain.choose(pos, budget),
        }
    }

    /// The game's moves so far, in order (an outside brain sends them so
    /// when it needs the whole board).
    pub fn set_history(&mut self, moves: &[Cell]) {
        if let SeatEngine::Outside(brain) = self {
            brain.set_history(moves);
        }
    }

    /// Told how a game it played in ended (the learning player learns).
    pub fn game_over(&mut self, record: &GameRecord, me: Player) {
        if let SeatEngine::BuiltIn(engine) = self {
            engine.game_over(record, me);
        }
    }

    /// What it said since the last call (an outside brain's MESSAGE
    /// lines), for the Records tab.
    pub fn messages(&mut self) -> Vec<String> {
        match self {
            SeatEngine::BuiltIn(_) => Vec::new(),
            SeatEngine::Outside(brain) => brain.take_messages(),
        }
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
            (s.name.as_str(), s.kind(), s.think_ms),
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
        assert!(!s.learned_eval);
        let s = EngineSpec::parse("l=negamax:eval=learned,think-ms=50").unwrap();
        assert!(s.learned_eval);
        assert_eq!(s.spec_text(), "negamax:think-ms=50,eval=learned");
        assert_eq!(EngineSpec::from_spec("l", &s.spec_text()), Ok(s));
        let s = EngineSpec::parse("mine=brain:./pbrain --level 'very hard'").unwrap();
        assert_eq!(s.kind(), EngineKind::Brain);
        let SpecEngine::Brain(command) = s.engine else {
            panic!("not a brain: {:?}", s.engine);
        };
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
            ("a=negamax:eval=deep", "use eval=shapes or eval=learned"),
            ("a=mcts:eval=learned", "not an option"),
        ] {
            let err = EngineSpec::parse(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
