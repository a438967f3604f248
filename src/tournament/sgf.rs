//! The little of SGF kxo-tui reads: a record's game (`GM`), board size,
//! komi, K and rule, set-up stones, players, result and the moves of its
//! main line. GTP's `loadsgf` and the loading of games to play on or to
//! review (`game_file`) read through it.

use kxo_engine::go::parse_sgf_point;
use kxo_engine::text::shown;
use kxo_engine::{Cell, Player};

/// What is read of a record: its main line.
#[derive(Debug, Default, PartialEq)]
pub struct SgfGame {
    /// `GM`: 1 Go, 4 Gomoku (none given: unknown).
    pub game: Option<u32>,
    pub size: Option<u8>,
    pub komi: Option<f32>,
    /// kxo-tui's `KX`: K in a row.
    pub goal: Option<u8>,
    /// `RU`, as written.
    pub rule: Option<String>,
    /// `PB`, `PW`.
    pub names: [String; 2],
    /// `RE`, as written.
    pub result: Option<String>,
    pub setup: Vec<(Player, Cell)>,
    pub moves: Vec<(Player, Cell)>,
}

/// Reads an SGF game's main line (the first variation at each branch):
/// SZ, KM, AB/AW set-up stones, B/W moves (`[]` or `tt` on 19x19 a pass).
pub fn read_sgf(text: &str) -> Result<SgfGame, String> {
    let bad = |why: &str| format!("cannot load file: {why}");
    let start = text.find("(;").ok_or_else(|| bad("not an SGF game"))?;
    let mut game = SgfGame::default();
    let mut chars = text[start + 1..].chars().peekable();
    let mut ident = String::new();
    while let Some(c) = chars.next() {
        match c {
            // The end of the main line's first variation ends the reading.
            ')' => break,
            '[' => {
                // A value's first 4 KiB are kept (a long comment is
                // read past, not refused).
                let mut value = String::new();
                let mut closed = false;
                while let Some(v) = chars.next() {
                    let v = match v {
                        '\\' => chars.next(),
                        ']' => {
                            closed = true;
                            break;
                        }
                        v => Some(v),
                    };
                    if value.len() < 4096 {
                        value.extend(v);
                    }
                }
                if !closed {
                    return Err(bad("the SGF ends inside a value"));
                }
                property(&mut game, &ident, value.trim()).map_err(|e| bad(&e))?;
                // Values go on (`AB[aa][bb]`) until a new name.
                if chars.peek().is_some_and(|c| c.is_ascii_uppercase()) {
                    ident.clear();
                }
            }
            c if c.is_ascii_uppercase() => ident.push(c),
            ';' => ident.clear(),
            _ => {}
        }
        if ident.len() > 8 {
            return Err(bad("a property name too long"));
        }
    }
    Ok(game)
}

/// Takes one property value into `game`.
fn property(game: &mut SgfGame, ident: &str, value: &str) -> Result<(), String> {
    let size = game.size.unwrap_or(19);
    let point = |v: &str| -> Result<Cell, String> {
        if v.is_empty() || (size <= 19 && v == "tt") {
            return Ok(Cell::PASS);
        }
        parse_sgf_point(v, size).ok_or_else(|| format!("'{}' is not a point", shown(v)))
    };
    match ident {
        "SZ" => {
            let n = value.parse::<u8>().map_err(|_| "SZ is not a size")?;
            game.size = Some(n);
        }
        "KM" => game.komi = value.parse::<f32>().ok().filter(|k| k.is_finite()),
        "GM" => game.game = value.parse().ok(),
        "KX" => game.goal = value.parse().ok(),
        "RU" => game.rule = Some(value.to_string()),
        "RE" => game.result = Some(value.to_string()),
        "PB" => game.names[0] = value.to_string(),
        "PW" => game.names[1] = value.to_string(),
        "AB" => game.setup.push((Player::O, point(value)?)),
        "AW" => game.setup.push((Player::X, point(value)?)),
        "B" => game.moves.push((Player::O, point(value)?)),
        "W" => game.moves.push((Player::X, point(value)?)),
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kxo_engine::go::vertex_name;

    #[test]
    fn sgf_main_lines_are_read_and_bad_records_refused() {
        let game = read_sgf("(;SZ[9]KM[5.5]AB[aa][bb]AW[cc];B[dd];W[](;B[ee])(;B[ff]))").unwrap();
        assert_eq!(game.size, Some(9));
        assert_eq!(game.komi, Some(5.5));
        assert_eq!(game.setup.len(), 3);
        let moves: Vec<String> = game.moves.iter().map(|&(_, c)| vertex_name(c, 9)).collect();
        assert_eq!(moves, ["D6", "pass", "E5"]);
        // Escaped brackets in a comment do not end the value.
        let game = read_sgf("(;SZ[9]C[a \\] b];B[aa])").unwrap();
        assert_eq!(game.moves.len(), 1);
        assert!(read_sgf("not a record").is_err());
        assert!(read_sgf("(;SZ[9];B[zz])").is_err());
    }
}
