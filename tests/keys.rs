//! The one key map, read everywhere keys are named: the help overlay,
//! the key bar and the README's key tables list the same keys; the
//! README's pictures are in docs/.

use std::fs;
use std::path::Path;
use std::time::Instant;

use kxo_engine::Player;
use kxo_tui::app::keymap::{KEYMAP, in_scope, key_bar};
use kxo_tui::app::{Action, App, LiveConfig, Message};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

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
