//! Negamax for boards above 8x8: alpha-beta by iterative deepening under
//! the clock, over the few most promising cells near the stones, with the
//! threat rules of the solver as exact cut-offs and extensions:
//! - a win in one ends the search of a node (it is a win),
//! - two opponent wins in one are a loss (one block is not enough),
//! - one opponent win in one leaves one legal reply, the block, searched
//!   without using up depth, so chains of forcing moves are read to the end,
//! - a double four when neither side has a win cell is a win in 3
//!   ([`BigBoard::winning_double_four`]),
//! - against a three (a double four to come) only the replies that can
//!   hold are searched (a four, or a stone that leaves no double four),
//!   and when they are few ([`DEFENCE_EXTENSION`]) that ply is not counted
//!   either: threat lines are read deeper than quiet ones.
//!
//! A leaf is a win when the side to move has a short win by fours (a VCF
//! found in a few tries, [`LEAF_VCF_TRIES`]); else it is worth the
//! board's window score: what each side's windows of K cells are worth
//! to it.
//!
//! Beyond those rules the search is selective (at most [`WIDTH`] moves a
//! node, and the late quiet ones first searched a ply shallower), so a
//! "win in N" it reports is what it found against the replies it
//! considered, not a proof; the solver's proofs stop at 8x8.

use std::time::Duration;

use super::{BigBoard, Tables};
use crate::ai::score::Scale;
use crate::ai::{Analysis, Budget, Engine, Estimate, SearchInfo, Threat, ThreatKind, Value};
use crate::game::{Bits, Cell, Outcome, Position, Rules};

/// A win on the next ply scores `WIN - 1`; `d` plies away, `WIN - d`
/// (the heuristic scores reach far, so the scale is wide).
const SCALE: Scale = Scale {
    win: 1_000_000,
    proven: 999_000,
};
const WIN: i32 = SCALE.win;
const PROVEN: i32 = SCALE.proven;
const INF: i32 = SCALE.inf();
/// Moves searched at each node below the root, best first by
/// [`BigBoard::move_value`].
pub(crate) const WIDTH: usize = 10;
/// Plies beyond which forcing chains are not followed further.
const MAX_PLY: i32 = 60;
/// Nodes between two calls of `Budget::tick`.
pub(crate) const TICK_NODES: u64 = 128;
/// At most this many replies to a three, and its ply is not counted.
const DEFENCE_EXTENSION: usize = 4;
/// At a leaf, a win by fours is looked for with this many fours tried,
/// in up to [`LEAF_VCF_PLIES`] plies. The tries are not counted as nodes:
/// a try is a stone played and its win cells read, a node also values
/// every candidate move (in a second, with them, Negamax proves 73 of the
/// threat suite against 62 without, BENCHMARKS.md run AI).
const LEAF_VCF_TRIES: u32 = 20;
const LEAF_VCF_PLIES: u32 = 21;
/// A move in hand: at a leaf with no win by fours, the side to move
/// counts this much above the window score, for the stone it is about to
/// play: against Rapfi at 200 ms, 35.6% with none and 38.3% with 40
/// over the same 320 pairs (+0.053 a pair ±0.050, BENCHMARKS.md run AN);
/// 37.3% with 40 and 39.8% with 80 over 320 more (+0.050 ±0.049, run AP;
/// 120 was worse).
const TEMPO: i32 = 80;
/// Moves after this many in a node's order that make no four and no
/// three are first searched a ply shallower, with a null window; only
/// one that then beats alpha is searched again at full depth.
const LATE_MOVES: usize = 3;
/// The reduction starts at this depth.
const LATE_MOVE_DEPTH: i32 = 3;
/// Thinking time per move when none is given.
pub(crate) const DEFAULT_TIME: Duration = Duration::from_millis(500);
/// Before it plays, the search checks that its move leaves the other side
/// no win by threats, with at least this many nodes, and tries this many
/// others.
const AVOID_BUDGET: u32 = 2_000;
const AVOID_TRIES: usize = 6;
/// Entries of the transposition table: 2^20 of 16 bytes, 16 MiB an
/// engine, unless a memory limit says less. At 400,000 nodes a position
/// (a second's search) 2^17 entries were too few: the threat suite's
/// positions reached 10 plies less in all, and 6 fewer wins were proved.
const TABLE_BITS: u32 = 20;
/// Positions whose leaf answer (a win by fours or none) is kept: 2^16,
/// 1 MiB (2^18 was slower, BENCHMARKS.md run AL).
const LEAF_WINS_BITS: u32 = 16;

/// What a table entry says of its score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    /// An empty slot.
    #[default]
    None,
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

/// A searched position: its key, score (proven ones relative to the
/// node), the depth it was searched to and its best move.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    score: i32,
    best: u16,
    depth: i8,
    bound: Bound,
}

pub struct BigNegamax {
    tables: Tables,
    /// This move's time, as its budget's limit says (the default when
    /// the budget has none): what the search and its threat searches are
    /// sized to.
    move_time: Duration,
    nodes: u64,
    aborted: bool,
    /// Breaks ties between equally promising moves, so that two engines
    /// with other seeds play other games from one position.
    seed: u64,
    /// Positions searched, kept from move to move of a game (made at the
    /// first search), of 2^`table_bits` entries.
    table: Vec<Entry>,
    table_bits: u32,
    /// Replies to a three up to this many cost no ply.
    defence_extension: usize,
    /// Fours tried for a win at each leaf (0: none).
    leaf_vcf_tries: u32,
    /// The leaves' wins by fours, by position.
    leaf_wins: super::vcf::WinLengths,
    /// Whether late quiet moves are searched a ply shallower first.
    late_move_reductions: bool,
}

impl BigNegamax {
    pub fn new(rules: Rules) -> BigNegamax {
        BigNegamax {
            tables: Tables::new(rules),
            move_time: DEFAULT_TIME,
            nodes: 0,
            aborted: false,
            seed: 0,
            table: Vec::new(),
            table_bits: TABLE_BITS,
            defence_extension: DEFENCE_EXTENSION,
            leaf_vcf_tries: LEAF_VCF_TRIES,
            leaf_wins: super::vcf::WinLengths::new(LEAF_WINS_BITS),
            late_move_reductions: true,
        }
    }

    /// Evaluates with `values` by window pattern (see
    /// [`Tables::with_window_values`]) instead of the line count.
    pub fn with_window_values(mut self, values: [Vec<i32>; 2]) -> BigNegamax {
        self.tables.set_window_values(values);
        self
    }

    /// Replies to a three cost no ply when there are at most `replies`
    /// of them (0: every ply counts).
    pub fn with_defence_extension(mut self, replies: usize) -> BigNegamax {
        self.defence_extension = replies;
        self
    }

    /// At each leaf, `tries` fours tried for a win by fours (0: none).
    pub fn with_leaf_vcf(mut self, tries: u32) -> BigNegamax {
        self.leaf_vcf_tries = tries;
        self
    }

    /// Late quiet moves searched a ply shallower first (`true`), or every
    /// move at full depth.
    pub fn with_late_move_reductions(mut self, on: bool) -> BigNegamax {
        self.late_move_reductions = on;
        self
    }

    /// Ties between equally promising moves broken by `seed`.
    pub fn with_seed(mut self, seed: u64) -> BigNegamax {
        self.seed = seed;
        self
    }

    /// A cell's place among its equals: a mix of the seed and the cell.
    fn tie_break(&self, cell: usize) -> u64 {
        let z = (self.seed ^ cell as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        z ^ (z >> 29)
    }

    /// The part of the move's time the alpha-beta search may take (the
    /// threat search before it included): the check after it has the
    /// rest, a sixteenth (a check takes 1–5 ms at 200 ms a move,
    /// BENCHMARKS.md run AH, and tries no alternative once the move's
    /// time is up).
    fn search_time(&self) -> Duration {
        self.move_time * 15 / 16
    }

    /// Nodes for a threat search: `per_ms` a millisecond of the move's
    /// time, within bounds. Nodes, not the clock, so that a search finds
    /// the same wins on any machine; how much of the turn they take
    /// depends on the CPU (a threat node took about 0.4 µs on the Zen 5
    /// of BENCHMARKS.md run AU).
    fn threat_budget(&self, per_ms: u32, floor: u32, cap: u32) -> u32 {
        let ms = u32::try_from(self.move_time.as_millis()).unwrap_or(u32::MAX);
        ms.saturating_mul(per_ms).clamp(floor, cap)
    }

    /// The moves of `b` in the order to search them; all of them at the
    /// root, at most [`WIDTH`] below. Only the forced ones when there is a
    /// threat.
    fn ordered_moves(&self, b: &BigBoard, width: usize) -> Vec<usize> {
        self.moves_against_threes(b, width).0
    }

    /// [`Self::ordered_moves`], and whether they answer a three (the
    /// other side has a double four to make; read only below the root,
    /// where the search needs it, so that it is read once a node).
    fn moves_against_threes(&self, b: &BigBoard, width: usize) -> (Vec<usize>, bool) {
        let t = &self.tables;
        let me = b.to_move();
        if let Some(win) = b.wins(me).first() {
            return (vec![win], false);
        }
        let threats = b.wins(me.other());
        if !threats.is_empty() {
            return (threats.iter().collect(), false);
        }
        let mut candidates = b.candidates(t);
        let against_three = width != usize::MAX && b.double_four(t, me.other()).is_some();
        if against_three {
            // The other side threatens an open four: only a stone in one
            // of its windows of K - 2, or a four of our own, can answer.
            // Of those, the ones that make a four or leave no double
            // four: every other move loses to it.
            let answers: Bits = (candidates & (b.four_cells(me) | b.four_cells(me.other())))
                .iter()
                .filter(|&c| super::vct::may_hold(t, b, c))
                .collect();
            if !answers.is_empty() {
                candidates = answers;
            }
        }
        if width != usize::MAX {
            // When enough cells make or stop a four or a three, the quiet
            // ones are left out: fewer, sharper moves (+74 Elo at 100 ms a
            // move, BENCHMARKS.md run X).
            let hot = candidates & b.threat_cells();
            if hot.count() as usize >= width {
                candidates = hot;
            }
        }
        let mut scored: Vec<(i32, usize)> =
            candidates.iter().map(|c| (b.move_value(t, c), c)).collect();
        let order = |a: &(i32, usize), b: &(i32, usize)| {
            b.0.cmp(&a.0)
                .then(self.tie_break(a.1).cmp(&self.tie_break(b.1)))
        };
        if scored.len() > width {
            // Only the best `width` need an order.
            scored.select_nth_unstable_by(width, order);
            scored.truncate(width);
        }
        scored.sort_unstable_by(order);
        let moves = scored.into_iter().map(|(_, c)| c).collect();
        (moves, against_three)
    }

    /// Searches `pos` (not over) by iterative deepening until the clock
    /// runs out or a forced result is found.
    pub fn analyse(&mut self, pos: &Position, budget: &mut dyn Budget) -> Analysis {
        let root = BigBoard::from_position(&self.tables, pos);
        self.move_time = budget.limit().time().unwrap_or(DEFAULT_TIME);
        if self.table.is_empty() {
            self.table = vec![Entry::default(); 1 << self.table_bits];
        }
        self.nodes = 0;
        self.aborted = false;
        let mut moves = self.ordered_moves(&root, usize::MAX);
        let first = moves.first().copied().unwrap_or(0);
        let mut result = (first, Value::Unknown(root.eval()), 0u32);
        if root.wins(root.to_move()).contains(first) {
            return self.analysis(first, Value::Win { plies: 1 }, 0, budget);
        }
        if pos.move_count() == 0 {
            // The centre: nothing to read.
            return self.analysis(first, Value::Unknown(root.eval()), 0, budget);
        }
        // A forced win by fours: no need to search further.
        let mut tries = super::vcf::ROOT_BUDGET;
        if let Some(line) =
            super::vcf::find(&self.tables, &root, super::vcf::ROOT_PLIES, &mut tries)
        {
            let value = Value::Win {
                plies: line.len() as u32,
            };
            budget.report(&SearchInfo {
                work: self.nodes,
                depth: Some(line.len() as u32),
                best: Some(Cell::from_index(line[0])),
                estimate: Some(Estimate::Value(value)),
                proved: true,
                threat: Some(Threat::new(ThreatKind::Vcf, line.len() as u32, &line)),
            });
            return self.analysis(line[0], value, line.len() as u32, budget);
        }
        // A forced win by fours and threes: 200 nodes a millisecond, a
        // twelfth of the turn on run AU's Zen 5 (five times as many found
        // more of the wins missed in games, and played no better).
        let mut tries = self.threat_budget(200, super::vct::ROOT_BUDGET, 200_000);
        if let Some((cell, plies)) =
            super::vct::find(&self.tables, &root, super::vct::ROOT_PLIES, &mut tries)
        {
            let value = Value::Win { plies };
            budget.report(&SearchInfo {
                work: self.nodes,
                depth: Some(plies),
                best: Some(Cell::from_index(cell)),
                estimate: Some(Estimate::Value(value)),
                proved: true,
                threat: Some(Threat::new(ThreatKind::Vct, plies, &[cell])),
            });
            return self.analysis(cell, value, plies, budget);
        }
        for depth in 1..=MAX_PLY {
            let mut alpha = -INF;
            let mut best = None;
            let mut scores = Vec::with_capacity(moves.len());
            for &m in &moves {
                let mut next = root;
                next.play(&self.tables, m);
                let score = -self.search(&next, depth - 1, -INF, -alpha, 1, budget);
                if self.aborted {
                    break;
                }
                scores.push((score, m));
                if score > alpha {
                    alpha = score;
                    best = Some(m);
                }
            }
            if self.aborted {
                // A move that beat the last iteration's best is still news.
                if let Some(m) = best.filter(|_| alpha > score_of(result.1)) {
                    result.0 = m;
                }
                break;
            }
            let best = best.unwrap_or(first);
            result = (best, value_of(alpha), depth as u32);
            budget.report(&SearchInfo {
                work: self.nodes,
                depth: Some(depth as u32),
                best: Some(Cell::from_index(best)),
                estimate: Some(Estimate::Value(result.1)),
                proved: alpha.abs() >= PROVEN,
                threat: None,
            });
            if alpha.abs() >= PROVEN || budget.elapsed() >= self.search_time() {
                break;
            }
            // The next iteration starts from this one's order.
            scores.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
            moves = scores.into_iter().map(|(_, m)| m).collect();
        }
        let (mut best, value, depth) = result;
        if !matches!(value, Value::Win { .. }) {
            best = self.avoid_threat_wins(&root, best, &moves, budget);
        }
        self.analysis(best, value, depth, budget)
    }

    /// `best`, unless it lets the other side win by threats (a VCT after
    /// it) and one of the next few moves in `order` does not.
    fn avoid_threat_wins(
        &self,
        root: &BigBoard,
        best: usize,
        order: &[usize],
        clock: &dyn Budget,
    ) -> usize {
        let budget = self.threat_budget(30, AVOID_BUDGET, 40_000);
        let in_time = || clock.elapsed() < self.move_time;
        super::vct::avoiding_threat_wins(
            &self.tables,
            root,
            best,
            order,
            budget,
            AVOID_TRIES,
            in_time,
        )
    }

    /// The line the last search expects after `first` from `pos`, `first`
    /// included: the table's best move, position after position, while
    /// the table knows the position (at most `plies` moves).
    pub fn line(&self, pos: &Position, first: Cell, plies: usize) -> Vec<Cell> {
        let mut b = BigBoard::from_position(&self.tables, pos);
        let mut line = Vec::new();
        let mut next = Some(first.index());
        while let Some(cell) = next.filter(|_| line.len() < plies) {
            let empty = b.empty_cells(&self.tables);
            if b.outcome().is_over() || !empty.contains(cell) {
                break;
            }
            b.play(&self.tables, cell);
            line.push(Cell::from_index(cell));
            next = match self.table.is_empty() {
                true => None,
                false => {
                    let key = b.key();
                    let entry = self.table[key as usize & (self.table.len() - 1)];
                    (entry.key == key && entry.bound != Bound::None)
                        .then_some(usize::from(entry.best))
                }
            };
        }
        line
    }

    fn analysis(&self, best: usize, value: Value, depth: u32, budget: &dyn Budget) -> Analysis {
        Analysis {
            best: Cell::from_index(best),
            value,
            depth,
            nodes: self.nodes,
            elapsed: budget.elapsed(),
        }
    }

    /// The score of a leaf `b` (no win in one for either side), `ply`
    /// plies from the root: a win if a few fours find one, else the
    /// window score.
    fn leaf(&mut self, b: &BigBoard, ply: i32) -> i32 {
        // No tries (`with_leaf_vcf(0)`) finds nothing: the window score.
        let tries = self.leaf_vcf_tries;
        match self
            .leaf_wins
            .win_length(&self.tables, b, LEAF_VCF_PLIES, tries)
        {
            Some(plies) => WIN - (ply + plies as i32),
            None => b.eval() + TEMPO,
        }
    }

    /// What the table's `slot` knows of the position `key`, searched to
    /// `depth` within the window (alpha, beta), `ply` plies from the
    /// root: a score that settles it, and the best move found there.
    fn probe(
        &self,
        slot: usize,
        key: u64,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: i32,
    ) -> (Option<i32>, Option<usize>) {
        let entry = self.table[slot];
        if entry.key != key || entry.bound == Bound::None {
            return (None, None);
        }
        let score = SCALE.read_table(entry.score, ply);
        let settles = i32::from(entry.depth) >= depth
            && match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
                Bound::None => false,
            };
        (settles.then_some(score), Some(usize::from(entry.best)))
    }

    fn search(
        &mut self,
        b: &BigBoard,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        budget: &mut dyn Budget,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(TICK_NODES)
            && (!budget.tick() || budget.elapsed() >= self.search_time())
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        match b.outcome() {
            Outcome::Draw => return 0,
            // The side that just moved won.
            Outcome::Win(_) => return -(WIN - ply),
            Outcome::Ongoing => {}
        }
        let me = b.to_move();
        if !b.wins(me).is_empty() {
            return WIN - (ply + 1);
        }
        let threats: Bits = b.wins(me.other());
        if threats.count() >= 2 {
            return -(WIN - (ply + 2));
        }
        let forced = threats.count() == 1;
        if b.winning_double_four(&self.tables).is_some() {
            return WIN - (ply + 3);
        }
        if (depth <= 0 && !forced) || ply >= MAX_PLY {
            return self.leaf(b, ply);
        }
        let key = b.key();
        let slot = key as usize & (self.table.len() - 1);
        let (settled, known_best) = self.probe(slot, key, depth, (alpha, beta), ply);
        if let Some(score) = settled {
            return score;
        }
        let (mut moves, against_three) = self.moves_against_threes(b, WIDTH);
        if moves.is_empty() {
            return 0;
        }
        // The move that was best here before goes first.
        if let Some(m) = known_best.filter(|m| b.empty_cells(&self.tables).contains(*m)) {
            match moves.iter().position(|&x| x == m) {
                Some(i) => moves[..=i].rotate_right(1),
                None => moves.insert(0, m),
            }
        }
        // Answering a three (the other side has a double four to make) is
        // nearly forced: the replies that can hold are few, so, as for a
        // four, the ply is not counted.
        let defending = against_three && moves.len() <= self.defence_extension;
        let next_depth = if forced || defending {
            depth
        } else {
            depth - 1
        };
        let alpha_in = alpha;
        let mut best = -INF;
        let mut best_move = moves[0];
        for (i, m) in moves.into_iter().enumerate() {
            let mut next = *b;
            next.play(&self.tables, m);
            let late = self.late_move_reductions
                && i >= LATE_MOVES
                && depth >= LATE_MOVE_DEPTH
                && !forced
                && !against_three
                && b.fours_at(me, m) == 0
                && b.threes_at(me, m) == 0;
            // A late quiet move is first asked only whether it beats alpha.
            let reduced = late
                .then(|| -self.search(&next, next_depth - 1, -alpha - 1, -alpha, ply + 1, budget));
            let score = match reduced {
                Some(score) if score <= alpha => score,
                _ => -self.search(&next, next_depth, -beta, -alpha, ply + 1, budget),
            };
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.table[slot] = Entry {
            key,
            score: SCALE.table_score(best, ply),
            best: best_move as u16,
            depth: depth.clamp(0, i32::from(i8::MAX)) as i8,
            bound: if best <= alpha_in {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            },
        };
        best
    }
}

fn value_of(score: i32) -> Value {
    SCALE.value(score).unwrap_or(Value::Unknown(score))
}

fn score_of(value: Value) -> i32 {
    match value {
        Value::Win { plies } => WIN - plies as i32,
        Value::Loss { plies } => -(WIN - plies as i32),
        Value::Draw => 0,
        Value::Unknown(s) => s,
    }
}

impl Engine for BigNegamax {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "NEGA".into()
    }

    fn choose(&mut self, pos: &Position, budget: &mut dyn Budget) -> Cell {
        self.analyse(pos, budget).best
    }

    /// Its leaves' answers in a sixteenth of `bytes` (up to their usual
    /// 1 MiB), and its table as large as the rest allows: a power of two
    /// of entries, from 2^10 up to its usual 2^20.
    fn set_memory_limit(&mut self, bytes: usize) {
        self.leaf_wins.fit(bytes / 16, LEAF_WINS_BITS);
        let bytes = bytes.saturating_sub(self.leaf_wins.bytes());
        let entries = (bytes / std::mem::size_of::<Entry>()).max(1 << 10);
        let bits = (usize::BITS - 1 - entries.leading_zeros()).min(TABLE_BITS);
        if bits != self.table_bits {
            self.table_bits = bits;
            self.table = Vec::new();
        }
    }
}

#[cfg(test)]
#[path = "negamax_tests.rs"]
mod tests;
