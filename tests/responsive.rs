//! The live screen stays responsive while an outside brain thinks: the
//! brain is held by the test (it answers once a file exists), so every key
//! below is handled while its move is outstanding, whatever the machine's
//! load. The latency itself is a figure of BENCHMARKS.md, not of a test.

mod common;

use std::time::Duration;

use common::{CTRL_Q, Session, gomoku_args};

const T: Duration = Duration::from_secs(10);

#[test]
fn the_live_screen_stays_responsive_while_a_brain_thinks() {
    let brain = format!("brain:{}", common::brain_script("slow.sh"));
    let dir = tempfile::tempdir().unwrap();
    let gate = dir.path().join("answer");
    let gate_path = gate.to_str().unwrap();
    let mut s = Session::start(
        &gomoku_args(
            &["--games", "1"],
            &brain,
            "random",
            &["--think-ms", "600000", "--delay", "0"],
        ),
        120,
        40,
        &[("SLOW_BRAIN_MS", "0"), ("SLOW_UNTIL", gate_path)],
    );
    s.wait_for("Game-1", T);
    // The brain holds its move. Meanwhile the help opens and closes, four
    // times, and no move has landed.
    for _ in 0..4 {
        s.send(b"?");
        s.wait_for(" Keys ", T);
        s.send(b"?");
        s.wait_until("the help to close", T, |sc| !sc.contains(" Keys "));
    }
    let screen = s.screen();
    assert!(!screen.contains("slow brain plays"), "{screen}");
    std::fs::write(&gate, b"").unwrap();
    // Its first move lands, and its MESSAGE shows in the Records tab.
    s.wait_for("O says: slow brain plays ", T);
    s.send(CTRL_Q);
    assert_eq!(s.wait_exit(T), 0);
    assert!(!s.alternate_screen());
}
