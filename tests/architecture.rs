//! The lines between the layers, and the one key map.
//!
//! - `app/` (the state) imports no terminal, UI, input or scheduler code;
//! - the engines know nothing of the screen or the scheduler;
//! - the UI never reaches into the tasks or the input layer;
//! - the help overlay, the key bar and the README list the key map's keys.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::time::Instant;

use kxo_tui::app::keymap::{KEYMAP, in_scope, key_bar};
use kxo_tui::app::{Action, App, LiveConfig, Message};
use kxo_tui::game::Player;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in fs::read_dir(&path).expect("read dir") {
                stack.push(entry.expect("entry").path());
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = fs::read_to_string(&path).expect("read source");
            out.push((path.display().to_string(), text));
        }
    }
    assert!(!out.is_empty(), "no sources under {dir}");
    out
}

/// Where the workspace's crates keep their sources: the program, and the
/// engine crate (rules and engines) under it.
const SOURCE_ROOTS: [&str; 2] = ["src", ENGINE_SRC];
const ENGINE_SRC: &str = "crates/kxo-engine/src";

/// Every `.rs` file of every crate of the workspace, with its text.
fn every_source() -> Vec<(String, String)> {
    SOURCE_ROOTS.iter().flat_map(|root| sources(root)).collect()
}

/// The code of a file without its comments (doc comments name other layers).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The code of the file at `path` before its unit tests: none at all for
/// a file of unit tests that a module includes under `#[cfg(test)]` with
/// `#[path = "…"]` (as `board.rs` does `board_tests.rs`).
fn non_test_code(path: &str, text: &str) -> String {
    if test_only_files().iter().any(|f| f == path) {
        return String::new();
    }
    code(text.split("#[cfg(test)]").next().unwrap_or(""))
}

/// The files that are unit tests through and through: each one a module
/// includes by `#[cfg(test)]` then `#[path = "name.rs"]`, found in the
/// including file's folder.
fn test_only_files() -> &'static [String] {
    static FOUND: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    FOUND.get_or_init(find_test_only_files)
}

fn find_test_only_files() -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in every_source() {
        let dir = Path::new(&path).parent().expect("a source's folder");
        let mut lines = text.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if line != "#[cfg(test)]" {
                continue;
            }
            let name = lines
                .next()
                .and_then(|l| l.strip_prefix("#[path = \""))
                .and_then(|l| l.strip_suffix("\"]"));
            if let Some(name) = name {
                out.push(dir.join(name).display().to_string());
            }
        }
    }
    out
}

#[test]
fn files_of_unit_tests_are_found_from_the_modules_that_include_them() {
    let found = test_only_files();
    for name in ["board_tests.rs", "negamax_tests.rs"] {
        assert!(
            found
                .iter()
                .any(|f| f.ends_with(&format!("/ai/big/{name}"))),
            "{name} not in {found:?}"
        );
    }
    let (path, text) = every_source()
        .into_iter()
        .find(|(p, _)| p.ends_with("/ai/big/negamax_tests.rs"))
        .expect("negamax_tests.rs");
    assert!(text.contains("eprintln!"));
    assert_eq!(non_test_code(&path, &text), "");
}

/// Every path a file's `use` declarations import, with grouped trees
/// expanded: `use crate::{ui, tasks::seat};` gives `crate::ui` and
/// `crate::tasks::seat`.
fn imported_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for decl in code.split(';') {
        let decl = decl.trim();
        let tree = decl
            .strip_prefix("pub use ")
            .or_else(|| decl.strip_prefix("pub(crate) use "))
            .or_else(|| decl.strip_prefix("use "))
            .or_else(|| decl.rsplit_once("\nuse ").map(|(_, t)| t))
            .or_else(|| decl.rsplit_once("\npub use ").map(|(_, t)| t));
        if let Some(tree) = tree {
            expand_use_tree("", &tree.split_whitespace().collect::<String>(), &mut out);
        }
    }
    out
}

fn expand_use_tree(prefix: &str, tree: &str, out: &mut Vec<String>) {
    match tree.find('{') {
        None => out.push(format!("{prefix}{tree}")),
        Some(open) => {
            let (head, rest) = tree.split_at(open);
            let inner = &rest[1..rest.len().saturating_sub(1)];
            // Split the group at its top-level commas.
            let (mut depth, mut start) = (0, 0);
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand_use_tree(&format!("{prefix}{head}"), &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if start < inner.len() {
                expand_use_tree(&format!("{prefix}{head}"), &inner[start..], out);
            }
        }
    }
}

#[test]
fn grouped_use_trees_are_expanded() {
    let paths =
        imported_paths("use crate::{ui::{self, draw}, tasks};\nuse std::io;\npub use super::x::Y;");
    assert_eq!(
        paths,
        [
            "crate::ui::self",
            "crate::ui::draw",
            "crate::tasks",
            "std::io",
            "super::x::Y"
        ]
    );
}

fn assert_no_imports(dir: &str, forbidden: &[&str]) {
    for (path, text) in sources(dir) {
        let code = code(&text);
        for f in forbidden {
            // Paths named in code (`crate::ui::draw(...)`) and paths
            // imported, grouped or not.
            assert!(!code.contains(f), "{path} uses {f}");
            for import in imported_paths(&code) {
                assert!(!import.starts_with(f), "{path} imports {import}");
            }
        }
    }
}

#[test]
fn the_app_state_imports_no_terminal_ui_input_or_scheduler() {
    assert_no_imports(
        "src/app",
        &[
            "crossterm",
            "ratatui",
            "crate::ui",
            "crate::tasks",
            "crate::input",
            "crate::terminal",
            "super::super",
        ],
    );
}

#[test]
fn engines_and_rules_know_nothing_of_the_screen() {
    assert_no_imports(
        ENGINE_SRC,
        &[
            "crossterm",
            "ratatui",
            "corosensei",
            "clap",
            "libc",
            "kxo_tui",
        ],
    );
}

/// Clap stays in the command line: the commands take plain option
/// structs (`headless::solve::SolveOptions`, …), which `src/cli/` builds
/// from what clap parsed.
#[test]
fn clap_stays_in_the_command_line() {
    for (path, text) in every_source() {
        let inside = path.contains("/src/cli/") || path.ends_with("/src/main.rs");
        if !inside {
            assert!(!code(&text).contains("clap"), "{path} uses clap");
        }
    }
    for dir in [
        "src/headless",
        "src/tasks",
        "src/app",
        "src/ui",
        "src/protocol",
    ] {
        assert_no_imports(dir, &["crate::cli"]);
    }
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
    // The reading itself works: the crate and its random numbers are there.
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

/// The layers from the ground up: a module may import those below it and
/// its own layer's, never one above (ARCHITECTURE.md draws them).
const LAYERS: &[&[&str]] = &[
    &[
        "text", "poll", "signals", "out", "elo", "error", "cpu", "gate",
    ],
    &["game"],
    &["ai"],
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

/// Where `module`'s source is: its folder or its file, in the program or
/// the engine crate.
fn module_source(module: &str) -> String {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"));
    for root in SOURCE_ROOTS {
        if base.join(root).join(module).is_dir() {
            return format!("{root}/{module}");
        }
        if base.join(root).join(format!("{module}.rs")).is_file() {
            return format!("{root}/{module}.rs");
        }
    }
    panic!("no source for module {module}")
}

#[test]
fn the_layers_import_only_downward() {
    // Every module of every crate has its layer, so a new one must be
    // placed (the engine crate's `game`, `ai`, `text` and `cpu` are the
    // program's too, re-exported).
    let listed: BTreeSet<&str> = LAYERS.iter().flat_map(|l| l.iter().copied()).collect();
    for root in SOURCE_ROOTS {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(root);
        for entry in fs::read_dir(&dir).expect("src") {
            let name = entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned();
            let module = name.trim_end_matches(".rs");
            if !["lib", "main"].contains(&module) {
                assert!(
                    listed.contains(module),
                    "{root}/{name} has no layer in LAYERS"
                );
            }
        }
    }
    for (floor, layer) in LAYERS.iter().enumerate() {
        let above: Vec<String> = LAYERS[floor + 1..]
            .iter()
            .flat_map(|l| l.iter().map(|m| format!("crate::{m}::")))
            .collect();
        let above: Vec<&str> = above.iter().map(String::as_str).collect();
        for module in *layer {
            assert_no_imports(&module_source(module), &above);
        }
    }
}

#[test]
fn the_ui_draws_from_state_without_tasks_or_input() {
    assert_no_imports(
        "src/ui",
        &[
            "crate::tasks",
            "crate::input",
            "crate::terminal",
            "crossterm",
        ],
    );
    // The scheduler does not reach up into the entry-level modules.
    assert_no_imports("src/tasks", &["crate::terminal", "crate::cli"]);
}

fn help_text(human: bool) -> String {
    let config = LiveConfig {
        games: if human { 1 } else { 9 },
        human: human.then_some(Player::O),
        ..LiveConfig::default()
    };
    let mut app = App::new(config, Instant::now());
    let help = Message::Input {
        action: Some(Action::ToggleHelp),
        column_key: None,
    };
    app.update(help, Instant::now());
    let mut terminal = Terminal::new(TestBackend::new(120, 50)).expect("backend");
    let chrome = kxo_tui::ui::Chrome::default();
    terminal
        .draw(|f| kxo_tui::ui::draw(f, &app, &chrome))
        .expect("draw");
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

#[test]
fn the_help_and_the_key_bar_list_the_key_map() {
    for human in [false, true] {
        let help = help_text(human);
        for b in KEYMAP {
            assert_eq!(
                help.contains(b.help),
                in_scope(b, human, false),
                "human={human}: {} ({})\n{help}",
                b.label,
                b.help
            );
        }
        let bar = kxo_tui::ui::key_bar_text(human);
        for (key, what) in key_bar(human) {
            assert!(bar.contains(&format!("{key} {what}")), "{bar}");
        }
    }
}

#[test]
fn the_readme_key_table_lists_the_key_map() {
    let readme = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    // Rows of the key tables: "| `Ctrl-P` | what it does |".
    let listed: Vec<&str> = readme
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |"))
        .map(|(key, _)| key)
        .collect();
    for b in KEYMAP {
        assert!(
            listed.contains(&b.label),
            "README's key table lacks `{}` ({})",
            b.label,
            b.help
        );
    }
    for key in &listed {
        assert!(
            KEYMAP.iter().any(|b| b.label == *key),
            "README lists `{key}`, which the key map does not have"
        );
    }
}

#[test]
fn the_readme_pictures_are_in_docs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    // Pictures: `![…](docs/NAME.png)` (other links into docs/ are pages).
    let pictures: Vec<&str> = readme
        .split("](docs/")
        .skip(1)
        .filter_map(|rest| rest.split(')').next())
        .filter(|name| !name.ends_with(".md"))
        .collect();
    assert!(pictures.len() >= 5, "{pictures:?}");
    for name in pictures {
        let bytes = fs::read(root.join("docs").join(name)).expect(name);
        assert!(bytes.starts_with(b"\x89PNG"), "{name} is not a PNG");
    }
}

/// The live state has one door: `App::update`, which takes a message. No
/// other method of `App` takes `&mut self` in public (its helpers are
/// private to `src/app/`), no field of it is `pub` (the others read it
/// through methods), and in the tasks the one mutable borrow of the state
/// is the door's (`tasks/door.rs`), which calls `update`.
#[test]
fn the_live_state_has_one_door() {
    let mut doors = Vec::new();
    for (path, text) in sources("src/app") {
        let code = non_test_code(&path, &text);
        let mut in_app = false;
        for line in code.lines() {
            let trimmed = line.trim_start();
            if line.starts_with("impl App") {
                in_app = true;
            } else if line.starts_with('}') {
                in_app = false;
            }
            if in_app && trimmed.starts_with("pub fn ") && trimmed.contains("&mut self") {
                doors.push(format!("{path}: {}", trimmed.trim()));
            }
        }
    }
    assert_eq!(doors.len(), 1, "App's public &mut methods: {doors:#?}");
    assert!(
        doors[0].contains("pub fn update(&mut self, message: Message"),
        "{doors:?}"
    );
    let app = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app/mod.rs"))
        .expect("src/app/mod.rs");
    let body = app
        .split("pub struct App {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("struct App");
    let public: Vec<&str> = body
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("pub "))
        .collect();
    assert!(
        public.is_empty(),
        "App's fields written from outside: {public:?}"
    );
    for (path, text) in sources("src/tasks") {
        let code: String = non_test_code(&path, &text)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let updates = code.matches("self.app.borrow_mut().update(").count();
        let any = code.matches("app.borrow_mut()").count();
        if path.ends_with("door.rs") {
            assert_eq!(
                (updates, any),
                (1, 1),
                "{path}: the door borrows the app once, to update it"
            );
        } else {
            assert_eq!(any, 0, "{path} borrows the app mutably: only the door may");
            for binding in ["letmuta=", "letmutapp="] {
                assert!(
                    !code.contains(binding),
                    "{path} binds a mutable app: {binding}"
                );
            }
        }
    }
}

/// The module a source file is (`src/ai/solver/mod.rs` is `crate::ai::solver`).
fn module_of(path: &str) -> String {
    let rel = path
        .split("/src/")
        .nth(1)
        .unwrap_or(path)
        .trim_end_matches(".rs");
    let mut parts: Vec<&str> = rel.split('/').collect();
    if matches!(parts.last(), Some(&"mod") | Some(&"lib")) {
        parts.pop();
    }
    std::iter::once("crate")
        .chain(parts)
        .collect::<Vec<_>>()
        .join("::")
}

/// No two source files import each other, however long the way round:
/// each module depends only on modules below it.
#[test]
fn no_module_imports_itself_round_a_circle() {
    use std::collections::{BTreeMap, BTreeSet};
    let files: Vec<(String, String)> = every_source()
        .into_iter()
        .filter(|(p, _)| !p.ends_with("/main.rs"))
        .collect();
    let modules: BTreeSet<String> = files.iter().map(|(p, _)| module_of(p)).collect();
    let resolve = |from: &str, path: &str| -> Option<String> {
        let mut parts: Vec<&str> = path.split("::").collect();
        let mut full: Vec<&str> = match *parts.first()? {
            "crate" => Vec::new(),
            "self" => {
                parts.remove(0);
                from.split("::").collect()
            }
            "super" => {
                let mut base: Vec<&str> = from.split("::").collect();
                while parts.first() == Some(&"super") {
                    parts.remove(0);
                    base.pop();
                }
                base
            }
            _ => return None,
        };
        full.extend(parts);
        (1..=full.len())
            .rev()
            .map(|n| full[..n].join("::"))
            .find(|m| modules.contains(m))
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in &files {
        let from = module_of(path);
        let code = non_test_code(path, text);
        let words = code.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'));
        for word in words.filter(|w| w.starts_with("crate::") || w.starts_with("super::")) {
            if let Some(to) = resolve(&from, word)
                && to != from
                && !to.starts_with(&format!("{from}::"))
                && !from.starts_with(&format!("{to}::"))
            {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
    }
    // A module that reaches itself through its imports is on a circle.
    for start in edges.keys() {
        let mut seen = BTreeSet::new();
        let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
        while let Some((m, way)) = stack.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                assert!(
                    next != start,
                    "an import circle: {} -> {start}",
                    way.join(" -> ")
                );
                if seen.insert(next.clone()) {
                    let mut longer = way.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
}

/// Each function's name and length in lines, read by indentation
/// (rustfmt puts a function's closing brace at the indent of its `fn`).
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let Some(at) = trimmed.find("fn ") else {
            continue;
        };
        let head = &trimmed[..at];
        let is_fn = head.split_whitespace().all(|w| {
            ["pub", "const", "unsafe", "async", "extern"].contains(&w) || w.starts_with("pub(")
        });
        if !is_fn || trimmed.ends_with(';') {
            continue;
        }
        let name: String = trimmed[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(len) = lines[i..].iter().position(|l| *l == close) {
            out.push((name, len + 1));
        }
    }
    out
}

#[test]
fn files_and_functions_stay_a_readable_size() {
    // The two search kernels are long on purpose: one loop, hot, with
    // its cut-offs in one place.
    let kernels = ["src/ai/negamax.rs", "src/ai/solver/search.rs"];
    let mut too_long = Vec::new();
    for (path, text) in every_source() {
        let lines = text.lines().count();
        if lines > 800 {
            too_long.push(format!("{path}: {lines} lines"));
        }
        for (name, len) in function_lengths(&text) {
            let kernel = name == "search" && kernels.iter().any(|k| path.ends_with(k));
            if len > 120 && !kernel {
                too_long.push(format!("{path}: fn {name} is {len} lines"));
            }
        }
    }
    assert!(too_long.is_empty(), "over the size rules: {too_long:#?}");
    // The reader itself finds long functions.
    let long = format!("fn f() {{\n{}}}\n", "    x();\n".repeat(130));
    assert_eq!(function_lengths(&long), [("f".to_string(), 132)]);
}

/// What opens, makes, reads, renames or removes a file by itself. Only the
/// gate (`src/gate/`) may: it is where the rules for outside files hold
/// (links, types, sizes, ownership, atomic writes, locks).
const FILE_ACCESS: &[&str] = &[
    "File::open",
    "File::create",
    "OpenOptions",
    "fs::write",
    "fs::read",
    "fs::remove",
    "fs::rename",
    "fs::create_dir",
    "fs::copy",
    "fs::metadata",
    "fs::symlink_metadata",
    "fs::canonicalize",
    "fs::set_permissions",
    "DirBuilder",
    "tempfile::",
];

/// The places in `code` that reach for a file without the gate.
fn stray_file_access(code: &str) -> Vec<&'static str> {
    // A whole path only: `StateFile::open` is not `File::open`.
    let whole = |needle: &str| {
        code.match_indices(needle).any(|(at, _)| {
            !code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
    };
    FILE_ACCESS.iter().copied().filter(|n| whole(n)).collect()
}

#[test]
fn files_are_opened_only_through_the_gate() {
    // The check itself finds what it looks for.
    assert_eq!(
        stray_file_access("let f = std::fs::OpenOptions::new().write(true);"),
        ["OpenOptions"]
    );
    assert_eq!(stray_file_access("std::fs::write(p, b)"), ["fs::write"]);
    assert!(stray_file_access("StateFile::open(p)").is_empty());
    let mut strays = Vec::new();
    for (path, text) in every_source() {
        if path.contains("/src/gate/") {
            continue;
        }
        for needle in stray_file_access(&non_test_code(&path, &text)) {
            strays.push(format!("{path}: {needle}"));
        }
    }
    assert!(
        strays.is_empty(),
        "files opened outside the gate: {strays:#?}"
    );
}

/// `println!` and its kin panic on a closed pipe: the program writes to
/// stdout and stderr through `src/out.rs` (`say!`, `note!`), where a
/// closed pipe is a request to stop.
#[test]
fn standard_output_is_written_only_through_out() {
    let mut strays = Vec::new();
    for (path, text) in every_source() {
        if path.ends_with("/src/out.rs") {
            continue;
        }
        let code = non_test_code(&path, &text);
        for needle in ["println!", "print!(", "eprintln!", "eprint!("] {
            if code.contains(needle) {
                strays.push(format!("{path}: {needle}"));
            }
        }
    }
    assert!(strays.is_empty(), "output that can panic: {strays:#?}");
}

/// What starts a process.
const PROCESS_START: &[&str] = &[
    "Command::new",
    "CommandBuilder",
    "fork(",
    "posix_spawn",
    "execv",
    "libc::system",
    "popen(",
];

/// Every process the program starts is a brain, started by
/// `protocol::process`, where it is tied to the program's life and ended
/// with everything it started on every way out. The measuring tool
/// (`examples/threat_suite.rs`) asks its brains through the same client;
/// only the screenshots tool starts other programs (kxo-tui itself in a
/// pseudo-terminal, and ImageMagick), each waited for.
#[test]
fn processes_are_started_only_where_they_are_ended() {
    let allowed = ["/src/protocol/process.rs", "/examples/screenshots.rs"];
    let mut strays = Vec::new();
    let examples = sources("examples");
    for (path, text) in every_source().iter().chain(&examples) {
        if allowed.iter().any(|a| path.ends_with(a)) {
            continue;
        }
        let code = non_test_code(path, text);
        for needle in PROCESS_START.iter().filter(|n| code.contains(*n)) {
            strays.push(format!("{path}: {needle}"));
        }
    }
    assert!(
        strays.is_empty(),
        "processes started outside protocol::process: {strays:#?}"
    );
    // The check sees the examples, and what it looks for.
    assert!(examples.iter().any(|(p, _)| p.ends_with("threat_suite.rs")));
    assert!(
        examples
            .iter()
            .any(|(p, t)| p.ends_with("screenshots.rs") && t.contains("Command::new"))
    );
}
