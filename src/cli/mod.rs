//! The command line: flags, subcommands and their help.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::engines::RunLimit;
use crate::engines::SpecEngine;
use crate::protocol::outside::BrainCommand;
use kxo_engine::{BuiltIn, EngineKind};
use kxo_engine::{MAX_GOAL, Player, Rules};

mod arena;
mod board;
mod run;
mod whole;

pub use arena::{ArenaArgs, ArenaCommand, MergeArgs, OpeningsOrder};
pub use board::{BoardArgs, GoArgs, RuleArg, RulesArgs, ThinkArgs};
use whole::whole;

use crate::error::InputError;
use crate::headless::solve::DEFAULT_HASH_MB;

#[derive(Parser, Debug)]
#[command(
    name = "kxo-tui",
    version,
    about = "Tic-tac-toe games between computer players, each a coroutine, drawn live in the terminal",
    long_about = None
)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The live screen's options (when no command is given).
    #[command(flatten)]
    pub live: LiveArgs,
}

/// The command line as it is read: [`Cli`]'s definition, with a negative
/// number taken as the value of any option that has one, in every command.
/// So `--timeout -1` meets the option's own check ("not a number of
/// seconds: use more than 0, …") instead of being read as an unknown
/// flag "-1".
pub fn command() -> clap::Command {
    fn numbers_as_values(command: clap::Command) -> clap::Command {
        command
            .mut_args(|arg| {
                let takes_values = arg.get_action().takes_values();
                arg.allow_negative_numbers(takes_values)
            })
            .mut_subcommands(numbers_as_values)
    }
    numbers_as_values(<Cli as clap::CommandFactory>::command())
}

/// The live screen: several games at once.
#[derive(Args, Debug)]
pub struct LiveArgs {
    /// Number of games played at once.
    #[arg(long, default_value_t = 9, value_parser = whole::<u16>(1..=36))]
    pub games: u16,
    #[command(flatten)]
    pub board: BoardArgs,
    #[arg(long = "o", value_name = "ENGINE", value_parser = parse_seat,
          help = format!("Fix O's engine ({}, or an outside program: 'brain:PATH [ARGS]', \
                          'gtp:PATH [ARGS]' on Go); \
                          default: a random pick every game", BuiltIn::names()))]
    pub o: Option<SeatArg>,
    /// Fix X's engine; default: a random pick every game.
    #[arg(long = "x", value_name = "ENGINE", value_parser = parse_seat)]
    pub x: Option<SeatArg>,
    /// Least milliseconds between a seat starting to think and its move, so
    /// people can follow (0: no wait).
    #[arg(long, value_name = "MS", default_value_t = 150, value_parser = whole::<u64>(0..=60_000))]
    pub delay: u64,
    /// Milliseconds a finished game's result stays on screen before it
    /// restarts (`--delay 0 --hold 0`: as fast as possible).
    #[arg(long, value_name = "MS", default_value_t = 2_000, value_parser = whole::<u64>(0..=600_000))]
    pub hold: u64,
    #[command(flatten)]
    pub think: ThinkArgs,
    /// Seed for the engines and the engine pairs (default: a random one).
    #[arg(long, value_parser = whole::<u64>(..))]
    pub seed: Option<u64>,
    /// Most frames drawn per second.
    #[arg(long, default_value_t = 30, value_parser = whole::<u32>(1..=240))]
    pub fps: u32,
    /// Keep the logo's rainbow still (it drifts slowly otherwise;
    /// NO_COLOR draws no colour at all).
    #[arg(long)]
    pub no_anim: bool,
    /// Play against the computer, as o (the default; O moves first) or x.
    /// One large board; sides swap every game.
    #[arg(long, value_name = "SIDE", num_args = 0..=1, default_missing_value = "o", value_parser = parse_side)]
    pub human: Option<Player>,
    /// With --human: how strong the computer is. easy: random moves;
    /// medium: MCTS with 500 iterations a move (blunders now and then);
    /// hard: MCTS with 50,000 iterations; perfect: Negamax, which on
    /// small boards (3x3, 4x4) never loses a won position and never misses
    /// a win, and on larger ones is the strongest level, not perfect.
    #[arg(long, value_enum, requires = "human", conflicts_with = "ai")]
    pub level: Option<Level>,
    #[arg(long, value_name = "ENGINE", value_parser = parse_seat, requires = "human",
          help = format!("With --human: name the computer's engine instead of a level \
                          ({}; budget from --mcts-iterations or --think-ms)", BuiltIn::names()))]
    pub ai: Option<SeatArg>,
    /// With --human: a game clock for each side, BASE+INC in seconds
    /// (5+0, 300+3): the side to move's time runs, the increment comes
    /// after each move, a flag that falls loses; the computer thinks a
    /// share of what it has left.
    #[arg(long, value_name = "BASE+INC", value_parser = crate::engines::parse_tc, requires = "human")]
    pub tc: Option<(u64, u64)>,
    /// With --human: play on from a game file (SGF, kxo-tui's or another
    /// program's, or Gomocup's .psq): its board and its moves; the file's
    /// board wins over --size and --goal.
    #[arg(long, value_name = "FILE", requires = "human", value_hint = clap::ValueHint::FilePath)]
    pub load: Option<PathBuf>,
    /// With --load: open the game's review (`kxo-tui review FILE`).
    #[arg(long, requires = "load", hide = true)]
    pub review: bool,
    /// The learning player's model file (default: under the user's data folder).
    #[arg(long, value_name = "PATH")]
    pub model: Option<PathBuf>,
    /// Show a tournament: a participant NAME=SPEC, repeated, as in
    /// `arena` (mcts:think-ms=300, negamax, 'brain:PATH [ARGS]'…). The
    /// boxes play its games in order; the Leaderboard tab (E) shows its
    /// ranking and crosstable.
    #[arg(long = "engine", value_name = "NAME=SPEC", value_parser = parse_engine_spec,
          conflicts_with_all = ["o", "x", "human"])]
    pub engines: Vec<crate::engines::EngineSpec>,
    /// With --engine: round-robin or gauntlet.
    #[arg(
        long,
        value_name = "FORMAT",
        default_value = "round-robin",
        requires = "engines"
    )]
    pub format: crate::tournament::Format,
    /// With --engine: games per pairing of two engines, in pairs of one
    /// opening with colours swapped.
    #[arg(long, value_name = "N", default_value_t = 10, requires = "engines",
          value_parser = whole::<u32>(1..=100_000))]
    pub tournament_games: u32,
    /// With --engine: where games start, as in `arena` (random above 8x8).
    #[arg(long, value_name = "random|none|FILE", value_hint = clap::ValueHint::FilePath, requires = "engines")]
    pub openings: Option<String>,
}

impl LiveArgs {
    /// The tournament `--engine` names, if any: its plan, checked.
    fn tournament(
        &self,
        rules: Rules,
        seed: u64,
        limit: RunLimit,
    ) -> Result<Option<crate::tournament::Plan>, InputError> {
        use crate::tournament::{Openings, Plan, Settings};
        if self.engines.is_empty() {
            return Ok(None);
        }
        crate::engines::check_names(&self.engines).map_err(InputError)?;
        let openings = match &self.openings {
            Some(arg) => Openings::from_arg(arg, rules).map_err(InputError)?,
            None => Openings::default_for(rules),
        };
        let settings = Settings {
            size: rules.size(),
            goal: rules.goal(),
            rule: rules.rule(),
            komi2: rules.is_go().then(|| rules.komi2()),
            handicap: rules.handicap(),
            engines: self.engines.iter().map(|e| e.text()).collect(),
            format: self.format,
            games: self.tournament_games,
            repeat: true,
            openings: openings.describe(),
            seed,
            limit,
            match_ms: None,
            increment_ms: None,
            margin_ms: None,
            sprt: None,
        };
        settings.check().map_err(InputError)?;
        Ok(Some(Plan::new(self.engines.clone(), settings, openings)))
    }

    /// The live screen's configuration, without the learning player's
    /// table (the caller opens the model) and with the environment's
    /// `color` and `fault_game`. Pure: reads no file and no terminal.
    pub fn config(
        &self,
        color: crate::ui::palette::ColorMode,
        fault_game: Option<usize>,
    ) -> Result<crate::app::LiveConfig, InputError> {
        self.config_loaded(color, fault_game, None)
    }

    /// [`LiveArgs::config`] for a person playing on from a game file
    /// (`--load`, read by the caller): the file's board and moves.
    pub fn config_loaded(
        &self,
        color: crate::ui::palette::ColorMode,
        fault_game: Option<usize>,
        loaded: Option<&crate::tournament::game_file::GameFile>,
    ) -> Result<crate::app::LiveConfig, InputError> {
        let live_clock = RunLimit::Millis(crate::app::DEFAULT_THINK_MS);
        let (mut o, mut x, mut limit) = (
            self.o.clone().map(SeatArg::engine),
            self.x.clone().map(SeatArg::engine),
            self.think.limit_or(live_clock),
        );
        let rules = match loaded {
            Some(game) => game.rules,
            None => self.board.rules()?,
        };
        if self.human.is_some() {
            // One game; the computer plays whichever side the person does not.
            let (engine, level_limit) = match &self.ai {
                Some(seat) => (seat.clone().engine(), limit),
                None => {
                    let level = self.level.unwrap_or(Level::Hard);
                    let (kind, limit) = crate::app::setup::Level::from(level).engine(rules.is_go());
                    (SpecEngine::built_in(kind), limit)
                }
            };
            (o, x, limit) = (Some(engine.clone()), Some(engine), level_limit);
        }
        let seed = self.seed.unwrap_or_else(rand::random);
        let tournament = self.tournament(rules, seed, limit)?;
        // Nothing named: the default show's mix of boards, with the clock
        // the command line gives if it gives one.
        let names_the_play = self.board.named()
            || self.o.is_some()
            || self.x.is_some()
            || self.human.is_some()
            || tournament.is_some();
        let show = (!names_the_play).then(|| {
            let mut show = crate::app::show::Show::mixed();
            for v in &mut show.variants {
                v.rules = v.rules.with_rule(self.board.rule.into());
            }
            if self.think.think_ms.is_some() || self.think.mcts_iterations.is_some() {
                for v in &mut show.variants {
                    let spec = |e: BuiltIn| crate::engines::EngineSpec::for_seat(e.into());
                    v.limits = v.engines.map(|e| spec(e).limit(limit, v.rules));
                }
            }
            show
        });
        let games = match (&tournament, self.human) {
            (_, Some(_)) => 1,
            // No more boxes than the tournament has games.
            (Some(plan), None) => (self.games as usize).min(plan.schedule.len() as usize),
            (None, None) => self.games as usize,
        };
        // Human mode with nothing of its game named: the start screen.
        let setup = (self.human.is_some()
            && loaded.is_none()
            && !self.board.named()
            && self.level.is_none()
            && self.ai.is_none())
        .then(|| crate::app::setup::Choice {
            side: self.human.unwrap_or(Player::O),
            rule: self.board.rule.into(),
            ..crate::app::setup::Choice::default()
        });
        // A brain seat off five in a row must be told K by hand.
        let seats = [&o, &x].into_iter().flatten();
        let planned = tournament
            .iter()
            .flat_map(|p| p.specs.iter().map(|s| &s.engine));
        let warning = crate::engines::brain_goal_note(seats.chain(planned), rules);
        Ok(crate::app::LiveConfig {
            loaded: loaded.map(|g| g.moves.clone()).unwrap_or_default(),
            review: self.review,
            human_tc: self.tc.map(|(base, inc)| {
                let ms = std::time::Duration::from_millis;
                (ms(base), ms(inc))
            }),
            setup,
            show,
            tournament: tournament.map(std::rc::Rc::new),
            rules,
            rl: None,
            animate: !self.no_anim,
            utf8: crate::ui::logo::utf8_locale(),
            warning,
            games,
            o,
            x,
            delay: std::time::Duration::from_millis(self.delay),
            hold: std::time::Duration::from_millis(self.hold),
            limit,
            human: self.human,
            seed,
            fps: self.fps,
            color,
            fault_game,
        })
    }

    /// Whether the learning player was asked for by name (`--model`,
    /// `--o rl`): then a model that cannot be read stops the run.
    pub fn names_the_learner(&self, config: &crate::app::LiveConfig) -> bool {
        self.model.is_some()
            || [&config.o, &config.x]
                .into_iter()
                .flatten()
                .chain(self.engines.iter().map(|e| &e.engine))
                .any(|e| e.kind() == EngineKind::BuiltIn(BuiltIn::Rl))
    }
}

/// The computer's strength in human mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Level {
    Easy,
    Medium,
    Hard,
    Perfect,
}

impl From<Level> for crate::app::setup::Level {
    fn from(level: Level) -> Self {
        match level {
            Level::Easy => Self::Easy,
            Level::Medium => Self::Medium,
            Level::Hard => Self::Hard,
            Level::Perfect => Self::Perfect,
        }
    }
}

fn parse_side(s: &str) -> Result<Player, String> {
    match s.to_ascii_lowercase().as_str() {
        "o" => Ok(Player::O),
        "x" => Ok(Player::X),
        _ => Err(format!(
            "'{}' is not a side: use o (moves first) or x",
            kxo_engine::text::shown(s)
        )),
    }
}

// Parsed once at start-up: the size of the biggest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// The perfect-play value of a position, with the best move.
    Solve(SolveArgs),
    /// A tournament between engines: paired openings, a ranking with Elo,
    /// a crosstable, SPRT, game records, resume and shards.
    Arena(ArenaArgs),
    /// Train the learning player (rl) by self-play and save its model.
    Train(TrainArgs),
    /// How well a learning player's model plays: the share of its moves
    /// that keep the game-theoretic value, judged by the solver.
    Eval(EvalArgs),
    /// Be a brain of the Gomoku AI protocol on standard input and output,
    /// for Gomocup managers (piskvork, liskvork) and board programs.
    Brain(BrainArgs),
    /// Review a game file (SGF or .psq) on the human board: step through
    /// its moves with the engine's value of each position, its best move
    /// and the largest drops marked (`--human --load FILE`, then `v`).
    Review(ReviewArgs),
    /// Be a Go engine of the Go Text Protocol (version 2) on standard
    /// input and output, for GoGui, Sabaki, Lizzie, twogtp, gomill, KGS
    /// and arena's gtp:PATH seats.
    Gtp(GtpArgs),
    /// This machine's figures in about ten seconds, for a bug report: the
    /// CPU, the kernels chosen and why, playouts, MCTS, solve times, the
    /// 15x15 engine and a task switch.
    Bench(BenchArgs),
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// What an engine served on standard input plays with (`brain`, `gtp`).
#[derive(Args, Debug)]
pub struct ServedArgs {
    /// The engine that plays, with its own options if any
    /// (`mcts:iterations=500`, `negamax:eval=learned`).
    #[arg(long, value_name = "ENGINE", default_value = "mcts", value_parser = parse_own_engine)]
    pub engine: crate::engines::EngineSpec,
    /// Thinking time per move in milliseconds; the controller's clock cuts
    /// it further (the Gomoku protocol's INFO timeout_turn and time_left,
    /// GTP's time_settings and time_left). Not given: a brain takes its
    /// manager's turn (less a reserve) and a share of its match time as
    /// its own, and 1000 when the manager gives no turn; a GTP engine 1000.
    #[arg(long, value_name = "T", value_parser = whole::<u64>(1..=600_000))]
    pub think_ms: Option<u64>,
    /// The most memory (MiB) the engine's tree may take (a Gomoku
    /// manager's INFO max_memory cuts it to half of its limit).
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = parse_hash_mb)]
    pub hash: usize,
    /// Seed for reproducible play (default: a random one).
    #[arg(long, value_parser = whole::<u64>(..))]
    pub seed: Option<u64>,
}

#[derive(Args, Debug)]
pub struct BrainArgs {
    #[command(flatten)]
    pub served: ServedArgs,
    /// Marks in a row that win (the protocol gives only the board size).
    #[arg(long, default_value_t = 5, value_parser = whole::<u8>(3..=u64::from(MAX_GOAL)))]
    pub goal: u8,
    /// Negamax's evaluation above 8x8: shapes (a line count) or learned
    /// (the learning player's line patterns, from its model of the board).
    #[arg(long, value_enum, default_value_t = Eval::Shapes)]
    pub eval: Eval,
}

#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game file: SGF (kxo-tui's or another program's) or .psq.
    #[arg(value_name = "FILE", value_hint = clap::ValueHint::FilePath)]
    pub file: PathBuf,
    /// Keep the logo's rainbow still.
    #[arg(long)]
    pub no_anim: bool,
}

impl ReviewArgs {
    /// The live screen's arguments that review the file: human mode with
    /// the file loaded, its review open.
    pub fn live(&self) -> LiveArgs {
        let mut args = <Cli as clap::Parser>::parse_from(["kxo-tui", "--human"]).live;
        args.load = Some(self.file.clone());
        args.review = true;
        args.no_anim = self.no_anim;
        args
    }
}

#[derive(Args, Debug)]
pub struct GtpArgs {
    #[command(flatten)]
    pub served: ServedArgs,
}

/// How Negamax evaluates a position above 8x8.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    Shapes,
    Learned,
}

#[derive(Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The model file (default: the one `train` writes for these rules).
    #[arg(long, value_name = "PATH")]
    pub model: Option<PathBuf>,
    /// Games against Random on each side (default: 500; 40 beyond 16
    /// cells, where the solver needs up to a second a position).
    #[arg(long, value_parser = whole::<u32>(1..=1_000_000))]
    pub games: Option<u32>,
    /// Positions in the fixed sample of reachable positions (default:
    /// 2,000; 200 beyond 16 cells).
    #[arg(long, value_parser = whole::<u32>(1..=10_000_000))]
    pub sample: Option<u32>,
    /// Seed of the games against Random (the sample is always the same).
    #[arg(long, value_parser = whole::<u64>(..), default_value_t = 1)]
    pub seed: u64,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Games to play and learn from (default: 100,000; 1,500,000 for 4x4
    /// with four in a row; 20,000 above 8x8).
    #[arg(long, value_parser = whole::<u64>(1..=1_000_000_000))]
    pub episodes: Option<u64>,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// The model file (default: one per size and goal under the user's data folder).
    #[arg(long, value_name = "PATH")]
    pub model: Option<PathBuf>,
    /// Seed for reproducible training (default: a random one).
    #[arg(long, value_parser = whole::<u64>(..))]
    pub seed: Option<u64>,
    /// What a new model starts from: zero (a table, every unseen position
    /// ½: it learns everything; the default up to 4x4), heuristic (a table
    /// from a line count) or network (the default beyond: an n-tuple
    /// network up to 8x8, line patterns above, the only start there).
    #[arg(long, value_name = "START")]
    pub init: Option<kxo_engine::learner::Init>,
    /// Above 8x8: whom the learner plays while it learns: itself (self),
    /// or every other game the yardstick, Negamax held to 256 nodes a move
    /// (negamax; slower, and a stronger evaluation for eval=learned).
    #[arg(long, value_enum, default_value_t = Partner::Itself)]
    pub against: Partner,
}

/// Whom the learner plays while it learns above 8x8.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partner {
    #[value(name = "self")]
    Itself,
    Negamax,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub rules: RulesArgs,
    /// Moves played so far, from O's first: e.g. B2,C3,A1, or a game's
    /// record copied from the screen (B2 → C3 → A1, 1. B2 C3 2. A1).
    #[arg(long, value_name = "MOVES", default_value = "")]
    pub moves: String,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// The most memory the transposition table may take, in MiB (it grows
    /// only as far as the search needs).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_HASH_MB,
          value_parser = parse_hash_mb)]
    pub hash: usize,
    /// Give up after this many seconds with an "unsettled" answer (exit
    /// status 3). Ctrl-C does the same.
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub timeout: Option<std::time::Duration>,
    /// Write a proof that the side to move cannot win (for draws and
    /// losses) to FILE: one line a branch of the defender's strategy,
    /// ending in the game's end, no open line, or a pairing strategy.
    #[arg(long, value_name = "FILE")]
    pub proof: Option<PathBuf>,
    /// A long solve, root move by root move: each settled one is kept in
    /// FILE (JSON), so that a stopped run can go on with --resume FILE.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub checkpoint: Option<PathBuf>,
    /// Go on with the solve kept in FILE by --checkpoint (the same --size,
    /// --goal and --moves), skipping the root moves it settled.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
}

fn parse_hash_mb(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(mb) if (1..=65_536).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "'{}' is not a table size: use 1 to 65536 (MiB)",
            kxo_engine::text::shown(s)
        )),
    }
}

fn parse_seconds(s: &str) -> Result<std::time::Duration, String> {
    match s.parse::<f64>() {
        Ok(secs) if secs > 0.0 && secs <= 1e7 => Ok(std::time::Duration::from_secs_f64(secs)),
        _ => Err(format!(
            "'{}' is not a number of seconds: use more than 0, up to 10000000",
            kxo_engine::text::shown(s)
        )),
    }
}

pub(crate) fn parse_engine_spec(s: &str) -> Result<crate::engines::EngineSpec, String> {
    crate::engines::EngineSpec::parse(s)
}

fn parse_engine(s: &str) -> Result<BuiltIn, String> {
    s.parse()
}

/// What plays a seat: a built-in engine or an outside brain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatArg(SpecEngine);

impl SeatArg {
    pub fn engine(self) -> SpecEngine {
        self.0
    }
}

/// One of kxo-tui's own engines with its options: `mcts:iterations=500`.
pub(crate) fn parse_own_engine(s: &str) -> Result<crate::engines::EngineSpec, String> {
    if s.starts_with("brain:") || s.starts_with("gtp:") {
        return Err("kxo-tui plays its own engines here: name one of them".into());
    }
    let kind = s.split_once(':').map_or(s, |(kind, _)| kind);
    crate::engines::EngineSpec::from_spec(&kind.to_ascii_lowercase(), s)
}

pub(crate) fn parse_seat(s: &str) -> Result<SeatArg, String> {
    if s.starts_with("brain:") || s.starts_with("gtp:") {
        BrainCommand::parse(s).map(|command| SeatArg(SpecEngine::brain(command)))
    } else {
        parse_engine(s).map(|kind| SeatArg(SpecEngine::built_in(kind)))
    }
}

/// Turns a clap error into one line: "error: ..." without the usage block.
pub fn one_line_error(rendered: &str) -> String {
    rendered
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        // The definition, and the command line as `main` reads it.
        Cli::command().debug_assert();
        super::command().debug_assert();
    }

    #[test]
    fn clap_errors_fold_into_one_line() {
        let err = Cli::try_parse_from(["kxo-tui", "arena", "--o", "chess"]).unwrap_err();
        let line = one_line_error(&err.render().to_string());
        assert!(!line.contains('\n'));
        assert!(line.starts_with("error:"), "{line}");
        assert!(line.contains("unknown engine 'chess'"), "{line}");
    }

    fn live(args: &[&str]) -> LiveArgs {
        let cli =
            Cli::try_parse_from(std::iter::once("kxo-tui").chain(args.iter().copied())).unwrap();
        cli.live
    }

    /// A brain seat, or a brain in the screen's tournament, off five in
    /// a row: the screen says that K must be set by hand (the Gomoku AI
    /// protocol has no K), as `arena` does; at five, or with no brain, it
    /// says nothing.
    #[test]
    fn brain_seats_off_five_in_a_row_are_warned_that_the_protocol_has_no_k() {
        use crate::ui::palette::ColorMode;
        let warning = |args: &[&str]| live(args).config(ColorMode::None, None).unwrap().warning;
        for args in [
            &["--size", "10", "--goal", "4", "--o", "brain:/bin/cat"][..],
            &[
                "--size",
                "20",
                "--goal",
                "6",
                "--human",
                "o",
                "--ai",
                "brain:/bin/cat",
            ],
            &[
                "--size",
                "10",
                "--goal",
                "4",
                "--engine",
                "a=negamax",
                "--engine",
                "b=brain:/bin/cat",
            ],
        ] {
            let w = warning(args).unwrap_or_else(|| panic!("no warning for {args:?}"));
            let k = args[3];
            assert!(w.contains(&format!("brain --goal {k}")), "{args:?}: {w}");
        }
        for args in [
            &["--gomoku", "--o", "brain:/bin/cat"][..],
            &["--size", "10", "--goal", "4", "--o", "negamax"],
        ] {
            assert_eq!(warning(args), None, "{args:?}");
        }
    }

    #[test]
    fn the_live_config_follows_the_flags() {
        use crate::ui::palette::ColorMode;
        let args = live(&[
            "--games",
            "4",
            "--o",
            "mcts",
            "--think-ms",
            "300",
            "--seed",
            "7",
        ]);
        let c = args.config(ColorMode::None, None).unwrap();
        assert_eq!(c.games, 4);
        assert_eq!((&c.o, &c.x), (&Some(BuiltIn::Mcts.into()), &None));
        assert_eq!(c.limit, RunLimit::Millis(300));
        assert_eq!(c.seed, 7);
        assert!(c.rl.is_none() && c.warning.is_none());
        assert!(!args.names_the_learner(&c));
        // Human mode: one game, the computer on both seats, the level's budget.
        let args = live(&["--human", "x", "--level", "perfect", "--games", "9"]);
        let c = args.config(ColorMode::None, Some(2)).unwrap();
        assert_eq!(c.games, 1);
        assert_eq!(c.human, Some(Player::X));
        assert_eq!(
            (c.o, c.x),
            (Some(BuiltIn::Negamax.into()), Some(BuiltIn::Negamax.into()))
        );
        assert_eq!(c.fault_game, Some(2));
        // The learner plays every board (line patterns above 8x8).
        let args = live(&["--size", "15", "--goal", "5", "--x", "rl"]);
        let c = args.config(ColorMode::None, None).unwrap();
        assert_eq!(c.x, Some(BuiltIn::Rl.into()));
        assert!(args.names_the_learner(&c));
        let args = live(&["--o", "rl"]);
        let c = args.config(ColorMode::None, None).unwrap();
        assert!(args.names_the_learner(&c));
    }

    #[test]
    fn engines_on_the_live_screen_make_a_tournament_plan() {
        use crate::ui::palette::ColorMode;
        let args = live(&[
            "--engine",
            "a=mcts:think-ms=50",
            "--engine",
            "b=negamax",
            "--engine",
            "c=random",
            "--format",
            "gauntlet",
            "--tournament-games",
            "3",
            "--games",
            "9",
            "--seed",
            "2",
        ]);
        let c = args.config(ColorMode::None, None).unwrap();
        let plan = c.tournament.as_ref().unwrap();
        // Gauntlet: a against b and c, two rounds of a pair (3 rounds up).
        assert_eq!(plan.schedule.len(), 6);
        assert_eq!(c.games, 6, "no more boxes than games");
        assert_eq!(plan.settings.seed, 2);
        let err = live(&["--engine", "a=mcts", "--engine", "a=random"])
            .config(ColorMode::None, None)
            .unwrap_err();
        assert!(err.0.contains("two engines are called 'a'"), "{err}");
        let err = live(&["--engine", "a=mcts"])
            .config(ColorMode::None, None)
            .unwrap_err();
        assert!(err.0.contains("at least two"), "{err}");
        for bad in [
            vec!["--engine", "a=mcts", "--o", "mcts"],
            vec!["--tournament-games", "4"],
            vec!["--engine", "a=mcts", "--human"],
        ] {
            let argv = std::iter::once("kxo-tui").chain(bad.iter().copied());
            assert!(Cli::try_parse_from(argv).is_err(), "{bad:?}");
        }
    }
}
