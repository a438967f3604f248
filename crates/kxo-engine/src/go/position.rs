//! A game of Go: its board, the positions it has passed through
//! (positional superko: no move may bring back the stones of an earlier
//! position), handicap, passes, and its result by area (Chinese rules,
//! counted as Tromp–Taylor does) with komi.

use super::board::{Board, Stone};
use crate::game::{Cell, MoveError, Outcome, Player, Rules};

/// A finished game's count: each side's area and the margin, komi
/// included (positive: Black leads).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoScore {
    pub black: u32,
    pub white: u32,
    pub komi: f32,
}

impl GoScore {
    /// Black's area less White's and komi.
    pub fn margin(&self) -> f32 {
        self.black as f32 - self.white as f32 - self.komi
    }

    pub fn outcome(&self) -> Outcome {
        let m = self.margin();
        if m > 0.0 {
            Outcome::Win(Player::O)
        } else if m < 0.0 {
            Outcome::Win(Player::X)
        } else {
            Outcome::Draw
        }
    }

    /// The result as SGF and GTP write it: "B+3.5", "W+0.5", "0".
    pub fn text(&self) -> String {
        let m = self.margin();
        match m {
            m if m > 0.0 => format!("B+{}", trim(m)),
            m if m < 0.0 => format!("W+{}", trim(-m)),
            _ => "0".to_string(),
        }
    }
}

/// A half-point number without its trailing ".0".
fn trim(x: f32) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x:.1}")
    }
}

/// Playouts behind a judgement of which stones are dead: enough that a
/// stone in the other side's settled area is seen dead every time.
pub const OWNERSHIP_PLAYOUTS: u32 = 400;

/// A game of Go under `rules` (their komi and handicap).
#[derive(Clone)]
pub struct GoPosition {
    rules: Rules,
    board: Board,
    /// The stones' keys of every position so far, this one included.
    seen: Vec<u64>,
    outcome: Outcome,
    /// The stones the last move took (for the screen to mark).
    last_captures: Vec<Cell>,
    /// Play resumed after two passes because the players did not agree on
    /// the dead stones: the next two passes end the game with every stone
    /// on the board alive.
    cleanup: bool,
}

impl GoPosition {
    /// The empty board with its handicap stones, and Black to move (White
    /// after a handicap).
    pub fn new(rules: Rules) -> GoPosition {
        debug_assert!(rules.is_go());
        let mut board = Board::new(rules.size());
        let handicap = super::handicap_points(rules.size(), rules.handicap());
        for &cell in &handicap {
            let v = board.point(cell.index());
            board.play_legal(Player::O, v);
            board.pass_quietly();
        }
        if !handicap.is_empty() {
            // The handicap stones are Black's whole first move.
            board.pass_quietly();
        }
        GoPosition {
            rules,
            seen: vec![board.hash()],
            board,
            outcome: Outcome::Ongoing,
            last_captures: Vec::new(),
            cleanup: false,
        }
    }

    /// Plays the moves in order from the start. Moves after the first two
    /// passes in a row are a clean-up ([`GoPosition::resume_for_cleanup`]).
    pub fn from_moves(rules: Rules, moves: &[Cell]) -> Result<GoPosition, (usize, MoveError)> {
        let mut pos = GoPosition::new(rules);
        for (i, &cell) in moves.iter().enumerate() {
            if pos.outcome.is_over() && pos.passes() >= 2 && !pos.cleanup {
                pos.resume_for_cleanup();
            }
            pos.play(cell).map_err(|e| (i, e))?;
        }
        Ok(pos)
    }

    /// Resumes a game that two passes ended, when the players did not
    /// agree which stones are dead (as KGS does): they play on, capturing
    /// what they hold dead, and the next two passes end it with every
    /// stone left alive.
    pub fn resume_for_cleanup(&mut self) {
        self.outcome = Outcome::Ongoing;
        self.board.clear_passes();
        self.cleanup = true;
    }

    /// Whether play resumed after two passes to take dead stones off.
    pub fn in_cleanup(&self) -> bool {
        self.cleanup
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn to_move(&self) -> Player {
        self.board.to_move()
    }
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
    /// Moves played, passes included (the handicap not).
    pub fn move_count(&self) -> u32 {
        self.seen.len() as u32 - 1
    }
    /// Who holds `cell`.
    pub fn at(&self, cell: Cell) -> Option<Player> {
        self.board.at(self.board.point(cell.index())).player()
    }
    /// Stones `player` has captured.
    pub fn captured(&self, player: Player) -> u32 {
        self.board.captured(player)
    }
    /// The stones the last move captured.
    pub fn last_captures(&self) -> &[Cell] {
        &self.last_captures
    }
    /// Passes in a row at the end of the game so far.
    pub fn passes(&self) -> u8 {
        self.board.passes()
    }

    /// Why `cell` is no move for the side to move now, if it is not.
    pub fn check(&self, cell: Cell) -> Result<(), MoveError> {
        if self.outcome.is_over() {
            return Err(MoveError::GameOver);
        }
        if cell.is_pass() {
            return Ok(());
        }
        let n = self.rules.size() as usize;
        if cell.index() >= n * n {
            return Err(MoveError::OffBoard(cell));
        }
        let v = self.board.point(cell.index());
        let me = self.to_move();
        if self.board.at(v) != Stone::Empty {
            return Err(MoveError::Occupied(cell));
        }
        if self.board.ko_point() == Some(v) {
            return Err(MoveError::Ko(cell));
        }
        if !self.board.is_legal(me, v) {
            return Err(MoveError::Suicide(cell));
        }
        let mut next = self.board;
        next.play_legal(me, v);
        if self.seen.contains(&next.hash()) {
            return Err(MoveError::Superko(cell));
        }
        Ok(())
    }

    /// Plays `cell` (or a pass) for the side to move. Two passes in a row
    /// end the game, scored by area with every stone alive.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        self.check(cell)?;
        self.last_captures.clear();
        if cell.is_pass() {
            self.board.pass();
            if self.board.passes() >= 2 {
                self.outcome = self.score().outcome();
            }
        } else {
            let v = self.board.point(cell.index());
            let before = self.board;
            let theirs = self.to_move().other();
            self.board.play_legal(self.to_move(), v);
            if before.captured(self.to_move().other())
                != self.board.captured(self.to_move().other())
            {
                // The other side's stones that went, found around the move.
                let n = self.rules.size() as usize;
                self.last_captures = (0..n * n)
                    .filter(|&i| {
                        let p = before.point(i);
                        before.at(p).player() == Some(theirs) && self.board.at(p) == Stone::Empty
                    })
                    .map(Cell::from_index)
                    .collect();
            }
        }
        self.seen.push(self.board.hash());
        Ok(())
    }

    /// The legal moves now, points in cell order then a pass; none once
    /// the game is over.
    pub fn legal_moves(&self) -> Vec<Cell> {
        if self.outcome.is_over() {
            return Vec::new();
        }
        let n = self.rules.size() as usize;
        let mut moves: Vec<Cell> = (0..n * n)
            .map(Cell::from_index)
            .filter(|&c| self.check(c).is_ok())
            .collect();
        moves.push(Cell::PASS);
        moves
    }

    /// The area count of the board as it stands, every stone alive.
    pub fn score(&self) -> GoScore {
        let [black, white] = self.board.area();
        GoScore {
            black,
            white,
            komi: self.rules.komi(),
        }
    }

    /// The area count with the stones on `dead` taken off first (as the
    /// players agreed at the end).
    pub fn score_without(&self, dead: &[Cell]) -> GoScore {
        let [black, white] = self.board_without(dead).area();
        GoScore {
            black,
            white,
            komi: self.rules.komi(),
        }
    }

    /// Who owns each cell once the stones on `dead` are taken off: a live
    /// stone's side, or the side whose stones alone an empty region touches.
    pub fn owners_without(&self, dead: &[Cell]) -> Vec<Option<Player>> {
        self.board_without(dead).owners()
    }

    /// The stones of the chain through `cell`; none when it is empty.
    pub fn chain(&self, cell: Cell) -> Vec<Cell> {
        let v = self.board.point(cell.index());
        if self.board.at(v).player().is_none() {
            return Vec::new();
        }
        let mut stones: Vec<Cell> = self
            .board
            .chain_stones(v)
            .map(|p| Cell::from_index(self.board.cell(p)))
            .collect();
        stones.sort_by_key(|c| c.index());
        stones
    }

    /// The board with only the stones not on `dead`.
    fn board_without(&self, dead: &[Cell]) -> Board {
        let mut board = Board::new(self.rules.size());
        let n = self.rules.size() as usize;
        // The live stones again, on an empty board: placed one by one,
        // each keeps the liberties a legal position gives it.
        let mut stones: Vec<(Player, usize)> = Vec::new();
        for i in 0..n * n {
            let v = self.board.point(i);
            if let Some(p) = self.board.at(v).player()
                && !dead.contains(&Cell::from_index(i))
            {
                stones.push((p, board.point(i)));
            }
        }
        for (p, v) in stones {
            board.place_unchecked(p, v);
        }
        board
    }

    /// The stones that look dead: those whose point the other side owns at
    /// the end of most of `playouts` heavy playouts from here (Monte Carlo
    /// ownership, as Go engines estimate it).
    pub fn dead_stones(&self, playouts: u32, seed: u64) -> Vec<Cell> {
        use super::playout::{FastRng, Playouts, playout};
        let n = self.rules.size() as usize;
        let mut theirs = vec![0u32; n * n];
        let mut rng = FastRng::new(seed);
        let mut first = [0u8; super::board::MAX_POINTS];
        for _ in 0..playouts {
            let mut b = self.board;
            // Played out from here as a fresh game: the passes so far do
            // not end it.
            b.clear_passes();
            playout(
                &mut b,
                Playouts::Heavy,
                self.rules.komi2(),
                &mut rng,
                &mut first,
            );
            for (i, count) in theirs.iter_mut().enumerate() {
                let v = self.board.point(i);
                let Some(owner) = self.board.at(v).player() else {
                    continue;
                };
                let taken = match b.at(v).player() {
                    Some(p) => p != owner,
                    None => b.is_eyelike(owner.other(), v),
                };
                *count += u32::from(taken);
            }
        }
        (0..n * n)
            .filter(|&i| theirs[i] * 2 > playouts)
            .map(Cell::from_index)
            .collect()
    }

    /// Ends the game by a score the players settled (dead stones taken off).
    pub fn settle(&mut self, score: GoScore) {
        self.outcome = score.outcome();
    }
}

impl crate::game::Game for GoPosition {
    fn rules(&self) -> Rules {
        self.rules
    }
    fn to_move(&self) -> Player {
        GoPosition::to_move(self)
    }
    fn outcome(&self) -> Outcome {
        self.outcome
    }
    fn sensible_moves(&self) -> Vec<Cell> {
        if self.outcome.is_over() {
            return Vec::new();
        }
        let me = self.to_move();
        let mut moves: Vec<Cell> = self
            .board
            .empty_points()
            .iter()
            .map(|&v| v as usize)
            .filter(|&v| !self.board.is_eye(me, v))
            .map(|v| Cell::from_index(self.board.cell(v)))
            .filter(|&c| self.check(c).is_ok())
            .collect();
        moves.sort();
        if moves.is_empty() {
            moves.push(Cell::PASS);
        }
        moves
    }
    fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        GoPosition::play(self, cell)
    }
    fn key(&self) -> u64 {
        self.board.hash() ^ (self.to_move().index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl std::fmt::Debug for GoPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{:?}, {} to move, {:?}",
            self.rules,
            self.to_move(),
            self.outcome
        )?;
        write!(f, "{:?}", self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::parse_vertex;

    fn go(size: u8) -> Rules {
        Rules::go(size, 15, 0).unwrap()
    }

    fn play(pos: &mut GoPosition, moves: &str) {
        for m in moves.split_whitespace() {
            let cell = parse_vertex(m, pos.rules().size()).unwrap();
            pos.play(cell)
                .unwrap_or_else(|e| panic!("{m}: {e:?}\n{pos:?}"));
            pos.board().check();
        }
    }

    #[test]
    fn a_stone_without_liberties_is_captured_and_suicide_refused() {
        let mut pos = GoPosition::new(go(9));
        let e5 = parse_vertex("E5", 9).unwrap();
        // Black closes round White's E5: it goes with its last liberty.
        play(&mut pos, "D5 E5 F5 A1 E4 A2");
        assert_eq!(pos.at(e5), Some(Player::X));
        play(&mut pos, "E6");
        assert_eq!(pos.captured(Player::O), 1);
        assert_eq!(pos.at(e5), None);
        // White into E5 again would have no liberty and take nothing.
        assert_eq!(pos.play(e5), Err(MoveError::Suicide(e5)));
        assert!(!pos.legal_moves().contains(&e5));
    }

    #[test]
    fn simple_ko_is_refused_at_once_and_superko_after() {
        let mut pos = GoPosition::new(go(9));
        // A ko at D5/E5: Black D4 C5 D6, White E4 F5 E6; Black E5, White
        // takes at D5.
        play(&mut pos, "D4 E4 C5 F5 D6 E6 E5 D5");
        let e5 = parse_vertex("E5", 9).unwrap();
        // White captured at D5; Black may not retake at E5 at once.
        assert_eq!(pos.captured(Player::X), 1);
        assert_eq!(pos.play(e5), Err(MoveError::Ko(e5)));
        // After a move elsewhere it may.
        play(&mut pos, "A1 A9 E5");
        assert_eq!(pos.captured(Player::O), 1);
    }

    #[test]
    fn two_passes_end_the_game_scored_by_area_with_komi() {
        let mut pos = GoPosition::new(go(5));
        // Black builds a wall on column C; White on D.
        play(&mut pos, "C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 pass pass");
        let score = pos.score();
        // Black: columns A-C (15), White: D-E (10); komi 7.5.
        assert_eq!((score.black, score.white), (15, 10));
        assert_eq!(score.text(), "W+2.5");
        assert_eq!(pos.outcome(), Outcome::Win(Player::X));
        assert_eq!(pos.play(Cell::PASS), Err(MoveError::GameOver));
        // With D5 and E… taken off as dead, Black owns more.
        let dead: Vec<Cell> = ["D1", "D2", "D3", "D4", "D5"]
            .iter()
            .map(|m| parse_vertex(m, 5).unwrap())
            .collect();
        assert_eq!(pos.score_without(&dead).black, 25);
        let owners = pos.owners_without(&dead);
        assert!(owners.iter().all(|&o| o == Some(Player::O)));
        // The chain through D3 is White's whole wall; an empty point has none.
        let d3 = parse_vertex("D3", 5).unwrap();
        assert_eq!(pos.chain(d3), {
            let mut wall = dead.clone();
            wall.sort_by_key(|c| c.index());
            wall
        });
        assert!(pos.chain(parse_vertex("E3", 5).unwrap()).is_empty());
    }

    #[test]
    fn stones_inside_the_other_sides_area_are_seen_dead() {
        let mut pos = GoPosition::new(go(9));
        // Black walls off the left five columns, White the right four;
        // a White stone sits in Black's side, in atari (A5, C5, B4).
        let wall: Vec<String> = (1..=9)
            .flat_map(|r| [format!("E{r}"), format!("F{r}")])
            .collect();
        for m in &wall {
            play(&mut pos, m);
        }
        play(&mut pos, "A5 B5 C5 pass B4 pass");
        let dead = pos.dead_stones(300, 1);
        assert_eq!(dead, vec![parse_vertex("B5", 9).unwrap()], "{pos:?}");
        // Taken off, Black owns its 45 points and White its 36 (komi 7.5).
        assert_eq!(pos.score_without(&dead).text(), "B+1.5");
    }

    #[test]
    fn handicap_stones_are_blacks_and_white_moves_first() {
        let pos = GoPosition::new(Rules::go(9, 1, 2).unwrap());
        assert_eq!(pos.to_move(), Player::X);
        assert_eq!(pos.at(parse_vertex("C3", 9).unwrap()), Some(Player::O));
        assert_eq!(pos.at(parse_vertex("G7", 9).unwrap()), Some(Player::O));
        assert_eq!(pos.move_count(), 0);
    }
}
