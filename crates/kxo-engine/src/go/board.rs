//! The Go board the way lib-ego builds it: one flat array of points with a
//! border of off-board points around it, chains as circular lists of
//! their stones joined on contact, and for each chain its
//! pseudo-liberties (every stone's empty neighbours, counted with
//! repeats) as a count, a sum and a sum of squares, so that "in atari"
//! and "its only liberty is v" are two comparisons and no walk. The whole
//! board is plain data of fixed size: a copy is one `memcpy`.
//!
//! Points are numbered `(row + 1) * stride + col + 1` with `stride = size
//! + 2`, row 0 at the top; [`Board::point`] and [`Board::cell`] convert
//! from and to the program's cells (`row * size + col`).

use crate::game::Player;

/// The largest board side.
pub(crate) const MAX_SIZE: usize = 19;
/// Points of the largest board with its border.
pub(crate) const MAX_POINTS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2);
const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// What a point holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Stone {
    Empty = 0,
    Black = 1,
    White = 2,
    OffBoard = 3,
}

impl Stone {
    pub fn of(player: Player) -> Stone {
        match player {
            Player::O => Stone::Black,
            Player::X => Stone::White,
        }
    }
    pub fn player(self) -> Option<Player> {
        match self {
            Stone::Black => Some(Player::O),
            Stone::White => Some(Player::X),
            _ => None,
        }
    }
}

/// Neighbour counts, packed: empty in bits 0–3, black in 4–7, white in
/// 8–11. An off-board neighbour counts as black and as white, so a point
/// is eye-like for a player when that player's count is 4.
const EMPTY_ONE: u16 = 1;
const fn colour_one(stone: Stone) -> u16 {
    match stone {
        Stone::Black => 1 << 4,
        Stone::White => 1 << 8,
        Stone::OffBoard => (1 << 4) | (1 << 8),
        Stone::Empty => EMPTY_ONE,
    }
}

/// A chain's pseudo-liberties, kept at its root point.
#[derive(Clone, Copy, Debug, Default)]
struct Libs {
    count: u32,
    sum: u32,
    sum2: u32,
}

impl Libs {
    fn add(&mut self, v: usize) {
        self.count += 1;
        self.sum += v as u32;
        self.sum2 += (v * v) as u32;
    }
    fn remove(&mut self, v: usize) {
        self.count -= 1;
        self.sum -= v as u32;
        self.sum2 -= (v * v) as u32;
    }
    fn merge(&mut self, other: Libs) {
        self.count += other.count;
        self.sum += other.sum;
        self.sum2 += other.sum2;
    }
    /// All pseudo-liberties are one point (the chain is in atari), or
    /// none.
    fn single(&self) -> bool {
        (self.count as u64) * (self.sum2 as u64) == (self.sum as u64) * (self.sum as u64)
    }
    /// The chain's only liberty is `v`.
    fn only(&self, v: usize) -> bool {
        let v = v as u64;
        self.count > 0
            && self.sum as u64 == self.count as u64 * v
            && self.sum2 as u64 == self.count as u64 * v * v
    }
    /// The one liberty of a chain in atari.
    fn atari_point(&self) -> usize {
        (self.sum / self.count.max(1)) as usize
    }
}

/// Keys of the stones for positional superko, the same for every board:
/// splitmix64, made when the program is compiled.
static ZOBRIST: [[u64; MAX_POINTS]; 2] = {
    let mut keys = [[0u64; MAX_POINTS]; 2];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut i = 0;
    while i < 2 * MAX_POINTS {
        x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        keys[i / MAX_POINTS][i % MAX_POINTS] = z ^ (z >> 31);
        i += 1;
    }
    keys
};

/// A Go board: stones, chains, their pseudo-liberties, the empty points
/// in a list, simple ko, and the side to move.
#[derive(Clone, Copy)]
pub struct Board {
    size: u8,
    stride: u16,
    stone: [Stone; MAX_POINTS],
    /// Neighbour counts, packed ([`EMPTY_ONE`], [`colour_one`]).
    nbr: [u16; MAX_POINTS],
    /// The root point of each stone's chain.
    chain: [u16; MAX_POINTS],
    /// The next stone of the same chain (a circular list).
    next: [u16; MAX_POINTS],
    /// Pseudo-liberties, at each chain's root.
    libs: [Libs; MAX_POINTS],
    /// Stones, at each chain's root.
    len: [u16; MAX_POINTS],
    /// The empty points, and where each sits in that list.
    empty: [u16; MAX_CELLS],
    empty_at: [u16; MAX_POINTS],
    empties: u16,
    /// The point simple ko forbids to the side to move (0: none).
    ko: u16,
    to_move: Player,
    /// Passes in a row just played.
    passes: u8,
    /// Stones each side has captured.
    captured: [u32; 2],
    /// The last move's point (0: a pass or none).
    last: u16,
    hash: u64,
    moves: u32,
}

impl Board {
    /// The empty board of side `size` (2 to 19), Black to move.
    pub fn new(size: u8) -> Board {
        assert!(
            (2..=MAX_SIZE as u8).contains(&size),
            "a Go board is 2 to 19"
        );
        let stride = size as u16 + 2;
        let mut b = Board {
            size,
            stride,
            stone: [Stone::OffBoard; MAX_POINTS],
            nbr: [0; MAX_POINTS],
            chain: [0; MAX_POINTS],
            next: [0; MAX_POINTS],
            libs: [Libs::default(); MAX_POINTS],
            len: [0; MAX_POINTS],
            empty: [0; MAX_CELLS],
            empty_at: [0; MAX_POINTS],
            empties: 0,
            ko: 0,
            to_move: Player::O,
            passes: 0,
            captured: [0; 2],
            last: 0,
            hash: 0,
            moves: 0,
        };
        for cell in 0..size as usize * size as usize {
            let v = b.point(cell);
            b.stone[v] = Stone::Empty;
            b.empty[b.empties as usize] = v as u16;
            b.empty_at[v] = b.empties;
            b.empties += 1;
        }
        for cell in 0..size as usize * size as usize {
            let v = b.point(cell);
            b.nbr[v] = b
                .neighbours(v)
                .iter()
                .map(|&n| colour_one(b.stone[n]))
                .sum();
        }
        b
    }

    pub fn size(&self) -> u8 {
        self.size
    }
    pub fn to_move(&self) -> Player {
        self.to_move
    }
    /// Passes in a row at the end of the moves so far.
    pub fn passes(&self) -> u8 {
        self.passes
    }
    /// Moves played (passes included).
    pub fn moves(&self) -> u32 {
        self.moves
    }
    /// Stones `player` has captured.
    pub fn captured(&self, player: Player) -> u32 {
        self.captured[player.index()]
    }
    /// The Zobrist key of the stones (not the side to move): positional
    /// superko compares these.
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The point simple ko forbids to the side to move, if any.
    pub fn ko_point(&self) -> Option<usize> {
        (self.ko != 0).then_some(self.ko as usize)
    }
    /// The last move's point; `None` after a pass or before any move.
    pub fn last_point(&self) -> Option<usize> {
        (self.last != 0).then_some(self.last as usize)
    }

    /// The point of cell `row * size + col`.
    #[inline]
    pub fn point(&self, cell: usize) -> usize {
        let n = self.size as usize;
        (cell / n + 1) * self.stride as usize + cell % n + 1
    }

    /// The cell of an on-board point.
    #[inline]
    pub fn cell(&self, v: usize) -> usize {
        let s = self.stride as usize;
        (v / s - 1) * self.size as usize + v % s - 1
    }

    /// What point `v` holds.
    #[inline]
    pub fn at(&self, v: usize) -> Stone {
        self.stone[v]
    }

    #[inline]
    fn neighbours(&self, v: usize) -> [usize; 4] {
        let s = self.stride as usize;
        [v - s, v - 1, v + 1, v + s]
    }

    #[inline]
    fn diagonals(&self, v: usize) -> [usize; 4] {
        let s = self.stride as usize;
        [v - s - 1, v - s + 1, v + s - 1, v + s + 1]
    }

    /// The empty points, in the board's own order.
    pub fn empty_points(&self) -> &[u16] {
        &self.empty[..self.empties as usize]
    }

    /// The root of the chain of the stone at `v`.
    #[inline]
    fn root(&self, v: usize) -> usize {
        self.chain[v] as usize
    }

    /// The root point of the chain through the stone at `v` (its name).
    #[inline]
    pub(crate) fn root_of(&self, v: usize) -> usize {
        self.root(v)
    }

    /// The stones of the chain through `v`.
    pub fn chain_stones(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        let mut at = v;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let here = at;
            at = self.next[at] as usize;
            done = at == v;
            Some(here)
        })
    }

    /// Whether the chain through the stone at `v` has one liberty left.
    pub fn in_atari(&self, v: usize) -> bool {
        self.libs[self.root(v)].single()
    }

    /// The liberty of the chain through `v`, which must be in atari.
    pub fn atari_liberty(&self, v: usize) -> usize {
        self.libs[self.root(v)].atari_point()
    }

    /// Whether `v`'s four neighbours are all `player`'s stones or off the
    /// board.
    #[inline]
    pub fn is_eyelike(&self, player: Player, v: usize) -> bool {
        let shift = 4 + 4 * player.index() as u16;
        (self.nbr[v] >> shift) & 0xf == 4
    }

    /// Whether `v` is `player`'s eye in the usual playout sense: eye-like,
    /// and its diagonals hold at most one of the other side's stones (none
    /// on the edge).
    pub fn is_eye(&self, player: Player, v: usize) -> bool {
        if !self.is_eyelike(player, v) {
            return false;
        }
        let theirs = Stone::of(player.other());
        let mut bad = 0;
        let mut off = 0;
        for d in self.diagonals(v) {
            match self.stone[d] {
                Stone::OffBoard => off = 1,
                s if s == theirs => bad += 1,
                _ => {}
            }
        }
        bad + off < 2
    }

    /// Whether `player` may play at empty point `v`: not the ko point (for
    /// the side to move), and not suicide.
    pub fn is_legal(&self, player: Player, v: usize) -> bool {
        if self.stone[v] != Stone::Empty {
            return false;
        }
        if v == self.ko as usize && player == self.to_move {
            return false;
        }
        if self.nbr[v] & 0xf > 0 {
            return true;
        }
        let mine = Stone::of(player);
        for n in self.neighbours(v) {
            let s = self.stone[n];
            if s == Stone::OffBoard {
                continue;
            }
            let only = self.libs[self.root(n)].only(v);
            // Joining a chain with another liberty, or capturing one.
            if (s == mine) != only {
                return true;
            }
        }
        false
    }

    /// Gives the move to the other side without a pass counted (the
    /// handicap stones are placed so).
    pub(crate) fn pass_quietly(&mut self) {
        self.ko = 0;
        self.to_move = self.to_move.other();
    }

    /// A stone of `player` on empty `v`, joined to its own neighbours and
    /// capturing nothing: for rebuilding a position's live stones.
    pub(crate) fn place_unchecked(&mut self, player: Player, v: usize) {
        let mine = Stone::of(player);
        self.put(mine, v);
        for n in self.neighbours(v) {
            if self.stone[n] == mine {
                self.join(v, n);
            }
        }
    }

    /// Forgets the passes just played (a playout from a finished game).
    pub(crate) fn clear_passes(&mut self) {
        self.passes = 0;
    }

    /// Plays a pass.
    pub fn pass(&mut self) {
        self.ko = 0;
        self.last = 0;
        self.passes += 1;
        self.moves += 1;
        self.to_move = self.to_move.other();
    }

    /// Plays `player`'s stone at `v`, which must be legal for it; returns
    /// the stones it captured.
    pub fn play_legal(&mut self, player: Player, v: usize) -> u32 {
        debug_assert!(self.is_legal(player, v), "illegal move at {v}");
        let mine = Stone::of(player);
        let theirs = Stone::of(player.other());
        self.put(mine, v);
        let mut captured = 0;
        let mut last_captured = 0;
        for n in self.neighbours(v) {
            let s = self.stone[n];
            if s == mine {
                self.join(v, n);
            } else if s == theirs && self.libs[self.root(n)].count == 0 {
                last_captured = n;
                captured += self.remove_chain(n);
            }
        }
        self.captured[player.index()] += captured;
        // A single stone that took a single stone and has one liberty:
        // the ko point is where that stone was.
        let root = self.root(v);
        self.ko = if captured == 1 && self.next[v] as usize == v && self.libs[root].count == 1 {
            last_captured as u16
        } else {
            0
        };
        self.last = v as u16;
        self.passes = 0;
        self.moves += 1;
        self.to_move = player.other();
        captured
    }

    /// A stone of `stone` on empty `v`, a chain of its own; the chains
    /// around lose the pseudo-liberty `v`.
    fn put(&mut self, stone: Stone, v: usize) {
        self.stone[v] = stone;
        self.hash ^= ZOBRIST[stone as usize - 1][v];
        let at = self.empty_at[v] as usize;
        self.empties -= 1;
        let last = self.empty[self.empties as usize];
        self.empty[at] = last;
        self.empty_at[last as usize] = at as u16;
        self.chain[v] = v as u16;
        self.next[v] = v as u16;
        self.len[v] = 1;
        let mut libs = Libs::default();
        let delta = colour_one(stone) - EMPTY_ONE;
        for n in self.neighbours(v) {
            self.nbr[n] += delta;
            match self.stone[n] {
                Stone::Empty => libs.add(n),
                Stone::Black | Stone::White => {
                    let r = self.root(n);
                    self.libs[r].remove(v);
                }
                Stone::OffBoard => {}
            }
        }
        self.libs[v] = libs;
    }

    /// Joins the chains through `a` and `b` (the same colour, touching).
    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra == rb {
            return;
        }
        // The smaller chain is renamed.
        let (keep, gone) = if self.len[ra] >= self.len[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        let mut s = gone;
        loop {
            self.chain[s] = keep as u16;
            s = self.next[s] as usize;
            if s == gone {
                break;
            }
        }
        let gone_libs = self.libs[gone];
        self.libs[keep].merge(gone_libs);
        self.len[keep] += self.len[gone];
        self.next.swap(keep, gone);
    }

    /// Takes the chain through `v` off the board; returns its stones.
    fn remove_chain(&mut self, v: usize) -> u32 {
        let mut count = 0;
        let mut s = v;
        loop {
            let next = self.next[s] as usize;
            let stone = self.stone[s];
            self.stone[s] = Stone::Empty;
            self.hash ^= ZOBRIST[stone as usize - 1][s];
            self.empty[self.empties as usize] = s as u16;
            self.empty_at[s] = self.empties;
            self.empties += 1;
            let delta = colour_one(stone) - EMPTY_ONE;
            for n in self.neighbours(s) {
                self.nbr[n] -= delta;
                if matches!(self.stone[n], Stone::Black | Stone::White) {
                    let r = self.root(n);
                    self.libs[r].add(s);
                }
            }
            count += 1;
            s = next;
            if s == v {
                break;
            }
        }
        count
    }

    /// The area each side holds, Tromp–Taylor: its stones and the empty
    /// points that reach only its stones. `[black, white]`.
    pub fn area(&self) -> [u32; 2] {
        let mut area = [0u32; 2];
        for owner in self.owners().into_iter().flatten() {
            area[owner.index()] += 1;
        }
        area
    }

    /// Who owns each cell, Tromp–Taylor: a stone its side, an empty point
    /// the side whose stones alone it reaches (none when it reaches both
    /// or neither).
    pub fn owners(&self) -> Vec<Option<Player>> {
        let cells = self.size as usize * self.size as usize;
        let mut owners = vec![None; cells];
        let mut seen = [false; MAX_POINTS];
        let mut region = Vec::with_capacity(MAX_CELLS);
        let mut stack = Vec::with_capacity(MAX_CELLS);
        for (cell, owner) in owners.iter_mut().enumerate() {
            let v = self.point(cell);
            match self.stone[v] {
                Stone::Black => *owner = Some(Player::O),
                Stone::White => *owner = Some(Player::X),
                _ => {}
            }
        }
        for cell in 0..cells {
            let v = self.point(cell);
            if self.stone[v] != Stone::Empty || seen[v] {
                continue;
            }
            // One empty region, and the colours it touches.
            let mut touches = 0u8;
            region.clear();
            seen[v] = true;
            stack.push(v);
            while let Some(p) = stack.pop() {
                region.push(p);
                for n in self.neighbours(p) {
                    match self.stone[n] {
                        Stone::Empty if !seen[n] => {
                            seen[n] = true;
                            stack.push(n);
                        }
                        Stone::Black => touches |= 1,
                        Stone::White => touches |= 2,
                        _ => {}
                    }
                }
            }
            let owner = match touches {
                1 => Some(Player::O),
                2 => Some(Player::X),
                _ => None,
            };
            for &p in &region {
                owners[self.cell(p)] = owner;
            }
        }
        owners
    }

    /// The score at a playout's end, the fast way: stones, and empty
    /// points all of whose neighbours are one side's. `[black, white]`.
    #[inline]
    pub fn playout_area(&self) -> [i32; 2] {
        let mut area = [0i32; 2];
        for cell in 0..self.size as usize * self.size as usize {
            let v = self.point(cell);
            match self.stone[v] {
                Stone::Black => area[0] += 1,
                Stone::White => area[1] += 1,
                _ => {
                    area[0] += i32::from(self.is_eyelike(Player::O, v));
                    area[1] += i32::from(self.is_eyelike(Player::X, v));
                }
            }
        }
        area
    }

    /// Whether `player` has a move that is legal and does not fill its own
    /// eye; the first one found from a random start, as light playouts
    /// choose ([`Board::random_light_move`]).
    #[inline]
    pub fn random_light_move(&self, player: Player, start: usize) -> Option<usize> {
        let n = self.empties as usize;
        if n == 0 {
            return None;
        }
        let start = start % n;
        for i in (start..n).chain(0..start) {
            let v = self.empty[i] as usize;
            if !self.is_eye(player, v) && self.is_legal(player, v) {
                return Some(v);
            }
        }
        None
    }

    /// The chains of the other side next to `v` that are in atari, and of
    /// `player`'s own: what the heavy playouts look at around the last
    /// move.
    pub(crate) fn neighbour_chains(&self, v: usize) -> [usize; 4] {
        let mut roots = [0usize; 4];
        for (slot, n) in roots.iter_mut().zip(self.neighbours(v)) {
            if matches!(self.stone[n], Stone::Black | Stone::White) {
                *slot = self.root(n);
            }
        }
        roots
    }

    /// The colours of the 8 points around `v`, two bits each (empty,
    /// black, white, off-board), from the top left in reading order: the
    /// 3x3 patterns' key.
    #[inline]
    pub(crate) fn pattern_key(&self, v: usize) -> u16 {
        self.around(v)
            .iter()
            .fold(0u16, |key, &p| key << 2 | self.stone[p] as u16)
    }

    /// The 8 points around `v`.
    pub(crate) fn around(&self, v: usize) -> [usize; 8] {
        let s = self.stride as usize;
        [
            v - s - 1,
            v - s,
            v - s + 1,
            v - 1,
            v + 1,
            v + s - 1,
            v + s,
            v + s + 1,
        ]
    }

    /// The number of pseudo-liberties a stone of `player` at `v` would
    /// have counting only its empty neighbours (heavy playouts prefer
    /// answers to an atari that do not land in one).
    pub(crate) fn empty_neighbours(&self, v: usize) -> u16 {
        self.nbr[v] & 0xf
    }

    /// Whether the chain rooted at `root` has exactly one liberty, and
    /// which.
    pub(crate) fn atari_of_root(&self, root: usize) -> Option<usize> {
        let libs = self.libs[root];
        (libs.count > 0 && libs.single()).then(|| libs.atari_point())
    }

    /// The side a stone at `v` belongs to.
    pub(crate) fn owner(&self, v: usize) -> Option<Player> {
        self.stone[v].player()
    }

    /// Checks every chain's bookkeeping against a recount from scratch
    /// (tests).
    #[cfg(test)]
    pub(crate) fn check(&self) {
        for cell in 0..self.size as usize * self.size as usize {
            let v = self.point(cell);
            let expected: u16 = self
                .neighbours(v)
                .iter()
                .map(|&n| colour_one(self.stone[n]))
                .sum();
            assert_eq!(self.nbr[v], expected, "neighbour counts at {v}");
            if let Stone::Black | Stone::White = self.stone[v] {
                let r = self.root(v);
                let mut libs = Libs::default();
                let mut len = 0;
                for s in self.chain_stones(r) {
                    assert_eq!(self.root(s), r);
                    assert_eq!(self.stone[s], self.stone[v]);
                    len += 1;
                    for n in self.neighbours(s) {
                        if self.stone[n] == Stone::Empty {
                            libs.add(n);
                        }
                    }
                }
                assert!(len > 0);
                assert_eq!(
                    (libs.count, libs.sum, libs.sum2),
                    (self.libs[r].count, self.libs[r].sum, self.libs[r].sum2),
                    "liberties of the chain at {r}"
                );
                assert!(libs.count > 0, "a chain without liberties at {r}");
            } else if self.stone[v] == Stone::Empty {
                assert_eq!(self.empty[self.empty_at[v] as usize] as usize, v);
            }
        }
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for row in 0..self.size as usize {
            for col in 0..self.size as usize {
                let v = self.point(row * self.size as usize + col);
                let c = match self.stone[v] {
                    Stone::Black => 'X',
                    Stone::White => 'O',
                    _ => '.',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
