//! The input layer: terminal events in, [`Action`]s out, through the one
//! key map (`app::keymap`). Mouse clicks go through the screen's layout to
//! the cell under them.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

use crate::app::keymap::{Key, lookup};
use crate::app::{Action, App, Direction};

/// The action a terminal event asks for, if any, on a screen of
/// `(columns, rows)` as last drawn (where a click lands).
pub(crate) fn action_for(app: &App, (w, h): (u16, u16), event: &Event) -> Option<Action> {
    let screen = Rect::new(0, 0, w, h);
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => {
            key_action(app, key).and_then(|a| resolve(app, screen, a))
        }
        Event::Mouse(mouse) => {
            let (x, y) = (mouse.column, mouse.row);
            match mouse.kind {
                MouseEventKind::Down(MouseButton::Left) if app.human().is_some() => {
                    crate::ui::human::cell_at(app, screen, x, y).map(Action::Place)
                }
                MouseEventKind::Down(MouseButton::Left) => live_click(app, screen, x, y),
                MouseEventKind::ScrollDown => Some(Action::Scroll(3)),
                MouseEventKind::ScrollUp => Some(Action::Scroll(-3)),
                _ => None,
            }
        }
        Event::Resize(w, h) => Some(Action::Resize(*w, *h)),
        _ => None,
    }
}

/// A click on the live screen: a tab's title shows that tab; a game's box
/// selects it, and a click on the selected (or zoomed) game zooms in or out.
fn live_click(app: &App, screen: Rect, x: u16, y: u16) -> Option<Action> {
    if let Some(tab) = crate::ui::tab_at(app, screen, x, y) {
        return Some(Action::ShowTab(tab));
    }
    let view = crate::ui::grid_view(app, screen)?;
    if app.zoomed() {
        return crate::ui::zoom_area(app, &view)
            .contains((x, y).into())
            .then_some(Action::ToggleZoom);
    }
    let (i, _) = view
        .boxes
        .iter()
        .enumerate()
        .find(|(_, r)| r.contains((x, y).into()))?;
    let game = view.first + i;
    Some(if game == app.selected() {
        Action::ToggleZoom
    } else {
        Action::Select {
            game,
            page: app.page(),
        }
    })
}

/// Turns the steps the key map names (next game, next page) into the game
/// they reach on the current layout.
fn resolve(app: &App, screen: Rect, action: Action) -> Option<Action> {
    let games = app.games().len();
    let select = |game: usize, per_page: usize| Action::Select {
        game,
        page: game / per_page.max(1),
    };
    match action {
        Action::SelectStep(direction) => {
            let view = crate::ui::grid_view(app, screen)?;
            let (per_page, columns) = (view.per_page, view.columns.max(1));
            let s = app.selected();
            let game = match direction {
                Direction::Left => s.saturating_sub(1),
                Direction::Right => (s + 1).min(games - 1),
                Direction::Up => s.saturating_sub(columns),
                Direction::Down if s + columns < games => s + columns,
                Direction::Down => s,
            };
            Some(select(game, per_page))
        }
        Action::PageStep(step) => {
            let view = crate::ui::grid_view(app, screen)?;
            let pages = games.div_ceil(view.per_page.max(1));
            let page = (app.page() as i64 + step as i64).clamp(0, pages as i64 - 1) as usize;
            Some(Action::Select {
                game: page * view.per_page,
                page,
            })
        }
        other => Some(other),
    }
}

/// The letter of a key that acted as a command but also names a column of
/// the board (h on 15x15), so that a digit typed next can make it a cell.
pub(crate) fn column_key(app: &App, event: &Event) -> Option<char> {
    let Event::Key(key) = event else {
        return None;
    };
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    let is_command = !matches!(key_action(app, key), None | Some(Action::Type(_)));
    // A column of this board (Go's letters skip I).
    let column = c.is_ascii_alphabetic() && app.config().rules.parse_cell(&format!("{c}1")).is_ok();
    (app.human().is_some()
        && !key.modifiers.contains(KeyModifiers::CONTROL)
        && column
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
        KeyCode::PageUp => (Key::PageUp, None),
        KeyCode::PageDown => (Key::PageDown, None),
        KeyCode::Backspace => (Key::Backspace, None),
        KeyCode::Left => (Key::Left, None),
        KeyCode::Right => (Key::Right, None),
        KeyCode::Up => (Key::Up, None),
        KeyCode::Down => (Key::Down, None),
        _ => return None,
    };
    lookup(k, ch, app.human().is_some(), app.typing())
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
        let act = |e: Event| action_for(&app, (120, 40), &e);
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

#[cfg(test)]
mod click_tests {
    use super::*;
    use crate::app::{LiveConfig, Message};
    use crossterm::event::{MouseEvent, MouseEventKind};
    use std::time::Instant;

    fn click(x: u16, y: u16) -> Event {
        Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        })
    }

    #[test]
    fn a_click_selects_a_box_and_a_second_zooms_it() {
        let config = LiveConfig {
            games: 4,
            ..LiveConfig::default()
        };
        let now = Instant::now();
        let mut app = App::new(config, now);
        let screen = (120, 40);
        let input = |action| Message::Input {
            action: Some(action),
            column_key: None,
        };
        let view = crate::ui::grid_view(&app, Rect::new(0, 0, 120, 40)).unwrap();
        let b = view.boxes[3];
        let (x, y) = (b.x + 3, b.y + 3);
        let a = action_for(&app, screen, &click(x, y)).unwrap();
        assert_eq!(a, Action::Select { game: 3, page: 0 });
        app.update(input(a), now);
        assert_eq!(
            action_for(&app, screen, &click(x, y)),
            Some(Action::ToggleZoom)
        );
        app.update(input(Action::ToggleZoom), now);
        assert!(app.zoomed());
        // In the zoom, a click goes back.
        assert_eq!(
            action_for(&app, screen, &click(x, y)),
            Some(Action::ToggleZoom)
        );
    }

    #[test]
    fn a_zoom_over_the_tab_panel_takes_its_clicks() {
        // A 6x6 game of the show zoomed at 40x12 is drawn over the tab
        // panel's lines: a click where the tab titles were goes back from
        // the zoom, as a click anywhere on it does, and shows no hidden tab.
        let config = LiveConfig {
            show: Some(crate::app::show::Show::mixed()),
            ..LiveConfig::default()
        };
        let now = Instant::now();
        let mut app = App::with_fits(config, now, 7);
        let game = (0..app.games().len())
            .find(|&i| app.games()[i].pos.rules().size() == 6)
            .expect("a 6x6 game in the show");
        let select = Action::Select { game, page: 0 };
        for action in [select, Action::ToggleZoom] {
            app.update(
                Message::Input {
                    action: Some(action),
                    column_key: None,
                },
                now,
            );
        }
        let area = Rect::new(0, 0, 40, 12);
        let view = crate::ui::grid_view(&app, area).unwrap();
        let tabs = view.plan.tabs;
        assert!(crate::ui::zoom_area(&app, &view).intersects(tabs));
        for y in tabs.y..tabs.bottom() {
            assert_eq!(
                action_for(&app, (40, 12), &click(tabs.x + 2, y)),
                Some(Action::ToggleZoom),
                "line {y} of the hidden panel"
            );
        }
    }
}
