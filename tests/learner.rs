//! The learning player from the command line: `train` saves a model and
//! its curve, the live screen and `arena` learn online and save, a model
//! in use or refused is left alone, Ctrl-C keeps what was learned.

mod common;

use std::process::Command;

use common::kxo;

fn load_model(path: &std::path::Path) -> kxo_engine::learner::ValueTable {
    load_model_of(path, 4, 3)
}

fn load_model_of(path: &std::path::Path, size: u8, goal: u8) -> kxo_engine::learner::ValueTable {
    let rules = kxo_engine::Rules::new(size, goal).expect("rules");
    kxo_tui::model::load(path, rules)
        .expect("a readable model")
        .expect("a model file")
}

#[test]
fn online_learning_never_saves_a_model_that_plays_worse() {
    use kxo_engine::learner::{Init, ValueTable};
    let dir = tempfile::tempdir().unwrap();
    let rules = kxo_engine::Rules::default_rules();
    // A model that says it keeps the value in every sampled position, but
    // knows nothing: what an arena run learns leaves it far below that.
    let path = dir.path().join("proud.model");
    let mut t = ValueTable::with_init(rules, Init::Zero);
    t.accuracy = Some(1.0);
    kxo_tui::model::save(&t, &path).unwrap();
    let before = std::fs::read(&path).unwrap();
    let p = path.to_str().unwrap();
    let args = [
        "arena", "--o", "rl", "--x", "random", "--games", "30", "--seed", "1", "--model", p,
    ];
    let (code, _, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("model not saved") && err.contains("100.0%"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the model was changed"
    );
    // The same run against a model that claims less is saved, with the
    // accuracy it measured.
    t.accuracy = Some(0.5);
    kxo_tui::model::save(&t, &path).unwrap();
    let (code, _, err) = kxo(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("model saved") && err.contains("accuracy"),
        "{err}"
    );
    let saved = load_model(&path);
    assert_eq!(saved.games, 30);
    assert!(
        saved.accuracy.is_some_and(|a| a > 0.5 && a < 1.0),
        "{:?}",
        saved.accuracy
    );
}

#[test]
fn a_model_in_use_by_another_process_is_not_saved_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.model");
    let p = path.to_str().unwrap();
    let (code, _, err) = kxo(&["train", "--episodes", "500", "--model", p, "--seed", "1"]);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(&path).unwrap();
    // This test holds the model, as a running train or live screen would.
    let held = kxo_tui::model::lock(&path).unwrap();
    assert!(held.is_some());
    let (code, _, err) = kxo(&[
        "arena", "--o", "rl", "--x", "random", "--games", "20", "--model", p,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("is in use by another kxo-tui"), "{err}");
    assert!(err.contains("model not saved"), "{err}");
    let (code, out, err) = kxo(&["train", "--episodes", "300", "--model", p]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("not saved") && out.contains("trained 300"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the model was saved over"
    );
    // Once it is free, learning is saved again.
    drop(held);
    let (code, _, _) = kxo(&["train", "--episodes", "300", "--model", p]);
    assert_eq!(code, 0);
    assert_eq!(load_model(&path).games, 800);
}

#[test]
fn train_saves_a_model_and_prints_the_curve() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.model");
    let p = path.to_str().unwrap();
    let (code, out, err) = kxo(&["train", "--episodes", "3000", "--model", p, "--seed", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("trained 3000 episodes"), "{out}");
    assert!(
        out.contains("learning curve") && out.contains("as X") && out.contains("sample"),
        "{out}"
    );
    assert_eq!(load_model(&path).games, 3000);
    // Training again goes on from there.
    let (code, _, _) = kxo(&["train", "--episodes", "1000", "--model", p]);
    assert_eq!(code, 0);
    assert_eq!(load_model(&path).games, 4000);
}

#[test]
fn above_8x8_train_learns_line_patterns_and_negamax_can_evaluate_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m15.model");
    let p = path.to_str().unwrap();
    let gomoku = ["--size", "15", "--goal", "5"];
    let learned = [
        "--engine",
        "l=negamax:eval=learned,think-ms=5",
        "--engine",
        "s=negamax:think-ms=5",
    ];
    // Before there is a model, Negamax cannot evaluate with it.
    let arena: Vec<&str> = ["arena", "--games", "2", "--model", p]
        .into_iter()
        .chain(gomoku)
        .chain(learned)
        .collect();
    let (code, _, err) = kxo(&arena);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("train one first"), "{err}");
    let train: Vec<&str> = ["train", "--episodes", "400", "--seed", "2", "--model", p]
        .into_iter()
        .chain(gomoku)
        .collect();
    let (code, out, err) = kxo(&train);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("trained 400 episodes"), "{out}");
    assert!(
        out.contains("pattern weights") && out.contains("against Negamax"),
        "{out}"
    );
    // The curve: a row for the start and for each tenth.
    assert_eq!(out.lines().filter(|l| l.contains('%')).count(), 11, "{out}");
    assert_eq!(load_model_of(&path, 15, 5).games, 400);
    // Half the games against the yardstick instead: learned all the same.
    let (code, out, err) = kxo(&[
        "train",
        "--episodes",
        "40",
        "--against",
        "negamax",
        "--model",
        p,
        "--size",
        "15",
        "--goal",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("trained 40 episodes"), "{out}");
    assert!(err.contains("half of them against the yardstick"), "{err}");
    assert_eq!(load_model_of(&path, 15, 5).games, 440);
    // The learner plays (and learns) in arena on 15x15...
    let (code, _, err) = kxo(&[
        "arena", "--o", "rl", "--x", "random", "--games", "4", "--model", p, "--size", "15",
        "--goal", "5", "--seed", "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(load_model_of(&path, 15, 5).games, 444);
    // ... and Negamax evaluates with its weights.
    let (code, out, err) = kxo(&arena);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 games of 2"), "{out}");
    // A model of line patterns is not a solver's to judge.
    let (code, _, err) = kxo(&["eval", "--model", p, "--size", "15", "--goal", "5"]);
    assert_eq!(code, 2);
    assert!(err.contains("arena"), "{err}");
}

#[test]
fn a_bad_model_file_is_refused_everywhere_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.model");
    let bytes = b"KXORL\0 but then nonsense".to_vec();
    std::fs::write(&path, &bytes).unwrap();
    let p = path.to_str().unwrap();
    for args in [
        vec!["train", "--episodes", "10", "--model", p],
        vec![
            "arena", "--o", "rl", "--x", "random", "--games", "2", "--model", p,
        ],
        vec!["--o", "rl", "--model", p],
    ] {
        let (code, out, err) = kxo(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains(p), "the message names the file: {err}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{args:?} changed the file"
        );
    }
}

#[test]
fn arena_learns_online_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.model");
    let p = path.to_str().unwrap();
    let (code, _, err) = kxo(&[
        "arena", "--o", "rl", "--x", "random", "--games", "50", "--model", p, "--seed", "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("model saved"), "{err}");
    let t = load_model(&path);
    assert_eq!(t.games, 50);
    assert!(!t.is_empty());
}

#[test]
fn ctrl_c_stops_training_and_keeps_what_it_learned() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.model");
    let child = Command::new(env!("CARGO_BIN_EXE_kxo-tui"))
        .args([
            "train",
            "--episodes",
            "1000000000",
            "--model",
            path.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start training");
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    // The shell's status for SIGINT, after the curve so far.
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("stopped after"), "{stdout}");
    let games = load_model(&path).games;
    assert!(games > 0 && games < 1_000_000_000, "{games}");
}
