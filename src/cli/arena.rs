//! `kxo-tui arena`'s command line: the engines, the schedule, the
//! clocks, the files.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::{RulesArgs, SeatArg, ThinkArgs, parse_engine_spec, parse_seat, whole};

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ArenaArgs {
    #[command(subcommand)]
    pub merge: Option<ArenaCommand>,
    /// A participant, NAME=SPEC, repeated: SPEC is an engine with options
    /// (mcts, mcts:think-ms=300, mcts:iterations=5000, negamax:think-ms=50,
    /// random, rl), 'brain:PATH [ARGS]' (a Gomoku brain) or 'gtp:PATH
    /// [ARGS]' (a Go engine). Instead of --o and --x.
    #[arg(long = "engine", value_name = "NAME=SPEC", value_parser = parse_engine_spec,
          conflicts_with_all = ["o", "x"])]
    pub engines: Vec<crate::engines::EngineSpec>,
    /// Who plays whom with several engines: every pair (round-robin) or
    /// the first engine against each of the others (gauntlet).
    #[arg(long, value_name = "FORMAT", default_value = "round-robin")]
    pub format: crate::tournament::Format,
    #[arg(long = "o", value_name = "ENGINE", value_parser = parse_seat,
          help = format!("O's engine in every game (sides mean sides: for pairs with colours \
                          swapped, give --engine twice): {}, or an outside program: \
                          'brain:PATH [ARGS]' or 'gtp:PATH [ARGS]'", kxo_engine::BuiltIn::names()))]
    pub o: Option<SeatArg>,
    /// X's engine in every game (default negamax against --o's mcts).
    #[arg(long = "x", value_name = "ENGINE", value_parser = parse_seat)]
    pub x: Option<SeatArg>,
    /// Games per pairing of two engines: pairs of games from one opening,
    /// colours swapped (an odd count plays its last opening once).
    #[arg(long, default_value_t = 100, value_parser = whole::<u32>(1..=10_000_000))]
    pub games: u32,
    /// Play each opening once, the first engine always first (O); --o and
    /// --x always play so.
    #[arg(long)]
    pub no_repeat: bool,
    /// Where games start: random (a few stones near the centre from the
    /// seed, none that decides the game at once), none, or a FILE of one
    /// opening a line (h8 i9 j7, or Gomocup offsets from the centre
    /// 0,0, 1,1). Default: random above 8x8, none on small boards.
    #[arg(long, value_name = "random|none|FILE", value_hint = clap::ValueHint::FilePath)]
    pub openings: Option<String>,
    /// The order a file's openings are used in: sequential (the file's)
    /// or random (shuffled by the seed, each once before any again).
    #[arg(long, value_name = "ORDER", default_value = "sequential")]
    pub openings_order: OpeningsOrder,
    /// The first of the file's openings to use, counted from 1.
    #[arg(long, value_name = "N", value_parser = whole::<u32>(1..))]
    pub openings_start: Option<u32>,
    /// Turn each round's opening from the file by one of the board's 8
    /// symmetries (rotations and mirrors), drawn from the seed.
    #[arg(long)]
    pub transform: bool,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Seed for reproducible runs (default: a random one, printed).
    #[arg(long, value_parser = whole::<u64>(..))]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub think: ThinkArgs,
    /// Each side's clock for a whole game, in milliseconds: a brain gets
    /// it as INFO timeout_match and time_left; a side that overruns it
    /// loses on time.
    #[arg(long, value_name = "MS", value_parser = whole::<u64>(1..=86_400_000), conflicts_with = "tc")]
    pub match_ms: Option<u64>,
    /// Each side's game clock with an increment a move, in seconds:
    /// BASE+INC (60+0.6, or 10 for no increment). An engine's own tc=
    /// in its spec takes precedence. A side loses on time when a move
    /// leaves its clock below minus the margin (see --time-margin).
    #[arg(long, value_name = "BASE+INC", value_parser = parse_tc)]
    pub tc: Option<(u64, u64)>,
    /// How late a move may be, in milliseconds, before its side loses on
    /// time (default 500; an engine's margin= in its spec takes
    /// precedence). A side's first move of a game may take 3 s more.
    #[arg(long, value_name = "MS", value_parser = whole::<u64>(0..=86_400_000))]
    pub time_margin: Option<u64>,
    /// Stop when the sequential probability ratio test of the first
    /// engine against the second is decided (two engines, paired games):
    /// elo0=0,elo1=10,alpha=0.05,beta=0.05. With --shard each shard plays
    /// its slice whole, and `arena merge` of the shards decides the test.
    #[arg(long, value_name = "SETTINGS", value_parser = parse_sprt)]
    pub sprt: Option<crate::tournament::Sprt>,
    /// Write every game to DIR: SGF for every board, and Gomocup .psq on
    /// 15x15 and 20x20.
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Write every game's result to FILE as PGN (tags, no moves) for
    /// BayesElo and Ordo: Black the first player, White the second;
    /// written whole when the run ends or stops (with --state, every game
    /// of the run, its earlier runs' too).
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write each game's conversation with each outside brain to DIR, as
    /// game-0001-X.log (what was sent and received, with the time).
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
    /// Append each finished game to FILE; rerun with the same arguments
    /// to continue where the run stopped.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Play only the I-th of N interleaved slices of the pairs; combine
    /// the shards' --state files with `arena merge`.
    #[arg(long, value_name = "I/N", value_parser = crate::tournament::Shard::parse, requires = "state")]
    pub shard: Option<crate::tournament::Shard>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// When stderr is not a terminal (a run logged to a file), a progress
    /// line every N games (default: every 30 seconds); 0 for none.
    #[arg(long, value_parser = whole::<u64>(..), value_name = "N")]
    pub progress: Option<u64>,
    /// The learning player's model file (default: under the user's data folder).
    #[arg(long, value_name = "PATH")]
    pub model: Option<PathBuf>,
    /// Threads to play games on (default: one per core). Each game's
    /// engines are seeded from `--seed` and the game's number, so the
    /// results do not depend on this. With a learning player: one thread.
    #[arg(long, value_name = "N", value_parser = parse_jobs)]
    pub jobs: Option<usize>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningsOrder {
    Sequential,
    Random,
}

#[derive(Subcommand, Debug)]
pub enum ArenaCommand {
    /// Combine the --state files of a run's shards into one report, the
    /// same as the run on one machine.
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' state files.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_tc(s: &str) -> Result<(u64, u64), String> {
    crate::engines::parse_tc(s)
}

fn parse_sprt(s: &str) -> Result<crate::tournament::Sprt, String> {
    crate::tournament::Sprt::parse(s)
}

fn parse_jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{}' is not a number of threads: use 1 to 1024",
            kxo_engine::text::shown(s)
        )),
    }
}
