//! Human mode's review task: the engine's opinion of each position of the
//! game under review, the first unknown one first, searched like a hint
//! (a coroutine with a budget) but for a shorter time, so the values come
//! in while the person steps through the game.

use std::time::Duration;

use super::door::Door;
use super::hint::{HintBudget, analyse, limit_for};
use super::requests::while_wanted;
use super::scheduler::{Ctx, Event, wait_for};
use crate::app::Message;
use crate::app::review::{Opinion, value_for_first};

/// Thinking time a position above 8x8 and in Go.
const REVIEW_TIME: Duration = Duration::from_millis(400);

/// The body of the review task.
pub(crate) fn run_review(ctx: &Ctx, door: Door) {
    loop {
        let next = door.state().human().as_ref().and_then(|h| {
            let review = h.review.as_ref()?;
            let at = review.next_unknown()?;
            Some((review.id, at, review.position_at(at)))
        });
        let Some((id, at, pos)) = next else {
            wait_for(ctx, Event::Review);
            continue;
        };
        let wanted = while_wanted(&door, move |h| {
            h.review.as_ref().is_some_and(|r| r.id == id)
        });
        let rules = pos.rules();
        let mut budget = HintBudget::new(ctx, limit_for(rules, REVIEW_TIME), wanted);
        let opinion = match pos.outcome().is_over() {
            // Over on the board (a line, a full board, Go's two passes):
            // its result.
            true => Opinion {
                value: match pos.outcome() {
                    kxo_engine::Outcome::Win(kxo_engine::Player::O) => 1.0,
                    kxo_engine::Outcome::Win(kxo_engine::Player::X) => -1.0,
                    _ => 0.0,
                },
                best: None,
            },
            false => {
                let (best, estimate, _) = analyse(&pos, id ^ at as u64, &mut budget);
                Opinion {
                    value: value_for_first(estimate, pos.to_move()),
                    best: Some(best),
                }
            }
        };
        budget.close();
        door.send(Message::Reviewed { id, at, opinion });
    }
}
