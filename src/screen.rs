//! The live screen as a command: its configuration and model, the
//! terminal and the signals around the run, and the summary after it.

use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;

use crate::cli::LiveArgs;
use crate::error::InputError;
use crate::model::Model;
use crate::tasks::live::Summary;
use crate::terminal;
use kxo_engine::EngineKind;
use kxo_engine::learner::{Init, SharedTable, ValueTable};

/// Runs the live screen; its exit status is 0, or 128 + the signal that
/// stopped it (143 for SIGTERM, 129 for SIGHUP or a terminal that went
/// away, 130 for SIGINT), as shells expect.
pub fn command(args: LiveArgs) -> anyhow::Result<ExitCode> {
    let fault_game = std::env::var("KXO_FAULT_GAME")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .and_then(|n| n.checked_sub(1));
    let loaded = match &args.load {
        Some(path) => Some(crate::tournament::game_file::load(path).map_err(InputError)?),
        None => None,
    };
    let color = crate::ui::palette::ColorMode::detect();
    let mut config = args.config_loaded(color, fault_game, loaded.as_ref())?;
    if let Some(plan) = config.tournament.as_mut().and_then(Rc::get_mut) {
        let model = args.model.clone();
        crate::engines::use_learned_evals(&mut plan.specs, config.rules, model)?;
    }
    if let Some(offered) = config.setup.as_mut() {
        *offered = remembered_choice(*offered);
    }
    let (model, warning) = open_learner(&args, &mut config)?;
    terminal::check_can_draw()?;
    // The learner's problem and the configuration's note, both kept.
    let warning = match (config.warning.take(), warning) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        (a, b) => a.or(b),
    };
    config.warning = warning.clone();
    crate::tasks::panics::set_quiet(true);
    // The mouse everywhere: clicks select games, cells and tabs; the wheel scrolls.
    let guard = terminal::TerminalGuard::enter(true)?;
    let watchdog = terminal::HangupWatchdog::start();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let backend = ratatui::backend::CrosstermBackend::new(terminal::FrameWriter::terminal(
            crate::out::screen(),
        ));
        let terminal = ratatui::Terminal::new(backend)?;
        let mut input = terminal::CrosstermInput::new(true)?;
        crate::tasks::live::run(
            config,
            terminal,
            &mut input,
            crate::signals::stop_flag(),
            None,
        )
    }));
    watchdog.stop();
    drop(guard);
    crate::tasks::panics::set_quiet(false);
    let lost = matches!(&outcome, Ok(Ok(summary)) if summary.terminal_lost);
    if lost {
        // Nobody reads the terminal any more, and writing to it fails:
        // what follows (the save's notes) goes nowhere, quietly.
        terminal::detach_from_lost_terminal();
    }
    if let Some(model) = &model {
        model.save_learned()?;
    }
    if let Ok(Ok(summary)) = &outcome
        && let Some(choice) = summary.choice
    {
        remember_choice(choice);
    }
    if let Some(w) = &warning {
        crate::out::stderr_line(&format!("warning: {w}"));
    }
    match outcome {
        Ok(Ok(summary)) => {
            crate::out::stdout_line(&summary_line(&summary));
            if let Some(report) = &summary.tournament {
                crate::out::stdout_line(report.to_text().trim_end());
            }
            // A signal's status (143, 130, 129) is main's, from the
            // request the signal made.
            Ok(match lost {
                true => ExitCode::from(129),
                false => ExitCode::SUCCESS,
            })
        }
        Ok(Err(e)) => Err(e),
        Err(payload) => {
            anyhow::bail!(
                "kxo-tui crashed: {}",
                crate::tasks::panics::message(&*payload)
            )
        }
    }
}

/// The learning player's model, when it may play: named (`--model`, `--o
/// rl`), a model that cannot be read stops the run; only there by default
/// (random pairs), the run goes on with a fresh table it does not save,
/// and the warning says so.
fn open_learner(
    args: &LiveArgs,
    config: &mut crate::app::LiveConfig,
) -> Result<(Option<Model>, Option<String>), InputError> {
    let rules = config.rules;
    // The show seats no learner, nor does Go; random pairs may.
    let rl_may_play = config.show.is_none()
        && !rules.is_go()
        && [&config.o, &config.x].iter().any(|k| {
            k.as_ref()
                .is_none_or(|k| k.kind() == EngineKind::BuiltIn(kxo_engine::BuiltIn::Rl))
        });
    if !rl_may_play {
        return Ok((None, None));
    }
    let init = Init::for_new_model(rules, Init::Heuristic);
    match Model::open(rules, args.model.clone(), init) {
        Ok(model) => {
            config.rl = Some(model.table.clone());
            let notice = model.in_use();
            Ok((Some(model), notice))
        }
        Err(e) if !args.names_the_learner(config) => {
            let fresh: SharedTable = Rc::new(RefCell::new(ValueTable::with_init(rules, init)));
            config.rl = Some(fresh);
            let problem =
                format!("{e} — rl plays with a fresh table this run and the file is left as it is");
            Ok((None, Some(problem)))
        }
        Err(e) => Err(e),
    }
}

/// The file that keeps human mode's last choice, under the data folder.
fn choice_file() -> Option<std::path::PathBuf> {
    directories::ProjectDirs::from("", "", "kxo-tui").map(|d| d.data_dir().join("human.conf"))
}

/// Human mode's choice files, as the gate knows them.
const CHOICE: crate::gate::Kind = crate::gate::Kind {
    what: "human mode's settings file",
    max_bytes: 4096,
    max_line: 256,
    ours: crate::gate::Ours::Prefix(crate::app::setup::HEADER.as_bytes()),
};

/// The choice the start screen offers: the last one made, if one was kept
/// (a file that cannot be read offers `offered` instead), with X if the
/// command line said `--human x`.
fn remembered_choice(offered: crate::app::setup::Choice) -> crate::app::setup::Choice {
    let kept = choice_file()
        .and_then(|path| crate::gate::read(&path, CHOICE).ok().flatten())
        .map(|bytes| offered.read(&String::from_utf8_lossy(&bytes)));
    let mut choice = kept.unwrap_or(offered);
    if offered.side == kxo_engine::Player::X {
        choice.side = offered.side;
    }
    choice
}

/// Keeps the choice for next time; a folder or file that cannot take it
/// costs only that (a note on stderr).
fn remember_choice(choice: crate::app::setup::Choice) {
    let Some(path) = choice_file() else {
        return;
    };
    let kept = path
        .parent()
        .map_or(Ok(std::path::PathBuf::new()), |dir| {
            crate::gate::make_folder(dir, CHOICE.what)
        })
        .and_then(|_| crate::gate::replace(&path, CHOICE, choice.to_text().as_bytes()));
    if let Err(e) = kept {
        crate::out::stderr_line(&format!("note: {e}"));
    }
}

fn summary_line(summary: &Summary) -> String {
    let t = &summary.totals;
    let secs = summary.elapsed.as_secs();
    match &summary.score {
        Some(s) => format!(
            "kxo-tui: {} games in {}m{:02}s: you {}, computer {}, draws {}",
            s.person + s.computer + s.draws,
            secs / 60,
            secs % 60,
            s.person,
            s.computer,
            s.draws
        ),
        None => format!(
            "kxo-tui: {} games finished in {}m{:02}s (O {}, X {}, draws {}), {} moves{}",
            t.finished,
            secs / 60,
            secs % 60,
            t.o_wins,
            t.x_wins,
            t.draws,
            t.moves,
            match t.story.median_plies() {
                Some(median) => format!(
                    "; median game {median} plies; {:.1}% of games unlike any recent one",
                    100.0 * t.story.distinct_share()
                ),
                None => String::new(),
            }
        ),
    }
}
