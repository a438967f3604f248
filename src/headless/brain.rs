//! `kxo-tui brain`: kxo-tui's engines behind the Gomoku AI protocol, on
//! standard input and output.
//!
//! A reader thread turns input lines into messages, so the brain never
//! blocks on a read while it should answer, and a search in progress sees
//! `END` (or the end of input) at its next budget tick and stops at once.
//! Every other command that arrives during a search waits its turn.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::lines::{self, Input, next_input};
use crate::protocol::{Command, cell_at, parse_xy, xy};
use kxo_engine::text::shown;
use std::cell::RefCell;
use std::rc::Rc;

use crate::engines::EngineSpec;
use kxo_engine::learner::{SharedTable, ValueTable};
use kxo_engine::{Budget, BuiltIn, Engine, Estimate, Limit, SearchInfo, Value};
use kxo_engine::{Cell, MoveError, Position, Rule, Rules};

/// How `kxo-tui brain` plays.
#[derive(Clone, Debug)]
pub struct BrainOptions {
    /// The engine that plays, with its own options (`mcts:iterations=500`).
    pub engine: EngineSpec,
    /// K in a row; the protocol only gives the board size.
    pub goal: u8,
    /// Thinking time per move, before the manager's limits cut it; `None`:
    /// the manager's turn is its time ([`DEFAULT_THINK_MS`] when it gives
    /// none).
    pub think_ms: Option<u64>,
    /// The most the engine's tree or table may take, before `max_memory`.
    pub hash_mb: usize,
    pub seed: u64,
    /// Negamax evaluates with the learner's line patterns (`--eval
    /// learned`), read from the model of the board at each START.
    pub learned_eval: bool,
}

/// A served engine's time a move when neither the user nor the manager
/// gives one.
pub const DEFAULT_THINK_MS: u64 = 1000;

/// The time and memory limits the manager gave with `INFO`.
#[derive(Clone, Copy, Debug)]
struct Limits {
    /// Milliseconds a move may take (0: as fast as possible); `None`
    /// until the manager says.
    timeout_turn: Option<u64>,
    /// Milliseconds for the whole match (0: no limit).
    timeout_match: u64,
    /// Milliseconds left for the match (zero or less: none, play at once).
    time_left: Option<i64>,
    /// Bytes the brain may use (0: no limit).
    max_memory: u64,
    /// The search's nodes (MCTS's iterations, Negamax's nodes) and depth a
    /// move (`INFO max_node`, `INFO max_depth`; 0: no limit).
    max_node: Option<u64>,
    max_depth: Option<u32>,
    /// Which lines win (`INFO rule`).
    rule: Rule,
}

impl Limits {
    /// Thinking time for the next move: the turn limit less a reserve for
    /// the reply (a twentieth of it, at least 20 ms; a limit of 0 asks for
    /// a move as fast as possible), cut to the brain's own time when one
    /// was given (else [`DEFAULT_THINK_MS`] when the manager gives no
    /// turn), and to a fifteenth of what is left of the match (nothing
    /// left: at once).
    fn think_time(&self, own_ms: Option<u64>) -> Duration {
        // A manager's "no limit" may be near u64::MAX: no arithmetic on
        // its numbers may wrap.
        let turn = self
            .timeout_turn
            .map(|turn| turn.saturating_sub((turn / 20).max(20)));
        let mut ms = match (own_ms, turn) {
            (Some(own), Some(turn)) => own.min(turn),
            (own, turn) => own.or(turn).unwrap_or(DEFAULT_THINK_MS),
        };
        if let Some(left) = self.time_left
            && (self.timeout_match > 0 || left <= 0)
        {
            ms = ms.min(left.max(0) as u64 / 15);
        }
        Duration::from_millis(ms.max(1))
    }
}

/// Stops the search at the deadline, or when `END` or the end of input
/// arrives; any other command waits in `queue`.
struct BrainBudget<'a> {
    start: Instant,
    deadline: Duration,
    input: &'a Receiver<Input>,
    queue: &'a mut VecDeque<Input>,
    end: bool,
    info: SearchInfo,
    /// The manager's `max_node` and `max_depth`: the search stops at
    /// either, as it reports its work and its depth.
    max_node: Option<u64>,
    max_depth: Option<u32>,
}

impl Budget for BrainBudget<'_> {
    fn tick(&mut self) -> bool {
        if lines::take_arrived(self.input, self.queue, |l| {
            Command::parse(l) == Command::End
        }) {
            self.end = true;
        }
        let over_nodes = self.max_node.is_some_and(|n| self.info.work >= n);
        let over_depth = self
            .max_depth
            .is_some_and(|d| self.info.depth.is_some_and(|done| done >= d));
        !self.end && !over_nodes && !over_depth && !self.limit().reached(self.start.elapsed(), 0)
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    fn limit(&self) -> Limit {
        Limit::Time(self.deadline)
    }
    fn report(&mut self, info: &SearchInfo) {
        self.info.work = info.work;
        self.info.depth = info.depth.or(self.info.depth);
        self.info.estimate = info.estimate.or(self.info.estimate);
        self.info.threat = info.threat.or(self.info.threat);
    }
}

struct Brain {
    options: BrainOptions,
    limits: Limits,
    rules: Option<Rules>,
    engine: Option<Box<dyn Engine>>,
    /// The moves of the game so far (for TAKEBACK and BOARD).
    moves: Vec<Cell>,
    games: u64,
}

/// What to do after a command.
enum Flow {
    Go,
    Stop,
}

/// Runs a brain on `input` and `output` until `END` or the end of input.
pub fn run(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    options: BrainOptions,
) -> io::Result<()> {
    let rx = lines::read_lines(input);
    let mut brain = Brain {
        options,
        limits: Limits {
            timeout_turn: None,
            timeout_match: 0,
            time_left: None,
            max_memory: 0,
            max_node: None,
            max_depth: None,
            rule: Rule::Freestyle,
        },
        rules: None,
        engine: None,
        moves: Vec::new(),
        games: 0,
    };
    let mut queue = VecDeque::new();
    loop {
        let refuse = |why: &str| {
            writeln!(output, "ERROR {why}")?;
            output.flush()
        };
        let Some(line) = lines::next_line(&mut queue, &rx, refuse)? else {
            return Ok(());
        };
        if line.trim().is_empty() {
            continue;
        }
        if let Flow::Stop = brain.handle(&line, &rx, &mut queue, &mut output)? {
            return Ok(());
        }
    }
}

impl Brain {
    fn handle(
        &mut self,
        line: &str,
        rx: &Receiver<Input>,
        queue: &mut VecDeque<Input>,
        out: &mut impl Write,
    ) -> io::Result<Flow> {
        let reply = match Command::parse(line) {
            Command::End => return Ok(Flow::Stop),
            Command::Start(size) => self.start(&size),
            Command::RectStart(_) => {
                Some("ERROR rectangular boards are not supported: use START N".into())
            }
            Command::Restart => match self.rules {
                Some(rules) => Some(match self.new_game(rules) {
                    Ok(()) => "OK".into(),
                    Err(e) => e,
                }),
                None => Some(no_board()),
            },
            Command::Begin => match self.position() {
                Ok(pos) if pos.move_count() == 0 => return self.think(pos, rx, queue, out),
                Ok(_) => Some("ERROR BEGIN is for an empty board".into()),
                Err(e) => Some(e),
            },
            Command::Turn(text) => match self.opponent_moves(&text) {
                Ok(pos) => return self.think(pos, rx, queue, out),
                Err(e) => Some(e),
            },
            Command::Board => match self.read_board(rx, queue) {
                Ok(pos) => return self.think(pos, rx, queue, out),
                Err(e) => Some(e),
            },
            Command::Info { key, value } => self.info(&key, &value),
            Command::About => Some(format!(
                "name=\"kxo-tui {}\", version=\"{}\", author=\"the kxo-tui developers\", \
                 country=\"-\"",
                self.options.engine.spec_text(),
                env!("CARGO_PKG_VERSION")
            )),
            Command::Takeback(text) => Some(self.take_back(&text)),
            Command::Unknown(text) => Some(format!("UNKNOWN command '{}'", shown(&text))),
        };
        if let Some(reply) = reply {
            writeln!(out, "{reply}")?;
            out.flush()?;
        }
        Ok(Flow::Go)
    }

    fn start(&mut self, size: &str) -> Option<String> {
        let Ok(size) = size.trim().parse::<u8>() else {
            return Some(format!(
                "ERROR '{}' is not a board size: use START 15",
                shown(size)
            ));
        };
        let rules = match Rules::new(size, self.options.goal) {
            Ok(rules) => rules.with_rule(self.limits.rule),
            Err(e) => return Some(format!("ERROR {e}")),
        };
        Some(match self.new_game(rules) {
            Ok(()) => "OK".into(),
            Err(e) => e,
        })
    }

    /// A new game of `rules`; an `ERROR` line when its engine cannot be
    /// made (`--eval learned` without a model of the board).
    fn new_game(&mut self, rules: Rules) -> Result<(), String> {
        let seed = self.options.seed ^ (self.games + 1);
        self.install_engine(rules, seed)?;
        self.moves.clear();
        self.games += 1;
        Ok(())
    }

    /// An engine of `rules` seeded with `seed`, and `rules` for the game.
    fn install_engine(&mut self, rules: Rules, seed: u64) -> Result<(), String> {
        // Through the one factory, as a seat's engine is made; the move's
        // time is its budget's (`think`).
        let mut spec = self.options.engine.clone();
        if spec.learned_eval() {
            spec.window_values = Some(std::sync::Arc::new(learned_values(rules)?));
        }
        let rl = (spec.engine.built_in_kind() == Some(BuiltIn::Rl)).then(|| rl_table(rules));
        let Some(mut engine) = spec.built_in_engine(rules, seed, rl.as_ref()) else {
            return Err("ERROR kxo-tui brain plays its own engines, not an outside one".into());
        };
        engine.set_memory_limit(self.memory());
        self.engine = Some(engine);
        self.rules = Some(rules);
        Ok(())
    }

    /// Plays `rule` from now on: a game already set up keeps its moves
    /// and gets an engine that knows the rule (the same game's seed). A
    /// game the new rule would have ended already keeps the old rule.
    fn set_rule(&mut self, rule: Rule) -> Option<String> {
        let Some(rules) = self.rules.filter(|r| r.rule() != rule) else {
            self.limits.rule = rule;
            return None;
        };
        let next = rules.with_rule(rule);
        if Position::from_moves(next, &self.moves).is_err() {
            return Some(format!(
                "ERROR the game so far is decided under rule {}: it goes on under {}",
                rule.name(),
                rules.rule().name()
            ));
        }
        if let Err(e) = self.install_engine(next, self.options.seed ^ self.games) {
            return Some(e);
        }
        self.limits.rule = rule;
        None
    }

    /// Bytes the engine may use: `--hash`, cut to half of `max_memory`.
    fn memory(&self) -> usize {
        let own = self.options.hash_mb << 20;
        match self.limits.max_memory {
            0 => own,
            max => own.min(usize::try_from(max / 2).unwrap_or(usize::MAX)),
        }
    }

    fn position(&self) -> Result<Position, String> {
        let rules = self.rules.ok_or_else(no_board)?;
        Position::from_moves(rules, &self.moves).map_err(|(_, e)| format!("ERROR {e}"))
    }

    fn cell(&self, text: &str) -> Result<Cell, String> {
        let rules = self.rules.ok_or_else(no_board)?;
        let (x, y) = parse_xy(text).ok_or_else(|| {
            format!(
                "ERROR '{}' is not a move: send x,y such as 7,7",
                shown(text)
            )
        })?;
        cell_at(x, y, rules.size()).ok_or_else(|| {
            format!(
                "ERROR {x},{y} is off the board: 0 to {} each way",
                rules.size() - 1
            )
        })
    }

    /// `TURN x,y`: the opponent's move, played.
    fn opponent_moves(&mut self, text: &str) -> Result<Position, String> {
        let cell = self.cell(text)?;
        let mut pos = self.position()?;
        pos.play(cell).map_err(|e| move_error(e, text))?;
        if pos.outcome().is_over() {
            return Err("ERROR the game is over after that move".into());
        }
        self.moves.push(cell);
        Ok(pos)
    }

    /// `BOARD`: `x,y,field` lines up to `DONE`; field 1 is the brain's
    /// stone, 2 the opponent's. The brain moves next.
    fn read_board(
        &mut self,
        rx: &Receiver<Input>,
        queue: &mut VecDeque<Input>,
    ) -> Result<Position, String> {
        let mut stones: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
        let mut problem = None;
        loop {
            let next = match queue.pop_front() {
                Some(input) => input,
                None => next_input(rx).unwrap_or(Input::Eof),
            };
            let Input::Line(line) = next else {
                return Err("ERROR the input ended inside BOARD".into());
            };
            let line = line.trim();
            if line.eq_ignore_ascii_case("DONE") {
                break;
            }
            if line.is_empty() || problem.is_some() {
                continue;
            }
            let parsed = line.rsplit_once(',').and_then(|(xy, field)| {
                Some((self.cell(xy).ok()?, field.trim().parse::<u8>().ok()?))
            });
            match parsed {
                // A cell listed twice is named, as a move there would be
                // (not reported as counts that do not fit), and the lists
                // stay within the board.
                Some((cell, 1 | 2)) if stones.iter().flatten().any(|&c| c == cell) => {
                    let size = self.rules.map_or(0, |r| r.size());
                    problem = Some(move_error(MoveError::Occupied(cell), &xy(cell, size)))
                }
                Some((cell, field @ (1 | 2))) => stones[field as usize - 1].push(cell),
                Some((_, 3)) => {
                    problem = Some("ERROR field 3 (continuous games) is not supported".into())
                }
                _ => {
                    problem = Some(format!(
                        "ERROR '{}' is not x,y,field (field 1 or 2)",
                        shown(line)
                    ))
                }
            }
        }
        if let Some(problem) = problem {
            return Err(problem);
        }
        let rules = self.rules.ok_or_else(no_board)?;
        let [mine, theirs] = stones;
        // The brain is to move: it is O when the counts are equal.
        let (o, x) = match mine.len() as i64 - theirs.len() as i64 {
            0 => (mine, theirs),
            -1 => (theirs, mine),
            _ => return Err("ERROR the stone counts do not fit the brain to move".into()),
        };
        let mut moves = Vec::new();
        for (i, &c) in o.iter().enumerate() {
            moves.push(c);
            if let Some(&reply) = x.get(i) {
                moves.push(reply);
            }
        }
        let size = rules.size();
        let pos = Position::from_moves(rules, &moves).map_err(|(i, e)| {
            let name = moves.get(i).map(|&c| xy(c, size)).unwrap_or_default();
            move_error(e, &name)
        })?;
        if pos.outcome().is_over() {
            return Err("ERROR that board is already decided".into());
        }
        self.moves = moves;
        Ok(pos)
    }

    fn info(&mut self, key: &str, value: &str) -> Option<String> {
        let number = value.parse::<u64>().ok();
        match (key, number) {
            ("timeout_turn", Some(v)) => self.limits.timeout_turn = Some(v),
            ("timeout_match", Some(v)) => self.limits.timeout_match = v,
            ("max_node", Some(v)) => self.limits.max_node = (v > 0).then_some(v),
            ("max_depth", Some(v)) => {
                self.limits.max_depth = (v > 0).then(|| v.min(u32::MAX as u64) as u32)
            }
            // It may be negative: the match clock has run out.
            ("time_left", _) if value.trim().parse::<i64>().is_ok() => {
                self.limits.time_left = value.trim().parse::<i64>().ok()
            }
            ("max_memory", Some(v)) => {
                self.limits.max_memory = v;
                let bytes = self.memory();
                if let Some(e) = self.engine.as_mut() {
                    e.set_memory_limit(bytes);
                }
            }
            // Bit 0: exactly five; bit 1: a continuous game (nothing to
            // do); bits 2 and 3: renju and caro, which kxo-tui does not
            // play.
            ("rule", Some(v)) if v & 0b1100 != 0 => {
                return Some(format!(
                    "MESSAGE rule {v} is not supported: kxo-tui plays {} \
                     (no renju, no caro)",
                    self.limits.rule.name()
                ));
            }
            ("rule", Some(v)) => {
                return self.set_rule(if v & 1 != 0 {
                    Rule::Standard
                } else {
                    Rule::Freestyle
                });
            }
            // Everything else (game_type, folder, evaluate, …) is ignored,
            // as the protocol allows.
            _ => {}
        }
        None
    }

    fn take_back(&mut self, text: &str) -> String {
        let cell = match self.cell(text) {
            Ok(c) => c,
            Err(e) => return e,
        };
        match self.moves.iter().rposition(|&m| m == cell) {
            Some(i) => {
                self.moves.remove(i);
                "OK".into()
            }
            None => format!("ERROR no stone at {} to take back", shown(text)),
        }
    }

    /// Searches `pos`, plays the move and answers `x,y` with a MESSAGE of
    /// what the search saw.
    fn think(
        &mut self,
        pos: Position,
        rx: &Receiver<Input>,
        queue: &mut VecDeque<Input>,
        out: &mut impl Write,
    ) -> io::Result<Flow> {
        let Some(engine) = self.engine.as_mut() else {
            writeln!(out, "{}", no_board())?;
            out.flush()?;
            return Ok(Flow::Go);
        };
        let mut budget = BrainBudget {
            start: Instant::now(),
            deadline: self.limits.think_time(self.options.think_ms),
            input: rx,
            queue,
            end: false,
            info: SearchInfo::default(),
            max_node: self.limits.max_node,
            max_depth: self.limits.max_depth,
        };
        let cell = engine.choose(&pos, &mut budget);
        if budget.end {
            return Ok(Flow::Stop);
        }
        let spent = budget.start.elapsed();
        if let Some(t) = self.limits.time_left.as_mut() {
            *t = t.saturating_sub(spent.as_millis() as i64);
        }
        self.moves.push(cell);
        let size = pos.rules().size();
        writeln!(
            out,
            "MESSAGE {}",
            describe(&budget.info, &engine.label(), spent)
        )?;
        writeln!(out, "{}", xy(cell, size))?;
        out.flush()?;
        Ok(Flow::Go)
    }
}

/// `kxo-tui brain`: the protocol on stdin and stdout until END, the
/// process ended by a signal even while it writes to a manager that never
/// reads.
pub fn serve(options: BrainOptions) -> anyhow::Result<()> {
    let mut options = options;
    if options.learned_eval {
        let mut learned = Err(format!("{} is an outside brain", options.engine.name));
        if let crate::engines::SpecEngine::BuiltIn { kind, options: own } =
            &mut options.engine.engine
        {
            learned = own.set(*kind, "eval", "learned");
        }
        if learned != Ok(true) {
            return Err(crate::error::InputError(format!(
                "--eval learned is Negamax's evaluation, not {}'s: use --engine negamax",
                options.engine.spec_text()
            ))
            .into());
        }
    }
    // A signal ends the brain at its next check; one blocked writing to a
    // manager that never reads is ended a moment later all the same.
    lines::exit_soon_after_a_signal();
    let stdin = std::io::BufReader::new(std::io::stdin());
    crate::out::protocol_ended(run(stdin, crate::out::protocol(), options))
}

/// Negamax's evaluation from the learner's saved model of `rules` (boards
/// above 8x8), read and never written; an `ERROR` line without one.
fn learned_values(rules: Rules) -> Result<[Vec<i32>; 2], String> {
    let (n, k) = (rules.size(), rules.goal());
    if rules.is_small() {
        return Err(format!(
            "ERROR --eval learned is for boards above 8x8, not {n}x{n}: below, Negamax solves the game"
        ));
    }
    let table = crate::model::default_path(rules)
        .ok()
        .and_then(|p| crate::model::load(&p, rules).ok().flatten());
    match table
        .as_ref()
        .and_then(|t| (t.games > 0).then(|| t.patterns()).flatten())
    {
        Some(patterns) => Ok(patterns.window_values()),
        None => Err(format!(
            "ERROR --eval learned: no learned model of {n}x{n} with {k} in a row; \
             train one first: kxo-tui train --size {n} --goal {k}"
        )),
    }
}

/// The learning player plays from the saved model of these rules, read
/// and never written (a brain plays, it does not train), or from a fresh
/// table when there is none.
fn rl_table(rules: Rules) -> SharedTable {
    let table = crate::model::default_path(rules)
        .ok()
        .and_then(|p| crate::model::load(&p, rules).ok().flatten())
        .unwrap_or_else(|| ValueTable::new(rules));
    Rc::new(RefCell::new(table))
}

fn no_board() -> String {
    "ERROR no board yet: send START N first".into()
}

fn move_error(e: MoveError, text: &str) -> String {
    match e {
        MoveError::Occupied(_) => format!("ERROR {} is already taken", shown(text)),
        MoveError::OffBoard(_) => format!("ERROR {} is off the board", shown(text)),
        MoveError::GameOver => "ERROR the game is already over".into(),
        // Go's refusals: no m,n,k game makes them.
        e => format!("ERROR {}: {e}", shown(text)),
    }
}

/// "MCTS: 12,345 iterations in 250 ms, win rate 54%".
fn describe(info: &SearchInfo, label: &str, spent: Duration) -> String {
    let mut s = format!(
        "{label}: {} {} in {} ms",
        kxo_engine::text::thousands(info.work),
        if label == "MCTS" {
            "iterations"
        } else {
            "nodes"
        },
        spent.as_millis()
    );
    if let Some(depth) = info.depth {
        s.push_str(&format!(", depth {depth}"));
    }
    match info.estimate {
        Some(Estimate::WinRate(p)) => s.push_str(&format!(", win rate {:.0}%", p * 100.0)),
        Some(Estimate::Value(Value::Win { plies })) => match info.threat {
            Some(threat) => s.push_str(&format!(", {}", threat.title())),
            None => s.push_str(&format!(", wins in {plies}")),
        },
        Some(Estimate::Value(Value::Loss { plies })) => s.push_str(&format!(", loses in {plies}")),
        Some(Estimate::Value(Value::Draw)) => s.push_str(", draw"),
        Some(Estimate::Value(Value::Unknown(v))) => s.push_str(&format!(", score {v}")),
        None => {}
    }
    s
}
