//! A soak run of the real binary (not in CI): the live screen with the
//! defaults at `--delay 0` (or the arguments of `SOAK_ARGS`) in a
//! pseudo-terminal for `SOAK_MINUTES` minutes (default 30), its resident
//! memory sampled every minute, then paused for 30 s to measure the CPU
//! it uses paused.
//!
//! Run: `SOAK_MINUTES=30 cargo bench --bench soak`, or
//! `SOAK_ARGS="--games 36 --size 20 --goal 5" cargo bench --bench soak`.

mod common;

use common::process_cpu as cpu;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// A field of `/proc/PID/status` in kB (e.g. `VmRSS`).
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let minutes: u64 = std::env::var("SOAK_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(30);
    let data = std::env::temp_dir().join(format!("kxo-soak-{}", std::process::id()));
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 60,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pty");
    let args = std::env::var("SOAK_ARGS").unwrap_or_else(|_| "--delay 0".into());
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_kxo-tui"));
    cmd.args(args.split_whitespace());
    cmd.env("TERM", "xterm-256color");
    cmd.env("XDG_DATA_HOME", &data);
    let mut child = pair.slave.spawn_command(cmd).expect("start kxo-tui");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().expect("pty reader");
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while matches!(reader.read(&mut buf), Ok(n) if n > 0) {}
    });
    let mut writer = pair.master.take_writer().expect("pty writer");
    let pid = child.process_id().expect("pid");
    let started = Instant::now();
    std::thread::sleep(Duration::from_secs(30));
    let first = status_kb(pid, "VmRSS").unwrap_or(0);
    println!("soak: kxo-tui {args} at 200x60 for {minutes} min; RSS after 30 s: {first} kB");
    let mut peak = first;
    for minute in 1..=minutes {
        let next = started + Duration::from_secs(30 + 60 * minute);
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
        let rss = status_kb(pid, "VmRSS").unwrap_or(0);
        peak = peak.max(rss);
        println!("  minute {minute:>3}: RSS {rss} kB");
    }
    let last = status_kb(pid, "VmRSS").unwrap_or(0);
    let busy = cpu(pid).unwrap_or_default();
    writer.write_all(b"\x10").expect("Ctrl-P"); // pause
    writer.flush().expect("flush");
    std::thread::sleep(Duration::from_millis(500));
    let (cpu0, t0) = (cpu(pid).unwrap_or_default(), Instant::now());
    std::thread::sleep(Duration::from_secs(30));
    let (cpu1, t1) = (cpu(pid).unwrap_or_default(), Instant::now());
    writer.write_all(b"\x11").expect("Ctrl-Q"); // quit
    writer.flush().expect("flush");
    let status = child.wait().expect("exit");
    let _ = std::fs::remove_dir_all(&data);
    let paused = (cpu1 - cpu0).as_secs_f64() / (t1 - t0).as_secs_f64();
    println!(
        "RSS: {first} kB after 30 s, {last} kB at the end, {peak} kB at the most ({:+.1}%)",
        100.0 * (last as f64 - first as f64) / first.max(1) as f64
    );
    println!(
        "CPU: {:.0} s over the run ({:.0}% of a core); paused {:.3}% of a core over 30 s; exit {}",
        busy.as_secs_f64(),
        100.0 * busy.as_secs_f64() / (30.0 + 60.0 * minutes as f64),
        100.0 * paused,
        status.exit_code()
    );
}
