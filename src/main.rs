//! kxo-tui's entry point: parse the command line, run the command, turn
//! its result into an exit status. Every command lives in its own module.

use std::process::ExitCode;

use clap::FromArgMatches;
use clap::error::ErrorKind;

use kxo_engine::text::shown_within;
use kxo_tui::cli::{Cli, one_line_error};
use kxo_tui::error::InputError;
use kxo_tui::gate::FileError;
use kxo_tui::protocol::outside::BrainReaper;
use kxo_tui::signals::Stopped;

fn main() -> ExitCode {
    let command = kxo_tui::cli::command().after_help(keys_help());
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
            report(&one_line_error(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    // No outside brain, nor anything it started, outlives kxo-tui,
    // whatever the way out (the reaper ends them when dropped).
    let _reaper = BrainReaper::install();
    // SIGINT, SIGTERM and SIGHUP ask every command to stop cleanly.
    if let Err(e) = kxo_tui::signals::install() {
        report(&format!("error: cannot handle signals: {e}"));
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Some(kxo_tui::cli::Command::Review(args)) => kxo_tui::screen::command(args.live()),
        Some(command) => command.run(),
        None => kxo_tui::screen::command(cli.live),
    };
    let e = match result {
        // A command a signal stopped ends with the shell's status for it.
        Ok(code) => return kxo_tui::signals::requested().map_or(code, kxo_tui::signals::exit_code),
        Err(e) => e,
    };
    // Stopped by a signal or a closed output: said already, or quietly.
    if let Some(&Stopped(signal)) = e.downcast_ref::<Stopped>() {
        return kxo_tui::signals::exit_code(signal);
    }
    let input = e.downcast_ref::<InputError>().is_some()
        || e.downcast_ref::<FileError>()
            .is_some_and(FileError::is_refusal);
    if input {
        report(&format!("error: {e}"));
        ExitCode::from(2)
    } else {
        report(&format!("error: {e:#}"));
        ExitCode::FAILURE
    }
}

/// An error on stderr: whatever it quotes from outside (an argument, a
/// file name) is escaped, and a long one is cut. Never panics.
fn report(message: &str) {
    // Generous: an error names a path and a reason besides what it quotes.
    kxo_tui::report_error(&shown_within(message, 600));
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
