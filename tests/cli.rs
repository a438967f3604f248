//! The binary's headless commands, run as a user would.

mod common;

use common::{json, kxo, words};

/// Every option that takes a value, in every command, read with "-1"
/// and with a number beyond any type's limit: the option's own check
/// answers (or takes it), never "unexpected argument '-1'", which names
/// no option, nor a parser's words that do not say what it wants.
/// Enumerated from the definition, so a new option joins the test.
#[test]
fn a_negative_number_is_an_options_value_everywhere() {
    fn walk(command: &clap::Command, path: &mut Vec<String>, checked: &mut usize) {
        for arg in command.get_arguments() {
            let Some(long) = arg.get_long() else { continue };
            if !arg.get_action().takes_values() {
                continue;
            }
            for value in ["-1", "99999999999999999999999"] {
                let mut argv = vec!["kxo-tui".to_string()];
                argv.extend(path.iter().cloned());
                argv.extend([format!("--{long}"), value.to_string()]);
                if let Err(e) = kxo_tui::cli::command().try_get_matches_from(&argv) {
                    assert_ne!(
                        e.kind(),
                        clap::error::ErrorKind::UnknownArgument,
                        "{argv:?}: {e}"
                    );
                    // A number's check says what it wants, in words: not the
                    // standard library's "invalid digit found in string" or
                    // "number too large to fit in target type", nor clap's
                    // "-1 is not in 1..=36".
                    let said = e.to_string();
                    assert!(
                        !said.contains("invalid digit")
                            && !said.contains("too large")
                            && !said.contains("..="),
                        "{argv:?}: {said}"
                    );
                }
            }
            *checked += 1;
        }
        for sub in command.get_subcommands() {
            path.push(sub.get_name().to_string());
            walk(sub, path, checked);
            path.pop();
        }
    }
    let mut checked = 0;
    walk(&kxo_tui::cli::command(), &mut Vec::new(), &mut checked);
    assert!(checked > 20, "only {checked} options read");
    let err = kxo_tui::cli::command()
        .try_get_matches_from(["kxo-tui", "solve", "--timeout", "-1"])
        .unwrap_err();
    let line = kxo_tui::cli::one_line_error(&err.render().to_string());
    assert!(
        line.contains("'-1' is not a number of seconds: use more than 0"),
        "{line}"
    );
}

#[test]
fn solve_json_has_the_documented_keys() {
    let (code, out, _) = kxo(&["solve", "--goal", "4", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["size"], 4);
    assert_eq!(v["goal"], 4);
    assert_eq!(v["value"], "draw");
    assert_eq!(v["plies"], 16);
    assert!(v["best_move"].as_str().is_some());
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["ms"].as_f64().is_some());
}

#[test]
fn solve_from_given_moves() {
    let (code, out, _) = kxo(&["solve", "--size", "3", "--moves", "A1,B2,C3", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["value"], "draw");
    let (code, out, _) = kxo(&["solve", "--moves", "b2,a1,c2,d4,b4"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("the first player (O) wins in 2 plies"),
        "{out}"
    );
    // The same game as the screen shows it, copied from the records tab
    // or the zoom (pairs held by non-breaking spaces): the same answer.
    for record in [
        "B2 → A1 → C2 → D4 → B4",
        "1.\u{a0}B2\u{a0}A1   2.\u{a0}C2\u{a0}D4   3.\u{a0}B4",
    ] {
        let (code, copied, err) = kxo(&["solve", "--moves", record]);
        assert_eq!(code, 0, "{record}: {err}");
        // Every line but the time it took.
        let untimed = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.starts_with("time:"))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(untimed(&copied), untimed(&out), "{record}");
        assert!(copied.contains("best move: A2"), "{copied}");
    }
}

#[test]
fn beyond_8x8_solve_settles_a_win_by_threats_and_else_says_what_it_expects() {
    // Gomoku, O to move with an open three: a win by fours, a proof.
    let moves = "H8,A1,I8,A3,J8,A5";
    let (code, out, err) = kxo(&["solve", "--gomoku", "--moves", moves, "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v = json(&out);
    assert_eq!(v["value"], "first", "{out}");
    assert_eq!(v["plies"], 3, "{out}");
    assert!(
        v["note"]
            .as_str()
            .unwrap_or("")
            .contains("proved by threats"),
        "{out}"
    );
    // X to move against the open three: the search sees X lose, but only
    // over the replies it read: unsettled, and it says what it expects.
    let (code, out, err) = kxo(&words(
        "solve --gomoku --timeout 1.5 --moves H8,A1,I8,A3,J8",
    ));
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("value:     unsettled"), "{out}");
    assert!(out.contains("it sees a loss in"), "{out}");
    assert!(out.contains("not a proof"), "{out}");
    // The time allowed as it was given, not rounded to a whole second.
    assert!(out.contains("of the 1.5 s allowed"), "{out}");
}

#[test]
fn a_solve_that_runs_out_of_time_says_so_and_exits_3() {
    // (8,8,5) is far beyond a second ((7,7,5) no longer is).
    let run = common::run_measured(
        &["solve", "--timeout", "1", "--size", "8", "--goal", "5"],
        b"",
        std::time::Duration::from_secs(60),
    );
    let (code, out, err) = (
        run.code,
        String::from_utf8_lossy(&run.out).to_string(),
        String::from_utf8_lossy(&run.err).to_string(),
    );
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        out.contains("unsettled: the time ran out before the search ended"),
        "{out}"
    );
    // The search stops at its second: its CPU says so, whatever else
    // the machine runs meanwhile.
    assert!(
        run.cpu < std::time::Duration::from_secs(2),
        "{:?} CPU",
        run.cpu
    );
    let (code, out, _) = kxo(&words("solve --timeout 0.2 --size 8 --goal 5 --json"));
    assert_eq!(code, 3);
    let v = json(&out);
    assert!(v["value"].is_null(), "{out}");
    assert_eq!(v["unsettled"], "timeout");
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn solve_settles_five_by_five_four_in_a_row() {
    let (code, out, _) = kxo(&["solve", "--size", "5", "--goal", "4", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["value"], "draw");
}

#[test]
fn arena_gives_the_same_results_on_any_number_of_threads() {
    let run = |jobs: &str| {
        let (code, out, err) = kxo(&[
            "arena",
            "--o",
            "mcts",
            "--x",
            "mcts",
            "--games",
            "40",
            "--seed",
            "7",
            "--mcts-iterations",
            "300",
            "--jobs",
            jobs,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let mut v = json(&out);
        // Everything but the time per move, which a busy machine changes.
        for standing in v["ranking"].as_array_mut().unwrap() {
            standing["ms_per_move"] = 0.into();
            standing["cpu_ms_per_move"] = 0.into();
        }
        v
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
    assert_eq!(one["games"], 40);
}

#[test]
fn arena_json_is_reproducible_with_a_seed() {
    let args = [
        "arena",
        "--o",
        "mcts",
        "--x",
        "random",
        "--games",
        "20",
        "--seed",
        "7",
        "--mcts-iterations",
        "300",
        "--json",
    ];
    let (code, a, _) = kxo(&args);
    assert_eq!(code, 0);
    let (_, b, _) = kxo(&args);
    let (a, b) = (json(&a), json(&b));
    for key in [
        "games",
        "first_wins",
        "second_wins",
        "draws",
        "pairings",
        "crosstable",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
    assert_eq!(a["games"], 20);
    let total = a["first_wins"].as_u64().unwrap()
        + a["second_wins"].as_u64().unwrap()
        + a["draws"].as_u64().unwrap();
    assert_eq!(total, 20);
    let pairing = &a["pairings"][0];
    assert_eq!(
        (&pairing["a"], &pairing["b"]),
        (&"mcts".into(), &"random".into())
    );
    for standing in a["ranking"].as_array().unwrap() {
        assert_eq!(standing["games"], 20);
        assert!(standing["ms_per_move"].as_f64().is_some());
    }
}

#[test]
fn arena_text_reports_every_figure() {
    let (code, out, err) = kxo(&[
        "arena", "--o", "random", "--x", "random", "--games", "200", "--seed", "1",
    ]);
    assert_eq!(code, 0, "{err}");
    for needle in [
        "first player (O) wins",
        "second player (X) wins",
        "draws",
        "ms/move",
        "cpu ms",
        "F/T",
        "Elo difference",
        "95% interval",
        "[LL LD DD/WL WD WW]",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in {out}");
    }
    // No progress bar off a terminal.
    assert!(err.is_empty(), "{err}");
}

#[test]
fn a_run_logged_to_a_file_prints_a_progress_line_every_n_games() {
    let (code, _, err) = kxo(&words(
        "arena --o random --x random --games 200 --seed 1 --progress 50",
    ));
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 4, "{err}");
    for (line, done) in lines.iter().zip([50, 100, 150, 200]) {
        assert!(line.starts_with(&format!("{done}/200 games  O ")), "{err}");
    }
}

#[test]
fn the_gomoku_preset_plays_fifteen_by_fifteen_with_five_and_psq_records() {
    let dir = tempfile::tempdir().unwrap();
    let records = dir.path().join("records");
    let records_arg = records.display().to_string();
    let (code, out, err) = kxo(&[
        "arena",
        "--gomoku",
        "--o",
        "random",
        "--x",
        "random",
        "--games",
        "2",
        "--records",
        &records_arg,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report = json(&out);
    assert_eq!(
        (report["size"].as_u64(), report["goal"].as_u64()),
        (Some(15), Some(5))
    );
    assert_eq!(report["openings"], "random");
    let psq = std::fs::read_to_string(records.join("game-0001.psq")).unwrap();
    assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n"), "{psq}");
    assert!(records.join("game-0001.sgf").exists());
    let (code, _, err) = kxo(&["arena", "--gomoku", "--goal", "4"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bad_input_gets_one_line_and_status_two() {
    let cases: &[&[&str]] = &[
        &["arena", "--o", "chess"],
        &["arena", "--x", ""],
        &["solve", "--size", "21"],
        &["solve", "--size", "15", "--goal", "9"],
        &["solve", "--size", "15", "--goal", "5", "--moves", "P1"],
        &["eval", "--size", "20", "--goal", "5"],
        &["brain", "--engine", "mcts", "--eval", "learned"],
        &["train", "--against", "negamax"],
        &["train", "--size", "15", "--goal", "5", "--against", "rapfi"],
        &["brain", "--eval", "deep"],
        &["gtp", "--engine", "negamax"],
        &["gtp", "--engine", "gtp:/bin/cat"],
        &["gtp", "--think-ms", "0"],
        &["gtp", "--bogus"],
        &["arena", "--go", "9", "--x", "brain:/bin/cat"],
        &[
            "arena",
            "--size",
            "15",
            "--goal",
            "5",
            "--x",
            "gtp:/bin/cat",
        ],
        &[
            "--size",
            "15",
            "--goal",
            "5",
            "--engine",
            "a=negamax:eval=learned",
            "--engine",
            "b=mcts",
            "--model",
            "/nonexistent/m.model",
        ],
        &[
            "arena",
            "--engine",
            "a=negamax:eval=learned",
            "--engine",
            "b=mcts",
        ],
        &[
            "train",
            "--size",
            "15",
            "--goal",
            "5",
            "--init",
            "heuristic",
        ],
        &[
            "arena",
            "--engine",
            "a=negamax:eval=clever",
            "--engine",
            "b=mcts",
        ],
        &[
            "arena",
            "--engine",
            "a=mcts:eval=learned",
            "--engine",
            "b=negamax",
        ],
        &["solve", "--size", "2"],
        &["solve", "--goal", "5"],
        &["solve", "--goal", "2"],
        &["solve", "--moves", "B2,,C3"],
        &[
            "solve",
            "--size",
            "15",
            "--goal",
            "5",
            "--proof",
            "/tmp/never-written.proof",
        ],
        &["solve", "--moves", "B2,B2"],
        &["solve", "--moves", "Z9"],
        &["solve", "--moves", "A1,A2,B1,B2,C1"],
        &["solve", "--moves", "A1,A2,B1,B2,C1,D4"],
        &["solve", "--timeout", "0"],
        &["solve", "--timeout", "soon"],
        &["solve", "--hash", "0"],
        &["solve", "--hash", "lots"],
        &["arena", "--think-ms", "5", "--mcts-iterations", "9"],
        &["arena", "--games", "0"],
        &["arena", "--jobs", "0"],
        &["arena", "--jobs", "many"],
        &["frobnicate"],
        // The live screen's flags are checked before it touches the terminal.
        &["--games", "0"],
        &["--games", "37"],
        &["--fps", "0"],
        &["--delay", "-5"],
        &["--o", "chess"],
        &["--size", "4", "--goal", "5"],
        &["--think-ms", "0"],
    ];
    for args in cases {
        let (code, out, err) = kxo(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error:"), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_gomoku_game_of_mcts_against_negamax_plays_to_the_end() {
    let (code, out, err) = kxo(&words(
        "arena --size 15 --goal 5 --o mcts --x negamax --games 2 --think-ms 20 --seed 5 --json",
    ));
    assert_eq!(code, 0, "{err}");
    let report = json(&out);
    let (o, x, d) = (
        report["first_wins"].as_u64().unwrap(),
        report["second_wins"].as_u64().unwrap(),
        report["draws"].as_u64().unwrap(),
    );
    assert_eq!(o + x + d, 2, "{out}");
    assert_eq!(report["games"], 2, "{out}");
}

#[test]
fn headless_slips_stay_fixed() {
    // solve --json: milliseconds to the microsecond, no float noise.
    let (_, out, _) = kxo(&["solve", "--size", "3", "--json"]);
    let ms_line = out.lines().find(|l| l.contains("\"ms\"")).unwrap();
    let digits = ms_line
        .trim()
        .trim_end_matches(',')
        .rsplit('.')
        .next()
        .unwrap();
    assert!(digits.len() <= 3, "{ms_line}");

    // arena: the Elo interval as its two bounds; an all-draw run is 0, not -0.
    let (_, out, _) = kxo(&[
        "arena", "--size", "3", "--o", "negamax", "--x", "negamax", "--games", "4", "--json",
    ]);
    let report = json(&out);
    assert_eq!(report["draws"], 4);
    for key in ["elo", "elo_lo", "elo_hi"] {
        assert_eq!(
            report["pairings"][0][key].as_f64(),
            Some(0.0),
            "{key}: {out}"
        );
        assert_eq!(
            report["ranking"][0][key].as_f64(),
            Some(0.0),
            "{key}: {out}"
        );
    }
    assert!(!out.contains("-0.0"), "{out}");
    let (_, text, _) = kxo(&[
        "arena", "--size", "3", "--o", "negamax", "--x", "negamax", "--games", "4",
    ]);
    assert!(!text.contains("-0"), "{text}");
    let (_, out, _) = kxo(&words(
        "arena --o mcts --x random --games 40 --mcts-iterations 20 --seed 3 --json",
    ));
    let r = &json(&out)["pairings"][0];
    if let (Some(d), Some(lo), Some(hi)) = (
        r["elo"].as_f64(),
        r["elo_lo"].as_f64(),
        r["elo_hi"].as_f64(),
    ) {
        assert!(lo < d && d < hi, "{out}");
    }

    // train: a whole number of episodes a second, with separators.
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("t.model");
    let model_arg = model.display().to_string();
    let (code, out, err) = kxo(&[
        "train",
        "--size",
        "3",
        "--episodes",
        "2000",
        "--model",
        &model_arg,
    ]);
    assert_eq!(code, 0, "{err}");
    let rate = out
        .split('(')
        .nth(1)
        .and_then(|s| s.split(" episodes/s").next())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        !rate.is_empty() && rate.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{rate}"
    );

    // --model in a folder that does not exist: a clear error, no folder made.
    let missing = dir.path().join("no/such/dir/m.model");
    let missing_arg = missing.display().to_string();
    for args in [
        vec![
            "train",
            "--size",
            "3",
            "--episodes",
            "10",
            "--model",
            &missing_arg,
        ],
        vec![
            "arena",
            "--o",
            "rl",
            "--games",
            "1",
            "--model",
            &missing_arg,
        ],
    ] {
        let (code, _, err) = kxo(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("does not exist"), "{err}");
        assert!(!dir.path().join("no").exists());
    }
}

#[test]
fn help_ends_with_the_keys() {
    let (code, out, _) = kxo(&["--help"]);
    assert_eq!(code, 0);
    let keys_at = out.find("Keys on the live screen").expect("the keys");
    for binding in kxo_tui::app::keymap::KEYMAP {
        assert!(out[keys_at..].contains(binding.label), "{}", binding.label);
        assert!(out[keys_at..].contains(binding.help), "{}", binding.help);
    }
    // Nothing but keys after them: no option lines.
    assert!(
        !out[keys_at..]
            .lines()
            .any(|l| l.trim_start().starts_with('-')),
        "{}",
        &out[keys_at..]
    );
}

#[test]
fn bench_reports_the_cpu_the_kernels_and_every_figure() {
    let (code, out, err) = common::kxo_with(&["bench", "--json"], &[("KXO_KERNEL", "portable")]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["kernel"], "portable", "{out}");
    assert!(
        report["kernel_why"]
            .as_str()
            .unwrap_or("")
            .contains("KXO_KERNEL")
    );
    assert!(!report["cpu_vendor"].as_str().unwrap_or("").is_empty());
    let figures = report["figures"].as_array().expect("figures");
    for name in [
        "playouts 4x4 K=3",
        "playouts 5x5 K=4",
        "MCTS 4x4",
        "solve 4x4 K=3",
        "solve 4x4 K=4",
        "solve 5x5 K=4",
        "MCTS 15x15",
        "scheduler round trip",
        "bare corosensei",
    ] {
        let figure = figures
            .iter()
            .find(|f| f["name"].as_str().unwrap_or("").starts_with(name))
            .unwrap_or_else(|| panic!("no {name}: {out}"));
        let value = figure["value"].as_f64().expect("a number");
        assert!(value.is_finite() && value > 0.0, "{name}: {value}");
    }
    assert!(report["switch_ratio"].as_f64().is_some_and(|r| r > 1.0));
    // A wrong flag is refused like everywhere else.
    let (code, _, err) = common::kxo_with(&["bench", "--fast"], &[]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_checkpointed_solve_keeps_its_root_moves_and_resumes_from_them() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let file = path.to_str().unwrap();
    let base = ["solve", "--size", "4", "--goal", "4", "--json"];
    let (code, out, err) = kxo(&[&base[..], &["--checkpoint", file]].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(json(&out)["value"], "draw");
    // 4x4 has three classes of first moves: a corner, an edge, a centre cell.
    let kept = json(&std::fs::read_to_string(&path).unwrap());
    let settled = kept["settled"].as_array().unwrap().clone();
    assert_eq!(settled.len(), 3, "{kept}");
    // The first pass finds that O wins after none of them (its weak game
    // alone), the second, from the centre out, that X cannot win after
    // B2: a draw, which settles the root without the other two.
    let values: Vec<&str> = settled
        .iter()
        .map(|s| s["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["no win", "no win", "draw"], "{kept}");
    assert_eq!(settled[2]["move"], "B2");
    assert_eq!(err.matches("settled ").count(), 4, "{err}");
    // A checkpoint is not overwritten by a new run.
    let (code, _, err) = kxo(&[&base[..], &["--checkpoint", file]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--resume"), "{err}");
    // Cut to its first move, a resumed run settles only the other two in
    // the first pass, and B2 again in the second.
    let mut cut = kept.clone();
    cut["settled"] = serde_json::Value::Array(settled[..1].to_vec());
    std::fs::write(&path, cut.to_string()).unwrap();
    let (code, out, err) = kxo(&[&base[..], &["--resume", file]].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(json(&out)["value"], "draw");
    assert_eq!(err.matches("settled ").count(), 3, "{err}");
    assert!(!err.contains("settled A1"), "{err}");
    assert!(
        err.contains("settled B2: draw for O (3/3 root moves)"),
        "{err}"
    );
    // Another position, or no file: refused by name.
    let (code, _, err) = kxo(&[&base[..], &["--moves", "B2", "--resume", file]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another position"), "{err}");
    let missing = dir.path().join("none.json");
    let (code, _, err) = kxo(&[&base[..], &["--resume", missing.to_str().unwrap()]].concat());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no checkpoint"), "{err}");
    let (code, _, _) = kxo(&[&base[..], &["--resume", file, "--checkpoint", file]].concat());
    assert_eq!(code, 2);
    // A settled move that is not a first move of the position (a forged
    // "win") is refused, not trusted.
    let mut forged = kept.clone();
    forged["settled"][0]["move"] = "Z9\u{1b}[2J".into();
    forged["settled"][0]["value"] = "win".into();
    std::fs::write(&path, forged.to_string()).unwrap();
    let (code, out, err) = kxo(&[&base[..], &["--resume", file]].concat());
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("not a first move"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
}

/// The help names every built-in engine, read from the one list of kinds:
/// a kind added there is in `--help` with nothing else written.
#[test]
fn the_help_names_every_built_in_engine() {
    for args in [&["--help"][..], &["arena", "--help"]] {
        let (code, out, _) = kxo(args);
        assert_eq!(code, 0);
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        for kind in kxo_engine::BuiltIn::ALL {
            assert!(flat.contains(&kind.to_string()), "{args:?} lacks {kind}");
        }
        assert!(
            flat.contains(&kxo_engine::BuiltIn::names()),
            "{args:?}:\n{out}"
        );
    }
}
