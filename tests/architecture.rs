//! The house rules, read from the code as the compiler reads it
//! (`tests/common/source.rs`, with syn): paths by their segments however
//! they are written, comments and `#[cfg(test)]` code left out.
//!
//! - the layers import only downward, and no module reaches itself round
//!   a circle;
//! - the state (`app/`) imports no terminal, UI, input or scheduler code,
//!   the UI no tasks or input, and clap stays in the command line;
//! - the engine crate depends on no terminal, scheduler or command line;
//! - the live state has one door;
//! - one module each opens files (`gate`), writes to standard output and
//!   error (`out`), registers signals (`signals`) and starts processes
//!   (`protocol::process`);
//! - files and functions stay a readable size, the tests' too;
//! - no test asserts on the wall clock (a marked hang guard of a minute
//!   or more aside): tests bound CPU time, counts and the order of events.
//!
//! Each rule's test first shows that its check finds what it looks for,
//! on a made-up source that breaks it.

#[path = "common/source.rs"]
mod source;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

use source::{Source, every_source, module_of, sources, starts_with_segments};

/// A made-up source file of the program, read as the rules read it.
fn made_up(path: &str, code: &str) -> Source {
    let module = module_of(path.strip_prefix("src").unwrap_or(path));
    source::read(path.to_string(), module, code.to_string(), false)
}

/// The layers from the ground up: a module may import those below it and
/// its own layer's, never one above (ARCHITECTURE.md draws them). The
/// engine crate (`kxo_engine`) is below them all.
const LAYERS: &[&[&str]] = &[
    &["poll", "signals", "out", "elo", "error", "cpu", "gate"],
    &["model"],
    &["protocol"],
    &["engines"],
    &["tournament"],
    &["app"],
    &["ui"],
    &["input"],
    &["tasks"],
    &["headless"],
    &["cli"],
    &["terminal", "screen"],
];

/// The layer of the program's top module `name` (`crate::name`).
fn layer_of(name: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&name))
}

/// The program's top module a whole path is in: `crate::ui::board::x` →
/// `ui`.
fn top_module(path: &str) -> Option<&str> {
    path.strip_prefix("crate::")?.split("::").next()
}

/// Where `source` imports a module of a layer above its own.
fn upward_imports(source: &Source) -> Vec<String> {
    let Some(mine) = top_module(&source.module).and_then(layer_of) else {
        return Vec::new();
    };
    source
        .paths
        .iter()
        .filter_map(|(path, line)| {
            let theirs = layer_of(top_module(path)?)?;
            (theirs > mine).then(|| format!("{}:{line}: {path}", source.path))
        })
        .collect()
}

#[test]
fn the_layers_import_only_downward() {
    // The check sees an import however it is written.
    for code in [
        "use crate::app;",
        "use crate::{app, engines};",
        "use crate::app::App;",
        "fn f() { let _ = crate::app::App::new; }",
        "fn f() { assert!(crate::app::X); }",
        "use super::super::super::app::App;",
    ] {
        let fake = made_up("src/tournament/x/y.rs", code);
        assert!(
            !upward_imports(&fake).is_empty(),
            "{code}: not seen as an import of app from tournament"
        );
    }
    let fine = made_up(
        "src/tournament/x.rs",
        "use crate::engines::EngineSpec; // crate::app",
    );
    assert!(upward_imports(&fine).is_empty());
    // Every top module of the program has its layer, so a new one must be
    // placed.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in std::fs::read_dir(&dir).expect("src") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        let module = name.trim_end_matches(".rs");
        if !["lib", "main"].contains(&module) {
            assert!(
                layer_of(module).is_some(),
                "src/{name} has no layer in LAYERS"
            );
        }
    }
    let upward: Vec<String> = sources("src").iter().flat_map(upward_imports).collect();
    assert!(
        upward.is_empty(),
        "imports that run up a layer: {upward:#?}"
    );
}

/// Every module a program source's code names, and where.
fn module_edges(all: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<&str> = all.iter().map(|s| s.module.as_str()).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for s in all {
        for (path, _) in &s.paths {
            // The longest module the path is in.
            let parts: Vec<&str> = path.split("::").collect();
            let Some(to) = (1..=parts.len())
                .rev()
                .map(|n| parts[..n].join("::"))
                .find(|m| modules.contains(m.as_str()))
            else {
                continue;
            };
            let nested = |a: &str, b: &str| starts_with_segments(a, b);
            if to != s.module && !nested(&to, &s.module) && !nested(&s.module, &to) {
                edges.entry(s.module.clone()).or_default().insert(to);
            }
        }
    }
    edges
}

/// A circle of imports, if there is one: the way round.
fn a_circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        while let Some((m, way)) = stack.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if next == start {
                    let mut round = way.clone();
                    round.push(next.clone());
                    return Some(round);
                }
                if seen.insert(next.clone()) {
                    let mut longer = way.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    None
}

#[test]
fn no_module_imports_itself_round_a_circle() {
    let round = [
        made_up("src/a.rs", "use crate::b;"),
        made_up("src/b.rs", "fn f() { crate::c::g(); }"),
        made_up("src/c.rs", "use super::a::X;"),
    ];
    assert!(a_circle(&module_edges(&round)).is_some());
    for all in [sources("src"), sources(source::ENGINE_SRC)] {
        if let Some(way) = a_circle(&module_edges(&all)) {
            panic!("an import circle: {}", way.join(" -> "));
        }
    }
}

/// Where the sources under `dir` name one of `forbidden` (path prefixes,
/// by segments).
fn naming(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for s in sources(dir) {
        for f in forbidden {
            if let Some(line) = s.names(f) {
                found.push(format!("{}:{line}: {f}", s.path));
            }
        }
    }
    found
}

#[test]
fn the_state_and_the_ui_import_no_terminal_input_or_scheduler() {
    let state = naming(
        "src/app",
        &[
            "crossterm",
            "ratatui",
            "crate::ui",
            "crate::tasks",
            "crate::input",
            "crate::terminal",
        ],
    );
    assert!(state.is_empty(), "{state:#?}");
    let ui = naming(
        "src/ui",
        &[
            "crate::tasks",
            "crate::input",
            "crate::terminal",
            "crossterm",
        ],
    );
    assert!(ui.is_empty(), "{ui:#?}");
    let tasks = naming("src/tasks", &["crate::terminal", "crate::cli"]);
    assert!(tasks.is_empty(), "{tasks:#?}");
}

/// Clap stays in the command line: the commands take plain option
/// structs, which `src/cli/` builds from what clap parsed.
#[test]
fn clap_stays_in_the_command_line() {
    let fake = made_up("src/headless/x.rs", "fn f(m: &clap::ArgMatches) {}");
    assert!(fake.names("clap").is_some());
    let mut strays = Vec::new();
    for s in every_source() {
        let inside = s.path.starts_with("src/cli/") || s.path == "src/main.rs";
        if let (false, Some(line)) = (inside, s.names("clap")) {
            strays.push(format!("{}:{line}", s.path));
        }
    }
    assert!(
        strays.is_empty(),
        "clap outside the command line: {strays:#?}"
    );
}

/// Cargo keeps the engine crate apart: nothing of the terminal, the
/// scheduler, the protocol's processes or the command line is among its
/// dependencies, however deep (`cargo tree`), so a wrong import does not
/// compile.
#[test]
fn the_engine_crate_depends_on_no_terminal_scheduler_or_command_line() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "tree",
            "-p",
            "kxo-engine",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .args(["--offline", "--manifest-path"])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .output()
        .expect("cargo tree runs");
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let crates: BTreeSet<&str> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        crates.contains("kxo-engine") && crates.contains("rand"),
        "{tree}"
    );
    for forbidden in [
        "ratatui",
        "crossterm",
        "corosensei",
        "clap",
        "libc",
        "signal-hook",
        "anyhow",
    ] {
        assert!(
            !crates.contains(forbidden),
            "kxo-engine depends on {forbidden}:\n{tree}"
        );
    }
}

/// The program names the engine crate by its own name where it crosses
/// the line (`kxo_engine::Position`), never through a re-export of its
/// modules.
#[test]
fn the_program_names_the_engine_crate_by_its_name() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("src/lib.rs");
    let program = made_up("src/lib.rs", &lib);
    assert!(
        program
            .paths
            .iter()
            .all(|(p, _)| !p.starts_with("kxo_engine") || !lib.contains("pub use kxo_engine")),
        "src/lib.rs re-exports the engine crate"
    );
    let deep: Vec<String> = sources("src")
        .iter()
        .flat_map(|s| {
            s.paths
                .iter()
                .filter(|(p, _)| {
                    ["crate::ai", "crate::game"]
                        .iter()
                        .any(|m| starts_with_segments(p, m))
                })
                .map(|(p, l)| format!("{}:{l}: {p}", s.path))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(deep.is_empty(), "{deep:#?}");
}

/// The live state has one door: `App::update`, which takes a message. No
/// other method of `App` takes `&mut self` outside `src/app/` (not even
/// `pub(crate)`), no field of it is visible outside, and the one
/// `RefCell` it lives in is the door's (`tasks/door.rs`), made there and
/// never handed out: the compiler keeps every other task to reading.
#[test]
fn the_live_state_has_one_door() {
    let mut doors = Vec::new();
    let mut fields = Vec::new();
    for s in sources("src/app") {
        let file = syn::parse_file(&s.text).expect("parses");
        for item in &file.items {
            match item {
                syn::Item::Impl(i)
                    if quote::ToTokens::to_token_stream(&i.self_ty).to_string() == "App" =>
                {
                    for inner in &i.items {
                        let syn::ImplItem::Fn(f) = inner else {
                            continue;
                        };
                        let mutable = matches!(
                            f.sig.receiver(),
                            Some(r) if r.mutability.is_some() && r.reference.is_some()
                        );
                        // Private, or `pub(super)` from a file of `app/`:
                        // seen in `app` only.
                        let inside = match &f.vis {
                            syn::Visibility::Inherited => true,
                            syn::Visibility::Restricted(r) => r.path.is_ident("super"),
                            syn::Visibility::Public(_) => false,
                        };
                        if mutable && !inside && !source::is_test(&f.attrs) {
                            doors.push(format!("{}: {}", s.path, f.sig.ident));
                        }
                    }
                }
                syn::Item::Struct(st) if st.ident == "App" => {
                    for f in &st.fields {
                        if !matches!(f.vis, syn::Visibility::Inherited) {
                            fields.push(format!("{:?}", f.ident));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    assert_eq!(
        doors,
        ["src/app/message.rs: update"],
        "App's visible &mut methods"
    );
    assert!(
        fields.is_empty(),
        "App's fields visible outside: {fields:?}"
    );
    let cells: Vec<String> = sources("src")
        .iter()
        .filter(|s| s.path != "src/tasks/door.rs")
        .filter(|s| {
            let compact: String = s.text.chars().filter(|c| !c.is_whitespace()).collect();
            compact.contains("RefCell<App>") || compact.contains("RefCell<crate::app::App>")
        })
        .map(|s| s.path.clone())
        .collect();
    assert!(
        cells.is_empty(),
        "the state held outside its door: {cells:?}"
    );
}

/// Each function's length is read from the code (syn's spans), in every
/// crate, test and bench; files too.
#[test]
fn files_and_functions_stay_a_readable_size() {
    // The two search kernels are long on purpose: one loop, hot, with
    // its cut-offs in one place.
    let kernels = ["src/ai/negamax.rs", "src/ai/solver/search.rs"];
    let long = format!("fn f() {{\n{}}}\n", "    x();\n".repeat(130));
    assert_eq!(
        made_up("src/x.rs", &long).functions,
        [("f".to_string(), 1, 132)]
    );
    let mut too_long = Vec::new();
    let mut all = every_source();
    for dir in ["tests", "benches", "examples"] {
        all.extend(sources(dir));
    }
    for s in all {
        let lines = s.text.lines().count();
        if lines > 800 {
            too_long.push(format!("{}: {lines} lines", s.path));
        }
        for (name, at, len) in &s.functions {
            let kernel = name == "search" && kernels.iter().any(|k| s.path.ends_with(k));
            if *len > 120 && !kernel {
                too_long.push(format!("{}:{at}: fn {name} is {len} lines", s.path));
            }
        }
    }
    assert!(too_long.is_empty(), "over the size rules: {too_long:#?}");
}

#[test]
fn files_of_unit_tests_are_test_code_through_and_through() {
    let engine = sources(source::ENGINE_SRC);
    for name in ["ai/big/board_tests.rs", "ai/big/negamax_tests.rs"] {
        let file = engine
            .iter()
            .find(|s| s.path.ends_with(name))
            .unwrap_or_else(|| panic!("{name}"));
        assert!(
            file.test_only && file.paths.is_empty(),
            "{name} read as code"
        );
    }
}

/// One module owns each of the program's dealings with the outside:
/// what a path names (by segments) or a macro it calls marks the dealing.
struct Owner {
    what: &'static str,
    /// Path prefixes that mark it: `std::fs::File`, `signal_hook`.
    paths: &'static [&'static str],
    /// Last segments of paths that mark it wherever they come from
    /// (`File::open` imported as `File`, then `File::open`).
    tails: &'static [&'static str],
    macros: &'static [&'static str],
    /// The files allowed to.
    owners: &'static [&'static str],
}

const OWNERS: &[Owner] = &[
    Owner {
        what: "files opened outside the gate",
        paths: &[
            "std::fs",
            "fs::File",
            "fs::OpenOptions",
            "fs::read",
            "fs::write",
            "tempfile",
        ],
        tails: &[
            "File::open",
            "File::create",
            "OpenOptions::new",
            "DirBuilder::new",
        ],
        macros: &[],
        owners: &["src/gate/"],
    },
    Owner {
        what: "standard output or error written outside out.rs",
        paths: &[
            "std::io::stdout",
            "std::io::stderr",
            "io::stdout",
            "io::stderr",
        ],
        tails: &[],
        macros: &["println", "print", "eprintln", "eprint", "dbg"],
        owners: &["src/out.rs"],
    },
    Owner {
        what: "signals registered outside signals.rs",
        paths: &[
            "signal_hook",
            "libc::sigaction",
            "libc::signal",
            "libc::raise",
        ],
        tails: &[],
        macros: &[],
        owners: &["src/signals.rs"],
    },
    Owner {
        what: "processes started outside protocol::process",
        paths: &[
            "std::process::Command",
            "portable_pty",
            "libc::fork",
            "libc::execv",
            "libc::posix_spawn",
            "libc::system",
        ],
        tails: &["Command::new", "CommandBuilder::new"],
        macros: &[],
        owners: &["src/protocol/process.rs", "examples/screenshots.rs"],
    },
];

/// Where `source` deals with what `owner` owns.
fn dealings(owner: &Owner, source: &Source) -> Vec<String> {
    if owner.owners.iter().any(|o| source.path.starts_with(o)) {
        return Vec::new();
    }
    let mut found: Vec<String> = source
        .paths
        .iter()
        .filter(|(p, _)| {
            owner.paths.iter().any(|f| starts_with_segments(p, f))
                || owner
                    .tails
                    .iter()
                    .any(|t| p == t || p.ends_with(&format!("::{t}")))
        })
        .map(|(p, l)| format!("{}:{l}: {p}", source.path))
        .collect();
    found.extend(
        source
            .macros
            .iter()
            .filter(|(m, _)| owner.macros.contains(&m.as_str()))
            .map(|(m, l)| format!("{}:{l}: {m}!", source.path)),
    );
    found
}

#[test]
fn each_dealing_with_the_outside_has_one_owner() {
    // The checks find what they look for, however it is written.
    let breaking = [
        ("use std::fs::OpenOptions;", 0),
        ("use std::fs; fn f() { fs::read(\"x\"); }", 0),
        ("use std::fs::File; fn f() { File::open(\"x\"); }", 0),
        ("fn f() { std::io::stdout(); }", 1),
        (
            "use std::io::{self, Write}; fn f() { let _ = writeln!(io::stderr(), \"x\"); }",
            1,
        ),
        ("fn f() { println!(\"x\"); }", 1),
        ("fn f() { signal_hook::flag::register(1, a); }", 2),
        ("fn f() { unsafe { libc::sigaction(1, a, b) }; }", 2),
        (
            "use std::process::Command; fn f() { Command::new(\"x\"); }",
            3,
        ),
    ];
    for (code, owner) in breaking {
        let fake = made_up("src/tournament/x.rs", code);
        assert!(
            !dealings(&OWNERS[owner], &fake).is_empty(),
            "{code}: not seen"
        );
    }
    let fine = made_up(
        "src/tournament/x.rs",
        "fn f() { StateFile::open(p); crate::out::stdout(\"x\"); }",
    );
    assert!(OWNERS.iter().all(|o| dealings(o, &fine).is_empty()));
    let examples = sources("examples");
    assert!(examples.iter().any(|s| s.path.ends_with("threat_suite.rs")));
    for owner in OWNERS {
        // The examples are programs of their own: only starting processes
        // is asked of them (the measuring tool's brains go through the
        // program's client).
        let mut all = every_source();
        if owner.what.starts_with("processes") {
            all.extend(sources("examples"));
        }
        let strays: Vec<String> = all.iter().flat_map(|s| dealings(owner, s)).collect();
        assert!(strays.is_empty(), "{}: {strays:#?}", owner.what);
    }
}

/// The asserts of `text` whose condition reads the wall clock (names
/// `elapsed`, `Instant` or `SystemTime`), by line; an assert under a
/// `// hang guard` comment with a bound of a minute or more is allowed
/// (it catches a hang, it times nothing).
fn wall_clock_asserts(text: &str) -> Vec<usize> {
    struct Asserts(Vec<(usize, TokenStream)>);
    impl<'a> syn::visit::Visit<'a> for Asserts {
        fn visit_macro(&mut self, mac: &'a syn::Macro) {
            let name = mac.path.segments.last().map(|s| s.ident.to_string());
            if name.is_some_and(|n| n.contains("assert")) {
                let line = mac.path.segments[0].ident.span().start().line;
                self.0.push((line, mac.tokens.clone()));
            }
        }
    }
    fn idents(tokens: TokenStream, out: &mut Vec<String>) {
        for t in tokens {
            match t {
                TokenTree::Ident(i) => out.push(i.to_string()),
                TokenTree::Group(g) => idents(g.stream(), out),
                TokenTree::Literal(l) => out.push(l.to_string()),
                TokenTree::Punct(_) => {}
            }
        }
    }
    let file = syn::parse_file(text).expect("a source file");
    let mut found = Asserts(Vec::new());
    found.visit_file(&file);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (line, tokens) in found.0 {
        let mut words = Vec::new();
        idents(tokens, &mut words);
        let clock = ["elapsed", "Instant", "SystemTime"];
        if !words.iter().any(|w| clock.contains(&w.as_str())) {
            continue;
        }
        let guard = line >= 2 && lines[line - 2].trim_start().starts_with("// hang guard");
        let secs = words
            .windows(2)
            .filter(|w| w[0] == "from_secs")
            .filter_map(|w| w[1].parse::<u64>().ok())
            .min();
        if !(guard && secs.is_some_and(|s| s >= 60)) {
            out.push(line);
        }
    }
    out
}

#[test]
fn no_test_asserts_on_the_wall_clock() {
    // The check finds what it looks for, and lets a marked hang guard be.
    let made_up = r#"
        fn t() {
            assert!(start.elapsed() < Duration::from_millis(100), "slow");
            assert_eq!(x, 1);
            // hang guard: a run that stalls
            assert!(last.elapsed() < Duration::from_secs(300));
            // hang guard: too short to be one
            assert!(last.elapsed() < Duration::from_secs(5));
            debug_assert!(Instant::now() < deadline);
        }
    "#;
    assert_eq!(wall_clock_asserts(made_up), vec![3, 8, 9]);
    // Every test of the workspace: unit tests, tests/, benches.
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "benches"] {
        collect_rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir), &mut files);
    }
    assert!(files.len() > 100, "{} files", files.len());
    let found: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).expect("a source");
            wall_clock_asserts(&text)
                .into_iter()
                .map(move |l| format!("{}:{l}", f.display()))
        })
        .collect();
    assert!(
        found.is_empty(),
        "asserts on the wall clock (bound CPU time, counts or the order of \
         events instead; BENCHMARKS.md has the latencies): {found:#?}"
    );
}

fn collect_rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() && !path.ends_with("target") {
            collect_rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}
