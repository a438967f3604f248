//! `kxo-tui solve`: the perfect-play value of a position.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::InputError;
pub use super::solve_report::{DEFAULT_HASH_MB, SearchOptions, SolveReport};
use kxo_engine::Value;
use kxo_engine::solver::Solver;
use kxo_engine::solver::{ProgressReport, Unsettled};
use kxo_engine::{Cell, MoveError, Player, Position, Rules};
/// What `solve` is asked.
#[derive(Clone, Debug)]
pub struct SolveOptions {
    pub rules: Rules,
    /// Moves played so far, from O's first: "B2,C3,A1".
    pub moves: String,
    pub json: bool,
    /// The table's most memory, in MiB.
    pub hash_mb: usize,
    /// Give up after this long with an "unsettled" answer.
    pub timeout: Option<std::time::Duration>,
    /// Where to write a proof that the side to move cannot win.
    pub proof: Option<std::path::PathBuf>,
    /// Keep each settled root move in this file (JSON)…
    pub checkpoint: Option<std::path::PathBuf>,
    /// …and go on from one kept before.
    pub resume: Option<std::path::PathBuf>,
}

/// Reads a move list such as "B2,C3" and plays it, with a clear error for
/// malformed, repeated or illegal moves.
pub fn position_from_moves(rules: Rules, text: &str) -> Result<Position, InputError> {
    let cells = rules.parse_cells(text).map_err(|e| InputError(e.0))?;
    let size = rules.size();
    Position::from_moves(rules, &cells).map_err(|(i, e)| {
        let name = cells[i].name(size);
        InputError(match e {
            MoveError::Occupied(_) => format!("move {} ({name}) is on a cell already taken", i + 1),
            MoveError::GameOver => format!("move {} ({name}) comes after the game is over", i + 1),
            MoveError::OffBoard(_) => format!("move {} ({name}) is off the board", i + 1),
            e => format!("move {} ({name}): {e}", i + 1),
        })
    })
}

/// Solves the position reached by `moves` under `rules`, with no limit.
pub fn solve(rules: Rules, moves: &str) -> Result<SolveReport, InputError> {
    solve_with(rules, moves, SearchOptions::default())
}

/// Solves the position reached by `moves` under `rules`; a search stopped
/// by the timeout or the flag gives a report with no value.
pub fn solve_with(
    rules: Rules,
    moves: &str,
    options: SearchOptions,
) -> Result<SolveReport, InputError> {
    let pos = position_from_moves(rules, moves)?;
    if pos.outcome().is_over() {
        return Err(InputError(
            "that position is already over: there is nothing to solve".into(),
        ));
    }
    if !rules.is_small() {
        return Ok(super::solve_big::search_big(&pos, moves, options));
    }
    let mut solver = Solver::with_hash_bytes(rules, options.hash_bytes);
    solver.set_timeout(options.timeout);
    if let Some(flag) = options.stop {
        solver.set_stop_flag(flag);
    }
    if let Some(mut report) = options.progress {
        solver.on_progress(Duration::from_millis(500), move |p| report(p));
    }
    let started = Instant::now();
    let result = solver.solve(&pos);
    let me = pos.to_move();
    let (move_names, ms) =
        super::solve_report::moves_and_ms(moves, rules.size(), started.elapsed());
    let mut report = SolveReport {
        size: rules.size(),
        goal: rules.goal(),
        rule: rules.rule(),
        value: None,
        unsettled: None,
        best_move: None,
        plies: None,
        nodes: solver.nodes(),
        ms,
        moves: move_names,
        to_move: me.symbol(),
        note: None,
    };
    match result {
        Ok(analysis) => {
            let (winner, plies) = match analysis.value {
                Value::Win { plies } => (Some(me), plies),
                Value::Loss { plies } => (Some(me.other()), plies),
                // The solver never answers with a guess.
                Value::Draw | Value::Unknown(_) => (None, pos.empty().count()),
            };
            report.value = Some(match winner {
                Some(Player::O) => "first",
                Some(Player::X) => "second",
                None => "draw",
            });
            report.best_move = Some(rules.cell_name(analysis.best));
            report.plies = Some(plies);
        }
        Err(why) => {
            report.unsettled = Some(match why {
                Unsettled::Timeout => "timeout",
                Unsettled::Interrupted => "interrupted",
            });
        }
    }
    Ok(report)
}

/// A solve split by the root's moves, kept in a checkpoint file at `path`
/// as each is settled (`--checkpoint`), or going on from one (`resume`,
/// `--resume`). Symmetric root moves are solved once. A root move that
/// wins ends the run; otherwise the value is the best of them all.
pub fn solve_checkpointed(
    rules: Rules,
    moves: &str,
    options: SearchOptions,
    path: &std::path::Path,
    resume: bool,
) -> anyhow::Result<SolveReport> {
    use super::checkpoint::{self, SettledMove};
    let pos = position_from_moves(rules, moves)?;
    let n = rules.size();
    let name = kxo_engine::text::shown(&path.display().to_string());
    if pos.outcome().is_over() {
        return Err(
            InputError("that position is already over: there is nothing to solve".into()).into(),
        );
    }
    if !rules.is_small() {
        return Err(
            InputError("--checkpoint and --resume need a board of at most 8x8".into()).into(),
        );
    }
    let mut cp = open_checkpoint(path, rules, moves, resume)?;
    let roots = distinct_root_moves(&pos);
    if let Some(bad) = cp
        .settled
        .iter()
        .find(|s| !roots.iter().any(|(cell, _)| cell.name(n) == s.cell))
    {
        return Err(InputError(format!(
            "checkpoint {name} names {}, not a first move of this position it would solve",
            kxo_engine::text::shown(&bad.cell)
        ))
        .into());
    }
    cp.version = checkpoint::VERSION;
    if !resume {
        checkpoint::write(path, &cp)?;
    }
    let deadline = options.timeout.map(|t| Instant::now() + t);
    let snapshot = Rc::new(RefCell::new(cp.clone()));
    let mut solver = checkpointing_solver(rules, options, &snapshot, path)?;
    let started = Instant::now();
    let me = pos.to_move();
    let fill = pos.empty().count();
    let mut unsettled = None;
    // The first pass asks of each root move whether the side to move can
    // still win after it; its weak game alone says no for most, and only a
    // yes needs the exact value. When no move wins, the second pass asks
    // of the moves left as "no win" whether the other side can win after
    // them: the first where it cannot is a draw, and settles the root. It
    // goes from the centre out, where the other side is weakest.
    let from_centre = centre_first(&roots, n);
    let won = |cp: &checkpoint::Checkpoint| cp.settled.iter().any(|s| s.value == "win");
    'passes: for second in [false, true] {
        if won(&cp) || (second && cp.settled.iter().any(|s| s.value == "draw")) {
            break;
        }
        let order = if second {
            &from_centre
        } else {
            &roots.iter().collect()
        };
        for &(cell, child) in order {
            let cell_name = cell.name(n);
            let known = cp.settled.iter().position(|s| s.cell == cell_name);
            let todo = match known {
                None => !second,
                Some(i) => second && cp.settled[i].value == "no win",
            };
            if !todo {
                continue;
            }
            solver.set_timeout(deadline.map(|d| d.saturating_duration_since(Instant::now())));
            *snapshot.borrow_mut() = cp.clone();
            let (who, pass) = if second { (me.other(), 2) } else { (me, 1) };
            stderr_line(&format!(
                "solving {cell_name}: can {who} win after it? (pass {pass})"
            ));
            let (result, nodes) = settle_root_move(&mut solver, child, me, second, fill);
            cp.nodes += nodes;
            let (value, plies) = match result {
                Ok(found) => found,
                Err(why) => {
                    unsettled = Some(why);
                    break 'passes;
                }
            };
            let record = SettledMove {
                cell: cell_name.clone(),
                value: value.into(),
                plies,
                nodes,
            };
            match known {
                Some(i) => cp.settled[i] = record,
                None => cp.settled.push(record),
            }
            checkpoint::write(path, &cp)?;
            stderr_line(&format!(
                "settled {cell_name}: {value} for {me} ({}/{} root moves)",
                cp.settled.len(),
                roots.len()
            ));
            if value == "win" || (second && value == "draw") {
                break 'passes;
            }
        }
    }
    cp.seconds += started.elapsed().as_secs_f64();
    cp.lemmas = lemma_records(&solver, n);
    checkpoint::write(path, &cp)?;
    Ok(checkpoint_report(
        &cp,
        &pos,
        moves,
        roots.len(),
        unsettled,
        &name,
    ))
}

/// A line on stderr, which on a terminal first clears the progress line
/// drawn there.
fn stderr_line(text: &str) {
    if crate::out::stderr_is_terminal() {
        crate::note!("\r\x1b[2K{text}");
    } else {
        crate::note!("{text}");
    }
}

/// `roots` from the centre of an `n` x `n` board out.
fn centre_first(roots: &[(Cell, Position)], n: u8) -> Vec<&(Cell, Position)> {
    let off_centre = |cell: &Cell| {
        let (r, c) = (i32::from(cell.row(n)) * 2, i32::from(cell.col(n)) * 2);
        (r - i32::from(n) + 1).abs() + (c - i32::from(n) + 1).abs()
    };
    let mut sorted: Vec<_> = roots.iter().collect();
    sorted.sort_by_key(|(cell, _)| off_centre(cell));
    sorted
}

/// One root move of a checkpointed run (`child`: the position after it),
/// for the side to move at the root, `me`: in the first pass whether `me`
/// can still win after it ("no win" when its weak game says not, else the
/// exact value), in the second whether the other side can ("draw" when
/// not, else the exact value). Also the nodes it took. `fill`: the plies
/// to a full board from the root.
fn settle_root_move(
    solver: &mut Solver,
    child: &Position,
    me: Player,
    second: bool,
    fill: u32,
) -> (Result<(&'static str, u32), Unsettled>, u64) {
    match child.outcome() {
        kxo_engine::Outcome::Win(_) => return (Ok(("win", 1)), 0),
        kxo_engine::Outcome::Draw => return (Ok(("draw", 1)), 0),
        kxo_engine::Outcome::Ongoing => {}
    }
    let attacker = if second { me.other() } else { me };
    let weak = solver.weak_game(child, attacker);
    let mut nodes = solver.nodes();
    match weak {
        Err(why) => return (Err(why), nodes),
        Ok(false) if second => return (Ok(("draw", fill)), nodes),
        Ok(false) => return (Ok(("no win", 0)), nodes),
        Ok(true) => {}
    }
    let exact = solver.solve(child);
    nodes += solver.nodes();
    // The child's value is the other side's.
    let value = exact.map(|a| match a.value {
        Value::Win { plies } => ("loss", plies + 1),
        Value::Loss { plies } => ("win", plies + 1),
        Value::Draw | Value::Unknown(_) => ("draw", fill),
    });
    (value, nodes)
}

/// How often a checkpointed run writes its checkpoint while it searches
/// one root move.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(180);

/// The solver of a checkpointed run: the lemmas of `snapshot` (the
/// checkpoint as it was when the current root move began) taken in, and
/// every few minutes the checkpoint written again with the lemmas found
/// so far and the nodes and seconds of the move under way, besides the
/// progress line.
fn checkpointing_solver(
    rules: Rules,
    options: SearchOptions,
    snapshot: &Rc<RefCell<super::checkpoint::Checkpoint>>,
    path: &std::path::Path,
) -> Result<Solver, InputError> {
    use super::checkpoint::{self, LemmaRecord};
    let name = kxo_engine::text::shown(&path.display().to_string());
    let mut solver = Solver::with_hash_bytes(rules, options.hash_bytes);
    let lemmas = snapshot
        .borrow()
        .lemmas
        .iter()
        .map(|record| record.lemma(rules.size()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|why| InputError(format!("checkpoint {name}: {why}")))?;
    solver.add_lemmas(&lemmas);
    if let Some(flag) = options.stop {
        solver.set_stop_flag(flag);
    }
    let mut display = options.progress;
    let (snapshot, path) = (snapshot.clone(), path.to_path_buf());
    let mut last_write = Instant::now();
    let run_started = last_write;
    solver.on_progress(Duration::from_millis(500), move |p| {
        if let Some(report) = &mut display {
            report(p);
        }
        if last_write.elapsed() >= CHECKPOINT_EVERY {
            last_write = Instant::now();
            let mut cp = snapshot.borrow().clone();
            cp.nodes += p.nodes;
            // The snapshot counts the seconds of earlier runs only; its
            // nodes, those of the root moves settled before this one.
            cp.seconds += run_started.elapsed().as_secs_f64();
            cp.lemmas = p
                .lemmas
                .iter()
                .map(|l| LemmaRecord::new(l, rules.size()))
                .collect();
            if let Err(why) = checkpoint::write(&path, &cp) {
                stderr_line(&why.to_string());
            }
        }
    });
    Ok(solver)
}

/// The solver's lemmas, as a checkpoint holds them.
fn lemma_records(solver: &Solver, size: u8) -> Vec<super::checkpoint::LemmaRecord> {
    solver
        .lemmas()
        .iter()
        .map(|l| super::checkpoint::LemmaRecord::new(l, size))
        .collect()
}

/// The checkpoint a run starts from: a new one, or (`resume`) the one at
/// `path`, which must be of this position.
fn open_checkpoint(
    path: &std::path::Path,
    rules: Rules,
    moves: &str,
    resume: bool,
) -> Result<super::checkpoint::Checkpoint, InputError> {
    use super::checkpoint::{self, Checkpoint};
    let name = kxo_engine::text::shown(&path.display().to_string());
    match (checkpoint::read(path).map_err(InputError)?, resume) {
        (Some(c), true) if c.is_for(rules.size(), rules.goal(), moves) => Ok(c),
        (Some(_), true) => Err(InputError(format!(
            "checkpoint {name} is of another position: give the same --size, --goal and --moves"
        ))),
        (None, true) => Err(InputError(format!("no checkpoint at {name} to resume"))),
        (Some(_), false) => Err(InputError(format!(
            "{name} holds a checkpoint already: --resume {name} goes on with it"
        ))),
        (None, false) => Ok(Checkpoint::new(rules.size(), rules.goal(), moves)),
    }
}

/// The moves of `pos`, one for each class of symmetric positions they
/// lead to, with those positions.
fn distinct_root_moves(pos: &Position) -> Vec<(Cell, Position)> {
    let mut seen = std::collections::HashSet::new();
    pos.legal_moves()
        .filter_map(|cell| {
            let mut child = *pos;
            child.play(cell).ok()?;
            seen.insert(child.canonical_table())
                .then_some((cell, child))
        })
        .collect()
}

/// The report of a checkpointed solve: the best settled root move, when
/// it settles the position (a win, or every move settled).
fn checkpoint_report(
    cp: &super::checkpoint::Checkpoint,
    pos: &Position,
    moves: &str,
    roots: usize,
    unsettled: Option<Unsettled>,
    name: &str,
) -> SolveReport {
    use super::checkpoint::SettledMove;
    let rules = pos.rules();
    let n = rules.size();
    let me = pos.to_move();
    // The best settled move: the fastest win, a draw, the slowest loss.
    let rank = |s: &SettledMove| match s.value.as_str() {
        "win" => (2, -(s.plies as i64)),
        "draw" => (1, 0),
        _ => (0, s.plies as i64),
    };
    let best = cp.settled.iter().max_by_key(|s| rank(s));
    let all = cp.settled.len() == roots;
    let won = best.is_some_and(|s| s.value == "win");
    // A best move known only as "no win" (the second pass did not end)
    // settles nothing.
    let settled = best.filter(|s| won || (all && unsettled.is_none() && s.value != "no win"));
    let value = settled.map(|s| match (s.value.as_str(), me) {
        ("win", Player::O) | ("loss", Player::X) => "first",
        ("win", Player::X) | ("loss", Player::O) => "second",
        _ => "draw",
    });
    SolveReport {
        size: n,
        goal: rules.goal(),
        rule: rules.rule(),
        value,
        unsettled: value.is_none().then_some(match unsettled {
            Some(Unsettled::Interrupted) => "interrupted",
            _ => "timeout",
        }),
        best_move: settled.map(|s| s.cell.clone()),
        plies: settled.map(|s| s.plies),
        nodes: cp.nodes,
        ms: (cp.seconds * 1e6).round() / 1e3,
        moves: Cell::parse_list(moves, n)
            .unwrap_or_default()
            .iter()
            .map(|c| c.name(n))
            .collect(),
        to_move: me.symbol(),
        note: Some(format!(
            "{} of {roots} distinct root moves settled, {} of them only as no win for {me} (checkpoint {name})",
            cp.settled.len(),
            cp.settled.iter().filter(|s| s.value == "no win").count(),
        )),
    }
}

/// How often a solve whose standard error is not a terminal prints its
/// progress.
const PLAIN_PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// Exit status of a solve that stopped before it settled the position.
pub const UNSETTLED: u8 = 3;

/// `kxo-tui solve`: the report on stdout, progress on stderr when it is a
/// terminal; exit status [`UNSETTLED`] when the search stopped first.
pub fn command(args: SolveOptions) -> anyhow::Result<std::process::ExitCode> {
    let rules = args.rules;
    if args.proof.is_some() && !rules.is_small() {
        return Err(InputError(format!(
            "--proof needs a game the solver plays: {} is beyond it",
            rules.beyond_small().unwrap_or_default()
        ))
        .into());
    }
    // The proof is written after the whole solve: a path it cannot be
    // written at fails now, not then.
    if let Some(path) = &args.proof {
        crate::gate::check_replace(path, PROOF)?;
    }
    let stop = crate::signals::stop_flag();
    // The timeout bounds the whole command, a proof included.
    let deadline = args.timeout.map(|t| Instant::now() + t);
    // On a terminal a progress line redrawn in place; otherwise (a log of
    // a long run) one line a minute.
    let terminal = crate::out::stderr_is_terminal();
    // Timed on the wall clock: each search of a checkpointed run starts
    // its own elapsed time at zero.
    let mut last_line = Instant::now();
    let progress: ProgressReport = Box::new(move |p: &kxo_engine::solver::Progress| {
        let secs = p.elapsed.as_secs_f64();
        let line = format!(
            "solving: {} pass, root move {}/{}, {} nodes, {:.2} M nodes/s, tables {} MiB, {} lemmas, {:.0} s",
            p.phase,
            p.root_done,
            p.root_moves,
            super::thousands(p.nodes),
            p.nodes as f64 / secs.max(1e-9) / 1e6,
            p.table_bytes >> 20,
            p.lemmas.len(),
            secs,
        );
        if terminal {
            crate::out::stderr(&format!("\r\x1b[2K{line}"));
        } else if last_line.elapsed() >= PLAIN_PROGRESS_EVERY {
            last_line = Instant::now();
            crate::note!("{line}");
        }
    });
    let shows_progress = terminal;
    let proof_path = args.proof.clone();
    let moves = args.moves.clone();
    let options = SearchOptions {
        hash_bytes: args.hash_mb << 20,
        timeout: args.timeout,
        stop: Some(stop.clone()),
        progress: Some(progress),
    };
    let report = match (&args.checkpoint, &args.resume) {
        (Some(path), _) => solve_checkpointed(rules, &args.moves, options, path, false)?,
        (None, Some(path)) => solve_checkpointed(rules, &args.moves, options, path, true)?,
        (None, None) => solve_with(rules, &args.moves, options)?,
    };
    if shows_progress {
        // Clear the progress line.
        crate::out::stderr("\r\x1b[2K");
    }
    if args.json {
        crate::say!("{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        crate::out::stdout(&report.to_text())?;
    }
    let proof_written = match (&proof_path, &report.value) {
        (Some(path), Some(_)) => {
            write_proof(rules, &moves, (args.hash_mb << 20, deadline, stop), path)?
        }
        (Some(_), None) => {
            crate::note!("no proof written: the position is unsettled");
            false
        }
        (None, _) => true,
    };
    Ok(if report.value.is_some() && proof_written {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::from(UNSETTLED)
    })
}

/// Proof files, as the gate knows them.
const PROOF: crate::gate::Kind = crate::gate::Kind {
    what: "proof file",
    max_bytes: 1 << 40,
    max_line: 0,
    ours: crate::gate::Ours::Prefix(b"# kxo-tui proof: "),
};

/// `solve --proof FILE`: the defender's strategy, written where asked
/// (never through a link at that name); `Ok(false)` when the time ran out
/// or Ctrl-C came first (nothing is written then).
fn write_proof(
    rules: Rules,
    moves: &str,
    (hash_bytes, deadline, stop): (usize, Option<Instant>, Arc<AtomicBool>),
    path: &std::path::Path,
) -> anyhow::Result<bool> {
    if !rules.is_small() {
        return Err(InputError("--proof needs a board of at most 8x8".into()).into());
    }
    let pos = position_from_moves(rules, moves)?;
    let mut solver = Solver::with_hash_bytes(rules, hash_bytes);
    solver.set_stop_flag(stop);
    solver.set_timeout(deadline.map(|d| d.saturating_duration_since(Instant::now())));
    let branches = match kxo_engine::solver::cannot_win(&mut solver, &pos) {
        Ok(branches) => branches,
        Err(kxo_engine::solver::NoProof::Unsettled(why)) => {
            crate::note!(
                "proof not written: {}",
                match why {
                    Unsettled::Timeout => "the time ran out (--timeout)",
                    Unsettled::Interrupted => "interrupted",
                }
            );
            return Ok(false);
        }
        Err(kxo_engine::solver::NoProof::Refused(why)) => return Err(InputError(why).into()),
    };
    let n = rules.size();
    let header = format!(
        "{n}x{n}, {}, {}",
        rules.in_a_row(),
        if moves.trim().is_empty() {
            "from the empty board".to_string()
        } else {
            format!("after {}", kxo_engine::text::shown(moves))
        }
    );
    let text = kxo_engine::solver::to_text(&pos, &branches, &header);
    let shown_path = kxo_engine::text::shown(&path.display().to_string());
    crate::gate::replace(path, PROOF, text.as_bytes())?;
    crate::note!("proof: {} branches written to {shown_path}", branches.len());
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_and_late_moves_are_named() {
        let rules = Rules::default_rules();
        let err = solve(rules, "B2,B2").unwrap_err();
        assert_eq!(err.0, "move 2 (B2) is on a cell already taken");
        let err = solve(rules, "A1,A2,B1,B2,C1,D4").unwrap_err();
        assert_eq!(err.0, "move 6 (D4) comes after the game is over");
        let err = solve(rules, "A1,A2,B1,B2,C1").unwrap_err();
        assert!(err.0.contains("already over"));
        let err = solve(rules, "B2,Q7").unwrap_err();
        assert!(err.0.contains("off the board"), "{err}");
    }

    #[test]
    fn side_to_move_is_reported_from_the_first_player() {
        // X to move, O threatens two lines: the first player wins in 2.
        let r = solve(Rules::default_rules(), "B2,A1,C2,D4,B4").unwrap();
        assert_eq!((r.value, r.plies), (Some("first"), Some(2)));
    }
}
