//! Fast uniformly random playouts on bitboards.
//!
//! One 64-bit random number drives many moves: it is read as a mixed-radix
//! number, so picking among `m` empty cells is one multiply (the high half is
//! the choice, the low half the rest of the number). A fresh number is drawn
//! once fewer than 14 good bits remain.

use rand::Rng;

use crate::game::{
    Geometry, LINE_TABLE_WORDS, for_goal, set_bits_as_bytes, set_bits_as_nibbles, table_has_line,
};

/// How a playout of a board of up to 16 cells picks the k-th empty cell:
/// it returns that cell's bit, so the next move's empty cells follow in one
/// `xor` (the loop's critical path is this selection).
///
/// # Safety
/// A kernel may use instructions the CPU lacks (BMI2 for [`Pdep`]): its
/// functions may only be called where the CPU has them, i.e. from code
/// compiled for that feature after the CPU was seen to support it.
trait Select {
    /// # Safety
    /// As the trait's.
    unsafe fn select(mask: u64, k: u32) -> u64;
}

/// The portable select (the tests' small bit budgets; the playouts
/// themselves keep a list of cells instead).
#[cfg(test)]
struct Broadword;
#[cfg(test)]
impl Select for Broadword {
    #[inline(always)]
    unsafe fn select(mask: u64, k: u32) -> u64 {
        1u64 << crate::game::select_bit(mask, k)
    }
}

#[cfg(target_arch = "x86_64")]
struct Pdep;
#[cfg(target_arch = "x86_64")]
impl Select for Pdep {
    #[inline(always)]
    unsafe fn select(mask: u64, k: u32) -> u64 {
        // SAFETY: the caller runs where the CPU has BMI2 (the trait's
        // contract).
        unsafe { core::arch::x86_64::_pdep_u64(1u64 << k, mask) }
    }
}

/// `ceil(log2(m))`: the random bits one choice among `m` consumes.
const fn bits_for(m: u32) -> u32 {
    32 - (m.saturating_sub(1)).leading_zeros()
}

/// Bits of a random number that may be consumed before drawing a new one.
const BIT_BUDGET: u32 = 50;

/// `moves_per_number(budget)[m]`: how many moves in a row, starting with
/// `m` empty cells, one random number drives before it has consumed more
/// than `budget` bits (at least one).
const fn moves_per_number(budget: u32) -> [u32; 65] {
    let mut table = [0; 65];
    let mut m = 1;
    while m <= 64 {
        let mut moves = 0;
        let mut used = 0;
        while moves < m && used + bits_for((m - moves) as u32) <= budget {
            used += bits_for((m - moves) as u32);
            moves += 1;
        }
        table[m] = if moves == 0 { 1 } else { moves as u32 };
        m += 1;
    }
    table
}

/// Plays uniformly random moves from the given boards (side `to_move` to
/// play, the game not over) to the end. Returns the winner's index, or
/// `None` for a draw.
///
/// Boards of up to 16 cells pick the k-th empty cell: with one `pdep`
/// where BMI2 is fast (`crate::cpu` decides, once), else from a list of
/// 4-bit cell numbers (the k-th is one shift away, and taking it out is
/// three more). Bigger boards draw from an array of their empty cells on
/// every CPU, and test the win by reading the lines through the move with
/// `pext` where BMI2 is fast, else by the shift-and test on those lines.
/// Both kernels pick the same cell from the same random number: a seed
/// plays the same game on every CPU.
// Inlined into the caller, so that on 4x4 the generator is stepped in the
// caller's loop (and its state can stay in registers there) and only the
// loop of moves is a call. The kernels below take the two boards as two
// words, the mover's first, and say who won counted from the mover (0 for
// the mover, 1 for the other): an array argument would pass through memory.
#[inline(always)]
pub fn random_playout<R: Rng + ?Sized>(
    geo: &Geometry,
    boards: [u64; 2],
    side: usize,
    rng: &mut R,
) -> Option<usize> {
    // SAFETY: `use_bmi2` never says yes on a CPU without BMI2.
    unsafe { playout_with(crate::cpu::use_bmi2(), geo, boards, side, rng) }
}

/// [`random_playout`] on the kernels named: BMI2's when `bmi2` is set and
/// the CPU has it, the portable ones otherwise (benchmarks and tests run
/// both on one machine).
pub fn random_playout_on<R: Rng + ?Sized>(
    bmi2: bool,
    geo: &Geometry,
    boards: [u64; 2],
    side: usize,
    rng: &mut R,
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    let bmi2 = bmi2 && std::arch::is_x86_feature_detected!("bmi2");
    // SAFETY: BMI2 only where the CPU has it, checked just above.
    unsafe { playout_with(bmi2, geo, boards, side, rng) }
}

/// The playout on BMI2's kernels when `bmi2` is set.
///
/// # Safety
/// `bmi2` only where the CPU has BMI2 (the callers check once, not here:
/// this is every playout).
#[inline(always)]
unsafe fn playout_with<R: Rng + ?Sized>(
    bmi2: bool,
    geo: &Geometry,
    boards: [u64; 2],
    side: usize,
    rng: &mut R,
) -> Option<usize> {
    let (mine, theirs) = (boards[side], boards[side ^ 1]);
    let empty = geo.full & !(mine | theirs);
    #[cfg(target_arch = "x86_64")]
    if bmi2 {
        // SAFETY: the CPU supports BMI2 (this function's contract). The two board
        // kinds get a function each, so the small one's loop keeps its
        // few registers.
        let parity = unsafe {
            match &geo.line_bits {
                // A board of at most 16 cells takes one random number,
                // drawn here: the generator's state need not pass through
                // the call, and a caller's loop can keep it in registers.
                Some(table) => playout_table_bmi2(table, empty, mine, theirs, rng.next_u64()),
                None => playout_lines_bmi2(geo, empty, mine, theirs, rng),
            }
        };
        return parity.map(|parity| side ^ parity);
    }
    let parity = match &geo.line_bits {
        Some(table) => playout_table_listed(table, empty, mine, theirs, rng.next_u64()),
        None => playout_lines_portable::<R, BIT_BUDGET>(geo, empty, mine, theirs, rng),
    };
    parity.map(|parity| side ^ parity)
}

/// The playout of boards of up to 16 cells without BMI2: the empty cells
/// as a sorted list of 4-bit cell numbers in one word.
#[inline(never)]
fn playout_table_listed(
    table: &[u64; LINE_TABLE_WORDS],
    empty: u64,
    mut mine: u64,
    mut theirs: u64,
    mut random: u64,
) -> Option<usize> {
    let start = empty.count_ones() as u64;
    let mut list = set_bits_as_nibbles(empty as u16);
    let mut count = start;
    while count != 0 {
        let wide = random as u128 * count as u128;
        let shift = 4 * (wide >> 64) as u32;
        random = wide as u64;
        let cell = (list >> shift) & 0xf;
        // The digits above the one taken move down one place.
        list = (list & ((1u64 << shift) - 1)) | ((list >> shift >> 4) << shift);
        mine |= 1u64 << cell;
        count -= 1;
        if table_has_line(table, mine) {
            return Some(((start ^ count ^ 1) & 1) as usize);
        }
        std::mem::swap(&mut mine, &mut theirs);
    }
    None
}

/// The playout of boards above 16 cells without BMI2.
#[inline(never)]
fn playout_lines_portable<R: Rng + ?Sized, const BUDGET: u32>(
    geo: &Geometry,
    empty: u64,
    mine: u64,
    theirs: u64,
    rng: &mut R,
) -> Option<usize> {
    // The board's side and K as constants: the win test's shifts are then
    // immediates.
    macro_rules! on_side {
        ($n:literal) => {
            for_goal!(geo.goal, |K| play_shuffled::<R, BUDGET>(
                empty,
                mine,
                theirs,
                rng,
                |bb, cell| geo.has_line_through_segments::<K, $n>(bb, cell)
            ))
        };
    }
    match geo.size {
        5 => on_side!(5),
        6 => on_side!(6),
        7 => on_side!(7),
        _ => on_side!(8),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn playout_table_bmi2(
    table: &[u64; LINE_TABLE_WORDS],
    empty: u64,
    mine: u64,
    theirs: u64,
    random: u64,
) -> Option<usize> {
    const { assert!(moves_per_number(BIT_BUDGET)[16] == 16) };
    let mut game = Game::new(empty, mine, theirs);
    // SAFETY: this function is compiled for BMI2 and is called only where
    // the CPU has it.
    unsafe { game.play::<Pdep>(0, random, &|bb| table_has_line(table, bb)) }
        .then(|| game.winner_parity())
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
fn playout_lines_bmi2<R: Rng + ?Sized>(
    geo: &Geometry,
    empty: u64,
    mine: u64,
    theirs: u64,
    rng: &mut R,
) -> Option<usize> {
    // The closure is compiled for BMI2 too, as this function is (which is
    // called only where the CPU has it).
    for_goal!(geo.goal, |K| play_shuffled::<R, BIT_BUDGET>(
        empty,
        mine,
        theirs,
        rng,
        |bb, cell| geo.has_line_through_bmi2::<K>(bb, cell)
    ))
}

/// The playout of boards above 16 cells, on both kernels: the empty cells
/// in an array, and each move takes a uniformly random one out of it and
/// moves the last into its place (one step of a Fisher–Yates shuffle).
/// The next move's choice waits only on the random number, not on the
/// cell just taken, so the moves overlap in the CPU; a sorted list or a
/// `pdep` select makes each move wait for the one before.
#[inline(always)]
fn play_shuffled<R: Rng + ?Sized, const BUDGET: u32>(
    empty: u64,
    mut mine: u64,
    mut theirs: u64,
    rng: &mut R,
    has_line_through: impl Fn(u64, u32) -> bool,
) -> Option<usize> {
    // Eight spare bytes: the fill writes whole words.
    let mut cells = [0u8; 72];
    let mut count = 0;
    let (mut rest, mut base) = (empty, 0u64);
    while rest != 0 {
        let byte = (rest & 0xff) as usize;
        let at = count & 63;
        let positions = set_bits_as_bytes(byte as u8) + base * 0x0101_0101_0101_0101;
        cells[at..at + 8].copy_from_slice(&positions.to_le_bytes());
        count += byte.count_ones() as usize;
        rest >>= 8;
        base += 8;
    }
    let start = count;
    let chunks = const { &moves_per_number(BUDGET) };
    while count != 0 {
        let end = count - chunks[count] as usize;
        let mut random = rng.next_u64();
        while count != end {
            let wide = random as u128 * count as u128;
            let at = (wide >> 64) as usize;
            random = wide as u64;
            count -= 1;
            // SAFETY: `at < count + 1 <= 64`, within the array (the
            // high half of `random * count` is below `count`).
            let cell = unsafe {
                let cell = *cells.get_unchecked(at);
                *cells.get_unchecked_mut(at) = *cells.get_unchecked(count);
                cell as u32
            };
            mine |= 1u64 << cell;
            if has_line_through(mine, cell) {
                return Some((start ^ count ^ 1) & 1);
            }
            std::mem::swap(&mut mine, &mut theirs);
        }
    }
    None
}

/// The portable playout with a bit budget of its own (the tests force
/// small budgets to draw many numbers).
#[cfg(test)]
fn playout<R: Rng + ?Sized, const BUDGET: u32>(
    geo: &Geometry,
    empty: u64,
    mine: u64,
    theirs: u64,
    rng: &mut R,
) -> Option<usize> {
    match &geo.line_bits {
        // SAFETY: the broadword select uses no instruction a CPU may lack.
        Some(table) => unsafe {
            play::<Broadword, R, BUDGET>(Game::new(empty, mine, theirs), rng, |bb| {
                table_has_line(table, bb)
            })
        },
        None => playout_lines_portable::<R, BUDGET>(geo, empty, mine, theirs, rng),
    }
}

/// A playout between two moves: the empty cells (`count` of them, `start`
/// at the start), and the cells of the side to move and of the other.
struct Game {
    empty: u64,
    count: u64,
    start: u64,
    mine: u64,
    theirs: u64,
}

impl Game {
    #[inline(always)]
    fn new(empty: u64, mine: u64, theirs: u64) -> Game {
        Game {
            empty,
            count: empty.count_ones() as u64,
            start: empty.count_ones() as u64,
            mine,
            theirs,
        }
    }

    /// Plays uniformly random moves, all drawn from `random`, until `end`
    /// empty cells are left or a move wins; returns whether one won (the
    /// winner is then `mine`). The two sides swap after each move, so both
    /// stay in registers.
    ///
    /// # Safety
    /// As [`Select`]'s: the CPU runs `S`'s instructions.
    #[inline(always)]
    unsafe fn play<S: Select>(
        &mut self,
        end: u64,
        mut random: u64,
        has_line: &impl Fn(u64) -> bool,
    ) -> bool {
        while self.count != end {
            let wide = random as u128 * self.count as u128;
            let k = (wide >> 64) as u32;
            random = wide as u64;
            // SAFETY: this function's contract.
            let bit = unsafe { S::select(self.empty, k) };
            self.mine |= bit;
            self.empty ^= bit;
            self.count -= 1;
            if has_line(self.mine) {
                return true;
            }
            std::mem::swap(&mut self.mine, &mut self.theirs);
        }
        false
    }

    /// After a winning move: 0 if the side that moved first won, else 1
    /// (the moves before the winning one alternate from that side).
    #[inline(always)]
    fn winner_parity(&self) -> usize {
        ((self.start ^ self.count ^ 1) & 1) as usize
    }
}

/// A whole playout, one random number a chunk of moves (4x4 from the empty
/// board is one chunk: 49 bits). Returns who won counted from the mover.
///
/// # Safety
/// As [`Select`]'s: the CPU runs `S`'s instructions.
#[cfg(test)]
unsafe fn play<S: Select, R: Rng + ?Sized, const BUDGET: u32>(
    mut game: Game,
    rng: &mut R,
    has_line: impl Fn(u64) -> bool,
) -> Option<usize> {
    let chunks = const { &moves_per_number(BUDGET) };
    while game.count != 0 {
        let end = game.count - chunks[game.count as usize] as u64;
        // SAFETY: this function's contract.
        if unsafe { game.play::<S>(end, rng.next_u64(), &has_line) } {
            return Some(game.winner_parity());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Outcome, Position, Rules, select_bit};
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;
    use std::collections::HashMap;

    #[test]
    fn select_bit_finds_each_set_bit() {
        for mask in [
            0b1011_0100u64,
            0xffff,
            0x8000_0000_0000_0001,
            0xf0f0_0000_ff00,
        ] {
            let expected: Vec<u8> = (0..64).filter(|i| mask >> i & 1 == 1).collect();
            for (k, &i) in expected.iter().enumerate() {
                assert_eq!(select_bit(mask, k as u32), i);
            }
        }
    }

    #[test]
    fn one_number_drives_as_many_moves_as_its_bits_allow() {
        let chunks = moves_per_number(BIT_BUDGET);
        assert_eq!(chunks[16], 16, "4x4 from the empty board: 49 bits");
        assert_eq!(chunks[1], 1);
        // 25 cells: 5 bits for 25..17 (45), then 4 bits no more.
        assert_eq!(chunks[25], 10);
        let small = moves_per_number(8);
        assert_eq!(small[16], 2);
        assert_eq!(small[3], 3);
        // A choice wider than the budget still gets a number of its own.
        assert_eq!(moves_per_number(3)[64], 1);
    }

    /// Random positions of `rules` still in play, `n` of them.
    fn positions(rules: Rules, n: usize, rng: &mut Xoshiro256PlusPlus) -> Vec<Position> {
        use rand::RngExt;
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Position::new(rules);
            let plies = rng.random_range(0..rules.cells() as usize / 2);
            for _ in 0..plies {
                let moves: Vec<_> = pos.legal_moves().collect();
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
                if pos.outcome().is_over() {
                    break;
                }
            }
            if !pos.outcome().is_over() {
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn both_kernels_play_the_same_games_from_the_same_seed() {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            eprintln!("skipped: no BMI2 here to compare with");
            return;
        }
        let mut pick = Xoshiro256PlusPlus::seed_from_u64(11);
        for (size, goal) in [(3, 3), (4, 3), (4, 4), (5, 4), (6, 5), (7, 5), (8, 5)] {
            let rules = Rules::new(size, goal).unwrap();
            let geo = rules.geometry();
            for pos in positions(rules, 40, &mut pick) {
                let boards = [
                    pos.small_board(crate::game::Player::O),
                    pos.small_board(crate::game::Player::X),
                ];
                let side = pos.to_move().index();
                let (mut a, mut b) = (
                    Xoshiro256PlusPlus::seed_from_u64(5),
                    Xoshiro256PlusPlus::seed_from_u64(5),
                );
                for _ in 0..200 {
                    let portable = random_playout_on(false, geo, boards, side, &mut a);
                    let bmi2 = random_playout_on(true, geo, boards, side, &mut b);
                    assert_eq!(portable, bmi2, "{size}x{size} K={goal}");
                }
            }
        }
    }

    #[test]
    fn bits_for_is_ceil_log2() {
        assert_eq!(bits_for(1), 0);
        assert_eq!(bits_for(2), 1);
        assert_eq!(bits_for(3), 2);
        assert_eq!(bits_for(16), 4);
        assert_eq!(bits_for(17), 5);
    }

    /// Exact probabilities of (O wins, X wins, draw) under uniformly random
    /// play from `pos`.
    fn exact(pos: &Position, memo: &mut HashMap<u128, [f64; 3]>) -> [f64; 3] {
        if let Some(&r) = memo.get(&pos.table()) {
            return r;
        }
        match pos.outcome() {
            Outcome::Win(p) => {
                let mut r = [0.0; 3];
                r[p.index()] = 1.0;
                return r;
            }
            Outcome::Draw => return [0.0, 0.0, 1.0],
            Outcome::Ongoing => {}
        }
        let moves: Vec<_> = pos.legal_moves().collect();
        let mut total = [0.0; 3];
        for &m in &moves {
            let mut next = *pos;
            next.play_unchecked(m);
            let r = exact(&next, memo);
            for i in 0..3 {
                total[i] += r[i] / moves.len() as f64;
            }
        }
        memo.insert(pos.table(), total);
        total
    }

    /// A `bit_budget` for [`sampled`] that means: the full budget, on the
    /// portable kernels.
    const PORTABLE: u32 = 1;

    fn sampled(pos: &Position, n: u32, bit_budget: u32) -> [f64; 3] {
        let geo = pos.rules().geometry();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut counts = [0u32; 3];
        let boards = [
            pos.small_board(crate::game::Player::O),
            pos.small_board(crate::game::Player::X),
        ];
        for _ in 0..n {
            let side = pos.to_move().index();
            let winner = match bit_budget {
                BIT_BUDGET => random_playout(geo, boards, side, &mut rng),
                PORTABLE => random_playout_on(false, geo, boards, side, &mut rng),
                8 => {
                    let (mine, theirs) = (boards[side], boards[side ^ 1]);
                    let empty = geo.full & !(mine | theirs);
                    playout::<_, 8>(geo, empty, mine, theirs, &mut rng).map(|p| side ^ p)
                }
                _ => panic!("no test path for a budget of {bit_budget}"),
            };
            counts[winner.unwrap_or(2)] += 1;
        }
        counts.map(|c| c as f64 / n as f64)
    }

    /// A position of `rules` with `empty` cells left and no line yet,
    /// by random play from `seed` (restarted when a game ends early).
    fn nearly_full(rules: Rules, empty: u32, seed: u64) -> Position {
        use rand::RngExt;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        loop {
            let mut pos = Position::new(rules);
            while !pos.outcome().is_over() && pos.legal_moves().count() > empty as usize {
                let moves: Vec<_> = pos.legal_moves().collect();
                pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            if !pos.outcome().is_over() {
                return pos;
            }
        }
    }

    #[test]
    fn playouts_match_exact_uniform_random_frequencies() {
        // Exact frequencies by full enumeration (memoised), against 400,000
        // playouts each. A bit budget of 8 forces a fresh random number every
        // two or three moves, to check that path too.
        for (size, goal, moves, bit_budget) in [
            (3, 3, "", BIT_BUDGET),
            (3, 3, "", 8),
            (4, 3, "B2,C3,A1,D4", 8),
            (4, 3, "B2,C3,A1,D4", BIT_BUDGET),
            (4, 3, "", PORTABLE),
            (4, 3, "B2,C3,A1,D4", PORTABLE),
            (5, 4, "A1,B1,C1,D1,E1,A3,B3,C3,D3,E3,A5,B5", PORTABLE),
            (4, 4, "B2,C3,A1,D4", BIT_BUDGET),
            (5, 4, "A1,B1,C1,D1,E1,A3,B3,C3,D3,E3,A5,B5", BIT_BUDGET),
        ] {
            let rules = Rules::new(size, goal).unwrap();
            let cells = crate::game::Cell::parse_list(moves, size).unwrap();
            let pos = Position::from_moves(rules, &cells).unwrap();
            let want = exact(&pos, &mut HashMap::new());
            assert_sampled(&pos, &want, 400_000, bit_budget);
        }
    }

    /// `n` playouts from `pos` with `bit_budget` give each outcome within
    /// five standard deviations of its exact frequency `want`.
    fn assert_sampled(pos: &Position, want: &[f64; 3], n: u32, bit_budget: u32) {
        let got = sampled(pos, n, bit_budget);
        let (size, goal) = (pos.rules().size(), pos.rules().goal());
        let empty = pos.legal_moves().count();
        for i in 0..3 {
            let sd = (want[i] * (1.0 - want[i]) / n as f64).sqrt();
            assert!(
                (got[i] - want[i]).abs() <= 5.0 * sd + 1e-9,
                "{size}x{size} K={goal}, {empty} empty cells, budget {bit_budget}: \
                 outcome {i}: sampled {} exact {}",
                got[i],
                want[i]
            );
        }
    }

    #[test]
    fn bigger_boards_play_out_uniformly_on_both_kernels() {
        // Boards above 16 cells with 11 empty cells left: the array draw,
        // and the win test with the board's side as a constant, on each
        // side from 5 to 8.
        for (size, goal, seed) in [(5, 3, 1), (6, 4, 2), (7, 5, 3), (8, 5, 4), (8, 6, 5)] {
            let rules = Rules::new(size, goal).unwrap();
            let pos = nearly_full(rules, 11, seed);
            let want = exact(&pos, &mut HashMap::new());
            for bit_budget in [BIT_BUDGET, PORTABLE] {
                assert_sampled(&pos, &want, 200_000, bit_budget);
            }
        }
    }

    #[test]
    fn three_by_three_reference_split() {
        let want = exact(
            &Position::new(Rules::new(3, 3).unwrap()),
            &mut HashMap::new(),
        );
        assert!((want[0] - 0.5848).abs() < 1e-3, "{want:?}");
        assert!((want[1] - 0.2881).abs() < 1e-3, "{want:?}");
        assert!((want[2] - 0.1270).abs() < 1e-3, "{want:?}");
    }
}
