//! MCTS for boards above 8x8: UCT over the most promising cells near the
//! stones, with short tactical playouts that an evaluation finishes.
//!
//! Uniform playouts over a 15x15 board say little: a random defender never
//! blocks, so every line wins. Here a playout takes a win when it has one,
//! blocks when the opponent threatens one, and otherwise plays at random
//! among the cells within two of a stone; after [`PLAYOUT_MOVES`] such
//! moves the line-count evaluation, through a logistic, gives the reward.
//! Against the big-board Negamax at 50 ms a move, playouts to the end won
//! 1 game of 20; these win about a fifth (BENCHMARKS.md, bigger boards). The tree
//! applies the same tactics when it expands a node, so it never spends
//! iterations on moves that ignore a threat, and otherwise keeps the
//! [`TREE_WIDTH`] best cells by the shapes' move order, best first; a
//! node's selection opens them one by one as its visits grow
//! (progressive widening). Proofs are backed up: a node with a won child
//! is lost, and one whose children are every saving move (a forced
//! position) and all lost is won; a proven win is played, a proven loss
//! avoided. A new leaf where the side to move wins by fours (a short VCF
//! search) is proven lost for the side that moved into it.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{BigBoard, Tables};
use crate::ai::mcts::{
    DRAWN, LOST, Node, ONGOING, WON, most_visited_child, progress, run_batches, select_among_first,
    tables, visit,
};
use crate::ai::{Budget, Engine, Estimate, SearchInfo};
use crate::game::{Bits, Cell, Outcome, Player, Position, Rules};

/// The tree stops growing past this many nodes (24 bytes each, 6 MiB).
const MAX_NODES: usize = 1 << 18;
/// Moves a playout plays before the evaluation decides.
const PLAYOUT_MOVES: usize = 6;
/// Evaluation points that make an even game 73% to 27% (a logistic).
const EVAL_SCALE: f32 = 150.0;
/// Iterations between two calls of `Budget::tick` (a playout on 15x15
/// takes some tens of microseconds).
const BATCH: u64 = 16;

pub struct BigMcts {
    tables: Tables,
    rng: Xoshiro256PlusPlus,
    nodes: Vec<Node<u16>>,
    /// The nodes of the current iteration's path, root first.
    path: Vec<u32>,
    iterations: u64,
    /// The tree stops growing at this many nodes.
    max_nodes: usize,
}

/// Children a node gets when no threat narrows them: the most promising
/// cells near the stones by the shapes' move order. Without a prior, UCT
/// spreads a few thousand iterations over some 60 cells and reads nothing
/// deeply.
const TREE_WIDTH: usize = 12;
/// The last look before it plays: a move that lets the other side win by
/// threats (found within this many nodes) is swapped for one of the next
/// few most visited that does not.
const AVOID_BUDGET: u32 = 3_000;
const AVOID_TRIES: usize = 4;
/// The search for a win by fours at each new leaf: fours tried, plies.
const LEAF_VCF_BUDGET: u32 = 30;
const LEAF_VCF_PLIES: u32 = 15;
/// Marks (in a node's state) a node whose children are every move that
/// can save the game (a forced position), so that if each of them is
/// lost, the node is won for the side that moved into it.
const COMPLETE: u8 = 0x80;

/// A node's children, as [`tree_moves`] finds them.
struct TreeMoves {
    /// Best first by [`BigBoard::move_value`].
    moves: Vec<usize>,
    /// Whether they are every move worth anything (a win, the blocks of a
    /// win in one, the answers to a double threat), or a selection.
    complete: bool,
    /// The ones won as soon as they are played: a win in one, or a
    /// winning double four ([`BigBoard::winning_double_four`]).
    won: Bits,
}

/// The children of a node: the tactical moves, and without a threat the
/// [`TREE_WIDTH`] best of them.
fn tree_moves(t: &Tables, b: &BigBoard) -> TreeMoves {
    let mut moves = tactical_moves(t, b);
    let me = b.to_move();
    let mut complete = !b.wins(me).is_empty() || !b.wins(me.other()).is_empty();
    if let Some(cell) = b.winning_double_four(t) {
        let won = Bits::EMPTY.with(cell);
        return TreeMoves {
            moves: vec![cell],
            complete: true,
            won,
        };
    }
    if !complete && b.double_four(t, me.other()).is_some() {
        // Only a stone in one of its windows of K - 2, or a four of our
        // own, can answer the other side's double threat.
        let answers = moves & (b.four_cells(me) | b.four_cells(me.other()));
        if !answers.is_empty() {
            moves = answers;
            complete = true;
        }
    }
    if !complete {
        // As in Negamax: the cells that make or stop a four or a three,
        // when there are enough of them.
        let hot = moves & b.threat_cells();
        if hot.count() as usize >= TREE_WIDTH {
            moves = hot;
        }
    }
    let mut scored: Vec<(i32, usize)> = moves.iter().map(|c| (b.move_value(t, c), c)).collect();
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if !complete {
        scored.truncate(TREE_WIDTH);
    }
    TreeMoves {
        moves: scored.into_iter().map(|(_, c)| c).collect(),
        complete,
        won: b.wins(me),
    }
}

/// How many of a node's children (best first) selection looks at after
/// `visits`: progressive widening, so that the first iterations go to
/// the moves the shapes like best.
fn widened(visits: u32) -> usize {
    2 + (visits / 8).isqrt() as usize
}

/// The moves worth searching: a win in one if there is one, else the
/// blocks of the opponent's wins in one, else the cells near the stones.
pub(crate) fn tactical_moves(t: &Tables, b: &BigBoard) -> Bits {
    let me = b.to_move();
    let wins = b.wins(me);
    if let Some(win) = wins.first() {
        return Bits::EMPTY.with(win);
    }
    let threats = b.wins(me.other());
    if !threats.is_empty() {
        return threats;
    }
    b.candidates(t)
}

impl BigMcts {
    pub fn new(rules: Rules, seed: u64) -> BigMcts {
        BigMcts {
            tables: Tables::new(rules),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            nodes: Vec::new(),
            path: Vec::new(),
            iterations: 0,
            max_nodes: MAX_NODES,
        }
    }

    /// Runs `iterations` from `pos` and returns the most visited move. For
    /// benchmarks.
    pub fn search_iterations(&mut self, pos: &Position, iterations: u64) -> Cell {
        let mut budget = crate::ai::MoveBudget::new(crate::ai::Limit::Work(iterations));
        self.search(pos, &mut budget)
    }

    /// One playout from `pos` (not over), as the search runs them; the
    /// winner, `None` for a draw. For benchmarks and tests.
    pub fn playout_from(&mut self, pos: &Position) -> f32 {
        self.playout(&mut BigBoard::from_position(&self.tables, pos))
    }

    fn search(&mut self, pos: &Position, budget: &mut dyn Budget) -> Cell {
        let root = BigBoard::from_position(&self.tables, pos);
        self.nodes.clear();
        self.nodes.push(Node::leaf(0, ONGOING));
        self.iterations = 0;
        run_batches(budget, BATCH, |n| {
            for _ in 0..n {
                self.iterate(root);
            }
            self.iterations += n;
            self.progress()
        });
        let Some(best) = self.best_child() else {
            return tactical_moves(&self.tables, &root)
                .first()
                .map_or(Cell::new(0), Cell::from_index);
        };
        // The children by visits: the alternatives if the best lets the
        // other side win by threats.
        let root_node = self.nodes[0];
        let mut order: Vec<Node<u16>> = self.nodes[root_node.first_child as usize..]
            [..usize::from(root_node.children)]
            .to_vec();
        order.sort_by_key(|n| std::cmp::Reverse(n.visits));
        let order: Vec<usize> = order.iter().map(|n| usize::from(n.cell)).collect();
        let cell = super::vct::avoiding_threat_wins(
            &self.tables,
            &root,
            usize::from(best.cell),
            &order,
            AVOID_BUDGET,
            AVOID_TRIES,
            // A few small searches: within the reply's reserve.
            || true,
        );
        Cell::from_index(cell)
    }

    /// The move to play: a proven win, else the most visited move not
    /// proven lost (the most visited if all are).
    fn best_child(&self) -> Option<Node<u16>> {
        let root = self.nodes.first()?;
        let children = &self.nodes[root.first_child as usize..][..usize::from(root.children)];
        if let Some(won) = children.iter().find(|n| proof(n) == WON) {
            return Some(*won);
        }
        children
            .iter()
            .filter(|n| proof(n) != LOST)
            .max_by_key(|n| n.visits)
            .copied()
            .or_else(|| most_visited_child(&self.nodes))
    }

    /// The search so far, with the move it would play: a proven win is
    /// shown as won and proved, a proven loss is not shown as the best.
    fn progress(&self) -> SearchInfo {
        let mut info = progress(&self.nodes, self.iterations);
        if let Some(best) = self.best_child() {
            let won = proof(&best) == WON;
            info.best = Some(Cell::from_index(usize::from(best.cell)));
            info.estimate = Some(Estimate::WinRate(if won { 1.0 } else { best.mean }));
            info.proved = won;
        }
        info
    }

    /// One iteration: select down the tree, expand, play out, back up.
    fn iterate(&mut self, mut board: BigBoard) {
        let root_side = board.to_move();
        let mut node = 0usize;
        self.path.clear();
        self.path.push(0);
        let o_reward: f32 = loop {
            let n = self.nodes[node];
            match proof(&n) {
                WON => break reward_of(board.to_move().other()),
                LOST => break reward_of(board.to_move()),
                DRAWN => break 0.5,
                _ => {}
            }
            if n.first_child == 0 {
                let room = self.nodes.len() + (board.near().count() as usize) < self.max_nodes;
                if (n.visits == 0 && node != 0) || !room {
                    if node != 0 && self.wins_by_fours(node, &board) {
                        break reward_of(board.to_move());
                    }
                    // On the iteration's own board: no copy of it.
                    break self.playout(&mut board);
                }
                self.expand(node, &board);
            }
            let n = self.nodes[node];
            let children = usize::from(n.children);
            let open = if n.state & COMPLETE != 0 {
                children
            } else {
                widened(n.visits).min(children)
            };
            let best = select_among_first(&self.nodes, node, open);
            board.play(&self.tables, self.nodes[best].cell as usize);
            node = best;
            self.path.push(node as u32);
        };
        let t = tables();
        // The node at depth d was entered by a move of the root's side when
        // d is odd; the root's "mover" is the other side.
        for (d, &index) in self.path.iter().enumerate() {
            let mover = if d % 2 == 1 {
                root_side
            } else {
                root_side.other()
            };
            let reward = match mover {
                Player::O => o_reward,
                Player::X => 1.0 - o_reward,
            };
            visit(&mut self.nodes[index as usize], reward, t);
        }
        self.back_up_proofs();
    }

    /// Whether the side to move at a new leaf wins by fours (a short VCF
    /// search): the leaf is then proven lost for the side that moved
    /// into it, and marked so.
    fn wins_by_fours(&mut self, node: usize, board: &BigBoard) -> bool {
        let mut tries = LEAF_VCF_BUDGET;
        if super::vcf::win_length(&self.tables, board, LEAF_VCF_PLIES, &mut tries).is_none() {
            return false;
        }
        let n = &mut self.nodes[node];
        n.state = (n.state & COMPLETE) | LOST;
        true
    }

    /// Carries proofs up the last iteration's path: a node with a won
    /// child is lost for the side that moved into it, and a node whose
    /// children are complete and all lost is won.
    fn back_up_proofs(&mut self) {
        for i in (0..self.path.len().saturating_sub(1)).rev() {
            let parent = self.path[i] as usize;
            let n = self.nodes[parent];
            if proof(&n) != ONGOING {
                continue;
            }
            let children = &self.nodes[n.first_child as usize..][..usize::from(n.children)];
            let proven = if children.iter().any(|c| proof(c) == WON) {
                LOST
            } else if n.state & COMPLETE != 0
                && !children.is_empty()
                && children.iter().all(|c| proof(c) == LOST)
            {
                WON
            } else {
                return;
            };
            self.nodes[parent].state = (n.state & COMPLETE) | proven;
        }
    }

    fn expand(&mut self, node: usize, board: &BigBoard) {
        let first = self.nodes.len();
        let TreeMoves {
            moves,
            complete,
            won,
        } = tree_moves(&self.tables, board);
        for &cell in &moves {
            let state = if won.contains(cell) {
                WON
            } else if board.moves() as usize + 1 == self.tables.cells {
                DRAWN
            } else {
                ONGOING
            };
            self.nodes.push(Node::leaf(cell as u16, state));
        }
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.children = moves.len() as u16;
        if complete {
            n.state |= COMPLETE;
        }
    }

    /// Plays on from `board`: a win in one when there is one, a block when
    /// the opponent has one, else a random cell near the stones; after
    /// [`PLAYOUT_MOVES`] moves without a result, the line-count evaluation
    /// decides. Returns O's reward: 1 for a win, 0 for a loss, 0.5 for a
    /// draw, in between for an evaluation.
    fn playout(&mut self, board: &mut BigBoard) -> f32 {
        for _ in 0..PLAYOUT_MOVES {
            if board.outcome() == Outcome::Draw {
                return 0.5;
            }
            let me = board.to_move();
            if !board.wins(me).is_empty() {
                return reward_of(me);
            }
            let threats = board.wins(me.other());
            let cell = match threats.count() {
                0 => {
                    let moves = board.candidates(&self.tables);
                    let k = self.rng.random_range(0..moves.count());
                    moves.nth(k).unwrap_or(0)
                }
                1 => threats.first().unwrap_or(0),
                // Two threats: one block is not enough.
                _ => return reward_of(me.other()),
            };
            board.play(&self.tables, cell);
        }
        let for_o = match board.to_move() {
            Player::O => board.eval(),
            Player::X => -board.eval(),
        };
        1.0 / (1.0 + (-(for_o as f32) / EVAL_SCALE).exp())
    }
}

/// A node's state without its [`COMPLETE`] mark: ongoing, won, lost or
/// drawn for the side that moved into it.
fn proof(n: &Node<u16>) -> u8 {
    n.state & !COMPLETE
}

/// O's reward when `winner` wins.
fn reward_of(winner: Player) -> f32 {
    match winner {
        Player::O => 1.0,
        Player::X => 0.0,
    }
}

impl Engine for BigMcts {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "MCTS".into()
    }

    /// The tree grows to the limit, either way: a brain's `--hash` (64 MB)
    /// lets a long search keep growing it, as Gomoku needs.
    fn set_memory_limit(&mut self, bytes: usize) {
        self.max_nodes = (bytes / std::mem::size_of::<Node<u16>>()).max(1024);
    }

    fn choose(&mut self, pos: &Position, budget: &mut dyn Budget) -> Cell {
        let board = BigBoard::from_position(&self.tables, pos);
        let moves = tactical_moves(&self.tables, &board);
        // A win, the only block, or the opening move: nothing to search.
        if moves.count() == 1
            && let Some(only) = moves.first()
        {
            return Cell::from_index(only);
        }
        // A forced win by fours, or by fours and threes, is played at once.
        use crate::ai::{Threat, ThreatKind};
        let mut tries = super::vcf::ROOT_BUDGET;
        let vcf = super::vcf::find(&self.tables, &board, super::vcf::ROOT_PLIES, &mut tries)
            .map(|line| Threat::new(ThreatKind::Vcf, line.len() as u32, &line));
        let mut tries = super::vct::ROOT_BUDGET;
        let win = vcf.or_else(|| {
            super::vct::find(&self.tables, &board, super::vct::ROOT_PLIES, &mut tries)
                .map(|(cell, plies)| Threat::new(ThreatKind::Vct, plies, &[cell]))
        });
        if let Some(threat) = win {
            let cell = threat.line().next().unwrap_or(Cell::new(0));
            budget.report(&crate::ai::SearchInfo {
                work: 0,
                depth: None,
                best: Some(cell),
                estimate: Some(Estimate::WinRate(1.0)),
                proved: true,
                threat: Some(threat),
            });
            return cell;
        }
        self.search(pos, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Cell;

    fn board(t: &Tables, rules: Rules, moves: &str) -> BigBoard {
        let cells = Cell::parse_list(moves, rules.size()).unwrap();
        BigBoard::from_position(t, &Position::from_moves(rules, &cells).unwrap())
    }

    #[test]
    fn the_tree_takes_a_double_threat_and_answers_one() {
        let rules = Rules::new(15, 5).unwrap();
        let t = Tables::new(rules);
        // O (to move) has the open three F8 G8 H8: E8 or I8 leaves two
        // win cells, and X has none: one block cannot stop both. So too
        // when X can make a four (C3 C4 C5): O completes a line first.
        for moves in ["F8,A1,G8,O1,H8,A15", "F8,C3,G8,C4,H8,C5"] {
            let b = board(&t, rules, moves);
            let TreeMoves {
                moves,
                complete,
                won,
            } = tree_moves(&t, &b);
            assert_eq!(moves.len(), 1);
            assert!(complete);
            let cell = moves[0];
            assert!(won.contains(cell), "the double four is won on arrival");
            assert!(["E8", "I8"].contains(&Cell::from_index(cell).name(15).as_str()));
        }
        // X to move against the same three: only the cells of O's windows
        // of K - 2 (or X's own fours, none here) are searched.
        let b = board(&t, rules, "F8,A1,G8,O1,H8");
        let TreeMoves {
            moves,
            complete,
            won,
        } = tree_moves(&t, &b);
        assert!(won.is_empty());
        assert!(!moves.is_empty() && complete);
        assert!(
            moves.iter().all(|&c| b.fours_at(Player::O, c) > 0),
            "{moves:?}"
        );
    }

    #[test]
    fn proofs_back_up_to_the_root() {
        let rules = Rules::new(15, 5).unwrap();
        // X to move against two open threes of O far apart (F8 G8 H8 and
        // C3 C4 C5): whichever X blocks, O makes an open four with the
        // other. Every answer of X is lost, so the root is won for O.
        let moves = "F8,A15,G8,O15,H8,O1,C3,L1,C4,O8,C5";
        let pos =
            Position::from_moves(rules, &Cell::parse_list(moves, rules.size()).unwrap()).unwrap();
        let mut mcts = BigMcts::new(rules, 1);
        mcts.search_iterations(&pos, 3_000);
        assert_eq!(proof(&mcts.nodes[0]), WON);
        let root = mcts.nodes[0];
        let children = &mcts.nodes[root.first_child as usize..][..usize::from(root.children)];
        assert!(children.len() >= 4, "{}", children.len());
        assert!(children.iter().all(|c| proof(c) == LOST));
        // O to move after X blocks the row: its open four wins, proven at
        // once, and the move played is that one.
        let moves = format!("{moves},E8");
        let pos =
            Position::from_moves(rules, &Cell::parse_list(&moves, rules.size()).unwrap()).unwrap();
        let cell = mcts.search_iterations(&pos, 200);
        assert_eq!(proof(&mcts.nodes[0]), LOST);
        assert!(
            ["C2", "C6"].contains(&cell.name(15).as_str()),
            "{}",
            cell.name(15)
        );
        // What the screen is told: that move, won, proved.
        let info = mcts.progress();
        assert_eq!(info.best, Some(cell));
        assert!(info.proved);
        assert_eq!(info.estimate, Some(Estimate::WinRate(1.0)));
    }

    #[test]
    fn a_leaf_won_by_fours_is_marked_lost_for_its_mover() {
        let rules = Rules::new(15, 5).unwrap();
        let t = Tables::new(rules);
        let mut mcts = BigMcts::new(rules, 1);
        mcts.nodes = vec![Node::leaf(0, ONGOING), Node::leaf(0, ONGOING)];
        // O to move with an open three (H8 I8 J8): a VCF, so the leaf's
        // mover, X, has lost.
        let won = board(&t, rules, "H8,A1,I8,A3,J8,A5");
        assert!(mcts.wins_by_fours(1, &won));
        assert_eq!(proof(&mcts.nodes[1]), LOST);
        // The same three closed at G8: fours to make, none that wins.
        let closed = board(&t, rules, "H8,G8,I8,A1,J8,A3");
        assert!(!closed.four_cells(Player::O).is_empty());
        mcts.nodes[1] = Node::leaf(0, ONGOING);
        assert!(!mcts.wins_by_fours(1, &closed));
        assert_eq!(proof(&mcts.nodes[1]), ONGOING);
    }
}
