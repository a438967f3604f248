//! Negamax: alpha-beta with principal-variation search, iterative
//! deepening, a transposition table folded by the 8 symmetries, history
//! move ordering, and exact threat rules (win in one, forced block, double
//! threat) with mate-distance pruning. Given enough time it solves the
//! position: it wins as fast as it can and, when lost, loses as slowly as it
//! can.

use std::time::{Duration, Instant};

use super::score::{Scale, Value};
use super::{Budget, Engine, Estimate, SearchInfo};
use crate::game::{Cell, Geometry, Player, Position, Rules};

/// The scores: a win `d` plies from the root scores `10_000 - d`; scores
/// at least 9,900 from 0 are proven results.
const SCALE: Scale = Scale {
    win: 10_000,
    proven: 9_900,
};
const WIN: i32 = SCALE.win;
/// Heuristic scores stay well inside the proven range.
const MAX_EVAL: i32 = 5_000;
const INF: i32 = SCALE.inf();
/// 2^16 entries of 16 bytes: 1 MiB. A larger table costs more to clear than
/// it saves on these boards.
const TT_BITS: u32 = 16;
/// Nodes between two calls of `Budget::tick`.
const TICK_NODES: u64 = 512;
/// Node budget per move when no time limit is set; a full solve of 4x4
/// needs a small fraction of it.
pub(crate) const DEFAULT_NODE_LIMIT: u64 = 2_000_000;

/// What a search found.
#[derive(Clone, Debug)]
pub struct Analysis {
    pub best: Cell,
    pub value: Value,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i16,
    depth: i8,
    bound: u8,
    /// Best move, in the orientation of the canonical image.
    cell: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// The search's working copy of a position with its 8 symmetric hashes.
#[derive(Clone, Copy)]
struct State {
    boards: [u64; 2],
    side: usize,
    hashes: [u64; 8],
}

pub struct Negamax {
    rules: Rules,
    geo: &'static Geometry,
    tt: Vec<TtEntry>,
    history: [[u32; 64]; 2],
    node_limit: u64,
    nodes: u64,
    aborted: bool,
    root_best: Option<u8>,
}

impl Negamax {
    pub fn new(rules: Rules) -> Negamax {
        let geo = rules.geometry();
        Negamax {
            rules,
            geo,
            tt: vec![TtEntry::default(); 1 << TT_BITS],
            history: [[0; 64]; 2],
            node_limit: DEFAULT_NODE_LIMIT,
            nodes: 0,
            aborted: false,
            root_best: None,
        }
    }

    /// Stop each search after this many nodes (`u64::MAX`: no limit).
    pub fn set_node_limit(&mut self, limit: u64) {
        self.node_limit = limit;
    }

    /// Solves `pos` with no node or time limit.
    pub fn solve(&mut self, pos: &Position) -> Analysis {
        let nodes = self.node_limit;
        self.node_limit = u64::MAX;
        let analysis = self.analyse(pos, &mut super::Unlimited::new());
        self.node_limit = nodes;
        analysis
    }

    /// Searches `pos` (which must not be over) by iterative deepening until
    /// the result is proven or a limit is reached.
    pub fn analyse(&mut self, pos: &Position, budget: &mut dyn Budget) -> Analysis {
        let start = Instant::now();
        let boards = [pos.small_board(Player::O), pos.small_board(Player::X)];
        let mut st = State {
            boards,
            side: pos.to_move().index(),
            hashes: self.geo.symmetric_hashes(boards),
        };
        let empties = pos.small_empty().count_ones() as i32;
        self.nodes = 0;
        self.aborted = false;
        let fallback = pos.small_empty().trailing_zeros() as u8;
        let mut result = (fallback, Value::Unknown(0), 0);
        for depth in 1..=empties.max(1) {
            self.root_best = None;
            let score = self.search(&mut st, depth, 0, -INF, INF, budget);
            if self.aborted {
                break;
            }
            let best = self.root_best.unwrap_or(fallback);
            let value = SCALE.value(score).unwrap_or(if depth == empties {
                Value::Draw
            } else {
                Value::Unknown(score)
            });
            result = (best, value, depth as u32);
            let proved = !matches!(value, Value::Unknown(_));
            budget.report(&SearchInfo {
                work: self.nodes,
                depth: Some(depth as u32),
                best: Some(Cell::new(best.into())),
                estimate: Some(Estimate::Value(value)),
                proved,
                threat: None,
            });
            if proved {
                break;
            }
        }
        Analysis {
            best: Cell::new(result.0.into()),
            value: result.1,
            depth: result.2,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }

    #[inline]
    fn make(&self, st: &mut State, cell: u8) {
        st.boards[st.side] |= 1u64 << cell;
        for s in 0..8 {
            st.hashes[s] ^= self.geo.sym_zobrist[s][st.side][cell as usize];
        }
        st.side ^= 1;
    }

    /// Node accounting, the cooperative tick, and the limits.
    fn count_node(&mut self, budget: &mut dyn Budget) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(TICK_NODES) {
            // Mid-iteration: only the node count is new.
            budget.report(&SearchInfo {
                work: self.nodes,
                ..SearchInfo::default()
            });
            if !budget.tick() || self.nodes >= self.node_limit {
                self.aborted = true;
            }
        }
    }

    fn search(
        &mut self,
        st: &mut State,
        depth: i32,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
        budget: &mut dyn Budget,
    ) -> i32 {
        self.count_node(budget);
        if self.aborted {
            return 0;
        }
        let geo = self.geo;
        let (me, opp) = (st.side, st.side ^ 1);
        let empty = geo.full & !(st.boards[0] | st.boards[1]);
        if empty == 0 {
            return 0;
        }
        // A win in one ends the search here. Because of this, no move below
        // is ever a winning move, so children never need a win test.
        let wins = geo.winning_cells(st.boards[me], empty);
        if wins != 0 {
            if ply == 0 {
                self.root_best = Some(wins.trailing_zeros() as u8);
            }
            return WIN - (ply + 1);
        }
        let threats = geo.winning_cells(st.boards[opp], empty);
        if threats.count_ones() >= 2 {
            // Two threats: block one, lose to the other.
            if ply == 0 {
                self.root_best = Some(threats.trailing_zeros() as u8);
            }
            return -(WIN - (ply + 2));
        }
        // Mate-distance pruning: we cannot win before ply + 3 nor lose
        // before ply + 2 any more.
        alpha = alpha.max(-(WIN - (ply + 2)));
        beta = beta.min(WIN - (ply + 3));
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 {
            return self.evaluate(st);
        }

        let (key, sym) = st
            .hashes
            .iter()
            .enumerate()
            .map(|(s, &h)| (h, s))
            .min()
            .unwrap_or((0, 0));
        let slot = (key >> (64 - TT_BITS)) as usize;
        let entry = self.tt[slot];
        let mut tt_move = None;
        if entry.key == key {
            let cell = geo.sym_inv[sym][entry.cell as usize];
            if empty & (1u64 << cell) != 0 {
                tt_move = Some(cell);
            }
            if ply > 0 && entry.depth as i32 >= depth {
                let score = SCALE.read_table(entry.score as i32, ply);
                let cut = match entry.bound {
                    EXACT => true,
                    LOWER => score >= beta,
                    _ => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }

        // A single threat forces the block.
        let candidates = if threats != 0 { threats } else { empty };
        let mut moves = [0u8; 64];
        let mut keys = [0u32; 64];
        let mut count = 0;
        let mut rest = candidates;
        while rest != 0 {
            let cell = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            moves[count] = cell;
            keys[count] = if Some(cell) == tt_move {
                u32::MAX
            } else {
                self.history[me][cell as usize]
            };
            count += 1;
        }
        sort_by_key_desc(&mut moves[..count], &mut keys[..count]);

        let alpha_in = alpha;
        let mut best = -INF;
        let mut best_move = moves[0];
        for (i, &cell) in moves[..count].iter().enumerate() {
            let saved = *st;
            self.make(st, cell);
            let mut score;
            if i == 0 {
                score = -self.search(st, depth - 1, ply + 1, -beta, -alpha, budget);
            } else {
                score = -self.search(st, depth - 1, ply + 1, -alpha - 1, -alpha, budget);
                if score > alpha && score < beta {
                    score = -self.search(st, depth - 1, ply + 1, -beta, -alpha, budget);
                }
            }
            *st = saved;
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = cell;
                if ply == 0 {
                    self.root_best = Some(cell);
                }
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        let h = &mut self.history[me][cell as usize];
                        *h = h.saturating_add((depth * depth) as u32);
                        break;
                    }
                }
            }
        }

        let bound = if best <= alpha_in {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt[slot] = TtEntry {
            key,
            score: SCALE.table_score(best, ply) as i16,
            depth: depth.min(i8::MAX as i32) as i8,
            bound,
            cell: geo.sym[sym][best_move as usize],
        };
        best
    }

    /// Line-count heuristic for the side to move: open lines weighted by how
    /// full they are.
    fn evaluate(&self, st: &State) -> i32 {
        let (mine, theirs) = (st.boards[st.side], st.boards[st.side ^ 1]);
        let mut score = 0i32;
        for &line in &self.geo.lines {
            let (m, t) = ((mine & line).count_ones(), (theirs & line).count_ones());
            if t == 0 {
                score += (m * m) as i32;
            } else if m == 0 {
                score -= (t * t) as i32;
            }
        }
        score.clamp(-MAX_EVAL, MAX_EVAL)
    }
}

/// Insertion sort of `moves` by `keys`, largest first, stable (lists are
/// short). Each entry is held while the smaller ones shift up, rather than
/// swapped step by step: swapping adjacent bytes in memory stalls on store
/// forwarding, and it took half the solver's time on 4x4.
pub(super) fn sort_by_key_desc(moves: &mut [u8], keys: &mut [u32]) {
    for i in 1..moves.len().min(keys.len()) {
        let (key, cell) = (keys[i], moves[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < key {
            keys[j] = keys[j - 1];
            moves[j] = moves[j - 1];
            j -= 1;
        }
        keys[j] = key;
        moves[j] = cell;
    }
}

impl Engine for Negamax {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "NEGA".into()
    }

    fn choose(&mut self, pos: &Position, budget: &mut dyn Budget) -> Cell {
        debug_assert_eq!(pos.rules(), self.rules);
        self.analyse(pos, budget).best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_sort_by_key_largest_first_and_ties_keep_their_order() {
        let mut moves = [1u8, 2, 3, 4, 5, 6];
        let mut keys = [5u32, 9, 5, 0, 9, 7];
        sort_by_key_desc(&mut moves, &mut keys);
        assert_eq!(moves, [2, 5, 6, 1, 3, 4]);
        assert_eq!(keys, [9, 9, 7, 5, 5, 0]);
    }

    fn solve(size: u8, goal: u8, moves: &str) -> Analysis {
        let rules = Rules::new(size, goal).unwrap();
        let pos = Position::from_moves(rules, &Cell::parse_list(moves, size).unwrap()).unwrap();
        Negamax::new(rules).solve(&pos)
    }

    #[test]
    fn three_by_three_is_a_draw() {
        assert_eq!(solve(3, 3, "").value, Value::Draw);
    }

    #[test]
    fn four_by_four_three_in_a_row_is_a_first_player_win() {
        let a = solve(4, 3, "");
        assert!(matches!(a.value, Value::Win { .. }), "{a:?}");
    }

    #[test]
    fn four_by_four_four_in_a_row_is_a_draw() {
        assert_eq!(solve(4, 4, "").value, Value::Draw);
    }

    #[test]
    fn win_in_one_is_taken() {
        let a = solve(4, 3, "A1,A4,B1,D4");
        assert_eq!(a.best.name(4), "C1");
        assert_eq!(a.value, Value::Win { plies: 1 });
    }

    #[test]
    fn double_threat_is_a_loss_in_two() {
        // O holds B2, C2 and B4 (A2, D2 and B3 all win); X to move cannot
        // stop them all.
        let a = solve(4, 3, "B2,A1,C2,D4,B4");
        assert_eq!(a.value, Value::Loss { plies: 2 });
        assert!(["A2", "D2", "B3"].contains(&a.best.name(4).as_str()));
    }

    /// Exhaustive minimax with distance, no pruning, for cross-checking.
    fn brute(pos: &Position) -> i32 {
        use crate::game::Outcome;
        let mut best = -INF;
        for m in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(m);
            let score = match next.outcome() {
                Outcome::Win(_) => WIN - 1,
                Outcome::Draw => 0,
                Outcome::Ongoing => {
                    let s = -brute(&next);
                    // One ply further from the current node.
                    if s >= SCALE.proven {
                        s - 1
                    } else if s <= -SCALE.proven {
                        s + 1
                    } else {
                        s
                    }
                }
            };
            best = best.max(score);
        }
        best
    }

    fn value_score(v: Value) -> i32 {
        match v {
            Value::Win { plies } => WIN - plies as i32,
            Value::Loss { plies } => -(WIN - plies as i32),
            Value::Draw => 0,
            Value::Unknown(s) => panic!("unproven {s}"),
        }
    }

    #[test]
    fn every_three_by_three_position_matches_brute_force() {
        fn walk(pos: &Position, engine: &mut Negamax, seen: &mut std::collections::HashSet<u128>) {
            if pos.outcome().is_over() || !seen.insert(pos.table()) {
                return;
            }
            let a = engine.solve(pos);
            assert_eq!(value_score(a.value), brute(pos), "{pos:?}");
            for m in pos.legal_moves() {
                let mut next = *pos;
                next.play_unchecked(m);
                walk(&next, engine, seen);
            }
        }
        let rules = Rules::new(3, 3).unwrap();
        let mut seen = std::collections::HashSet::new();
        walk(&Position::new(rules), &mut Negamax::new(rules), &mut seen);
        // 5,478 reachable positions less the 958 finished ones.
        assert_eq!(seen.len(), 4_520);
    }

    #[test]
    fn exact_values_with_distance_match_brute_force() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let rules = Rules::new(4, 3).unwrap();
        let mut engine = Negamax::new(rules);
        let mut checked = 0;
        while checked < 150 {
            // Random positions with 7 to 10 marks (6 to 9 empties keep
            // brute force quick).
            let mut pos = Position::new(rules);
            let marks = rng.random_range(7..=10);
            while pos.move_count() < marks && !pos.outcome().is_over() {
                let moves: Vec<_> = pos.legal_moves().collect();
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            if pos.outcome().is_over() {
                continue;
            }
            let a = engine.solve(&pos);
            assert_eq!(value_score(a.value), brute(&pos), "{pos:?}");
            // The chosen move achieves the value.
            let mut next = pos;
            next.play_unchecked(a.best);
            let after = if next.outcome().is_over() {
                WIN - 1
            } else {
                let s = -brute(&next);
                if s >= SCALE.proven {
                    s - 1
                } else if s <= -SCALE.proven {
                    s + 1
                } else {
                    s
                }
            };
            assert_eq!(
                after,
                value_score(a.value),
                "best move {} in {pos:?}",
                a.best.name(4)
            );
            checked += 1;
        }
    }
}
