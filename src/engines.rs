//! The engines a run can seat, and the one factory that builds them:
//! built-in kinds (`ai::BuiltIn`) and outside brains, from a spec.
//!
//! `--engine NAME=SPEC`: a named participant of a tournament.
//!
//! SPEC is a built-in engine with options (`mcts`, `mcts:think-ms=300`,
//! `negamax:think-ms=50`, `mcts:iterations=2000`) or an outside program
//! (`brain:PATH ARGS`). Options for any engine may also come in brackets
//! after the name: `rapfi[tc=60+0.6,memory=64,option.hash=32]=brain:./r`.
//!
//! Options: `think-ms=T` (time per move), `tc=BASE+INC` (a game clock in
//! seconds, with an increment a move), `margin=MS` (how late a move may
//! be before it loses on time), `nodes=N` and `depth=D` (sent to a brain
//! as `INFO max_node` and `INFO max_depth`; `nodes` is MCTS's iterations),
//! `memory=MB` (a brain's `INFO max_memory`, 256 MB unless given),
//! `option.NAME=V` (sent to a brain as `INFO NAME V`); MCTS's
//! `iterations=N`, Negamax's `eval=shapes|learned`.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::protocol::outside::{
    BRAIN_THINK, BrainCommand, BrainSettings, OutsideBrain, PipeBudget,
};
use kxo_engine::learner::SharedTable;
use kxo_engine::text::shown;
use kxo_engine::{BuiltIn, Engine, EngineKind, ThinkLimit, make_engine_with, make_learned_negamax};
use kxo_engine::{Cell, GameRecord, Player, Position, Rules};

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
    /// Its own game clock, base and increment (ms), over the run's `--tc`.
    pub tc: Option<(u64, u64)>,
    /// Its own time margin (ms), over the run's `--time-margin`.
    pub margin_ms: Option<u64>,
    /// Limits sent to a brain (`INFO max_node`, `INFO max_depth`).
    pub nodes: Option<u64>,
    pub depth: Option<u64>,
    /// Memory it may use, in MB (`INFO max_memory`; a built-in's tables).
    pub memory_mb: Option<u64>,
    /// Options a brain is sent as `INFO NAME VALUE`, in order.
    pub options: Vec<(String, String)>,
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

/// A note for a run whose outside brains play a line other than five:
/// the Gomoku AI protocol tells a brain only the board size, so a brain
/// left at five would end games the run goes on with (and forfeit), or
/// play on past a line that won. `None` when no brain is in `engines` or
/// the line is five.
pub fn brain_goal_note<'a>(
    engines: impl IntoIterator<Item = &'a SpecEngine>,
    rules: Rules,
) -> Option<String> {
    let k = rules.goal();
    let brain = engines
        .into_iter()
        .any(|e| matches!(e, SpecEngine::Brain(_)));
    (brain && k != 5).then(|| {
        format!(
            "outside brains are told only the board size (the Gomoku AI protocol has no K): \
             set each to {k} in a row yourself, as 'brain:kxo-tui brain --goal {k}' is"
        )
    })
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
    /// Reads `NAME=SPEC` or `NAME[OPTIONS]=SPEC`.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let end = text.find(['=', '[']).ok_or_else(|| {
            format!(
                "'{}' is not NAME=SPEC: write e.g. --engine fast=mcts:think-ms=100",
                shown(text)
            )
        })?;
        let name = text[..end].trim();
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
        let rest = &text[end..];
        let (options, spec) = match rest.strip_prefix('[') {
            Some(inside) => {
                let (options, after) = inside.split_once(']').ok_or_else(|| {
                    format!("{name}: '[' without its ']' (write NAME[OPTIONS]=SPEC)")
                })?;
                let spec = after.strip_prefix('=').ok_or_else(|| {
                    format!("{name}: write NAME[OPTIONS]=SPEC, with '=' after ']'")
                })?;
                (format!("[{options}]"), spec)
            }
            None => (String::new(), &rest[1..]),
        };
        EngineSpec::from_spec(name, &format!("{options}{}", spec.trim()))
    }

    /// A participant named `name` playing `spec` (options in brackets may
    /// come first: `[tc=60+0.6]brain:./x`).
    pub fn from_spec(name: &str, spec: &str) -> Result<EngineSpec, String> {
        let (bracketed, spec) = match spec.strip_prefix('[') {
            Some(inside) => inside
                .split_once(']')
                .ok_or_else(|| format!("{name}: '[' without its ']'"))?,
            None => ("", spec),
        };
        let mut out = if spec.starts_with("brain:") {
            EngineSpec::named(
                name.to_string(),
                SpecEngine::Brain(BrainCommand::parse(spec)?),
            )
        } else {
            let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
            let built_in: BuiltIn = kind.parse()?;
            let mut out = EngineSpec::named(name.to_string(), SpecEngine::BuiltIn(built_in));
            out.read_options(options)?;
            out
        };
        out.read_options(bracketed)?;
        if out.think_ms.is_some() && out.iterations.is_some() {
            return Err(format!("{name}: give think-ms or iterations, not both"));
        }
        Ok(out)
    }

    /// Reads `key=value,…` options into the spec.
    fn read_options(&mut self, options: &str) -> Result<(), String> {
        let built_in = match &self.engine {
            SpecEngine::BuiltIn(kind) => Some(*kind),
            SpecEngine::Brain(_) => None,
        };
        for option in options.split(',').filter(|o| !o.trim().is_empty()) {
            let (key, value) = option.split_once('=').unwrap_or((option, ""));
            let (key, value) = (key.trim(), value.trim());
            let number_from = |min: u64, max: u64| {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|v| (min..=max).contains(v))
                    .ok_or_else(|| {
                        format!(
                            "{key}: '{}' is not a number from {min} to {max}",
                            shown(value)
                        )
                    })
            };
            let number = |max: u64| number_from(1, max);
            match (key, built_in) {
                ("think-ms", _) => self.think_ms = Some(number(600_000)?),
                ("tc", _) => self.tc = Some(parse_tc(value)?),
                // As --time-margin: none at all is a setting too.
                ("margin", _) => self.margin_ms = Some(number_from(0, 86_400_000)?),
                ("memory", None) => self.memory_mb = Some(number(1 << 20)?),
                ("nodes", None) => self.nodes = Some(number(u64::MAX >> 1)?),
                ("nodes" | "iterations", Some(BuiltIn::Mcts)) => {
                    self.iterations = Some(number(100_000_000)? as u32)
                }
                ("depth", None) => self.depth = Some(number(1000)?),
                ("eval", Some(BuiltIn::Negamax)) => {
                    self.learned_eval = match value {
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
                (option, None) if option.starts_with("option.") => {
                    let name = &option["option.".len()..];
                    let plain = |t: &str| {
                        !t.is_empty()
                            && t.len() <= 64
                            && t.chars().all(|c| c.is_ascii_graphic() && c != ',')
                    };
                    if !plain(name) || !plain(value) {
                        return Err(format!(
                            "'{}' is not an option a brain can be sent: option.NAME=VALUE, \
                             each printable, without spaces or commas",
                            shown(option)
                        ));
                    }
                    self.options.push((name.to_string(), value.to_string()));
                }
                (other, kind) => {
                    return Err(format!(
                        "'{}' is not an option of {}: use think-ms=T, tc=BASE+INC, margin=MS{}",
                        shown(other),
                        kind.map_or("a brain".to_string(), |k| k.to_string()),
                        match kind {
                            Some(BuiltIn::Mcts) => ", iterations=N or nodes=N",
                            Some(BuiltIn::Negamax) => " or eval=shapes|learned",
                            Some(_) => "",
                            None => ", memory=MB, nodes=N, depth=D or option.NAME=VALUE",
                        }
                    ));
                }
            }
        }
        Ok(())
    }

    fn named(name: String, engine: SpecEngine) -> EngineSpec {
        EngineSpec {
            name,
            engine,
            think_ms: None,
            iterations: None,
            learned_eval: false,
            window_values: None,
            tc: None,
            margin_ms: None,
            nodes: None,
            depth: None,
            memory_mb: None,
            options: Vec::new(),
        }
    }

    /// The participant an `--o`/`--x` seat names: called by its engine.
    pub fn for_seat(engine: SpecEngine) -> EngineSpec {
        let name = match &engine {
            // Outside text: its control characters escaped before it is shown.
            SpecEngine::Brain(command) => kxo_engine::text::shown(command.name())
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
        ThinkLimit::from_parts(self.think_ms, self.iterations).unwrap_or(run)
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
            SpecEngine::Brain(command) => {
                let mut brain = OutsideBrain::new(command.clone(), rules, brain_think(limit));
                brain.configure(self.brain_settings());
                SeatEngine::Outside(Box::new(brain))
            }
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

    /// What a brain of this spec is told besides its time.
    pub fn brain_settings(&self) -> BrainSettings {
        let default = BrainSettings::default();
        BrainSettings {
            memory_bytes: self
                .memory_mb
                .map_or(default.memory_bytes, |mb| mb.saturating_mul(1 << 20)),
            nodes: self.nodes,
            depth: self.depth,
            options: self.options.clone(),
            margin: self.margin_ms.map_or(default.margin, Duration::from_millis),
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
        model: &kxo_engine::learner::ValueTable,
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

    /// The spec as text: `mcts:think-ms=300`, `[tc=60+0.6]brain:./x --flag`
    /// (what [`EngineSpec::from_spec`] reads back).
    pub fn spec_text(&self) -> String {
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
        if let Some((base, inc)) = self.tc {
            options.push(format!("tc={}", tc_text(base, inc)));
        }
        if let Some(ms) = self.margin_ms {
            options.push(format!("margin={ms}"));
        }
        if let Some(mb) = self.memory_mb {
            options.push(format!("memory={mb}"));
        }
        if let Some(n) = self.nodes {
            options.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            options.push(format!("depth={d}"));
        }
        for (name, value) in &self.options {
            options.push(format!("option.{name}={value}"));
        }
        match &self.engine {
            SpecEngine::Brain(command) if options.is_empty() => command.to_string(),
            SpecEngine::Brain(command) => format!("[{}]{command}", options.join(",")),
            SpecEngine::BuiltIn(kind) if options.is_empty() => kind.to_string(),
            SpecEngine::BuiltIn(kind) => format!("{kind}:{}", options.join(",")),
        }
    }
}

/// Reads a game clock, `BASE+INC` in seconds (`60+0.6`, `10`), as
/// milliseconds.
pub fn parse_tc(text: &str) -> Result<(u64, u64), String> {
    let bad = || {
        format!(
            "'{}' is not a time control: write BASE+INC in seconds, e.g. 60+0.6 or 10",
            shown(text)
        )
    };
    let (base, inc) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
    let ms = |t: &str| -> Option<u64> {
        let s: f64 = t.trim().parse().ok()?;
        (s.is_finite() && (0.0..=86_400.0).contains(&s)).then(|| (s * 1000.0).round() as u64)
    };
    let (base, inc) = (ms(base).ok_or_else(bad)?, ms(inc).ok_or_else(bad)?);
    if base == 0 {
        return Err(bad());
    }
    Ok((base, inc))
}

/// A game clock as `--tc` writes it: `60+0.6`.
pub fn tc_text(base_ms: u64, inc_ms: u64) -> String {
    let secs = |ms: u64| {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match inc_ms {
        0 => secs(base_ms),
        inc => format!("{}+{}", secs(base_ms), secs(inc)),
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
    pub fn choose(&mut self, pos: &Position, budget: &mut dyn PipeBudget) -> Result<Cell, String> {
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

/// Gives every `eval=learned` spec its evaluation from the learner's model
/// of `rules` (the default file, or `path`), read and never written; none
/// is read when no spec asks, nor when one cannot use it.
pub fn use_learned_evals(
    specs: &mut [EngineSpec],
    rules: Rules,
    path: Option<std::path::PathBuf>,
) -> Result<(), crate::error::InputError> {
    if !specs.iter().any(|s| s.learned_eval) {
        return Ok(());
    }
    for spec in specs.iter() {
        spec.check_board(rules).map_err(crate::error::InputError)?;
    }
    let path = match path {
        Some(p) => p,
        None => crate::model::default_path(rules)
            .map_err(|e| crate::error::InputError(e.to_string()))?,
    };
    if !crate::gate::exists(&path, "model file")
        .map_err(|e| crate::error::InputError(e.to_string()))?
    {
        return Err(crate::error::InputError(format!(
            "eval=learned reads the learner's model, and there is none at {}: \
             train one first (kxo-tui train --size {n} --goal {k}) or name one with --model",
            kxo_engine::text::shown_path(&path),
            n = rules.size(),
            k = rules.goal()
        )));
    }
    let (_, table) = crate::model::read_only(rules, Some(path))?;
    for spec in specs {
        spec.use_model(rules, &table)
            .map_err(crate::error::InputError)?;
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
            ("fast", EngineKind::BuiltIn(BuiltIn::Mcts), Some(300))
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
        // A margin of none at all, as --time-margin 0 allows; kept through
        // the spec's text (the state file's fingerprint).
        let s = EngineSpec::parse("z=negamax:margin=0").unwrap();
        assert_eq!(s.margin_ms, Some(0));
        assert_eq!(EngineSpec::from_spec("z", &s.spec_text()), Ok(s));
        assert!(EngineSpec::parse("z=negamax:margin=86400001").is_err());
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
