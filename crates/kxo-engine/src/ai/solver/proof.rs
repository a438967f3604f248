//! A proof that the side to move cannot win a position: a strategy for
//! the defender, written out so that anyone can check it.
//!
//! The proof is a tree: at the attacker's turns every move is answered, at
//! the defender's turns one move is given, and every branch ends in one of
//! - `over`: the game is over and the attacker has not won;
//! - `dead`: no line is open to the attacker (each holds a defender stone);
//! - `pairs A1-B2 …`: a pairing strategy for the defender against the
//!   attacker's open lines (see [`super::pairing`]).
//!
//! On disk (`solve --proof FILE`), one line per branch: the moves from the
//! position (cell names, both sides), then its end. Lines starting with
//! `#` are comments. For a draw from the empty board the proof shows that
//! the first player cannot win; that the second cannot either is the
//! strategy-stealing argument (an extra stone never hurts in these games).

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Solver, pairing};
use crate::ai::Value;
use crate::game::{Cell, Outcome, Position};

/// How a branch of the proof ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Over,
    Dead,
    Pairs(pairing::Pairs),
}

/// A branch: the moves from the proof's position, and its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Branch {
    pub moves: Vec<Cell>,
    pub end: End,
}

/// Steps a pairing search may take when the proof looks for a leaf.
const PAIRING_STEPS: u32 = 50_000;
/// The most branches a proof may have before its search gives up.
const MAX_BRANCHES: usize = 2_000_000;

/// Why no proof came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoProof {
    /// The solver stopped first (its deadline or stop flag).
    Unsettled(super::Unsettled),
    /// There is none to write, or it would be too large.
    Refused(String),
}

impl From<&str> for NoProof {
    fn from(why: &str) -> NoProof {
        NoProof::Refused(why.into())
    }
}

/// A proof that the side to move in `pos` cannot win, if `solver` shows it
/// cannot and the proof stays under two million branches. The solver's
/// deadline and stop flag bound the whole proof.
pub fn cannot_win(solver: &mut Solver, pos: &Position) -> Result<Vec<Branch>, NoProof> {
    let value = solver.solve(pos).map_err(NoProof::Unsettled)?.value;
    if matches!(value, Value::Win { .. }) {
        return Err("the side to move wins: there is no defence to write".into());
    }
    let mut builder = Builder {
        solver,
        pairings: HashMap::new(),
        out: Vec::new(),
        moves: Vec::new(),
    };
    builder.attacker_turn(pos)?;
    Ok(builder.out)
}

/// The proof being written, and the pairings already looked for (the
/// same position is met again along other move orders).
struct Builder<'a> {
    solver: &'a mut Solver,
    pairings: HashMap<(u64, u64), Option<pairing::Pairs>>,
    out: Vec<Branch>,
    moves: Vec<Cell>,
}

impl Builder<'_> {
    /// The end of a branch at `pos` if one applies, for `attacker`.
    fn leaf(&mut self, pos: &Position, attacker: crate::game::Player) -> Option<End> {
        match pos.outcome() {
            Outcome::Win(p) if p == attacker => return None,
            Outcome::Ongoing => {}
            _ => return Some(End::Over),
        }
        let geo = pos.rules().geometry();
        let defender = pos.small_board(attacker.other());
        if geo.lines.iter().all(|&l| l & defender != 0) {
            return Some(End::Dead);
        }
        let empty = pos.small_empty();
        self.pairings
            .entry((defender, empty))
            .or_insert_with(|| pairing::find(&geo.lines, defender, empty, PAIRING_STEPS))
            .clone()
            .map(End::Pairs)
    }

    fn branch(&mut self, end: End) {
        self.out.push(Branch {
            moves: self.moves.clone(),
            end,
        });
    }

    /// The attacker to move: every move answered.
    fn attacker_turn(&mut self, pos: &Position) -> Result<(), NoProof> {
        let attacker = pos.to_move();
        if let Some(end) = self.leaf(pos, attacker) {
            self.branch(end);
            return Ok(());
        }
        for cell in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(cell);
            self.moves.push(cell);
            if let Some(end) = self.leaf(&child, attacker) {
                self.branch(end);
            } else {
                if child.outcome() == Outcome::Win(attacker) {
                    return Err("the attacker wins a branch: not a proof".into());
                }
                // The defender's answer: the solver's move, which keeps it
                // from losing.
                let answer = self.solver.solve(&child).map_err(NoProof::Unsettled)?;
                if matches!(answer.value, Value::Loss { .. }) {
                    return Err("the defender loses a branch: not a proof".into());
                }
                let mut next = child;
                next.play_unchecked(answer.best);
                self.moves.push(answer.best);
                self.attacker_turn(&next)?;
                self.moves.pop();
            }
            self.moves.pop();
            if self.out.len() > MAX_BRANCHES {
                return Err(NoProof::Refused(format!(
                    "the proof has more than {MAX_BRANCHES} branches"
                )));
            }
        }
        Ok(())
    }
}

/// The proof as text, one branch a line after a header.
pub fn to_text(pos: &Position, branches: &[Branch], header: &str) -> String {
    let size = pos.rules().size();
    let mut out = String::new();
    let _ = writeln!(out, "# kxo-tui proof: {header}");
    let _ = writeln!(
        out,
        "# {} to move cannot win; one line a branch: the moves from the position, then how it ends",
        pos.to_move()
    );
    let _ = writeln!(
        out,
        "# (over: the game ended without its win; dead: no line open to it; pairs: the defender's pairing)"
    );
    for b in branches {
        let moves: Vec<String> = b.moves.iter().map(|c| c.name(size)).collect();
        let end = match &b.end {
            End::Over => "over".to_string(),
            End::Dead => "dead".to_string(),
            End::Pairs(pairs) => {
                let list: Vec<String> = pairs
                    .iter()
                    .map(|&(a, b)| {
                        format!(
                            "{}-{}",
                            Cell::new(a.into()).name(size),
                            Cell::new(b.into()).name(size)
                        )
                    })
                    .collect();
                format!("pairs {}", list.join(" "))
            }
        };
        let _ = writeln!(out, "{} {end}", moves.join(" "));
    }
    out
}
