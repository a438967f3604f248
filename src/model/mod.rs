//! The learning player's model: the file format (`format`), the file on
//! disk treated as hostile (`store`), and the policy a run follows —
//! which file, who may save it, and when a save is refused.

mod format;
mod store;

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

pub use format::{ModelError, VERSION, decode, encode};
pub use store::{ModelLock, Staged, default_path, load, lock, save, stage};

use crate::error::InputError;
use kxo_engine::Rules;
use kxo_engine::learner::{Init, SharedTable, ValueTable};
use kxo_engine::text::shown_path;

/// A learning player's model as a run holds it.
pub struct Model {
    pub path: PathBuf,
    pub table: SharedTable,
    /// Held while this run may save the model; `None` when another process
    /// holds it, and this run then learns without saving.
    lock: Option<ModelLock>,
}

/// A drop in accuracy smaller than this (5 of the 1,000 sampled positions)
/// is not counted as worse.
const ACCURACY_NOISE: f32 = 0.005;

impl Model {
    /// The learning player's model: loaded from `path` (or the default
    /// file), or a fresh table when there is no file yet. A file that
    /// cannot be read is an input error, and is left as it is. Says on
    /// stderr when another process holds the model.
    pub fn open(rules: Rules, path: Option<PathBuf>, init: Init) -> Result<Model, InputError> {
        // A folder the user names must exist (a typo should not grow a
        // tree of folders); the default one is made on first use.
        if let Some(p) = &path
            && let Some(dir) = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty() && !d.is_dir())
        {
            return Err(InputError(format!(
                "--model {}: the folder {} does not exist",
                shown_path(p),
                shown_path(dir)
            )));
        }
        let path = match path {
            Some(p) => p,
            None => default_path(rules).map_err(|e| InputError(e.to_string()))?,
        };
        // The type and the links are checked before any lock file is made
        // (`lock` resolves the path first).
        let lock = lock(&path).map_err(|e| InputError(e.to_string()))?;
        let table = load(&path, rules)
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
            crate::note!("note: {notice}");
        }
        Ok(model)
    }

    /// What to say when another process holds the model.
    pub fn in_use(&self) -> Option<String> {
        self.lock.is_none().then(|| {
            format!(
                "model file {} is in use by another kxo-tui: this run learns but does not save it",
                shown_path(&self.path)
            )
        })
    }

    /// Saves the table as it is (after training), unless another process
    /// holds the model: then stderr says so.
    pub fn save(&self) -> Result<(), ModelError> {
        match self.in_use() {
            None => save(&self.table.borrow(), &self.path),
            Some(notice) => {
                crate::note!("not saved: {notice}");
                Ok(())
            }
        }
    }

    /// Saves what the learning player learned online (arena, live screen),
    /// if anything, unless it measurably plays worse than the model it
    /// would replace: then the saved model is kept and stderr says why.
    pub fn save_learned(&self) -> Result<(), ModelError> {
        let Model { path, table, lock } = self;
        if !table.borrow().dirty {
            return Ok(());
        }
        if lock.is_none() {
            crate::note!(
                "model not saved: {} is in use by another kxo-tui",
                shown_path(path)
            );
            return Ok(());
        }
        let rules = table.borrow().rules();
        let before = table.borrow().accuracy;
        // Judged only where the solver is quick (up to 16 cells).
        let now = kxo_engine::learner::judged_in_passing(rules)
            .then(|| {
                let mut judge = kxo_engine::learner::Judge::new(rules);
                kxo_engine::learner::model_accuracy(table, &mut judge)
            })
            .flatten();
        if let (Some(before), Some(now)) = (before, now)
            && now < before - ACCURACY_NOISE
        {
            crate::note!(
                "model not saved: {} keeps its accuracy of {:.1}%; this run's learning would have \
                 lowered it to {:.1}%",
                shown_path(path),
                100.0 * before,
                100.0 * now
            );
            return Ok(());
        }
        table.borrow_mut().accuracy = now;
        let table = table.borrow();
        save(&table, path)?;
        crate::note!(
            "model saved: {} ({} {}{})",
            shown_path(path),
            table.len(),
            table.what_it_holds(),
            now.map(|a| format!(", accuracy {:.1}%", 100.0 * a))
                .unwrap_or_default()
        );
        Ok(())
    }
}

/// Reads a model to evaluate or play from, never to write: the default
/// file unless `path` names one; a missing file is an error.
pub fn read_only(rules: Rules, path: Option<PathBuf>) -> Result<(PathBuf, ValueTable), InputError> {
    let path = match path {
        Some(p) => p,
        None => default_path(rules).map_err(|e| InputError(e.to_string()))?,
    };
    let table = load(&path, rules)
        .map_err(|e| InputError(e.to_string()))?
        .ok_or_else(|| InputError(format!("model file {}: no such file", shown_path(&path))))?;
    Ok((path, table))
}
