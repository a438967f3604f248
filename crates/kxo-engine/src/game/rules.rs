//! The rules of a game: the board's side N, K in a row, and which lines
//! win (free-style or standard). Boards up to 8x8 also carry their
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

/// Which lines win, by Gomocup's names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// K or more in a row wins (Gomocup's rule 0).
    #[default]
    Freestyle,
    /// Exactly K in a row wins: a longer line (an overline) does not
    /// (Gomocup's "standard", `INFO rule 1`).
    Standard,
}

impl Rule {
    /// The rule's name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
        }
    }

    /// What wins, in words: "5 in a row", or "exactly 5 in a row".
    pub fn in_a_row(self, goal: u8) -> String {
        match self {
            Rule::Freestyle => format!("{goal} in a row"),
            Rule::Standard => format!("exactly {goal} in a row"),
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
}

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
        })
    }

    /// These rules with `rule` deciding which lines win.
    pub fn with_rule(self, rule: Rule) -> Rules {
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
        (self.size, self.goal, self.rule) == (other.size, other.goal, other.rule)
    }
}
impl Eq for Rules {}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
