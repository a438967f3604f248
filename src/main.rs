use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use indicatif::{ProgressBar, ProgressStyle};

use kxo_tui::cli::{ArenaArgs, Cli, Command, SolveArgs, one_line_error};
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
        None => {
            let _ = <Cli as clap::CommandFactory>::command().print_help();
            Ok(())
        }
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
