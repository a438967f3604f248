//! UCT with RAVE over any game that can name its moves, expand them with
//! priors and play itself out: "the same algorithm, told only the rules"
//! (lib-ego's idea). Go plays it ([`crate::go`]); so could Othello, by
//! implementing [`TreeGame`] for its board.
//!
//! The tree is one `Vec` of nodes with each node's children side by side,
//! as the m,n,k MCTS keeps it, and runs in the same batches on the same
//! budget ([`super::mcts::run_batches`]). A child's value mixes its own
//! mean with its all-moves-as-first mean (RAVE, after Gelly and Silver):
//! `(1 - β) Q + β Q_amaf`, `β = n_amaf / (n + n_amaf + n n_amaf / K)`,
//! so the AMAF mean leads while a child has few visits of its own and
//! fades as they grow. Each child starts with a prior: virtual wins and
//! visits from the game's own judgement of the move (a Go engine's
//! priors: captures, atari answers, patterns, the lines from the edge).

use super::mcts::run_batches;
use super::{Budget, Estimate, SearchInfo};
use crate::game::{Cell, Player};
use crate::go::playout::FastRng;

/// What the tree asks of a game.
pub(crate) trait TreeGame: Clone {
    /// Indices a move can have (the AMAF tables' length).
    const MOVE_INDICES: usize;
    fn to_move(&self) -> Player;
    /// Whether the game is over here.
    fn is_over(&self) -> bool;
    /// The moves a node expands to, each with its prior: `(index,
    /// virtual visits, virtual wins for the side to move)`.
    fn children(&self, out: &mut Vec<(u16, u32, f32)>);
    /// Plays the move of index `mv`.
    fn play(&mut self, mv: u16);
    /// Plays the game out to its end: the reward for Black (the first
    /// player), 0 to 1; `first[i]` gets 1 + the side that first played
    /// move index `i` (0: nobody), where it has no mark yet.
    fn playout(&mut self, rng: &mut FastRng, first: &mut [u8]) -> f32;
    /// The cell of move index `mv` (a pass is [`Cell::PASS`]).
    fn cell(&self, mv: u16) -> Cell;
}

/// How strongly RAVE leads: the visits at which a child's own mean and
/// its AMAF mean weigh the same.
const RAVE_EQUIVALENCE: f32 = 1000.0;
/// Visits a leaf has before it is expanded.
const EXPAND_AT: u32 = 8;
/// Iterations between two calls of `Budget::tick`.
const BATCH: u64 = 32;
/// Bytes a node takes.
pub(crate) const NODE_BYTES: usize = std::mem::size_of::<Node>();

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Wins and visits for the side that moved into this node (priors
    /// included).
    wins: f32,
    visits: u32,
    amaf_wins: f32,
    amaf_visits: u32,
    first_child: u32,
    children: u16,
    mv: u16,
    /// The prior's virtual visits, which do not count towards expanding
    /// the node.
    prior: u32,
}

impl Node {
    fn new(mv: u16, visits: u32, wins: f32) -> Node {
        Node {
            wins,
            visits,
            amaf_wins: 0.0,
            amaf_visits: 0,
            first_child: 0,
            children: 0,
            mv,
            prior: visits,
        }
    }

    /// Visits the search made, the prior's left out.
    fn real_visits(&self) -> u32 {
        self.visits - self.prior
    }

    fn mean(&self) -> f32 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins / self.visits as f32
        }
    }

    /// The value selection maximises: the mean blended with RAVE's.
    fn value(&self) -> f32 {
        let (n, m) = (self.visits as f32, self.amaf_visits as f32);
        if m == 0.0 {
            return self.mean();
        }
        let beta = m / (n + m + n * m / RAVE_EQUIVALENCE);
        (1.0 - beta) * self.mean() + beta * self.amaf_wins / m
    }
}

/// A UCT-RAVE search over a [`TreeGame`].
pub(crate) struct Uct {
    nodes: Vec<Node>,
    rng: FastRng,
    /// The tree stops growing past this many nodes.
    max_nodes: usize,
    iterations: u64,
    /// Per move index, the side that first played it in this iteration.
    first: Vec<u8>,
    children: Vec<(u16, u32, f32)>,
}

/// The search's answer: the move (its index), its win rate for the side
/// to move, and the iterations run.
pub(crate) struct Answer {
    pub(crate) mv: Option<u16>,
    pub(crate) win_rate: f32,
    pub(crate) iterations: u64,
    /// The line the tree expects: the most visited child, move after move.
    pub(crate) line: Vec<Cell>,
}

/// The longest line an answer names, and the visits a move of it needs.
const LINE_PLIES: usize = 8;
const LINE_VISITS: u32 = 16;

impl Uct {
    pub(crate) fn new(seed: u64, max_nodes: usize) -> Uct {
        Uct {
            nodes: Vec::new(),
            rng: FastRng::new(seed),
            max_nodes: max_nodes.max(16),
            iterations: 0,
            first: Vec::new(),
            children: Vec::new(),
        }
    }

    /// Bytes the tree may hold from now on.
    pub(crate) fn set_memory_limit(&mut self, bytes: usize) {
        self.max_nodes = (bytes / NODE_BYTES).clamp(16, self.max_nodes.max(16));
    }

    /// Searches from `root` until the budget stops it (or its limit's
    /// iterations are done); the most visited move.
    pub(crate) fn search<G: TreeGame>(&mut self, root: &G, budget: &mut dyn Budget) -> Answer {
        self.nodes.clear();
        self.nodes.push(Node::new(0, 0, 0.0));
        self.first.clear();
        self.first.resize(G::MOVE_INDICES, 0);
        self.iterations = 0;
        self.expand(0, root);
        if self.nodes[0].children == 0 {
            return Answer {
                mv: None,
                win_rate: 0.5,
                iterations: 0,
                line: Vec::new(),
            };
        }
        run_batches(budget, BATCH, |n| {
            for _ in 0..n {
                self.iterate(root);
            }
            self.iterations += n;
            self.progress(root)
        });
        let best = self.best_child();
        Answer {
            mv: best.map(|b| b.mv),
            win_rate: best.map_or(0.5, |b| b.mean()),
            iterations: self.iterations,
            line: self.line(root),
        }
    }

    /// The principal line: from the root, the most visited child while it
    /// has been visited enough to mean something.
    fn line<G: TreeGame>(&self, root: &G) -> Vec<Cell> {
        let mut game = root.clone();
        let (mut node, mut line) = (0usize, Vec::new());
        while line.len() < LINE_PLIES {
            let n = self.nodes[node];
            let children = n.first_child as usize..n.first_child as usize + n.children as usize;
            let Some(next) = children.max_by_key(|&c| self.nodes[c].visits) else {
                break;
            };
            if n.children == 0 || self.nodes[next].real_visits() < LINE_VISITS {
                break;
            }
            let mv = self.nodes[next].mv;
            line.push(game.cell(mv));
            game.play(mv);
            node = next;
        }
        line
    }

    fn best_child(&self) -> Option<Node> {
        let root = self.nodes[0];
        self.nodes[root.first_child as usize..][..root.children as usize]
            .iter()
            .max_by_key(|n| n.visits)
            .copied()
    }

    fn progress<G: TreeGame>(&self, root: &G) -> SearchInfo {
        let best = self.best_child();
        SearchInfo {
            work: self.iterations,
            best: best.map(|b| root.cell(b.mv)),
            estimate: best.map(|b| Estimate::WinRate(b.mean())),
            ..SearchInfo::default()
        }
    }

    /// Gives `node` its children, with their priors, if the tree has room.
    fn expand<G: TreeGame>(&mut self, node: usize, game: &G) {
        self.children.clear();
        game.children(&mut self.children);
        if self.children.is_empty() || self.nodes.len() + self.children.len() > self.max_nodes {
            return;
        }
        let first = self.nodes.len();
        for &(mv, visits, wins) in &self.children {
            self.nodes.push(Node::new(mv, visits, wins));
        }
        self.nodes[node].first_child = first as u32;
        self.nodes[node].children = self.children.len() as u16;
    }

    /// The child of `node` with the best blended value.
    fn select(&self, node: usize) -> usize {
        let n = self.nodes[node];
        let first = n.first_child as usize;
        let mut best = first;
        let mut best_value = f32::NEG_INFINITY;
        for (i, child) in self.nodes[first..first + n.children as usize]
            .iter()
            .enumerate()
        {
            let v = child.value();
            if v > best_value {
                best_value = v;
                best = first + i;
            }
        }
        best
    }

    /// One iteration: down the tree, a playout, and the results back up,
    /// with every move of the iteration counted as first for RAVE.
    fn iterate<G: TreeGame>(&mut self, root: &G) {
        let mut game = root.clone();
        let mut path: [u32; 512] = [0; 512];
        let mut depth = 0;
        let mut node = 0usize;
        self.first.fill(0);
        let mut tree_moves: [(u16, u8); 512] = [(0, 0); 512];
        loop {
            let n = self.nodes[node];
            if n.children == 0 || game.is_over() || depth + 1 >= path.len() {
                if n.children == 0 && n.real_visits() >= EXPAND_AT && !game.is_over() {
                    self.expand(node, &game);
                    if self.nodes[node].children > 0 {
                        continue;
                    }
                }
                break;
            }
            let child = self.select(node);
            let mv = self.nodes[child].mv;
            tree_moves[depth] = (mv, 1 + game.to_move().index() as u8);
            game.play(mv);
            depth += 1;
            path[depth] = child as u32;
            node = child;
        }
        // The playout marks the moves it played first; the tree's moves
        // below each node count as first too, from the leaf up.
        let black_reward = game.playout(&mut self.rng, &mut self.first);
        for d in (0..=depth).rev() {
            let at = path[d] as usize;
            // The reward for the side that moved into `at`: the side to
            // move at its parent.
            let mover = if d == 0 {
                root.to_move().other()
            } else {
                let colour = tree_moves[d - 1].1;
                if colour == 1 { Player::O } else { Player::X }
            };
            let reward = match mover {
                Player::O => black_reward,
                Player::X => 1.0 - black_reward,
            };
            let n = &mut self.nodes[at];
            n.visits += 1;
            n.wins += reward;
            // RAVE for the children of `at`: a child whose move the side
            // to move at `at` played first, anywhere below.
            let node = self.nodes[at];
            if node.children > 0 {
                let me = 1 + mover.other().index() as u8;
                let first = node.first_child as usize;
                let win = 1.0 - reward;
                for c in &mut self.nodes[first..first + node.children as usize] {
                    if self.first[c.mv as usize] == me {
                        c.amaf_visits += 1;
                        c.amaf_wins += win;
                    }
                }
            }
            if d > 0 {
                // The move into `at` came before every move below it: for
                // the nodes above, it is the first play of its point.
                let (mv, colour) = tree_moves[d - 1];
                self.first[mv as usize] = colour;
            }
        }
    }
}
