//! The run's limit a move, from its flags.

use serde::{Deserialize, Serialize};

/// The run's limit a move, as its flags give it (`--think-ms`,
/// `--mcts-iterations`): each seat's own limit is resolved from it once,
/// when the game is planned ([`EngineSpec::limit`]). A state file keeps
/// it as two fields, `think_ms` and `mcts_iterations`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "LimitFields", into = "LimitFields")]
pub enum RunLimit {
    /// Each kind's own default.
    #[default]
    Default,
    /// This time a move, milliseconds, for every seat without its own.
    Millis(u64),
    /// MCTS's iterations a move; the other kinds their own default.
    MctsIterations(u64),
}

/// [`RunLimit`] as a state file writes it.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct LimitFields {
    think_ms: Option<u64>,
    mcts_iterations: Option<u64>,
}

impl From<LimitFields> for RunLimit {
    fn from(f: LimitFields) -> RunLimit {
        RunLimit::from_parts(f.think_ms, f.mcts_iterations)
    }
}

impl From<RunLimit> for LimitFields {
    fn from(limit: RunLimit) -> LimitFields {
        let (think_ms, mcts_iterations) = limit.parts();
        LimitFields {
            think_ms,
            mcts_iterations,
        }
    }
}

impl RunLimit {
    /// The limit a time per move or a number of MCTS iterations names
    /// (the time first, as the command line ranks them).
    pub fn from_parts(think_ms: Option<u64>, mcts_iterations: Option<u64>) -> RunLimit {
        match (think_ms, mcts_iterations) {
            (Some(ms), _) => RunLimit::Millis(ms),
            (None, Some(n)) => RunLimit::MctsIterations(n),
            (None, None) => RunLimit::Default,
        }
    }

    /// The other way: (time per move, MCTS iterations), as a state file
    /// keeps them.
    pub fn parts(self) -> (Option<u64>, Option<u64>) {
        match self {
            RunLimit::Millis(ms) => (Some(ms), None),
            RunLimit::MctsIterations(n) => (None, Some(n)),
            RunLimit::Default => (None, None),
        }
    }
}
