//! `kxo-tui solve` on boards above 8x8, beyond the solver: a heuristic
//! search until the timeout, settled only when the position is decided
//! at once.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::solve_report::{SearchOptions, SolveReport, moves_and_ms};
use crate::ai::big::BigNegamax;
use crate::ai::{Budget, Value};
use crate::game::{Player, Position};

/// How long `solve` searches a board above 8x8 when no `--timeout` is given.
const BIG_BOARD_TIMEOUT: Duration = Duration::from_secs(10);

/// The budget of a big-board search: the clock and Ctrl-C.
struct StopBudget {
    start: Instant,
    stop: Option<Arc<AtomicBool>>,
}

impl Budget for StopBudget {
    fn tick(&mut self) -> bool {
        !self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Boards above 8x8: no exhaustive proof is within reach, so the search
/// runs the big-board Negamax until the timeout and reports its best move,
/// unsettled — unless the position is decided at once (a win in one, or
/// two threats of the opponent that no move stops).
pub(super) fn search_big(pos: &Position, moves: &str, options: SearchOptions) -> SolveReport {
    let rules = pos.rules();
    let timeout = options.timeout.unwrap_or(BIG_BOARD_TIMEOUT);
    let mut engine = BigNegamax::new(rules);
    engine.set_time_limit(timeout);
    let stop = options.stop.clone();
    let mut budget = StopBudget {
        start: Instant::now(),
        stop: options.stop,
    };
    let analysis = engine.analyse(pos, &mut budget);
    let me = pos.to_move();
    let settled = match analysis.value {
        Value::Win { plies: 1 } => Some((me, 1)),
        Value::Loss { plies: 2 } => Some((me.other(), 2)),
        _ => None,
    };
    let interrupted = stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
    let (moves, ms) = moves_and_ms(moves, rules.size(), analysis.elapsed);
    SolveReport {
        size: rules.size(),
        goal: rules.goal(),
        rule: rules.rule(),
        value: settled.map(|(winner, _)| match winner {
            Player::O => "first",
            Player::X => "second",
        }),
        unsettled: match (settled, interrupted) {
            (Some(_), _) => None,
            (None, true) => Some("interrupted"),
            (None, false) => Some("timeout"),
        },
        best_move: Some(analysis.best.name(rules.size())),
        plies: settled.map(|(_, plies)| plies),
        nodes: analysis.nodes,
        ms,
        moves,
        to_move: me.symbol(),
        note: settled.is_none().then(|| {
            format!(
                "{} is beyond this solver: the best move is what a heuristic \
                 search found in {:.1} s of the {:.0} s allowed (depth {}), not a proof",
                rules.beyond_small().unwrap_or_default(),
                analysis.elapsed.as_secs_f64(),
                timeout.as_secs_f64(),
                analysis.depth
            )
        }),
    }
}
