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

use super::negamax::{Analysis, Value, sort_by_key_desc};
use crate::game::{Cell, CellTables, Geometry, Player, Position, Rules};

/// Score of a win on the next ply; a win `d` plies from the root scores
/// `WIN - d`.
const WIN: i32 = 10_000;
/// Scores at least this large (in absolute value) are wins or losses.
const PROVEN: i32 = WIN - 1_000;
const INF: i32 = WIN + 1;
/// Nodes between two looks at the clock, the stop flag and the progress.
const POLL_NODES: u64 = 1 << 14;
/// The largest table of an engine made with [`Solver::new`]: 1 MiB.
pub const DEFAULT_HASH_BYTES: usize = 1 << 20;
/// Hash keys of the two weak games.
const WEAK_KEYS: [u64; 2] = [0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f];
/// Nodes the quick probe of a solve may search before it gives up.
const PROBE_NODES: u64 = 1 << 10;
/// Every table starts with 256 buckets (8 KiB).
const START_BUCKETS: usize = 256;

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
pub struct Progress {
    pub nodes: u64,
    pub elapsed: Duration,
    /// The root's moves settled so far in the current pass, of `root_moves`.
    pub root_done: usize,
    pub root_moves: usize,
    /// "weak game" or "whole game": which search runs.
    pub phase: &'static str,
}

/// Whoever shows a long search's progress.
pub type ProgressReport = Box<dyn FnMut(&Progress)>;

/// One table entry: bounds on the exact score, relative to its node.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    lower: i16,
    upper: i16,
    /// Best move in the orientation of the canonical image (`u8::MAX`: none).
    cell: u8,
    /// Empty cells at the node: a rough size of the subtree it stands for.
    weight: u8,
    used: bool,
}

impl Entry {
    /// An entry as two words (all zero: unused), so that a new table is
    /// zeroed memory the system maps only when it is first written.
    fn pack(self) -> [u64; 2] {
        let data = (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.cell as u64) << 32
            | (self.weight as u64) << 40
            | (self.used as u64) << 48;
        [self.key, data]
    }

    fn unpack([key, data]: [u64; 2]) -> Entry {
        Entry {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            cell: (data >> 32) as u8,
            weight: (data >> 40) as u8,
            used: (data >> 48) & 1 != 0,
        }
    }
}

/// Two entries per bucket: the first keeps the larger subtree, the second
/// the newest.
type Bucket = [[u64; 2]; 2];

/// What the line pass of a node found, for move ordering.
struct Lines {
    mine: u64,
    theirs: u64,
    /// Each side's stones counted on every line (see [`State::counts`]).
    my_counts: LineCounts,
    their_counts: LineCounts,
    /// Whether each side's lines count (both, except in a weak game).
    my_lines: bool,
    their_lines: bool,
}

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

/// Stones counted on every line at once, in bit planes over the line
/// indices: bit `i` of plane `b` is bit `b` of line `i`'s count (counts
/// below 8; a line holds at most 8 cells).
type LineCounts = [u64; 3];

/// The lines whose count is `n` (below 8).
#[inline(always)]
fn lines_holding(counts: LineCounts, n: usize) -> u64 {
    let plane = |b: usize| {
        if n >> b & 1 != 0 {
            counts[b]
        } else {
            !counts[b]
        }
    };
    plane(0) & plane(1) & plane(2)
}

/// Counts `stones` on every line (`masks`: the geometry's line-index
/// masks).
fn count_stones(masks: &[u64], mut stones: u64) -> LineCounts {
    let mut counts = [0; 3];
    while stones != 0 {
        count_stone(&mut counts, masks[stones.trailing_zeros() as usize]);
        stones &= stones - 1;
    }
    counts
}

/// Adds one stone, on the lines `through` (a cell's line-index mask).
#[inline(always)]
fn count_stone(counts: &mut LineCounts, through: u64) {
    let carry = counts[0] & through;
    counts[0] ^= through;
    counts[2] |= counts[1] & carry;
    counts[1] ^= carry;
}

pub struct Solver {
    rules: Rules,
    geo: &'static Geometry,
    /// The geometry's win and open-line tables (boards up to 16 cells).
    cell_tables: Option<&'static CellTables>,
    table: Vec<Bucket>,
    mask: usize,
    /// The table starts small and doubles as the search grows, up to this.
    max_buckets: usize,
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
}

impl Solver {
    /// A solver whose table may grow to 1 MiB.
    pub fn new(rules: Rules) -> Solver {
        Solver::with_hash_bytes(rules, DEFAULT_HASH_BYTES)
    }

    /// A solver whose table may grow to about `bytes` (at least 64 KiB). It
    /// starts at 64 KiB and doubles whenever the search has visited several
    /// times more nodes than it holds, so small problems never pay for a
    /// large table.
    pub fn with_hash_bytes(rules: Rules, bytes: usize) -> Solver {
        let max_buckets = power_of_two_at_most((bytes / size_of::<Bucket>()).max(START_BUCKETS));
        let buckets = START_BUCKETS.min(max_buckets);
        Solver {
            rules,
            geo: rules.geometry(),
            cell_tables: rules.geometry().cell_tables(),
            table: vec![[[0u64; 2]; 2]; buckets],
            mask: buckets - 1,
            max_buckets,
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
        }
    }

    /// Doubles the table while the search has outgrown it, keeping every
    /// entry.
    fn grow(&mut self) {
        while self.table.len() < self.max_buckets && self.nodes > 4 * self.table.len() as u64 {
            let buckets = self.table.len() * 2;
            let mut table = vec![[[0u64; 2]; 2]; buckets];
            for slots in &self.table {
                for &slot in slots {
                    let entry = Entry::unpack(slot);
                    if entry.used {
                        let new = &mut table[entry.key as usize & (buckets - 1)];
                        let at = usize::from(Entry::unpack(new[0]).used);
                        new[at] = slot;
                    }
                }
            }
            self.table = table;
            self.mask = buckets - 1;
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
        self.table.len() * size_of::<Bucket>()
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
    pub fn on_progress(&mut self, every: Duration, report: impl FnMut(&Progress) + 'static) {
        self.progress = Some((every, Box::new(report)));
    }

    /// The exact value of `pos` (which must not be over) and a best move:
    /// the fastest win, a move that keeps the draw, or the slowest loss.
    pub fn solve(&mut self, pos: &Position) -> Result<Analysis, Unsettled> {
        self.started = Instant::now();
        self.last_progress = Duration::ZERO;
        self.nodes = 0;
        self.next_poll = POLL_NODES;
        self.stopped = None;
        let mut st = State {
            boards: [pos.small_board(Player::O), pos.small_board(Player::X)],
            side: pos.to_move().index(),
            hashes: [0; 8],
            counts: [[0; 3]; 2],
        };
        if let Some(masks) = &self.geo.line_index_masks {
            st.counts = st.boards.map(|stones| count_stones(masks, stones));
        }
        for s in 0..8 {
            for p in 0..2 {
                let mut rest = st.boards[p];
                while rest != 0 {
                    st.hashes[s] ^= self.geo.sym_zobrist[s][p][rest.trailing_zeros() as usize];
                    rest &= rest - 1;
                }
            }
        }
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
        let value = Value::proven(score, WIN, PROVEN).unwrap_or(Value::Draw);
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

    /// The exact score of the root by the weak games first.
    fn prove(&mut self, st: &mut State) -> i32 {
        // First the game-theoretic value, by two null-window proofs: can the
        // side to move win, and can it hold the draw? Each is tried first in
        // the "weak" game where only the attacker's lines count, which is
        // much smaller and settles most draws: if the attacker cannot win
        // even when the defender only blocks, it cannot win at all.
        let me = st.side;
        self.phase = "weak game";
        let mut score = self.pass(st, Some(me), 0, 1);
        if score > 0 {
            // Won in the weak game: the whole game, for the exact distance
            // of a win (or a score of at most 0 when the defender's own
            // lines save it).
            self.phase = "whole game";
            score = self.pass(st, None, 0, INF);
        }
        if score <= 0 {
            self.phase = "weak game";
            score = self.pass(st, Some(me ^ 1), -1, 0);
            if score < 0 {
                // Lost in the weak game: the whole game, for the exact
                // distance of a loss (or 0: the draw holds).
                self.phase = "whole game";
                score = self.pass(st, None, -INF, 0);
            }
        }
        score
    }

    /// The sort keys of `moves`, the best move's the largest: moves that
    /// make or stop a threat, then open lines through the cell (the fuller
    /// the better: for me to build on, for them to be blocked), then
    /// history. The search sorts by them lazily, as most nodes cut on
    /// their first move.
    fn order(&self, moves: &[u8], me: usize, lines: &Lines, keys: &mut [u32]) {
        match &self.geo.line_index_masks {
            Some(masks) => self.line_planes_keys(masks, moves, me, lines, keys),
            None => self.line_walk_keys(moves, me, lines, keys),
        }
    }

    /// A move's sort key from what `order` found.
    #[inline(always)]
    fn key(&self, me: usize, cell: u8, makes_mine: bool, makes_theirs: bool, shape: u32) -> u32 {
        (u32::from(makes_mine) << 28)
            + (u32::from(makes_theirs) << 27)
            + (shape.min((1 << 12) - 1) << 14)
            + self.history[me][cell as usize].min((1 << 14) - 1)
    }

    /// What `search` needs of the lines, by one walk over them: my wins in
    /// one, their threats, and the cells of the lines still open to me and
    /// to them (not yet masked with the empty cells).
    fn line_facts_by_walk(
        &self,
        mine: u64,
        theirs: u64,
        my_lines: bool,
        their_lines: bool,
    ) -> (u64, u64, u64, u64) {
        let (mut wins, mut threats) = (0u64, 0u64);
        let (mut my_open, mut their_open) = (0u64, 0u64);
        // `rest` has one bit when the line lacks one stone.
        for &line in &self.geo.lines {
            if my_lines && line & theirs == 0 {
                my_open |= line;
                let rest = line & !mine;
                if rest & rest.wrapping_sub(1) == 0 {
                    wins |= rest;
                }
            }
            if their_lines && line & mine == 0 {
                their_open |= line;
                let rest = line & !theirs;
                if rest & rest.wrapping_sub(1) == 0 {
                    threats |= rest;
                }
            }
        }
        (wins, threats, my_open, their_open)
    }

    /// What `search` needs of the lines, from the line counts (boards of
    /// at most 64 lines): my wins in one, their threats, and the cells of
    /// the lines still open to me and to them.
    fn line_facts_from_counts(
        &self,
        masks: &[u64],
        st: &State,
        my_lines: bool,
        their_lines: bool,
        empty: u64,
    ) -> (u64, u64, u64, u64) {
        let (me, opp) = (st.side, st.side ^ 1);
        let (my_open_lines, their_open_lines) = (
            self.open_lines(my_lines, st.counts[opp]),
            self.open_lines(their_lines, st.counts[me]),
        );
        let goal = self.geo.goal as usize;
        let cells_of = |mut lines: u64| {
            let mut cells = 0;
            while lines != 0 {
                cells |= self.geo.lines[lines.trailing_zeros() as usize];
                lines &= lines - 1;
            }
            cells
        };
        let wins = cells_of(my_open_lines & lines_holding(st.counts[me], goal - 1));
        let threats = cells_of(their_open_lines & lines_holding(st.counts[opp], goal - 1));
        let (mut my_open, mut their_open) = (0u64, 0u64);
        let mut rest = empty;
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            let through = masks[cell as usize];
            my_open |= u64::from(through & my_open_lines != 0) << cell;
            their_open |= u64::from(through & their_open_lines != 0) << cell;
        }
        (wins, threats, my_open, their_open)
    }

    /// The lines open to a side (when its lines count): those the other
    /// side, counted in `other`, has no stone on.
    #[inline]
    fn open_lines(&self, counts: bool, other: LineCounts) -> u64 {
        let all = u64::MAX >> (64 - self.geo.lines.len());
        if counts {
            all & !(other[0] | other[1] | other[2])
        } else {
            0
        }
    }

    /// `order`'s keys on boards of at most 64 lines, with no walk over the
    /// lines: from each side's stones counted on every line (kept up by the
    /// moves), a move's shape is a few popcounts of the lines through it.
    fn line_planes_keys(
        &self,
        masks: &[u64],
        moves: &[u8],
        me: usize,
        lines: &Lines,
        keys: &mut [u32],
    ) {
        let (mine, theirs) = (lines.my_counts, lines.their_counts);
        let (my_open, their_open) = (
            self.open_lines(lines.my_lines, theirs),
            self.open_lines(lines.their_lines, mine),
        );
        // The open lines holding `s` stones of a side, for s < goal.
        let goal = self.geo.goal as usize;
        let with = |open: u64, counts: LineCounts| {
            let mut by_count = [0u64; 8];
            for (s, lines) in by_count.iter_mut().enumerate().take(goal) {
                *lines = open & lines_holding(counts, s);
            }
            by_count
        };
        let (my_by_count, their_by_count) = (with(my_open, mine), with(their_open, theirs));
        for (key, &cell) in keys.iter_mut().zip(moves) {
            let through = masks[cell as usize];
            let mut shape = 0;
            for s in 0..goal {
                shape += ((through & my_by_count[s]).count_ones()
                    + (through & their_by_count[s]).count_ones())
                    << (2 * s);
            }
            *key = self.key(
                me,
                cell,
                through & my_by_count[goal - 2] != 0,
                through & their_by_count[goal - 2] != 0,
                shape,
            );
        }
    }

    /// `order`'s keys on boards of more than 64 lines: each open line adds
    /// its weight to its empty cells, in one walk over the lines.
    fn line_walk_keys(&self, moves: &[u8], me: usize, lines: &Lines, keys: &mut [u32]) {
        // It also finds the cells that would make a threat (on an open
        // line two stones short).
        let mut shape = [0u32; 64];
        let (mut my_makers, mut their_makers) = (0u64, 0u64);
        let empty = self.geo.full & !(lines.mine | lines.theirs);
        for &line in &self.geo.lines {
            let mut weight = 0;
            if lines.my_lines && line & lines.theirs == 0 {
                weight += 1 << (2 * (line & lines.mine).count_ones());
                let rest = line & !lines.mine;
                if rest.count_ones() == 2 {
                    my_makers |= rest;
                }
            }
            if lines.their_lines && line & lines.mine == 0 {
                weight += 1 << (2 * (line & lines.theirs).count_ones());
                let rest = line & !lines.theirs;
                if rest.count_ones() == 2 {
                    their_makers |= rest;
                }
            }
            if weight != 0 {
                let mut cells = line & empty;
                while cells != 0 {
                    shape[cells.trailing_zeros() as usize] += weight;
                    cells &= cells - 1;
                }
            }
        }
        for (key, &cell) in keys.iter_mut().zip(moves) {
            let bit = 1u64 << cell;
            *key = self.key(
                me,
                cell,
                my_makers & bit != 0,
                their_makers & bit != 0,
                shape[cell as usize],
            );
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

    /// The clock, the stop flag and the progress line: every few thousand
    /// nodes.
    #[cold]
    fn poll(&mut self) {
        if self.nodes >= self.node_limit {
            self.probe_spent = true;
            return;
        }
        self.next_poll = (self.nodes + POLL_NODES).min(self.node_limit);
        self.grow();
        if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.stopped = Some(Unsettled::Interrupted);
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some(Unsettled::Timeout);
        }
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
            });
        }
    }

    fn search(&mut self, st: &mut State, ply: i32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        if self.halted() {
            return 0;
        }
        let geo = self.geo;
        let (me, opp) = (st.side, st.side ^ 1);
        let (mine, theirs) = (st.boards[me], st.boards[opp]);
        let empty = geo.full & !(mine | theirs);
        if empty == 0 {
            return 0;
        }
        let (my_lines, their_lines) = match self.weak {
            None => (true, true),
            Some(attacker) => (attacker == me, attacker == opp),
        };
        // Wins in one, threats and the cells of open lines: from two
        // table rows on boards of up to 16 cells, else from the line counts
        // or one walk over the lines.
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
            None => match &geo.line_index_masks {
                Some(masks) => self.line_facts_from_counts(masks, st, my_lines, their_lines, empty),
                None => self.line_facts_by_walk(mine, theirs, my_lines, their_lines),
            },
        };
        let (wins, threats) = (wins & empty, threats & empty);
        if wins != 0 {
            if ply == 0 {
                self.root_best = Some(wins.trailing_zeros() as u8);
            }
            return WIN - (ply + 1);
        }
        if threats.count_ones() >= 2 {
            if ply == 0 {
                self.root_best = Some(threats.trailing_zeros() as u8);
            }
            return -(WIN - (ply + 2));
        }
        let (my_open, their_open) = (my_open & empty, their_open & empty);
        // A side with no open line cannot win any more.
        if my_open == 0 {
            beta = beta.min(0);
        }
        if their_open == 0 {
            alpha = alpha.max(0);
        }
        // Mate distance: no win before ply + 3, no loss before ply + 2.
        alpha = alpha.max(-(WIN - (ply + 2)));
        beta = beta.min(WIN - (ply + 3));
        if alpha >= beta {
            if ply == 0 {
                self.root_best = Some((my_open | their_open | empty).trailing_zeros() as u8);
            }
            return alpha;
        }

        let (key, sym) = st
            .hashes
            .iter()
            .enumerate()
            .map(|(s, &h)| (h, s))
            .min()
            .unwrap_or((0, 0));
        // The weak games are other games: their entries must not meet.
        let key = key ^ self.weak.map_or(0, |a| WEAK_KEYS[a]);
        let bucket = (key as usize) & self.mask;
        let mut tt_move = None;
        for entry in self.table[bucket].map(Entry::unpack) {
            if !entry.used || entry.key != key {
                continue;
            }
            if entry.cell != u8::MAX {
                let cell = geo.sym_inv[sym][entry.cell as usize];
                if empty & (1u64 << cell) != 0 {
                    tt_move = Some(cell);
                }
            }
            if ply > 0 {
                let lower = from_tt(entry.lower as i32, ply);
                let upper = from_tt(entry.upper as i32, ply);
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
                if alpha >= beta {
                    return alpha;
                }
            }
            break;
        }

        // One threat forces the block; otherwise every live cell.
        let candidates = if threats != 0 {
            threats
        } else {
            my_open | their_open
        };
        // The table's move goes first; the others are ordered only if it
        // does not cut (staged, as most nodes cut on their first move).
        let mut moves = [0u8; 64];
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
        let lines = Lines {
            mine,
            theirs,
            my_counts: st.counts[me],
            their_counts: st.counts[opp],
            my_lines,
            their_lines,
        };
        // `keys[i]`: the sort key of `moves[i]`, once `sorted_from` is set.
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
        let weight = empty.count_ones() as u8;
        let entry = Entry {
            key,
            lower: to_tt(lower, ply) as i16,
            upper: to_tt(upper, ply) as i16,
            cell: geo.sym[sym][best_move as usize],
            weight,
            used: true,
        };
        let slots = &mut self.table[bucket];
        let first = Entry::unpack(slots[0]);
        if first.key == key || !first.used || weight >= first.weight {
            if first.key != key && first.used {
                // The larger subtree it replaces is still worth keeping.
                slots[1] = slots[0];
            }
            slots[0] = entry.pack();
        } else {
            slots[1] = entry.pack();
        }
        best
    }
}

/// The index of the largest key, the first of equals.
#[inline]
fn best_key_index(keys: &[u32]) -> usize {
    let mut best = 0;
    for (i, &key) in keys.iter().enumerate().skip(1) {
        if key > keys[best] {
            best = i;
        }
    }
    best
}

fn power_of_two_at_most(n: usize) -> usize {
    1usize << (usize::BITS - 1 - n.max(1).leading_zeros())
}

/// Win and loss scores are stored relative to the node, so they stay right
/// when the same position is reached at another ply.
fn to_tt(score: i32, ply: i32) -> i32 {
    if (PROVEN..INF).contains(&score) {
        score + ply
    } else if (-INF + 1..=-PROVEN).contains(&score) {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if (PROVEN..INF).contains(&score) {
        score - ply
    } else if (-INF + 1..=-PROVEN).contains(&score) {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve_empty(size: u8, goal: u8) -> Analysis {
        let rules = Rules::new(size, goal).unwrap();
        Solver::new(rules).solve(&Position::new(rules)).unwrap()
    }

    /// Random positions (two disjoint stone sets, some with whole lines)
    /// on every board whose solver counts stones per line, in a state with
    /// those counts, for both sides to move and every weak game.
    fn counted_positions(mut check: impl FnMut(&Solver, &State, bool, bool)) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        let mut boards_seen = 0;
        for (size, goal) in [(4, 3), (5, 4), (6, 4), (7, 5), (8, 8)] {
            let rules = Rules::new(size, goal).unwrap();
            let solver = Solver::new(rules);
            let geo = solver.geo;
            let Some(masks) = &geo.line_index_masks else {
                continue;
            };
            boards_seen += 1;
            for _ in 0..2000 {
                let (a, b) = (rng.random::<u64>(), rng.random::<u64>());
                let density = rng.random_range(0..4);
                let taken = (0..density).fold(geo.full, |m, _| m & rng.random::<u64>());
                let boards = [a & taken, !a & b & taken];
                let counts = boards.map(|stones| count_stones(masks, stones));
                for side in 0..2 {
                    let st = State {
                        boards,
                        side,
                        hashes: [0; 8],
                        counts,
                    };
                    for (my_lines, their_lines) in [(true, true), (true, false), (false, true)] {
                        check(&solver, &st, my_lines, their_lines);
                    }
                }
            }
        }
        assert_eq!(
            boards_seen, 4,
            "boards with more lines than cells, up to 64"
        );
    }

    #[test]
    fn line_counts_match_a_count_on_each_line() {
        counted_positions(|solver, st, _, _| {
            for (index, &line) in solver.geo.lines.iter().enumerate() {
                for p in 0..2 {
                    let stones = (line & st.boards[p]).count_ones() as usize;
                    let holding = |n| lines_holding(st.counts[p], n) >> index & 1 != 0;
                    assert!(holding(stones.min(7)), "{stones} stones on line {index}");
                    assert!(!holding(stones + 1));
                }
            }
        });
    }

    #[test]
    fn line_facts_from_counts_match_the_walk_over_the_lines() {
        counted_positions(|solver, st, my_lines, their_lines| {
            let (me, opp) = (st.side, st.side ^ 1);
            let empty = solver.geo.full & !(st.boards[0] | st.boards[1]);
            let masked =
                |(w, t, m, o): (u64, u64, u64, u64)| (w & empty, t & empty, m & empty, o & empty);
            let walked =
                solver.line_facts_by_walk(st.boards[me], st.boards[opp], my_lines, their_lines);
            let masks = solver.geo.line_index_masks.as_deref().unwrap_or_default();
            let counted = solver.line_facts_from_counts(masks, st, my_lines, their_lines, empty);
            assert_eq!(masked(counted), masked(walked), "{:?}", st.boards);
        });
    }

    #[test]
    fn move_keys_from_counts_match_the_walk_over_the_lines() {
        counted_positions(|solver, st, my_lines, their_lines| {
            let (me, opp) = (st.side, st.side ^ 1);
            let empty = solver.geo.full & !(st.boards[0] | st.boards[1]);
            let moves: Vec<u8> = (0..solver.geo.cells)
                .filter(|&c| empty >> c & 1 != 0)
                .collect();
            let lines = Lines {
                mine: st.boards[me],
                theirs: st.boards[opp],
                my_counts: st.counts[me],
                their_counts: st.counts[opp],
                my_lines,
                their_lines,
            };
            let (mut walked, mut counted) = ([0u32; 64], [0u32; 64]);
            solver.line_walk_keys(&moves, me, &lines, &mut walked);
            let masks = solver.geo.line_index_masks.as_deref().unwrap_or_default();
            solver.line_planes_keys(masks, &moves, me, &lines, &mut counted);
            assert_eq!(counted, walked, "{:?}", st.boards);
        });
    }

    #[test]
    fn the_first_of_the_largest_keys_is_picked() {
        assert_eq!(best_key_index(&[3, 9, 2, 9, 1]), 1);
        assert_eq!(best_key_index(&[7]), 0);
        assert_eq!(best_key_index(&[1, 2, 3]), 2);
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
