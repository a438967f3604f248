//! The Gomoku AI protocol of the Gomocup tournaments (Petr Laštovička's
//! "new protocol"): a manager talks to a brain through its standard input
//! and output, one command per line.
//!
//! kxo-tui speaks it both ways: `headless::brain` makes kxo-tui's engines a brain
//! (`kxo-tui brain`), and [`outside`] plays an outside brain as a seat of
//! the live screen, of human mode or of `arena`.
//!
//! Coordinates are `x,y` from zero: `x` the column, `y` the row, so the
//! protocol's `0,0` is kxo-tui's A1 and `7,7` its H8.

pub mod gtp;
pub mod outside;
mod process;

use std::time::Duration;

use kxo_engine::AnyPosition;
use outside::PipeBudget;

/// Lines read from an outside engine between two looks at its clock: one
/// that floods its pipe still loses at its deadline, and on the live
/// screen the other tasks still run.
const LINES_A_WAIT: usize = 64;

/// An outside engine's answer: a move (in Go a pass too), or resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(Cell),
    Resign,
}

/// An outside program in a seat, whichever protocol it speaks: a Gomoku
/// brain ([`outside::OutsideBrain`]) or a GTP engine ([`gtp::OutsideGtp`]).
/// What a seat asks of it, the clock rule's questions included.
pub trait OutsideEngine {
    /// Its answer in `pos`; `Err(reason)` when it crashed, cheated or ran
    /// out of time, and so forfeits the game (killed, it answers every
    /// later question with the same reason).
    fn choose(&mut self, pos: &AnyPosition, budget: &mut dyn PipeBudget) -> Result<Reply, String>;
    /// The game's moves so far, in order.
    fn set_history(&mut self, moves: &[Cell]);
    /// What it said since the last call, for the Records tab.
    fn take_messages(&mut self) -> Vec<String>;
    /// The longest its next answer may take before it forfeits on time.
    fn set_move_limit(&mut self, limit: Option<Duration>);
    /// Whether it forfeited by giving no answer in time.
    fn out_of_time(&self) -> bool;
    /// The CPU time its process used on its last move.
    fn last_cpu(&self) -> Duration;
    /// How long its last move's call took before the move was asked
    /// (starting it, set-up commands, moves it was told, waits): time not
    /// charged to its clock.
    fn before_asked(&self) -> Duration;
    /// The game's clock, and what is left of it.
    fn set_match_clock(&mut self, total: Duration);
    fn set_time_left(&mut self, left: Duration);
    /// Keeps what was said both ways (`arena --log`), and hands it over.
    fn keep_transcript(&mut self);
    fn take_transcript(&mut self) -> Option<Vec<String>>;
    /// Whether it may play the next game in the same process
    /// (`restart=off`): it lost nothing and its process still runs.
    fn reusable(&mut self) -> bool;
    /// A new game follows in the same process: the next position goes
    /// whole, after `RESTART` (a brain) or `clear_board` (GTP), and its
    /// first move has the set-up allowance again.
    fn new_game(&mut self);
    /// Go: the stones it holds dead at the end of the game; `None` when it
    /// cannot say.
    fn dead_stones(&mut self, _budget: &mut dyn PipeBudget) -> Option<Vec<Cell>> {
        None
    }
    /// Go: its own count of the finished game (GTP's `final_score`, such
    /// as "B+3.5"), for the record beside kxo-tui's; `None` when it
    /// cannot say.
    fn final_score(&mut self, _budget: &mut dyn PipeBudget) -> Option<String> {
        None
    }
}

use kxo_engine::Cell;

/// A command from the manager, as the brain reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(String),
    RectStart(String),
    Restart,
    Begin,
    Turn(String),
    /// `BOARD`, followed by `x,y,field` lines and `DONE`.
    Board,
    Info {
        key: String,
        value: String,
    },
    End,
    About,
    Takeback(String),
    /// Anything else (the brain answers `UNKNOWN`).
    Unknown(String),
}

impl Command {
    /// Reads one line (case of the command word ignored, as the protocol
    /// allows).
    pub fn parse(line: &str) -> Command {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_uppercase().as_str() {
            "START" => Command::Start(rest.into()),
            "RECTSTART" => Command::RectStart(rest.into()),
            "RESTART" => Command::Restart,
            "BEGIN" => Command::Begin,
            "TURN" => Command::Turn(rest.into()),
            "BOARD" => Command::Board,
            "INFO" => {
                let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
                Command::Info {
                    key: key.to_ascii_lowercase(),
                    value: value.trim().into(),
                }
            }
            "END" => Command::End,
            "ABOUT" => Command::About,
            "TAKEBACK" => Command::Takeback(rest.into()),
            _ => Command::Unknown(line.into()),
        }
    }
}

/// Reads `x,y` (spaces allowed around the numbers).
pub fn parse_xy(text: &str) -> Option<(u32, u32)> {
    let (x, y) = text.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// The cell at protocol coordinates `(x, y)` on a board of side `size`.
pub fn cell_at(x: u32, y: u32, size: u8) -> Option<Cell> {
    (x < size as u32 && y < size as u32).then(|| Cell::from_row_col(y as u8, x as u8, size))
}

/// A cell as the protocol writes it: `x,y`.
pub fn xy(cell: Cell, size: u8) -> String {
    format!("{},{}", cell.col(size), cell.row(size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_coordinates_read_as_the_protocol_says() {
        assert_eq!(Command::parse("START 20"), Command::Start("20".into()));
        assert_eq!(
            Command::parse("turn 10,10\r"),
            Command::Turn("10,10".into())
        );
        assert_eq!(
            Command::parse("INFO timeout_turn 5000"),
            Command::Info {
                key: "timeout_turn".into(),
                value: "5000".into()
            }
        );
        assert_eq!(Command::parse("END"), Command::End);
        assert_eq!(
            Command::parse("PLAY 1,1"),
            Command::Unknown("PLAY 1,1".into())
        );
        assert_eq!(parse_xy(" 3, 4 "), Some((3, 4)));
        assert_eq!(parse_xy("3;4"), None);
        assert_eq!(parse_xy("-1,4"), None);
        let h8 = cell_at(7, 7, 15).unwrap();
        assert_eq!(h8.name(15), "H8");
        assert_eq!(xy(h8, 15), "7,7");
        assert_eq!(xy(Cell::parse("C1", 4).unwrap(), 4), "2,0");
        assert_eq!(cell_at(4, 0, 4), None);
    }
}
