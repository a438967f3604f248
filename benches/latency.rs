//! Key-press-to-frame latency with 9 games of MCTS thinking non-stop on
//! their clocks (`--delay 0`), and CPU use while paused. Not a criterion benchmark: it
//! runs the real event loop with a scripted keyboard and an in-memory
//! terminal, and prints percentiles.
//!
//! Run: `cargo bench --bench latency`.

mod common;

use std::cell::RefCell;
use std::io;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use kxo_tui::app::{LiveConfig, Tab};
use kxo_tui::engines::RunLimit;
use kxo_tui::tasks::live::{self, InputSource};
use kxo_tui::ui::palette::ColorMode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

#[derive(Default)]
struct Probe {
    /// When the pending key was sent, and the tab it selects.
    pending: Option<(Instant, Tab)>,
    latencies: Vec<Duration>,
}

struct Keys {
    probe: Rc<RefCell<Probe>>,
    next_key: Instant,
    sent: usize,
    total: usize,
    stop: Arc<AtomicBool>,
    script: Vec<(Duration, Event)>,
    started: Instant,
}

impl InputSource for Keys {
    fn next_event(&mut self, timeout: Duration) -> io::Result<Option<Event>> {
        let now = Instant::now();
        if let Some((at, _)) = self.script.first()
            && now >= self.started + *at
        {
            return Ok(Some(self.script.remove(0).1));
        }
        if self.total > 0 && self.probe.borrow().pending.is_none() && now >= self.next_key {
            if self.sent == self.total {
                self.stop.store(true, Ordering::Relaxed);
                return Ok(None);
            }
            self.sent += 1;
            let (ch, tab) = if self.sent % 2 == 1 {
                ('w', Tab::Load)
            } else {
                ('q', Tab::Records)
            };
            // Stamped when the key arrives, not when the loop gets round to
            // reading it: the time it waits behind a thinking seat counts.
            self.probe.borrow_mut().pending = Some((self.next_key, tab));
            // Keys arrive at irregular moments relative to the seats' slices.
            self.next_key = now + Duration::from_millis(23 + (self.sent as u64 * 7) % 31);
            return Ok(Some(Event::Key(KeyEvent::new(
                KeyCode::Char(ch),
                KeyModifiers::NONE,
            ))));
        }
        if !timeout.is_zero() {
            std::thread::sleep(timeout.min(Duration::from_millis(5)));
        }
        Ok(None)
    }
}

fn config() -> LiveConfig {
    LiveConfig {
        o: Some(kxo_engine::BuiltIn::Mcts.into()),
        x: Some(kxo_engine::BuiltIn::Mcts.into()),
        delay: Duration::ZERO,
        // Every seat thinks on the live screen's default clock.
        limit: RunLimit::Millis(kxo_tui::app::DEFAULT_THINK_MS),
        seed: 1,
        color: ColorMode::TrueColor,
        ..LiveConfig::default()
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    // Criterion-style arguments (e.g. `--bench`) are ignored.
    let probe = Rc::new(RefCell::new(Probe::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let mut keys = Keys {
        probe: probe.clone(),
        next_key: Instant::now() + Duration::from_millis(500),
        sent: 0,
        total: 400,
        stop: stop.clone(),
        script: Vec::new(),
        started: Instant::now(),
    };
    let hook_probe = probe.clone();
    let hook = Box::new(move |app: &kxo_tui::app::App, _: &kxo_tui::ui::Chrome| {
        let mut p = hook_probe.borrow_mut();
        if let Some((sent, tab)) = p.pending
            && app.tab() == tab
        {
            p.latencies.push(sent.elapsed());
            p.pending = None;
        }
    });
    let terminal = Terminal::new(TestBackend::new(120, 50)).expect("test backend");
    let summary = live::run(config(), terminal, &mut keys, stop, Some(hook)).expect("live run");
    let mut lat = probe.borrow().latencies.clone();
    lat.sort();
    println!(
        "key-to-frame latency (stamped at arrival), 9 games of MCTS vs MCTS on 100 ms clocks, --delay 0 ({} keys, {} moves in {:.1} s):",
        lat.len(),
        summary.totals.moves,
        summary.elapsed.as_secs_f64()
    );
    if !lat.is_empty() {
        println!(
            "  p50 {:.2} ms   p90 {:.2} ms   p99 {:.2} ms   max {:.2} ms",
            percentile(&lat, 0.5).as_secs_f64() * 1e3,
            percentile(&lat, 0.9).as_secs_f64() * 1e3,
            percentile(&lat, 0.99).as_secs_f64() * 1e3,
            lat[lat.len() - 1].as_secs_f64() * 1e3
        );
    }

    // Paused: the real binary in a pseudo-terminal, 9 games of MCTS at
    // --delay 0, Ctrl-P, then its CPU time over PAUSED_SPAN from /proc,
    // which counts in ticks of 10 ms.
    match paused_cpu() {
        Some((used, span)) => {
            let ticks = (used.as_millis() / 10) as u64;
            println!(
                "CPU while paused (real binary, 9 games, {:.0} s): {ticks} ticks of 10 ms = {:.3}% of one core (resolution {:.3}%)",
                span.as_secs_f64(),
                100.0 * used.as_secs_f64() / span.as_secs_f64(),
                100.0 * 0.010 / span.as_secs_f64(),
            )
        }
        None => println!("CPU while paused: could not be measured here"),
    }
}

/// How long the paused CPU is measured: one 10 ms tick is 0.033% of it.
const PAUSED_SPAN: Duration = Duration::from_secs(30);

fn paused_cpu() -> Option<(Duration, Duration)> {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::io::{Read, Write};
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 50,
            cols: 120,
            pixel_width: 0,
            pixel_height: 0,
        })
        .ok()?;
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_kxo-tui"));
    cmd.args(["--delay", "0", "--o", "mcts", "--x", "mcts"]);
    cmd.env("TERM", "xterm-256color");
    cmd.env("XDG_DATA_HOME", std::env::temp_dir());
    let mut child = pair.slave.spawn_command(cmd).ok()?;
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().ok()?;
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while matches!(reader.read(&mut buf), Ok(n) if n > 0) {}
    });
    let mut writer = pair.master.take_writer().ok()?;
    let pid = child.process_id()?;
    std::thread::sleep(Duration::from_secs(1));
    writer.write_all(b"\x10").ok()?; // Ctrl-P
    writer.flush().ok()?;
    std::thread::sleep(Duration::from_millis(500));
    let (cpu0, t0) = (common::process_cpu(pid)?, Instant::now());
    std::thread::sleep(PAUSED_SPAN);
    let (cpu1, t1) = (common::process_cpu(pid)?, Instant::now());
    writer.write_all(b"\x11").ok()?; // Ctrl-Q
    writer.flush().ok()?;
    let _ = child.wait();
    Some((cpu1 - cpu0, t1 - t0))
}
