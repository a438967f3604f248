//! What human mode's helper tasks (the hint, the files, the review) share:
//! waiting for the state to ask them something new, and asking it again,
//! mid-search, whether the answer is still wanted.

use super::door::Door;
use super::scheduler::{Ctx, Event, wait_for};
use crate::app::human::HumanState;

/// Waits until `ask` finds a request in the person's state whose id is
/// not `last` (one may have come while the last was being answered),
/// waking at `event`; returns it with its id.
pub(super) fn next_request<T>(
    ctx: &Ctx,
    door: &Door,
    event: Event,
    last: u64,
    ask: impl Fn(&HumanState) -> Option<(u64, T)>,
) -> (u64, T) {
    loop {
        let found = door
            .state()
            .human()
            .and_then(&ask)
            .filter(|(id, _)| *id != last);
        match found {
            Some(request) => return request,
            None => wait_for(ctx, event),
        }
    }
}

/// A test the search asks between its slices: the program is not quitting
/// and `still` holds of the person's state (the request is the same).
pub(super) fn while_wanted<'a>(
    door: &'a Door,
    still: impl Fn(&HumanState) -> bool + 'a,
) -> Box<dyn Fn() -> bool + 'a> {
    Box::new(move || {
        let app = door.state();
        !app.quit() && app.human().is_some_and(&still)
    })
}
