//! Go's rules against a real program as the oracle: GNU Go 3.8's answers
//! about 1,000 random games on 9x9 and 200 on 19x19, and its score of 200
//! games played out to their end, recorded once into
//! `tests/fixtures/go/gnugo.txt.gz` by `record_gnugo.py` beside it (no
//! test needs GNU Go). The board replays every game: each move legal where GNU
//! Go took it, the same stones captured, the same empty points refused to
//! the side to move (ko, suicide), the same stones at the end; and the
//! area count of each finished game is GNU Go's `final_score`.

use kxo_engine::go::{Board, GoPosition, parse_sgf_point};
use kxo_engine::{Cell, Game, Player, Rules};

fn fixture() -> String {
    use std::io::Read;
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go/gnugo.txt.gz");
    let file = std::fs::File::open(&path).expect("the GNU Go fixture");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("the fixture unpacks");
    text
}

/// The points of a run of two-letter SGF points.
fn points(text: &str, size: u8) -> Vec<Cell> {
    text.as_bytes()
        .chunks(2)
        .map(|p| {
            parse_sgf_point(std::str::from_utf8(p).expect("letters"), size)
                .filter(|c| !c.is_pass())
                .unwrap_or_else(|| panic!("not a point: {p:?}"))
        })
        .collect()
}

/// A token's move, its captures and the empty points refused after it.
fn token(text: &str, size: u8) -> (Cell, Vec<Cell>, Vec<Cell>) {
    let (play, refused) = text.split_once('!').unwrap_or((text, ""));
    let (mv, captured) = play.split_once('x').unwrap_or((play, ""));
    let mv = match mv {
        "--" => Cell::PASS,
        m => points(m, size)[0],
    };
    let mut captured = points(captured, size);
    let mut refused = points(refused, size);
    captured.sort();
    refused.sort();
    (mv, captured, refused)
}

fn stones_of(board: &Board, player: Player) -> Vec<Cell> {
    let n = board.size() as usize;
    (0..n * n)
        .map(Cell::from_index)
        .filter(|c| board.at(board.point(c.index())).player() == Some(player))
        .collect()
}

#[test]
fn the_board_plays_gnu_gos_random_games_move_for_move() {
    let text = fixture();
    let mut lines = text.lines().filter(|l| !l.starts_with('#'));
    let (mut games, mut moves, mut captures, mut refusals) = ([0u32; 2], 0u64, 0u64, 0u64);
    while let Some(line) = lines.next() {
        let mut words = line.split_whitespace();
        if words.next() != Some("moves") {
            continue;
        }
        let size: u8 = words.next().and_then(|s| s.parse().ok()).expect("a size");
        let mut board = Board::new(size);
        for (i, t) in words.enumerate() {
            let (mv, captured, refused) = token(t, size);
            let me = board.to_move();
            let before = stones_of(&board, Player::O).len() + stones_of(&board, Player::X).len();
            let mut lost = [stones_of(&board, Player::O), stones_of(&board, Player::X)];
            if mv.is_pass() {
                board.pass();
            } else {
                let v = board.point(mv.index());
                assert!(
                    board.is_legal(me, v),
                    "move {} {t} refused:\n{board:?}",
                    i + 1
                );
                board.play_legal(me, v);
            }
            // The stones that went are the ones GNU Go says went.
            for (side, gone) in [Player::O, Player::X].iter().zip(&mut lost) {
                let now = stones_of(&board, *side);
                gone.retain(|c| !now.contains(c));
            }
            let mut gone: Vec<Cell> = lost.concat();
            gone.sort();
            assert_eq!(
                gone,
                captured,
                "captures of move {} ({t}):\n{board:?}",
                i + 1
            );
            let after = stones_of(&board, Player::O).len() + stones_of(&board, Player::X).len();
            assert_eq!(after + gone.len(), before + usize::from(!mv.is_pass()));
            // The empty points the side to move may not play.
            let next = board.to_move();
            let mut ours: Vec<Cell> = board
                .empty_points()
                .iter()
                .map(|&v| v as usize)
                .filter(|&v| !board.is_legal(next, v))
                .map(|v| Cell::from_index(board.cell(v)))
                .collect();
            ours.sort();
            assert_eq!(
                ours,
                refused,
                "refused after move {} ({t}):\n{board:?}",
                i + 1
            );
            moves += 1;
            captures += gone.len() as u64;
            refusals += refused.len() as u64;
        }
        let end = lines.next().expect("the game's stones");
        // "stones SIZE BLACK WHITE", either list empty when a side has none.
        let lists = end.splitn(3, ' ').nth(2).expect("the stone lists");
        let (black, white) = lists.split_once(' ').expect("two lists");
        let (black, white) = (points(black, size), points(white, size));
        assert_eq!(
            stones_of(&board, Player::O),
            sorted(black),
            "black stones at the end of game {games:?}"
        );
        assert_eq!(
            stones_of(&board, Player::X),
            sorted(white),
            "white stones at the end"
        );
        games[usize::from(size == 19)] += 1;
    }
    // The fixture is what it says, and it tests something.
    assert_eq!(games, [1000, 200], "games on 9x9 and 19x19");
    assert!(
        captures > 10_000 && refusals > 1_000,
        "{captures} captures, {refusals} refusals in {moves} moves"
    );
}

fn sorted(mut cells: Vec<Cell>) -> Vec<Cell> {
    cells.sort();
    cells
}

#[test]
fn the_area_count_of_finished_games_is_gnu_gos_final_score() {
    let text = fixture();
    let mut scored = 0;
    for line in text.lines().filter(|l| l.starts_with("score ")) {
        let mut words = line.split_whitespace().skip(1);
        let size: u8 = words.next().and_then(|s| s.parse().ok()).expect("a size");
        let result = words.next().expect("GNU Go's score").to_string();
        let mut pos = GoPosition::new(Rules::go(size, 15, 0).expect("9x9 Go"));
        for t in words {
            let (mv, _, _) = token(t, size);
            pos.play(mv).unwrap_or_else(|e| panic!("{t}: {e}\n{pos:?}"));
        }
        assert!(pos.outcome().is_over(), "a scored game ends by two passes");
        assert_eq!(pos.score().text(), result, "{pos:?}");
        assert_eq!(Game::outcome(&pos), pos.score().outcome());
        scored += 1;
    }
    assert_eq!(scored, 200);
}
