//! Go's engines by playing: MCTS with RAVE beats the random player every
//! time, even on a small budget, with light or heavy playouts; it passes
//! only when passing wins; it never plays a move positional superko
//! forbids.

use kxo_engine::go::{GoMcts, GoPosition, Playouts};
use kxo_engine::{Cell, GoEngine, GoMove, Limit, MoveBudget, Outcome, Player, RandomPlayer, Rules};

fn nine() -> Rules {
    Rules::go(9, 15, 0).expect("9x9 Go")
}

/// One game, Black `black` against White `white`, each held to its limit
/// a move: how it ended.
fn game(
    rules: Rules,
    black: (&mut dyn GoEngine, Limit),
    white: (&mut dyn GoEngine, Limit),
) -> Outcome {
    let mut pos = GoPosition::new(rules);
    let (b, w) = (black, white);
    while !pos.outcome().is_over() {
        let (engine, limit): (&mut dyn GoEngine, Limit) = match pos.to_move() {
            Player::O => (&mut *b.0, b.1),
            Player::X => (&mut *w.0, w.1),
        };
        let cell = match engine.choose(&pos, &mut MoveBudget::new(limit)) {
            GoMove::Play(cell) => cell,
            GoMove::Pass => Cell::PASS,
            GoMove::Resign => return Outcome::Win(pos.to_move().other()),
        };
        pos.play(cell)
            .unwrap_or_else(|e| panic!("{} played {cell:?}: {e}\n{pos:?}", engine.label()));
        assert!(pos.move_count() < 1000, "a game that never ends:\n{pos:?}");
    }
    pos.outcome()
}

#[test]
fn mcts_beats_the_random_player_every_game_with_either_playouts() {
    for (playouts, games) in [(Playouts::Heavy, 100u64), (Playouts::Light, 20)] {
        for g in 0..games {
            let mut mcts = GoMcts::new(g, playouts);
            let mut random = RandomPlayer::new(1000 + g);
            let budget = Limit::Work(64);
            let (outcome, me) = match g % 2 {
                0 => (
                    game(nine(), (&mut mcts, budget), (&mut random, Limit::Whole)),
                    Player::O,
                ),
                _ => (
                    game(nine(), (&mut random, Limit::Whole), (&mut mcts, budget)),
                    Player::X,
                ),
            };
            assert_eq!(outcome, Outcome::Win(me), "{playouts:?} game {g}");
        }
    }
}

#[test]
fn mcts_passes_only_when_passing_wins() {
    let rules = Rules::go(5, 1, 0).expect("5x5 Go, komi 0.5");
    let cells = |moves: &str| -> Vec<Cell> {
        moves
            .split_whitespace()
            .map(|m| rules.parse_cell(m).expect("a point"))
            .collect()
    };
    // Black owns columns A-C, White D-E; Black played A1, White passed.
    // Black leads by 15 - 10 - 0.5: its pass ends the game and wins.
    let won = cells("C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 A1 pass");
    let pos = GoPosition::from_moves(rules, &won).expect("legal moves");
    let mut mcts = GoMcts::new(1, Playouts::Heavy);
    assert_eq!(
        mcts.choose(&pos, &mut MoveBudget::new(Limit::Work(500))),
        GoMove::Pass
    );
    // The same, but a dead White stone sits in Black's area (B3) and
    // White passed: counted as it stands, the stone keeps Black's area
    // from Black (the empty points touch both colours) and White wins;
    // Black plays on to take it instead of passing.
    let dead = cells("C1 D1 C2 D2 C3 D3 C4 D4 C5 D5 A1 B3 A5 pass");
    let pos = GoPosition::from_moves(rules, &dead).expect("legal moves");
    let answer = mcts.choose(&pos, &mut MoveBudget::new(Limit::Work(2000)));
    assert_ne!(answer, GoMove::Pass, "{pos:?}");
}

#[test]
fn the_random_player_fills_no_eye_of_its_own_and_ends_its_games() {
    for g in 0..20u64 {
        let mut a = RandomPlayer::new(g);
        let mut b = RandomPlayer::new(g + 7);
        let outcome = game(nine(), (&mut a, Limit::Whole), (&mut b, Limit::Whole));
        assert!(outcome.is_over());
    }
}
