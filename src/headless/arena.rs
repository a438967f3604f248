//! `kxo-tui arena`: a tournament between engines (see [`crate::tournament`])
//! with a progress line on stderr, the report on stdout, records and a
//! state file on disk; and `arena merge`, which combines shards.

use std::path::PathBuf;

use crate::engines::{EngineSpec, SpecEngine};
use crate::tournament::{
    self, Clocks, Ended, Format, Openings, Report, Settings, Shard, Sprt, opening::ListUse, state,
};
use kxo_engine::Rules;
use kxo_engine::{BuiltIn, EngineKind};

/// What `arena` is asked: a run, or (`merge`) the shards to combine.
#[derive(Clone, Debug)]
pub(crate) struct ArenaOptions {
    /// `arena merge`: only this, the rest unused.
    pub merge: Option<MergeOptions>,
    /// The participants `--engine` names (none: `o` against `x`).
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    /// O's and X's engines when no `--engine` is named.
    pub o: Option<SpecEngine>,
    pub x: Option<SpecEngine>,
    pub games: u32,
    /// Each opening once, not a pair with colours swapped.
    pub no_repeat: bool,
    /// The openings: a file, or a kind of random opening.
    pub openings: Option<String>,
    /// A list's openings in a random order (else in order).
    pub shuffled_openings: bool,
    /// The list's first opening used (from 1).
    pub openings_start: Option<u32>,
    /// Each opening under a random symmetry of the board.
    pub transform: bool,
    pub rules: Rules,
    pub seed: Option<u64>,
    /// The run's limit a move (`--think-ms`, `--mcts-iterations`).
    pub limit: crate::engines::RunLimit,
    /// A game clock: base, and increment per move (milliseconds).
    pub match_ms: Option<u64>,
    pub tc: Option<(u64, u64)>,
    pub time_margin: Option<u64>,
    pub sprt: Option<Sprt>,
    pub records: Option<PathBuf>,
    pub pgn: Option<PathBuf>,
    pub log: Option<PathBuf>,
    pub state: Option<PathBuf>,
    pub shard: Option<Shard>,
    pub json: bool,
    /// A progress line every this many games.
    pub progress: Option<u64>,
    pub model: Option<PathBuf>,
    pub jobs: Option<usize>,
}

/// `arena merge`: the shards' state files.
#[derive(Clone, Debug)]
pub(crate) struct MergeOptions {
    pub files: Vec<PathBuf>,
    pub json: bool,
}

/// The engines the flags name: `--engine`s, or `--o` and `--x`.
fn engines(args: &ArenaOptions) -> Result<Vec<EngineSpec>, super::InputError> {
    let engines = if args.engines.is_empty() {
        let seat = |arg: &Option<SpecEngine>, default: BuiltIn| {
            EngineSpec::for_seat(arg.clone().unwrap_or(default.into()))
        };
        let mut pair = vec![
            seat(&args.o, BuiltIn::Mcts),
            seat(&args.x, BuiltIn::Negamax),
        ];
        if pair[0].name == pair[1].name {
            pair[0].name += "-1";
            pair[1].name += "-2";
        }
        pair
    } else {
        args.engines.clone()
    };
    crate::engines::check_names(&engines).map_err(super::InputError)?;
    Ok(engines)
}

/// `kxo-tui arena`: its exit status is 0, or the shell's for the signal
/// that stopped it (after the report of the games played so far).
pub(crate) fn command(args: ArenaOptions) -> anyhow::Result<std::process::ExitCode> {
    tournament_command(args).map_err(|e| match e.downcast::<state::Mismatch>() {
        Ok(mismatch) => super::InputError(mismatch.0).into(),
        Err(e) => match e.downcast::<crate::gate::FileError>() {
            Ok(file) if file.is_refusal() => super::InputError(file.to_string()).into(),
            Ok(file) => file.into(),
            Err(e) => e,
        },
    })
}

/// Starts every outside engine of the run and sets up its game before the
/// first game (a brain's `START`, a GTP engine's board, komi and clock):
/// one that cannot play is an input error naming it.
fn preflight(specs: &[EngineSpec], rules: kxo_engine::Rules) -> Result<(), super::InputError> {
    for spec in specs {
        spec.check_game(rules).map_err(super::InputError)?;
        if let SpecEngine::Brain { command: brain, .. } = &spec.engine {
            let started = match brain.protocol {
                crate::protocol::outside::Protocol::Gomoku => {
                    crate::protocol::outside::preflight(brain, rules)
                }
                crate::protocol::outside::Protocol::Gtp => {
                    crate::protocol::gtp::preflight(brain, rules)
                }
            };
            started.map_err(|why| {
                super::InputError(format!(
                    "engine {} ({}) cannot play: {why}",
                    kxo_engine::text::shown(&spec.name),
                    kxo_engine::text::shown(&brain.to_string())
                ))
            })?;
        }
    }
    Ok(())
}

fn tournament_command(args: ArenaOptions) -> anyhow::Result<std::process::ExitCode> {
    if let Some(merge_args) = args.merge {
        return merge(merge_args).map(|()| std::process::ExitCode::SUCCESS);
    }
    let rules = args.rules;
    let mut specs = engines(&args)?;
    crate::engines::use_learned_evals(&mut specs, rules, args.model.clone())?;
    let kinds: Vec<EngineKind> = specs.iter().map(|s| s.kind()).collect();
    if args.sprt.is_some() && (specs.len() != 2 || !paired(&args)) {
        return Err(super::InputError(
            "--sprt tests two engines on paired games: give --engine twice, and no --no-repeat"
                .into(),
        )
        .into());
    }
    let mut openings = match &args.openings {
        Some(arg) => Openings::from_arg(arg, rules).map_err(super::InputError)?,
        None => Openings::default_for(rules),
    };
    // A rerun without --seed continues with the seed its state file holds.
    let previous = match &args.state {
        Some(path) => state::read_header(path)?,
        None => None,
    };
    let seed = args
        .seed
        .or(previous.as_ref().map(|h| h.settings.seed))
        .unwrap_or_else(rand::random);
    let list_use = ListUse {
        shuffled: args.shuffled_openings,
        start: args.openings_start.map_or(0, |n| n as usize - 1),
        transform: args.transform,
    };
    openings
        .arrange(list_use, seed)
        .map_err(super::InputError)?;
    let settings = settings(&args, rules, &specs, &openings, seed);
    settings.check().map_err(super::InputError)?;
    preflight(&specs, rules)?;
    if let Some(note) = crate::engines::brain_goal_note(specs.iter().map(|s| &s.engine), rules) {
        crate::note!("note: {note}");
    }
    let model = open_learner(&args, rules, &kinds)?;
    if model.is_some() && args.jobs.is_some_and(|j| j > 1) {
        crate::note!(
            "note: the learning player learns from each game in turn, so the games run on one thread"
        );
    }
    play(&args, &settings, &specs, &openings, model.as_ref())
}

/// Plays the run whose settings are checked: its state file read (and the
/// records it lacks written), the games left played, the report printed.
fn play(
    args: &ArenaOptions,
    settings: &Settings,
    specs: &[EngineSpec],
    openings: &Openings,
    model: Option<&crate::model::Model>,
) -> anyhow::Result<std::process::ExitCode> {
    let rules = settings.rules().map_err(super::InputError)?;
    let records = match &args.records {
        Some(dir) => Some(tournament::records::Records::open(dir, rules)?),
        None => None,
    };
    let logs = match &args.log {
        Some(dir) => Some(tournament::records::Logs::open(dir)?),
        None => None,
    };
    let mut pgn = match &args.pgn {
        Some(path) => Some(tournament::pgn::Pgn::open(path, settings)?),
        None => None,
    };
    if logs.is_some()
        && !specs
            .iter()
            .any(|s| matches!(s.engine, SpecEngine::Brain { .. }))
    {
        crate::note!("note: --log keeps outside brains' conversations, and no engine here is one");
    }
    let mut tally = tournament::Tally::new(settings.clone());
    if let Some(shard) = args.shard {
        tally.restrict_to(&[shard]);
        tally.leave_sprt_to_merge();
    }
    let mut state_file = match &args.state {
        Some(path) => {
            let header = state::Header::new(settings.clone(), args.shard);
            Some(state::StateFile::open(path, &header, &mut tally, |game| {
                if let Some(records) = &records {
                    records.fill_in(game)?;
                }
                if let Some(pgn) = pgn.as_mut() {
                    pgn.add(game);
                }
                Ok(())
            })?)
        }
        None => None,
    };
    let resumed = tally.done().len();
    if resumed > 0 && !args.json {
        crate::note!("resuming: {resumed} games already played");
    }
    let scheduled = tally
        .schedule()
        .iter()
        .filter(|s| args.shard.is_none_or(|shard| shard.holds(s)))
        .count() as u64;
    let bar = super::progress_bar(
        scheduled,
        "{pos}/{len} games  {msg}  eta {eta} {wide_bar}",
        args.json,
    );
    bar.set_position(resumed);
    let mut lines = ProgressLines::new(args.progress, scheduled);
    let clocks = Clocks {
        settings,
        specs,
        openings,
        shard: args.shard,
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
        log_brains: logs.is_some(),
    };
    let rl = model.map(|m| &m.table);
    let ended = tournament::run(&clocks, rl, &mut tally, |game, tally| {
        // The records first, then the state line: a game the state holds
        // has its records on disk.
        if let Some(logs) = &logs {
            logs.write(game)?;
        }
        if let Some(records) = &records {
            records.write(game)?;
        }
        if let Some(file) = state_file.as_mut() {
            file.append(game)?;
        }
        if let Some(pgn) = pgn.as_mut() {
            pgn.add(game);
        }
        bar.inc(1);
        let c = tally.counts_cheap();
        let mut message = format!("O {} X {} draw {}", c[0], c[1], c[2]);
        if let Some(sprt) = settings.sprt {
            let (lower, upper) = sprt.bounds();
            let llr = sprt.llr(&tally.sprt().pentanomial);
            message += &format!("  LLR {llr:.2} ({lower:.2}, {upper:.2})");
        }
        lines.game_done(tally.done().len(), &message);
        bar.set_message(message);
        Ok(())
    })?;
    bar.finish_and_clear();
    drop(state_file);
    if let Some(pgn) = &pgn {
        pgn.write()?;
    }
    finish(args, &Report::from_tally(&tally), ended, scheduled, model)
}

/// Progress when stderr is not a terminal (where the bar is hidden): a
/// line every N games, or every 30 seconds.
struct ProgressLines {
    every: Option<u64>,
    scheduled: u64,
    started: std::time::Instant,
    last: std::time::Instant,
    active: bool,
}

impl ProgressLines {
    const INTERVAL: std::time::Duration = std::time::Duration::from_secs(30);

    fn new(every: Option<u64>, scheduled: u64) -> ProgressLines {
        let now = std::time::Instant::now();
        ProgressLines {
            every,
            scheduled,
            started: now,
            last: now,
            active: every != Some(0) && !crate::out::stderr_is_terminal(),
        }
    }

    /// After a game: a line when one is due.
    fn game_done(&mut self, done: u64, counts: &str) {
        let due = match self.every {
            Some(n) => n > 0 && done.is_multiple_of(n),
            None => self.last.elapsed() >= Self::INTERVAL,
        };
        if !self.active || !due {
            return;
        }
        self.last = std::time::Instant::now();
        crate::note!(
            "{done}/{} games  {counts}  {} s",
            self.scheduled,
            self.started.elapsed().as_secs()
        );
    }
}

/// The end of a run: its report (of the games played so far, when a
/// signal stopped it, with how to go on), and what the learner learned.
fn finish(
    args: &ArenaOptions,
    report: &Report,
    ended: Ended,
    scheduled: u64,
    model: Option<&crate::model::Model>,
) -> anyhow::Result<std::process::ExitCode> {
    let signal = match ended {
        Ended::Stopped => crate::signals::requested(),
        Ended::Done => None,
    };
    // A closed output has nowhere to print to.
    if signal != Some(libc::SIGPIPE) {
        print(report, args.json)?;
    }
    if let Some(signal) = signal.filter(|&s| s != libc::SIGPIPE) {
        crate::note!(
            "stopped by {}: {} of {} games played; {}",
            crate::signals::name(signal),
            report.games,
            scheduled,
            match &args.state {
                Some(_) => "the same command again goes on from its state file",
                None => "with --state FILE a run can be resumed",
            }
        );
    }
    if let Some(model) = model {
        model.save_learned()?;
    }
    Ok(signal.map_or(std::process::ExitCode::SUCCESS, crate::signals::exit_code))
}

/// Whether each opening is played twice with colours swapped: with
/// `--engine`s or with no engine named (the default pair, MCTS and
/// Negamax, then takes both sides: on a board the first player wins, a
/// fixed side would make the side's result look like the engine's),
/// unless `--no-repeat`; never with `--o`/`--x`, which fix the sides.
fn paired(args: &ArenaOptions) -> bool {
    let default_pair = args.o.is_none() && args.x.is_none();
    !args.no_repeat && (!args.engines.is_empty() || default_pair)
}

/// The run's settings, as its report and state file keep them.
fn settings(
    args: &ArenaOptions,
    rules: kxo_engine::Rules,
    specs: &[EngineSpec],
    openings: &Openings,
    seed: u64,
) -> Settings {
    Settings {
        size: rules.size(),
        goal: rules.goal(),
        rule: rules.rule(),
        komi2: rules.is_go().then(|| rules.komi2()),
        handicap: rules.handicap(),
        engines: specs.iter().map(EngineSpec::text).collect(),
        format: args.format,
        games: args.games,
        repeat: paired(args),
        openings: openings.describe(),
        seed,
        limit: args.limit,
        match_ms: args.match_ms.or(args.tc.map(|(base, _)| base)),
        increment_ms: args.tc.map(|(_, inc)| inc).filter(|&inc| inc > 0),
        margin_ms: args.time_margin,
        sprt: args.sprt,
    }
}

/// The learning player's model, when one of the engines is the learner.
fn open_learner(
    args: &ArenaOptions,
    rules: kxo_engine::Rules,
    kinds: &[EngineKind],
) -> anyhow::Result<Option<crate::model::Model>> {
    if !kinds.contains(&EngineKind::BuiltIn(BuiltIn::Rl)) {
        return Ok(None);
    }
    let init =
        kxo_engine::learner::Init::for_new_model(rules, kxo_engine::learner::Init::Heuristic);
    Ok(Some(crate::model::Model::open(
        rules,
        args.model.clone(),
        init,
    )?))
}

fn print(report: &Report, json: bool) -> anyhow::Result<()> {
    if json {
        crate::say!("{}", serde_json::to_string_pretty(report)?)
    } else {
        crate::out::stdout(&report.to_text())
    }
}

/// `kxo-tui arena merge FILES…`.
fn merge(args: MergeOptions) -> anyhow::Result<()> {
    let (tally, missing) = state::merge(&args.files)?;
    if !missing.is_empty() {
        crate::note!(
            "note: no state file for shard {}: the report counts the games it has",
            first_few(&missing)
        );
    }
    print(&Report::from_tally(&tally), args.json)
}

/// The first few of a list, and how many more (a state file may claim a
/// hundred thousand shards: the note stays a line).
fn first_few(items: &[String]) -> String {
    const SHOWN: usize = 8;
    match items.len() {
        n if n <= SHOWN => items.join(", "),
        n => format!("{} and {} more", items[..SHOWN].join(", "), n - SHOWN),
    }
}
