use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use indicatif::{ProgressBar, ProgressStyle};

use kxo_tui::app::LiveConfig;
use kxo_tui::cli::{ArenaArgs, Cli, Command, LiveArgs, SolveArgs, one_line_error};
use kxo_tui::headless::{InputError, arena, solve};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
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
        Some(Command::Solve(args)) => run_solve(args),
        Some(Command::Arena(args)) => run_arena(args),
        None => run_live(cli.live),
    };
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

fn run_solve(args: SolveArgs) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let report = solve::solve(rules, &args.moves)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.to_text());
    }
    Ok(())
}

fn run_arena(args: ArenaArgs) -> anyhow::Result<()> {
    let config = arena::ArenaConfig {
        rules: args.rules.rules()?,
        o: args.o,
        x: args.x,
        games: args.games,
        seed: args.seed.unwrap_or_else(rand::random),
        limit: args.think.limit(),
    };
    let bar = if !args.json && std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(config.games as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed} < {eta}]")
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
        bar.set_message(format!("O {} X {} draw {}", tally[0], tally[1], tally[2]));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write!(out, "{}", report.to_text())?;
    }
    Ok(())
}

fn run_live(args: LiveArgs) -> anyhow::Result<()> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    let (games, mut o, mut x, mut limit) =
        (args.games as usize, args.o, args.x, args.think.limit());
    if args.human.is_some() {
        // One game; the computer plays whichever side the person does not.
        let (kind, level_limit) = match args.ai {
            Some(kind) => (kind, limit),
            None => args.level.engine(),
        };
        (o, x, limit) = (Some(kind), Some(kind), level_limit);
    }
    let config = LiveConfig {
        rules: args.rules.rules()?,
        games: if args.human.is_some() { 1 } else { games },
        o,
        x,
        delay: Duration::from_millis(args.delay),
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
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, stop.clone())?;
    }
    // SIGHUP: if the terminal is really gone (its window closed) there is
    // nothing to restore and reading it could spin, so leave at once;
    // otherwise stop cleanly like SIGTERM.
    let hup = stop.clone();
    // SAFETY: the handler only calls poll(2), _exit(2) and an atomic store,
    // all async-signal-safe.
    unsafe {
        signal_hook::low_level::register(signal_hook::consts::SIGHUP, move || {
            if kxo_tui::terminal::stdin_hung_up() {
                libc::_exit(129);
            }
            hup.store(true, std::sync::atomic::Ordering::Relaxed);
        })?;
    }
    kxo_tui::panics::set_quiet(true);
    let guard = kxo_tui::terminal::TerminalGuard::enter(config.human.is_some())?;
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let backend = ratatui::backend::CrosstermBackend::new(std::io::stdout());
        let terminal = ratatui::Terminal::new(backend)?;
        kxo_tui::tasks::live::run(
            config,
            terminal,
            &mut kxo_tui::tasks::live::CrosstermInput,
            stop,
            None,
        )
    }));
    drop(guard);
    kxo_tui::panics::set_quiet(false);
    match outcome {
        Ok(Ok(summary)) => {
            let t = summary.totals;
            let secs = summary.elapsed.as_secs();
            println!(
                "kxo-tui: {} games finished in {}m{:02}s (O {}, X {}, draws {}), {} moves",
                t.finished,
                secs / 60,
                secs % 60,
                t.o_wins,
                t.x_wins,
                t.draws,
                t.moves
            );
            Ok(())
        }
        Ok(Err(e)) => Err(e),
        Err(payload) => {
            anyhow::bail!("kxo-tui crashed: {}", kxo_tui::panics::message(&*payload))
        }
    }
}
