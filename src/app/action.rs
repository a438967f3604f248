//! What the person can ask for ([`Action`]) and what the state asks of the
//! tasks in return ([`Effect`]). The input layer turns terminal events into
//! actions; [`super::App::update`] applies them; the tasks layer turns the
//! effects into scheduler events.

use super::Tab;
use kxo_engine::Cell;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Quit,
    /// Ctrl-Z: give the terminal back to the shell and stop (`fg` resumes).
    Suspend,
    TogglePause,
    ShowTab(Tab),
    /// The tab after the one shown.
    NextTab,
    /// Live screen: select game `game` (from 0), shown on page `page`.
    Select {
        game: usize,
        page: usize,
    },
    /// Live screen: move the selection (the input layer, which knows the
    /// layout, turns it into `Select`).
    SelectStep(Direction),
    /// Live screen: the previous (-1) or next (+1) page of games (turned
    /// into `Select` by the input layer).
    PageStep(i8),
    /// Live screen: zoom the selected game, or back to all of them.
    ToggleZoom,
    ToggleHelp,
    /// Esc: close the help, or drop a coordinate being typed.
    Escape,
    /// The terminal's new size.
    Resize(u16, u16),
    /// Scroll the tab panel by this many lines (negative: up).
    Scroll(i16),
    // Human mode.
    Cursor(Direction),
    /// Space: place at the cursor.
    PlaceAtCursor,
    /// Enter: place the typed cell (or at the cursor); after a game, a new one.
    Confirm,
    /// A click on a cell.
    Place(Cell),
    /// A letter or digit of a coordinate being typed.
    Type(char),
    Backspace,
    Undo,
    Hint,
    /// Go: pass (asked twice).
    Pass,
    NewGame,
    /// Human mode: move numbers on the stones, or not.
    ToggleNumbers,
    /// Human mode: save the game on the board to a file.
    Save,
    /// Human mode: review the game on the board, or go back to it.
    Review,
    /// Human mode, after a game: back to the start screen.
    ChooseGame,
}

/// What the tasks must do after an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Something on screen changed: the renderer draws at its next frame.
    Redraw,
    /// A key changed the screen: the renderer draws at once.
    RedrawNow,
    /// Game `n` changed hands: wake its seats.
    Turn(usize),
    /// The pause ended: wake whoever waits for it.
    Resumed,
    /// Human mode asked for a hint: wake the hint task.
    StartHint,
    /// Human mode asked to save the game: wake the files task.
    Save,
    /// A review wants the engine's opinions: wake the review task.
    Review,
}
