//! `kxo-tui gtp`: kxo-tui's Go engines behind the Go Text Protocol
//! (version 2) on standard input and output, for GoGui, Sabaki, Lizzie,
//! twogtp, gomill's ringmaster, kgsGtp, and kxo-tui's own `arena`
//! (`gtp:kxo-tui gtp`).
//!
//! Commands are answered in order, `=ID text` or `?ID message`, each
//! answer ended by an empty line. Lines come through the same bounded
//! reader as the Gomoku brain's ([`super::lines`]): a line too long or
//! not text is refused, a controller that floods waits on its pipe, and
//! the end of input stops a search at its next tick.
//!
//! Decided where the specification leaves room:
//! - `play` of the side not to move puts a pass of the other side first
//!   (setting up a position); `undo` takes both back.
//! - Handicap stones (`fixed_handicap`, `place_free_handicap`,
//!   `set_free_handicap`) are Black's moves with White passing between;
//!   `place_free_handicap` chooses the fixed points.
//! - `final_score` and `final_status_list` judge the stones by Monte
//!   Carlo ownership (what the engine sees when it passes); no seki is
//!   named.
//! - Time: Canadian byo-yomi and absolute time from `time_settings`, what
//!   is left from `time_left`; a move takes its share (a twentieth of the
//!   main time left, the period's time over its stones), less a reserve
//!   for the answer, and never more than `--think-ms`.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

mod clock;

use super::lines::{self, Input};
use crate::engines::{EngineSpec, RunLimit, SeatEngine};
use crate::tournament::sgf::read_sgf;
use clock::Clock;
use kxo_engine::go::{GoPosition, handicap_points, parse_vertex, vertex_name};
use kxo_engine::text::shown;
use kxo_engine::{Budget, Cell, GoEngine, GoMove, Limit, MoveError, Player, Rules};

/// How `kxo-tui gtp` plays.
#[derive(Clone, Debug)]
pub struct GtpOptions {
    /// The engine that plays, with its own options (`mcts:think-ms=500`).
    pub engine: EngineSpec,
    /// Thinking time a move, before the controller's clock cuts it.
    pub think_ms: u64,
    /// The most the engine's tree may take.
    pub hash_mb: usize,
    pub seed: u64,
}

/// The commands it knows, as `list_commands` gives them.
const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "showboard",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "kgs-genmove_cleanup",
];

/// The largest SGF file `loadsgf` reads.
const SGF_IN: crate::gate::Kind = crate::gate::Kind {
    what: "SGF file",
    max_bytes: 4 << 20,
    max_line: 1 << 20,
    ours: crate::gate::Ours::Never,
};

/// Stops the search at its limit, or when the input ends or a signal
/// asks; the commands that arrive meanwhile wait in `queue`.
struct GtpBudget<'a> {
    start: Instant,
    limit: Limit,
    deadline: Option<Duration>,
    input: &'a Receiver<Input>,
    queue: &'a mut VecDeque<Input>,
    end: bool,
}

impl Budget for GtpBudget<'_> {
    fn tick(&mut self) -> bool {
        // A GTP command never ends a search: `quit` waits its turn.
        if lines::take_arrived(self.input, self.queue, |_| false) {
            self.end = true;
        }
        let late = self.deadline.is_some_and(|d| self.start.elapsed() >= d);
        !self.end && !late && !self.limit.reached(self.start.elapsed(), 0)
    }
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    fn limit(&self) -> Limit {
        match (self.limit, self.deadline) {
            (Limit::Time(t), Some(d)) => Limit::Time(t.min(d)),
            (Limit::Work(_) | Limit::Whole, Some(d)) => Limit::Time(d),
            (limit, None) => limit,
        }
    }
}

/// The game as the controller set it up.
struct Server {
    options: GtpOptions,
    rules: Rules,
    /// The moves from the empty board, passes included.
    moves: Vec<Cell>,
    /// For each move, whether it is a pass put in by `play` of the side
    /// not to move (undone with the move after it).
    put_in: Vec<bool>,
    engine: Option<Box<dyn GoEngine>>,
    clock: Clock,
    games: u64,
}

/// An answer: `=` and its text, or `?` and why.
type Answer = Result<String, String>;

/// Runs the engine on `input` and `output` until `quit` or the end of
/// input.
pub fn run(
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    options: GtpOptions,
) -> io::Result<()> {
    let rx = lines::read_lines(input);
    let rules = Rules::go(19, kxo_engine::GO_KOMI2, 0).map_err(io::Error::other)?;
    let mut server = Server {
        options,
        rules,
        moves: Vec::new(),
        put_in: Vec::new(),
        engine: None,
        clock: Clock::default(),
        games: 0,
    };
    let mut queue = VecDeque::new();
    loop {
        let refuse = |why: &str| {
            write!(output, "? {why}\n\n")?;
            output.flush()
        };
        let Some(line) = lines::next_line(&mut queue, &rx, refuse)? else {
            return Ok(());
        };
        let Some((id, command, args)) = parse_command(&line) else {
            continue;
        };
        let answer = match command.as_str() {
            "quit" => {
                write!(output, "={id}\n\n")?;
                output.flush()?;
                return Ok(());
            }
            "genmove" | "kgs-genmove_cleanup" => server.genmove(&args, &rx, &mut queue),
            _ => server.answer(&command, &args),
        };
        match answer {
            Ok(text) if text.is_empty() => write!(output, "={id}\n\n")?,
            Ok(text) => write!(output, "={id} {text}\n\n")?,
            Err(why) => write!(output, "?{id} {why}\n\n")?,
        }
        output.flush()?;
    }
}

/// A command line as GTP reads it: control characters but tab and
/// newline dropped, tabs as spaces, a comment (`#`) cut off; an optional
/// number first. `None` for a line with nothing on it.
fn parse_command(line: &str) -> Option<(String, String, Vec<String>)> {
    let cleaned: String = line
        .split('#')
        .next()
        .unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control() || *c == '\t')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let mut words = cleaned.split_whitespace();
    let mut first = words.next()?;
    let mut id = String::new();
    if first.bytes().all(|b| b.is_ascii_digit()) {
        id = first.to_string();
        first = words.next().unwrap_or_default();
    }
    Some((
        id,
        first.to_ascii_lowercase(),
        words.map(str::to_string).collect(),
    ))
}

impl Server {
    fn answer(&mut self, command: &str, args: &[String]) -> Answer {
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("kxo-tui".into()),
            "version" => Ok(format!(
                "{} ({})",
                env!("CARGO_PKG_VERSION"),
                self.options.engine.spec_text()
            )),
            "known_command" => Ok(COMMANDS
                .contains(&args.first().map_or("", String::as_str))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => self.boardsize(args),
            "clear_board" => {
                self.new_game(self.rules);
                Ok(String::new())
            }
            "komi" => self.komi(args),
            "play" => self.play_command(args),
            "undo" => self.undo(),
            "final_score" => Ok(self.judged().1),
            "final_status_list" => self.status_list(args),
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "showboard" => Ok(self.board_text()),
            "fixed_handicap" | "place_free_handicap" => self.fixed_handicap(args),
            "set_free_handicap" => self.set_free_handicap(args),
            "loadsgf" => self.load_sgf(args),
            "" => Err("no command".into()),
            other => Err(format!("unknown command '{}'", shown(other))),
        }
    }

    /// The position of the moves so far.
    fn position(&self) -> GoPosition {
        // Every move was checked as it came: the list replays.
        GoPosition::from_moves(self.rules, &self.moves).unwrap_or_else(|_| {
            debug_assert!(false, "moves that do not replay");
            GoPosition::new(self.rules)
        })
    }

    /// An empty board of `rules` and a fresh engine (its own seed a game).
    fn new_game(&mut self, rules: Rules) {
        self.rules = rules;
        self.moves.clear();
        self.put_in.clear();
        self.engine = None;
        self.games += 1;
    }

    fn boardsize(&mut self, args: &[String]) -> Answer {
        let size = args
            .first()
            .and_then(|a| a.parse::<u8>().ok())
            .ok_or("boardsize needs a number")?;
        if !(kxo_engine::GO_MIN_SIZE..=kxo_engine::GO_MAX_SIZE).contains(&size) {
            return Err("unacceptable size".into());
        }
        let rules = Rules::go(size, self.rules.komi2(), 0).map_err(|_| "unacceptable size")?;
        self.new_game(rules);
        Ok(String::new())
    }

    fn komi(&mut self, args: &[String]) -> Answer {
        let komi = args
            .first()
            .and_then(|a| a.parse::<f32>().ok())
            .filter(|k| k.is_finite())
            .ok_or("syntax error: komi needs a number")?;
        // Half points, as area scoring counts.
        let komi2 = (komi * 2.0).round().clamp(-300.0, 300.0) as i16;
        let rules = Rules::go(self.rules.size(), komi2, 0).map_err(|e| e.to_string())?;
        self.rules = rules;
        self.engine = None;
        Ok(String::new())
    }

    /// The colour and vertex of `play`, or the colour of `genmove`.
    fn colour(text: Option<&String>) -> Result<Player, String> {
        match text.map(|t| t.to_ascii_lowercase()).as_deref() {
            Some("b" | "black") => Ok(Player::O),
            Some("w" | "white") => Ok(Player::X),
            _ => Err("syntax error: a colour is black or white".into()),
        }
    }

    fn play_command(&mut self, args: &[String]) -> Answer {
        let side = Self::colour(args.first())?;
        let vertex = args.get(1).ok_or("syntax error: play needs a vertex")?;
        let cell = parse_vertex(vertex, self.rules.size())
            .map_err(|_| format!("syntax error: '{}' is not a vertex", shown(vertex)))?;
        self.play(side, cell)?;
        Ok(String::new())
    }

    /// Plays `side`'s move `cell`, a pass of the other side first when it
    /// is not `side`'s turn; refused as GTP says (`illegal move`).
    fn play(&mut self, side: Player, cell: Cell) -> Result<(), String> {
        let mut pos = self.position();
        let mut moves = Vec::new();
        if pos.to_move() != side {
            moves.push(Cell::PASS);
        }
        moves.push(cell);
        for &m in &moves {
            if pos.outcome().is_over() && pos.passes() >= 2 && !pos.in_cleanup() {
                pos.resume_for_cleanup();
            }
            pos.play(m).map_err(|e| match e {
                MoveError::GameOver => "illegal move: the game is over".to_string(),
                _ => "illegal move".to_string(),
            })?;
        }
        if moves.len() == 2 {
            self.moves.push(Cell::PASS);
            self.put_in.push(true);
        }
        self.moves.push(cell);
        self.put_in.push(false);
        Ok(())
    }

    fn undo(&mut self) -> Answer {
        if self.moves.pop().is_none() {
            return Err("cannot undo".into());
        }
        self.put_in.pop();
        if self.put_in.last() == Some(&true) {
            self.moves.pop();
            self.put_in.pop();
        }
        // The engine's tree may hold the undone line: a fresh one.
        self.engine = None;
        Ok(String::new())
    }

    fn genmove(
        &mut self,
        args: &[String],
        rx: &Receiver<Input>,
        queue: &mut VecDeque<Input>,
    ) -> Answer {
        let side = Self::colour(args.first())?;
        let mut pos = self.position();
        if pos.to_move() != side {
            // The other side passes first, as `play` would have it.
            self.play(side.other(), Cell::PASS)?;
            pos = self.position();
        }
        if pos.outcome().is_over() && pos.passes() >= 2 {
            pos.resume_for_cleanup();
        }
        if pos.outcome().is_over() {
            return Ok("pass".into());
        }
        let own = Duration::from_millis(self.options.think_ms);
        let limit = match self
            .options
            .engine
            .limit(RunLimit::Millis(self.options.think_ms), self.rules)
        {
            Limit::Time(t) => Limit::Time(t.min(own)),
            other => other,
        };
        let deadline = self.clock.allowance(side, pos.legal_moves().len());
        let engine = self.engine()?;
        let mut budget = GtpBudget {
            start: Instant::now(),
            limit,
            deadline,
            input: rx,
            queue,
            end: false,
        };
        let choice = engine.choose(&pos, &mut budget);
        let cell = match choice {
            GoMove::Resign => return Ok("resign".into()),
            GoMove::Pass => Cell::PASS,
            GoMove::Play(cell) => cell,
        };
        self.play(side, cell)?;
        Ok(vertex_name(cell, self.rules.size()))
    }

    /// The game's engine, made on its first move.
    fn engine(&mut self) -> Result<&mut Box<dyn GoEngine>, String> {
        if self.engine.is_none() {
            let limit = Limit::Time(Duration::from_millis(self.options.think_ms));
            let seed = self.options.seed ^ self.games;
            let mut engine = match self.options.engine.build(self.rules, limit, seed, None)? {
                SeatEngine::Go(engine) => engine,
                _ => return Err(format!("{} does not play Go", self.options.engine.name)),
            };
            engine.set_memory_limit(self.options.hash_mb << 20);
            self.engine = Some(engine);
        }
        self.engine.as_mut().ok_or_else(|| "no engine".into())
    }

    /// The dead stones as the engine judges them, and the score with them
    /// taken off.
    fn judged(&self) -> (Vec<Cell>, String) {
        let pos = self.position();
        let dead = pos.dead_stones(kxo_engine::go::OWNERSHIP_PLAYOUTS, self.options.seed);
        let score = pos.score_without(&dead);
        (dead, score.text())
    }

    fn status_list(&self, args: &[String]) -> Answer {
        let n = self.rules.size();
        let (dead, _) = self.judged();
        let pos = self.position();
        let stones = (0..usize::from(n) * usize::from(n))
            .map(Cell::from_index)
            .filter(|&c| pos.at(c).is_some());
        let listed: Vec<Cell> = match args.first().map(String::as_str) {
            Some("dead") => dead,
            Some("alive") => stones.filter(|c| !dead.contains(c)).collect(),
            Some("seki") => Vec::new(),
            _ => return Err("syntax error: a status is alive, dead or seki".into()),
        };
        // One vertex a line, as GNU Go writes it.
        Ok(vertex_list(&listed, n, "\n"))
    }

    fn time_settings(&mut self, args: &[String]) -> Answer {
        let numbers: Vec<u64> = args.iter().filter_map(|a| a.parse().ok()).collect();
        let [main, byo, stones] = numbers[..] else {
            return Err(
                "syntax error: time_settings main_time byo_yomi_time byo_yomi_stones".into(),
            );
        };
        let secs = |s: u64| Duration::from_secs(s.min(1 << 32));
        self.clock = Clock {
            main: secs(main),
            byo_time: secs(byo),
            byo_stones: u32::try_from(stones).unwrap_or(u32::MAX),
            left: [None, None],
        };
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[String]) -> Answer {
        let side = Self::colour(args.first())?;
        // A number of seconds; NaN and infinities are not one.
        let time = args
            .get(1)
            .and_then(|t| t.parse::<f64>().ok())
            .filter(|t| t.is_finite());
        let stones = args.get(2).and_then(|s| s.parse::<u32>().ok());
        let (Some(time), Some(stones)) = (time, stones) else {
            return Err("syntax error: time_left colour time stones".into());
        };
        let time = Duration::from_secs_f64(time.clamp(0.0, 1e9));
        self.clock.left[side as usize] = Some((time, stones));
        Ok(String::new())
    }

    fn fixed_handicap(&mut self, args: &[String]) -> Answer {
        let count = args
            .first()
            .and_then(|a| a.parse::<u8>().ok())
            .ok_or("syntax error: a number of stones")?;
        if !self.moves.is_empty() {
            return Err("board not empty".into());
        }
        let n = self.rules.size();
        let points = handicap_points(n, count);
        if points.is_empty() {
            return Err("invalid number of stones".into());
        }
        self.place_stones(&points)?;
        Ok(vertex_list(&points, n, " "))
    }

    fn set_free_handicap(&mut self, args: &[String]) -> Answer {
        if !self.moves.is_empty() {
            return Err("board not empty".into());
        }
        let n = self.rules.size();
        let points = args
            .iter()
            .map(|v| parse_vertex(v, n).map_err(|_| format!("'{}' is not a vertex", shown(v))))
            .collect::<Result<Vec<_>, _>>()?;
        let mut distinct = points.clone();
        distinct.sort_by_key(|c| c.index());
        distinct.dedup();
        if points.len() < 2 || distinct.len() != points.len() || points.iter().any(|c| c.is_pass())
        {
            return Err("bad vertex list".into());
        }
        self.place_stones(&points)?;
        Ok(String::new())
    }

    /// Black's stones, White passing between (passes put in, so that
    /// `undo` takes each stone back whole): then White moves.
    fn place_stones(&mut self, points: &[Cell]) -> Result<(), String> {
        for &cell in points {
            self.play(Player::O, cell)?;
        }
        // White moves next: the last stone was Black's move.
        Ok(())
    }

    fn load_sgf(&mut self, args: &[String]) -> Answer {
        let path = args.first().ok_or("syntax error: loadsgf FILE [MOVE]")?;
        let upto = match args.get(1) {
            Some(n) => Some(
                n.parse::<usize>()
                    .map_err(|_| "syntax error: a move number")?,
            ),
            None => None,
        };
        let bytes = crate::gate::read(Path::new(path), SGF_IN)
            .map_err(|e| format!("cannot load file: {e}"))?
            .ok_or_else(|| format!("cannot load file: {} does not exist", shown(path)))?;
        let text = String::from_utf8_lossy(&bytes);
        let game = read_sgf(&text)?;
        let size = game.size.unwrap_or(19);
        let komi2 = game
            .komi
            .map_or(self.rules.komi2(), |k| (k * 2.0).round() as i16);
        if !(kxo_engine::GO_MIN_SIZE..=kxo_engine::GO_MAX_SIZE).contains(&size) {
            return Err(format!("cannot load file: a board of {size}x{size}"));
        }
        let rules = Rules::go(size, komi2, 0).map_err(|e| format!("cannot load file: {e}"))?;
        // A record that cannot be played leaves the game as it was.
        let before = (self.rules, self.moves.clone(), self.put_in.clone());
        self.new_game(rules);
        // `loadsgf FILE N`: the position before move N.
        let moves = match upto {
            Some(n) => &game.moves[..game.moves.len().min(n.saturating_sub(1))],
            None => &game.moves[..],
        };
        let played = game
            .setup
            .iter()
            .chain(moves)
            .try_for_each(|&(side, point)| self.play(side, point));
        if let Err(e) = played {
            (self.rules, self.moves, self.put_in) = before;
            self.engine = None;
            return Err(format!("cannot load file: {e}"));
        }
        let next = self.position().to_move();
        Ok(match next {
            Player::O => "black".into(),
            Player::X => "white".into(),
        })
    }

    /// `showboard`: the board with coordinates, Black `X`, White `O`, as
    /// GNU Go draws it, and the stones each side has taken.
    fn board_text(&self) -> String {
        let pos = self.position();
        let n = usize::from(self.rules.size());
        let letters: String = b"ABCDEFGHJKLMNOPQRST"[..n]
            .iter()
            .map(|&b| format!(" {}", b as char))
            .collect();
        let mut out = format!("\n  {letters}");
        for row in 0..n {
            let label = n - row;
            out.push_str(&format!("\n{label:>2}"));
            for col in 0..n {
                let mark = match pos.at(Cell::from_index(row * n + col)) {
                    Some(Player::O) => 'X',
                    Some(Player::X) => 'O',
                    None => '.',
                };
                out.push(' ');
                out.push(mark);
            }
            out.push_str(&format!(" {label}"));
        }
        out.push_str(&format!(
            "\n  {letters}\nBlack (X) has taken {}, White (O) {}; komi {}",
            pos.captured(Player::O),
            pos.captured(Player::X),
            self.rules.komi()
        ));
        out
    }
}

/// Points as GTP names them, joined by `separator`.
fn vertex_list(points: &[Cell], size: u8, separator: &str) -> String {
    points
        .iter()
        .map(|&c| vertex_name(c, size))
        .collect::<Vec<_>>()
        .join(separator)
}

/// `kxo-tui gtp`: the protocol on stdin and stdout until `quit`.
pub fn serve(options: GtpOptions) -> anyhow::Result<()> {
    options
        .engine
        .check_game(Rules::go(9, kxo_engine::GO_KOMI2, 0).map_err(anyhow::Error::msg)?)
        .map_err(crate::error::InputError)?;
    lines::exit_soon_after_a_signal();
    let stdin = std::io::BufReader::new(std::io::stdin());
    crate::out::protocol_ended(run(stdin, crate::out::protocol(), options))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_are_read_as_gtp_says() {
        let parsed = |l: &str| parse_command(l);
        assert_eq!(
            parsed("12 play\tBlack c3 # mine"),
            Some((
                "12".into(),
                "play".into(),
                vec!["Black".into(), "c3".into()]
            ))
        );
        assert_eq!(parsed("   # only a comment"), None);
        assert_eq!(parsed(""), None);
        assert_eq!(
            parsed("NAME\x07\x1b"),
            Some((String::new(), "name".into(), vec![]))
        );
        // A number alone: a command with no name, refused with its id.
        assert_eq!(parsed("7"), Some(("7".into(), String::new(), vec![])));
    }
}
