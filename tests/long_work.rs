//! Signals during long work (issue 69, 7): a command stops at once, in
//! the middle of what takes longest, and keeps what it did.

mod common;

use std::fs;
use std::time::Duration;

/// Whether process `pid` has ended (a zombie not yet waited for keeps
/// its final CPU times in /proc).
fn ended(pid: i32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    stat.rsplit_once(')')
        .is_none_or(|(_, rest)| rest.trim_start().starts_with('Z'))
}

// 7. Signals during long work: `train` on 5x5 with four spends most of
// its time measuring its curve with the solver; a Ctrl-C there ends the
// measure, and the model is saved without another one.
#[test]
fn ctrl_c_in_the_middle_of_trains_measure_saves_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("m.model");
    let args = [
        "train",
        "--size",
        "5",
        "--goal",
        "4",
        "--episodes",
        "100000",
        "--model",
        model.to_str().unwrap(),
    ];
    let run = common::Running::start(&args, &[]);
    let pid = run.pid();
    // Well into the first measure (it takes about a minute of CPU).
    while common::cpu_of(pid as u32) < Duration::from_millis(500) {
        assert!(!ended(pid), "train ended by itself");
        std::thread::sleep(Duration::from_millis(10));
    }
    let at_signal = common::cpu_of(pid as u32);
    run.signal(libc::SIGINT);
    while !ended(pid) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let after = common::cpu_of(pid as u32).saturating_sub(at_signal);
    let (code, out, err) = run.wait(Duration::from_secs(60));
    assert_eq!(code, Some(130), "{out}{err}");
    assert!(
        after < Duration::from_secs(1),
        "{after:?} of CPU after Ctrl-C"
    );
    assert!(out.contains("stopped by a signal"), "{out}");
    assert!(fs::metadata(&model).is_ok_and(|m| m.len() > 0), "no model");
}
