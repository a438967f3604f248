//! Human mode's hint: a perfect-play search run as a coroutine with a
//! budget, like any engine, so the screen stays live while it thinks and a
//! new key cancels it.

use std::time::Duration;

use super::clock::{Due, SliceClock};
use super::door::Door;
use super::requests::{next_request, while_wanted};
use super::scheduler::{Ctx, Event, Suspend};
use crate::app::Message;
use kxo_engine::go::{GoMcts, Playouts};
use kxo_engine::gomoku::BigNegamax;
use kxo_engine::{
    AnyPosition, Budget, Cell, Estimate, GoEngine, GoMove, Limit, Negamax, SearchInfo, Threat,
};

/// Nodes the hint may search (a full solve of 4x4 needs far fewer).
pub(super) const HINT_NODES: u64 = 2_000_000;
/// Thinking time of a hint on boards above 8x8, where nothing is solved.
pub(super) const BIG_BOARD_HINT_TIME: Duration = Duration::from_secs(2);
/// The most moves of the expected line a hint shows.
const LINE_PLIES: usize = 8;

/// Slices the search and stops it when its request is cancelled.
pub(super) struct HintBudget<'a> {
    ctx: &'a Ctx<'a>,
    /// Whether the answer is still wanted (a new key cancels a hint).
    wanted: Box<dyn Fn() -> bool + 'a>,
    /// The search's CPU, slice by slice, against its time on big boards.
    cpu: SliceClock,
    limit: Limit,
    /// A forced win by threats the search reported.
    threat: Option<Threat>,
    /// The win rate of the move it would play, as MCTS last reported it.
    win_rate: Option<f32>,
}

impl<'a> HintBudget<'a> {
    pub(super) fn new(ctx: &'a Ctx<'a>, limit: Limit, wanted: Box<dyn Fn() -> bool + 'a>) -> Self {
        HintBudget {
            ctx,
            wanted,
            cpu: SliceClock::new(limit),
            limit,
            threat: None,
            win_rate: None,
        }
    }

    fn still_wanted(&self) -> bool {
        (self.wanted)()
    }

    /// Adds the search's last slice to the task's CPU meter.
    pub(super) fn close(&mut self) {
        self.ctx.cpu.add(self.cpu.close());
    }
}

/// What a search made of a position: its best move (a pass in Go), its
/// value for the side to move, and the line it expects.
pub(super) fn analyse(
    pos: &AnyPosition,
    seed: u64,
    budget: &mut HintBudget,
) -> (Cell, Estimate, Vec<Cell>) {
    let rules = pos.rules();
    match pos {
        AnyPosition::Mnk(pos) if rules.is_small() => {
            let mut solver = Negamax::new(rules);
            solver.set_node_limit(HINT_NODES);
            let a = solver.analyse(pos, budget);
            let line = solved_line(&mut solver, pos, a.best, budget);
            (a.best, Estimate::Value(a.value), line)
        }
        AnyPosition::Mnk(pos) => {
            let mut negamax = BigNegamax::new(rules);
            let a = negamax.analyse(pos, budget);
            let line = match budget.threat {
                Some(t) => t.line().collect(),
                None => negamax.line(pos, a.best, LINE_PLIES),
            };
            (a.best, Estimate::Value(a.value), line)
        }
        AnyPosition::Go(pos) => {
            let mut mcts = GoMcts::new(seed, Playouts::Heavy).without_resigning();
            let best = match mcts.choose(pos, budget) {
                GoMove::Play(cell) => cell,
                GoMove::Pass | GoMove::Resign => Cell::PASS,
            };
            let estimate = Estimate::WinRate(budget.win_rate.unwrap_or(0.5));
            (best, estimate, mcts.line().to_vec())
        }
    }
}

/// How long a search of a position may take: the solver's nodes on the
/// small boards, `time` above 8x8 and in Go.
pub(super) fn limit_for(rules: kxo_engine::Rules, time: Duration) -> Limit {
    match rules.is_small() {
        true => Limit::Whole,
        false => Limit::Time(time),
    }
}

impl Budget for HintBudget<'_> {
    fn tick(&mut self) -> bool {
        match self.cpu.due() {
            Due::Run => return true,
            Due::Stop => return false,
            Due::Yield => {}
        }
        let ran = self.cpu.close();
        self.ctx.cpu.add(ran);
        self.ctx.suspend(Suspend::Yield);
        self.cpu.restart();
        self.still_wanted()
    }

    fn elapsed(&self) -> Duration {
        self.cpu.elapsed()
    }

    fn report(&mut self, info: &SearchInfo) {
        if info.threat.is_some() {
            self.threat = info.threat;
        }
        if let Some(Estimate::WinRate(w)) = info.estimate {
            self.win_rate = Some(w);
        }
    }

    fn limit(&self) -> Limit {
        self.limit
    }
}

/// The body of the hint task: waits for a request, searches, answers.
pub(crate) fn run_hint(ctx: &Ctx, door: Door) {
    let mut last_id = 0;
    loop {
        let (id, request) = next_request(ctx, &door, Event::Hint, last_id, |h| {
            h.hint_request.clone().map(|r| (r.id, r))
        });
        last_id = id;
        let rules = door.state().config().rules;
        let wanted = while_wanted(&door, move |h| {
            h.hint_request.as_ref().is_some_and(|r| r.id == id)
        });
        let mut budget = HintBudget::new(ctx, limit_for(rules, BIG_BOARD_HINT_TIME), wanted);
        let (best, estimate, line) = analyse(&request.pos, request.id, &mut budget);
        budget.close();
        if budget.still_wanted() {
            door.send(Message::HintFound {
                id: request.id,
                best,
                estimate,
                threat: budget.threat,
                line,
            });
        }
    }
}

/// The line of perfect play from `pos` on a small board, `best` first: the
/// solver's best move, position after position (its table makes each
/// solve after the first a lookup or close to one).
fn solved_line(
    solver: &mut Negamax,
    pos: &kxo_engine::Position,
    best: Cell,
    budget: &mut HintBudget,
) -> Vec<Cell> {
    let mut pos = *pos;
    let mut line = Vec::new();
    let mut next = best;
    while line.len() < LINE_PLIES && pos.play(next).is_ok() {
        line.push(next);
        if pos.outcome().is_over() || !budget.still_wanted() {
            break;
        }
        next = solver.analyse(&pos, budget).best;
    }
    line
}
