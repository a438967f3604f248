//! The scores of the exact searches: a win `d` plies away scores
//! `win - d`, a loss `-(win - d)`, and anything at least `proven` from 0 is
//! a proven result. Each engine has its scale (how far its heuristic
//! scores reach); the arithmetic on it is here, once.

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins; the game ends after `plies` more plies.
    Win { plies: u32 },
    /// The side to move loses after `plies` more plies.
    Loss { plies: u32 },
    /// Perfect play on both sides fills the board without a line.
    Draw,
    /// The search stopped before it could prove a result; a heuristic score.
    Unknown(i32),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Scale {
    pub win: i32,
    /// Scores from here up (and from minus this down) are proven.
    pub proven: i32,
}

impl Scale {
    /// Above every score: the bounds of a full window.
    pub(crate) const fn inf(self) -> i32 {
        self.win + 1
    }

    /// A win `plies` away.
    pub(crate) const fn win_in(self, plies: i32) -> i32 {
        self.win - plies
    }

    /// A score as a transposition table keeps it: a proven one relative
    /// to the node, so that it stays right when the position is reached
    /// at another ply. The infinite bounds stay as they are.
    pub(crate) fn table_score(self, score: i32, ply: i32) -> i32 {
        if (self.proven..self.inf()).contains(&score) {
            score + ply
        } else if (-self.inf() + 1..=-self.proven).contains(&score) {
            score - ply
        } else {
            score
        }
    }

    /// A score the table kept, read at `ply`.
    pub(crate) fn read_table(self, score: i32, ply: i32) -> i32 {
        if (self.proven..self.inf()).contains(&score) {
            score - ply
        } else if (-self.inf() + 1..=-self.proven).contains(&score) {
            score + ply
        } else {
            score
        }
    }

    /// The proven win or loss a score stands for (`None` short of
    /// `proven`, where each engine has its own answer: a draw, or a
    /// heuristic score).
    pub(crate) fn value(self, score: i32) -> Option<Value> {
        if score >= self.proven {
            Some(Value::Win {
                plies: (self.win - score) as u32,
            })
        } else if score <= -self.proven {
            Some(Value::Loss {
                plies: (self.win + score) as u32,
            })
        } else {
            None
        }
    }
}

/// The largest a learned network's weight may grow (each is a share of a
/// log-odds sum; the logistic is flat long before): learning stops there,
/// and a model file holding a larger one is refused, so sums stay finite.
pub const MAX_WEIGHT: f32 = 100.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_scores_move_with_the_ply_and_bounds_stay() {
        let s = Scale {
            win: 10_000,
            proven: 9_000,
        };
        for ply in [0, 1, 7, 30] {
            // A result seen at `ply` is at least that far from the root.
            for score in [s.win_in(ply + 5), -s.win_in(ply + 4), 0, 123, -8_999] {
                assert_eq!(s.read_table(s.table_score(score, ply), ply), score);
            }
            assert_eq!(s.table_score(s.inf(), ply), s.inf());
            assert_eq!(s.table_score(-s.inf(), ply), -s.inf());
        }
        // A win 5 plies from a node 3 plies deep is 8 plies from the root:
        // stored as 5 from the node, read back at ply 3 as 8 from the root.
        assert_eq!(s.table_score(s.win_in(8), 3), s.win_in(5));
        assert_eq!(s.read_table(s.win_in(5), 3), s.win_in(8));
    }
}
