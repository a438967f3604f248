//! Human mode's start screen: which game, which side, how strong the
//! computer is. `kxo-tui --human` without a board opens on it; the last
//! choice is offered again next time (the command keeps it in a file).

use crate::engines::RunLimit;
use kxo_engine::BuiltIn;
use kxo_engine::{Player, Rule, Rules};

/// A game the start screen offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub name: &'static str,
    /// How it plays, in a few words.
    pub about: &'static str,
    pub size: u8,
    pub goal: u8,
    /// Whether Negamax reads every game on it to the end within a move,
    /// so that the top level is perfect there (on the others it is the
    /// strongest engine, no more).
    pub read_to_the_end: bool,
    /// Go on this board (komi 7.5) instead of a line game.
    pub go: bool,
}

/// The games offered, in order.
pub const BOARDS: [Board; 6] = [
    Board {
        name: "3x3, three in a row",
        about: "tic-tac-toe: a draw with best play",
        size: 3,
        goal: 3,
        read_to_the_end: true,
        go: false,
    },
    Board {
        name: "4x4, three in a row",
        about: "kxo's own board: the first player wins with best play",
        size: 4,
        goal: 3,
        read_to_the_end: true,
        go: false,
    },
    Board {
        name: "4x4, four in a row",
        about: "a draw with best play, and a long one",
        size: 4,
        goal: 4,
        read_to_the_end: true,
        go: false,
    },
    Board {
        name: "7x7, five in a row",
        about: "a draw with best play; the computer cannot see to the end",
        size: 7,
        goal: 5,
        read_to_the_end: false,
        go: false,
    },
    Board {
        name: "Gomoku: 15x15, five in a row",
        about: "the classic: threats of four and three",
        size: 15,
        goal: 5,
        read_to_the_end: false,
        go: false,
    },
    Board {
        name: "Go: 9x9, komi 7.5",
        about: "area scoring; p twice passes, two passes end the game",
        size: 9,
        goal: 0,
        read_to_the_end: false,
        go: true,
    },
];

/// How strong the computer plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Random moves.
    Easy,
    /// MCTS with 500 iterations a move: it blunders now and then.
    Medium,
    /// MCTS with 50,000 iterations.
    Hard,
    /// Negamax: perfect where it reads the game to the end (never misses a
    /// win, never lets a won position go), the strongest engine elsewhere.
    Perfect,
}

impl Level {
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Perfect];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Perfect => "perfect",
        }
    }

    /// The level's name on `board`'s start screen: the top level is
    /// "perfect" only where Negamax reads the game to the end, else
    /// "strongest" (`--level perfect` names it either way).
    pub fn label(self, board: &Board) -> &'static str {
        match self {
            Level::Perfect if !board.read_to_the_end => "strongest",
            level => level.name(),
        }
    }

    /// How the computer plays at this level on `board`, in a few words:
    /// the top level claims perfection only where Negamax reads to the end.
    pub fn about(self, board: &Board) -> &'static str {
        match self {
            Level::Easy => "random moves",
            Level::Medium => "MCTS, 500 iterations a move: it blunders now and then",
            Level::Hard => "MCTS, 50,000 iterations a move",
            Level::Perfect if board.read_to_the_end => {
                "Negamax: never misses a win, never lets one go"
            }
            Level::Perfect if board.go => "MCTS, 3 s a move: the strongest level on Go",
            Level::Perfect => "Negamax, the strongest level: it cannot read this board to the end",
        }
    }

    /// What the computer is at this level on `board`, for "the computer
    /// is …": only perfect where it is.
    pub fn is(self, board: &Board) -> &'static str {
        match self {
            Level::Perfect if board.go => "MCTS (the strongest level)",
            Level::Perfect if !board.read_to_the_end => "Negamax (the strongest level)",
            level => level.name(),
        }
    }

    /// The engine that plays at this level, on Go or a line game, and its
    /// budget (Negamax plays no Go: there MCTS with time is the top level).
    pub fn engine(self, go: bool) -> (BuiltIn, RunLimit) {
        match self {
            Level::Perfect if go => (BuiltIn::Mcts, RunLimit::Millis(3000)),
            Level::Easy => (BuiltIn::Random, RunLimit::Default),
            Level::Medium => (BuiltIn::Mcts, RunLimit::MctsIterations(500)),
            Level::Hard => (BuiltIn::Mcts, RunLimit::MctsIterations(50_000)),
            Level::Perfect => (BuiltIn::Negamax, RunLimit::Default),
        }
    }
}

/// What the person chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Into [`BOARDS`].
    pub board: usize,
    pub side: Player,
    pub level: Level,
    /// Which lines win: the command line's, not kept in the file.
    pub rule: Rule,
}

impl Default for Choice {
    /// 7x7 with five, the person first, the hard level: a game either
    /// side can lose (on kxo's own 4x4 the first player wins by the hint
    /// in three moves).
    fn default() -> Choice {
        Choice {
            board: 3,
            side: Player::O,
            level: Level::Hard,
            rule: Rule::Freestyle,
        }
    }
}

/// The first line of the file that keeps the last choice.
pub const HEADER: &str = "# kxo-tui human mode: the last game chosen";

impl Choice {
    pub fn board(&self) -> Board {
        BOARDS[self.board.min(BOARDS.len() - 1)]
    }

    pub fn rules(&self) -> Rules {
        let b = self.board();
        if b.go {
            return Rules::go(b.size, kxo_engine::GO_KOMI2, 0)
                .unwrap_or_else(|_| Rules::default_rules());
        }
        let rules = Rules::new(b.size, b.goal).unwrap_or_else(|_| Rules::default_rules());
        rules.with_rule(self.rule)
    }

    /// The choice as its file holds it.
    pub fn to_text(&self) -> String {
        let b = self.board();
        format!(
            "{HEADER}\nboard {}x{}k{}\nside {}\nlevel {}\n",
            b.size,
            b.size,
            b.goal,
            self.side,
            self.level.name()
        )
    }

    /// Reads a choice from its file's text: what it cannot read stays as
    /// in `self` (a damaged file costs the person a default, nothing more).
    pub fn read(mut self, text: &str) -> Choice {
        for line in text.lines() {
            let Some((key, value)) = line.split_once(' ') else {
                continue;
            };
            match key {
                "board" => {
                    if let Some(i) = BOARDS
                        .iter()
                        .position(|b| format!("{}x{}k{}", b.size, b.size, b.goal) == value)
                    {
                        self.board = i;
                    }
                }
                "side" => match value {
                    "O" => self.side = Player::O,
                    "X" => self.side = Player::X,
                    _ => {}
                },
                "level" => {
                    if let Some(l) = Level::ALL.into_iter().find(|l| l.name() == value) {
                        self.level = l;
                    }
                }
                _ => {}
            }
        }
        self
    }
}

/// The start screen's state: the choice so far and the row being changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub choice: Choice,
    /// 0: the game, 1: the side, 2: the level.
    pub row: usize,
}

impl Setup {
    pub const ROWS: usize = 3;

    pub fn new(choice: Choice) -> Setup {
        Setup { choice, row: 0 }
    }

    /// Up and down pick the row; left and right change its value.
    pub fn step(&mut self, direction: super::Direction) {
        use super::Direction;
        let turn = |i: usize, n: usize, forward: bool| {
            if forward {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            }
        };
        match direction {
            Direction::Up => self.row = turn(self.row, Self::ROWS, false),
            Direction::Down => self.row = turn(self.row, Self::ROWS, true),
            Direction::Left | Direction::Right => {
                let forward = direction == Direction::Right;
                let c = &mut self.choice;
                match self.row {
                    0 => c.board = turn(c.board, BOARDS.len(), forward),
                    1 => c.side = c.side.other(),
                    _ => {
                        let i = Level::ALL.iter().position(|&l| l == c.level).unwrap_or(0);
                        c.level = Level::ALL[turn(i, Level::ALL.len(), forward)];
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::Direction;

    /// The top level claims perfection only where Negamax proves the
    /// game's value from the empty board within a move (on small boards
    /// its move is bounded by nodes, not time, so this holds on any
    /// machine): asked, not assumed.
    #[test]
    fn the_top_level_is_called_perfect_only_where_negamax_reads_to_the_end() {
        use kxo_engine::{Budget, SearchInfo};
        use std::time::{Duration, Instant};
        /// The live screen's budget as far as a search can tell: the
        /// level's limit on this board, and no clock that stops it.
        struct Watch {
            start: Instant,
            proved: bool,
            limit: kxo_engine::Limit,
        }
        impl Budget for Watch {
            fn tick(&mut self) -> bool {
                true
            }
            fn elapsed(&self) -> Duration {
                self.start.elapsed()
            }
            fn report(&mut self, info: &SearchInfo) {
                self.proved |= info.proved;
            }
            fn limit(&self) -> kxo_engine::Limit {
                self.limit
            }
        }
        for board in BOARDS {
            if board.go {
                // Negamax plays no Go: the top level is MCTS, and no
                // level claims perfection.
                assert_eq!(Level::Perfect.engine(board.go).0, BuiltIn::Mcts);
                assert!(!Level::Perfect.about(&board).contains("never misses"));
                assert_ne!(Level::Perfect.is(&board), "perfect");
                continue;
            }
            let rules = Rules::new(board.size, board.goal).expect("the board's rules");
            let (kind, limit) = Level::Perfect.engine(board.go);
            let spec = crate::engines::EngineSpec::for_seat(kind.into());
            let mut engine = kxo_engine::make_engine(kind, rules, 1);
            let mut watch = Watch {
                start: Instant::now(),
                proved: false,
                limit: spec.limit(limit, rules),
            };
            engine.choose(&kxo_engine::Position::new(rules), &mut watch);
            assert_eq!(watch.proved, board.read_to_the_end, "{}", board.name);
            let perfect = Level::Perfect.about(&board).contains("never misses a win");
            assert_eq!(perfect, board.read_to_the_end, "{}", board.name);
            assert_eq!(
                Level::Perfect.is(&board) == "perfect",
                board.read_to_the_end,
                "{}",
                board.name
            );
            // The start screen names it so too: "strongest" elsewhere.
            assert_eq!(
                Level::Perfect.label(&board) == "perfect",
                board.read_to_the_end,
                "{}",
                board.name
            );
            assert!(!Level::Perfect.about(&board).contains("not perfect"));
        }
    }

    #[test]
    fn a_choice_survives_its_file_and_a_damaged_file_costs_a_default() {
        let c = Choice {
            board: 4,
            side: Player::X,
            level: Level::Perfect,
            rule: Rule::Freestyle,
        };
        assert_eq!(Choice::default().read(&c.to_text()), c);
        assert_eq!(c.rules(), Rules::new(15, 5).unwrap());
        let go = Choice { board: 5, ..c };
        assert_eq!(Choice::default().read(&go.to_text()), go);
        assert!(go.rules().is_go() && go.rules().size() == 9);
        let damaged = "board 99x99k9\nside Q\nlevel godlike\nnonsense";
        assert_eq!(Choice::default().read(damaged), Choice::default());
    }

    #[test]
    fn the_keys_walk_the_rows_and_turn_the_values() {
        let mut s = Setup::new(Choice::default());
        assert_eq!(BOARDS[s.choice.board].name, "7x7, five in a row");
        s.step(Direction::Right);
        assert_eq!(s.choice.board, 4);
        s.step(Direction::Up);
        assert_eq!(s.row, 2);
        s.step(Direction::Right);
        assert_eq!(s.choice.level, Level::Perfect);
        s.step(Direction::Right);
        assert_eq!(s.choice.level, Level::Easy);
        s.step(Direction::Up);
        s.step(Direction::Left);
        assert_eq!(s.choice.side, Player::X);
    }
}
