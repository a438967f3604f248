//! A game from a file, to play on (`--human --load FILE`) or to review
//! (`kxo-tui review FILE`): SGF, kxo-tui's or another program's (Gomoku
//! `GM[4]`, Go `GM[1]`), or Gomocup's `.psq`. The moves are replayed on
//! the board the file names, so a record that breaks the rules is refused
//! with the move that does.

use std::path::Path;

use super::sgf::read_sgf;
use kxo_engine::text::shown;
use kxo_engine::{AnyPosition, Cell, Player, Rule, Rules};

/// What a game file holds, checked: its rules and its legal moves.
#[derive(Clone, Debug)]
pub struct GameFile {
    pub rules: Rules,
    pub moves: Vec<Cell>,
    /// The players, first player (Black, O) first, if the file names them.
    pub names: [String; 2],
    /// The result as the file writes it (`B+`, `W+R`, `0`…), if any.
    pub result: Option<String>,
}

/// Game files, as the gate reads them (another program's are welcome).
const GAME_FILE: crate::gate::Kind = crate::gate::Kind {
    what: "game file",
    max_bytes: 4 << 20,
    max_line: 1 << 20,
    ours: crate::gate::Ours::Never,
};

/// Reads and checks the game file at `path`.
pub fn load(path: &Path) -> Result<GameFile, String> {
    let bytes = crate::gate::read(path, GAME_FILE)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no game file {}", shown(&path.display().to_string())))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| {
        format!(
            "{} is not a game record: it is not text",
            shown(&path.display().to_string())
        )
    })?;
    parse(text).map_err(|e| format!("{}: {e}", shown(&path.display().to_string())))
}

/// Reads a game record's text: SGF or psq, told apart by their first bytes.
pub fn parse(text: &str) -> Result<GameFile, String> {
    let start = text.trim_start();
    if start.starts_with("Piskvorky") {
        let psq = super::records::read_psq(text)?;
        let rules = line_rules(psq.size, None, None)?;
        return checked(rules, psq.moves, psq.names, None);
    }
    if !start.starts_with('(') {
        return Err("not a game record: SGF starts with '(;', psq with 'Piskvorky'".into());
    }
    let sgf = read_sgf(text)?;
    // SGF's defaults: Go (GM[1]); 19x19 for Go, 15x15 for Gomoku.
    match sgf.game.unwrap_or(1) {
        1 => {
            let size = sgf.size.unwrap_or(19);
            let komi2 = sgf
                .komi
                .map_or(kxo_engine::GO_KOMI2, |k| (k * 2.0).round() as i16);
            let handicap = go_handicap(size, &sgf.setup)?;
            let rules = Rules::go(size, komi2, handicap).map_err(|e| e.0)?;
            let moves = alternating(&sgf.moves, handicap > 0)?;
            checked(rules, moves, sgf.names, sgf.result)
        }
        4 if sgf.setup.is_empty() => {
            let rules = line_rules(sgf.size.unwrap_or(15), sgf.goal, sgf.rule.as_deref())?;
            let moves = alternating(&sgf.moves, false)?;
            checked(rules, moves, sgf.names, sgf.result)
        }
        4 => Err("set-up stones (AB, AW) on a Gomoku board are not read".into()),
        other => Err(format!("GM[{other}] is neither Go (1) nor Gomoku (4)")),
    }
}

/// A line game's rules: K from `KX` (five in a row unless the board is
/// smaller), free-style or exact five by `RU`.
fn line_rules(size: u8, goal: Option<u8>, rule: Option<&str>) -> Result<Rules, String> {
    let goal = goal.unwrap_or(5.min(size));
    let rule = match rule.map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "freestyle" | "free" | "gomoku") => Rule::Freestyle,
        Some("standard" | "exact" | "exactly five") => Rule::Standard,
        Some(other) => {
            return Err(format!(
                "the rule RU[{}] is not one kxo-tui plays (freestyle, standard)",
                shown(other)
            ));
        }
    };
    Ok(Rules::new(size, goal).map_err(|e| e.0)?.with_rule(rule))
}

/// Go's handicap from set-up stones: Black's on the fixed points only.
fn go_handicap(size: u8, setup: &[(Player, Cell)]) -> Result<u8, String> {
    if setup.is_empty() {
        return Ok(0);
    }
    let black: Vec<Cell> = setup
        .iter()
        .filter(|s| s.0 == Player::O)
        .map(|s| s.1)
        .collect();
    let count = black.len() as u8;
    let mut fixed = kxo_engine::go::handicap_points(size, count);
    let mut given = black.clone();
    fixed.sort();
    given.sort();
    if black.len() != setup.len() || count < 2 || fixed != given {
        return Err("set-up stones other than a fixed handicap are not read".into());
    }
    Ok(count)
}

/// The moves, which must alternate: Black first, or White after a handicap.
fn alternating(moves: &[(Player, Cell)], white_first: bool) -> Result<Vec<Cell>, String> {
    let mut side = if white_first { Player::X } else { Player::O };
    let mut out = Vec::with_capacity(moves.len());
    for (i, &(player, cell)) in moves.iter().enumerate() {
        if player != side {
            let colour = |p: Player| if p == Player::O { "B" } else { "W" };
            return Err(format!(
                "move {} is {}, not {}: the moves do not alternate",
                i + 1,
                colour(player),
                colour(side)
            ));
        }
        out.push(cell);
        side = side.other();
    }
    Ok(out)
}

/// The record, once its moves are replayed legally on its board.
fn checked(
    rules: Rules,
    moves: Vec<Cell>,
    names: [String; 2],
    result: Option<String>,
) -> Result<GameFile, String> {
    AnyPosition::from_moves(rules, &moves).map_err(|(i, e)| {
        let cell = moves
            .get(i)
            .map(|&c| rules.cell_name(c))
            .unwrap_or_default();
        format!("move {} ({cell}) cannot be played: {e}", i + 1)
    })?;
    Ok(GameFile {
        rules,
        moves,
        names: names.map(|n| shown(&n)),
        result: result.map(|r| shown(&r)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_other_programs_load() {
        // An SGF written by hand from the format's definition (FF[4]):
        // no KX, a variation, a comment with a bracket.
        let sgf = "(;FF[4]GM[4]SZ[15]PB[Alice]PW[Bob]C[a \\] note]\n;B[hh];W[ii]\n(;B[hi];W[gg])(;B[aa]))";
        let game = parse(sgf).unwrap();
        assert_eq!((game.rules.size(), game.rules.goal()), (15, 5));
        let names: Vec<String> = game.moves.iter().map(|&c| c.name(15)).collect();
        assert_eq!(names, ["H8", "I9", "H9", "G7"]);
        assert_eq!(game.names, ["Alice".to_string(), "Bob".to_string()]);
        // piskvork's psq: a header, x,y,ms lines, the names, a code.
        let psq = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,320\n10,11,15\nbrainA\nbrainB\n0\n";
        let game = parse(psq).unwrap();
        assert_eq!(game.rules.size(), 20);
        assert_eq!(game.moves.len(), 3);
        assert_eq!(game.moves[0], Cell::from_row_col(9, 9, 20));
        // Go, with a handicap: White moves first.
        let go = "(;GM[1]SZ[9]KM[0.5]HA[2]AB[gc][cg];W[ee];B[dd];W[])";
        let game = parse(go).unwrap();
        assert!(game.rules.is_go());
        assert_eq!((game.rules.handicap(), game.rules.komi2()), (2, 1));
        assert_eq!(game.moves.len(), 3);
    }

    #[test]
    fn bad_records_are_refused_with_the_reason() {
        for (text, why) in [
            ("hello", "not a game record"),
            ("(;GM[4]SZ[15];B[hh];B[ii])", "do not alternate"),
            ("(;GM[4]SZ[15];B[hh];W[hh])", "move 2 (H8) cannot be played"),
            ("(;GM[4]SZ[15];B[zz])", "not a point"),
            ("(;GM[2]SZ[8])", "neither Go"),
            ("(;GM[4]SZ[15]RU[renju];B[hh])", "not one kxo-tui plays"),
            ("(;GM[1]SZ[9]AB[aa][bb];W[cc])", "fixed handicap"),
            ("(;GM[4]SZ[99];B[aa])", "out of range"),
            ("Piskvorky 15x15, 11:11, 0\n16,1,0\n", "off the board"),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.contains(why), "{text:?}: {err}");
        }
    }
}
