//! The input layer: terminal events in, [`Action`]s out, through the one
//! key map (`app::keymap`). Mouse clicks go through the screen's layout to
//! the cell under them.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

use crate::app::keymap::{Key, lookup};
use crate::app::{Action, App};

/// The action a terminal event asks for, if any.
pub fn action_for(app: &App, event: &Event) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => key_action(app, key),
        Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
            app.human.as_ref()?;
            let (w, h) = app.screen;
            crate::ui::human::cell_at(app, Rect::new(0, 0, w, h), mouse.column, mouse.row)
                .map(Action::Place)
        }
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        _ => None,
    }
}

/// The letter of a key that acted as a command but also names a column of
/// the board (h on 15x15), so that a digit typed next can make it a cell.
pub fn column_key(app: &App, event: &Event) -> Option<char> {
    let Event::Key(key) = event else {
        return None;
    };
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    let column = (c.to_ascii_uppercase() as u32).checked_sub('A' as u32)?;
    let is_command = !matches!(key_action(app, key), None | Some(Action::Type(_)));
    (app.human.is_some()
        && c.is_ascii_alphabetic()
        && !key.modifiers.contains(KeyModifiers::CONTROL)
        && column < app.config.rules.size() as u32
        && is_command)
        .then_some(c)
}

fn key_action(app: &App, key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let (k, ch) = match key.code {
        KeyCode::Char(c) if ctrl => (Key::Ctrl(c.to_ascii_lowercase()), None),
        KeyCode::Char(c) => (Key::Char(c), Some(c)),
        KeyCode::Esc => (Key::Esc, None),
        KeyCode::Enter => (Key::Enter, None),
        KeyCode::Tab => (Key::Tab, None),
        KeyCode::Backspace => (Key::Backspace, None),
        KeyCode::Left => (Key::Left, None),
        KeyCode::Right => (Key::Right, None),
        KeyCode::Up => (Key::Up, None),
        KeyCode::Down => (Key::Down, None),
        _ => return None,
    };
    lookup(k, ch, app.human.is_some(), app.typing())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::{LiveConfig, Tab};
    use std::time::Instant;

    fn key(code: KeyCode, modifiers: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn terminal_keys_become_actions() {
        let app = App::new(LiveConfig::default(), Instant::now());
        let act = |e: Event| action_for(&app, &e);
        assert_eq!(
            act(key(KeyCode::Char('W'), KeyModifiers::SHIFT)),
            Some(Action::ShowTab(Tab::Load))
        );
        assert_eq!(
            act(key(KeyCode::Char('p'), KeyModifiers::CONTROL)),
            Some(Action::TogglePause)
        );
        assert_eq!(
            act(key(KeyCode::Char('C'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        assert_eq!(act(key(KeyCode::Char('z'), KeyModifiers::NONE)), None);
        assert_eq!(act(Event::Resize(90, 30)), Some(Action::Resize(90, 30)));
    }
}
