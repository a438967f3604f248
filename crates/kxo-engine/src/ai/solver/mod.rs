//! The perfect solver behind `kxo-tui solve`, the hint and the tests: one
//! full-depth alpha-beta search with exact values (a win `d` plies away
//! scores `WIN - d`), no depth limit and no heuristic.
//!
//! What makes boards beyond 4x4 tractable, as in the literature on
//! k-in-a-row games:
//! - threats: a win in one ends the search; one threat of the opponent
//!   forces the block; two threats lose;
//! - dead cells: a cell on no line that either side can still complete is
//!   worth no more than a pass, and an extra stone never hurts in these
//!   games, so such cells are never searched; when neither side has an open
//!   line left the game is a draw however many cells are empty, and a side
//!   without open lines cannot win;
//! - a quick probe of the whole game first, given up after 1,024 nodes:
//!   short wins need nothing more;
//! - then the weak game: a null-window search in which only one side's
//!   lines count (the other side only blocks). If the side to move cannot
//!   win even so, it cannot win at all; the same for its opponent. Most
//!   draws are settled by these two small proofs; only a side that wins the
//!   weak game needs the whole game, searched for the exact distance;
//! - pairing strategies (five in a row and more): when the defender can
//!   pair off every line still open to a side (disjoint pairs of empty
//!   cells, each open line holding one), that side cannot win; found by a
//!   small backtracking search at each node ([`pairing`]). They settle
//!   (6,6,5) a few moves in;
//! - on those boards the weak games are AND/OR proofs with relevance zones
//!   ([`zone`]): a defender's proof says which cells it depends on, and the
//!   attacker's moves outside them need no proof of their own. With a
//!   look one defender move ahead for a pairing, they settle (7,7,5);
//! - a transposition table sized in bytes (`--hash MB`), keyed by the
//!   smallest of the 8 symmetric hashes and kept across searches, with
//!   two entries per bucket (the larger subtree, and the newest);
//! - move order: the table's move, moves that make or stop a threat,
//!   history, then cells on many open lines;
//! - a node's wins in one, threats, open lines and move keys come, on
//!   boards of up to 16 cells, from two rows of a table per cell set, and
//!   on boards with more lines than cells from each side's stones counted
//!   on every line at once (bit planes kept up by the moves); other boards
//!   walk the lines.
//!
//! A search can be stopped by a deadline or a flag (Ctrl-C); it then
//! answers that the position is unsettled, never a guess.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod lines;
pub(crate) mod pairing;
pub(crate) mod proof;
mod search;
mod table;
mod zone;
pub use zone::Lemma;

use super::negamax::Analysis;
use super::score::Scale;
use super::score::Value;
use crate::game::{Cell, CellTables, Geometry, Player, Position, Rules};
use lines::{LineCounts, count_stone, count_stones};
use table::Table;
use zone::ZoneTable;

/// The scores: a win `d` plies from the root scores `10_000 - d`; scores
/// at least 9,000 from 0 are wins or losses.
const SCALE: Scale = Scale {
    win: 10_000,
    proven: 9_000,
};
const INF: i32 = SCALE.inf();
/// Nodes between two looks at the clock, the stop flag and the progress.
const POLL_NODES: u64 = 1 << 14;
/// The largest table of an engine made with [`Solver::new`]: 1 MiB.
pub const DEFAULT_HASH_BYTES: usize = 1 << 20;
/// Hash keys of the two weak games.
const WEAK_KEYS: [u64; 2] = [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f];
/// Nodes the quick probe of a solve may search before it gives up.
const PROBE_NODES: u64 = 1 << 10;

/// How a search that did not finish ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsettled {
    /// The deadline passed.
    Timeout,
    /// The stop flag was raised (Ctrl-C).
    Interrupted,
}

/// Progress of a long search, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    pub nodes: u64,
    pub elapsed: Duration,
    /// The root's moves settled so far in the current pass, of `root_moves`.
    pub root_done: usize,
    pub root_moves: usize,
    /// "weak game" or "whole game": which search runs.
    pub phase: &'static str,
    /// Bytes of the tables in use.
    pub table_bytes: usize,
    /// The lemmas kept so far (see [`Lemma`]).
    pub lemmas: &'a [Lemma],
}

/// Whoever shows a long search's progress.
pub type ProgressReport = Box<dyn FnMut(&Progress<'_>)>;

/// The search's working copy of a position with its 8 symmetric hashes.
#[derive(Clone, Copy)]
struct State {
    boards: [u64; 2],
    side: usize,
    hashes: [u64; 8],
    /// On boards of at most 64 lines, each player's stones counted on
    /// every line, kept up by each move.
    counts: [LineCounts; 2],
}

pub struct Solver {
    rules: Rules,
    geo: &'static Geometry,
    /// The geometry's win and open-line tables (boards up to 16 cells).
    cell_tables: Option<&'static CellTables>,
    table: Table,
    /// The weak game's proofs with their zones (see [`zone`]).
    zones: ZoneTable,
    history: [[u32; 64]; 2],
    nodes: u64,
    next_poll: u64,
    started: Instant,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    stopped: Option<Unsettled>,
    /// The quick probe of a solve stops at this many nodes.
    node_limit: u64,
    /// The probe reached `node_limit`.
    probe_spent: bool,
    progress: Option<(Duration, ProgressReport)>,
    last_progress: Duration,
    phase: &'static str,
    root_done: usize,
    root_moves: usize,
    root_best: Option<u8>,
    /// In the weak game, the only side whose lines count.
    weak: Option<usize>,
    /// Look for pairing strategies at each node (five in a row and more,
    /// where lines are long enough for pairs to cover them).
    use_pairing: bool,
    /// Weak-game results that took long to find (see [`Lemma`]).
    lemmas: Vec<Lemma>,
    /// A weak-game result that took this many nodes becomes a lemma.
    lemma_nodes: u64,
}

impl Solver {
    /// A solver whose table may grow to 1 MiB.
    pub fn new(rules: Rules) -> Solver {
        Solver::with_hash_bytes(rules, DEFAULT_HASH_BYTES)
    }

    /// A solver whose tables may grow to about `bytes` together (at least
    /// 64 KiB each; the lemmas, at most a few MiB, come on top). They
    /// start small and double whenever the search has visited several
    /// times more nodes than they hold, so small problems never pay for a
    /// large table.
    pub fn with_hash_bytes(rules: Rules, bytes: usize) -> Solver {
        Solver {
            rules,
            geo: rules.geometry(),
            cell_tables: rules.geometry().cell_tables(),
            // The zone proofs run only with pairings (five in a row and
            // more); then the two tables share the bytes.
            table: Table::new(if rules.goal() >= 5 { bytes / 2 } else { bytes }),
            zones: ZoneTable::new(if rules.goal() >= 5 { bytes / 2 } else { 0 }),
            history: [[0; 64]; 2],
            nodes: 0,
            next_poll: POLL_NODES,
            started: Instant::now(),
            deadline: None,
            stop: None,
            stopped: None,
            node_limit: u64::MAX,
            probe_spent: false,
            progress: None,
            last_progress: Duration::ZERO,
            phase: "weak game",
            root_done: 0,
            root_moves: 0,
            root_best: None,
            weak: None,
            use_pairing: rules.goal() >= 5,
            lemmas: Vec::new(),
            lemma_nodes: zone::LEMMA_NODES,
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Nodes searched by the last (or current) solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The table's size in bytes now.
    pub fn hash_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Whether to look for pairing strategies (on by default for five in a
    /// row and more; off, the search is the one before them, for tests
    /// and measurements).
    pub fn set_pairing(&mut self, on: bool) {
        self.use_pairing = on;
    }

    /// Give up after this much time (`None`: never).
    pub fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.deadline = timeout.map(|t| Instant::now() + t);
    }

    /// Give up when `flag` is raised (e.g. by Ctrl-C).
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Call `report` about every `every` while a search runs.
    pub fn on_progress(&mut self, every: Duration, report: impl FnMut(&Progress<'_>) + 'static) {
        self.progress = Some((every, Box::new(report)));
    }

    /// The exact value of `pos` (which must not be over) and a best move:
    /// the fastest win, a move that keeps the draw, or the slowest loss.
    pub fn solve(&mut self, pos: &Position) -> Result<Analysis, Unsettled> {
        let mut st = self.start(pos);
        let empties = pos.small_empty().count_ones();
        // A quick probe: the whole game at once, for up to PROBE_NODES
        // nodes. It settles short wins (4x4 with three in a row, and most
        // positions late in a game) in fewer nodes than the two proofs
        // below; anything longer gives up, and what it settled stays in the
        // table.
        self.phase = "whole game";
        self.node_limit = PROBE_NODES;
        self.next_poll = PROBE_NODES.min(POLL_NODES);
        let probe = self.pass(&mut st, None, -INF, INF);
        self.node_limit = u64::MAX;
        self.next_poll = self.nodes + POLL_NODES;
        // The probe never looks at the clock or the stop flag (it polls
        // only at its node limit), so it either settled the root or is spent.
        let score = if std::mem::take(&mut self.probe_spent) {
            self.prove(&mut st)
        } else {
            probe
        };
        if let Some(why) = self.stopped {
            return Err(why);
        }
        // The search is exact: a score short of a win or a loss is a draw.
        let value = SCALE.value(score).unwrap_or(Value::Draw);
        let best = self
            .root_best
            .unwrap_or_else(|| pos.small_empty().trailing_zeros() as u8);
        Ok(Analysis {
            best: Cell::new(best.into()),
            value,
            depth: empties,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
        })
    }

    /// Whether `attacker` can complete a line in `pos` (not over) when the
    /// other side only blocks: the weak game alone. `false` means it
    /// cannot win the real game either.
    pub fn weak_game(&mut self, pos: &Position, attacker: Player) -> Result<bool, Unsettled> {
        let mut st = self.start(pos);
        let a = attacker.index();
        let (alpha, beta) = if st.side == a { (0, 1) } else { (-1, 0) };
        self.phase = "weak game";
        let score = self.weak_pass(&mut st, a, alpha, beta);
        match self.stopped {
            Some(why) => Err(why),
            None => Ok(if st.side == a { score > 0 } else { score < 0 }),
        }
    }

    /// A new search from `pos`: the counters reset, and the working copy.
    /// A search that must not start (the deadline passed, or the stop
    /// flag is up) is stopped at once: many small searches in a row, each
    /// too short to look at the clock, still end in time.
    fn start(&mut self, pos: &Position) -> State {
        self.started = Instant::now();
        self.last_progress = Duration::ZERO;
        self.nodes = 0;
        self.next_poll = POLL_NODES;
        self.stopped = self.stop_reason();
        let boards = [pos.small_board(Player::O), pos.small_board(Player::X)];
        let mut st = State {
            boards,
            side: pos.to_move().index(),
            hashes: self.geo.symmetric_hashes(boards),
            counts: [[0; 3]; 2],
        };
        if let Some(masks) = &self.geo.line_index_masks {
            st.counts = st.boards.map(|stones| count_stones(masks, stones));
        }
        st
    }

    /// The exact score of the root by the weak games first.
    fn prove(&mut self, st: &mut State) -> i32 {
        // First the game-theoretic value, by two null-window proofs: can the
        // side to move win, and can it hold the draw? Each is tried first in
        // the "weak" game where only the attacker's lines count, which is
        // much smaller and settles most draws: if the attacker cannot win
        // even when the defender only blocks, it cannot win at all.
        let me = st.side;
        self.phase = "weak game";
        let mut score = self.weak_pass(st, me, 0, 1);
        if score > 0 {
            // Won in the weak game: the whole game, for the exact distance
            // of a win (or a score of at most 0 when the defender's own
            // lines save it).
            self.phase = "whole game";
            score = self.pass(st, None, 0, INF);
        }
        if score <= 0 {
            self.phase = "weak game";
            score = self.weak_pass(st, me ^ 1, -1, 0);
            if score < 0 {
                // Lost in the weak game: the whole game, for the exact
                // distance of a loss (or 0: the draw holds).
                self.phase = "whole game";
                score = self.pass(st, None, -INF, 0);
            }
        }
        score
    }

    /// The weak game where only `attacker`'s lines count, searched in the
    /// null window `alpha, alpha + 1` (0 or -1): `alpha + 1` when the side
    /// to move gets there, `alpha` when not. With pairing strategies (five
    /// in a row and more) it is an AND/OR proof with relevance zones,
    /// otherwise alpha-beta.
    fn weak_pass(&mut self, st: &mut State, attacker: usize, alpha: i32, beta: i32) -> i32 {
        if !self.use_pairing {
            return self.pass(st, Some(attacker), alpha, beta);
        }
        self.weak = Some(attacker);
        match self.weak_by_zones(st, attacker) {
            // Stopped: the caller sees `stopped` and answers nothing.
            None => alpha,
            Some(attacker_wins) => {
                if attacker_wins == (attacker == st.side) {
                    beta
                } else {
                    alpha
                }
            }
        }
    }

    /// One search from the root, in the whole game (`weak: None`) or in the
    /// weak game where only `weak`'s lines count.
    fn pass(&mut self, st: &mut State, weak: Option<usize>, alpha: i32, beta: i32) -> i32 {
        self.weak = weak;
        self.root_best = None;
        self.search(st, 0, alpha, beta)
    }

    /// Whether the search must unwind: stopped, or the probe is spent.
    /// Nothing is stored on the way out.
    #[inline]
    fn halted(&self) -> bool {
        self.stopped.is_some() || self.probe_spent
    }

    #[inline]
    fn make(&self, st: &mut State, cell: u8) {
        st.boards[st.side] |= 1u64 << cell;
        if let Some(masks) = &self.geo.line_index_masks {
            count_stone(&mut st.counts[st.side], masks[cell as usize]);
        }
        for s in 0..8 {
            st.hashes[s] ^= self.geo.sym_zobrist[s][st.side][cell as usize];
        }
        st.side ^= 1;
    }

    /// Takes back `make(st, cell)`; the mover's line counts are restored
    /// from before the move (cheaper than counting down, and than copying
    /// the whole state, which is too big to copy inline).
    #[inline]
    fn unmake(&self, st: &mut State, cell: u8, counts_before: LineCounts) {
        st.side ^= 1;
        st.boards[st.side] ^= 1u64 << cell;
        for s in 0..8 {
            st.hashes[s] ^= self.geo.sym_zobrist[s][st.side][cell as usize];
        }
        st.counts[st.side] = counts_before;
    }

    /// Why the search must stop now, if it must: the stop flag, or the
    /// deadline passed.
    fn stop_reason(&self) -> Option<Unsettled> {
        if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            Some(Unsettled::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Unsettled::Timeout)
        } else {
            None
        }
    }

    /// The clock, the stop flag and the progress line: every few thousand
    /// nodes.
    #[cold]
    fn poll(&mut self) {
        if self.nodes >= self.node_limit {
            self.probe_spent = true;
            return;
        }
        self.next_poll = (self.nodes + POLL_NODES).min(self.node_limit);
        self.table.grow(self.nodes);
        if self.weak.is_some() && self.use_pairing {
            self.zones.grow(self.nodes);
        }
        self.stopped = self.stop_reason();
        let elapsed = self.started.elapsed();
        if let Some((every, report)) = &mut self.progress
            && elapsed >= self.last_progress + *every
        {
            self.last_progress = elapsed;
            report(&Progress {
                nodes: self.nodes,
                elapsed,
                root_done: self.root_done,
                root_moves: self.root_moves,
                phase: self.phase,
                table_bytes: self.table.bytes() + self.zones.bytes_used(),
                lemmas: &self.lemmas,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve_empty(size: u8, goal: u8) -> Analysis {
        let rules = Rules::new(size, goal).unwrap();
        Solver::new(rules).solve(&Position::new(rules)).unwrap()
    }

    #[test]
    fn a_short_win_is_settled_by_the_probe_and_a_draw_by_the_proofs() {
        let quick = solve_empty(4, 3);
        assert_eq!(quick.value, Value::Win { plies: 5 });
        assert!(quick.nodes < PROBE_NODES, "{}", quick.nodes);
        let draw = solve_empty(4, 4);
        assert_eq!(draw.value, Value::Draw);
        assert!(draw.nodes > PROBE_NODES, "{}", draw.nodes);
    }

    #[test]
    fn the_weak_game_alone_agrees_with_the_values() {
        // 4x4 with three: O wins, so wins its weak game; X cannot win, but
        // wins its own weak game (O only blocking) with O to move. With
        // four, and (6,6,5) by the zone proofs: neither wins its weak game.
        let weak = |size, goal, who| {
            let rules = Rules::new(size, goal).unwrap();
            Solver::new(rules)
                .weak_game(&Position::new(rules), who)
                .unwrap()
        };
        assert!(weak(4, 3, Player::O));
        assert!(weak(4, 3, Player::X));
        assert!(!weak(4, 4, Player::O) && !weak(4, 4, Player::X));
        assert!(!weak(6, 5, Player::O) && !weak(6, 5, Player::X));
        let rules = Rules::new(5, 4).unwrap();
        let pos = Position::from_moves(rules, &Cell::parse_list("C3,A1,C2", 5).unwrap()).unwrap();
        let mut solver = Solver::new(rules);
        let won = matches!(solver.solve(&pos).unwrap().value, Value::Loss { .. });
        assert!(won, "O wins after C3 A1 C2 on 5x5 with four");
        assert!(solver.weak_game(&pos, Player::O).unwrap());
    }

    #[test]
    fn a_solver_answers_the_same_on_reuse() {
        // The probe's state does not leak from one solve into the next.
        let rules = Rules::new(4, 4).unwrap();
        let mut solver = Solver::new(rules);
        let first = solver.solve(&Position::new(rules)).unwrap();
        let again = solver.solve(&Position::new(rules)).unwrap();
        assert_eq!(first.value, again.value);
        let won =
            Position::from_moves(rules, &Cell::parse_list("A1,D1,B2,D2,C3", 4).unwrap()).unwrap();
        let fresh = Solver::new(rules).solve(&won).unwrap();
        assert_eq!(solver.solve(&won).unwrap().value, fresh.value);
    }
}
