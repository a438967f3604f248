//! The board the big-board engines search: stones as [`Bits`], kept
//! together with what the engines ask of every position, updated one move
//! at a time:
//! - `wins[p]`: the empty cells where `p` would complete K in a row. A move
//!   wins exactly when it lands on one, so no line is ever walked to detect
//!   a win, and threats (win in one, forced blocks, double threats) are set
//!   lookups.
//! - `fours[p][c]`: in how many windows the empty cell `c` is one of two
//!   empty cells beside K - 2 stones of `p` (and none of the other side):
//!   a stone of `p` there makes a win cell in each (a four). Two windows
//!   can make the same win cell (`X.XX.X`), so a double threat is checked
//!   by playing the move ([`BigBoard::double_four`]).
//! - `threes[p][c]`: the same for windows of K - 3 stones and three empty
//!   cells (K of 4 or more): a stone there makes a window of K - 2, the
//!   cells a three can come from.
//! - `near`: the empty cells within two of a stone, the candidate moves.
//! - `score`: the evaluation, per side the sum over every window of what
//!   it is worth to that side when it has just moved: by default a line
//!   count over the windows of K cells holding stones of one side only,
//!   or learned weights by the window's pattern.
//! - `lines`: the stones again, one bitboard per line of each direction,
//!   so that the 2K - 1 cells through a cell along a line are two shifts
//!   away. They feed the updates above and the shapes (`super::shape`)
//!   that order the moves.
//!
//! Every quantity depends only on which cells hold which stones, so a move
//! changes it only in the K-cell windows through that move: each update
//! looks at the 4 x (2K - 1) cells around it.
//!
//! Under the standard rule (exactly K wins) a window counts for a side
//! only while neither cell beside it holds that side's stone, since a
//! stone there would make its line an overline; so a move also closes its
//! own side's windows that end next to it, and each update looks at the
//! 4 x (2K + 3) cells around it. The evaluation still reads the windows
//! alone.

use super::shape::{Shape, threat_value};
use super::tables::{MAX_LINES, Tables};
use crate::game::{Bits, MAX_GOAL, MAX_SIZE, Outcome, Player, Position};

/// Cells of the largest board.
const MAX_CELLS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Adds `by` to `counts` at each of `empties` (cells of `seg`), keeping
/// `cells` the set where a count is not zero.
fn adjust(counts: &mut [u8; MAX_CELLS], cells: &mut Bits, seg: &Segment, empties: u32, by: i8) {
    let mut e = empties;
    while e != 0 {
        let c = seg.cell(e.trailing_zeros());
        e &= e - 1;
        let n = counts[c].wrapping_add_signed(by);
        counts[c] = n;
        if n == 0 {
            cells.remove(c);
        } else {
            cells.insert(c);
        }
    }
}

/// The cells a segment reads beyond the 2K - 1 of the windows through its
/// centre, each way: under the standard rule two (the cell beside a window
/// of its own, and beside the windows that end next to it), else none.
#[inline(always)]
const fn beyond<const EXACT: bool>() -> u32 {
    if EXACT { 2 } else { 0 }
}

/// One line of cells centred on a cell, as bit masks: the 2K - 1 cells of
/// the K-cell windows through the centre (bit `K - 1`), or under the
/// standard rule 2K + 3 (bit `K + 1`), with the cells beside the windows.
struct Segment {
    stones: [u32; 2],
    on_board: u32,
    /// The centre's board index, and the index step along the segment.
    centre: i32,
    step: i32,
    half: i32,
}

impl Segment {
    /// Under the standard rule, the cells each side of the window `w` (a
    /// stone of the window's side there closes it); else none.
    #[inline(always)]
    fn beside<const EXACT: bool>(w: u32) -> u32 {
        if EXACT { (w >> 1 | w << 1) & !w } else { 0 }
    }

    /// The board index of bit `i` (on the board).
    #[inline]
    fn cell(&self, i: u32) -> usize {
        (self.centre + (i as i32 - self.half) * self.step) as usize
    }
}

#[derive(Clone, Copy, Debug)]
pub struct BigBoard {
    stones: [Bits; 2],
    /// The stones again, by line: `lines[side][d][line]` has bit
    /// `place + K + 1` set for each stone (see [`Tables`]'s `on_line`).
    lines: [[[u32; MAX_LINES]; 4]; 2],
    wins: [Bits; 2],
    /// Per side and cell: the win cells a stone there would make.
    fours: [[u8; MAX_CELLS]; 2],
    /// The cells where `fours` is not zero.
    four_cells: [Bits; 2],
    /// Per side and cell: the windows of K - 2 a stone there would make.
    threes: [[u8; MAX_CELLS]; 2],
    /// The cells where `threes` is not zero.
    three_cells: [Bits; 2],
    near: Bits,
    /// Per side: what the windows are worth to it when it has just moved.
    score: [i32; 2],
    /// The Zobrist key of the stones (the side to move is added by
    /// [`BigBoard::key`]).
    hash: u64,
    moves: u16,
    to_move: Player,
    outcome: Outcome,
}

impl BigBoard {
    pub fn empty() -> BigBoard {
        BigBoard {
            stones: [Bits::EMPTY; 2],
            lines: [[[0; MAX_LINES]; 4]; 2],
            wins: [Bits::EMPTY; 2],
            fours: [[0; MAX_CELLS]; 2],
            four_cells: [Bits::EMPTY; 2],
            threes: [[0; MAX_CELLS]; 2],
            three_cells: [Bits::EMPTY; 2],
            near: Bits::EMPTY,
            score: [0; 2],
            hash: 0,
            moves: 0,
            to_move: Player::O,
            outcome: Outcome::Ongoing,
        }
    }

    /// The board of a game position.
    pub fn from_position(t: &Tables, pos: &Position) -> BigBoard {
        let mut b = BigBoard::empty();
        for p in [Player::O, Player::X] {
            for cell in pos.board(p).iter() {
                b.place(t, p, cell);
            }
        }
        b.to_move = pos.to_move();
        b.outcome = pos.outcome();
        b
    }

    // By reference: the board is some kilobytes, copied by value it would
    // cost more than the answer.
    #[allow(clippy::wrong_self_convention)]
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    pub fn stones(&self, p: Player) -> Bits {
        self.stones[p.index()]
    }
    /// The empty cells where `p` would complete a line.
    pub fn wins(&self, p: Player) -> Bits {
        self.wins[p.index()]
    }
    /// The empty cells where a stone of `p` makes a new win cell (a four).
    pub fn four_cells(&self, p: Player) -> Bits {
        self.four_cells[p.index()]
    }
    /// The empty cells where a stone of `p` makes a window of K - 2 (one
    /// step from a four): where its threes can be made.
    pub fn three_cells(&self, p: Player) -> Bits {
        self.three_cells[p.index()]
    }
    /// The empty cells where a stone makes or stops a four or a three,
    /// for either side: where the fight is.
    pub fn threat_cells(&self) -> Bits {
        self.three_cells[0] | self.three_cells[1] | self.four_cells[0] | self.four_cells[1]
    }
    /// How many windows of K - 2 a stone of `p` on `cell` makes.
    pub fn threes_at(&self, p: Player, cell: usize) -> u8 {
        self.threes[p.index()][cell]
    }
    /// How many new win cells a stone of `p` on `cell` makes.
    pub fn fours_at(&self, p: Player, cell: usize) -> u8 {
        self.fours[p.index()][cell]
    }
    /// A cell where a stone of `p` leaves two win cells or more (an open
    /// four, or two fours), which one block cannot stop; if any.
    /// (`p` has no win cell yet: each of its win cells is then new.)
    pub fn double_four(&self, t: &Tables, p: Player) -> Option<usize> {
        self.four_cells[p.index()]
            .iter()
            .filter(|&c| self.fours[p.index()][c] >= 2)
            .find(|&c| self.new_win_cells(t, p, c) >= 2)
    }

    /// The side to move's winning double four, if any: when neither side
    /// has a win cell, a move that leaves two win cells is won in 3,
    /// whatever fours the other side can make (it blocks one, or makes a
    /// four of its own, and the mover completes its line first). The one
    /// statement of the rule that the threat search, Negamax and MCTS
    /// take a double four by.
    pub fn winning_double_four(&self, t: &Tables) -> Option<usize> {
        let me = self.to_move;
        if !self.wins[0].is_empty() || !self.wins[1].is_empty() {
            return None;
        }
        self.double_four(t, me)
    }

    /// Whether `p` has a double four once the side to move plays `cell`:
    /// played on a copy that keeps only what the test reads, the fours
    /// ([`BigBoard::play_for_fours`]).
    pub fn double_four_after(&self, t: &Tables, cell: usize, p: Player) -> bool {
        let mut next = *self;
        next.play_for_fours(t, cell);
        next.double_four(t, p).is_some()
    }

    /// How many different win cells a stone of `p` on the empty `cell`
    /// makes: the other empty cell of each window of K - 2 through it (the
    /// windows are read, the board is not copied).
    fn new_win_cells(&self, t: &Tables, p: Player, cell: usize) -> usize {
        match t.exact {
            true => self.new_win_cells_under::<true>(t, p, cell),
            false => self.new_win_cells_under::<false>(t, p, cell),
        }
    }

    fn new_win_cells_under<const EXACT: bool>(&self, t: &Tables, p: Player, cell: usize) -> usize {
        let k = t.goal as u32;
        let me = p.index();
        let mut made = [u16::MAX; 4 * MAX_GOAL as usize];
        let mut count = 0;
        let centre = 1u32 << (k - 1 + beyond::<EXACT>());
        self.for_each_window::<EXACT>(t, cell, p, |seg, w, mine, theirs| {
            if theirs == 0 && mine + 2 == k {
                let gap = w & !seg.stones[me] & !centre;
                let win = seg.cell(gap.trailing_zeros()) as u16;
                if !made[..count].contains(&win) {
                    made[count] = win;
                    count += 1;
                }
            }
        });
        count
    }

    /// Whether a stone of `p` on the empty `cell` can leave a double four
    /// to make: it must raise windows to K - 2 stones so that one of their
    /// empty cells lies in two such windows. A test read from the windows
    /// before the move is played (playing it decides); it never says no
    /// to a move that makes one, unless `p` has a double four already.
    pub fn may_make_double_four(&self, t: &Tables, p: Player, cell: usize) -> bool {
        match t.exact {
            true => self.may_make_double_four_under::<true>(t, p, cell),
            false => self.may_make_double_four_under::<false>(t, p, cell),
        }
    }

    fn may_make_double_four_under<const EXACT: bool>(
        &self,
        t: &Tables,
        p: Player,
        cell: usize,
    ) -> bool {
        let k = t.goal as u32;
        let me = p.index();
        let centre = 1u32 << (k - 1 + beyond::<EXACT>());
        // The empty cells of the windows raised, with how many each is in.
        let mut raised = [(0usize, 0u8); 8 * MAX_GOAL as usize];
        let mut count = 0;
        let mut found = false;
        self.for_each_window::<EXACT>(t, cell, p, |seg, w, mine, theirs| {
            if found || theirs != 0 || mine + 3 != k {
                return;
            }
            let mut empties = w & !seg.stones[me] & !centre;
            while empties != 0 {
                let e = seg.cell(empties.trailing_zeros());
                empties &= empties - 1;
                let times = match raised[..count].iter_mut().find(|(c, _)| *c == e) {
                    Some(entry) => {
                        entry.1 += 1;
                        entry.1
                    }
                    None => {
                        raised[count] = (e, 1);
                        count += 1;
                        1
                    }
                };
                found |= self.fours[me][e] + times >= 2;
            }
        });
        found
    }

    /// The empty cells within two of a stone (none on an empty board).
    pub fn near(&self) -> Bits {
        self.near
    }
    pub fn empty_cells(&self, t: &Tables) -> Bits {
        t.full.and_not(self.stones[0] | self.stones[1])
    }
    pub fn moves(&self) -> u16 {
        self.moves
    }
    /// The evaluation from the side to move's point of view: less what
    /// the position is worth to the side that just moved.
    pub fn eval(&self) -> i32 {
        -self.score[self.to_move.other().index()]
    }

    /// Where to look for moves: the cells near the stones, or the centre
    /// of an empty board.
    pub fn candidates(&self, t: &Tables) -> Bits {
        if self.moves == 0 {
            let mid = (t.size / 2) as usize;
            Bits::EMPTY.with(mid * t.size as usize + mid)
        } else if self.near.is_empty() {
            self.empty_cells(t)
        } else {
            self.near
        }
    }

    /// Plays `cell` (empty, the game not over) for the side to move.
    #[inline]
    pub fn play(&mut self, t: &Tables, cell: usize) {
        self.play_keeping::<true>(t, cell);
    }

    /// [`BigBoard::play`] keeping only the stones, win cells and fours up
    /// to date: the threes and the score go stale. For the search by
    /// fours, which reads nothing else, through its own board type.
    #[inline]
    pub(super) fn play_for_fours(&mut self, t: &Tables, cell: usize) {
        self.play_keeping::<false>(t, cell);
    }

    #[inline]
    fn play_keeping<const ALL: bool>(&mut self, t: &Tables, cell: usize) {
        let me = self.to_move;
        let won = self.wins[me.index()].contains(cell);
        match t.exact {
            true => self.place_under::<true, ALL>(t, me, cell),
            false => self.place_under::<false, ALL>(t, me, cell),
        }
        self.to_move = me.other();
        self.outcome = if won {
            Outcome::Win(me)
        } else if self.moves as usize == t.cells {
            Outcome::Draw
        } else {
            Outcome::Ongoing
        };
    }

    /// Puts a stone of `p` on `cell` and updates the win cells, the
    /// candidates and the score from the windows through it.
    #[inline]
    fn place(&mut self, t: &Tables, p: Player, cell: usize) {
        match t.exact {
            true => self.place_under::<true, true>(t, p, cell),
            false => self.place_under::<false, true>(t, p, cell),
        }
    }

    /// [`BigBoard::place`] under the standard rule (`EXACT`) or free-style:
    /// one copy each, so that free-style reads no more cells than it needs.
    /// Without `ALL`, the threes and the score are left as they were.
    fn place_under<const EXACT: bool, const ALL: bool>(
        &mut self,
        t: &Tables,
        p: Player,
        cell: usize,
    ) {
        let k = t.goal as u32;
        let pad = beyond::<EXACT>();
        let (me, opp) = (p.index(), p.other().index());
        let mut score = self.score;
        let mut wins = self.wins[me];
        // Win cells of ours whose window this stone closed (standard rule).
        let mut closed = Bits::EMPTY;
        // Threes need K - 3 >= 1 stones.
        let threes = ALL && k >= 4;
        let centre = 1u32 << (k - 1 + pad);
        let window = (1u32 << k) - 1;
        // The segments are read first, so the counts can change in place.
        let segments = [0, 1, 2, 3].map(|d| self.segment::<EXACT>(t, cell, d));
        for seg in &segments {
            for start in pad..k + pad {
                let w = window << start;
                if seg.on_board & w != w {
                    continue;
                }
                let beside = Segment::beside::<EXACT>(w);
                let mine = (seg.stones[me] & w).count_ones();
                let theirs = (seg.stones[opp] & w).count_ones();
                let empties = w & !seg.stones[0] & !seg.stones[1];
                if theirs == 0 && seg.stones[me] & beside == 0 {
                    if threes && mine + 4 == k {
                        // K - 3 of ours with this stone.
                        self.count_three(me, seg, empties & !centre, 1);
                    } else if mine + 3 == k {
                        // K - 2 of ours with this stone: its two other
                        // cells now each make a four; no longer K - 3.
                        if threes {
                            self.count_three(me, seg, empties, -1);
                        }
                        self.count_four(me, seg, empties & !centre, 1);
                    } else if mine + 2 == k {
                        // It was a window of K - 2 whose two cells made fours.
                        self.count_four(me, seg, empties, -1);
                        // K - 1 of ours once this stone is down: the one
                        // empty cell left completes the line.
                        let gap = w & !seg.stones[me] & !centre;
                        wins.insert(seg.cell(gap.trailing_zeros()));
                    }
                }
                if mine == 0 && seg.stones[opp] & beside == 0 {
                    // The other side's window is blocked.
                    if theirs + 2 == k {
                        self.count_four(opp, seg, empties, -1);
                    } else if threes && theirs + 3 == k {
                        self.count_three(opp, seg, empties, -1);
                    }
                }
                if !ALL {
                    continue;
                }
                let (o, x) = ((seg.stones[0] & w) >> start, (seg.stones[1] & w) >> start);
                let before = t.patterns.of(o, x);
                let added = t.patterns.digit(centre >> start) * (1 + me);
                let (was, is) = (t.window_values[before], t.window_values[before + added]);
                score[0] += is[0] - was[0];
                score[1] += is[1] - was[1];
            }
            if EXACT {
                self.close_windows_beside(seg, (me, opp), k, threes, &mut closed);
            }
        }
        self.score = score;
        self.wins[me] = wins;
        self.stones[me].insert(cell);
        for (d, &(line, place)) in t.line_at[cell].iter().enumerate() {
            self.lines[me][d][line as usize] |= 1 << (place as u32 + k + 1);
        }
        self.wins[0].remove(cell);
        self.wins[1].remove(cell);
        // A closed window's win cell may still win along another line.
        for gap in closed.iter().filter(|_| EXACT) {
            if !self.completes_exactly(t, p, gap) {
                self.wins[me].remove(gap);
            }
        }
        self.near = (self.near | t.near[cell]).and_not(self.stones[0] | self.stones[1]);
        self.hash ^= t.zobrist[cell][me];
        self.moves += 1;
    }

    /// Standard rule: a stone of `me` at the centre of `seg` turns the
    /// windows of its side that end beside it into overlines. Their counts
    /// go; their win cells are put in `closed`, to be checked.
    fn close_windows_beside(
        &mut self,
        seg: &Segment,
        (me, opp): (usize, usize),
        k: u32,
        threes: bool,
        closed: &mut Bits,
    ) {
        let window = (1u32 << k) - 1;
        // The window ending just before the centre and the one starting
        // just after it, each with its cell on the far side.
        for (w, far) in [(window << 1, 1u32), (window << (k + 2), 1 << (2 * k + 2))] {
            if seg.on_board & w != w || seg.stones[opp] & w != 0 || seg.stones[me] & far != 0 {
                continue;
            }
            let mine = (seg.stones[me] & w).count_ones();
            let empties = w & !seg.stones[me];
            if mine + 1 == k {
                closed.insert(seg.cell(empties.trailing_zeros()));
            } else if mine + 2 == k {
                self.count_four(me, seg, empties, -1);
            } else if threes && mine + 3 == k {
                self.count_three(me, seg, empties, -1);
            }
        }
    }

    /// Whether a stone of `p` on the empty `cell` makes a line of exactly
    /// K in some direction.
    fn completes_exactly(&self, t: &Tables, p: Player, cell: usize) -> bool {
        let k = t.goal as u32;
        (0..4).any(|d| {
            let seg = self.segment::<true>(t, cell, d);
            let mine = seg.stones[p.index()] | 1 << (k + 1);
            // The run from the centre up, and the one below it.
            let up = (mine >> (k + 1)).trailing_ones();
            let down = (mine << (31 - k)).leading_ones();
            up + down == k
        })
    }

    /// A key for the position: its stones and the side to move.
    pub fn key(&self) -> u64 {
        Self::key_of(self.hash, self.to_move)
    }

    /// The key the position would have after the side to move plays the
    /// empty `cell`, read without playing it.
    pub fn key_after(&self, t: &Tables, cell: usize) -> u64 {
        let me = self.to_move;
        Self::key_of(self.hash ^ t.zobrist[cell][me.index()], me.other())
    }

    fn key_of(hash: u64, to_move: Player) -> u64 {
        match to_move {
            Player::O => hash,
            Player::X => !hash,
        }
    }

    /// Adds `by` to the four count of `side` at each of `empties` (cells
    /// of `seg`).
    fn count_four(&mut self, side: usize, seg: &Segment, empties: u32, by: i8) {
        adjust(
            &mut self.fours[side],
            &mut self.four_cells[side],
            seg,
            empties,
            by,
        );
    }

    /// The same for the counts of windows of K - 3.
    fn count_three(&mut self, side: usize, seg: &Segment, empties: u32, by: i8) {
        adjust(
            &mut self.threes[side],
            &mut self.three_cells[side],
            seg,
            empties,
            by,
        );
    }

    /// The cells through `cell` along direction `d`: shifts of the line
    /// bitboards. The 2K - 1 of the windows through it; with `EXACT` (the
    /// standard rule) also the two beyond each end, 2K + 3 in all.
    #[inline]
    fn segment<const EXACT: bool>(&self, t: &Tables, cell: usize, d: usize) -> Segment {
        let pad = beyond::<EXACT>();
        let half = t.goal as u32 - 1 + pad;
        let mask = (1u32 << (2 * half + 1)) - 1;
        let (line, place) = t.line_at[cell][d];
        // Stones sit at bit `place + K + 1`: the segment's first cell,
        // K - 1 + pad before `cell`, comes down to bit 0.
        let (line, shift) = (line as usize, place as u32 + 2 - pad);
        Segment {
            stones: [
                (self.lines[0][d][line] >> shift) & mask,
                (self.lines[1][d][line] >> shift) & mask,
            ],
            on_board: (t.on_line[d][line] >> shift) & mask,
            centre: cell as i32,
            step: t.step[d],
            half: half as i32,
        }
    }

    /// The shapes a stone of each side on the empty `cell` would make in
    /// the four directions (`[side][direction]`), and the sum of what it
    /// would add to the windows of each side that it does not share.
    #[inline]
    pub fn shapes_at(&self, t: &Tables, cell: usize) -> ([[Shape; 4]; 2], i32) {
        let mut windows = 0;
        let per_direction = [0, 1, 2, 3].map(|d| {
            let seg = self.segment::<false>(t, cell, d);
            let off = !seg.on_board;
            let (o, x) = (seg.stones[0], seg.stones[1]);
            let (o_shape, o_value) = t.shapes.entry(o, x | off);
            let (x_shape, x_value) = t.shapes.entry(x, o | off);
            windows += o_value + x_value;
            (o_shape, x_shape)
        });
        let shapes = [per_direction.map(|s| s.0), per_direction.map(|s| s.1)];
        (shapes, windows)
    }

    /// How promising a stone on `cell` is for the side to move: what its
    /// windows gain and deny (the line-count evaluation's change), and
    /// the threats it makes or takes away (its shapes, both sides').
    pub fn move_value(&self, t: &Tables, cell: usize) -> i32 {
        let (shapes, windows) = self.shapes_at(t, cell);
        let me = self.to_move.index();
        windows + threat_value(shapes[me]) + threat_value(shapes[me ^ 1]) * 4 / 5
    }

    /// Calls `f(segment, window, mine, theirs)` for every window of K cells
    /// on the board through `cell` that can still win for `p` (under the
    /// standard rule, none beside a stone of `p`), in the 4 directions: the
    /// window as a mask of its segment, and the stones of `p` and of the
    /// other side in it (the ones on `cell` itself not counted: it is
    /// empty).
    #[inline]
    fn for_each_window<const EXACT: bool>(
        &self,
        t: &Tables,
        cell: usize,
        p: Player,
        mut f: impl FnMut(&Segment, u32, u32, u32),
    ) {
        let k = t.goal as u32;
        let window = (1u32 << k) - 1;
        let (me, opp) = (p.index(), p.other().index());
        let pad = beyond::<EXACT>();
        for d in 0..4 {
            let seg = self.segment::<EXACT>(t, cell, d);
            for start in pad..k + pad {
                let w = window << start;
                if seg.on_board & w == w && seg.stones[me] & Segment::beside::<EXACT>(w) == 0 {
                    let mine = (seg.stones[me] & w).count_ones();
                    let theirs = (seg.stones[opp] & w).count_ones();
                    f(&seg, w, mine, theirs);
                }
            }
        }
    }

    /// Calls `f(o, x, bit)` for every window of K cells through the empty
    /// `cell`: the stones of O and of X in it and the cell's own bit, as
    /// K-bit masks read along the window.
    #[inline]
    pub fn for_each_window_through(
        &self,
        t: &Tables,
        cell: usize,
        mut f: impl FnMut(u32, u32, u32),
    ) {
        let k = t.goal as u32;
        let (window, centre) = ((1u32 << k) - 1, 1u32 << (k - 1));
        for d in 0..4 {
            let seg = self.segment::<false>(t, cell, d);
            for start in 0..k {
                let w = window << start;
                if seg.on_board & w == w {
                    let (o, x) = (seg.stones[0] & w, seg.stones[1] & w);
                    f(o >> start, x >> start, centre >> start);
                }
            }
        }
    }

    /// Calls `f(o, x)` for every window of K cells on the board that holds
    /// a stone: the stones of O and of X in it, as K-bit masks.
    pub fn for_each_board_window(&self, t: &Tables, mut f: impl FnMut(u32, u32)) {
        let k = t.goal as u32;
        let window = (1u32 << k) - 1;
        for d in 0..4 {
            for (line, &on) in t.on_line[d].iter().enumerate() {
                let (o, x) = (self.lines[0][d][line], self.lines[1][d][line]);
                if o | x == 0 {
                    continue;
                }
                let mut starts = on;
                while starts != 0 {
                    let start = starts.trailing_zeros();
                    starts &= starts - 1;
                    let w = window << start;
                    if on & w == w && (o | x) & w != 0 {
                        f((o & w) >> start, (x & w) >> start);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
