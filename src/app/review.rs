//! Human mode's review (`v` after or during a game, `kxo-tui review
//! FILE`): step through a game's positions with the engine's opinion of
//! each, its value and best move beside the move played, and the moves
//! where the value dropped most. The review task fills the values in,
//! one position at a time, while the screen stays live.

use super::{Action, App, Direction, Effect};
use kxo_engine::{AnyPosition, Cell, Estimate, Outcome, Player, Rules, Value};

/// How much a move must cost (on the -1 to 1 scale) to be named a mistake.
pub const MISTAKE: f32 = 0.15;
/// The most mistakes marked.
pub const MARKED: usize = 3;

/// The engine's opinion of one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opinion {
    /// For the first player (Black, O), from -1 (lost) to 1 (won).
    pub value: f32,
    /// Its best move there (none once the game is over).
    pub best: Option<Cell>,
}

/// A game under review.
#[derive(Clone, Debug)]
pub struct Review {
    /// Which review: the task's answers name it.
    pub id: u64,
    pub rules: Rules,
    pub moves: Vec<Cell>,
    /// The position after `at` moves, shown.
    pub at: usize,
    pub pos: AnyPosition,
    /// Per position, 0 to all the moves: the engine's opinion, once known.
    pub opinions: Vec<Option<Opinion>>,
}

impl Review {
    pub fn new(id: u64, rules: Rules, moves: Vec<Cell>) -> Review {
        let mut opinions = vec![None; moves.len() + 1];
        // The final position needs no search when the board decided it.
        if let Ok(end) = AnyPosition::from_moves(rules, &moves)
            && let Outcome::Win(_) | Outcome::Draw = end.outcome()
        {
            let value = match end.outcome() {
                Outcome::Win(Player::O) => 1.0,
                Outcome::Win(Player::X) => -1.0,
                _ => 0.0,
            };
            opinions[moves.len()] = Some(Opinion { value, best: None });
        }
        let at = moves.len();
        let pos = position(rules, &moves[..at]);
        Review {
            id,
            rules,
            moves,
            at,
            pos,
            opinions,
        }
    }

    /// The position after `at` moves.
    pub fn position_at(&self, at: usize) -> AnyPosition {
        position(self.rules, &self.moves[..at.min(self.moves.len())])
    }

    /// The first position whose opinion is still unknown.
    pub fn next_unknown(&self) -> Option<usize> {
        self.opinions.iter().position(Option::is_none)
    }

    /// Shows the position after `at` moves (within the game).
    pub fn go_to(&mut self, at: usize) {
        self.at = at.min(self.moves.len());
        self.pos = self.position_at(self.at);
    }

    /// What move `i` (from 0) cost the side that played it: the value
    /// before it less the value after, from its side (positive: worse).
    pub fn drop(&self, i: usize) -> Option<f32> {
        let (before, after) = (
            self.opinions.get(i)?.as_ref()?,
            self.opinions.get(i + 1)?.as_ref()?,
        );
        let mover = self.position_at(i).to_move();
        let sign = if mover == Player::O { 1.0 } else { -1.0 };
        Some(sign * (before.value - after.value))
    }

    /// The moves that cost most (at least [`MISTAKE`]), the worst first:
    /// at most [`MARKED`].
    pub fn mistakes(&self) -> Vec<(usize, f32)> {
        let mut drops: Vec<(usize, f32)> = (0..self.moves.len())
            .filter_map(|i| self.drop(i).map(|d| (i, d)))
            .filter(|&(_, d)| d >= MISTAKE)
            .collect();
        drops.sort_by(|a, b| b.1.total_cmp(&a.1));
        drops.truncate(MARKED);
        drops
    }
}

fn position(rules: Rules, moves: &[Cell]) -> AnyPosition {
    AnyPosition::from_moves(rules, moves).unwrap_or_else(|_| AnyPosition::new(rules))
}

/// A search's estimate for the side to move as a value for the first
/// player, -1 to 1: a proven result, Negamax's score squashed, or twice
/// MCTS's win rate less one.
pub fn value_for_first(estimate: Estimate, to_move: Player) -> f32 {
    let mine = match estimate {
        Estimate::Value(Value::Win { .. }) => 1.0,
        Estimate::Value(Value::Loss { .. }) => -1.0,
        Estimate::Value(Value::Draw) => 0.0,
        Estimate::Value(Value::Unknown(score)) => (score as f32 / 500.0).tanh(),
        Estimate::WinRate(w) => 2.0 * w - 1.0,
    };
    match to_move {
        Player::O => mine,
        Player::X => -mine,
    }
}

impl App {
    /// `v`: reviews the game on the board (or, with a review shown, goes
    /// back to the game).
    pub(super) fn toggle_review(&mut self) -> Vec<Effect> {
        let game = &self.games[0];
        let (moves, rules) = (game.record.moves.clone(), game.pos.rules());
        let Some(human) = self.human.as_mut() else {
            return Vec::new();
        };
        if human.review.take().is_some() {
            human.message = None;
            return vec![Effect::RedrawNow];
        }
        if moves.is_empty() {
            human.message = Some("nothing to review yet: no move is played".into());
            return vec![Effect::RedrawNow];
        }
        if human.clock.is_some() && game.status == super::GameStatus::Playing {
            human.message = Some("the clock is running: review after the game".into());
            return vec![Effect::RedrawNow];
        }
        human.review_seq += 1;
        human.review = Some(Review::new(human.review_seq, rules, moves));
        human.message = None;
        vec![Effect::Review, Effect::RedrawNow]
    }

    /// The keys while a review shows: the arrows (and h j k l) step, Esc
    /// or `v` goes back to the game; `None` for the keys that act as
    /// anywhere (quit, help, tabs, `#`).
    pub(super) fn update_review(&mut self, action: Action) -> Option<Vec<Effect>> {
        let human = self.human.as_mut()?;
        let review = human.review.as_mut()?;
        let step = |at: usize, by: i64| (at as i64 + by).max(0) as usize;
        match action {
            Action::Cursor(Direction::Left) => review.go_to(step(review.at, -1)),
            Action::Cursor(Direction::Right) => review.go_to(step(review.at, 1)),
            Action::Cursor(Direction::Up) => review.go_to(0),
            Action::Cursor(Direction::Down) => review.go_to(usize::MAX),
            Action::Escape | Action::Review => return Some(self.toggle_review()),
            Action::ToggleNumbers => human.numbers = !human.numbers,
            Action::Quit | Action::Suspend | Action::Resize(..) | Action::ToggleHelp => {
                return None;
            }
            Action::ShowTab(_) | Action::NextTab | Action::Scroll(_) | Action::TogglePause => {
                return None;
            }
            _ => {
                human.message = Some("reviewing: ← → step, Esc goes back to the game".into());
            }
        }
        Some(vec![Effect::RedrawNow])
    }

    /// The review task's opinion of position `at` of review `id`.
    pub(super) fn reviewed(&mut self, id: u64, at: usize, opinion: Opinion) -> Vec<Effect> {
        let Some(review) = self.human.as_mut().and_then(|h| h.review.as_mut()) else {
            return Vec::new();
        };
        if review.id != id {
            return Vec::new();
        }
        if let Some(slot) = review.opinions.get_mut(at) {
            *slot = Some(opinion);
        }
        self.touch(false);
        vec![Effect::Review, Effect::Redraw]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_are_read_from_the_movers_side_and_the_worst_are_marked() {
        let rules = Rules::new(4, 3).unwrap();
        let moves = Cell::parse_list("B2,A1,C3,D4", 4).unwrap();
        let mut r = Review::new(1, rules, moves);
        assert_eq!(r.next_unknown(), Some(0));
        let values = [0.0, 0.0, 0.0, -0.8, -0.6];
        for (i, v) in values.into_iter().enumerate() {
            r.opinions[i] = Some(Opinion {
                value: v,
                best: None,
            });
        }
        // O's C3 (move 3) threw 0.8 away; X's D4 (move 4) cost X 0.2; A1
        // cost X nothing.
        let close = |a: Option<f32>, b: f32| (a.unwrap() - b).abs() < 1e-6;
        assert!(close(r.drop(2), 0.8) && close(r.drop(3), 0.2) && close(r.drop(1), 0.0));
        let marked: Vec<usize> = r.mistakes().iter().map(|m| m.0).collect();
        assert_eq!(marked, [2, 3]);
        r.go_to(2);
        assert_eq!(r.pos.to_move(), Player::O);
        r.go_to(99);
        assert_eq!(r.at, 4);
        assert_eq!(value_for_first(Estimate::WinRate(0.75), Player::X), -0.5);
        assert_eq!(
            value_for_first(Estimate::Value(Value::Win { plies: 3 }), Player::O),
            1.0
        );
    }

    #[test]
    fn a_won_game_s_last_position_needs_no_search() {
        let rules = Rules::new(4, 3).unwrap();
        let moves = Cell::parse_list("A1,A2,B1,B2,C1", 4).unwrap();
        let r = Review::new(1, rules, moves);
        assert_eq!(
            r.opinions[5],
            Some(Opinion {
                value: 1.0,
                best: None
            })
        );
        assert_eq!(r.next_unknown(), Some(0));
    }
}
