//! Monte Carlo tree search: UCT over random bitboard playouts.
//!
//! The tree lives in one `Vec` of small nodes with children stored next to
//! each other. Each node caches its mean reward, `1/sqrt(visits)` and its
//! exploration term, so choosing a child is one multiply-add per child and
//! the selection loop computes no square root or logarithm; the backup
//! takes them from tables (and a float-exponent logarithm beyond them).

use std::sync::OnceLock;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::playout::random_playout;
use super::{Budget, Engine, Estimate, Limit, SearchInfo};
use crate::game::{Cell, Geometry, Position, Rules};

/// Iterations per move unless told otherwise.
pub(crate) const DEFAULT_ITERATIONS: u64 = 10_000;

/// The UCT exploration constant (rewards are in 0..1).
pub(crate) const EXPLORATION: f32 = 1.0;
/// The tree stops growing past this many nodes (24 bytes each, 1.5 MiB);
/// further iterations still run playouts from its leaves. The bound keeps
/// the live screen's 36 games × 2 seats of MCTS within 150 MB.
const MAX_NODES: usize = 1 << 16;
/// Iterations between two calls of `Budget::tick`.
const BATCH: u64 = 256;
/// Visit counts below this use the lookup tables.
const TABLE_SIZE: usize = 8192;

/// A node's state: the game goes on, the player who moved into it has
/// won, or the board is full.
pub(crate) const ONGOING: u8 = 0;
pub(crate) const WON: u8 = 1;
pub(crate) const DRAWN: u8 = 2;
/// Proven lost for the player who moved into it (the big boards' solver
/// backup: a reply wins).
pub(crate) const LOST: u8 = 3;

/// A tree node, with its cell (and child count) in `C`: `u8` for the
/// boards up to 8x8, `u16` for the big boards (`ai::big`), which share
/// this node, its selection and its backup.
#[derive(Clone, Copy)]
pub(crate) struct Node<C> {
    /// Mean reward for the player who moved into this node.
    pub mean: f32,
    /// `1/sqrt(visits)`, very large while unvisited so those go first.
    pub inv_sqrt: f32,
    /// `EXPLORATION * sqrt(ln(visits + 1))`: what this node's children are
    /// explored with, kept up to date by the backup so that choosing a
    /// child is one multiply-add per child and no logarithm.
    pub explore: f32,
    pub visits: u32,
    /// Index of the first child; 0 while not expanded (the root is never a child).
    pub first_child: u32,
    pub cell: C,
    pub children: C,
    pub state: u8,
}

impl<C: Copy + Default> Node<C> {
    pub(crate) fn leaf(cell: C, state: u8) -> Node<C> {
        Node {
            mean: 0.0,
            inv_sqrt: 1e9,
            explore: EXPLORATION * sqrt_ln(1),
            visits: 0,
            first_child: 0,
            cell,
            children: C::default(),
            state,
        }
    }
}

/// The child of `node` (expanded) with the best UCT score.
#[inline(always)]
pub(crate) fn select_child<C: Copy + Into<usize>>(nodes: &[Node<C>], node: usize) -> usize {
    select_among_first(nodes, node, nodes[node].children.into())
}

/// The same among the node's first `count` children (at least one).
#[inline(always)]
pub(crate) fn select_among_first<C: Copy + Into<usize>>(
    nodes: &[Node<C>],
    node: usize,
    count: usize,
) -> usize {
    let n = nodes[node];
    let explore = n.explore;
    let first = n.first_child as usize;
    let mut best = first;
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in nodes[first..first + count].iter().enumerate() {
        let score = child.mean + explore * child.inv_sqrt;
        if score > best_score {
            best_score = score;
            best = first + i;
        }
    }
    best
}

/// The iterations a move's limit asks of MCTS: its count, none for a
/// time (the budget stops the search), the default for no limit at all.
pub(crate) fn iterations_for(limit: Limit) -> Option<u64> {
    match limit {
        Limit::Work(n) => Some(n),
        Limit::Time(_) => None,
        Limit::Whole => Some(DEFAULT_ITERATIONS),
    }
}

/// Runs a search in batches of `batch` iterations (`run(n)` runs `n` and
/// returns the progress to report) until the budget stops it, or its
/// limit's count of iterations is done: exactly, the last batch runs only
/// what is left.
pub(crate) fn run_batches(
    budget: &mut dyn Budget,
    batch: u64,
    mut run: impl FnMut(u64) -> SearchInfo,
) {
    let total = iterations_for(budget.limit());
    let mut done_so_far = 0u64;
    loop {
        let n = total.map_or(batch, |t| t.saturating_sub(done_so_far).min(batch));
        let progress = run(n);
        done_so_far += n;
        budget.report(&progress);
        if total.is_some_and(|t| done_so_far >= t) || !budget.tick() {
            return;
        }
    }
}

/// The root's most visited child so far (the root is `nodes[0]`).
pub(crate) fn most_visited_child<C: Copy + Into<usize>>(nodes: &[Node<C>]) -> Option<Node<C>> {
    let root = nodes.first()?;
    let children = &nodes[root.first_child as usize..][..root.children.into()];
    children.iter().max_by_key(|n| n.visits).copied()
}

/// The search so far, as the screen shows it: iterations, the move it
/// would play, its win rate.
pub(crate) fn progress<C: Copy + Into<usize>>(nodes: &[Node<C>], iterations: u64) -> SearchInfo {
    let best = most_visited_child(nodes);
    SearchInfo {
        work: iterations,
        best: best.map(|n| Cell::from_index(n.cell.into())),
        estimate: best.map(|n| Estimate::WinRate(n.mean)),
        ..SearchInfo::default()
    }
}

/// Adds one visit with `reward` (for the player who moved into it) to a
/// node: its mean, and the terms its selection reads.
#[inline(always)]
pub(crate) fn visit<C>(node: &mut Node<C>, reward: f32, t: &Tables) {
    node.visits += 1;
    let n = node.visits;
    match t.per_visit.get(n as usize) {
        Some(&[inv_sqrt, explore]) => [node.inv_sqrt, node.explore] = [inv_sqrt, explore],
        None => {
            // A busy node (the root and the best lines): no division, and
            // the exploration term, which moves by under 1e-5 a visit
            // here, is brought up to date every 16th visit.
            node.inv_sqrt = inv_sqrt(n as f32);
            if n.is_multiple_of(16) {
                node.explore = EXPLORATION * sqrt_ln_in(t, n + 1);
            }
        }
    }
    node.mean += (reward - node.mean) * node.inv_sqrt * node.inv_sqrt;
}

/// `1/sqrt(x)` to about 1e-7: the hardware estimate and one Newton step,
/// several times cheaper than a square root and a division.
#[inline(always)]
fn inv_sqrt(x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_cvtss_f32, _mm_rsqrt_ss, _mm_set_ss};
        // SAFETY: SSE is part of every x86-64 CPU.
        let y = unsafe { _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x))) };
        y * (1.5 - 0.5 * x * y * y)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        1.0 / x.sqrt()
    }
}

pub(crate) struct Tables {
    /// Per visit count `n`: `[1/sqrt(n), EXPLORATION * sqrt(ln(n + 1))]`,
    /// side by side so a backup step reads one cache line.
    per_visit: Vec<[f32; 2]>,
    sqrt_ln: Vec<f32>,
    /// `log2(1 + i / MANTISSA_STEPS)`: logarithms of larger counts from
    /// their exponent and the top bits of their mantissa.
    log2_mantissa: Vec<f32>,
}

/// Mantissa steps of the logarithm table (relative error under 1e-3).
const MANTISSA_BITS: u32 = 10;

pub(crate) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let sqrt_ln: Vec<f32> = (0..=TABLE_SIZE)
            .map(|n| (n.max(1) as f32).ln().sqrt())
            .collect();
        Tables {
            per_visit: (0..TABLE_SIZE)
                .map(|n| [1.0 / (n.max(1) as f32).sqrt(), EXPLORATION * sqrt_ln[n + 1]])
                .collect(),
            sqrt_ln,
            log2_mantissa: (0..1u32 << MANTISSA_BITS)
                .map(|i| (1.0 + i as f64 / (1u32 << MANTISSA_BITS) as f64).log2() as f32)
                .collect(),
        }
    })
}

/// `sqrt(ln(n))`, from a table below 8,192 and from the float's exponent
/// and a mantissa table above: no call to `ln` at any visit count.
#[inline]
pub(crate) fn sqrt_ln(n: u32) -> f32 {
    sqrt_ln_in(tables(), n)
}

#[inline]
fn sqrt_ln_in(t: &Tables, n: u32) -> f32 {
    match t.sqrt_ln.get(n as usize) {
        Some(&v) => v,
        None => {
            let exponent = 31 - n.leading_zeros();
            let mantissa =
                ((n as u64) << MANTISSA_BITS >> exponent) as usize & ((1 << MANTISSA_BITS) - 1);
            let log2 = exponent as f32 + t.log2_mantissa[mantissa];
            (log2 * std::f32::consts::LN_2).sqrt()
        }
    }
}

pub struct Mcts {
    rules: Rules,
    rng: Xoshiro256PlusPlus,
    nodes: Vec<Node<u8>>,
    iterations: u64,
    /// The tree stops growing at this many nodes ([`MAX_NODES`] unless a
    /// memory limit says fewer).
    max_nodes: usize,
    /// The boards at the root of the tree in `nodes`, kept from the last
    /// search so that the next can start from the right grandchild.
    root: Option<[u64; 2]>,
}

impl Mcts {
    pub fn new(rules: Rules, seed: u64) -> Mcts {
        Mcts {
            rules,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            nodes: Vec::new(),
            iterations: 0,
            max_nodes: MAX_NODES,
            root: None,
        }
    }

    /// Iterations run by the last search.
    #[cfg(test)]
    pub fn last_iterations(&self) -> u64 {
        self.iterations
    }

    /// Runs a plain UCT search of `iterations` from `pos` (no tactical
    /// shortcuts) and returns the most visited move. For benchmarks.
    pub fn search_iterations(&mut self, pos: &Position, iterations: u64) -> Cell {
        // From a fresh tree, so that every search does the same work.
        self.root = None;
        self.search(pos, &mut super::MoveBudget::new(Limit::Work(iterations)))
    }

    /// Visits of the root of the tree (all searches that built it).
    #[cfg(test)]
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
    }

    /// Makes the tree of the last search start at `boards` when they are
    /// two plies below its root (its move, then the opponent's), keeping
    /// that subtree's statistics. Returns whether it could.
    fn reuse_tree(&mut self, boards: [u64; 2], side: usize) -> bool {
        let Some(root) = self.root else {
            return false;
        };
        let (mine, theirs) = (boards[side] ^ root[side], boards[side ^ 1] ^ root[side ^ 1]);
        let grew = |old: u64, new: u64, diff: u64| old & new == old && diff.count_ones() == 1;
        if self.nodes.is_empty()
            || !grew(root[side], boards[side], mine)
            || !grew(root[side ^ 1], boards[side ^ 1], theirs)
        {
            return false;
        }
        let child = |nodes: &[Node<u8>], parent: usize, cell: u64| {
            let n = nodes[parent];
            let first = n.first_child as usize;
            (first..first + n.children as usize)
                .find(|&i| n.first_child != 0 && 1u64 << nodes[i].cell == cell)
        };
        let Some(ours) = child(&self.nodes, 0, mine) else {
            return false;
        };
        let Some(next) = child(&self.nodes, ours, theirs) else {
            return false;
        };
        self.keep_subtree(next);
        true
    }

    /// Copies the subtree under `top` to the front of a new node array
    /// (children stay next to each other) and makes it the tree.
    fn keep_subtree(&mut self, top: usize) {
        let mut kept = Vec::with_capacity(self.nodes.capacity());
        kept.push(self.nodes[top]);
        let mut queue = std::collections::VecDeque::from([(top, 0usize)]);
        while let Some((old, new)) = queue.pop_front() {
            let n = self.nodes[old];
            if n.first_child == 0 {
                continue;
            }
            let start = kept.len();
            for i in 0..n.children as usize {
                kept.push(self.nodes[n.first_child as usize + i]);
                queue.push_back((n.first_child as usize + i, start + i));
            }
            kept[new].first_child = start as u32;
        }
        self.nodes = kept;
    }

    fn search(&mut self, pos: &Position, budget: &mut dyn Budget) -> Cell {
        let geo = self.rules.geometry();
        let boards = [
            pos.small_board(crate::game::Player::O),
            pos.small_board(crate::game::Player::X),
        ];
        let side = pos.to_move().index();
        if !self.reuse_tree(boards, side) {
            self.nodes.clear();
            // Room for the whole tree up front: growing a large Vec copies
            // it, a pause no time slice could interrupt. About 8 nodes per
            // iteration is the most a 16-cell board needs; pages are only
            // touched as used.
            let expected = match budget.limit() {
                Limit::Time(t) => (t.as_millis() as usize).saturating_mul(20_000),
                limit => iterations_for(limit).map_or(0, |n| (n as usize).saturating_mul(8)),
            };
            self.nodes.reserve(expected.clamp(1024, self.max_nodes));
            self.nodes.push(Node::leaf(0, ONGOING));
        }
        self.root = Some(boards);
        self.iterations = 0;
        // The path of an iteration, kept between iterations: zeroing it
        // each time cost 4% mid-game.
        let mut path = [0u32; 65];
        run_batches(budget, BATCH, |n| {
            for _ in 0..n {
                self.iterate(geo, boards, side, &mut path);
            }
            self.iterations += n;
            self.progress()
        });
        // The root is always expanded by the first iteration.
        self.best_child()
            .map(|n| Cell::new(n.cell.into()))
            .unwrap_or_else(|| Cell::new(pos.small_empty().trailing_zeros() as u16))
    }

    /// The root's most visited child so far.
    fn best_child(&self) -> Option<Node<u8>> {
        most_visited_child(&self.nodes)
    }

    fn progress(&self) -> SearchInfo {
        progress(&self.nodes, self.iterations)
    }

    /// One iteration: select down the tree, expand, play out, back up.
    #[inline]
    fn iterate(
        &mut self,
        geo: &Geometry,
        mut boards: [u64; 2],
        root_side: usize,
        path: &mut [u32; 65],
    ) {
        // `path[d]`: the node at depth `d`; the root is node 0.
        path[0] = 0;
        let mut depth = 0;
        let mut side = root_side;
        let mut node = 0usize;
        // The winner's index, 2 for a draw.
        let winner = loop {
            let n = self.nodes[node];
            match n.state {
                WON => break side ^ 1,
                DRAWN => break 2,
                _ => {}
            }
            if n.first_child == 0 {
                let empty = geo.full & !(boards[0] | boards[1]);
                let room = self.nodes.len() + empty.count_ones() as usize <= self.max_nodes;
                if (n.visits == 0 && node != 0) || !room {
                    break rollout(geo, boards, side, &mut self.rng);
                }
                self.expand(geo, node, boards, side, empty);
            }
            let best = select_child(&self.nodes, node);
            boards[side] |= 1u64 << self.nodes[best].cell;
            side ^= 1;
            node = best;
            depth += 1;
            path[depth] = node as u32;
        };
        // Back up: the node at depth d was entered by a move of
        // `root_side ^ ((d - 1) & 1)`; the root's "mover" is the other side.
        let t = tables();
        for (d, &index) in path[..=depth].iter().enumerate() {
            let mover = root_side ^ ((d + 1) & 1);
            let reward = if winner == 2 {
                0.5
            } else if winner == mover {
                1.0
            } else {
                0.0
            };
            visit(&mut self.nodes[index as usize], reward, t);
        }
    }

    fn expand(&mut self, geo: &Geometry, node: usize, boards: [u64; 2], side: usize, empty: u64) {
        let first = self.nodes.len();
        let mut rest = empty;
        while rest != 0 {
            let cell = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let mine = boards[side] | 1u64 << cell;
            let state = if geo.has_line_through(mine, cell) {
                WON
            } else if empty == 1u64 << cell {
                DRAWN
            } else {
                ONGOING
            };
            self.nodes.push(Node::leaf(cell, state));
        }
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.children = empty.count_ones() as u8;
    }
}

/// A random playout from a new leaf: the winner's index, 2 for a draw. Out
/// of line, so that the selection loop stays small (inlined, the playout
/// slowed the mid-game search, where few iterations reach a new leaf).
#[inline(never)]
fn rollout(geo: &Geometry, boards: [u64; 2], side: usize, rng: &mut Xoshiro256PlusPlus) -> usize {
    random_playout(geo, boards, side, rng).unwrap_or(2)
}

impl Engine for Mcts {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "MCTS".into()
    }

    /// A limit lowers the tree's bound, never raises it past
    /// [`MAX_NODES`], the bound the small boards' engines were measured
    /// with: the live screen hands each seat its share of the memory, and
    /// grown to it (14 MB a seat with nine games) the trees of nine 4x4
    /// games of MCTS held 217 MB instead of 37. (On larger boards,
    /// Gomoku's MCTS grows to its limit.)
    fn set_memory_limit(&mut self, bytes: usize) {
        self.max_nodes = (bytes / std::mem::size_of::<Node<u8>>()).clamp(1024, MAX_NODES);
    }

    fn choose(&mut self, pos: &Position, budget: &mut dyn Budget) -> Cell {
        // Decisive and anti-decisive moves: take a win in one, block the
        // opponent's only win in one. Playouts find these too, but slowly.
        let geo = self.rules.geometry();
        let me = pos.to_move();
        let empty = pos.small_empty();
        let wins = geo.winning_cells(pos.small_board(me), empty);
        if wins != 0 {
            return Cell::new(wins.trailing_zeros() as u16);
        }
        let threats = geo.winning_cells(pos.small_board(me.other()), empty);
        if threats.count_ones() == 1 || empty.count_ones() == 1 {
            let only = if threats != 0 { threats } else { empty };
            return Cell::new(only.trailing_zeros() as u16);
        }
        self.search(pos, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::MoveBudget;

    fn work(n: u64) -> MoveBudget {
        MoveBudget::new(Limit::Work(n))
    }

    fn pos(moves: &str) -> Position {
        let rules = Rules::default_rules();
        Position::from_moves(rules, &Cell::parse_list(moves, 4).unwrap()).unwrap()
    }

    #[test]
    fn search_finds_a_win_in_one_without_shortcuts() {
        // O has A1, B1; C1 wins at once.
        let p = pos("A1,A4,B1,D4");
        let mut m = Mcts::new(p.rules(), 1);
        assert_eq!(m.search_iterations(&p, 5_000).name(4), "C1");
    }

    #[test]
    fn choose_blocks_the_only_threat() {
        // X threatens C4 (A4, B4); O has no win in one.
        let p = pos("B2,A4,D1,B4");
        let mut m = Mcts::new(p.rules(), 1);
        assert_eq!(m.choose(&p, &mut work(1_000)).name(4), "C4");
    }

    #[test]
    fn same_seed_same_move() {
        let p = pos("B2");
        let a = Mcts::new(p.rules(), 9).choose(&p, &mut work(3_000));
        let b = Mcts::new(p.rules(), 9).choose(&p, &mut work(3_000));
        assert_eq!(a, b);
    }

    #[test]
    fn busy_nodes_keep_exact_terms() {
        // A node visited 1M times with alternating rewards, through the
        // tables and past them: its mean and terms stay where exact
        // arithmetic puts them.
        let t = tables();
        let mut node = Node::<u8>::leaf(0, ONGOING);
        for i in 0..1_000_000u32 {
            visit(&mut node, (i % 2) as f32, t);
            let n = node.visits as f64;
            if node.visits.is_multiple_of(100_003) || node.visits == 1_000_000 {
                let exact = 1.0 / n.sqrt();
                assert!((node.inv_sqrt as f64 - exact).abs() / exact < 1e-6, "{n}");
                let explore = EXPLORATION as f64 * (n + 1.0).ln().sqrt();
                assert!(
                    (node.explore as f64 - explore).abs() / explore < 2e-3,
                    "{n}"
                );
            }
        }
        assert!((node.mean - 0.5).abs() < 1e-3, "{}", node.mean);
    }

    #[test]
    fn the_logarithm_beyond_the_table_is_close() {
        for n in [8_192u32, 10_000, 65_537, 1_000_000, 123_456_789, u32::MAX] {
            let exact = (n as f64).ln().sqrt();
            let fast = sqrt_ln(n) as f64;
            assert!(
                (fast - exact).abs() / exact < 1e-3,
                "{n}: {fast} vs {exact}"
            );
        }
    }

    #[test]
    fn the_tree_stays_within_its_bound() {
        let p = pos("");
        let mut m = Mcts::new(p.rules(), 3);
        m.search_iterations(&p, 200_000);
        assert!(m.nodes.len() <= MAX_NODES, "{}", m.nodes.len());
        assert!(m.nodes.capacity() <= MAX_NODES, "{}", m.nodes.capacity());
        assert_eq!(m.nodes[0].visits, 200_000);
    }

    #[test]
    fn a_memory_limit_lowers_the_trees_bound_and_never_raises_it() {
        let p = pos("");
        for (limit, bound) in [
            (usize::MAX, MAX_NODES),
            (256 << 20, MAX_NODES),
            (std::mem::size_of::<Node<u8>>() * 4096, 4096),
        ] {
            let mut m = Mcts::new(p.rules(), 3);
            m.set_memory_limit(limit);
            m.search_iterations(&p, 200_000);
            assert!(m.nodes.len() <= bound, "{limit}: {}", m.nodes.len());
            assert!(
                m.nodes.capacity() <= bound,
                "{limit}: {}",
                m.nodes.capacity()
            );
        }
    }

    #[test]
    fn the_tree_of_the_last_move_is_kept_for_the_next() {
        let mut m = Mcts::new(Rules::default_rules(), 3);
        let mut p = pos("");
        let mine = m.choose(&p, &mut work(5_000));
        p.play(mine).unwrap();
        // The opponent answers with a move the tree has explored.
        let reply = p.legal_moves().next().unwrap();
        let root = m.nodes[0];
        let ours = (root.first_child..root.first_child + root.children as u32)
            .map(|i| m.nodes[i as usize])
            .find(|n| n.cell as usize == mine.index())
            .unwrap();
        let grandchild = (ours.first_child..ours.first_child + ours.children as u32)
            .map(|i| m.nodes[i as usize])
            .find(|n| n.cell as usize == reply.index())
            .unwrap();
        assert!(grandchild.visits > 0);
        p.play(reply).unwrap();
        m.choose(&p, &mut work(5_000));
        // The new root kept its visits and got the new search's.
        assert_eq!(m.root_visits(), grandchild.visits + 5_000);
        assert_eq!(m.last_iterations(), 5_000);
        // The kept tree is well formed: every child range is in bounds and
        // child visits add up to at most the parent's.
        for n in &m.nodes {
            if n.first_child != 0 {
                let kids = &m.nodes[n.first_child as usize..][..n.children as usize];
                assert!(kids.iter().map(|k| k.visits).sum::<u32>() <= n.visits);
            }
        }
        // A position that is not two plies below starts afresh.
        let mut other = pos("A1");
        other.play(Cell::parse("D4", 4).unwrap()).unwrap();
        m.choose(&other, &mut work(5_000));
        assert_eq!(m.root_visits(), 5_000);
    }

    #[test]
    fn budgets_are_exact() {
        let p = pos("");
        for n in [1u64, 100, 255, 257, 500] {
            let mut m = Mcts::new(p.rules(), 3);
            m.search_iterations(&p, n);
            assert_eq!(m.nodes[0].visits as u64, n);
            assert_eq!(m.last_iterations(), n);
        }
    }

    #[test]
    fn root_visits_equal_iterations() {
        let p = pos("");
        let mut m = Mcts::new(p.rules(), 3);
        m.search_iterations(&p, 2_560);
        assert_eq!(m.nodes[0].visits, 2_560);
        let root = m.nodes[0];
        let sum: u32 = m.nodes[root.first_child as usize..][..root.children as usize]
            .iter()
            .map(|n| n.visits)
            .sum();
        // Every iteration passes through exactly one child of the root.
        assert_eq!(sum, 2_560);
    }
}
