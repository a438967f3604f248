//! The weak game as an AND/OR proof search with relevance zones: can the
//! attacker (the maker) complete a line when the defender (the breaker)
//! only blocks?
//!
//! A breaker win is proved together with its *zone*: a set of cells such
//! that the breaker still wins if the maker is handed every empty cell
//! outside it. Then at a maker turn only the maker's moves inside the
//! zone need a proof of their own. A move outside is answered as if the
//! maker already owned that cell, with a free extra stone for the breaker
//! (an extra stone never hurts in these games, and a maker stone less
//! never helps the maker). So a maker turn proves its moves one by one,
//! best first, each adding the proved child's zone and the two moves to
//! the node's zone, until every empty cell of the zone that lies on an
//! open line is proved.
//!
//! Zones come from the leaves: a pairing strategy's zone is its pairs (a
//! maker stone anywhere else leaves every pair intact), a position with
//! no open line has the empty zone. A breaker turn adds its move to its
//! child's zone.
//!
//! This is the "relevance zone" of the literature on proving k-in-a-row
//! games and Go (Hsu et al., "On solving the 7,7,5-game and the 8,8,5-game",
//! 2020). The search is exact both ways: every breaker move is tried
//! before a maker win is concluded. Results are kept in a table with
//! their zones, keyed by the smallest of the 8 symmetric hashes.
//!
//! A result that took a million nodes or more is also kept as a
//! [`Lemma`]: never evicted, and written to a checkpoint so that a run of
//! hours that stops goes on without searching it again.

use std::collections::HashMap;

use super::{Solver, State, pairing};

/// Steps a pairing search may take at a node before it gives up.
const PAIRING_BUDGET: u32 = 64;
/// A breaker turn first looks this many of its best moves ahead for one
/// after which a pairing strategy exists.
const PAIRING_LOOKAHEAD: usize = 16;
/// Hash key of a node where the breaker is to move (maker turns use the
/// plain key).
const BREAKER_TURN_KEY: u64 = 0x5851_f42d_4c95_7f2d;
/// The table's largest size: 2^28 entries of 24 bytes (6 GiB).
const MAX_ENTRIES: usize = 1 << 28;
/// Entries of a new table (96 KiB), before it grows.
const START_ENTRIES: usize = 1 << 12;
/// A result that took this many nodes becomes a lemma.
pub(super) const LEMMA_NODES: u64 = 1 << 20;
/// The most lemmas a solver keeps (a few MiB).
const MAX_LEMMAS: usize = 1 << 16;

/// A weak-game result worth keeping: the maker's and the breaker's
/// stones, who is to move, who wins, and (for a breaker win) the zone of
/// its proof. Checkpoints hold them; a lemma is trusted as it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lemma {
    pub maker: u64,
    pub breaker: u64,
    pub breaker_to_move: bool,
    pub maker_wins: bool,
    pub zone: u64,
}

/// What a search found: the breaker wins (with the zone of its proof), or
/// the maker wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Breaker(u64),
    Maker,
}

/// A node: both sides' stones and the 8 symmetric hashes (the maker's
/// stones hashed as player 0, the breaker's as player 1).
#[derive(Clone, Copy)]
struct Node {
    maker: u64,
    breaker: u64,
    hashes: [u64; 8],
}

/// Results with their zones, in the orientation of each node's canonical
/// image; one entry a slot, the newest kept.
pub(super) struct ZoneTable {
    /// `[key, zone, kind]`; kind 0: empty, 1: breaker wins, 2: maker wins.
    /// It starts small and doubles as a search outgrows it.
    entries: Vec<[u64; 3]>,
    /// The most entries it may grow to.
    max_entries: usize,
    /// Entries in use.
    filled: usize,
    /// The lemmas, by key: `(kind, zone)` as in `entries`.
    lemmas: HashMap<u64, (u8, u64)>,
}

impl ZoneTable {
    /// A table that may grow to about `bytes`. It holds nothing until a
    /// zone search first runs.
    pub(super) fn new(bytes: usize) -> ZoneTable {
        let fit = (bytes / size_of::<[u64; 3]>()).clamp(START_ENTRIES, MAX_ENTRIES);
        ZoneTable {
            entries: Vec::new(),
            max_entries: 1usize << (usize::BITS - 1 - fit.leading_zeros()),
            filled: 0,
            lemmas: HashMap::new(),
        }
    }

    /// Doubles the table while a search of `nodes` has outgrown it (or
    /// makes its first entries), keeping every entry.
    pub(super) fn grow(&mut self, nodes: u64) {
        if self.entries.is_empty() {
            self.entries = vec![[0; 3]; START_ENTRIES];
        }
        while self.entries.len() < self.max_entries && nodes > 2 * self.entries.len() as u64 {
            let doubled = vec![[0; 3]; self.entries.len() * 2];
            let old = std::mem::replace(&mut self.entries, doubled);
            for entry in old.into_iter().filter(|e| e[2] != 0) {
                let slot = self.slot(entry[0]);
                self.entries[slot] = entry;
            }
        }
    }

    /// The bytes of the entries in use and of the lemmas.
    pub(super) fn bytes_used(&self) -> usize {
        (self.filled + self.lemmas.len()) * size_of::<[u64; 3]>()
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & self.entries.len().wrapping_sub(1)
    }

    fn get(&self, key: u64) -> Option<(u8, u64)> {
        if let Some(&[k, zone, kind]) = self.entries.get(self.slot(key))
            && kind != 0
            && k == key
        {
            return Some((kind as u8, zone));
        }
        if self.lemmas.is_empty() {
            return None;
        }
        self.lemmas.get(&key).copied()
    }

    fn put(&mut self, key: u64, kind: u8, zone: u64) {
        if self.entries.is_empty() {
            self.grow(0);
        }
        let slot = self.slot(key);
        self.filled += usize::from(self.entries[slot][2] == 0);
        self.entries[slot] = [key, zone, u64::from(kind)];
    }
}

impl Solver {
    /// Whether `attacker` wins the weak game from `st` (`None`: the search
    /// was stopped). At the root of a breaker turn the breaker's move is
    /// kept as the root's best move.
    pub(super) fn weak_by_zones(&mut self, st: &State, attacker: usize) -> Option<bool> {
        let maker = st.boards[attacker];
        let breaker = st.boards[attacker ^ 1];
        let node = Node {
            maker,
            breaker,
            hashes: self.geo.symmetric_hashes([maker, breaker]),
        };
        self.root_best = None;
        self.zones.grow(self.nodes);
        let found = if st.side == attacker {
            self.maker_turn(&node, 0, false)
        } else {
            self.breaker_turn(&node, 0)
        };
        (!self.halted()).then_some(found == Found::Maker)
    }

    /// The maker to move: every move in the growing zone is proved, or one
    /// wins. `pairing_failed`: the parent already looked for a pairing here.
    fn maker_turn(&mut self, node: &Node, ply: u32, pairing_failed: bool) -> Found {
        let started = self.nodes;
        if !self.enter_node() {
            return Found::Maker;
        }
        let (empty, open, fours) = self.makers_lines(node);
        if fours != 0 {
            return Found::Maker;
        }
        if open == 0 {
            return Found::Breaker(0);
        }
        let (key, sym) = canonical(&node.hashes);
        if let Some(found) = self.zone_lookup(key, sym) {
            return found;
        }
        if !pairing_failed
            && let Some(pairs) = pairing::find(&self.geo.lines, node.breaker, empty, PAIRING_BUDGET)
        {
            let zone = pairs.iter().fold(0, |z, &(a, b)| z | 1 << a | 1 << b);
            self.zone_store(key, sym, Found::Breaker(zone), (node, false, started));
            return Found::Breaker(zone);
        }
        let heat = self.heat(node, empty);
        let mut zone = 0u64;
        let mut proved = 0u64;
        if ply == 0 {
            self.root_moves = open.count_ones() as usize;
        }
        loop {
            let pool = if proved == 0 {
                open
            } else {
                zone & open & !proved
            };
            if pool == 0 {
                break;
            }
            let cell = hottest(&heat, pool);
            proved |= 1 << cell;
            let child = self.play(node, cell, 0);
            let found = self.breaker_turn(&child, ply + 1);
            if self.halted() {
                return Found::Maker;
            }
            if ply == 0 {
                self.root_done = proved.count_ones() as usize;
            }
            match found {
                Found::Maker => {
                    self.zone_store(key, sym, Found::Maker, (node, false, started));
                    return Found::Maker;
                }
                Found::Breaker(child_zone) => zone |= child_zone | 1 << cell,
            }
        }
        self.zone_store(key, sym, Found::Breaker(zone), (node, false, started));
        Found::Breaker(zone)
    }

    /// The breaker to move: a four must be blocked (two lose); otherwise
    /// its best moves are first looked at for a pairing right after, then
    /// searched in turn until one holds.
    fn breaker_turn(&mut self, node: &Node, ply: u32) -> Found {
        let started = self.nodes;
        if !self.enter_node() {
            return Found::Maker;
        }
        let (empty, open, fours) = self.makers_lines(node);
        if fours.count_ones() >= 2 {
            return Found::Maker;
        }
        if open == 0 {
            if ply == 0 {
                self.root_best = Some(empty.trailing_zeros() as u8);
            }
            return Found::Breaker(0);
        }
        let (key, sym) = canonical(&node.hashes);
        let key = key ^ BREAKER_TURN_KEY;
        if ply > 0
            && let Some(found) = self.zone_lookup(key, sym)
        {
            return found;
        }
        let candidates = if fours != 0 { fours } else { open };
        let heat = self.heat(node, empty);
        let mut moves = [0u8; 64];
        let mut count = 0;
        for cell in bits(candidates) {
            moves[count] = cell;
            count += 1;
        }
        let moves = &mut moves[..count];
        moves.sort_unstable_by_key(|&c| (std::cmp::Reverse(heat[c as usize]), c));
        let mut looked = 0;
        if fours == 0 {
            for &cell in moves.iter().take(PAIRING_LOOKAHEAD) {
                let bit = 1u64 << cell;
                looked += 1;
                if let Some(pairs) = pairing::find(
                    &self.geo.lines,
                    node.breaker | bit,
                    empty & !bit,
                    PAIRING_BUDGET,
                ) {
                    let zone = pairs.iter().fold(bit, |z, &(a, b)| z | 1 << a | 1 << b);
                    let found = Found::Breaker(zone);
                    return self.breaker_found(key, sym, (node, started), ply, cell, found);
                }
            }
        }
        if ply == 0 {
            self.root_moves = moves.len();
        }
        for (i, &cell) in moves.iter().enumerate() {
            if ply == 0 {
                self.root_done = i;
            }
            let child = self.play(node, cell, 1);
            let found = self.maker_turn(&child, ply + 1, i < looked);
            if self.halted() {
                return Found::Maker;
            }
            if let Found::Breaker(zone) = found {
                let found = Found::Breaker(zone | 1 << cell);
                return self.breaker_found(key, sym, (node, started), ply, cell, found);
            }
        }
        self.zone_store(key, sym, Found::Maker, (node, true, started));
        Found::Maker
    }

    /// Counts a node and looks at the clock now and then; false when the
    /// search must unwind.
    #[inline]
    fn enter_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        !self.halted()
    }

    /// The empty cells, the empty cells of the lines still open to the
    /// maker, and the cells that would complete one (its fours).
    #[inline]
    fn makers_lines(&self, node: &Node) -> (u64, u64, u64) {
        let goal = u32::from(self.geo.goal);
        let empty = self.geo.full & !(node.maker | node.breaker);
        let (mut open, mut fours) = (0u64, 0u64);
        for &line in &self.geo.lines {
            if line & node.breaker == 0 {
                open |= line & empty;
                if (line & node.maker).count_ones() == goal - 1 {
                    fours |= line & empty;
                }
            }
        }
        (empty, open, fours)
    }

    /// Keeps a breaker turn's result (and its move, at the root).
    fn breaker_found(
        &mut self,
        key: u64,
        sym: usize,
        (node, started): (&Node, u64),
        ply: u32,
        cell: u8,
        found: Found,
    ) -> Found {
        if ply == 0 {
            self.root_best = Some(cell);
        }
        self.zone_store(key, sym, found, (node, true, started));
        found
    }

    /// `node` after a stone of `role` (0: maker, 1: breaker) on `cell`.
    fn play(&self, node: &Node, cell: u8, role: usize) -> Node {
        let mut next = *node;
        let bit = 1u64 << cell;
        if role == 0 {
            next.maker |= bit;
        } else {
            next.breaker |= bit;
        }
        for (s, hash) in next.hashes.iter_mut().enumerate() {
            *hash ^= self.geo.sym_zobrist[s][role][cell as usize];
        }
        next
    }

    /// How much each empty cell matters: over the lines still open to the
    /// maker through it, 2 to the power of the maker's stones on the line.
    /// The base matters: on (7,7,5), 2 proves the draw in 62 k nodes, 3 in
    /// 321 k, 4 in 1.75 M, 8 not in a minute, and counting the lines alone
    /// not in a minute either (BENCHMARKS.md, run W).
    fn heat(&self, node: &Node, empty: u64) -> [u32; 64] {
        let mut heat = [0u32; 64];
        for &line in &self.geo.lines {
            if line & node.breaker == 0 {
                let weight = 1u32 << (line & node.maker).count_ones();
                for cell in bits(line & empty) {
                    heat[cell as usize] += weight;
                }
            }
        }
        heat
    }

    fn zone_lookup(&self, key: u64, sym: usize) -> Option<Found> {
        let (kind, zone) = self.zones.get(key)?;
        Some(match kind {
            1 => Found::Breaker(map_cells(&self.geo.sym_inv[sym], zone)),
            _ => Found::Maker,
        })
    }

    /// Keeps a result in the table, and as a lemma too when its search
    /// took [`LEMMA_NODES`] or more (`at`: the node and the nodes counted
    /// when its search began).
    fn zone_store(&mut self, key: u64, sym: usize, found: Found, at: (&Node, bool, u64)) {
        let (kind, zone) = match found {
            Found::Breaker(zone) => (1, map_cells(&self.geo.sym[sym], zone)),
            Found::Maker => (2, 0),
        };
        self.zones.put(key, kind, zone);
        let (node, breaker_to_move, started) = at;
        if self.nodes - started >= self.lemma_nodes && self.lemmas.len() < MAX_LEMMAS {
            self.zones.lemmas.insert(key, (kind, zone));
            self.lemmas.push(Lemma {
                maker: node.maker,
                breaker: node.breaker,
                breaker_to_move,
                maker_wins: found == Found::Maker,
                zone: match found {
                    Found::Breaker(zone) => zone,
                    Found::Maker => 0,
                },
            });
        }
    }

    /// Takes in lemmas (from a checkpoint): their results are known from
    /// then on, and they are kept with this solve's own.
    pub fn add_lemmas(&mut self, lemmas: &[Lemma]) {
        for lemma in lemmas {
            let hashes = self.geo.symmetric_hashes([lemma.maker, lemma.breaker]);
            let (key, sym) = canonical(&hashes);
            let key = if lemma.breaker_to_move {
                key ^ BREAKER_TURN_KEY
            } else {
                key
            };
            let entry = if lemma.maker_wins {
                (2, 0)
            } else {
                (1, map_cells(&self.geo.sym[sym], lemma.zone))
            };
            self.zones.lemmas.insert(key, entry);
        }
        self.lemmas.extend_from_slice(lemmas);
    }

    /// The lemmas this solver keeps: those it was given and those it found.
    pub fn lemmas(&self) -> &[Lemma] {
        &self.lemmas
    }
}

/// The smallest of the 8 symmetric hashes, and the symmetry that gives it.
fn canonical(hashes: &[u64; 8]) -> (u64, usize) {
    let mut best = (hashes[0], 0);
    for (s, &h) in hashes.iter().enumerate().skip(1) {
        if h < best.0 {
            best = (h, s);
        }
    }
    best
}

/// The cell of `pool` with the most heat (the lowest such cell).
fn hottest(heat: &[u32; 64], pool: u64) -> u8 {
    let mut best = pool.trailing_zeros() as u8;
    for cell in bits(pool) {
        if heat[cell as usize] > heat[best as usize] {
            best = cell;
        }
    }
    best
}

/// Maps every cell of `cells` through `table` (a symmetry).
fn map_cells(table: &[u8; 64], cells: u64) -> u64 {
    bits(cells).fold(0, |out, c| out | 1 << table[c as usize])
}

/// The indices of the set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let cell = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            cell
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Cell, Player, Position, Rules};
    use rand::{RngExt, SeedableRng};
    use std::collections::HashMap;

    /// Random positions of `stones` stones, split between the two sides
    /// as in a game, where the maker (O) has no line yet.
    fn positions(rules: Rules, stones: usize, count: usize, seed: u64) -> Vec<(u64, u64)> {
        let geo = rules.geometry();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let (mut sides, mut empty) = ([0u64; 2], geo.full);
            for i in 0..stones {
                let cells: Vec<u8> = bits(empty).collect();
                let cell = cells[rng.random_range(0..cells.len())];
                sides[i % 2] |= 1 << cell;
                empty &= !(1u64 << cell);
            }
            if !geo.lines.iter().any(|&l| l & !sides[0] == 0) {
                out.push((sides[0], sides[1]));
            }
        }
        out
    }

    fn node(solver: &Solver, maker: u64, breaker: u64) -> Node {
        Node {
            maker,
            breaker,
            hashes: solver.geo.symmetric_hashes([maker, breaker]),
        }
    }

    #[test]
    fn the_zone_search_agrees_with_brute_force_and_its_zones_hold() {
        // Small boards, both turns: the verdict matches a plain search of
        // the weak game; and a breaker win still holds when the maker is
        // handed every empty cell outside its zone.
        let mut checked_zones = 0;
        for (size, goal, stones) in [(4, 4, 4), (5, 4, 11), (5, 5, 11), (6, 5, 22)] {
            let rules = Rules::new(size, goal).unwrap();
            let geo = rules.geometry();
            let mut solver = Solver::new(rules);
            for (i, (maker, breaker)) in positions(rules, stones, 40, 7).into_iter().enumerate() {
                let empty = geo.full & !(maker | breaker);
                let maker_to_move = i % 2 == 0;
                let found = if maker_to_move {
                    solver.maker_turn(&node(&solver, maker, breaker), 1, false)
                } else {
                    solver.breaker_turn(&node(&solver, maker, breaker), 1)
                };
                let mut memo = HashMap::new();
                let truth = super::super::pairing::tests::attacker_wins(
                    &geo.lines,
                    (maker, breaker),
                    empty,
                    maker_to_move,
                    &mut memo,
                );
                assert_eq!(
                    found == Found::Maker,
                    truth,
                    "{size}x{size} K={goal}: {maker:x} {breaker:x}"
                );
                if let Found::Breaker(zone) = found {
                    assert_eq!(zone & !empty, 0, "a zone holds empty cells only");
                    let handed = maker | (empty & !zone);
                    let mut memo = HashMap::new();
                    let still = super::super::pairing::tests::attacker_wins(
                        &geo.lines,
                        (handed, breaker),
                        empty & zone,
                        maker_to_move,
                        &mut memo,
                    );
                    assert!(
                        !still,
                        "{size}x{size} K={goal}: zone {zone:x} of {maker:x} {breaker:x}"
                    );
                    checked_zones += 1;
                }
            }
        }
        assert!(checked_zones > 40, "{checked_zones}");
    }

    #[test]
    fn zones_spare_the_maker_moves_outside_them() {
        // On (6,6,5) a few stones in, a maker turn that no pairing settles
        // proves only the moves in its zone, not all it has.
        let rules = Rules::new(6, 5).unwrap();
        let moves = Cell::parse_list("C3,D4,C4,E5", 6).unwrap();
        let pos = Position::from_moves(rules, &moves).unwrap();
        let mut solver = Solver::new(rules);
        let (maker, breaker) = (pos.small_board(Player::O), pos.small_board(Player::X));
        let found = solver.maker_turn(&node(&solver, maker, breaker), 0, false);
        assert!(matches!(found, Found::Breaker(_)), "{found:?}");
        assert!(solver.root_done > 0, "no pairing at the root");
        assert!(
            solver.root_done < solver.root_moves,
            "{} of {}",
            solver.root_done,
            solver.root_moves
        );
    }

    #[test]
    fn lemmas_carry_results_to_another_solver() {
        // Every result a lemma: a second solver given them settles the
        // same positions at once and alike, and a doctored lemma is taken
        // as it is (a checkpoint is trusted).
        let rules = Rules::new(6, 5).unwrap();
        let moves = Cell::parse_list("C3,D4,C4,E5", 6).unwrap();
        let pos = Position::from_moves(rules, &moves).unwrap();
        let (maker, breaker) = (pos.small_board(Player::O), pos.small_board(Player::X));
        let mut first = Solver::new(rules);
        first.lemma_nodes = 1;
        let found = first.maker_turn(&node(&first, maker, breaker), 0, false);
        assert!(first.nodes > 10, "{}", first.nodes);
        let lemmas = first.lemmas().to_vec();
        assert!(lemmas.len() > 10, "{}", lemmas.len());
        let mut second = Solver::new(rules);
        second.add_lemmas(&lemmas);
        assert_eq!(
            second.maker_turn(&node(&second, maker, breaker), 0, false),
            found
        );
        assert_eq!(second.nodes, 1);
        // The whole solve agrees with one that had no lemmas.
        let mut fresh = Solver::new(rules);
        assert_eq!(
            second.solve(&pos).unwrap().value,
            fresh.solve(&pos).unwrap().value
        );
        let mut lied = Solver::new(rules);
        lied.add_lemmas(&[Lemma {
            maker,
            breaker,
            breaker_to_move: false,
            maker_wins: true,
            zone: 0,
        }]);
        assert_eq!(
            lied.maker_turn(&node(&lied, maker, breaker), 0, false),
            Found::Maker
        );
    }
}
