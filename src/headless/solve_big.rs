//! `kxo-tui solve` on boards above 8x8, beyond the solver: a heuristic
//! search until the timeout, settled only by a proof: a win or loss at
//! once, or a win by threats (fours, or fours and threes), whose every
//! step the threat searches check against all the replies that could
//! answer it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::solve_report::{SearchOptions, SolveReport, moves_and_ms};
use kxo_engine::gomoku::BigNegamax;
use kxo_engine::{Budget, SearchInfo, Value};
use kxo_engine::{Player, Position};

/// How long `solve` searches a board above 8x8 when no `--timeout` is given.
const BIG_BOARD_TIMEOUT: Duration = Duration::from_secs(10);

/// The budget of a big-board search: the clock and Ctrl-C; it notes a
/// win the threat searches proved.
struct StopBudget {
    start: Instant,
    timeout: Duration,
    stop: Option<Arc<AtomicBool>>,
    won_by_threats: bool,
}

impl Budget for StopBudget {
    fn tick(&mut self) -> bool {
        let stopped = self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        !stopped && !self.limit().reached(self.start.elapsed(), 0)
    }
    fn limit(&self) -> kxo_engine::Limit {
        kxo_engine::Limit::Time(self.timeout)
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    fn report(&mut self, info: &SearchInfo) {
        // The alpha-beta's "proved" is over the moves it chose to read; a
        // threat search's win is a proof.
        if info.proved && info.threat.is_some() {
            self.won_by_threats = true;
        }
    }
}

/// Boards above 8x8: no exhaustive proof is within reach, so the search
/// runs the big-board Negamax until the timeout and reports its best move,
/// unsettled — unless the position is decided at once (a win in one, or
/// two threats of the opponent that no move stops) or the side to move
/// wins by threats. An unsettled report says what the search expects.
pub(super) fn search_big(pos: &Position, moves: &str, options: SearchOptions) -> SolveReport {
    let rules = pos.rules();
    let timeout = options.timeout.unwrap_or(BIG_BOARD_TIMEOUT);
    let mut engine = BigNegamax::new(rules);
    let stop = options.stop.clone();
    let mut budget = StopBudget {
        start: Instant::now(),
        timeout,
        stop: options.stop,
        won_by_threats: false,
    };
    let analysis = engine.analyse(pos, &mut budget);
    let me = pos.to_move();
    // Who wins, in how many plies, and whether by a threat search's line.
    let settled = match analysis.value {
        Value::Win { plies: 1 } => Some((me, 1, false)),
        Value::Loss { plies: 2 } => Some((me.other(), 2, false)),
        Value::Win { plies } if budget.won_by_threats => Some((me, plies, true)),
        _ => None,
    };
    // What the search expects, when it found more than a score.
    let expects = match analysis.value {
        Value::Win { plies } => format!("; it sees a win in {plies} plies for {me}"),
        Value::Loss { plies } => format!("; it sees a loss in {plies} plies for {me}"),
        _ => String::new(),
    };
    let beyond = rules.beyond_small().unwrap_or_default();
    let interrupted = stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
    let (moves, ms) = moves_and_ms(moves, rules.size(), analysis.elapsed);
    SolveReport {
        size: rules.size(),
        goal: rules.goal(),
        rule: rules.rule(),
        value: settled.map(|(winner, ..)| match winner {
            Player::O => "first",
            Player::X => "second",
        }),
        unsettled: match (settled, interrupted) {
            (Some(_), _) => None,
            (None, true) => Some("interrupted"),
            (None, false) => Some("timeout"),
        },
        best_move: Some(rules.cell_name(analysis.best)),
        plies: settled.map(|(_, plies, _)| plies),
        nodes: analysis.nodes,
        ms,
        moves,
        to_move: me.symbol(),
        note: match settled {
            Some((_, plies, true)) => Some(format!(
                "{beyond} is beyond this solver; this win is proved by threats (each \
                 reply that could answer them read): a forced line of {plies} plies, \
                 and a shorter one may exist"
            )),
            Some(_) => None,
            None => Some(format!(
                "{beyond} is beyond this solver: the best move is what a heuristic \
                 search found in {:.1} s of the {} s allowed (depth {}){expects} \
                 against the replies it read, not a proof",
                analysis.elapsed.as_secs_f64(),
                // As given (0.3, 1, 2.25), not rounded to a whole second.
                timeout.as_secs_f64(),
                analysis.depth
            )),
        },
    }
}
