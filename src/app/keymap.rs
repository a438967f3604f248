//! Every key of the live screen, in one table: the input layer looks keys
//! up here, the help overlay and the key bar list them from here, and a
//! test checks that the README's key table says the same.

use super::{Action, Direction, Tab};

/// A key as the key map names it (the input layer translates terminal
/// events into these).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// This character exactly (case matters).
    Char(char),
    /// Control and this letter (lower case).
    Ctrl(char),
    Esc,
    Enter,
    Tab,
    PageUp,
    PageDown,
    Backspace,
    Left,
    Right,
    Up,
    Down,
    /// Any ASCII letter: typed into a coordinate.
    AnyLetter,
    /// Any digit: typed into a coordinate.
    AnyDigit,
}

/// Where a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Both screens.
    Always,
    /// The live screen of engine games only.
    Live,
    /// Human mode only.
    Human,
    /// Human mode, unless a coordinate is being typed (then letters go to it).
    HumanNotTyping,
}

pub struct Binding {
    /// The keys as help shows them, e.g. "Ctrl-P".
    pub label: &'static str,
    /// What they do.
    pub help: &'static str,
    /// A short name for the key bar, if it appears there.
    pub bar: Option<&'static str>,
    pub scope: Scope,
    /// Each key and the action it gives (`Type` actions get the character
    /// typed).
    pub keys: &'static [(Key, Action)],
}

use Action as A;
use Key as K;

/// The key map, first match wins.
pub const KEYMAP: &[Binding] = &[
    Binding {
        label: "Ctrl-Q, Ctrl-C",
        help: "quit",
        bar: Some("quit"),
        scope: Scope::Always,
        keys: &[(K::Ctrl('q'), A::Quit), (K::Ctrl('c'), A::Quit)],
    },
    Binding {
        label: "Ctrl-Z",
        help: "suspend to the shell; `fg` brings the screen back",
        bar: None,
        scope: Scope::Always,
        keys: &[(K::Ctrl('z'), A::Suspend)],
    },
    Binding {
        label: "Ctrl-P",
        help: "pause / resume: engines stop mid-thought, clocks too",
        bar: Some("pause"),
        scope: Scope::Always,
        keys: &[(K::Ctrl('p'), A::TogglePause)],
    },
    Binding {
        label: "?",
        help: "show / hide this help",
        bar: Some("help"),
        scope: Scope::Always,
        keys: &[(K::Char('?'), A::ToggleHelp)],
    },
    Binding {
        label: "Esc",
        help: "close the help or the zoom; drop a coordinate being typed",
        bar: None,
        scope: Scope::Always,
        keys: &[(K::Esc, A::Escape)],
    },
    Binding {
        label: "Q",
        help: "Records tab: each game's moves",
        bar: Some("records"),
        scope: Scope::Always,
        keys: &[
            (K::Char('q'), A::ShowTab(Tab::Records)),
            (K::Char('Q'), A::ShowTab(Tab::Records)),
        ],
    },
    Binding {
        label: "W",
        help: "Load avg tab: CPU shares, run queue, engine speeds",
        bar: Some("load avg"),
        scope: Scope::Always,
        keys: &[
            (K::Char('w'), A::ShowTab(Tab::Load)),
            (K::Char('W'), A::ShowTab(Tab::Load)),
        ],
    },
    Binding {
        label: "E",
        help: "Leaderboard tab: wins, draws, losses and Elo per engine",
        bar: Some("leaderboard"),
        scope: Scope::Always,
        keys: &[
            (K::Char('e'), A::ShowTab(Tab::Leaderboard)),
            (K::Char('E'), A::ShowTab(Tab::Leaderboard)),
        ],
    },
    Binding {
        label: "Tab",
        help: "the next tab",
        bar: None,
        scope: Scope::Always,
        keys: &[(K::Tab, A::NextTab)],
    },
    Binding {
        label: "j k",
        help: "scroll the tab panel (the mouse wheel too)",
        bar: None,
        scope: Scope::Live,
        keys: &[(K::Char('j'), A::Scroll(1)), (K::Char('k'), A::Scroll(-1))],
    },
    Binding {
        label: "arrows",
        help: "select a game (or click its box)",
        bar: None,
        scope: Scope::Live,
        keys: &[
            (K::Left, A::SelectStep(Direction::Left)),
            (K::Right, A::SelectStep(Direction::Right)),
            (K::Up, A::SelectStep(Direction::Up)),
            (K::Down, A::SelectStep(Direction::Down)),
        ],
    },
    Binding {
        label: "Enter",
        help: "zoom the selected game: big board, record, search; Esc back",
        bar: Some("zoom"),
        scope: Scope::Live,
        keys: &[(K::Enter, A::ToggleZoom)],
    },
    Binding {
        label: "PgUp PgDn",
        help: "the other pages of games, when not all fit",
        bar: None,
        scope: Scope::Live,
        keys: &[(K::PageUp, A::PageStep(-1)), (K::PageDown, A::PageStep(1))],
    },
    Binding {
        label: "arrows",
        help: "move the cursor",
        bar: None,
        scope: Scope::Human,
        keys: &[
            (K::Left, A::Cursor(Direction::Left)),
            (K::Right, A::Cursor(Direction::Right)),
            (K::Up, A::Cursor(Direction::Up)),
            (K::Down, A::Cursor(Direction::Down)),
        ],
    },
    Binding {
        label: "h j k l",
        help: "move the cursor (unless typing a cell)",
        bar: None,
        scope: Scope::HumanNotTyping,
        keys: &[
            (K::Char('h'), A::Cursor(Direction::Left)),
            (K::Char('l'), A::Cursor(Direction::Right)),
            (K::Char('k'), A::Cursor(Direction::Up)),
            (K::Char('j'), A::Cursor(Direction::Down)),
        ],
    },
    Binding {
        label: "Space",
        help: "place your mark at the cursor",
        bar: Some("place"),
        scope: Scope::Human,
        keys: &[(K::Char(' '), A::PlaceAtCursor)],
    },
    Binding {
        label: "Enter",
        help: "place at the typed cell or cursor; after a game, a new one",
        bar: None,
        scope: Scope::Human,
        keys: &[(K::Enter, A::Confirm)],
    },
    Binding {
        label: "u",
        help: "take back your move and the answer (after a game too)",
        bar: Some("undo"),
        scope: Scope::HumanNotTyping,
        keys: &[(K::Char('u'), A::Undo), (K::Char('U'), A::Undo)],
    },
    Binding {
        label: "t",
        help: "hint: the best move, its value and line (any key cancels)",
        bar: Some("hint"),
        scope: Scope::HumanNotTyping,
        keys: &[(K::Char('t'), A::Hint), (K::Char('T'), A::Hint)],
    },
    Binding {
        label: "p",
        help: "Go: pass (press twice; p then a row names column P)",
        bar: Some("pass"),
        scope: Scope::HumanNotTyping,
        keys: &[(K::Char('p'), A::Pass), (K::Char('P'), A::Pass)],
    },
    Binding {
        label: "n",
        help: "new game, sides swapped; mid-game press twice to resign",
        bar: Some("new game"),
        scope: Scope::HumanNotTyping,
        keys: &[(K::Char('n'), A::NewGame), (K::Char('N'), A::NewGame)],
    },
    Binding {
        label: "s",
        help: "save the game as SGF (and .psq) in this folder",
        bar: Some("save"),
        scope: Scope::HumanNotTyping,
        keys: &[(K::Char('s'), A::Save), (K::Char('S'), A::Save)],
    },
    Binding {
        label: "v",
        help: "review the game: ← → step, the engine's value and mistakes",
        bar: Some("review"),
        scope: Scope::HumanNotTyping,
        keys: &[(K::Char('v'), A::Review), (K::Char('V'), A::Review)],
    },
    Binding {
        label: "g",
        help: "after a game: the start screen, for another game or level",
        bar: None,
        scope: Scope::HumanNotTyping,
        keys: &[(K::Char('g'), A::ChooseGame), (K::Char('G'), A::ChooseGame)],
    },
    Binding {
        label: "#",
        help: "move numbers on the stones, on or off (wide cells)",
        bar: Some("numbers"),
        scope: Scope::Human,
        keys: &[(K::Char('#'), A::ToggleNumbers)],
    },
    Binding {
        label: "b3 Enter",
        help: "type a cell (a letter, then the row) and place there",
        bar: None,
        scope: Scope::Human,
        keys: &[(K::AnyLetter, A::Type('a')), (K::AnyDigit, A::Type('1'))],
    },
    Binding {
        label: "Backspace",
        help: "erase the last character typed",
        bar: None,
        scope: Scope::Human,
        keys: &[(K::Backspace, A::Backspace)],
    },
];

/// Whether `binding` applies on this screen.
pub fn in_scope(binding: &Binding, human: bool, typing: bool) -> bool {
    match binding.scope {
        Scope::Always => true,
        Scope::Live => !human,
        Scope::Human => human,
        Scope::HumanNotTyping => human && !typing,
    }
}

/// The action for `key` (with `ch` the character typed, if any).
pub fn lookup(key: Key, ch: Option<char>, human: bool, typing: bool) -> Option<Action> {
    KEYMAP
        .iter()
        .filter(|b| in_scope(b, human, typing))
        .flat_map(|b| b.keys.iter())
        .find_map(|&(k, action)| {
            let hit = match k {
                K::AnyLetter => ch.is_some_and(|c| c.is_ascii_alphabetic()),
                K::AnyDigit => ch.is_some_and(|c| c.is_ascii_digit()),
                other => other == key,
            };
            match (hit, action) {
                (false, _) => None,
                (true, A::Type(_)) => ch.map(A::Type),
                (true, action) => Some(action),
            }
        })
}

/// The key bar: "Q records  W load avg  …" for this screen.
pub fn key_bar(human: bool) -> Vec<(&'static str, &'static str)> {
    // Human mode's own keys first: a narrow header keeps those.
    let own = |b: &&Binding| matches!(b.scope, Scope::Human | Scope::HumanNotTyping);
    let (first, rest): (Vec<&Binding>, Vec<&Binding>) = KEYMAP
        .iter()
        .filter(|b| in_scope(b, human, false))
        .partition(|b| human && own(b));
    first
        .into_iter()
        .chain(rest)
        .filter_map(|b| b.bar.map(|bar| (short_label(b.label), bar)))
        .collect()
}

/// The first key of a label: "Ctrl-Q, Ctrl-C" → "Ctrl-Q".
fn short_label(label: &'static str) -> &'static str {
    label.split(", ").next().unwrap_or(label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_actions_by_screen() {
        assert_eq!(lookup(K::Ctrl('q'), None, false, false), Some(A::Quit));
        assert_eq!(
            lookup(K::Char('W'), Some('W'), false, false),
            Some(A::ShowTab(Tab::Load))
        );
        // Letters mean nothing on the live screen, a coordinate in human mode.
        assert_eq!(lookup(K::Char('b'), Some('b'), false, false), None);
        assert_eq!(
            lookup(K::Char('b'), Some('b'), true, false),
            Some(A::Type('b'))
        );
        // h moves the cursor, unless a cell is being typed; H types column H.
        assert_eq!(
            lookup(K::Char('h'), Some('h'), true, false),
            Some(A::Cursor(Direction::Left))
        );
        assert_eq!(
            lookup(K::Char('h'), Some('h'), true, true),
            Some(A::Type('h'))
        );
        assert_eq!(
            lookup(K::Char('H'), Some('H'), true, false),
            Some(A::Type('H'))
        );
        assert_eq!(
            lookup(K::Char('7'), Some('7'), true, true),
            Some(A::Type('7'))
        );
        // q stays the Records key even in human mode.
        assert_eq!(
            lookup(K::Char('q'), Some('q'), true, false),
            Some(A::ShowTab(Tab::Records))
        );
    }

    #[test]
    fn every_key_is_reachable_by_its_first_binding() {
        // No binding is shadowed whole by an earlier one.
        for (i, b) in KEYMAP.iter().enumerate() {
            for &(key, action) in b.keys {
                let ch = match key {
                    K::Char(c) => Some(c),
                    K::AnyLetter => Some('z'),
                    K::AnyDigit => Some('5'),
                    _ => None,
                };
                let human = !matches!(b.scope, Scope::Always | Scope::Live);
                let got = lookup(key, ch, human, false);
                let want = match action {
                    A::Type(_) => ch.map(A::Type),
                    a => Some(a),
                };
                assert_eq!(got, want, "binding {i} ({}) {key:?}", b.label);
            }
        }
    }
}
