//! The public reference figures of DESIGN.md.

use std::collections::HashSet;

use kxo_engine::{Outcome, Player, Position, Rules};
use kxo_tui::headless::solve::solve;

#[derive(Default)]
struct Census {
    positions: HashSet<u128>,
    canonical: HashSet<u128>,
    first: u64,
    second: u64,
    drawn: u64,
}

fn walk(pos: &Position, census: &mut Census) {
    census.positions.insert(pos.table());
    census.canonical.insert(pos.canonical_table());
    match pos.outcome() {
        Outcome::Win(Player::O) => census.first += 1,
        Outcome::Win(Player::X) => census.second += 1,
        Outcome::Draw => census.drawn += 1,
        Outcome::Ongoing => {
            for m in pos.legal_moves() {
                let mut next = *pos;
                next.play(m).expect("legal move");
                walk(&next, census);
            }
        }
    }
}

#[test]
fn three_by_three_positions_and_games() {
    let mut census = Census::default();
    walk(&Position::new(Rules::new(3, 3).unwrap()), &mut census);
    assert_eq!(census.positions.len(), 5_478);
    assert_eq!(census.canonical.len(), 765);
    assert_eq!(census.first + census.second + census.drawn, 255_168);
    assert_eq!(census.first, 131_184);
    assert_eq!(census.second, 77_904);
    assert_eq!(census.drawn, 46_080);
}

fn value(size: u8, goal: u8) -> Option<&'static str> {
    solve(Rules::new(size, goal).unwrap(), "").unwrap().value
}

#[test]
fn solve_finds_the_published_values() {
    assert_eq!(value(3, 3), Some("draw"));
    assert_eq!(value(4, 3), Some("first"));
    assert_eq!(value(4, 4), Some("draw"));
    assert_eq!(value(5, 4), Some("draw"));
    assert_eq!(value(5, 5), Some("draw"));
}

#[test]
fn six_by_six_four_in_a_row_is_a_first_player_win() {
    assert_eq!(value(6, 4), Some("first"));
}
