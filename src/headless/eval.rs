//! `kxo-tui eval`: how well a saved model plays, judged by the solver.

use std::cell::RefCell;
use std::rc::Rc;

use super::{InputError, thousands};
use kxo_engine::Rules;
use kxo_engine::learner::SharedTable;
use kxo_engine::learner::{self, Accuracy, Judge};
use kxo_engine::text::shown_path;

/// What `eval` is asked: the board, the model, how many games and
/// positions, the seed of the games, and the output's form.
#[derive(Clone, Debug)]
pub(crate) struct EvalOptions {
    pub rules: Rules,
    /// The model file; `None`: the one `train` writes for these rules.
    pub model: Option<std::path::PathBuf>,
    /// Games against Random on each side (`None`: by the board).
    pub games: Option<u32>,
    /// Positions in the fixed sample (`None`: by the board).
    pub sample: Option<u32>,
    pub seed: u64,
    pub json: bool,
}

pub(crate) fn command(args: EvalOptions) -> anyhow::Result<()> {
    let rules = args.rules;
    if let Some(beyond) = rules.beyond_small() {
        return Err(InputError(format!(
            "eval judges a model with the solver, and {beyond} is beyond it; \
             measure the learner there with arena (e.g. --engine rl=rl --engine negamax=negamax)"
        ))
        .into());
    }
    let (path, table) = crate::model::read_only(rules, args.model)?;
    let (entries, games, kept) = (table.len(), table.games, table.accuracy);
    let table: SharedTable = Rc::new(RefCell::new(table));
    let small = rules.cells() <= 16;
    let eval_games = args.games.unwrap_or(if small { 500 } else { 40 });
    let eval_sample = args.sample.unwrap_or(if small { 2_000 } else { 200 });
    let mut judge = Judge::new(rules);
    judge.set_stop_flag(crate::signals::stop_flag());
    let skill = learner::measure(
        &table,
        eval_games,
        eval_sample as usize,
        args.seed,
        &mut judge,
    );
    if let Some(signal) = crate::signals::requested() {
        crate::note!(
            "stopped by {}: nothing measured (the model is unchanged)",
            crate::signals::name(signal)
        );
        return Err(crate::signals::Stopped(signal).into());
    }
    if args.json {
        let share = |a: Accuracy| serde_json::json!({ "accuracy": a.share(), "moves": a.moves, "kept": a.kept });
        let with_results = |a: Accuracy| {
            serde_json::json!({ "accuracy": a.share(), "moves": a.moves, "kept": a.kept,
                "wins": a.results[0], "draws": a.results[1], "losses": a.results[2] })
        };
        let report = serde_json::json!({
            "size": rules.size(),
            "goal": rules.goal(),
            "model": shown_path(&path),
            "entries": entries,
            "games_learned": games,
            "accuracy_when_saved": kept,
            "vs_random_o": with_results(skill.vs_random_o),
            "vs_random_x": with_results(skill.vs_random_x),
            "sample": share(skill.sample),
        });
        crate::say!("{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let line = |what: &str, a: Accuracy| {
        let results = if a.results == [0; 3] {
            String::new()
        } else {
            let [w, d, l] = a.results;
            format!("; won {w}, drew {d}, lost {l}")
        };
        format!(
            "  {what:<28} {:6.2}%  ({} of {} moves{results})\n",
            100.0 * a.share(),
            thousands(a.kept),
            thousands(a.moves)
        )
    };
    crate::out::stdout(&format!(
        "model {} ({n}x{n}, {k} in a row): {} entries, {} games learned{}\n\
         accuracy (moves that keep the game-theoretic value, judged by the solver):\n{}{}{}",
        shown_path(&path),
        thousands(entries as u64),
        thousands(games),
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
    ))?;
    Ok(())
}
