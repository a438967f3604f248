//! Engine speed: win test, random playout, MCTS iterations, Negamax on
//! 15x15, solve.
//!
//! Run: `cargo bench --bench main`. Figures go in BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use kxo_engine::gomoku::{BigMcts, BigNegamax};
use kxo_engine::kernels::Mcts;
use kxo_engine::kernels::random_playout;
use kxo_engine::learner::Ticks;
use kxo_engine::solver::Solver;
use kxo_engine::{Cell, Position, Rule, Rules};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

fn win_test(c: &mut Criterion) {
    let geo = Rules::default_rules().geometry();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let boards: Vec<u64> = (0..1024)
        .map(|_| rng.next_u64() & rng.next_u64() & 0xffff)
        .collect();
    let mut group = c.benchmark_group("win_test");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("4x4_k3_table", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|&&m| geo.has_line(black_box(m)))
                .count()
        })
    });
    let geo5 = Rules::new(5, 4).unwrap().geometry();
    group.bench_function("5x5_k4", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter(|&&m| geo5.has_line(black_box(m << 9)))
                .count()
        })
    });
    group.finish();
}

fn playout(c: &mut Criterion) {
    let geo = Rules::default_rules().geometry();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(1));
    // The start boards pass through `black_box` once, outside the timed
    // loop, as the prototype's batch takes its boards once: inside it, the
    // array went through the stack every playout and its reload stalled on
    // store forwarding, a fifth of the measured time.
    let empty_boards = black_box([0, 0]);
    group.bench_function("4x4_k3_empty_board", |b| {
        b.iter(|| random_playout(geo, empty_boards, 0, &mut rng))
    });
    let geo5 = Rules::new(5, 4).unwrap().geometry();
    group.bench_function("5x5_k4_empty_board", |b| {
        b.iter(|| random_playout(geo5, empty_boards, 0, &mut rng))
    });
    group.finish();
}

fn mcts(c: &mut Criterion) {
    let rules = Rules::default_rules();
    let pos = Position::new(rules);
    let mut engine = Mcts::new(rules, 3);
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(100_000));
    group.sample_size(20);
    group.bench_function("4x4_k3_100k_iterations", |b| {
        b.iter(|| engine.search_iterations(black_box(&pos), 100_000))
    });
    // The prototype's mid-game position: O at A1, C3, D4; X at D1, B2, A4.
    let cells = Cell::parse_list("A1,D1,C3,B2,D4,A4", 4).unwrap();
    let mid = Position::from_moves(rules, &cells).unwrap();
    group.bench_function("4x4_k3_mid_game_100k_iterations", |b| {
        b.iter(|| engine.search_iterations(black_box(&mid), 100_000))
    });
    // The prototype's own protocol: 1M-iteration searches from a fresh
    // tree, which mid-game spend most iterations in a settled tree of
    // about 9k nodes.
    group.throughput(Throughput::Elements(1_000_000));
    group.sample_size(10);
    group.bench_function("4x4_k3_mid_game_1m_iterations", |b| {
        b.iter(|| engine.search_iterations(black_box(&mid), 1_000_000))
    });
    group.finish();
}

/// Boards above 8x8: the big-board MCTS's tactical playouts and its
/// iterations, from an opening of four stones around the centre.
fn gomoku(c: &mut Criterion) {
    let mut group = c.benchmark_group("gomoku");
    for size in [15u8, 20] {
        let rules = Rules::new(size, 5).unwrap();
        let opening = Cell::parse_list("H8,I9,H9,H10", size).unwrap();
        let pos = Position::from_moves(rules, &opening).unwrap();
        let mut engine = BigMcts::new(rules, 5);
        group.throughput(Throughput::Elements(1));
        group.bench_function(format!("playout_{size}x{size}_k5"), |b| {
            b.iter(|| engine.playout_from(black_box(&pos)))
        });
        group.throughput(Throughput::Elements(2_000));
        group.sample_size(10);
        group.bench_function(format!("mcts_{size}x{size}_k5_2k_iterations"), |b| {
            b.iter(|| engine.search_iterations(black_box(&pos), 2_000))
        });
        group.sample_size(100);
    }
    // The standard rule (exactly five): its windows also look at the cell
    // each side.
    let rules = Rules::new(15, 5).unwrap().with_rule(Rule::Standard);
    let opening = Cell::parse_list("H8,I9,H9,H10", 15).unwrap();
    let pos = Position::from_moves(rules, &opening).unwrap();
    let mut engine = BigMcts::new(rules, 5);
    group.bench_function("playout_15x15_k5_standard", |b| {
        b.iter(|| engine.playout_from(black_box(&pos)))
    });
    group.throughput(Throughput::Elements(2_000));
    group.sample_size(10);
    group.bench_function("mcts_15x15_k5_standard_2k_iterations", |b| {
        b.iter(|| engine.search_iterations(black_box(&pos), 2_000))
    });
    group.finish();
}

/// Negamax on 15x15: about 100,000 alpha-beta nodes (800 ticks) from
/// threat-suite positions it does not prove, a new engine each time, its
/// threat searches before thinking sized for a second (200,000 nodes).
/// The time for the same work: its speed, to compare between builds.
fn negamax(c: &mut Criterion) {
    let mut group = c.benchmark_group("negamax");
    group.sample_size(10);
    let suite = kxo_engine::gomoku::suite_positions();
    // Lines 2, 9 and 22 of the suite: quiet wins of 25-31 plies.
    for line in [2, 9, 22] {
        let Some(pos) = suite.get(line - 1).and_then(|p| p.position()) else {
            continue;
        };
        group.bench_function(format!("15x15_suite_line_{line}_800_ticks"), |b| {
            b.iter(|| {
                let mut engine = BigNegamax::new(pos.rules());
                engine.analyse(
                    black_box(&pos),
                    &mut Ticks::sized(800, Duration::from_secs(1)),
                )
            })
        });
    }
    group.finish();
}

fn solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    for goal in [3, 4] {
        let rules = Rules::new(4, goal).unwrap();
        let pos = Position::new(rules);
        if goal == 4 {
            group.sample_size(20);
        }
        // A fresh engine (and so an empty transposition table) per solve.
        group.bench_function(format!("4x4_k{goal}_empty_board"), |b| {
            b.iter(|| Solver::new(rules).solve(black_box(&pos)))
        });
    }
    // The classic boards the solver settles (not in the 4x4 comparison).
    group.sample_size(10);
    for (size, goal) in [(5, 4), (5, 5), (6, 4), (6, 5), (7, 5)] {
        let rules = Rules::new(size, goal).unwrap();
        let pos = Position::new(rules);
        group.bench_function(format!("{size}x{size}_k{goal}_empty_board"), |b| {
            b.iter(|| Solver::with_hash_bytes(rules, 1 << 30).solve(black_box(&pos)))
        });
    }
    // Five in a row without the pairing strategies: what they save.
    let rules = Rules::new(5, 5).unwrap();
    let pos = Position::new(rules);
    group.bench_function("5x5_k5_empty_board_no_pairing", |b| {
        b.iter(|| {
            let mut solver = Solver::with_hash_bytes(rules, 1 << 30);
            solver.set_pairing(false);
            solver.solve(black_box(&pos))
        })
    });
    group.finish();
}

criterion_group!(benches, win_test, playout, mcts, gomoku, negamax, solve);
criterion_main!(benches);
