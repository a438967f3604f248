//! The live screen's costs: a coroutine round trip through the scheduler
//! against a bare corosensei resume/suspend (one task, and one of 20 ready
//! tasks), and one full frame.
//!
//! Run: `cargo bench --bench live`. Figures go in BENCHMARKS.md.

use std::hint::black_box;
use std::time::Instant;

use corosensei::{Coroutine, CoroutineResult};
use criterion::{Criterion, criterion_group, criterion_main};
use kxo_engine::Cell;
use kxo_tui::app::{App, LiveConfig, Message};
use kxo_tui::tasks::{Scheduler, Suspend, TaskRole};
use kxo_tui::ui::Chrome;
use kxo_tui::ui::palette::ColorMode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn switches(c: &mut Criterion) {
    let mut group = c.benchmark_group("switch");
    let mut bare: Coroutine<(), (), ()> = Coroutine::new(|y, ()| {
        loop {
            y.suspend(());
        }
    });
    group.bench_function("bare_corosensei_resume_suspend", |b| {
        b.iter(|| matches!(black_box(bare.resume(())), CoroutineResult::Yield(())))
    });
    let mut sched = Scheduler::new();
    sched
        .spawn("spin", TaskRole::Other, |ctx| {
            loop {
                ctx.suspend(Suspend::Yield);
            }
        })
        .expect("stack");
    // Each side hands criterion a bool, as the bare switch does: an
    // `Option<usize>` goes through `black_box` as two 8-byte stores read
    // back as one 16-byte load, which the CPU cannot forward and which cost
    // 3 ns a round here.
    group.bench_function("scheduler_run_next_one_task", |b| {
        b.iter(|| sched.run_next().is_some())
    });
    // The ready queue does not grow the cost of a switch with the tasks.
    let mut many = Scheduler::new();
    for i in 0..20 {
        many.spawn(format!("spin{i}"), TaskRole::Other, |ctx| {
            loop {
                ctx.suspend(Suspend::Yield);
            }
        })
        .expect("stack");
    }
    group.bench_function("scheduler_run_next_20_tasks", |b| {
        b.iter(|| many.run_next().is_some())
    });
    // The clock a seat reads at each Budget::tick (every few hundred
    // nodes) to end its 1 ms slice; the scheduler itself reads none.
    group.bench_function("seat_tick_clock_read", |b| {
        b.iter(|| black_box(Instant::now()))
    });
    group.finish();
}

fn frame(c: &mut Criterion) {
    let config = LiveConfig {
        o: Some(kxo_engine::BuiltIn::Mcts.into()),
        x: Some(kxo_engine::BuiltIn::Negamax.into()),
        seed: 1,
        color: ColorMode::TrueColor,
        ..LiveConfig::default()
    };
    let now = Instant::now();
    let mut app = App::new(config, now);
    for g in 0..9 {
        for i in 0..(g % 6 + 2) {
            let cell = Cell::new(((i * 5 + g) % 16) as u16);
            let moved = Message::Moved {
                game: g,
                generation: 0,
                cell,
            };
            app.update(moved, now);
        }
    }
    let mut group = c.benchmark_group("frame");
    for (w, h) in [(120u16, 50u16), (80, 24)] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test backend");
        group.bench_function(format!("9_games_{w}x{h}"), |b| {
            b.iter(|| {
                // Force a full redraw: a diff against an unchanged buffer would be free.
                terminal.clear().expect("clear");
                terminal
                    .draw(|f| kxo_tui::ui::draw(f, &app, &Chrome::default()))
                    .map(|_| ())
                    .expect("draw")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, switches, frame);
criterion_main!(benches);
