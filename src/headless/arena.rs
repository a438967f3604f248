//! `kxo-tui arena`: a tournament between engines (see [`crate::tournament`])
//! with a progress line on stderr, the report on stdout, records and a
//! state file on disk; and `arena merge`, which combines shards.

use std::io::Write;

use crate::ai::{BuiltIn, EngineKind};
use crate::cli::{ArenaArgs, ArenaCommand, MergeArgs, SeatArg};
use crate::tournament::{self, Clocks, EngineSpec, Openings, Report, Settings, state};

/// The engines the flags name: `--engine`s, or `--o` and `--x`.
fn engines(args: &ArenaArgs) -> Result<Vec<EngineSpec>, super::InputError> {
    let engines = if args.engines.is_empty() {
        let seat = |arg: &Option<SeatArg>, default: BuiltIn| {
            EngineSpec::for_seat(arg.clone().map_or(default.into(), SeatArg::engine))
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
    tournament::spec::check_names(&engines).map_err(super::InputError)?;
    Ok(engines)
}

/// `kxo-tui arena`.
pub fn command(args: ArenaArgs) -> anyhow::Result<()> {
    tournament_command(args).map_err(|e| match e.downcast::<state::Mismatch>() {
        Ok(mismatch) => super::InputError(mismatch.0).into(),
        Err(e) => e,
    })
}

fn tournament_command(args: ArenaArgs) -> anyhow::Result<()> {
    if let Some(ArenaCommand::Merge(merge_args)) = args.merge {
        return merge(merge_args);
    }
    let rules = args.rules.rules()?;
    let mut specs = engines(&args)?;
    crate::model::use_learned_evals(&mut specs, rules, args.model.clone())?;
    let kinds: Vec<EngineKind> = specs.iter().map(|s| s.kind()).collect();
    if args.sprt.is_some() && (specs.len() != 2 || args.no_repeat) {
        return Err(super::InputError(
            "--sprt tests two engines on paired games: give two engines and no --no-repeat".into(),
        )
        .into());
    }
    let openings = match &args.openings {
        Some(arg) => Openings::from_arg(arg, rules).map_err(super::InputError)?,
        None => Openings::default_for(rules),
    };
    // A rerun without --seed continues with the seed its state file holds.
    let previous = match &args.state {
        Some(path) => state::read(path)?,
        None => None,
    };
    let seed = args
        .seed
        .or(previous.as_ref().map(|c| c.header.settings.seed))
        .unwrap_or_else(rand::random);
    let settings = settings(&args, rules, &specs, &openings, seed);
    let model = open_learner(&args, rules, &kinds)?;
    if model.is_some() && args.jobs.is_some_and(|j| j > 1) {
        eprintln!(
            "note: the learning player learns from each game in turn, so the games run on one thread"
        );
    }
    if let Some(dir) = &args.records {
        std::fs::create_dir_all(dir).map_err(|e| {
            anyhow::anyhow!(
                "cannot make records folder {}: {e}",
                crate::text::shown(&dir.display().to_string())
            )
        })?;
    }
    let (mut state_file, done) = match &args.state {
        Some(path) => {
            let header = state::Header::new(settings.clone(), args.shard);
            let (file, done) = state::StateFile::open(path, &header)?;
            (Some(file), done)
        }
        None => (None, Vec::new()),
    };
    if !done.is_empty() && !args.json {
        eprintln!("resuming: {} games already played", done.len());
    }
    let scheduled = tournament::schedule(&settings)
        .iter()
        .filter(|s| args.shard.is_none_or(|shard| shard.holds(s)))
        .count();
    let bar = super::progress_bar(
        scheduled as u64,
        "{pos}/{len} games  {msg}  eta {eta} {wide_bar}",
        args.json,
    );
    bar.set_position(done.len() as u64);
    let clocks = Clocks {
        settings: &settings,
        specs: &specs,
        openings: &openings,
        shard: args.shard,
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
    };
    let rl = model.as_ref().map(|m| &m.table);
    // First-player wins, second-player wins, draws, for the progress line.
    let mut tally = [0u32; 3];
    for g in &done {
        tally[g.result as usize] += 1;
    }
    let games = tournament::run(&clocks, rl, done, |game, games| {
        if let Some(file) = state_file.as_mut() {
            file.append(game)?;
        }
        if let Some(dir) = &args.records {
            tournament::records::write(dir, game, rules).map_err(|e| {
                anyhow::anyhow!(
                    "cannot write a record in {}: {e}",
                    crate::text::shown(&dir.display().to_string())
                )
            })?;
        }
        bar.inc(1);
        tally[game.result as usize] += 1;
        // Counted as they come: a report per game would make a long run
        // quadratic. Only the SPRT's ratio needs the games again.
        let mut message = format!("O {} X {} draw {}", tally[0], tally[1], tally[2]);
        if settings.sprt.is_some()
            && !bar.is_hidden()
            && let Some(s) = Report::new(&settings, games).sprt
        {
            message += &format!("  LLR {:.2} ({:.2}, {:.2})", s.llr, s.lower, s.upper);
        }
        bar.set_message(message);
        Ok(())
    })?;
    bar.finish_and_clear();
    print(&Report::new(&settings, &games), args.json)?;
    if let Some(model) = &model {
        model.save_learned()?;
    }
    Ok(())
}

/// The run's settings, as its report and state file keep them.
fn settings(
    args: &ArenaArgs,
    rules: crate::game::Rules,
    specs: &[EngineSpec],
    openings: &Openings,
    seed: u64,
) -> Settings {
    Settings {
        size: rules.size(),
        goal: rules.goal(),
        engines: specs.iter().map(EngineSpec::text).collect(),
        format: args.format,
        games: args.games,
        repeat: !args.no_repeat,
        openings: openings.describe(),
        seed,
        think_ms: args.think.think_ms,
        mcts_iterations: args.think.mcts_iterations,
        match_ms: args.match_ms,
        sprt: args.sprt,
    }
}

/// The learning player's model, when one of the engines is the learner.
fn open_learner(
    args: &ArenaArgs,
    rules: crate::game::Rules,
    kinds: &[EngineKind],
) -> anyhow::Result<Option<crate::model::Model>> {
    if !kinds.contains(&EngineKind::Rl) {
        return Ok(None);
    }
    let init = crate::ai::rl::Init::for_new_model(rules, crate::ai::rl::Init::Heuristic);
    Ok(Some(crate::model::Model::open(
        rules,
        args.model.clone(),
        init,
    )?))
}

fn print(report: &Report, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(report)?)?;
    } else {
        write!(out, "{}", report.to_text())?;
    }
    Ok(())
}

/// `kxo-tui arena merge FILES…`.
fn merge(args: MergeArgs) -> anyhow::Result<()> {
    let (settings, games, missing) = state::merge(&args.files)?;
    if !missing.is_empty() {
        eprintln!(
            "note: no state file for shard {}: the report counts the games it has",
            missing.join(", ")
        );
    }
    print(&Report::new(&settings, &games), args.json)
}
