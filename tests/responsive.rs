//! The live screen stays responsive while an outside brain thinks: one
//! test, in a binary of its own, so no other test's processes compete for
//! the CPU while it measures.

mod common;

use std::time::{Duration, Instant};

use common::{CTRL_Q, Session};

const T: Duration = Duration::from_secs(10);

#[test]
fn the_live_screen_stays_responsive_while_a_brain_thinks() {
    let brain = format!("brain:{}", common::brain_script("slow.sh"));
    let mut s = Session::start(
        &[
            "--games",
            "1",
            "--size",
            "15",
            "--goal",
            "5",
            "--o",
            &brain,
            "--x",
            "random",
            "--think-ms",
            "5000",
            "--delay",
            "0",
        ],
        120,
        40,
        &[("SLOW_BRAIN_MS", "2500")],
    );
    s.wait_for("Game-1", T);
    // The brain takes 2.5 s a move. Meanwhile the help opens and closes at
    // once, each time.
    let mut latencies = Vec::new();
    for _ in 0..4 {
        let start = Instant::now();
        s.send(b"?");
        s.wait_for(" Keys ", T);
        latencies.push(start.elapsed());
        let start = Instant::now();
        s.send(b"?");
        s.wait_until("the help to close", T, |sc| !sc.contains(" Keys "));
        latencies.push(start.elapsed());
    }
    latencies.sort();
    let median = latencies[latencies.len() / 2];
    assert!(median < Duration::from_millis(100), "{latencies:?}");
    // Its first move lands, and its MESSAGE shows in the Records tab.
    s.wait_for("O says: slow brain plays ", T);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen());
}
