//! `kxo-tui bench`: this machine's figures in about ten seconds, for a bug
//! report: the CPU, the kernels chosen and why, and the speed of playouts,
//! MCTS, the solver, the 15x15 engine, Go's playouts and a task switch.
//!
//! Each figure is the median of a few short rounds, each timed on the
//! wall clock (the run is meant for an otherwise idle machine; the
//! benchmarks under `benches/` are the figures of record).

use std::hint::black_box;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

use kxo_engine::gomoku::BigMcts;
use kxo_engine::kernels::Mcts;
use kxo_engine::kernels::random_playout_on;
use kxo_engine::solver::Solver;
use kxo_engine::{Cell, Position, Rules};

/// One measured figure.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Figure {
    /// What was measured.
    pub name: String,
    /// The median of the rounds, in `unit`.
    pub value: f64,
    pub unit: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct BenchReport {
    pub cpu_vendor: String,
    pub cpu_family: u32,
    pub cpu_model: u32,
    pub cpu_name: String,
    pub bmi2: bool,
    /// The kernels this process runs ("portable" or "bmi2").
    pub kernel: &'static str,
    /// Why they were chosen.
    pub kernel_why: String,
    pub figures: Vec<Figure>,
    /// The scheduler's round trip over a bare corosensei one.
    pub switch_ratio: f64,
    pub seconds: f64,
}

/// Rounds per figure; the median is reported.
const ROUNDS: usize = 5;

/// The median rate of `work` (which does `units` of work a call) over
/// [`ROUNDS`] rounds of about `round` each (one call at least), after one
/// call to warm up (tables built on first use, caches), in units per
/// second.
fn rate(round: Duration, units: f64, mut work: impl FnMut()) -> f64 {
    work();
    median_rate(ROUNDS, round, units, work)
}

fn median_rate(rounds: usize, round: Duration, units: f64, mut work: impl FnMut()) -> f64 {
    let mut rates: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            let mut calls = 0u64;
            loop {
                work();
                calls += 1;
                if start.elapsed() >= round {
                    break;
                }
            }
            calls as f64 * units / start.elapsed().as_secs_f64()
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rounds / 2]
}

fn playouts(bmi2: bool, rules: Rules) -> f64 {
    let geo = rules.geometry();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let boards = black_box([0, 0]);
    rate(Duration::from_millis(100), 1000.0, || {
        for _ in 0..1000 {
            black_box(random_playout_on(bmi2, geo, boards, 0, &mut rng));
        }
    })
}

fn solve_ms(rules: Rules, round: Duration) -> f64 {
    let pos = Position::new(rules);
    let per_second = rate(round, 1.0, || {
        let _ = black_box(Solver::new(rules).solve(black_box(&pos)));
    });
    1000.0 / per_second
}

/// A scheduler round trip and a bare corosensei one, in nanoseconds.
fn switches() -> (f64, f64) {
    use corosensei::Coroutine;
    let mut bare: Coroutine<(), (), ()> = Coroutine::new(|y, ()| {
        loop {
            y.suspend(());
        }
    });
    let round = Duration::from_millis(100);
    let bare_rate = rate(round, 10_000.0, || {
        for _ in 0..10_000 {
            black_box(bare.resume(()));
        }
    });
    let mut sched = crate::tasks::Scheduler::new();
    let spawned = sched.spawn("spin", crate::tasks::TaskRole::Other, |ctx| {
        loop {
            ctx.suspend(crate::tasks::Suspend::Yield);
        }
    });
    if spawned.is_err() {
        return (f64::NAN, 1e9 / bare_rate);
    }
    let sched_rate = rate(round, 10_000.0, || {
        for _ in 0..10_000 {
            // A bool, as the bare switch's is a unit: an `Option<usize>`
            // through `black_box` stalls on a store the CPU cannot forward.
            black_box(sched.run_next().is_some());
        }
    });
    (1e9 / sched_rate, 1e9 / bare_rate)
}

/// Go: playouts on the empty 9x9 and 19x19 boards, light (no own eye
/// filled, as lib-ego's) and heavy (captures, saves, MoGo's 3x3
/// patterns), and the light ones' length.
fn go_figures(add: &mut impl FnMut(&str, f64, &'static str)) {
    for size in [9u8, 19] {
        for (kind, name) in [
            (kxo_engine::go::Playouts::Light, "light"),
            (kxo_engine::go::Playouts::Heavy, "heavy"),
        ] {
            let board = kxo_engine::go::Board::new(size);
            let count = if size == 9 { 1000 } else { 200 };
            add(
                &format!("Go {size}x{size} {name} playouts, empty board"),
                rate(Duration::from_millis(200), f64::from(count), || {
                    black_box(kxo_engine::go::playouts(
                        black_box(&board),
                        kind,
                        kxo_engine::GO_KOMI2,
                        count,
                        7,
                    ));
                }) / 1e3,
                "k/s",
            );
        }
        // Their length, to compare with other programs' (lib-ego's light
        // playouts on 9x9: 115 moves).
        let (_, moves) = kxo_engine::go::playouts(
            &kxo_engine::go::Board::new(size),
            kxo_engine::go::Playouts::Light,
            kxo_engine::GO_KOMI2,
            1000,
            7,
        );
        add(
            &format!("Go {size}x{size} light playout length"),
            moves as f64 / 1000.0,
            "moves",
        );
    }
    // The engine on the board people play: UCT with RAVE and priors,
    // heavy playouts, from the empty 9x9 board.
    use kxo_engine::GoEngine;
    use kxo_engine::go::{GoMcts, GoPosition, Playouts};
    if let Ok(rules) = Rules::go(9, kxo_engine::GO_KOMI2, 0) {
        let pos = GoPosition::new(rules);
        let mut engine = GoMcts::new(7, Playouts::Heavy);
        add(
            "Go 9x9 MCTS (RAVE, heavy playouts), 5k iterations",
            rate(Duration::from_millis(200), 5_000.0, || {
                let mut budget = kxo_engine::MoveBudget::new(kxo_engine::Limit::Work(5_000));
                black_box(engine.choose(black_box(&pos), &mut budget));
            }) / 1e3,
            "k it/s",
        );
    }
}

/// Runs every figure (about ten seconds), handing each to `on_figure`
/// as soon as it is measured.
pub(crate) fn run(mut on_figure: impl FnMut(&Figure)) -> BenchReport {
    let started = Instant::now();
    let (cpu, kernel, why) = crate::cpu::selected();
    let mut figures = Vec::new();
    let mut add = |name: &str, value: f64, unit: &'static str| {
        let figure = Figure {
            name: name.to_string(),
            value,
            unit,
        };
        on_figure(&figure);
        figures.push(figure);
    };
    let k3 = Rules::default_rules();
    let k4 = Rules::new(5, 4).unwrap_or(k3);
    let kernels: &[(bool, &str)] = if cpu.bmi2 {
        &[(false, "portable"), (true, "bmi2")]
    } else {
        &[(false, "portable")]
    };
    for &(bmi2, name) in kernels {
        add(
            &format!("playouts 4x4 K=3, empty board ({name})"),
            playouts(bmi2, k3) / 1e6,
            "M/s",
        );
        add(
            &format!("playouts 5x5 K=4, empty board ({name})"),
            playouts(bmi2, k4) / 1e6,
            "M/s",
        );
    }
    let mid = Cell::parse_list("A1,D1,C3,B2,D4,A4", 4)
        .ok()
        .and_then(|cells| Position::from_moves(k3, &cells).ok())
        .unwrap_or_else(|| Position::new(k3));
    let mut mcts = Mcts::new(k3, 3);
    add(
        "MCTS 4x4 K=3, mid-game, 200k iterations",
        rate(Duration::from_millis(200), 200_000.0, || {
            black_box(mcts.search_iterations(black_box(&mid), 200_000));
        }) / 1e6,
        "M it/s",
    );
    add(
        "solve 4x4 K=3, empty board, fresh engine",
        solve_ms(k3, Duration::from_millis(50)) * 1000.0,
        "us",
    );
    if let Ok(rules) = Rules::new(4, 4) {
        add(
            "solve 4x4 K=4, empty board, fresh engine",
            solve_ms(rules, Duration::from_millis(100)),
            "ms",
        );
    }
    // Most of a second: one solve.
    let empty = Position::new(k4);
    let per_second = median_rate(1, Duration::ZERO, 1.0, || {
        let _ = black_box(Solver::new(k4).solve(black_box(&empty)));
    });
    add(
        "solve 5x5 K=4, empty board, fresh engine",
        1000.0 / per_second,
        "ms",
    );
    if let Ok(rules) = Rules::new(15, 5) {
        let opening = Cell::parse_list("H8,I9,H9,H10", 15).unwrap_or_default();
        let pos = Position::from_moves(rules, &opening).unwrap_or_else(|_| Position::new(rules));
        let mut engine = BigMcts::new(rules, 5);
        add(
            "MCTS 15x15 K=5, 2k iterations",
            rate(Duration::from_millis(200), 2_000.0, || {
                black_box(engine.search_iterations(black_box(&pos), 2_000));
            }) / 1e3,
            "k it/s",
        );
    }
    go_figures(&mut add);
    let (scheduler, bare) = switches();
    add("scheduler round trip (one task)", scheduler, "ns");
    add("bare corosensei resume + suspend", bare, "ns");
    BenchReport {
        cpu_vendor: cpu.vendor.clone(),
        cpu_family: cpu.family,
        cpu_model: cpu.model,
        cpu_name: cpu.name.clone(),
        bmi2: cpu.bmi2,
        kernel: kernel.name(),
        kernel_why: why.clone(),
        figures,
        switch_ratio: scheduler / bare,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The report's first lines: the CPU and the kernels.
fn head_text() -> String {
    let (cpu, kernel, why) = crate::cpu::selected();
    format!(
        "cpu: {} ({}, family {:#x}, model {:#x}), BMI2 {}\nkernels: {} ({})\n",
        if cpu.name.is_empty() {
            "unnamed"
        } else {
            &cpu.name
        },
        cpu.vendor,
        cpu.family,
        cpu.model,
        if cpu.bmi2 { "yes" } else { "no" },
        kernel.name(),
        why
    )
}

/// A figure's line.
fn figure_text(f: &Figure) -> String {
    format!("  {:<46} {:>10.2} {}\n", f.name, f.value, f.unit)
}

/// The report's last lines.
fn tail_text(report: &BenchReport) -> String {
    format!(
        "  {:<46} {:>10.2}x\n(median of {ROUNDS} rounds each; {:.1} s)\n",
        "scheduler round trip / bare switch", report.switch_ratio, report.seconds
    )
}

/// `kxo-tui bench`: prints each figure as it is measured (or, with
/// `--json`, the whole report at the end).
pub(crate) fn command(json: bool) -> anyhow::Result<()> {
    if json {
        let report = run(|_| {});
        return crate::say!("{}", serde_json::to_string_pretty(&report)?);
    }
    crate::out::stdout(&head_text())?;
    let mut closed = None;
    let report = run(|f| {
        if closed.is_none()
            && let Err(e) = crate::out::stdout(&figure_text(f))
        {
            closed = Some(e);
        }
    });
    if let Some(e) = closed {
        return Err(e);
    }
    crate::out::stdout(&tail_text(&report))
}
