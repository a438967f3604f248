//! Builds the threat suite (`crates/kxo-engine/src/ai/big/threat_suite.txt`) from games,
//! and measures it beside Rapfi.
//!
//! `threat_suite build [RAPFI] < games.txt` reads games, one a line, as
//! cell indices of a 15x15 board separated by spaces (an arena state's
//! `moves`). Walking each game back from its end, it asks kxo-tui's
//! threat search (a million nodes, 35 plies) and, if a brain is named,
//! Rapfi (a second) whether the side to move has a forced win; a win of
//! 15 plies or more found by the threat search must also hold against
//! every reply of the defender, each answered by a threat win two plies
//! shorter. It prints the positions where the longer of the two wins is
//! 15 to 35 plies, at most `PER_GAME` a game, each at least four plies
//! longer than the last, and leaves a game after `MISSES` positions in a
//! row where neither finds a win.
//!
//! `threat_suite measure [RAPFI] < suite.txt` prints, for each position,
//! the threat search's plies, nodes and milliseconds, what Negamax makes
//! of it in a second, and Rapfi's report in a second.
//!
//! `threat_suite vct < suite.txt` runs the threat search alone, and sums;
//! `threat_suite label < suite.txt` adds kxo-tui's label to the lines
//! without one where the search now proves a win that holds against
//! every reply.
//!
//! `threat_suite views RAPFI [MS] < positions.txt` prints, for each
//! position (a line of cell indices, as for `build`), Rapfi's eval and
//! the cell it would play, given MS milliseconds (200 unless said):
//! `EVAL CELL | position`, the data BENCHMARKS.md run AU fitted an
//! evaluation and a picker to.
//!
//! `threat_suite rate RAPFI < games.txt` prints, for each game, Rapfi's
//! eval at each of the first player's turns from its third move on
//! (`ply:eval`, `*` where the game's move is not Rapfi's choice): where a
//! game was won, thrown away or lost (BENCHMARKS.md run AG).
//!
//! `cargo run --release --example threat_suite -- measure /tmp/pbrain-rapfi \
//!     < crates/kxo-engine/src/ai/big/threat_suite.txt`

use std::io::{BufRead, Write};

use std::time::Duration;

use kxo_engine::gomoku::SuitePosition;
use kxo_engine::gomoku::{BigNegamax, ThreatSearch};
use kxo_engine::{Cell, Position, Rules};
use kxo_engine::{MoveBudget, Unlimited, Value};
use kxo_tui::protocol::outside::{BrainCommand, BrainReaper, OutsideBrain, Protocol, preflight};
use kxo_tui::signals;

const BUDGET: u32 = 1_000_000;
/// Nodes for the win after each reply of the full-width check.
const REPLY_BUDGET: u32 = 200_000;
const PER_GAME: usize = 2;
/// Positions in a row without a threat win after which a game is left:
/// the win was made later.
const MISSES: usize = 4;

/// Positions read from standard input at most (the suite has 115).
const MAX_POSITIONS: usize = 100_000;

fn main() -> std::process::ExitCode {
    // The brains it starts end with it, however it ends; SIGINT, SIGTERM
    // and SIGHUP stop it between two positions, as they stop the program.
    let _reaper = BrainReaper::install();
    if let Err(e) = signals::install() {
        eprintln!("threat_suite: signals: {e}");
        return std::process::ExitCode::from(2);
    }
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // A reader that stopped reading (`| head`) is not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("threat_suite: {e}");
            // Stopped by a signal: the shell's status for it (130 for
            // SIGINT), else 2.
            signals::requested().map_or(std::process::ExitCode::from(2), signals::exit_code)
        }
    }
}

fn run() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("measure") => measure(args.get(1).map(String::as_str)),
        Some("vct") => vct_only(),
        Some("label") => label(),
        Some("build") => build(args.get(1).map(String::as_str)),
        Some("rate") if args.len() == 2 => rate(&args[1]),
        Some("views") if (2..=3).contains(&args.len()) => {
            // An hour at most: a brain is handed the number as it is.
            let ms = match args.get(2) {
                Some(ms) => ms
                    .parse()
                    .ok()
                    .filter(|&ms| ms <= MAX_TURN_MS)
                    .ok_or_else(|| {
                        std::io::Error::other(format!(
                            "views: MS is a number of milliseconds up to {MAX_TURN_MS}"
                        ))
                    })?,
                None => 200,
            };
            views(&args[1], ms)
        }
        _ => Err(std::io::Error::other(
            "usage: threat_suite build [RAPFI] | measure [RAPFI] | vct | label | rate RAPFI | views RAPFI [MS] (reads standard input)",
        )),
    }
}

/// `Ok` unless a signal asked to stop: checked before each position.
fn go_on() -> std::io::Result<()> {
    match signals::requested() {
        Some(signal) => Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            signals::Stopped(signal),
        )),
        None => Ok(()),
    }
}

/// The suite's positions on standard input, with their boards, at most
/// [`MAX_POSITIONS`]; a line that is not one is named on standard error
/// and left out.
fn read_suite() -> std::io::Result<Vec<(SuitePosition, Position)>> {
    let mut read = Vec::new();
    for (number, line) in bounded_lines(std::io::stdin().lock()).enumerate() {
        go_on()?;
        if read.len() == MAX_POSITIONS {
            return Err(std::io::Error::other(format!(
                "more than {MAX_POSITIONS} positions on standard input"
            )));
        }
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        match SuitePosition::parse(text).and_then(|p| p.position().map(|pos| (p, pos))) {
            Some(entry) => read.push(entry),
            None => eprintln!("line {}: not a position of the suite, left out", number + 1),
        }
    }
    Ok(read)
}

/// The threat search's answer in `pos`, its nodes and its seconds.
fn prove(t: &ThreatSearch, pos: &Position) -> (Option<(Cell, u32)>, u32, f64) {
    let mut budget = BUDGET;
    let start = std::time::Instant::now();
    let found = t.find(pos, 35, &mut budget);
    (found, BUDGET - budget, start.elapsed().as_secs_f64())
}

/// Reads the suite's lines from standard input and prints, for each
/// position, its labels, then the plies, nodes and milliseconds of
/// kxo-tui's threat search (`-` for no win within the budget), then
/// Rapfi's report given a second, if a brain is named.
fn measure(rapfi: Option<&str>) -> std::io::Result<()> {
    let rules = SuitePosition::rules();
    let t = ThreatSearch::new(rules);
    let mut brain = rapfi.map(Brain::start).transpose()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "suite_kxo suite_rapfi | vct_plies vct_nodes vct_ms | negamax_1s nodes ms | rapfi_1s"
    )?;
    for (p, pos) in read_suite()? {
        go_on()?;
        let shown = |p: Option<u32>| p.map_or("-".to_string(), |p| p.to_string());
        let mut cols = vec![shown(p.vct_plies), shown(p.rapfi_plies)];
        let (found, nodes, seconds) = prove(&t, &pos);
        let ms = seconds * 1e3;
        cols.push(format!("{} {nodes} {ms:.1}", shown(found.map(|f| f.1))));
        cols.push(negamax_second(rules, &pos));
        if let Some(brain) = brain.as_mut() {
            cols.push(format!(
                "| {}",
                kxo_engine::text::shown(&brain.think(&p.moves)?)
            ));
        }
        writeln!(out, "{}", cols.join(" "))?;
    }
    Ok(())
}

/// What kxo-tui's Negamax makes of `pos` in a second: `W<plies>` for a
/// win it proves, with the milliseconds it took, else its depth.
fn negamax_second(rules: Rules, pos: &Position) -> String {
    let mut engine = BigNegamax::new(rules);
    let mut budget = MoveBudget::millis(1000);
    let analysis = engine.analyse(pos, &mut budget);
    let ms = analysis.elapsed.as_secs_f64() * 1e3;
    match analysis.value {
        Value::Win { plies } => format!("W{plies} {} {ms:.0}", analysis.nodes),
        _ => format!("d{} {} {ms:.0}", analysis.depth, analysis.nodes),
    }
}

/// Reads the suite's lines and prints them again, with kxo-tui's label
/// added where a line has none and the threat search now proves a win
/// that holds against every reply.
fn label() -> std::io::Result<()> {
    let t = ThreatSearch::new(SuitePosition::rules());
    let mut out = std::io::stdout().lock();
    for (mut p, pos) in read_suite()? {
        go_on()?;
        if p.vct_plies.is_none()
            && let (Some((cell, plies)), _, _) = prove(&t, &pos)
            && t.holds_against_every_reply(&pos, cell, plies, REPLY_BUDGET)
        {
            p.vct_plies = Some(plies);
        }
        writeln!(out, "{}", p.line())?;
    }
    Ok(())
}

/// The threat search alone over the suite's lines on standard input:
/// how many it proves, and its nodes and time in all.
fn vct_only() -> std::io::Result<()> {
    let t = ThreatSearch::new(SuitePosition::rules());
    let (mut proved, mut proving, mut nodes, mut seconds) = (0, 0u64, 0u64, 0.0);
    for (_, pos) in read_suite()? {
        go_on()?;
        let (found, used, took) = prove(&t, &pos);
        seconds += took;
        nodes += u64::from(used);
        if found.is_some() {
            proved += 1;
            proving += u64::from(used);
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "proved {proved} ({proving} nodes), {nodes} nodes in all, {seconds:.2} s"
    )?;
    Ok(())
}

/// An outside brain on the Gomoku AI protocol, given a second a move
/// (or `turn_ms`), asked about one position at a time: kxo-tui's own
/// client of the protocol, so the brain is started, read (bounded lines,
/// escaped), timed and ended as every brain of the program is.
struct Brain {
    command: BrainCommand,
    turn: Duration,
    brain: OutsideBrain,
}

/// The longest line read from standard input, with its newline: a
/// position of the 15x15 board takes under 1,000 bytes.
const MAX_LINE: usize = 4096;
/// The longest turn `views` gives a brain: an hour.
const MAX_TURN_MS: u64 = 3_600_000;

/// The lines of `reader`, each at most [`MAX_LINE`] bytes with its
/// newline; a longer one is an error, read no further than the limit
/// (a flood is not kept in memory). Bytes that are not UTF-8 are shown
/// as U+FFFD.
fn bounded_lines<R: BufRead>(mut reader: R) -> impl Iterator<Item = std::io::Result<String>> {
    std::iter::from_fn(move || {
        let mut line = Vec::new();
        match std::io::Read::take(&mut reader, MAX_LINE as u64 + 1).read_until(b'\n', &mut line) {
            Ok(0) => None,
            Ok(_) if line.len() > MAX_LINE => Some(Err(std::io::Error::other(format!(
                "a line longer than {MAX_LINE} bytes"
            )))),
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                Some(Ok(text.trim_end_matches(['\n', '\r']).to_string()))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

impl Brain {
    fn start(path: &str) -> std::io::Result<Brain> {
        Brain::start_with(path, 1000)
    }

    /// The brain at `path`, once it has answered `START` (a brain that
    /// cannot play ends the run before its first position).
    fn start_with(path: &str, turn_ms: u64) -> std::io::Result<Brain> {
        let command = BrainCommand {
            protocol: Protocol::Gomoku,
            program: path.to_string(),
            args: Vec::new(),
            own_folder: true,
        };
        preflight(&command, SuitePosition::rules())
            .map_err(|e| std::io::Error::other(e.to_string()))?;
        let turn = Duration::from_millis(turn_ms);
        let brain = OutsideBrain::new(command.clone(), SuitePosition::rules(), turn);
        Ok(Brain {
            command,
            turn,
            brain,
        })
    }

    /// The brain's last report on the position after `moves`; an empty
    /// one, and a new brain, if it stops answering.
    fn think(&mut self, moves: &[Cell]) -> std::io::Result<String> {
        Ok(self.think_move(moves)?.0)
    }

    /// The same, with the move it chose (none if it stopped answering).
    fn think_move(&mut self, moves: &[Cell]) -> std::io::Result<(String, Option<Cell>)> {
        let pos = Position::from_moves(SuitePosition::rules(), moves)
            .map_err(|(i, e)| std::io::Error::other(format!("move {}: {e}", i + 1)))?;
        self.brain.set_history(moves);
        // A fresh start each time: nothing learned from the last position.
        self.brain.ask_afresh();
        match self.brain.choose(&pos, &mut Unlimited::new()) {
            Ok(cell) => {
                let report = self
                    .brain
                    .take_messages()
                    .into_iter()
                    .rfind(|l| l.starts_with("Speed"))
                    .unwrap_or_default();
                Ok((report, Some(cell)))
            }
            Err(e) => {
                eprintln!("brain: {e}; starting it again");
                self.brain =
                    OutsideBrain::new(self.command.clone(), SuitePosition::rules(), self.turn);
                Ok((String::new(), None))
            }
        }
    }
}

fn build(rapfi: Option<&str>) -> std::io::Result<()> {
    let rules = Rules::new(15, 5).expect("15x15, five in a row");
    let t = ThreatSearch::new(rules);
    let mut brain = rapfi.map(Brain::start).transpose()?;
    let out = std::io::stdout();
    let mut out = out.lock();
    for (game, line) in bounded_lines(std::io::stdin().lock()).enumerate() {
        go_on()?;
        eprintln!("game {game}");
        let Some(moves) = game_moves(&line?) else {
            eprintln!("line {}: not a game of legal moves, left out", game + 1);
            continue;
        };
        let mut kept: Vec<u32> = Vec::new();
        let mut misses = 0;
        // From the end back: a win seen late is short; seen early, long.
        for n in (6..moves.len()).rev() {
            go_on()?;
            if kept.len() >= PER_GAME || misses >= MISSES {
                break;
            }
            let Ok(pos) = Position::from_moves(rules, &moves[..n]) else {
                continue;
            };
            if pos.outcome().is_over() {
                continue;
            }
            let mut budget = BUDGET;
            let ours = t.find(&pos, 35, &mut budget).filter(|&(cell, plies)| {
                plies < 15 || t.holds_against_every_reply(&pos, cell, plies, REPLY_BUDGET)
            });
            let theirs = match brain.as_mut() {
                Some(brain) => mate_in(&brain.think(&moves[..n])?),
                None => None,
            };
            if ours.is_none() && theirs.is_none() {
                misses += 1;
                continue;
            }
            misses = 0;
            let longest = ours.map(|(_, p)| p).max(theirs).unwrap_or(0);
            if !(15..=35).contains(&longest) || kept.iter().any(|&p| p + 4 > longest) {
                continue;
            }
            kept.push(longest);
            let found = SuitePosition {
                moves: moves[..n].to_vec(),
                vct_plies: ours.map(|(_, p)| p),
                rapfi_plies: theirs,
            };
            writeln!(out, "{}", found.line())?;
            out.flush()?;
        }
    }
    Ok(())
}

/// What a brain's report says of the position (`Eval -M22`, `Eval 135`).
fn eval_of(report: &str) -> &str {
    report
        .split('|')
        .find_map(|field| field.trim().strip_prefix("Eval "))
        .map_or("?", str::trim)
}

/// Rapfi's view of every game on standard input (one a line, as for
/// `build`) at each of the first player's turns from its third move on:
/// `ply:eval`, with `*` where the game's move differs from Rapfi's.
fn rate(rapfi: &str) -> std::io::Result<()> {
    let mut brain = Brain::start(rapfi)?;
    let mut out = std::io::stdout().lock();
    for (game, line) in bounded_lines(std::io::stdin().lock()).enumerate() {
        go_on()?;
        let Some(moves) = game_moves(&line?) else {
            eprintln!("line {}: not a game of legal moves, left out", game + 1);
            continue;
        };
        let mut seen = Vec::new();
        for n in (4..moves.len().saturating_sub(1)).step_by(2) {
            go_on()?;
            let (report, choice) = brain.think_move(&moves[..n])?;
            let differs = if choice == Some(moves[n]) { "" } else { "*" };
            // The brain's words, escaped: it is an outside program.
            let eval = kxo_engine::text::shown(eval_of(&report));
            seen.push(format!("{n}:{eval}{differs}"));
        }
        writeln!(out, "{game} {}", seen.join(" "))?;
        out.flush()?;
    }
    Ok(())
}

/// Rapfi's eval and chosen cell (`-` if none) for every position on
/// standard input (one a line, as for `build`), given `ms` a position,
/// each from a fresh start (`RESTART`).
fn views(rapfi: &str, ms: u64) -> std::io::Result<()> {
    let mut brain = Brain::start_with(rapfi, ms)?;
    let mut out = std::io::stdout().lock();
    for (number, line) in bounded_lines(std::io::stdin().lock()).enumerate() {
        go_on()?;
        let line = line?;
        let Some((moves, position)) = game_position(&line) else {
            eprintln!(
                "line {}: not a position of legal moves, left out",
                number + 1
            );
            continue;
        };
        if position.outcome().is_over() {
            eprintln!("line {}: the game is over, left out", number + 1);
            continue;
        }
        let (report, choice) = brain.think_move(&moves)?;
        // The brain's words, escaped: it is an outside program.
        let eval = kxo_engine::text::shown(eval_of(&report));
        let cell = choice.map_or("-".to_string(), |c| c.index().to_string());
        let cells: Vec<String> = moves.iter().map(|c| c.index().to_string()).collect();
        writeln!(out, "{eval} {cell} | {}", cells.join(" "))?;
        out.flush()?;
    }
    Ok(())
}

/// A game's moves from a line of cell indices (an arena state's
/// `moves`), if every word is a cell of the 15x15 board and the moves are
/// legal in turn (a word left out would hand the later moves to the other
/// side).
fn game_moves(line: &str) -> Option<Vec<Cell>> {
    game_position(line).map(|(moves, _)| moves)
}

/// [`game_moves`], and the position they reach.
fn game_position(line: &str) -> Option<(Vec<Cell>, Position)> {
    let moves = line
        .split_whitespace()
        .map(|w| w.parse::<usize>().ok().filter(|&i| i < 15 * 15))
        .map(|i| i.map(Cell::from_index))
        .collect::<Option<Vec<Cell>>>()?;
    let position = Position::from_moves(SuitePosition::rules(), &moves).ok()?;
    Some((moves, position))
}

/// The plies of the win a brain's report announces (`Eval +M13`).
fn mate_in(report: &str) -> Option<u32> {
    eval_of(report).strip_prefix("+M")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<std::io::Result<String>> {
        bounded_lines(std::io::BufReader::new(bytes)).collect()
    }

    #[test]
    fn lines_are_read_whole_up_to_the_limit_and_no_further() {
        let read = lines(b"112 113\r\n\xffrapfi\nlast");
        let read: Vec<String> = read.into_iter().map(|l| l.unwrap()).collect();
        assert_eq!(read, ["112 113", "\u{fffd}rapfi", "last"]);
        // At most MAX_LINE bytes with the newline.
        let mut longest = vec![b'x'; MAX_LINE - 1];
        longest.push(b'\n');
        assert_eq!(lines(&longest)[0].as_ref().unwrap().len(), MAX_LINE - 1);
        let mut too_long = vec![b'x'; MAX_LINE];
        too_long.push(b'\n');
        assert!(lines(&too_long)[0].is_err());
    }

    #[test]
    fn an_endless_line_is_an_error_not_a_flood_in_memory() {
        // Ten megabytes with no newline: refused at the limit (read
        // whole, it would be one line of ten megabytes).
        let flood = std::io::BufReader::new(std::io::Read::take(std::io::repeat(0), 10 << 20));
        let first = bounded_lines(flood).next();
        assert!(matches!(first, Some(Err(_))), "{first:?}");
    }

    #[test]
    fn a_position_is_legal_moves_on_the_board_or_nothing() {
        let (moves, position) = game_position("112 113 127").unwrap();
        assert_eq!(moves.len(), 3);
        assert_eq!(position.move_count(), 3);
        for bad in ["112 112", "225", "-1", "h8", "112 1e3"] {
            assert!(game_position(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn a_brains_eval_and_announced_win_are_read() {
        // Rapfi's report: fields between bars.
        let report = "MESSAGE Depth 12-20 | Eval +M13 | Time 40ms";
        assert_eq!(eval_of(report), "+M13");
        assert_eq!(mate_in(report), Some(13));
        assert_eq!(mate_in("MESSAGE Depth 9-15 | Eval -M13 | Time 40ms"), None);
        assert_eq!(eval_of("MESSAGE Depth 9-15 | Eval 212 | Time 9ms"), "212");
        assert_eq!(eval_of("no eval here"), "?");
        assert_eq!(mate_in("no eval here"), None);
    }
}
