use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};
use indicatif::{ProgressBar, ProgressStyle};

use kxo_tui::ai::rl::{Init, SharedTable, ValueTable};
use kxo_tui::ai::{EngineKind, ThinkLimit};
use kxo_tui::app::LiveConfig;
use kxo_tui::cli::SeatArg;
use kxo_tui::cli::{
    ArenaArgs, Cli, Command, EvalArgs, LiveArgs, SolveArgs, TrainArgs, one_line_error,
};
use kxo_tui::game::Rules;
use kxo_tui::headless::{InputError, arena, solve};

fn main() -> ExitCode {
    let command = Cli::command().after_help(keys_help());
    let cli = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("{}", one_line_error(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Solve(args)) => match run_solve(args) {
            Ok(code) => return code,
            Err(e) => Err(e),
        },
        Some(Command::Arena(args)) => run_arena(args),
        Some(Command::Train(args)) => run_train(args),
        Some(Command::Eval(args)) => run_eval(args),
        Some(Command::Brain(args)) => run_brain(args),
        None => match run_live(cli.live) {
            Ok(code) => {
                kxo_tui::protocol::outside::kill_all();
                return code;
            }
            Err(e) => Err(e),
        },
    };
    // No outside brain outlives kxo-tui, whatever the way out.
    kxo_tui::protocol::outside::kill_all();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.downcast_ref::<InputError>().is_some() => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The end of `--help`: the live screen's keys, from the key map.
fn keys_help() -> String {
    use kxo_tui::app::keymap::{KEYMAP, Scope};
    let mut out =
        String::from("Keys on the live screen (human mode adds its own; ? shows them all):\n");
    for b in KEYMAP
        .iter()
        .filter(|b| b.scope != Scope::Human && b.scope != Scope::HumanNotTyping)
    {
        out.push_str(&format!("  {:<16} {}\n", b.label, b.help));
    }
    out.push_str("In human mode (--human):\n");
    for b in KEYMAP
        .iter()
        .filter(|b| matches!(b.scope, Scope::Human | Scope::HumanNotTyping))
    {
        out.push_str(&format!("  {:<16} {}\n", b.label, b.help));
    }
    out
}

/// Exit status of a solve that stopped before it settled the position.
const UNSETTLED: u8 = 3;

fn run_solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let rules = args.rules.rules()?;
    let stop = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGINT, stop.clone())?;
    let stderr = std::io::stderr();
    let progress: Option<kxo_tui::ai::solver::ProgressReport> = stderr.is_terminal().then(|| {
        Box::new(move |p: &kxo_tui::ai::solver::Progress| {
            let secs = p.elapsed.as_secs_f64();
            eprint!(
                "\r\x1b[2Ksolving: {} pass, root move {}/{}, {} nodes, {:.1} M nodes/s, {:.0} s",
                p.phase,
                p.root_done,
                p.root_moves,
                kxo_tui::headless::thousands(p.nodes),
                p.nodes as f64 / secs.max(1e-9) / 1e6,
                secs,
            );
        }) as kxo_tui::ai::solver::ProgressReport
    });
    let shows_progress = progress.is_some();
    let options = solve::SolveOptions {
        hash_bytes: args.hash << 20,
        timeout: args.timeout,
        stop: Some(stop),
        progress,
    };
    let report = solve::solve_with(rules, &args.moves, options)?;
    if shows_progress {
        // Clear the progress line.
        eprint!("\r\x1b[2K");
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(if report.value.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(UNSETTLED)
    })
}

fn run_eval(args: EvalArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    refuse_engines(rules, &[EngineKind::Rl])?;
    let path = match args.model {
        Some(p) => p,
        None => kxo_tui::model::default_path(rules).map_err(|e| InputError(e.to_string()))?,
    };
    let table = kxo_tui::model::load(&path, rules)
        .map_err(|e| InputError(e.to_string()))?
        .ok_or_else(|| InputError(format!("model file {}: no such file", path.display())))?;
    let (entries, games, kept) = (table.len(), table.games, table.accuracy);
    let table: SharedTable = Rc::new(RefCell::new(table));
    let small = rules.cells() <= 16;
    let eval_games = args.games.unwrap_or(if small { 500 } else { 40 });
    let eval_sample = args.sample.unwrap_or(if small { 2_000 } else { 200 });
    let mut judge = kxo_tui::ai::accuracy::Judge::new(rules);
    let skill = kxo_tui::ai::accuracy::measure(
        &table,
        eval_games,
        eval_sample as usize,
        args.seed,
        &mut judge,
    );
    if args.json {
        let report = serde_json::json!({
            "size": rules.size(),
            "goal": rules.goal(),
            "model": path.display().to_string(),
            "entries": entries,
            "games_learned": games,
            "accuracy_when_saved": kept,
            "vs_random_o": { "accuracy": skill.vs_random_o.share(), "moves": skill.vs_random_o.moves, "kept": skill.vs_random_o.kept },
            "vs_random_x": { "accuracy": skill.vs_random_x.share(), "moves": skill.vs_random_x.moves, "kept": skill.vs_random_x.kept },
            "sample": { "accuracy": skill.sample.share(), "moves": skill.sample.moves, "kept": skill.sample.kept },
        });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        let line = |what: &str, a: kxo_tui::ai::accuracy::Accuracy| {
            format!(
                "  {what:<28} {:6.2}%  ({} of {} moves)\n",
                100.0 * a.share(),
                kxo_tui::headless::thousands(a.kept),
                kxo_tui::headless::thousands(a.moves)
            )
        };
        print!(
            "model {} ({n}x{n}, {k} in a row): {} entries, {} games learned{}\n\
             accuracy (moves that keep the game-theoretic value, judged by the solver):\n{}{}{}",
            path.display(),
            kxo_tui::headless::thousands(entries as u64),
            kxo_tui::headless::thousands(games),
            kept.map(|a| format!(", {:.1}% on the sample when saved", 100.0 * a))
                .unwrap_or_default(),
            line(
                &format!("vs Random as O ({eval_games} games)"),
                skill.vs_random_o
            ),
            line(
                &format!("vs Random as X ({eval_games} games)"),
                skill.vs_random_x
            ),
            line(&format!("{eval_sample} sampled positions"), skill.sample),
            n = rules.size(),
            k = rules.goal(),
        );
    }
    Ok(())
}

/// A learning player's model as a run holds it.
struct Model {
    path: PathBuf,
    table: SharedTable,
    /// Held while this run may save the model; `None` when another process
    /// holds it, and this run then learns without saving.
    lock: Option<kxo_tui::model::ModelLock>,
}

impl Model {
    /// What to say when another process holds the model.
    fn in_use(&self) -> Option<String> {
        self.lock.is_none().then(|| {
            format!(
                "model file {} is in use by another kxo-tui: this run learns but does not save it",
                self.path.display()
            )
        })
    }
}

/// The learning player's model: loaded from `path` (or the default file),
/// or a fresh table when there is no file yet. A file that cannot be read is
/// an input error, and is left as it is. Says on stderr when another
/// process holds the model.
fn open_model(rules: Rules, path: Option<PathBuf>, init: Init) -> anyhow::Result<Model> {
    // A folder the user names must exist (a typo should not grow a tree of
    // folders); the default one is made on first use.
    if let Some(dir) = path
        .as_ref()
        .and_then(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
    {
        return Err(InputError(format!(
            "--model {}: the folder {} does not exist",
            path.as_ref()
                .map_or(String::new(), |p| p.display().to_string()),
            dir.display()
        ))
        .into());
    }
    let path = match path {
        Some(p) => p,
        None => kxo_tui::model::default_path(rules).map_err(|e| InputError(e.to_string()))?,
    };
    let lock = kxo_tui::model::lock(&path).map_err(|e| InputError(e.to_string()))?;
    let table = kxo_tui::model::load(&path, rules)
        .map_err(|e| {
            InputError(format!(
                "{e} (move it away, or pass --model PATH, to start afresh)"
            ))
        })?
        .unwrap_or_else(|| ValueTable::with_init(rules, init));
    // (`init` is what a new model starts from; a saved one keeps its own.)
    let model = Model {
        path,
        table: Rc::new(RefCell::new(table)),
        lock,
    };
    if let Some(notice) = model.in_use() {
        eprintln!("note: {notice}");
    }
    Ok(model)
}

/// Saves what the learning player learned online (arena, live screen), if
/// anything, unless it measurably plays worse than the model it would
/// replace: then the saved model is kept and stderr says why.
fn save_model(model: &Option<Model>) -> anyhow::Result<()> {
    let Some(Model { path, table, lock }) = model else {
        return Ok(());
    };
    if !table.borrow().dirty {
        return Ok(());
    }
    if lock.is_none() {
        eprintln!(
            "model not saved: {} is in use by another kxo-tui",
            path.display()
        );
        return Ok(());
    }
    let rules = table.borrow().rules();
    let before = table.borrow().accuracy;
    let mut judge = kxo_tui::ai::accuracy::Judge::new(rules);
    let now = kxo_tui::ai::accuracy::model_accuracy(table, &mut judge);
    if let (Some(before), Some(now)) = (before, now)
        && now < before - ACCURACY_NOISE
    {
        eprintln!(
            "model not saved: {} keeps its accuracy of {:.1}%; this run's learning would have \
             lowered it to {:.1}%",
            path.display(),
            100.0 * before,
            100.0 * now
        );
        return Ok(());
    }
    table.borrow_mut().accuracy = now;
    let table = table.borrow();
    kxo_tui::model::save(&table, path)?;
    eprintln!(
        "model saved: {} ({} positions{})",
        path.display(),
        table.len(),
        now.map(|a| format!(", accuracy {:.1}%", 100.0 * a))
            .unwrap_or_default()
    );
    Ok(())
}

/// `kxo-tui brain`: the protocol on stdin and stdout until END.
fn run_brain(args: kxo_tui::cli::BrainArgs) -> anyhow::Result<()> {
    let options = kxo_tui::protocol::brain::BrainOptions {
        engine: args.engine,
        goal: args.goal,
        think_ms: args.think_ms,
        hash_mb: args.hash,
        seed: args.seed.unwrap_or_else(rand::random),
    };
    let stdin = std::io::BufReader::new(std::io::stdin());
    kxo_tui::protocol::brain::run(stdin, std::io::stdout().lock(), options)?;
    Ok(())
}

/// A clear error when one of `kinds` cannot play under `rules`.
fn refuse_engines(rules: Rules, kinds: &[EngineKind]) -> Result<(), InputError> {
    match kinds.iter().find_map(|k| k.refuses(rules)) {
        Some(why) => Err(InputError(why)),
        None => Ok(()),
    }
}

/// A drop in accuracy smaller than this (5 of the 1,000 sampled positions)
/// is not counted as worse.
const ACCURACY_NOISE: f32 = 0.005;

fn run_arena(args: ArenaArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let (o, x) = (args.o.kind(), args.x.kind());
    refuse_engines(rules, &[o, x])?;
    let model = if o == EngineKind::Rl || x == EngineKind::Rl {
        Some(open_model(
            rules,
            args.model.clone(),
            Init::for_new_model(rules, Init::Heuristic),
        )?)
    } else {
        None
    };
    let config = arena::ArenaConfig {
        rl: model.as_ref().map(|m| m.table.clone()),
        rules,
        o,
        x,
        brains: [args.o.brain(), args.x.brain()],
        games: args.games,
        seed: args.seed.unwrap_or_else(rand::random),
        limit: args.think.limit(),
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
    };
    if model.is_some() && args.jobs.is_some_and(|j| j > 1) {
        eprintln!(
            "note: the learning player learns from each game in turn, so the games run on one thread"
        );
    }
    let bar = if !args.json && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(config.games as u64);
        bar.set_style(
            ProgressStyle::with_template("{pos}/{len} games  {msg}  eta {eta} {wide_bar}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let mut tally = [0u32; 3];
    let report = arena::run(&config, |record| {
        match record.outcome {
            kxo_tui::game::Outcome::Win(p) => tally[p.index()] += 1,
            _ => tally[2] += 1,
        }
        // The count first, so the bar never shows more results than games.
        bar.inc(1);
        bar.set_message(format!("O {} X {} draw {}", tally[0], tally[1], tally[2]));
    });
    bar.finish_and_clear();
    {
        let mut out = std::io::stdout().lock();
        if args.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        } else {
            write!(out, "{}", report.to_text())?;
        }
    }
    save_model(&model)
}

fn run_train(args: TrainArgs) -> anyhow::Result<()> {
    use kxo_tui::headless::train;
    let rules = args.rules.rules()?;
    refuse_engines(rules, &[EngineKind::Rl])?;
    let new_init = args
        .init
        .unwrap_or_else(|| Init::for_new_model(rules, Init::Zero));
    let model = open_model(rules, args.model, new_init)?;
    let (path, table) = (&model.path, &model.table);
    if let Some(init) = args.init
        && table.borrow().init() != init
    {
        return Err(InputError(format!(
            "model file {} already starts from {}; --init {} is for a new model (pass another --model)",
            path.display(),
            table.borrow().init().name(),
            init.name()
        ))
        .into());
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, stop.clone())?;
    }
    let start_games = table.borrow().games;
    let episodes = args
        .episodes
        .unwrap_or_else(|| train::default_episodes(rules));
    eprintln!(
        "training {} episodes of {n}x{n}, {k} in a row, seed {seed}; Ctrl-C stops and keeps what was learned",
        episodes,
        n = rules.size(),
        k = rules.goal()
    );
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(episodes);
        // Short enough for 80 columns: the bar takes what is left.
        bar.set_style(
            ProgressStyle::with_template("{pos}/{len} {rate}  {msg}  eta {eta} {wide_bar}")
                .map(|style| {
                    style.with_key(
                        "rate",
                        |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                            let rate = kxo_tui::headless::thousands(state.per_sec() as u64);
                            let _ = write!(w, "{rate}/s");
                        },
                    )
                })
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let report = train::train(table, episodes, seed, 10, &stop, |done, point| {
        bar.set_position(done);
        if let Some(p) = point {
            bar.set_message(format!(
                "accuracy O {:.1}% X {:.1}% sample {:.1}%",
                100.0 * p.skill.vs_random_o.share(),
                100.0 * p.skill.vs_random_x.share(),
                100.0 * p.skill.sample.share(),
            ));
        }
    });
    bar.finish_and_clear();
    match model.in_use() {
        None => kxo_tui::model::save(&table.borrow(), path)?,
        Some(notice) => eprintln!("not saved: {notice}"),
    }
    let t = table.borrow();
    println!(
        "{} {} episodes in {:.1} s ({} episodes/s){}",
        if report.stopped_early {
            "stopped after"
        } else {
            "trained"
        },
        report.episodes,
        report.elapsed.as_secs_f64(),
        kxo_tui::headless::thousands(report.episodes_per_second() as u64),
        if report.stopped_early {
            ", stopped by a signal"
        } else {
            ""
        }
    );
    println!(
        "model: {} ({} positions, {} games learned in all, {} before)",
        path.display(),
        t.len(),
        t.games,
        start_games
    );
    println!(
        "\nlearning curve: accuracy, the share of moves that keep the game-theoretic value\n\
         (judged by the solver), in games against Random as O and as X, and on a fixed\n\
         sample of reachable positions:"
    );
    print!("{}", report.curve_table());
    Ok(())
}

/// The live screen; its exit status is 0, or 128 + the signal that
/// stopped it (143 for SIGTERM, 129 for SIGHUP, 130 for SIGINT), as shells
/// expect.
fn run_live(args: LiveArgs) -> anyhow::Result<ExitCode> {
    use std::time::Duration;

    let live_clock = ThinkLimit::Millis(kxo_tui::app::DEFAULT_THINK_MS);
    let (games, mut o, mut x, mut limit) = (
        args.games as usize,
        args.o.as_ref().map(SeatArg::kind),
        args.x.as_ref().map(SeatArg::kind),
        args.think.limit_or(live_clock),
    );
    let mut brains = [
        args.o.as_ref().and_then(SeatArg::brain),
        args.x.as_ref().and_then(SeatArg::brain),
    ];
    if args.human.is_some() {
        // One game; the computer plays whichever side the person does not.
        let (kind, level_limit) = match &args.ai {
            Some(seat) => (seat.kind(), limit),
            None => args.level.engine(),
        };
        (o, x, limit) = (Some(kind), Some(kind), level_limit);
        let brain = args.ai.as_ref().and_then(SeatArg::brain);
        brains = [brain.clone(), brain];
    }
    let rules = args.rules.rules()?;
    refuse_engines(rules, &[o, x].into_iter().flatten().collect::<Vec<_>>())?;
    // The learning player may play when it is named or when pairs are
    // random (and the board is one it plays).
    let rl_may_play = EngineKind::Rl.refuses(rules).is_none()
        && [o, x].iter().any(|k| k.is_none_or(|k| k == EngineKind::Rl));
    // Asked for by name (`--model`, `--o rl`): a model that cannot be read
    // stops the run. Only there by default (random pairs): the run goes on
    // with a fresh table it does not save, and says so.
    let rl_asked = args.model.is_some() || [o, x].contains(&Some(EngineKind::Rl));
    let init = Init::for_new_model(rules, Init::Heuristic);
    let (model, rl, warning) = if !rl_may_play {
        (None, None, None)
    } else {
        match open_model(rules, args.model.clone(), init) {
            Ok(model) => {
                let table = model.table.clone();
                let notice = model.in_use();
                (Some(model), Some(table), notice)
            }
            Err(e) if !rl_asked => {
                let fresh: SharedTable = Rc::new(RefCell::new(ValueTable::with_init(rules, init)));
                let problem = format!(
                    "{} — rl plays with a fresh table this run and the file is left as it is",
                    e.root_cause()
                );
                (None, Some(fresh), Some(problem))
            }
            Err(e) => return Err(e),
        }
    };
    let config = LiveConfig {
        rules,
        rl,
        brains,
        animate: !args.no_anim,
        warning: warning.clone(),
        games: if args.human.is_some() { 1 } else { games },
        o,
        x,
        delay: Duration::from_millis(args.delay),
        hold: Duration::from_millis(args.hold),
        limit,
        human: args.human,
        seed: args.seed.unwrap_or_else(rand::random),
        fps: args.fps,
        color: kxo_tui::ui::palette::ColorMode::detect(),
        fault_game: std::env::var("KXO_FAULT_GAME")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .and_then(|n| n.checked_sub(1)),
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(InputError(
            "the live screen needs a terminal; for headless use try `kxo-tui solve` or `kxo-tui arena`"
                .into(),
        )
        .into());
    }
    let stop = Arc::new(AtomicBool::new(false));
    // Which signal stopped the run, for the exit status.
    let stopped_by = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register_usize(signal, stopped_by.clone(), signal as usize)?;
        signal_hook::flag::register(signal, stop.clone())?;
    }
    // SIGHUP: if the terminal is really gone (its window closed) there is
    // nothing to restore and reading it could spin, so leave at once;
    // otherwise stop cleanly like SIGTERM.
    let (hup, hup_by) = (stop.clone(), stopped_by.clone());
    // SAFETY: the handler only calls poll(2), _exit(2) and atomic stores,
    // all async-signal-safe.
    unsafe {
        signal_hook::low_level::register(signal_hook::consts::SIGHUP, move || {
            if kxo_tui::terminal::stdin_hung_up() {
                libc::_exit(129);
            }
            hup_by.store(
                signal_hook::consts::SIGHUP as usize,
                std::sync::atomic::Ordering::Relaxed,
            );
            hup.store(true, std::sync::atomic::Ordering::Relaxed);
        })?;
    }
    kxo_tui::tasks::panics::set_quiet(true);
    // The mouse everywhere: clicks select games, cells and tabs; the wheel scrolls.
    let guard = kxo_tui::terminal::TerminalGuard::enter(true)?;
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let backend = ratatui::backend::CrosstermBackend::new(kxo_tui::terminal::FrameWriter::new(
            std::io::stdout(),
        ));
        let terminal = ratatui::Terminal::new(backend)?;
        kxo_tui::tasks::live::run(
            config,
            terminal,
            &mut kxo_tui::terminal::CrosstermInput { mouse: true },
            stop,
            None,
        )
    }));
    drop(guard);
    kxo_tui::tasks::panics::set_quiet(false);
    save_model(&model)?;
    if let Some(w) = &warning {
        eprintln!("warning: {w}");
    }
    match outcome {
        Ok(Ok(summary)) => {
            let t = summary.totals;
            let secs = summary.elapsed.as_secs();
            match summary.score {
                Some(s) => println!(
                    "kxo-tui: {} games in {}m{:02}s: you {}, computer {}, draws {}",
                    s.person + s.computer + s.draws,
                    secs / 60,
                    secs % 60,
                    s.person,
                    s.computer,
                    s.draws
                ),
                None => println!(
                    "kxo-tui: {} games finished in {}m{:02}s (O {}, X {}, draws {}), {} moves",
                    t.finished,
                    secs / 60,
                    secs % 60,
                    t.o_wins,
                    t.x_wins,
                    t.draws,
                    t.moves
                ),
            }
            Ok(
                match stopped_by.load(std::sync::atomic::Ordering::Relaxed) {
                    0 => ExitCode::SUCCESS,
                    signal => ExitCode::from(128 + signal as u8),
                },
            )
        }
        Ok(Err(e)) => Err(e),
        Err(payload) => {
            anyhow::bail!(
                "kxo-tui crashed: {}",
                kxo_tui::tasks::panics::message(&*payload)
            )
        }
    }
}
