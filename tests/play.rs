//! Engines tested by playing whole games.

use kxo_engine::kernels::Mcts;
use kxo_engine::{Budget, Engine, Negamax, RandomPlayer, Unlimited, Value};
use kxo_engine::{Limit, MoveBudget};
use kxo_engine::{Outcome, Player, Position, Rules};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Plays from `pos` to the end; `seats[0]` plays O.
/// An engine held to `n` iterations a move, whatever budget it is given.
struct Working<E>(E, u64);

impl<E: Engine> Engine for Working<E> {
    fn label(&self) -> std::borrow::Cow<'static, str> {
        self.0.label()
    }
    fn choose(&mut self, pos: &Position, _: &mut dyn Budget) -> kxo_engine::Cell {
        self.0
            .choose(pos, &mut MoveBudget::new(Limit::Work(self.1)))
    }
}

fn play_out(mut pos: Position, seats: &mut [&mut dyn Engine; 2]) -> (Outcome, u32) {
    let start = pos.move_count();
    while !pos.outcome().is_over() {
        let side = pos.to_move().index();
        let cell = seats[side].choose(&pos, &mut Unlimited::new() as &mut dyn Budget);
        pos.play(cell).expect("engines play legal moves");
    }
    (pos.outcome(), pos.move_count() - start)
}

#[test]
fn negamax_as_o_beats_random_every_time() {
    // The first player wins 4x4 with K=3: Negamax as O must win every game.
    let rules = Rules::default_rules();
    let mut nega = Negamax::new(rules);
    for game in 0..1_000u64 {
        let mut random = RandomPlayer::new(game);
        let (result, _) = play_out(Position::new(rules), &mut [&mut nega, &mut random]);
        assert_eq!(result, Outcome::Win(Player::O), "game {game}");
    }
}

#[test]
fn negamax_as_x_never_loses_a_game_it_could_save() {
    // On 4x4 with K=3 X is lost from the start, and a random O stumbles on
    // the win in about 1% of games (a double threat on its second move), so
    // no X player avoids every loss. What must hold: X loses only when the
    // position was already lost at its first move.
    let rules = Rules::default_rules();
    let mut nega = Negamax::new(rules);
    let mut solver = Negamax::new(rules);
    let mut losses = 0;
    for game in 0..1_000u64 {
        let mut random = RandomPlayer::new(10_000 + game);
        let mut pos = Position::new(rules);
        let first = random.choose(&pos, &mut Unlimited::new());
        pos.play(first).unwrap();
        let lost_from_start = matches!(solver.solve(&pos).value, Value::Loss { .. });
        let (result, _) = play_out(pos, &mut [&mut random, &mut nega]);
        if result == Outcome::Win(Player::O) {
            losses += 1;
            assert!(
                lost_from_start,
                "game {game}: X lost a position it could save"
            );
        }
    }
    assert!(losses < 50, "{losses} losses in 1,000 games");
}

#[test]
fn negamax_as_x_never_loses_to_random_where_x_is_not_lost() {
    // 4x4 with K=4 is a draw: a perfect X never loses. First, every one of
    // O's 16 openings: X's answer keeps the draw (the solver says so).
    let rules = Rules::new(4, 4).unwrap();
    let mut nega = Negamax::new(rules);
    let mut solver = Negamax::new(rules);
    for first in 0..16u16 {
        let mut pos = Position::new(rules);
        pos.play(kxo_engine::Cell::new(first)).unwrap();
        let answer = nega.choose(&pos, &mut Unlimited::new());
        pos.play(answer).unwrap();
        assert_eq!(solver.solve(&pos).value, Value::Draw, "opening {first}");
    }
    // Then whole games against a random O, which strays anywhere.
    for game in 0..100u64 {
        let mut random = RandomPlayer::new(20_000 + game);
        let (result, _) = play_out(Position::new(rules), &mut [&mut random, &mut nega]);
        assert_ne!(result, Outcome::Win(Player::O), "game {game}");
    }
}

/// A random position of 4x4 (K=3 or K=4) that is not over.
fn random_position(rng: &mut Xoshiro256PlusPlus, rules: Rules) -> Position {
    loop {
        let mut pos = Position::new(rules);
        let marks = rng.random_range(1..=9);
        while pos.move_count() < marks && !pos.outcome().is_over() {
            let moves: Vec<_> = pos.legal_moves().collect();
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !pos.outcome().is_over() {
            return pos;
        }
    }
}

#[test]
fn negamax_converts_every_won_position_at_the_solved_distance() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let mut won = 0;
    for rules in [Rules::new(4, 3).unwrap(), Rules::new(4, 4).unwrap()] {
        let mut solver = Negamax::new(rules);
        let mut a = Negamax::new(rules);
        let mut b = Negamax::new(rules);
        for i in 0..300 {
            let pos = random_position(&mut rng, rules);
            let Value::Win { plies } = solver.solve(&pos).value else {
                continue;
            };
            won += 1;
            let me = pos.to_move();
            // Against a perfect defender, the win comes exactly as fast as solved.
            let (result, length) = play_out(pos, &mut [&mut a, &mut b]);
            assert_eq!(result, Outcome::Win(me), "{pos:?}");
            assert_eq!(length, plies, "{pos:?}");
            // Against other defenders it still never lets the win slip.
            let mut random = RandomPlayer::new(i);
            let mut mcts = Working(Mcts::new(rules, i), 2_000);
            for defender in [&mut random as &mut dyn Engine, &mut mcts] {
                let seats: [&mut dyn Engine; 2] = match me {
                    Player::O => [&mut a, defender],
                    Player::X => [defender, &mut a],
                };
                let mut seats = seats;
                let (result, _) = play_out(pos, &mut seats);
                assert_eq!(result, Outcome::Win(me), "{pos:?}");
            }
        }
    }
    assert!(won > 100, "only {won} won positions were sampled");
}

#[test]
fn mcts_at_ten_thousand_iterations_never_loses_as_o_to_random() {
    let rules = Rules::default_rules();
    for game in 0..200u64 {
        let mut mcts = Working(Mcts::new(rules, game), 10_000);
        let mut random = RandomPlayer::new(1_000 + game);
        let (result, _) = play_out(Position::new(rules), &mut [&mut mcts, &mut random]);
        assert_ne!(result, Outcome::Win(Player::X), "game {game}");
    }
}

#[test]
fn plain_uct_without_shortcuts_still_beats_random() {
    // The tactical shortcuts of `choose` are off here: the tree search alone
    // must find the wins.
    let rules = Rules::default_rules();
    let mut wins = 0;
    for game in 0..50u64 {
        let mut mcts = Working(Mcts::new(rules, game), 10_000);
        let mut random = RandomPlayer::new(500 + game);
        let mut pos = Position::new(rules);
        while !pos.outcome().is_over() {
            let cell = match pos.to_move() {
                Player::O => mcts.0.search_iterations(&pos, 10_000),
                Player::X => random.choose(&pos, &mut Unlimited::new()),
            };
            pos.play(cell).unwrap();
        }
        wins += u32::from(pos.outcome() == Outcome::Win(Player::O));
    }
    assert!(wins >= 45, "plain UCT won {wins} of 50");
}
