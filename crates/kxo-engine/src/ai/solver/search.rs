//! The solver's search: exact alpha-beta (principal variation search) with
//! the threat rules, mate-distance bounds, the transposition table and a
//! lazily sorted move list. Its steps are named helpers: what the lines
//! say, the table's probe, the move list, the table's store.

use super::lines::{Lines, best_key_index};
use super::table::Entry;
use super::{INF, SCALE, Solver, State, WEAK_KEYS};

/// Steps a pairing search may take at a node before it gives up.
const PAIRING_BUDGET: u32 = 64;
use crate::ai::negamax::sort_by_key_desc;

/// What the lines say at a node, each masked with the empty cells.
struct Facts {
    /// My wins in one.
    wins: u64,
    /// The opponent's wins in one: the cells I must block.
    threats: u64,
    /// Cells of the lines still open to me, and to the opponent.
    my_open: u64,
    their_open: u64,
}

/// What the table knew of a node.
struct Probe {
    key: u64,
    /// The symmetry that maps the node to its canonical image.
    sym: usize,
    tt_move: Option<u8>,
}

impl Solver {
    pub(super) fn search(
        &mut self,
        st: &mut State,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        if self.halted() {
            return 0;
        }
        let (me, opp) = (st.side, st.side ^ 1);
        let (mine, theirs) = (st.boards[me], st.boards[opp]);
        let empty = self.geo.full & !(mine | theirs);
        if empty == 0 {
            return 0;
        }
        let (my_lines, their_lines) = match self.weak {
            None => (true, true),
            Some(attacker) => (attacker == me, attacker == opp),
        };
        let facts = self.facts(st, my_lines, their_lines, empty);
        if facts.wins != 0 {
            self.note_root_best(ply, facts.wins);
            return SCALE.win_in(ply + 1);
        }
        if facts.threats.count_ones() >= 2 {
            self.note_root_best(ply, facts.threats);
            return -SCALE.win_in(ply + 2);
        }
        // A side with no open line cannot win any more.
        if facts.my_open == 0 {
            beta = beta.min(0);
        }
        if facts.their_open == 0 {
            alpha = alpha.max(0);
        }
        // Mate distance: no win before ply + 3, no loss before ply + 2.
        alpha = alpha.max(-SCALE.win_in(ply + 2));
        beta = beta.min(SCALE.win_in(ply + 3));
        if alpha >= beta {
            self.note_root_best(ply, facts.my_open | facts.their_open | empty);
            return alpha;
        }
        let probe = match self.probe(st, ply, empty, &mut alpha, &mut beta) {
            Ok(probe) => probe,
            Err(cut) => return cut,
        };
        // A side whose open lines the other can pair off cannot win.
        if beta > 0 && my_lines && self.pairs_off(theirs, empty) {
            beta = 0;
        }
        if alpha < 0 && their_lines && self.pairs_off(mine, empty) {
            alpha = 0;
        }
        if alpha >= beta {
            return alpha;
        }
        // One threat forces the block; otherwise every live cell.
        let candidates = if facts.threats != 0 {
            facts.threats
        } else {
            facts.my_open | facts.their_open
        };
        let mut moves = [0u8; 64];
        let (count, ordered_from) = fill_moves(&mut moves, candidates, probe.tt_move);
        let lines = Lines {
            mine,
            theirs,
            my_counts: st.counts[me],
            their_counts: st.counts[opp],
            my_lines,
            their_lines,
        };
        // `keys[i]`: the sort key of `moves[i]`, once `sorted_from` is set.
        // The table's move goes first; the others are ordered only if it
        // does not cut (staged, as most nodes cut on their first move).
        let mut keys = [0u32; 64];
        let mut sorted_from = None;
        if ordered_from == 0 && count > 1 {
            self.order(&moves[..count], me, &lines, &mut keys);
            sorted_from = Some(0);
        }
        if ply == 0 {
            self.root_moves = count;
            self.root_done = 0;
        }

        let (alpha_in, beta_in) = (alpha, beta);
        let mut best = -INF;
        let mut best_move = moves[0];
        for i in 0..count {
            // The first ordered move is found in one pass and tried first;
            // the rest are sorted only if the search gets past it.
            let cell = match sorted_from {
                Some(from) if i == from => moves[i + best_key_index(&keys[i..count])],
                Some(from) if i == from + 1 => {
                    // A stable sort puts the move tried first (the first of
                    // the largest keys) back in front: the same order as
                    // sorting up front.
                    sort_by_key_desc(&mut moves[from..count], &mut keys[from..count]);
                    moves[i]
                }
                _ => moves[i],
            };
            let counts_before = st.counts[me];
            self.make(st, cell);
            let mut score;
            if i == 0 {
                score = -self.search(st, ply + 1, -beta, -alpha);
            } else {
                score = -self.search(st, ply + 1, -alpha - 1, -alpha);
                if score > alpha && score < beta {
                    score = -self.search(st, ply + 1, -beta, -alpha);
                }
            }
            self.unmake(st, cell, counts_before);
            if self.halted() {
                return 0;
            }
            if ply == 0 {
                self.root_done = i + 1;
            }
            if i == 0 && ordered_from == 1 && count > 2 {
                self.order(&moves[1..count], me, &lines, &mut keys[1..count]);
                sorted_from = Some(1);
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
                        *h = h.saturating_add(empty.count_ones().pow(2));
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best <= alpha_in {
            (-INF, best)
        } else if best >= beta_in {
            (best, INF)
        } else {
            (best, best)
        };
        self.store(&probe, ply, (lower, upper), best_move, empty);
        best
    }

    /// Whether `defender` has a pairing strategy against the other side's
    /// open lines (see [`pairing`](super::pairing)), found within a small
    /// budget.
    fn pairs_off(&self, defender: u64, empty: u64) -> bool {
        if !self.use_pairing {
            return false;
        }
        super::pairing::find(&self.geo.lines, defender, empty, PAIRING_BUDGET).is_some()
    }

    /// At the root, the first of `cells` is the best move found.
    #[inline]
    fn note_root_best(&mut self, ply: i32, cells: u64) {
        if ply == 0 {
            self.root_best = Some(cells.trailing_zeros() as u8);
        }
    }

    /// Wins in one, threats and the cells of open lines: from two table
    /// rows on boards of up to 16 cells, else from the line counts or one
    /// walk over the lines.
    #[inline(always)]
    fn facts(&self, st: &State, my_lines: bool, their_lines: bool, empty: u64) -> Facts {
        let (mine, theirs) = (st.boards[st.side], st.boards[st.side ^ 1]);
        let (wins, threats, my_open, their_open) = match self.cell_tables {
            Some(table) => {
                let (my_wins, their_open) = table[mine as usize];
                let (their_wins, my_open) = table[theirs as usize];
                let side = |counts: bool, cells: u16| u64::from(cells) * u64::from(counts);
                (
                    side(my_lines, my_wins),
                    side(their_lines, their_wins),
                    side(my_lines, my_open),
                    side(their_lines, their_open),
                )
            }
            None => match &self.geo.line_index_masks {
                Some(masks) => self.line_facts_from_counts(masks, st, my_lines, their_lines, empty),
                None => self.line_facts_by_walk(mine, theirs, my_lines, their_lines),
            },
        };
        Facts {
            wins: wins & empty,
            threats: threats & empty,
            my_open: my_open & empty,
            their_open: their_open & empty,
        }
    }

    /// Looks the node up (by the smallest of its 8 symmetric hashes) and
    /// narrows the window by the bounds it keeps; `Err` with the score when
    /// they settle the node (never at the root, which needs its move).
    #[inline]
    fn probe(
        &self,
        st: &State,
        ply: i32,
        empty: u64,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Result<Probe, i32> {
        let (key, sym) = st
            .hashes
            .iter()
            .enumerate()
            .map(|(s, &h)| (h, s))
            .min()
            .unwrap_or((0, 0));
        // The weak games are other games: their entries must not meet.
        let key = key ^ self.weak.map_or(0, |a| WEAK_KEYS[a]);
        let mut probe = Probe {
            key,
            sym,
            tt_move: None,
        };
        let Some(entry) = self.table.probe(key) else {
            return Ok(probe);
        };
        if entry.cell != u8::MAX {
            let cell = self.geo.sym_inv[sym][entry.cell as usize];
            if empty & (1u64 << cell) != 0 {
                probe.tt_move = Some(cell);
            }
        }
        if ply > 0 {
            let lower = SCALE.read_table(entry.lower as i32, ply);
            let upper = SCALE.read_table(entry.upper as i32, ply);
            if lower >= *beta {
                return Err(lower);
            }
            if upper <= *alpha {
                return Err(upper);
            }
            *alpha = (*alpha).max(lower);
            *beta = (*beta).min(upper);
            if *alpha >= *beta {
                return Err(*alpha);
            }
        }
        Ok(probe)
    }

    /// Keeps the node's bounds and best move (in the canonical image's
    /// orientation), weighted by the empty cells left.
    #[inline(never)]
    fn store(&mut self, probe: &Probe, ply: i32, (lower, upper): (i32, i32), best: u8, empty: u64) {
        self.table.store(Entry {
            key: probe.key,
            lower: SCALE.table_score(lower, ply) as i16,
            upper: SCALE.table_score(upper, ply) as i16,
            cell: self.geo.sym[probe.sym][best as usize],
            weight: empty.count_ones() as u8,
            used: true,
        });
    }
}

/// Writes a node's moves: the table's move first (when it is a
/// candidate), then the other candidates in cell order until they are
/// sorted. Returns their count, and where ordering starts (1 when the
/// table's move leads, else 0).
#[inline(always)]
fn fill_moves(moves: &mut [u8; 64], candidates: u64, tt_move: Option<u8>) -> (usize, usize) {
    let mut count = 0;
    if let Some(cell) = tt_move.filter(|&c| candidates & (1u64 << c) != 0) {
        moves[0] = cell;
        count = 1;
    }
    let ordered_from = count;
    let mut rest = candidates & !tt_move.map_or(0, |c| 1u64 << c);
    while rest != 0 {
        moves[count] = rest.trailing_zeros() as u8;
        rest &= rest - 1;
        count += 1;
    }
    (count, ordered_from)
}
