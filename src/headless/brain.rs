//! `kxo-tui brain`: the command line turned into the brain's options.

use crate::cli::{BrainArgs, Eval};
use crate::protocol::brain::{BrainOptions, serve};

/// `kxo-tui brain`: the protocol on stdin and stdout until END.
pub fn command(args: BrainArgs) -> anyhow::Result<()> {
    serve(BrainOptions {
        engine: args.engine,
        goal: args.goal,
        think_ms: args.think_ms,
        hash_mb: args.hash,
        seed: args.seed.unwrap_or_else(rand::random),
        learned_eval: args.eval == Eval::Learned,
    })
}
