//! The rules of a game: the board's side N, and which game it is: K in a
//! row (free-style or standard), or Go (area scoring with komi, and its
//! handicap). Boards up to 8x8 of the line games also carry their
//! one-word tables ([`super::geometry`]).

use std::fmt;
use std::sync::OnceLock;

use super::geometry::Geometry;

/// Smallest and largest supported board side.
pub const MIN_SIZE: u8 = 3;
pub const MAX_SIZE: u8 = 20;
/// The longest line a game may ask for.
pub const MAX_GOAL: u8 = 8;
/// The largest side whose board fits one 64-bit word: the engines tuned on
/// `u64` bitboards (and their tables below) serve boards up to this side.
pub const SMALL_MAX_SIZE: u8 = 8;
const _: () = assert!(MAX_SIZE as usize * MAX_SIZE as usize <= super::bits::CAPACITY);

/// Which game: which lines win, by Gomocup's names, or Go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// K or more in a row wins (Gomocup's rule 0).
    #[default]
    Freestyle,
    /// Exactly K in a row wins: a longer line (an overline) does not
    /// (Gomocup's "standard", `INFO rule 1`).
    Standard,
    /// Go: captures, no suicide, positional superko, two passes end the
    /// game, and area scoring (Chinese rules, as Tromp–Taylor counts)
    /// with komi.
    Go,
}

impl Rule {
    /// The rule's name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Go => "go",
        }
    }

    /// What wins, in words: "5 in a row", or "exactly 5 in a row".
    pub fn in_a_row(self, goal: u8) -> String {
        match self {
            Rule::Freestyle => format!("{goal} in a row"),
            Rule::Standard => format!("exactly {goal} in a row"),
            Rule::Go => "the larger area".to_string(),
        }
    }

    /// Whether this is free-style (for `skip_serializing_if`: records and
    /// reports of free-style runs read as they did before the rule).
    pub fn is_freestyle(&self) -> bool {
        *self == Rule::Freestyle
    }
}

/// The rules of one game: board side `size`, `goal` marks in a row, and
/// whether longer lines win too.
///
/// `Rules` is a cheap handle (`Copy`). Boards of at most 64 cells also
/// carry their one-word [`Geometry`] tables, built the first time they are
/// asked for and then kept for the whole run. Those tables and the engines
/// built on them count any K in a row, so a small board where an overline
/// fits under the standard rule goes without them, to the engines of the
/// big boards, which know the rule.
#[derive(Clone, Copy)]
pub struct Rules {
    size: u8,
    goal: u8,
    rule: Rule,
    small: Option<&'static Geometry>,
    /// Go: komi in half points (7.5 is 15), and the handicap stones.
    komi2: i16,
    handicap: u8,
}

/// The smallest and largest Go boards a game is played on (the engine's
/// board takes 2 to 19, for the counts of legal positions).
pub const GO_MIN_SIZE: u8 = 5;
pub const GO_MAX_SIZE: u8 = 19;
/// Komi on every Go board unless given: 7.5, so that no game is drawn.
pub const GO_KOMI2: i16 = 15;

/// Why a (N, K) pair was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for RulesError {}

impl Rules {
    /// The rules for an N x N board with K in a row.
    pub fn new(size: u8, goal: u8) -> Result<Rules, RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RulesError(format!(
                "board size {size} is out of range: use {MIN_SIZE} to {MAX_SIZE}"
            )));
        }
        let max_goal = size.min(MAX_GOAL);
        if goal < 3 || goal > max_goal {
            return Err(RulesError(format!(
                "goal {goal} is out of range for a {size}x{size} board: use 3 to {max_goal}"
            )));
        }
        if size > SMALL_MAX_SIZE {
            return Ok(Rules {
                size,
                goal,
                rule: Rule::Freestyle,
                small: None,
                komi2: 0,
                handicap: 0,
            });
        }
        static CACHE: OnceLock<Vec<OnceLock<&'static Geometry>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| {
            (0..(SMALL_MAX_SIZE as usize + 1) * (SMALL_MAX_SIZE as usize + 1))
                .map(|_| OnceLock::new())
                .collect()
        });
        let slot = &cache[size as usize * (SMALL_MAX_SIZE as usize + 1) + goal as usize];
        let geo = *slot.get_or_init(|| Box::leak(Box::new(Geometry::build(size, goal))));
        Ok(Rules {
            size,
            goal,
            rule: Rule::Freestyle,
            small: Some(geo),
            komi2: 0,
            handicap: 0,
        })
    }

    /// Go on a `size` board (2 to 19; [`GO_MIN_SIZE`] to [`GO_MAX_SIZE`]
    /// for games), with komi `komi2` in half points and `handicap` stones
    /// (0, or 2 to the board's most: [`Rules::max_handicap`]).
    pub fn go(size: u8, komi2: i16, handicap: u8) -> Result<Rules, RulesError> {
        if !(2..=GO_MAX_SIZE).contains(&size) {
            return Err(RulesError(format!(
                "a Go board of {size}x{size} is out of range: use {GO_MIN_SIZE} to {GO_MAX_SIZE}"
            )));
        }
        if komi2.abs() > 2 * 150 {
            return Err(RulesError(format!(
                "komi {} is out of range: use -150 to 150",
                komi2 as f32 / 2.0
            )));
        }
        let rules = Rules {
            size,
            goal: 0,
            rule: Rule::Go,
            small: None,
            komi2,
            handicap: 0,
        };
        let most = rules.max_handicap();
        if handicap == 1 || handicap > most {
            return Err(RulesError(format!(
                "a handicap of {handicap} stones on {size}x{size}: use 0, or 2 to {most}"
            )));
        }
        Ok(Rules { handicap, ..rules })
    }

    /// A side's mark in short text: "O" and "X" on the line boards, Go's
    /// "●" (Black) and "○" (White).
    pub fn side_mark(self, player: super::Player) -> &'static str {
        match (self.is_go(), player) {
            (false, super::Player::O) => "O",
            (false, super::Player::X) => "X",
            (true, super::Player::O) => "●",
            (true, super::Player::X) => "○",
        }
    }
    /// A side's name in a sentence: "O", "X"; "Black", "White" in Go.
    pub fn side_name(self, player: super::Player) -> &'static str {
        match (self.is_go(), player) {
            (true, super::Player::O) => "Black",
            (true, super::Player::X) => "White",
            (false, _) => self.side_mark(player),
        }
    }
    /// Whether this is Go.
    pub fn is_go(self) -> bool {
        self.rule == Rule::Go
    }
    /// Go's komi, in points.
    pub fn komi(self) -> f32 {
        self.komi2 as f32 / 2.0
    }
    /// Go's komi, in half points.
    pub fn komi2(self) -> i16 {
        self.komi2
    }
    /// Go's handicap stones (0: none).
    pub fn handicap(self) -> u8 {
        self.handicap
    }
    /// The most fixed handicap stones a Go board takes, as GTP places
    /// them: none below 7x7, 4 on 7x7 and on even sides, 9 on odd sides
    /// from 9x9.
    pub fn max_handicap(self) -> u8 {
        match self.size {
            0..=6 => 0,
            7 => 4,
            n if n % 2 == 0 => 4,
            _ => 9,
        }
    }
    /// Whether people count this board's rows from the bottom: Gomoku
    /// records and boards do (H8 the centre of 15x15, A1 the lower left
    /// corner), as Go does; the small boards of tic-tac-toe count from the
    /// top, as kxo-tui always has.
    pub fn rows_from_bottom(self) -> bool {
        self.is_go() || self.size > SMALL_MAX_SIZE
    }

    /// The name of `cell` (or a pass) as the game writes it: "B3" on the
    /// small boards (row 1 at the top), Gomoku's "h8" on the larger ones
    /// (upper case, row 1 at the bottom), GTP's "C7" in Go (no I, row 1
    /// at the bottom).
    pub fn cell_name(self, cell: super::Cell) -> String {
        match self.rule {
            Rule::Go => crate::go::vertex_name(cell, self.size),
            _ if cell.is_pass() => "pass".to_string(),
            _ if self.rows_from_bottom() => self.flipped(cell).name(self.size),
            _ => cell.name(self.size),
        }
    }
    /// Reads a cell (or a pass in Go) as [`Rules::cell_name`] writes it.
    pub fn parse_cell(self, text: &str) -> Result<super::Cell, super::CoordError> {
        match self.rule {
            Rule::Go => crate::go::parse_vertex(text, self.size),
            _ if self.rows_from_bottom() => {
                super::Cell::parse(text, self.size).map(|c| self.flipped(c))
            }
            _ => super::Cell::parse(text, self.size),
        }
    }
    /// Reads a list of cells as [`Rules::parse_cell`] reads one (commas,
    /// spaces or arrows between them, move numbers skipped).
    pub fn parse_cells(self, text: &str) -> Result<Vec<super::Cell>, super::CoordError> {
        super::Cell::parse_list_with(text, |word| self.parse_cell(word))
    }
    /// The cell in the same column, its row counted from the other edge.
    fn flipped(self, cell: super::Cell) -> super::Cell {
        let n = self.size;
        super::Cell::from_row_col(n - 1 - cell.row(n), cell.col(n), n)
    }

    /// These rules with `rule` deciding which lines win (a line rule only:
    /// Go has rules of its own, [`Rules::go`]).
    pub fn with_rule(self, rule: Rule) -> Rules {
        if rule == Rule::Go || self.is_go() {
            return self;
        }
        let overline_fits = self.size > self.goal;
        Rules {
            rule,
            small: match rule {
                Rule::Standard if overline_fits => None,
                _ => Rules::new(self.size, self.goal).ok().and_then(|r| r.small),
            },
            ..self
        }
    }

    pub fn rule(self) -> Rule {
        self.rule
    }
    /// What wins, in words: "5 in a row", or "exactly 5 in a row".
    pub fn in_a_row(self) -> String {
        self.rule.in_a_row(self.goal)
    }
    /// Whether only exactly K in a row wins (the standard rule).
    pub fn exact(self) -> bool {
        self.rule == Rule::Standard
    }

    /// The default game: 4x4, three in a row.
    pub fn default_rules() -> Rules {
        Rules::new(4, 3).expect("4x4 with three in a row is valid")
    }

    pub fn size(self) -> u8 {
        self.size
    }
    pub fn goal(self) -> u8 {
        self.goal
    }
    pub fn cells(self) -> u16 {
        self.size as u16 * self.size as u16
    }
    /// Whether the one-word tables serve this game: boards up to 8x8, bar
    /// those where the standard rule lets an overline fit.
    pub fn is_small(self) -> bool {
        self.small.is_some()
    }
    /// Why the one-word tables (and the solver and the table of positions
    /// built on them) do not serve this game, in words; `None` where they
    /// do.
    pub fn beyond_small(self) -> Option<String> {
        match (self.small, self.size > SMALL_MAX_SIZE) {
            (_, _) if self.is_go() => Some("Go".to_string()),
            (Some(_), _) => None,
            (None, true) => Some(format!("{n}x{n}, above 8x8", n = self.size)),
            // Their tables count any K in a row.
            (None, false) => Some(format!(
                "the standard rule on {n}x{n}, where an overline fits",
                n = self.size
            )),
        }
    }
    /// The one-word tables, for boards of at most 64 cells.
    pub fn small_geometry(self) -> Option<&'static Geometry> {
        self.small
    }
    /// The one-word tables. Only the engines tuned for small boards ask for
    /// them, and they are only built for such boards.
    ///
    /// # Panics
    /// On boards above 8x8.
    pub fn geometry(self) -> &'static Geometry {
        self.small
            .expect("one-word tables exist only for boards up to 8x8")
    }
}

impl PartialEq for Rules {
    fn eq(&self, other: &Rules) -> bool {
        let key = |r: &Rules| (r.size, r.goal, r.rule, r.komi2, r.handicap);
        key(self) == key(other)
    }
}
impl Eq for Rules {}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_go() {
            return write!(
                f,
                "Rules({n}x{n} Go, komi {}, handicap {})",
                self.komi(),
                self.handicap,
                n = self.size
            );
        }
        write!(
            f,
            "Rules({}x{}, {} in a row{})",
            self.size(),
            self.size(),
            self.goal(),
            if self.exact() { ", exactly" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn out_of_range_rules_are_refused() {
        assert!(Rules::new(2, 3).is_err());
        assert!(Rules::new(21, 5).is_err());
        assert!(Rules::new(4, 5).is_err());
        assert!(Rules::new(5, 2).is_err());
        assert!(Rules::new(15, 9).is_err());
        assert!(Rules::new(8, 8).is_ok());
        assert!(Rules::new(9, 3).is_ok_and(|r| !r.is_small()));
        assert!(Rules::new(20, 5).is_ok_and(|r| r.cells() == 400));
    }
}
