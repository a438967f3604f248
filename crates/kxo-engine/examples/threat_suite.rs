//! Builds the threat suite (`src/ai/big/threat_suite.txt`) from games,
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
//! `cargo run --release -p kxo-engine --example threat_suite -- measure /tmp/pbrain-rapfi \
//!     < crates/kxo-engine/src/ai/big/threat_suite.txt`

use std::io::{BufRead, Write};

use kxo_engine::ai::big::suite::SuitePosition;
use kxo_engine::ai::big::{BigBoard, BigNegamax, Tables, vct};
use kxo_engine::ai::{Unlimited, Value};
use kxo_engine::game::{Cell, Position, Rules};

const BUDGET: u32 = 1_000_000;
/// Nodes for the win after each reply of the full-width check.
const REPLY_BUDGET: u32 = 200_000;
const PER_GAME: usize = 2;
/// Positions in a row without a threat win after which a game is left:
/// the win was made later.
const MISSES: usize = 4;

fn main() -> std::process::ExitCode {
    match run() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // A reader that stopped reading (`| head`) is not a failure.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("threat_suite: {e}");
            std::process::ExitCode::from(2)
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

/// The suite's positions on standard input, with their boards; a line
/// that is not one is named on standard error and left out.
fn read_suite() -> std::io::Result<Vec<(SuitePosition, Position)>> {
    let mut read = Vec::new();
    for (number, line) in bounded_lines(std::io::stdin().lock()).enumerate() {
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
fn prove(t: &Tables, pos: &Position) -> (Option<(usize, u32)>, u32, f64) {
    let b = BigBoard::from_position(t, pos);
    let mut budget = BUDGET;
    let start = std::time::Instant::now();
    let found = vct::find(t, &b, 35, &mut budget);
    (found, BUDGET - budget, start.elapsed().as_secs_f64())
}

/// Reads the suite's lines from standard input and prints, for each
/// position, its labels, then the plies, nodes and milliseconds of
/// kxo-tui's threat search (`-` for no win within the budget), then
/// Rapfi's report given a second, if a brain is named.
fn measure(rapfi: Option<&str>) -> std::io::Result<()> {
    let rules = SuitePosition::rules();
    let t = Tables::new(rules);
    let mut brain = rapfi.map(Brain::start).transpose()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "suite_kxo suite_rapfi | vct_plies vct_nodes vct_ms | negamax_1s nodes ms | rapfi_1s"
    )?;
    for (p, pos) in read_suite()? {
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
    engine.set_time_limit(std::time::Duration::from_secs(1));
    let mut budget = Unlimited::new();
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
    let t = Tables::new(SuitePosition::rules());
    let mut out = std::io::stdout().lock();
    for (mut p, pos) in read_suite()? {
        if p.vct_plies.is_none() {
            let b = BigBoard::from_position(&t, &pos);
            if let (Some((cell, plies)), _, _) = prove(&t, &pos)
                && holds_against_every_reply(&t, &b, cell, plies)
            {
                p.vct_plies = Some(plies);
            }
        }
        writeln!(out, "{}", p.line())?;
    }
    Ok(())
}

/// The threat search alone over the suite's lines on standard input:
/// how many it proves, and its nodes and time in all.
fn vct_only() -> std::io::Result<()> {
    let t = Tables::new(SuitePosition::rules());
    let (mut proved, mut proving, mut nodes, mut seconds) = (0, 0u64, 0u64, 0.0);
    for (_, pos) in read_suite()? {
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
/// (or `turn_ms`).
struct Brain {
    path: String,
    turn_ms: u64,
    child: std::process::Child,
    input: std::process::ChildStdin,
    /// Its lines, read by a thread of their own, so that a brain that
    /// stops answering costs a timeout, not the run.
    output: std::sync::mpsc::Receiver<String>,
}

/// The longest line read, from standard input or a brain, with its
/// newline: a position of the 15x15 board takes under 1,000 bytes.
const MAX_LINE: usize = 4096;
/// The longest turn `views` gives a brain: an hour.
const MAX_TURN_MS: u64 = 3_600_000;
/// A brain's lines waiting to be read.
const QUEUE: usize = 64;

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

/// The longest a brain may be silent before it is started again.
const SILENCE: std::time::Duration = std::time::Duration::from_secs(10);

impl Brain {
    fn start(path: &str) -> std::io::Result<Brain> {
        Brain::start_with(path, 1000)
    }

    fn start_with(path: &str, turn_ms: u64) -> std::io::Result<Brain> {
        use std::os::unix::process::CommandExt;
        use std::process::{Command, Stdio};
        let mut command = Command::new(path);
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (prctl, getppid, _exit).
        unsafe {
            let parent = libc::getpid();
            command.pre_exec(move || {
                // Ended with this example, even when it is killed by a
                // signal (a brain may ignore the end of its input); and
                // not started if the example died before this line ran.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
        let mut child = command.spawn()?;
        let missing = || std::io::Error::other("no pipe");
        let input = child.stdin.take().ok_or_else(missing)?;
        let stdout = std::io::BufReader::new(child.stdout.take().ok_or_else(missing)?);
        // A bounded queue of bounded lines: a brain that floods its output
        // waits for the reader, and an endless line ends the reading (the
        // brain is then silent, and started again).
        let (send, output) = std::sync::mpsc::sync_channel(QUEUE);
        std::thread::spawn(move || {
            for line in bounded_lines(stdout).map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut brain = Brain {
            path: path.to_string(),
            turn_ms,
            child,
            input,
            output,
        };
        brain.send(&format!(
            "START 15\nINFO timeout_turn {turn_ms}\nINFO timeout_match 10000000\nINFO rule 0"
        ))?;
        brain.read_until(|l| l.starts_with("OK"))?;
        Ok(brain)
    }

    fn send(&mut self, text: &str) -> std::io::Result<()> {
        writeln!(self.input, "{text}")?;
        self.input.flush()
    }

    /// Lines until one `done` accepts: the last [`QUEUE`] `MESSAGE` lines,
    /// and that line. The answer must come within the silence limit (a
    /// brain given a long turn may think twice that), however many other
    /// lines the brain sends meanwhile.
    fn read_until(
        &mut self,
        done: impl Fn(&str) -> bool,
    ) -> std::io::Result<(Vec<String>, String)> {
        let limit = SILENCE.max(std::time::Duration::from_millis(
            self.turn_ms.saturating_mul(2),
        ));
        let deadline = std::time::Instant::now() + limit;
        let mut said = std::collections::VecDeque::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = self
                .output
                .recv_timeout(left)
                .map_err(|_| std::io::Error::other("the brain is silent or gone"))?;
            let line = line.trim().to_string();
            if done(&line) {
                return Ok((said.into(), line));
            }
            match line.strip_prefix("MESSAGE ") {
                Some(text) => {
                    if said.len() == QUEUE {
                        said.pop_front();
                    }
                    said.push_back(text.to_string());
                }
                None => eprintln!("brain: {}", kxo_engine::text::shown(&line)),
            }
        }
    }

    /// The brain's last report on the position after `moves`; an empty
    /// one, and a new brain, if it stops answering.
    fn think(&mut self, moves: &[Cell]) -> std::io::Result<String> {
        Ok(self.think_move(moves)?.0)
    }

    /// The same, with the move it chose (none if it stopped answering).
    fn think_move(&mut self, moves: &[Cell]) -> std::io::Result<(String, Option<Cell>)> {
        match self.ask(moves) {
            Ok(answer) => Ok(answer),
            Err(e) => {
                eprintln!("brain: {e}; starting it again");
                *self = Brain::start_with(&self.path, self.turn_ms)?;
                Ok((String::new(), None))
            }
        }
    }

    fn ask(&mut self, moves: &[Cell]) -> std::io::Result<(String, Option<Cell>)> {
        let own = moves.len() % 2;
        // A fresh start each time: nothing learned from the last position.
        self.send("RESTART")?;
        self.read_until(|l| l.starts_with("OK"))?;
        let mut text = String::from("BOARD");
        for (i, cell) in moves.iter().enumerate() {
            let (row, col) = (cell.row(15), cell.col(15));
            let field = if i % 2 == own { 1 } else { 2 };
            text.push_str(&format!("\n{col},{row},{field}"));
        }
        text.push_str("\nDONE");
        self.send(&text)?;
        let (said, answer) = self.read_until(|l| cell_of(l).is_some())?;
        let report = said
            .iter()
            .rfind(|l| l.starts_with("Speed"))
            .cloned()
            .unwrap_or_default();
        Ok((report, cell_of(&answer)))
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.send("END");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn build(rapfi: Option<&str>) -> std::io::Result<()> {
    let rules = Rules::new(15, 5).expect("15x15, five in a row");
    let t = Tables::new(rules);
    let mut brain = rapfi.map(Brain::start).transpose()?;
    let out = std::io::stdout();
    let mut out = out.lock();
    for (game, line) in bounded_lines(std::io::stdin().lock()).enumerate() {
        eprintln!("game {game}");
        let Some(moves) = game_moves(&line?) else {
            eprintln!("line {}: not a game of legal moves, left out", game + 1);
            continue;
        };
        let mut kept: Vec<u32> = Vec::new();
        let mut misses = 0;
        // From the end back: a win seen late is short; seen early, long.
        for n in (6..moves.len()).rev() {
            if kept.len() >= PER_GAME || misses >= MISSES {
                break;
            }
            let Ok(pos) = Position::from_moves(rules, &moves[..n]) else {
                continue;
            };
            if pos.outcome().is_over() {
                continue;
            }
            let b = BigBoard::from_position(&t, &pos);
            let mut budget = BUDGET;
            let ours = vct::find(&t, &b, 35, &mut budget).filter(|&(cell, plies)| {
                plies < 15 || holds_against_every_reply(&t, &b, cell, plies)
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

/// The cell of a brain's answer `x,y` on the 15x15 board.
fn cell_of(answer: &str) -> Option<Cell> {
    let (x, y) = answer.split_once(',')?;
    let (col, row) = (x.trim().parse::<u8>().ok()?, y.trim().parse::<u8>().ok()?);
    (col < 15 && row < 15).then(|| Cell::from_row_col(row, col, 15))
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
        let Some(moves) = game_moves(&line?) else {
            eprintln!("line {}: not a game of legal moves, left out", game + 1);
            continue;
        };
        let mut seen = Vec::new();
        for n in (4..moves.len().saturating_sub(1)).step_by(2) {
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

/// Whether, after `cell`, the attacker wins against every empty cell the
/// defender could play, each answered by a threat win within `plies - 2`.
fn holds_against_every_reply(t: &Tables, b: &BigBoard, cell: usize, plies: u32) -> bool {
    let mut next = *b;
    next.play(t, cell);
    if next.outcome().is_over() {
        return true;
    }
    next.empty_cells(t).iter().all(|reply| {
        let mut after = next;
        after.play(t, reply);
        let mut budget = REPLY_BUDGET;
        !after.outcome().is_over() && vct::find(t, &after, plies - 2, &mut budget).is_some()
    })
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

    /// Set in the helper's environment: the helper test below runs only
    /// as the child of the next one.
    const HELPER: &str = "KXO_THREAT_SUITE_HELPER";

    /// (Run by the next test, as its child.) Starts a brain that answers
    /// `START` and then ignores everything, its end of input too, says
    /// its process id and waits to be killed.
    #[test]
    fn helper_starts_a_brain_that_ignores_its_end_of_input() {
        let Some(script) = std::env::var_os(HELPER) else {
            return;
        };
        let brain = Brain::start_with(&script.to_string_lossy(), 1000).unwrap();
        println!("brain pid {}", brain.child.id());
        std::thread::sleep(std::time::Duration::from_secs(60));
    }

    /// Whether process `pid` is gone (or dead and not yet reaped).
    fn gone(pid: u32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z')),
        }
    }

    #[test]
    fn a_brain_ends_with_the_example_even_when_it_is_killed() {
        use std::io::Read;
        // A fresh folder of its own (not a name another process could
        // have made a link of first), removed when the test ends.
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("stubborn.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\ntrap '' TERM HUP\nwhile :; do\n  if read -r l; then\n    \
             case \"$l\" in START*) echo OK;; esac\n  else sleep 1; fi\ndone\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut helper = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "tests::helper_starts_a_brain_that_ignores_its_end_of_input",
            ])
            .args(["--nocapture", "--test-threads", "1"])
            .env(HELPER, &script)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The brain's pid, from the helper's first lines.
        let mut out = helper.stdout.take().unwrap();
        let mut seen = String::new();
        let mut buf = [0u8; 256];
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let pid = loop {
            let n = out.read(&mut buf).unwrap();
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
            // (The test harness prints the test's name on the same line.)
            let said = seen.split_once("brain pid ").map(|(_, rest)| rest);
            if let Some(pid) = said
                .and_then(|rest| rest.split_once('\n'))
                .and_then(|(pid, _)| pid.trim().parse::<u32>().ok())
            {
                break pid;
            }
            assert!(n > 0 && std::time::Instant::now() < deadline, "{seen}");
        };
        assert!(!gone(pid), "the brain should be running");
        helper.kill().unwrap();
        helper.wait().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !gone(pid) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let ended = gone(pid);
        if !ended {
            // SAFETY: a plain kill(2) of the pid this test started.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        }
        assert!(ended, "the brain outlived the example killed by SIGKILL");
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
