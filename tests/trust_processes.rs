//! The trust harness's second half: processes and pipes as hostile as
//! files. Every command ends cleanly on SIGINT, SIGTERM and SIGHUP; a
//! killed arena takes its brains with it; a state file in use is refused;
//! kill -9 then resume keeps every game; a closed output ends a command
//! quietly; floods and managers that never read cost bounded memory; what
//! no run can hold is refused at once. (Files: `tests/trust.rs`.)

mod common;

use std::fs;
use std::time::Duration;

use common::{Running, gomoku_args, pid_in, run_env};

/// Whether process `pid` still runs (a zombie does not count).
fn alive(pid: i32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty()
        && !stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
}

/// Waits until `file` holds a number (a pid a test brain wrote).

#[test]
fn every_command_ends_cleanly_on_sigint_sigterm_and_sighup() {
    common::light_panics();
    let faulty = common::brain_script("faulty.sh");
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("m.model");
    let model_arg = model.display().to_string();
    let (code, _, err) =
        common::kxo_with(&["train", "--episodes", "200", "--model", &model_arg], &[]);
    assert_eq!(code, 0, "{err}");
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let pidfile = dir.path().join(format!("brain-{signal}.pid"));
        let pidfile_arg = pidfile.display().to_string();
        let state = dir.path().join(format!("run-{signal}.state"));
        let state_arg = state.display().to_string();
        let silent = format!("brain:{faulty} silent");
        // arena, with a brain thinking (it never answers; it has 30 s).
        let arena = Running::start(
            &gomoku_args(
                &["arena"],
                &silent,
                "random",
                &["--games", "4", "--think-ms", "30000", "--state", &state_arg],
            ),
            &[("FAULT_PIDFILE", &pidfile_arg)],
        );
        // The preflight's brain writes the file first; the game's after.
        std::thread::sleep(Duration::from_millis(1500));
        let brain = pid_in(&pidfile, Duration::from_secs(10));
        arena.signal(signal);
        let (code, out, err) = arena.wait(Duration::from_secs(10));
        assert_eq!(
            code,
            Some(128 + signal),
            "arena, signal {signal}: {out}{err}"
        );
        assert!(
            out.contains("games of 4"),
            "arena, signal {signal}: the report so far: {out}"
        );
        assert!(err.contains("goes on from its state file"), "{err}");
        assert!(
            !alive(brain),
            "arena, signal {signal}: brain {brain} left running"
        );
        // The state file is whole: the same command goes on from it.
        let text = fs::read_to_string(&state).expect("state");
        assert!(text.ends_with('\n') && text.lines().count() >= 1, "{text}");

        // kxo-tui brain and kxo-tui gtp, thinking for 30 s.
        for (server, engine, think) in [
            ("brain", "negamax", &b"START 15\r\nTURN 7,7\r\n"[..]),
            ("gtp", "mcts", &b"boardsize 9\ngenmove black\n"[..]),
        ] {
            let mut brain =
                Running::start(&[server, "--engine", engine, "--think-ms", "30000"], &[]);
            {
                use std::io::Write;
                let input = brain.child.stdin.as_mut().expect("stdin");
                input.write_all(think).expect("write");
            }
            std::thread::sleep(Duration::from_millis(700));
            brain.signal(signal);
            let (code, _, err) = brain.wait(Duration::from_secs(5));
            assert_eq!(code, Some(128 + signal), "{server}, signal {signal}: {err}");
        }

        // train, solve and eval: stopped, their result so far said.
        for (args, says) in [
            (
                vec![
                    "train",
                    "--episodes",
                    "1000000000",
                    "--model",
                    model_arg.as_str(),
                ],
                "stopped after",
            ),
            (vec!["solve", "--size", "8", "--goal", "5"], "interrupted"),
            (
                vec!["eval", "--games", "1000000", "--model", model_arg.as_str()],
                "nothing measured",
            ),
        ] {
            let run = Running::start(&args, &[]);
            std::thread::sleep(Duration::from_millis(1000));
            run.signal(signal);
            let (code, out, err) = run.wait(Duration::from_secs(10));
            assert_eq!(
                code,
                Some(128 + signal),
                "{args:?}, signal {signal}: {out}{err}"
            );
            assert!(format!("{out}{err}").contains(says), "{args:?}: {out}{err}");
        }
    }
}

#[test]
fn a_killed_arena_takes_its_brains_with_it() {
    common::light_panics();
    // SIGKILL leaves kxo-tui no say: the brains end by PR_SET_PDEATHSIG,
    // even one that stops reading and ignores every polite signal; a
    // Gomoku brain and a GTP engine alike.
    let dir = tempfile::tempdir().expect("temp dir");
    for (protocol, script, board) in [
        ("brain", "faulty.sh", ["--size", "15", "--goal", "5"]),
        ("gtp", "faulty_gtp.sh", ["--go", "9", "--komi", "7.5"]),
    ] {
        let pidfile = dir.path().join(format!("{protocol}.pid"));
        let pidfile_arg = pidfile.display().to_string();
        let stubborn = format!("{protocol}:{} stubborn", common::brain_script(script));
        let mut args = vec!["arena"];
        args.extend(board);
        args.extend([
            "--o",
            &stubborn,
            "--x",
            "random",
            "--games",
            "2",
            "--think-ms",
            "30000",
        ]);
        let arena = Running::start(&args, &[("FAULT_PIDFILE", &pidfile_arg)]);
        std::thread::sleep(Duration::from_millis(1500));
        let brain = pid_in(&pidfile, Duration::from_secs(10));
        assert!(alive(brain), "{protocol}");
        arena.signal(libc::SIGKILL);
        let _ = arena.wait(Duration::from_secs(5));
        let start = std::time::Instant::now();
        while alive(brain) && start.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            !alive(brain),
            "{protocol}: engine {brain} outlived its SIGKILLed manager"
        );
    }
}

#[test]
fn a_second_run_on_a_state_file_in_use_is_refused_by_name() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("shared.state");
    let state_arg = state.display().to_string();
    let args = [
        "arena", "--engine", "a=random", "--engine", "b=random", "--size", "3", "--goal", "3",
        "--games", "10000000", "--state", &state_arg,
    ];
    let first = Running::start(&args, &[]);
    std::thread::sleep(Duration::from_millis(800));
    let (code, out, err) = common::kxo_with(&args, &[]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("in use by another kxo-tui run") && err.contains("shared.state"),
        "{err}"
    );
    first.signal(libc::SIGINT);
    let (code, out, err) = first.wait(Duration::from_secs(10));
    assert_eq!(code, Some(130), "{err}");
    assert!(out.contains("games of 10000000"), "{out}");
    // The file is whole: every line a game (or the header), and a
    // resumed run reads it.
    let text = fs::read_to_string(&state).expect("state");
    assert!(text.ends_with('\n'), "the state ends mid-line");
    for line in text.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("a whole JSON line");
    }
}

#[test]
fn kill_9_in_the_middle_then_resume_keeps_every_game_and_every_record() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let state = dir.path().join("run.state");
    let records = dir.path().join("records");
    let (state_arg, records_arg) = (state.display().to_string(), records.display().to_string());
    let args = [
        "arena",
        "--engine",
        "a=mcts:iterations=200",
        "--engine",
        "b=random",
        "--size",
        "5",
        "--goal",
        "4",
        "--games",
        "600",
        "--jobs",
        "2",
        "--seed",
        "5",
        "--state",
        &state_arg,
        "--records",
        &records_arg,
        "--json",
    ];
    for round in 0..20 {
        let run = Running::start(&args, &[]);
        std::thread::sleep(Duration::from_millis(120 + 10 * round));
        run.signal(libc::SIGKILL);
        let _ = run.wait(Duration::from_secs(5));
    }
    let (code, out, err) = common::kxo_with(&args, &[]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(report["games"], 600, "{out}");
    // Every game the state holds has its record, whole.
    let text = fs::read_to_string(&state).expect("state");
    let games: Vec<u64> = text
        .lines()
        .skip(1)
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).expect("line")["game"]
                .as_u64()
                .expect("game")
        })
        .collect();
    assert!(games.len() >= 600, "{} lines", games.len());
    for game in games {
        let sgf = records.join(format!("game-{:04}.sgf", game + 1));
        let bytes = fs::read(&sgf).unwrap_or_default();
        assert!(
            bytes.starts_with(b"(;GM[4]"),
            "{} missing or empty",
            sgf.display()
        );
    }
}

#[test]
fn a_closed_output_ends_a_command_quietly() {
    common::light_panics();
    // `kxo-tui arena … 2>&1 | head -4`: both outputs closed early.
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("m.model").display().to_string();
    for args in [
        vec![
            "arena",
            "--games",
            "2",
            "--size",
            "5",
            "--goal",
            "4",
            "--o",
            "rl",
            "--model",
            model.as_str(),
        ],
        vec!["solve", "--size", "4", "--goal", "4"],
        vec!["train", "--episodes", "2000", "--model", model.as_str()],
        // The servers, asked something they answer.
        vec!["brain"],
        vec!["gtp"],
    ] {
        let mut child = std::process::Command::new(common::bin())
            .args(&args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start");
        // Nobody reads: close both pipes at once, then ask (twice: the
        // first answer may fit the pipe's buffer before it is seen shut).
        drop(child.stdout.take());
        drop(child.stderr.take());
        if let Some(mut input) = child.stdin.take() {
            use std::io::Write;
            let ask: &[u8] = if args[0] == "gtp" {
                b"name\n"
            } else {
                b"ABOUT\n"
            };
            let _ = input.write_all(ask);
            std::thread::sleep(Duration::from_millis(200));
            let _ = input.write_all(ask);
        }
        let status = child.wait().expect("wait");
        let code = status.code();
        let server = matches!(args[0], "brain" | "gtp");
        assert!(
            code == Some(141) || (code == Some(0) && !server),
            "{args:?}: {status:?} (101 is a panic, 1 an error said)"
        );
    }
}

#[test]
fn ten_million_games_run_in_flat_memory_and_ctrl_c_gives_the_result_so_far() {
    common::light_panics();
    let run = Running::start(
        &[
            "arena", "--engine", "a=random", "--engine", "b=random", "--size", "3", "--goal", "3",
            "--games", "10000000",
        ],
        &[],
    );
    // Thousands of games a second: memory read as they pile up.
    let mut peak: f64 = 0.0;
    for _ in 0..30 {
        std::thread::sleep(Duration::from_millis(100));
        peak = peak.max(run.rss_mib());
    }
    run.signal(libc::SIGINT);
    let (code, out, err) = run.wait(Duration::from_secs(10));
    assert_eq!(code, Some(130), "{err}");
    assert!(out.contains("games of 10000000"), "{out}");
    assert!(err.contains("stopped by SIGINT"), "{err}");
    assert!(peak > 0.0 && peak < 64.0, "peak {peak:.0} MiB");
}

/// The engine kxo-tui serves on standard input for each protocol, and a
/// command it answers at once: every test of a hostile controller runs on
/// all. A match without a wildcard: a new protocol does not compile until
/// it has its server here.
fn server_of(protocol: kxo_tui::protocol::outside::Protocol) -> (&'static str, &'static [u8]) {
    use kxo_tui::protocol::outside::Protocol;
    match protocol {
        Protocol::Gomoku => ("brain", b"ABOUT\n"),
        Protocol::Gtp => ("gtp", b"name\n"),
    }
}

/// Every server, as [`server_of`] names them.
fn servers() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    kxo_tui::protocol::outside::Protocol::ALL
        .into_iter()
        .map(server_of)
}

/// Writes `ask` to `input` over and over for `how_long` (or until the
/// pipe closes), on a thread of its own.
fn write_over_and_over(
    mut input: std::process::ChildStdin,
    ask: &'static [u8],
    how_long: Duration,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        use std::io::Write;
        let line = ask.repeat(1024);
        let start = std::time::Instant::now();
        while start.elapsed() < how_long && input.write_all(&line).is_ok() {}
    })
}

#[test]
fn a_manager_that_floods_or_never_reads_costs_the_brain_bounded_memory() {
    common::light_panics();
    for (server, ask) in servers() {
        // `yes ABOUT | kxo-tui brain > /dev/null`, for 5 s.
        let flood = Running::start(&[server], &[]);
        let mut flood = flood;
        let input = flood.child.stdin.take().expect("stdin");
        let output = flood.child.stdout.take().expect("stdout");
        let writer = write_over_and_over(input, ask, Duration::from_secs(5));
        let reader = std::thread::spawn(move || {
            let mut output = output;
            std::io::copy(&mut output, &mut std::io::sink()).unwrap_or(0)
        });
        let mut peak: f64 = 0.0;
        for _ in 0..45 {
            std::thread::sleep(Duration::from_millis(100));
            peak = peak.max(flood.rss_mib());
        }
        let _ = writer.join();
        drop(flood);
        let answered = reader.join().unwrap_or(0);
        assert!(answered > 0, "{server}: it answered the flood");
        assert!(peak < 64.0, "{server} flooded: {peak:.0} MiB");
        // A manager that writes and never reads what the brain answers.
        let mut deaf = Running::start(&[server], &[]);
        let input = deaf.child.stdin.take().expect("stdin");
        let writer = write_over_and_over(input, ask, Duration::from_secs(4));
        let mut peak: f64 = 0.0;
        for _ in 0..40 {
            std::thread::sleep(Duration::from_millis(100));
            peak = peak.max(deaf.rss_mib());
        }
        deaf.signal(libc::SIGTERM);
        let _ = writer.join();
        let (code, _, _) = deaf.wait(Duration::from_secs(5));
        assert_eq!(
            code,
            Some(143),
            "{server}: an engine blocked on its output ends on SIGTERM"
        );
        assert!(peak < 64.0, "{server} never read: {peak:.0} MiB");
    }
}

#[test]
fn what_no_run_can_hold_is_refused_at_once_in_little_memory() {
    common::light_panics();
    // Ten thousand engines, and a live tournament of three hundred.
    let many: Vec<String> = (0..10_000)
        .map(|i| format!("--engine=e{i}=random"))
        .collect();
    let mut args: Vec<&str> = vec!["arena", "--games", "2"];
    args.extend(many.iter().map(String::as_str));
    let run = run_env(&args, &[], |_| Ok(()), Duration::from_secs(20));
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(run.text().contains("2 to 100 engines"), "{}", run.text());
    assert!(run.max_rss_mib < 64.0, "{:.0} MiB", run.max_rss_mib);
    let mut live: Vec<&str> = vec!["--tournament-games", "100000"];
    live.extend(many[..300].iter().map(String::as_str));
    let run = run_env(&live, &[], |_| Ok(()), Duration::from_secs(20));
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(run.max_rss_mib < 64.0, "{:.0} MiB", run.max_rss_mib);
}

/// A real state file of two games, made by a run.
fn good_state(dir: &std::path::Path) -> String {
    let state = dir.join("good.state");
    let (code, _, err) = common::kxo_with(
        &[
            "arena",
            "--o",
            "random",
            "--x",
            "random",
            "--games",
            "2",
            "--seed",
            "3",
            "--state",
            state.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    fs::read_to_string(&state).expect("state")
}

/// State files that claim what no run has: refused by name, in little
/// memory.
#[test]
fn forged_state_files_are_refused_at_once_in_little_memory() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let good = good_state(dir.path());
    let (header, games) = good.split_once('\n').expect("a header line");
    let forged: [(&str, &str, &str); 6] = [
        ("games", "\"games\":2", "\"games\":4294967295"),
        ("size", "\"size\":4", "\"size\":200"),
        ("goal", "\"goal\":3", "\"goal\":0"),
        ("engines", "\"engines\":[", "\"engines\":[],\"x\":["),
        (
            "shard",
            "\"shard\":null",
            "\"shard\":{\"index\":5,\"count\":4}",
        ),
        (
            "shard count",
            "\"shard\":null",
            "\"shard\":{\"index\":1,\"count\":4294967295}",
        ),
    ];
    for (what, from, to) in forged {
        assert!(header.contains(from), "{what}: {header}");
        let path = dir.path().join(format!("{what}.state"));
        fs::write(&path, format!("{}\n{games}", header.replacen(from, to, 1))).expect("forge");
        let run = run_env(
            &["arena", "merge", path.to_str().expect("utf-8")],
            &[],
            |_| Ok(()),
            Duration::from_secs(20),
        );
        assert_eq!(run.code, 2, "{what}: {}", run.text());
        assert!(run.max_rss_mib < 64.0, "{what}: {:.0} MiB", run.max_rss_mib);
    }
}

#[test]
fn a_huge_state_is_merged_as_a_stream_and_a_forged_checkpoint_refused() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let good = good_state(dir.path());
    let (header, games) = good.split_once('\n').expect("a header line");
    // A state of 100 MB of one game over and over: merged as a stream
    // (a run of ten million games may hold that much; one of two games is
    // refused for it).
    let first_game = games.lines().next().expect("a game");
    let big = dir.path().join("big.state");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(fs::File::create(&big).expect("create"));
        writeln!(
            f,
            "{}",
            header.replacen("\"games\":2", "\"games\":10000000", 1)
        )
        .expect("write");
        let line = format!("{first_game}\n");
        for _ in 0..(100 << 20) / line.len() {
            f.write_all(line.as_bytes()).expect("write");
        }
    }
    let run = run_env(
        &["arena", "merge", big.to_str().expect("utf-8")],
        &[],
        |_| Ok(()),
        Duration::from_secs(60),
    );
    assert_eq!(run.code, 0, "{}", run.text());
    assert!(run.text().contains("1 games of 10000000"), "{}", run.text());
    assert!(run.max_rss_mib < 64.0, "{:.0} MiB", run.max_rss_mib);

    // A checkpoint that settles one root move fifty times.
    let cp = dir.path().join("cp.json");
    let settled: Vec<String> = (0..50)
        .map(|_| r#"{"move":"B2","value":"draw","plies":9,"nodes":1}"#.to_string())
        .collect();
    fs::write(
        &cp,
        format!(
            r#"{{"kind":"kxo-tui solve checkpoint","version":2,"size":3,"goal":3,"moves":"","settled":[{}],"nodes":0,"seconds":0}}"#,
            settled.join(",")
        ),
    )
    .expect("forge");
    let (code, _, err) = common::kxo_with(
        &[
            "solve",
            "--size",
            "3",
            "--goal",
            "3",
            "--resume",
            cp.to_str().expect("utf-8"),
        ],
        &[],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("twice"), "{err}");
}

#[test]
fn a_model_with_weights_past_any_sum_is_refused_not_a_panic() {
    common::light_panics();
    let dir = tempfile::tempdir().expect("temp dir");
    let model = dir.path().join("big.model");
    let model_arg = model.display().to_string();
    let (code, _, err) = common::kxo_with(
        &[
            "train",
            "--size",
            "15",
            "--goal",
            "5",
            "--episodes",
            "200",
            "--model",
            &model_arg,
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    // Every weight made ±3e38, and the checksum made right again.
    let mut bytes = fs::read(&model).expect("model");
    let header = 6 + 2 + 3 + 4 + 8 + 8;
    let body = bytes.len() - 4;
    for (i, entry) in bytes[header..body].chunks_exact_mut(20).enumerate() {
        let w: f32 = if i % 2 == 0 { 3e38 } else { -3e38 };
        entry[16..].copy_from_slice(&w.to_le_bytes());
    }
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    fs::write(&model, &bytes).expect("forge");
    for args in [
        vec![
            "train",
            "--size",
            "15",
            "--goal",
            "5",
            "--episodes",
            "10",
            "--model",
            model_arg.as_str(),
        ],
        vec![
            "arena",
            "--size",
            "15",
            "--goal",
            "5",
            "--o",
            "rl",
            "--x",
            "random",
            "--games",
            "2",
            "--model",
            model_arg.as_str(),
        ],
    ] {
        let (code, out, err) = common::kxo_with(&args, &[]);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("beyond"), "{err}");
    }
}

#[test]
fn a_manager_s_no_limit_is_not_read_as_no_time() {
    common::light_panics();
    // `INFO timeout_turn 2049638230412172402`: 90% of it wrapped around to
    // almost nothing, and the brain played at once.
    let input = "START 15\r\nINFO timeout_turn 2049638230412172402\r\nBOARD\r\n7,7,2\r\n8,8,1\r\n\
                 7,8,2\r\n6,6,1\r\nDONE\r\n";
    let run = common::run_fed(
        &["brain", "--engine", "mcts", "--think-ms", "600"],
        move |w| {
            use std::io::Write;
            w.write_all(input.as_bytes())?;
            w.flush()?;
            // END only after the answer: END stops a search at once.
            std::thread::sleep(Duration::from_millis(2000));
            w.write_all(b"END\r\n")
        },
        Duration::from_secs(30),
    );
    assert_eq!(run.code, 0, "{}", run.text());
    let said = String::from_utf8_lossy(&run.out);
    let ms: u64 = said
        .lines()
        .find_map(|l| l.split(" in ").nth(1)?.split(" ms").next()?.parse().ok())
        .unwrap_or_else(|| panic!("no search message: {said}"));
    assert!(ms >= 500, "it thought for {ms} ms of its 600: {said}");
}
