//! The engines a run can seat, and the one factory that builds them:
//! built-in kinds (`ai::BuiltIn`) and outside brains, from a spec.
//!
//! `--engine NAME=SPEC`: a named participant of a tournament.
//!
//! SPEC is a built-in engine with options (`mcts`, `mcts:think-ms=300`,
//! `negamax:think-ms=50`, `mcts:iterations=2000`) or an outside program
//! (`brain:PATH ARGS`, a Gomoku brain; `gtp:PATH ARGS`, a Go engine
//! speaking GTP). Options for any engine may also come in brackets
//! after the name: `rapfi[tc=60+0.6,memory=64,option.hash=32]=brain:./r`.
//!
//! Options: `think-ms=T` (time per move), `tc=BASE+INC` (a game clock in
//! seconds, with an increment a move), `margin=MS` (how late a move may
//! be before it loses on time), `nodes=N` and `depth=D` (sent to a brain
//! as `INFO max_node` and `INFO max_depth`; `nodes` is MCTS's iterations),
//! `memory=MB` (a brain's `INFO max_memory`, 256 MB unless given),
//! `settle=MS` (a brain's next command waits so long after its answer),
//! `restart=off` (an outside program's process plays game after game),
//! `cwd=own|run` (it runs in its program's folder or in kxo-tui's),
//! `suspend=off` (a brain runs on while the other side thinks),
//! `memory-check=off` (a brain may hold more than its `memory=`),
//! `option.NAME=V` (sent to a brain as `INFO NAME V`); MCTS's
//! `iterations=N`, Negamax's `eval=shapes|learned`.

mod options;
mod run_limit;
mod seat;

pub use options::{parse_tc, tc_text};
pub use run_limit::RunLimit;
pub use seat::{Choice, SeatEngine};

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::protocol::gtp::OutsideGtp;
use crate::protocol::outside::{BRAIN_THINK, BrainCommand, BrainSettings, OutsideBrain, Protocol};
use options::{number, read_brain_option, read_outside_option};

use kxo_engine::Rules;
use kxo_engine::learner::SharedTable;
use kxo_engine::text::shown;
use kxo_engine::{BuiltIn, Engine, EngineKind, Limit, Options, Recipe};

/// One participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// How the reports call it.
    pub name: String,
    pub engine: SpecEngine,
    /// Its own clock, over the run's.
    pub clock: SeatClock,
    /// With `eval=learned`: the evaluation by window pattern, read from
    /// the model before the run ([`EngineSpec::use_model`]).
    pub window_values: Option<std::sync::Arc<[Vec<i32>; 2]>>,
}

/// What plays for a participant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecEngine {
    /// A built-in kind, with its own options (its list's: `iterations=`,
    /// `eval=`, …).
    BuiltIn { kind: BuiltIn, options: Options },
    /// An outside program, speaking the Gomoku AI protocol or GTP as its
    /// command says, and what a Gomoku brain is told besides its time.
    Brain {
        command: BrainCommand,
        info: BrainInfo,
    },
}

/// A seat's own clock: its time a move (`think-ms=`), its game clock
/// (`tc=`), how late a move may be (`margin=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatClock {
    pub think_ms: Option<u64>,
    /// Base and increment, in milliseconds.
    pub tc: Option<(u64, u64)>,
    pub margin_ms: Option<u64>,
}

/// What a brain is told with `INFO` besides its time, and how long its
/// next command waits after an answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BrainInfo {
    /// `settle=MS`: the wait after each answer (none unless given).
    pub settle_ms: Option<u64>,
    /// `memory-check=off`: it may hold more than its `memory=` (else it
    /// loses when, after a move, it holds more).
    pub memory_unchecked: bool,
    /// `suspend=off`: it runs on while the other side thinks (else it is
    /// stopped from its answer to its next command).
    pub run_idle: bool,
    /// `restart=off`: its process plays game after game of an `arena`
    /// run (a new one after a crash or a loss on time); else one a game.
    pub keep_process: bool,
    /// `INFO max_node`, `INFO max_depth`.
    pub nodes: Option<u64>,
    pub depth: Option<u64>,
    /// `INFO max_memory`, in MB (256 MB unless given).
    pub memory_mb: Option<u64>,
    /// `INFO NAME VALUE`, in order.
    pub options: Vec<(String, String)>,
}

impl SpecEngine {
    /// A built-in kind with its default options.
    pub fn built_in(kind: BuiltIn) -> SpecEngine {
        SpecEngine::BuiltIn {
            kind,
            options: Options::default(),
        }
    }

    /// An outside brain told nothing but its time.
    pub fn brain(command: BrainCommand) -> SpecEngine {
        SpecEngine::Brain {
            command,
            info: BrainInfo::default(),
        }
    }

    /// The kind the screen and the statistics count it as.
    pub fn kind(&self) -> EngineKind {
        match self {
            SpecEngine::BuiltIn { kind, .. } => kind.kind(),
            SpecEngine::Brain { .. } => EngineKind::Brain,
        }
    }

    /// The built-in kind, if it is one.
    pub fn built_in_kind(&self) -> Option<BuiltIn> {
        match self {
            SpecEngine::BuiltIn { kind, .. } => Some(*kind),
            SpecEngine::Brain { .. } => None,
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
    let brain = engines.into_iter().any(
        |e| matches!(e, SpecEngine::Brain { command, .. } if command.protocol == Protocol::Gomoku),
    );
    (brain && k != 5).then(|| {
        format!(
            "outside brains are told only the board size (the Gomoku AI protocol has no K): \
             set each to {k} in a row yourself, as 'brain:kxo-tui brain --goal {k}' is"
        )
    })
}

impl From<BuiltIn> for SpecEngine {
    fn from(kind: BuiltIn) -> SpecEngine {
        SpecEngine::built_in(kind)
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
        let mut out = if spec.starts_with("brain:") || spec.starts_with("gtp:") {
            EngineSpec::named(
                name.to_string(),
                SpecEngine::brain(BrainCommand::parse(spec)?),
            )
        } else {
            let (kind, options) = spec.split_once(':').unwrap_or((spec, ""));
            let built_in: BuiltIn = kind.parse()?;
            let mut out = EngineSpec::named(name.to_string(), SpecEngine::built_in(built_in));
            out.read_options(options)?;
            out
        };
        out.read_options(bracketed)?;
        if let SpecEngine::BuiltIn { kind, options } = &out.engine
            && out.clock.think_ms.is_some()
            && options.work(*kind).is_some()
        {
            return Err(format!("{name}: give think-ms or iterations, not both"));
        }
        Ok(out)
    }

    /// Reads `key=value,…` options into the spec: the clock's, then the
    /// kind's own (from its list) or a brain's.
    fn read_options(&mut self, options: &str) -> Result<(), String> {
        for option in options.split(',').filter(|o| !o.trim().is_empty()) {
            let (key, value) = option.split_once('=').unwrap_or((option, ""));
            let (key, value) = (key.trim(), value.trim());
            if self.read_clock_option(key, value)? {
                continue;
            }
            let taken = match &mut self.engine {
                SpecEngine::BuiltIn { kind, options } => options.set(*kind, key, value)?,
                SpecEngine::Brain { command, info } => {
                    read_outside_option(command, info, key, value)?
                        || (command.protocol == Protocol::Gomoku
                            && read_brain_option(info, key, value)?)
                }
            };
            if !taken {
                return Err(self.unknown_option(key));
            }
        }
        Ok(())
    }

    /// `think-ms=`, `tc=`, `margin=`: any engine's.
    fn read_clock_option(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "think-ms" => self.clock.think_ms = Some(number(key, value, 1, 600_000)?),
            "tc" => self.clock.tc = Some(parse_tc(value)?),
            // As --time-margin: none at all is a setting too.
            "margin" => self.clock.margin_ms = Some(number(key, value, 0, 86_400_000)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The message for an option this engine does not have: every one it
    /// has, from its kind's list.
    fn unknown_option(&self, key: &str) -> String {
        let (owner, own) = match &self.engine {
            SpecEngine::BuiltIn { kind, .. } => {
                let own: Vec<String> = kind.entry().options.iter().map(|o| o.usage()).collect();
                (kind.to_string(), own)
            }
            SpecEngine::Brain { command, .. } if command.protocol == Protocol::Gtp => (
                "a GTP engine".to_string(),
                vec!["restart=on|off".to_string(), "cwd=own|run".into()],
            ),
            SpecEngine::Brain { .. } => (
                "a brain".to_string(),
                [
                    "restart=on|off",
                    "cwd=own|run",
                    "memory=MB",
                    "nodes=N",
                    "depth=D",
                    "settle=MS",
                    "suspend=on|off",
                    "memory-check=on|off",
                    "option.NAME=VALUE",
                ]
                .map(String::from)
                .to_vec(),
            ),
        };
        let mut all = vec![
            "think-ms=T".to_string(),
            "tc=BASE+INC".into(),
            "margin=MS".into(),
        ];
        all.extend(own);
        let last = all.pop().unwrap_or_default();
        format!(
            "'{}' is not an option of {owner}: use {} or {last}",
            shown(key),
            all.join(", ")
        )
    }

    fn named(name: String, engine: SpecEngine) -> EngineSpec {
        EngineSpec {
            name,
            engine,
            clock: SeatClock::default(),
            window_values: None,
        }
    }

    /// The participant an `--o`/`--x` seat names: called by its engine.
    pub fn for_seat(engine: SpecEngine) -> EngineSpec {
        let name = match &engine {
            // Outside text: its control characters escaped before it is shown.
            SpecEngine::Brain { command, .. } => shown(command.name()).chars().take(24).collect(),
            SpecEngine::BuiltIn { kind, .. } => kind.to_string(),
        };
        EngineSpec::named(name, engine)
    }

    /// The kind the statistics count it as.
    pub fn kind(&self) -> EngineKind {
        self.engine.kind()
    }

    /// Its limit a move, resolved once where its game is planned: its own
    /// (`think-ms=`, its kind's work option such as `iterations=`), else
    /// the run's, else its kind's default on `rules`. A brain always has
    /// a time: the run's, else the protocol's second.
    pub fn limit(&self, run: RunLimit, rules: Rules) -> Limit {
        let ms = |ms: u64| Limit::Time(Duration::from_millis(ms));
        if let Some(own) = self.clock.think_ms {
            return ms(own);
        }
        match &self.engine {
            SpecEngine::BuiltIn { kind, options } => match (options.work(*kind), run) {
                (Some(n), _) => Limit::Work(n),
                (None, RunLimit::Millis(t)) => ms(t),
                (None, RunLimit::MctsIterations(n)) if *kind == BuiltIn::Mcts => Limit::Work(n),
                (None, _) => kind.default_limit(rules),
            },
            SpecEngine::Brain { .. } => match run {
                RunLimit::Millis(t) => ms(t),
                _ => Limit::Time(BRAIN_THINK),
            },
        }
    }

    /// Whether an outside program of this spec plays game after game in
    /// one process (`restart=off`).
    pub fn keeps_process(&self) -> bool {
        matches!(&self.engine, SpecEngine::Brain { info, .. } if info.keep_process)
    }

    /// Whether its limit is its own count of work (`iterations=`): no
    /// clock then, a game clock included.
    pub fn counts_work(&self) -> bool {
        matches!(&self.engine, SpecEngine::BuiltIn { kind, options } if options.work(*kind).is_some())
    }

    /// Its name and spec, as the settings keep them.
    pub fn text(&self) -> SpecText {
        SpecText {
            name: self.name.clone(),
            spec: self.spec_text(),
        }
    }

    /// The engine this spec names, fresh for one game: an outside brain
    /// told its time a move (`INFO timeout_turn`, from `limit`), or a
    /// built-in engine seeded with `seed` (a learning player learns into
    /// `rl`), which thinks as each move's budget says. The one factory of
    /// a seat's engine, for `arena` and the live screen alike.
    pub fn build(
        &self,
        rules: Rules,
        limit: Limit,
        seed: u64,
        rl: Option<&SharedTable>,
    ) -> Result<SeatEngine, String> {
        self.check_game(rules)?;
        Ok(match &self.engine {
            SpecEngine::Brain { command, .. } if command.protocol == Protocol::Gtp => {
                let think = limit.time().unwrap_or(BRAIN_THINK);
                let mut engine = OutsideGtp::new(command.clone(), rules, think);
                engine.set_margin(self.brain_settings().margin);
                SeatEngine::Outside(Box::new(engine))
            }
            SpecEngine::Brain { command, .. } => {
                let think = limit.time().unwrap_or(BRAIN_THINK);
                let mut brain = OutsideBrain::new(command.clone(), rules, think);
                brain.configure(self.brain_settings());
                SeatEngine::Outside(Box::new(brain))
            }
            SpecEngine::BuiltIn { kind, options } if rules.is_go() => {
                let recipe = Recipe {
                    rules,
                    seed,
                    options,
                    table: None,
                    window_values: None,
                };
                SeatEngine::Go(kind.make_go(&recipe).ok_or_else(|| self.no_go())?)
            }
            SpecEngine::BuiltIn { .. } => SeatEngine::BuiltIn(
                self.built_in_engine(rules, seed, rl)
                    .ok_or_else(|| format!("{} builds no engine", self.name))?,
            ),
        })
    }

    /// Whether it plays the game of `rules`: every kind plays the m,n,k
    /// games; Go is for the kinds whose entry builds a Go engine.
    pub fn check_game(&self, rules: Rules) -> Result<(), String> {
        match &self.engine {
            SpecEngine::BuiltIn { kind, .. } if rules.is_go() && !kind.plays_go() => {
                Err(self.no_go())
            }
            SpecEngine::Brain { command, .. } => match (command.protocol, rules.is_go()) {
                (Protocol::Gomoku, true) => Err(format!(
                    "{}: a Gomoku brain does not play Go (a Go engine speaks GTP: gtp:PATH ARGS)",
                    self.name
                )),
                (Protocol::Gtp, false) => Err(format!(
                    "{}: a GTP engine plays Go (--go N); the line games' brains speak the \
                     Gomoku AI protocol (brain:PATH ARGS)",
                    self.name
                )),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }

    fn no_go(&self) -> String {
        let players: Vec<&str> = BuiltIn::ALL
            .iter()
            .filter(|k| k.plays_go())
            .map(|k| k.entry().name)
            .collect();
        format!(
            "{} does not play Go: Go's engines are {}",
            self.name,
            players.join(" and ")
        )
    }

    /// The built-in engine this spec names, through its kind's factory
    /// (the brain protocol's engine and `train`'s opponents are made so
    /// too); `None` for an outside brain.
    pub fn built_in_engine(
        &self,
        rules: Rules,
        seed: u64,
        rl: Option<&SharedTable>,
    ) -> Option<Box<dyn Engine>> {
        let SpecEngine::BuiltIn { kind, options } = &self.engine else {
            return None;
        };
        Some(kind.make(&Recipe {
            rules,
            seed,
            options,
            table: rl,
            window_values: self.window_values.as_deref(),
        }))
    }

    /// What a brain of this spec is told besides its time.
    pub fn brain_settings(&self) -> BrainSettings {
        let default = BrainSettings::default();
        let info = match &self.engine {
            SpecEngine::Brain { info, .. } => info.clone(),
            SpecEngine::BuiltIn { .. } => BrainInfo::default(),
        };
        BrainSettings {
            memory_bytes: info
                .memory_mb
                .map_or(default.memory_bytes, |mb| mb.saturating_mul(1 << 20)),
            nodes: info.nodes,
            depth: info.depth,
            options: info.options,
            settle: info.settle_ms.map_or(default.settle, Duration::from_millis),
            suspend: !info.run_idle,
            check_memory: !info.memory_unchecked,
            margin: self
                .clock
                .margin_ms
                .map_or(default.margin, Duration::from_millis),
        }
    }

    /// Whether it evaluates with the learner's patterns (`eval=learned`).
    pub fn learned_eval(&self) -> bool {
        matches!(&self.engine, SpecEngine::BuiltIn { options, .. } if options.is("eval", "learned"))
    }

    /// `eval=learned` is for boards above 8x8.
    pub fn check_board(&self, rules: Rules) -> Result<(), String> {
        match self.learned_eval() && rules.is_small() {
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
        if !self.learned_eval() {
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
        if let Some(ms) = self.clock.think_ms {
            options.push(format!("think-ms={ms}"));
        }
        if let SpecEngine::BuiltIn { options: own, .. } = &self.engine {
            options.extend(own.iter().map(|(name, value)| format!("{name}={value}")));
        }
        if let Some((base, inc)) = self.clock.tc {
            options.push(format!("tc={}", tc_text(base, inc)));
        }
        if let Some(ms) = self.clock.margin_ms {
            options.push(format!("margin={ms}"));
        }
        if let SpecEngine::Brain { info, command } = &self.engine {
            match (command.own_folder, command.protocol) {
                (false, Protocol::Gomoku) => options.push("cwd=run".into()),
                (true, Protocol::Gtp) => options.push("cwd=own".into()),
                _ => {}
            }
            if info.keep_process {
                options.push("restart=off".into());
            }
            if let Some(mb) = info.memory_mb {
                options.push(format!("memory={mb}"));
            }
            if let Some(n) = info.nodes {
                options.push(format!("nodes={n}"));
            }
            if let Some(d) = info.depth {
                options.push(format!("depth={d}"));
            }
            if let Some(ms) = info.settle_ms {
                options.push(format!("settle={ms}"));
            }
            if info.run_idle {
                options.push("suspend=off".into());
            }
            if info.memory_unchecked {
                options.push("memory-check=off".into());
            }
            for (name, value) in &info.options {
                options.push(format!("option.{name}={value}"));
            }
        }
        match &self.engine {
            SpecEngine::Brain { command, .. } if options.is_empty() => command.to_string(),
            SpecEngine::Brain { command, .. } => format!("[{}]{command}", options.join(",")),
            SpecEngine::BuiltIn { kind, .. } if options.is_empty() => kind.to_string(),
            SpecEngine::BuiltIn { kind, .. } => format!("{kind}:{}", options.join(",")),
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
    if !specs.iter().any(EngineSpec::learned_eval) {
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

    fn rules() -> Rules {
        Rules::default_rules()
    }

    #[test]
    fn specs_read_kinds_options_and_brains() {
        let ms = |ms: u64| Limit::Time(Duration::from_millis(ms));
        let s = EngineSpec::parse("fast=mcts:think-ms=300").unwrap();
        assert_eq!(
            (s.name.as_str(), s.kind(), s.clock.think_ms),
            ("fast", EngineKind::BuiltIn(BuiltIn::Mcts), Some(300))
        );
        assert_eq!(s.limit(RunLimit::Millis(5), rules()), ms(300));
        assert_eq!(s.spec_text(), "mcts:think-ms=300");
        let s = EngineSpec::parse("m2=mcts:iterations=2000").unwrap();
        assert_eq!(s.limit(RunLimit::Millis(5), rules()), Limit::Work(2000));
        assert!(s.counts_work());
        // The run's MCTS iterations are MCTS's; Negamax keeps its own.
        let n = EngineSpec::parse("n=negamax").unwrap();
        assert_eq!(n.limit(RunLimit::Millis(5), rules()), ms(5));
        assert_eq!(n.limit(RunLimit::MctsIterations(9), rules()), Limit::Whole);
        let big = Rules::new(15, 5).unwrap();
        assert_eq!(n.limit(RunLimit::Default, big), ms(500));
        assert!(!n.learned_eval());
        let s = EngineSpec::parse("l=negamax:eval=learned,think-ms=50").unwrap();
        assert!(s.learned_eval());
        assert_eq!(s.spec_text(), "negamax:think-ms=50,eval=learned");
        assert_eq!(EngineSpec::from_spec("l", &s.spec_text()), Ok(s));
        let s = EngineSpec::parse("mine=brain:./pbrain --level 'very hard'").unwrap();
        assert_eq!(s.kind(), EngineKind::Brain);
        assert_eq!(
            s.limit(RunLimit::MctsIterations(9), rules()),
            Limit::Time(BRAIN_THINK)
        );
        let SpecEngine::Brain { command, .. } = s.engine else {
            panic!("not a brain: {:?}", s.engine);
        };
        assert_eq!(command.args, ["--level", "very hard"]);
        // A margin of none at all, as --time-margin 0 allows; kept through
        // the spec's text (the state file's fingerprint).
        let s = EngineSpec::parse("z=negamax:margin=0").unwrap();
        assert_eq!(s.clock.margin_ms, Some(0));
        assert_eq!(EngineSpec::from_spec("z", &s.spec_text()), Ok(s));
        assert!(EngineSpec::parse("z=negamax:margin=86400001").is_err());
        let g = EngineSpec::parse("g=greedy:block=no").unwrap();
        assert_eq!(g.spec_text(), "greedy:block=no");
    }

    #[test]
    fn bad_specs_are_refused_by_name() {
        for (text, needle) in [
            ("mcts", "not NAME=SPEC"),
            ("=mcts", "not an engine name"),
            ("a b=mcts", "not an engine name"),
            ("a=chess", "unknown engine"),
            ("a=mcts:think-ms=0", "not a number"),
            ("a=negamax:iterations=5", "not an option of negamax"),
            ("a=mcts:depth=3", "not an option of mcts"),
            ("a=mcts:think-ms=5,iterations=9", "not both"),
            ("a=brain:", "needs a program"),
            ("a=negamax:eval=deep", "eval=shapes or eval=learned"),
            ("a=mcts:eval=learned", "iterations=N"),
            ("a=greedy:block=3", "block=yes or block=no"),
        ] {
            let err = EngineSpec::parse(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
