//! `solve --proof`: the proof is written after the whole solve, so its
//! path is checked before it and its time is bounded with the solve's.

mod common;

use std::time::Duration;

/// `kxo-tui solve` with `args`, measured (its CPU is what a test bounds).
fn solve(args: &[&str]) -> common::Run {
    let args: Vec<&str> = std::iter::once("solve")
        .chain(args.iter().copied())
        .collect();
    common::run_measured(&args, b"", Duration::from_secs(120))
}

#[test]
fn a_proof_that_takes_too_long_stops_at_the_timeout() {
    // (7,7,5) after D4 C3 solves in milliseconds, but its proof takes
    // seconds: the timeout bounds the whole command, the proof included,
    // and nothing half-written is left.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("seven.proof");
    let run = solve(&[
        "--size",
        "7",
        "--goal",
        "5",
        "--moves",
        "D4,C3",
        "--timeout",
        "0.5",
        "--proof",
        path.to_str().unwrap(),
    ]);
    let (code, out, err) = (
        run.code,
        String::from_utf8_lossy(&run.out).into_owned(),
        String::from_utf8_lossy(&run.err).into_owned(),
    );
    // Its CPU, not its wall time: the whole proof takes 3.5 s of CPU here,
    // half a second's timeout far less.
    assert!(run.cpu < Duration::from_secs(2), "{:?} of CPU", run.cpu);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("draw"), "{out}");
    assert!(err.contains("proof not written"), "{err}");
    assert!(!path.exists());
}

#[test]
fn a_proof_path_that_cannot_be_written_fails_before_the_solve() {
    // 5x5 with four takes half a minute of CPU and the proof is written
    // after it: a path it cannot go to fails first, within a second's CPU.
    let dir = tempfile::tempdir().unwrap();
    let not_ours = dir.path().join("notes.txt");
    std::fs::write(&not_ours, b"someone's notes\n").unwrap();
    let missing = dir.path().join("missing").join("p.txt");
    for (path, says) in [(&missing, "does not exist"), (&not_ours, "not overwritten")] {
        let run = solve(&[
            "--size",
            "5",
            "--goal",
            "4",
            "--proof",
            path.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&run.err);
        assert_eq!(run.code, 2, "{err}");
        assert!(err.contains(says), "{err}");
        assert!(run.cpu < Duration::from_secs(1), "{:?} of CPU", run.cpu);
    }
    // Nothing left beside them, the notes as they were.
    assert_eq!(std::fs::read(&not_ours).unwrap(), b"someone's notes\n");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
