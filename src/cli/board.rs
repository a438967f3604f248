//! The flags that name a board and its rules: side and line, Go's size,
//! komi and handicap, the opening rule, the time a move.

use clap::Args;

use super::whole::whole;
use crate::engines::RunLimit;
use crate::error::InputError;
use kxo_engine::{MAX_GOAL, MAX_SIZE, MIN_SIZE, Rule, Rules};

/// The live screen's board: side and marks in a row; neither given, the
/// default show's mix of boards (4x4 with three where one board is needed).
#[derive(Args, Debug, Clone, Copy)]
pub struct BoardArgs {
    /// Board side N (an N x N board), 3 to 20 (15 with --goal 5: Gomoku);
    /// without --size or --goal the screen shows a mix of boards.
    #[arg(long, value_parser = whole::<u8>(u64::from(MIN_SIZE)..=u64::from(MAX_SIZE)))]
    pub size: Option<u8>,
    /// Marks in a row that win, 3 to N (at most 8); longer lines win too.
    #[arg(long, value_parser = whole::<u8>(3..=u64::from(MAX_GOAL)))]
    pub goal: Option<u8>,
    /// Gomoku: --size 15 --goal 5.
    #[arg(long, conflicts_with_all = ["size", "goal"])]
    pub gomoku: bool,
    /// Which lines win: freestyle (K or more in a row) or standard
    /// (exactly K: an overline does not win).
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    #[command(flatten)]
    pub go: GoArgs,
}

impl BoardArgs {
    /// The board named, 4x4 with three in a row where none is.
    pub fn rules(self) -> Result<Rules, InputError> {
        RulesArgs {
            size: self.size.unwrap_or(4),
            goal: self.goal.unwrap_or(3),
            gomoku: self.gomoku,
            rule: self.rule,
            go: self.go,
        }
        .rules()
    }

    /// Whether the command line names a board.
    pub fn named(self) -> bool {
        self.size.is_some() || self.goal.is_some() || self.gomoku || self.go.go.is_some()
    }
}

/// Go instead of a line game: its board, komi and handicap.
#[derive(Args, Debug, Clone, Copy)]
pub struct GoArgs {
    /// Go on an N x N board (5 to 19; 9, 13 and 19 the usual): area
    /// scoring, positional superko.
    #[arg(long, value_name = "N", conflicts_with_all = ["size", "goal", "gomoku"],
          value_parser = whole::<u8>(u64::from(kxo_engine::GO_MIN_SIZE)..=u64::from(kxo_engine::GO_MAX_SIZE)))]
    pub go: Option<u8>,
    /// With --go: komi, White's points for moving second (default 7.5,
    /// so that no game is drawn).
    #[arg(long, value_name = "K", requires = "go", allow_negative_numbers = true,
          value_parser = parse_komi)]
    pub komi: Option<i16>,
    /// With --go: Black's fixed handicap stones (2 to 9 on odd boards from
    /// 9x9, 2 to 4 on even ones), placed as GTP places them.
    #[arg(long, value_name = "H", requires = "go", value_parser = whole::<u8>(2..=9))]
    pub handicap: Option<u8>,
}

impl GoArgs {
    /// Go's rules, when --go names them.
    fn rules(self) -> Result<Option<Rules>, InputError> {
        let Some(size) = self.go else {
            return Ok(None);
        };
        let komi2 = self.komi.unwrap_or(kxo_engine::GO_KOMI2);
        Rules::go(size, komi2, self.handicap.unwrap_or(0))
            .map(Some)
            .map_err(|e| InputError(e.0))
    }
}

/// Reads komi in points, a whole or a half: "7.5", "-2", "0"; kept as half
/// points.
fn parse_komi(text: &str) -> Result<i16, String> {
    let bad = || {
        format!(
            "'{}' is not a komi: write points, whole or a half, from -150 to 150 (e.g. 7.5)",
            kxo_engine::text::shown(text)
        )
    };
    let k: f64 = text.trim().parse().map_err(|_| bad())?;
    let half = k * 2.0;
    if !k.is_finite() || half.fract() != 0.0 || !(-300.0..=300.0).contains(&half) {
        return Err(bad());
    }
    Ok(half as i16)
}

/// Which lines win, as Gomocup names the rules (`INFO rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RuleArg {
    /// K or more in a row wins.
    Freestyle,
    /// Exactly K in a row wins; an overline does not.
    Standard,
}

impl From<RuleArg> for Rule {
    fn from(rule: RuleArg) -> Rule {
        match rule {
            RuleArg::Freestyle => Rule::Freestyle,
            RuleArg::Standard => Rule::Standard,
        }
    }
}

/// The board: side and marks in a row.
#[derive(Args, Debug, Clone, Copy)]
pub struct RulesArgs {
    /// Board side N (an N x N board), 3 to 20 (15 with --goal 5: Gomoku).
    #[arg(long, default_value_t = 4, value_parser = whole::<u8>(u64::from(MIN_SIZE)..=u64::from(MAX_SIZE)))]
    pub size: u8,
    /// Marks in a row that win, 3 to N (at most 8); longer lines win too.
    #[arg(long, default_value_t = 3, value_parser = whole::<u8>(3..=u64::from(MAX_GOAL)))]
    pub goal: u8,
    /// Gomoku as Gomocup plays it: --size 15 --goal 5; in arena, random
    /// openings and, with --records, .psq beside .sgf.
    #[arg(long, conflicts_with_all = ["size", "goal"])]
    pub gomoku: bool,
    /// Which lines win: freestyle (K or more in a row) or standard
    /// (exactly K: an overline does not win).
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    #[command(flatten)]
    pub go: GoArgs,
}

impl RulesArgs {
    pub fn rules(self) -> Result<Rules, InputError> {
        if let Some(go) = self.go.rules()? {
            return Ok(go);
        }
        let (size, goal) = if self.gomoku {
            (15, 5)
        } else {
            (self.size, self.goal)
        };
        let rules = Rules::new(size, goal).map_err(|e| InputError(e.0))?;
        Ok(rules.with_rule(self.rule.into()))
    }
}

/// How long engines think per move.
#[derive(Args, Debug, Clone, Copy)]
pub struct ThinkArgs {
    /// MCTS iterations per move (headless default: 10,000); Negamax then
    /// solves as far as its node limit allows.
    #[arg(long, value_name = "I", value_parser = whole::<u64>(1..=100_000_000))]
    pub mcts_iterations: Option<u64>,
    /// Instead: a clock of this many milliseconds of CPU time per move, for
    /// every engine (the live screen's default: 100).
    #[arg(long, value_name = "T", conflicts_with = "mcts_iterations",
          value_parser = whole::<u64>(1..=600_000))]
    pub think_ms: Option<u64>,
}

impl ThinkArgs {
    /// The budget the flags name, or `default` when they name none.
    pub fn limit_or(self, default: RunLimit) -> RunLimit {
        match RunLimit::from_parts(self.think_ms, self.mcts_iterations) {
            RunLimit::Default => default,
            named => named,
        }
    }
}
