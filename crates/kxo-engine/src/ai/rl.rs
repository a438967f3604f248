//! The learning player: a state-value table learned by temporal-difference
//! updates from the games it plays.
//!
//! Values are kept for *afterstates* (the position just after a move), as
//! the expected result for the player who made that move: 1 a win, ½ a draw,
//! 0 a loss (negamax form: the same table serves both sides). The key is the
//! canonical 2-bit table, so the 8 symmetric images of a position share one
//! entry. A position never seen starts from the table's [`Init`]: ½, or a
//! line-count heuristic.
//!
//! The rule: at the end of each game, backwards over its afterstates, each
//! is set to one minus the best value the opponent can reach from it, where
//! each of the opponent's replies is itself valued one ply deeper (one minus
//! the mover's best answer to it) unless the table knows it. Finished games
//! are exact. The game is deterministic and the target takes the maximum
//! over every reply, so the target has no noise to average away: the step
//! size is 1, which makes the rule value iteration over the positions met,
//! converging to the perfect-play values as play covers them. Exploration
//! (which decays) and games against Random widen what play covers.

use std::cell::RefCell;
use std::rc::Rc;

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rustc_hash::FxHashMap;

use super::big::patterns::{self, LinePatterns};
use super::big::{BigBoard, Tables};
use super::ntuple::NTuple;
use super::{Budget, Engine};
use crate::game::{Cell, GameRecord, Outcome, Player, Position, Rules};

/// Step size of the updates (see the module's notes).
pub const ALPHA: f32 = 1.0;

/// What an afterstate never seen is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// ½ for every position: the player knows nothing but the rules.
    Zero,
    /// The line-count heuristic ([`heuristic`]).
    Heuristic,
    /// No table: an n-tuple network ([`NTuple`]) up to 8x8, line patterns
    /// shared across the board ([`LinePatterns`]) beyond; every weight
    /// zero (every value ½). For boards too big for a table.
    Network,
}

impl Init {
    /// What a new model for `rules` starts from: `small` where a table can
    /// hold the game (up to 16 cells), the network beyond.
    pub fn for_new_model(rules: Rules, small: Init) -> Init {
        if rules.cells() > 16 || !rules.is_small() {
            Init::Network
        } else {
            small
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Init::Zero => "zero",
            Init::Heuristic => "heuristic",
            Init::Network => "network",
        }
    }
}

impl std::str::FromStr for Init {
    type Err = String;
    fn from_str(s: &str) -> Result<Init, String> {
        match s {
            "zero" => Ok(Init::Zero),
            "heuristic" => Ok(Init::Heuristic),
            "network" => Ok(Init::Network),
            _ => Err(format!(
                "unknown start '{s}': use zero, heuristic or network"
            )),
        }
    }
}
/// The network's step is halved after this many games, a third after
/// twice as many, and so on.
const NET_DECAY: f32 = 10_000.0;
/// Values closer than this count as a tie (broken at random).
const TIE: f32 = 1e-4;
/// Each ply between an afterstate and the end of the game moves its value
/// this much of the way toward ½: a win sooner is worth more than a win
/// later, a loss later more than a loss sooner, and a draw is ½ at any
/// distance. Greedy play then wins fastest and, when every move loses,
/// resists longest, which gives a fallible opponent the most chances to
/// go wrong. The sign of a value (above, at or below ½) is its
/// game-theoretic result, as without the discount.
pub(crate) const DISCOUNT: f32 = 0.99;

/// `value` one ply further from the end: a step of [`DISCOUNT`] toward ½.
fn discounted(value: f32) -> f32 {
    0.5 + DISCOUNT * (value - 0.5)
}

/// The most positions a table holds: what a long training run on a board
/// beyond 4x4 meets, and what a model file may hold.
pub const MAX_TABLE_ENTRIES: usize = 1 << 21;

/// The learned values of one (size, goal).
#[derive(Clone, Debug)]
pub struct ValueTable {
    rules: Rules,
    init: Init,
    values: FxHashMap<u128, f32>,
    /// With `Init::Network`: the network that holds the values instead.
    net: Option<Net>,
    /// Games learned from, over the table's whole life.
    pub games: u64,
    /// Its accuracy on the fixed sample of positions when it was last
    /// measured (saved with it), if it was.
    pub accuracy: Option<f32>,
    /// Changed since it was loaded or saved.
    pub dirty: bool,
    /// Ids of the games learned from lately: two seats sharing this table
    /// report the same game, which is learned once.
    recent: std::collections::VecDeque<u64>,
}

/// What holds the values of a model without a table.
#[derive(Clone, Debug)]
enum Net {
    /// Up to 8x8: tuples by their place on the board.
    Tuples(Box<NTuple>),
    /// Beyond: line patterns shared across the board.
    Patterns(Box<LinePatterns>),
}

impl Net {
    fn new(rules: Rules) -> Net {
        if rules.is_small() {
            Net::Tuples(Box::new(NTuple::new(rules)))
        } else {
            Net::Patterns(Box::new(LinePatterns::new(rules.goal())))
        }
    }

    fn entries(&self) -> Vec<(u128, f32)> {
        match self {
            Net::Tuples(net) => net.entries(),
            Net::Patterns(net) => net.entries(),
        }
    }

    fn set(&mut self, place: u128, weight: f32) -> bool {
        match self {
            Net::Tuples(net) => net.set(place, weight),
            Net::Patterns(net) => net.set(place, weight),
        }
    }
}

/// One table shared by every learning seat of a run (single-threaded; no
/// borrow is held across a suspension).
pub type SharedTable = Rc<RefCell<ValueTable>>;

impl ValueTable {
    /// A new table that starts from the heuristic (line patterns above
    /// 8x8, see [`ValueTable::with_init`]).
    pub fn new(rules: Rules) -> ValueTable {
        ValueTable::with_init(rules, Init::Heuristic)
    }

    /// A new model of `rules` that starts from `init`. Above 8x8 a table of
    /// positions cannot be keyed (its keys are one-word boards), so every
    /// start is line patterns there (`Init::Network`).
    pub fn with_init(rules: Rules, init: Init) -> ValueTable {
        let init = if rules.is_small() {
            init
        } else {
            Init::Network
        };
        ValueTable {
            rules,
            init,
            values: FxHashMap::default(),
            net: (init == Init::Network).then(|| Net::new(rules)),
            games: 0,
            accuracy: None,
            dirty: false,
            recent: Default::default(),
        }
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn init(&self) -> Init {
        self.init
    }
    /// What [`len`](Self::len) counts, for a reader: "positions" or
    /// "weights".
    pub fn what_it_holds(&self) -> &'static str {
        match self.net {
            Some(_) => "weights",
            None => "positions",
        }
    }

    /// Positions in the table, or non-zero weights of the network.
    pub fn len(&self) -> usize {
        match &self.net {
            Some(net) => net.entries().len(),
            None => self.values.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The n-tuple network, when it holds the values (5x5 to 8x8).
    pub fn network(&self) -> Option<&NTuple> {
        match &self.net {
            Some(Net::Tuples(net)) => Some(net),
            _ => None,
        }
    }
    /// The line patterns, when they hold the values (boards above 8x8).
    pub fn patterns(&self) -> Option<&LinePatterns> {
        match &self.net {
            Some(Net::Patterns(net)) => Some(net),
            _ => None,
        }
    }

    /// Every (key, value) pair, sorted by key (for saving).
    pub fn entries(&self) -> Vec<(u128, f32)> {
        if let Some(net) = &self.net {
            return net.entries();
        }
        let mut v: Vec<(u128, f32)> = self.values.iter().map(|(&k, &v)| (k, v)).collect();
        v.sort_unstable_by_key(|e| e.0);
        v
    }

    /// Builds a table from saved entries.
    pub fn from_entries(
        rules: Rules,
        init: Init,
        games: u64,
        entries: impl IntoIterator<Item = (u128, f32)>,
    ) -> ValueTable {
        let mut net = (init == Init::Network).then(|| Net::new(rules));
        let values = match &mut net {
            Some(net) => {
                for (place, weight) in entries {
                    // A place outside the network is dropped, and the
                    // entry count then tells the file is corrupt.
                    net.set(place, weight);
                }
                FxHashMap::default()
            }
            None => entries.into_iter().collect(),
        };
        ValueTable {
            rules,
            init,
            values,
            net,
            games,
            accuracy: None,
            dirty: false,
            recent: Default::default(),
        }
    }

    /// The stored value of an afterstate, if it has one.
    pub fn stored(&self, after: &Position) -> Option<f32> {
        self.values.get(&after.canonical_table()).copied()
    }

    /// The value of `after` for the player who just moved: exact at the end
    /// of a game, learned if seen, else the heuristic.
    pub fn value(&self, after: &Position) -> f32 {
        match after.outcome() {
            Outcome::Win(_) => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Ongoing => match &self.net {
                Some(Net::Tuples(net)) => net.value(after),
                Some(Net::Patterns(net)) => {
                    let t = Tables::new(self.rules);
                    let b = BigBoard::from_position(&t, after);
                    patterns::logistic(net.raw(&t, &b, after.to_move().other()))
                }
                None => self.stored(after).unwrap_or_else(|| self.start(after)),
            },
        }
    }

    /// What an afterstate never seen is worth.
    fn start(&self, after: &Position) -> f32 {
        match self.init {
            Init::Zero | Init::Network => 0.5,
            Init::Heuristic => heuristic(after),
        }
    }

    /// The value of `after` one ply deeper when the table does not know
    /// it: one minus the best reply from it.
    fn deep_value(&self, after: &Position) -> f32 {
        match after.outcome() {
            Outcome::Ongoing => match self.stored(after) {
                Some(v) => v,
                None => discounted(1.0 - self.best_reply(after)),
            },
            _ => self.value(after),
        }
    }

    /// The best value the side to move in `pos` can reach with one move.
    fn best_reply(&self, pos: &Position) -> f32 {
        let mut best = 0.0f32;
        for m in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(m);
            best = best.max(self.value(&next));
            if best >= 1.0 {
                break;
            }
        }
        best
    }

    /// How many moves of the side to move in `pos` reach the best value
    /// it can (within the tie margin).
    fn best_replies(&self, pos: &Position) -> usize {
        if pos.outcome().is_over() {
            return 0;
        }
        let values: Vec<f32> = pos
            .legal_moves()
            .map(|m| {
                let mut next = *pos;
                next.play_unchecked(m);
                self.value(&next)
            })
            .collect();
        let best = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        values.iter().filter(|&&v| v > best - TIE).count()
    }

    /// The learning target of `after`: one minus the opponent's best reply,
    /// each reply valued one ply deeper when the table does not know it,
    /// discounted by a ply toward ½.
    fn target(&self, after: &Position) -> f32 {
        let mut best = 0.0f32;
        for m in after.legal_moves() {
            let mut next = *after;
            next.play_unchecked(m);
            best = best.max(self.deep_value(&next));
            if best >= 1.0 {
                break;
            }
        }
        discounted(1.0 - best)
    }

    /// Learns from a finished game: backwards over its afterstates, each
    /// moves towards one minus the opponent's best reply from it. A table
    /// at [`MAX_TABLE_ENTRIES`] learns only the positions it holds (a model
    /// file holds no more, or its loader would call it corrupt).
    pub fn learn(&mut self, record: &GameRecord, alpha: f32) {
        if let Some(id) = record.id {
            if self.recent.contains(&id) {
                return;
            }
            if self.recent.len() == 64 {
                self.recent.pop_front();
            }
            self.recent.push_back(id);
        }
        if let Some(Net::Patterns(net)) = &mut self.net {
            let scale = NET_DECAY / (NET_DECAY + self.games as f32);
            if learn_patterns(net, self.rules, record, scale) {
                self.games = self.games.saturating_add(1);
                self.dirty = true;
            }
            return;
        }
        let mut positions = Vec::with_capacity(record.moves.len());
        let mut pos = Position::new(self.rules);
        for &m in &record.moves {
            if pos.play(m).is_err() {
                return; // not a game of these rules: nothing to learn
            }
            positions.push(pos);
        }
        for after in positions.iter().rev() {
            if after.outcome().is_over() {
                continue;
            }
            if self.net.is_some() {
                // The network: one ply (a deeper target would cost the
                // network a few hundred evaluations a position). Unlike a
                // table entry, a weight serves many positions, whose
                // targets disagree while they are learned: the step decays
                // with the games learned, or later games undo earlier ones.
                let target = discounted(1.0 - self.best_reply(after));
                let scale = NET_DECAY / (NET_DECAY + self.games as f32);
                if let Some(Net::Tuples(net)) = &mut self.net {
                    net.learn(after, target, scale);
                }
                continue;
            }
            let key = after.canonical_table();
            let known = self.values.get(&key).copied();
            if known.is_none() && self.values.len() >= MAX_TABLE_ENTRIES {
                continue;
            }
            let target = self.target(after);
            let old = known.unwrap_or_else(|| self.start(after));
            self.values.insert(key, old + alpha * (target - old));
        }
        self.games = self.games.saturating_add(1);
        self.dirty = true;
    }
}

/// Learns line patterns from a finished game of `rules` (see
/// [`ValueTable::learn`]): backwards over its afterstates, each moves
/// towards one minus the best the opponent can reach from it in one move,
/// a ply's discount nearer ½. `false` when the moves are not a game of
/// these rules (nothing learned).
fn learn_patterns(net: &mut LinePatterns, rules: Rules, record: &GameRecord, scale: f32) -> bool {
    let t = Tables::new(rules);
    let mut b = BigBoard::empty();
    let mut afters = Vec::with_capacity(record.moves.len());
    for m in &record.moves {
        let cell = m.index();
        if cell >= t.cells || !b.empty_cells(&t).contains(cell) || b.outcome().is_over() {
            return false;
        }
        b.play(&t, cell);
        afters.push(b);
    }
    for after in afters.iter().rev().filter(|a| !a.outcome().is_over()) {
        let target = discounted(1.0 - best_reply_value(net, &t, after));
        net.learn(&t, after, after.to_move().other(), target, scale);
    }
    true
}

/// The best value the side to move in `b` (not over) reaches with one
/// move among its candidates: 1 for a win in one.
pub(crate) fn best_reply_value(net: &LinePatterns, t: &Tables, b: &BigBoard) -> f32 {
    let me = b.to_move();
    if !b.wins(me).is_empty() {
        return 1.0;
    }
    let base = net.raw(t, b, me);
    let best = b
        .candidates(t)
        .iter()
        .map(|c| net.gain(t, b, me, c))
        .fold(f32::NEG_INFINITY, f32::max);
    if best == f32::NEG_INFINITY {
        0.5 // a full board: a draw
    } else {
        patterns::logistic(base + best)
    }
}

/// The starting value of an afterstate for the player who just moved, from
/// counting lines: each line holding only the mover's marks counts for the
/// square of their number, each holding only the opponent's against, and
/// the sum is squashed into 0.1..0.9. It knows nothing of whose turn it is
/// or of threats: those the player learns.
pub(crate) fn heuristic(after: &Position) -> f32 {
    let geo = after.rules().geometry();
    let opp = after.to_move();
    let me = opp.other();
    let (mine, theirs) = (after.small_board(me), after.small_board(opp));
    let mut score = 0.0f32;
    for &line in &geo.lines {
        let (m, t) = ((mine & line).count_ones(), (theirs & line).count_ones());
        if t == 0 && m > 0 {
            score += (m * m) as f32;
        } else if m == 0 && t > 0 {
            score -= (t * t) as f32;
        }
    }
    0.5 + 0.4 * (score / 8.0).tanh()
}

/// The learning player: greedy on the table (random tie-breaks), with
/// optional exploration, learning from each game it finishes.
pub struct RlPlayer {
    table: SharedTable,
    rng: Xoshiro256PlusPlus,
    /// Chance of a random move instead of the greedy one.
    pub epsilon: f64,
    /// Whether to learn from finished games.
    pub learning: bool,
    /// When lost, among equally slow losses, play the one that leaves the
    /// opponent the fewest winning replies. A way to play, not to learn:
    /// training turns it off (it costs a lookup per reply).
    pub resist: bool,
    /// Values closer than this count as equal, the choice among them
    /// random. Training widens it (to [`TRAINING_TIE`]): wins a few plies
    /// apart then look alike, so self-play keeps varying its games rather
    /// than repeating the fastest line, and meets as many positions as
    /// without the discount.
    pub tie: f32,
}

/// The tie margin of training: a dozen plies of [`DISCOUNT`] near a win
/// or a loss, far less than what parts a win, a draw and a loss. With it
/// self-play meets the positions it met before the discount (the same
/// accuracy on the fixed sample: 99.0–99.25% over four seeds on 4x4 K=3,
/// where 0.02 gave 98.9–99.05% and no widening 98.5–98.85%).
pub const TRAINING_TIE: f32 = 0.06;

impl RlPlayer {
    pub fn new(table: SharedTable, seed: u64) -> RlPlayer {
        RlPlayer {
            table,
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            epsilon: 0.0,
            learning: true,
            resist: true,
            tie: TIE,
        }
    }

    pub fn table(&self) -> &SharedTable {
        &self.table
    }

    /// The greedy move (ties broken at random).
    pub fn greedy(&mut self, pos: &Position) -> Cell {
        let table = self.table.borrow();
        let mut best = f32::NEG_INFINITY;
        let mut ties: Vec<Cell> = Vec::new();
        for m in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(m);
            let v = table.value(&next);
            if v > best + self.tie {
                best = v;
                ties.clear();
                ties.push(m);
            } else if v > best - self.tie {
                ties.push(m);
            }
        }
        // Lost, among equally slow losses: the ones that leave the opponent
        // the fewest winning replies. An opponent that can err is likelier
        // to; one that cannot loses nothing by it. (Only when lost: the
        // count costs a table lookup per reply, and training meets many
        // ties elsewhere.)
        if self.resist && ties.len() > 1 && best < 0.5 - self.tie {
            let narrowness = |m: &Cell| {
                let mut next = *pos;
                next.play_unchecked(*m);
                table.best_replies(&next)
            };
            let fewest = ties.iter().map(narrowness).min().unwrap_or(0);
            ties.retain(|m| narrowness(m) == fewest);
        }
        drop(table);
        match ties.len() {
            0 => Cell::new(pos.small_empty().trailing_zeros() as u16),
            n => ties[self.rng.random_range(0..n)],
        }
    }
}

impl Engine for RlPlayer {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        "RL".into()
    }

    fn choose(&mut self, pos: &Position, _budget: &mut dyn Budget) -> Cell {
        if self.epsilon > 0.0 && self.rng.random_bool(self.epsilon.min(1.0)) {
            let empty = pos.small_empty();
            let k = self.rng.random_range(0..empty.count_ones());
            return Cell::new(crate::game::select_bit(empty, k).into());
        }
        self.greedy(pos)
    }

    fn game_over(&mut self, record: &GameRecord, _me: Player) {
        if self.learning {
            self.table.borrow_mut().learn(record, ALPHA);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(moves: &str) -> Position {
        Position::from_moves(Rules::default_rules(), &Cell::parse_list(moves, 4).unwrap()).unwrap()
    }

    #[test]
    fn a_ply_moves_a_value_toward_a_half_and_keeps_its_side() {
        assert_eq!(discounted(0.5), 0.5);
        let (win_now, win_later) = (1.0, discounted(discounted(1.0)));
        assert!(0.5 < win_later && win_later < win_now);
        let (loss_now, loss_later) = (0.0, discounted(discounted(0.0)));
        assert!(loss_now < loss_later && loss_later < 0.5);
        // Two plies apart is far more than a tie.
        assert!(discounted(1.0) - discounted(discounted(discounted(1.0))) > 50.0 * TIE);
    }

    #[test]
    fn all_eight_images_share_one_entry() {
        let rules = Rules::default_rules();
        let mut table = ValueTable::new(rules);
        let p = pos("A1,B1,C3,D2");
        let mut record = GameRecord::new(rules);
        record.moves = Cell::parse_list("A1,B1,C3,D2,A4", 4).unwrap();
        table.learn(&record, ALPHA);
        let learned = table.stored(&p).expect("learned");
        for s in 0..8 {
            assert_eq!(table.stored(&p.transformed(s)), Some(learned), "image {s}");
        }
        // Distinct positions learned: the 5 afterstates (no terminal one).
        assert_eq!(table.len(), 5);
    }

    #[test]
    fn a_game_reported_by_both_seats_is_learned_once() {
        let rules = Rules::default_rules();
        let table = Rc::new(RefCell::new(ValueTable::new(rules)));
        let mut o = RlPlayer::new(table.clone(), 1);
        let mut x = RlPlayer::new(table.clone(), 2);
        let mut record = GameRecord::new(rules);
        record.moves = Cell::parse_list("A1,D4,B1,C4,C1", 4).unwrap();
        record.id = Some(7);
        o.game_over(&record, Player::O);
        let once = table.borrow().entries();
        x.game_over(&record, Player::X);
        assert_eq!(table.borrow().entries(), once);
        assert_eq!(table.borrow().games, 1);
        record.id = Some(8);
        x.game_over(&record, Player::X);
        assert_eq!(table.borrow().games, 2);
    }

    #[test]
    fn the_heuristic_counts_open_lines() {
        // O's centre mark opens more lines than a corner does.
        assert!(heuristic(&pos("B2")) > heuristic(&pos("A1")));
        // Two O marks in a row beat two apart.
        assert!(heuristic(&pos("B2,A4,C2")) > heuristic(&pos("B2,A4,D1")));
        // Symmetric positions start equal, and values stay inside 0.1..0.9.
        assert_eq!(heuristic(&pos("A1")), heuristic(&pos("D4")));
        assert!((0.1..=0.9).contains(&heuristic(&pos("B2,A4,C2"))));
    }

    #[test]
    fn the_game_count_stops_at_its_limit() {
        // A model file may say any count: learning past the last one
        // keeps it there (it wrapped to 0, and panicked in a debug build).
        let rules = Rules::default_rules();
        let mut table = ValueTable::new(rules);
        table.games = u64::MAX - 1;
        let mut record = GameRecord::new(rules);
        record.moves = Cell::parse_list("A1,D4,B1,C4", 4).unwrap();
        table.learn(&record, ALPHA);
        table.learn(&record, ALPHA);
        assert_eq!(table.games, u64::MAX);
    }

    #[test]
    fn learning_moves_values_towards_the_result() {
        let rules = Rules::default_rules();
        let mut table = ValueTable::new(rules);
        // X lets O win on row 1; the afterstate before O's win gets worse for X.
        let mut record = GameRecord::new(rules);
        record.moves = Cell::parse_list("A1,D4,B1,C4", 4).unwrap();
        let before = pos("A1,D4,B1,C4");
        let h = table.value(&before);
        for _ in 0..5 {
            table.learn(&record, ALPHA);
        }
        assert!(
            table.value(&before) < h.min(0.05),
            "{h} -> {}",
            table.value(&before)
        );
    }

    #[test]
    fn above_8x8_every_start_is_line_patterns() {
        // A table's keys are one-word boards: none is made above 8x8.
        let rules = Rules::new(15, 5).unwrap();
        for init in [Init::Zero, Init::Heuristic, Init::Network] {
            let t = ValueTable::with_init(rules, init);
            assert_eq!(t.init(), Init::Network);
            assert!(t.patterns().is_some());
        }
        // Up to 8x8 the start asked for is kept.
        let t = ValueTable::with_init(Rules::new(8, 5).unwrap(), Init::Zero);
        assert_eq!(t.init(), Init::Zero);
    }

    #[test]
    fn greedy_takes_a_win_in_one_even_untrained() {
        // A finished game's value is exact (1 for the winner).
        let table = Rc::new(RefCell::new(ValueTable::new(Rules::default_rules())));
        let mut rl = RlPlayer::new(table, 1);
        assert_eq!(rl.greedy(&pos("A1,A4,B1,D4")).name(4), "C1");
    }
}
