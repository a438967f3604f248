//! The command line turned into each command's plain options: clap's
//! types end here, and the commands (`headless`, `headless::brain`) take
//! only resolved values (a `Rules`, a `ThinkLimit`, paths).

use std::process::ExitCode;

use super::{
    BenchArgs, BrainArgs, Command, Eval, EvalArgs, OpeningsOrder, Partner, SeatArg, SolveArgs,
    TrainArgs,
};
use crate::error::InputError;
use crate::headless::arena::{ArenaOptions, MergeOptions};
use crate::headless::brain::BrainOptions;
use crate::headless::{self, eval::EvalOptions, solve::SolveOptions, train::TrainOptions};

impl Command {
    /// Runs the subcommand: its options resolved, then the command.
    pub fn run(self) -> anyhow::Result<ExitCode> {
        let done = |()| ExitCode::SUCCESS;
        match self {
            Command::Solve(args) => headless::solve::command(args.options()?),
            Command::Arena(args) => headless::arena::command(args.options()?),
            Command::Train(args) => headless::train::command(args.options()?).map(done),
            Command::Eval(args) => headless::eval::command(args.options()?).map(done),
            Command::Bench(BenchArgs { json }) => headless::bench::command(json).map(done),
            Command::Brain(args) => crate::headless::brain::serve(args.options()).map(done),
            Command::Gtp(args) => crate::headless::gtp::serve(args.options()).map(done),
            // The screen's, which `main` runs (it is above this layer).
            Command::Review(_) => Err(anyhow::anyhow!("review runs on the live screen")),
        }
    }
}

/// The line games' rules: `what` (a command of theirs) refuses Go with a
/// clear line.
fn line_game(rules: super::RulesArgs, what: &str) -> Result<kxo_engine::Rules, InputError> {
    let rules = rules.rules()?;
    if rules.is_go() {
        return Err(InputError(format!(
            "{what} is for the line games (--size, --goal): Go is played on the live \
             screen (kxo-tui --go {n}) and in arena (kxo-tui arena --go {n})",
            n = rules.size()
        )));
    }
    Ok(rules)
}

impl SolveArgs {
    fn options(self) -> Result<SolveOptions, InputError> {
        Ok(SolveOptions {
            rules: line_game(self.rules, "solve")?,
            moves: self.moves,
            json: self.json,
            hash_mb: self.hash,
            timeout: self.timeout,
            proof: self.proof,
            checkpoint: self.checkpoint,
            resume: self.resume,
        })
    }
}

impl TrainArgs {
    fn options(self) -> Result<TrainOptions, InputError> {
        Ok(TrainOptions {
            episodes: self.episodes,
            rules: line_game(self.rules, "train (the learning player)")?,
            model: self.model,
            seed: self.seed,
            init: self.init,
            against: match self.against {
                Partner::Itself => headless::train::Partner::Itself,
                Partner::Negamax => headless::train::Partner::Negamax,
            },
        })
    }
}

impl EvalArgs {
    fn options(self) -> Result<EvalOptions, InputError> {
        Ok(EvalOptions {
            rules: line_game(self.rules, "eval (the learning player)")?,
            model: self.model,
            games: self.games,
            sample: self.sample,
            seed: self.seed,
            json: self.json,
        })
    }
}

impl BrainArgs {
    fn options(self) -> BrainOptions {
        BrainOptions {
            engine: self.served.engine,
            goal: self.goal,
            think_ms: self.served.think_ms,
            hash_mb: self.served.hash,
            seed: self.served.seed.unwrap_or_else(rand::random),
            learned_eval: self.eval == Eval::Learned,
        }
    }
}

impl super::GtpArgs {
    fn options(self) -> crate::headless::gtp::GtpOptions {
        crate::headless::gtp::GtpOptions {
            engine: self.served.engine,
            think_ms: self
                .served
                .think_ms
                .unwrap_or(crate::headless::brain::DEFAULT_THINK_MS),
            hash_mb: self.served.hash,
            seed: self.served.seed.unwrap_or_else(rand::random),
        }
    }
}

impl super::ArenaArgs {
    fn options(self) -> Result<ArenaOptions, InputError> {
        let merge = self
            .merge
            .map(|super::ArenaCommand::Merge(m)| MergeOptions {
                files: m.files,
                json: m.json,
            });
        Ok(ArenaOptions {
            // `arena merge` reads no board: its flags' defaults stand.
            rules: self.rules.rules()?,
            merge,
            engines: self.engines,
            format: self.format,
            o: self.o.map(SeatArg::engine),
            x: self.x.map(SeatArg::engine),
            games: self.games,
            no_repeat: self.no_repeat,
            openings: self.openings,
            shuffled_openings: self.openings_order == OpeningsOrder::Random,
            openings_start: self.openings_start,
            transform: self.transform,
            seed: self.seed,
            limit: self.think.limit_or(crate::engines::RunLimit::Default),
            match_ms: self.match_ms,
            tc: self.tc,
            time_margin: self.time_margin,
            sprt: self.sprt,
            records: self.records,
            pgn: self.pgn,
            log: self.log,
            state: self.state,
            shard: self.shard,
            json: self.json,
            progress: self.progress,
            model: self.model,
            jobs: self.jobs,
        })
    }
}
