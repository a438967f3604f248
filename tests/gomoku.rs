//! Boards above 8x8: the rules at every edge, random play against a slow
//! reference, and the big-board engines on constructed Gomoku positions.
//! Random is left out of the tactical tests (it does not look at the
//! board); the learning player refuses these boards (tested in `cli.rs`).

use kxo_engine::{BuiltIn, MoveBudget, make_engine};
use kxo_engine::{Cell, Outcome, Player, Position, Rule, Rules};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Every line of K cells on an N x N board, as cell indices.
fn all_lines(n: i32, k: i32) -> Vec<Vec<u16>> {
    let mut lines = Vec::new();
    for (dr, dc) in DIRECTIONS {
        for r in 0..n {
            for c in 0..n {
                let cells: Vec<(i32, i32)> = (0..k).map(|i| (r + dr * i, c + dc * i)).collect();
                if cells
                    .iter()
                    .all(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
                {
                    lines.push(cells.iter().map(|&(r, c)| (r * n + c) as u16).collect());
                }
            }
        }
    }
    lines
}

#[test]
fn every_line_wins_at_every_edge_and_nothing_wraps() {
    for (n, k) in [(15u8, 5u8), (20, 5), (20, 6), (9, 3), (16, 4)] {
        let rules = Rules::new(n, k).unwrap();
        let lines = all_lines(n as i32, k as i32);
        // 4 directions: rows and columns of n - k + 1 starts, diagonals both ways.
        let along = (n - k + 1) as usize;
        assert_eq!(lines.len(), 2 * along * n as usize + 2 * along * along);
        for line in &lines {
            // X answers far from the line, on cells that never make K in a row
            // (at most K - 1 of them are played).
            let mut xs = (0..rules.cells()).filter(|c| !line.contains(c)).step_by(3);
            let mut pos = Position::new(rules);
            for (i, &cell) in line.iter().enumerate() {
                assert_eq!(pos.outcome(), Outcome::Ongoing, "{n}x{n} {line:?}");
                pos.play(Cell::new(cell)).unwrap();
                if i + 1 < line.len() {
                    let x = xs.next().unwrap();
                    pos.play(Cell::new(x)).unwrap();
                }
            }
            assert_eq!(pos.outcome(), Outcome::Win(Player::O), "{n}x{n} {line:?}");
            let won: Vec<usize> = pos.winning_line().unwrap().iter().collect();
            let want: Vec<usize> = {
                let mut l: Vec<usize> = line.iter().map(|&c| c as usize).collect();
                l.sort();
                l
            };
            assert_eq!(won, want);
        }
        // K consecutive indices that run off the end of a row into the next
        // are not a line.
        let n16 = n as u16;
        for row in 0..n16 - 1 {
            let start = row * n16 + n16 - 2;
            let mut pos = Position::new(rules);
            // X plays every other cell of a row far away: never K in a row.
            let far = (row + n16 / 2) % n16;
            for i in 0..k as u16 {
                pos.play(Cell::new(start + i)).unwrap();
                assert_eq!(pos.outcome(), Outcome::Ongoing, "{n}x{n} row {row}");
                pos.play(Cell::new(far * n16 + 2 * i)).unwrap();
            }
        }
    }
}

/// The slow reference: a grid of cells and a scan of the whole board for K
/// in a row after every move.
fn reference_game(n: usize, k: usize, choices: &mut impl FnMut(usize) -> usize) -> Outcome {
    let mut grid = vec![None; n * n];
    let mut player = Player::O;
    for _ in 0..n * n {
        let empty: Vec<usize> = (0..n * n).filter(|&i| grid[i].is_none()).collect();
        grid[empty[choices(empty.len())]] = Some(player);
        let won = (0..n * n).any(|start| {
            DIRECTIONS.iter().any(|&(dr, dc)| {
                (0..k as i32).all(|i| {
                    let (r, c) = (
                        start as i32 / n as i32 + dr * i,
                        start as i32 % n as i32 + dc * i,
                    );
                    (0..n as i32).contains(&r)
                        && (0..n as i32).contains(&c)
                        && grid[(r * n as i32 + c) as usize] == Some(player)
                })
            })
        });
        if won {
            return Outcome::Win(player);
        }
        player = player.other();
    }
    Outcome::Draw
}

#[test]
fn uniform_random_games_end_as_the_slow_reference_says() {
    for (n, k, games) in [(15u8, 5u8, 150u64), (20, 5, 60), (10, 4, 200)] {
        let rules = Rules::new(n, k).unwrap();
        let mut counts = [[0u32; 3]; 2];
        for game in 0..games {
            // The same random choices drive both: the k-th empty cell in
            // index order, each move.
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(game);
            let mut picks = Vec::new();
            let mut choose = |m: usize| {
                let k = rng.random_range(0..m);
                picks.push(k);
                k
            };
            let slow = reference_game(n as usize, k as usize, &mut choose);
            let mut pos = Position::new(rules);
            for &pick in &picks {
                let cell = pos.legal_moves().nth(pick).unwrap();
                pos.play(cell).unwrap();
            }
            assert_eq!(pos.outcome(), slow, "{n}x{n} K={k} game {game}");
            assert_eq!(pos.move_count() as usize, picks.len());
            for (which, outcome) in [slow, pos.outcome()].into_iter().enumerate() {
                counts[which][match outcome {
                    Outcome::Win(p) => p.index(),
                    _ => 2,
                }] += 1;
            }
        }
        assert_eq!(counts[0], counts[1]);
        // Random play on these boards ends with a line nearly always.
        assert!(counts[0][2] < games as u32 / 10, "{counts:?}");
    }
}

/// A position from O's and X's stones (O moves first, so O has as many
/// stones as X or one more); `to_move` follows from the counts.
fn position(rules: Rules, o: &[&str], x: &[&str]) -> Position {
    let n = rules.size();
    let cell = |name: &&str| Cell::parse(name, n).unwrap();
    let mut pos = Position::new(rules);
    for i in 0..o.len().max(x.len()) {
        if let Some(c) = o.get(i) {
            pos.play(cell(c)).unwrap();
        }
        if let Some(c) = x.get(i) {
            pos.play(cell(c)).unwrap();
        }
    }
    assert_eq!(pos.outcome(), Outcome::Ongoing);
    pos
}

fn engines(rules: Rules) -> Vec<(BuiltIn, Box<dyn kxo_engine::Engine>)> {
    [BuiltIn::Mcts, BuiltIn::Negamax]
        .into_iter()
        .map(|kind| {
            let engine = make_engine(kind, rules, 7);
            (kind, engine)
        })
        .collect()
}

/// The engine's move in `pos` at 150 ms.
fn answer(engine: &mut dyn kxo_engine::Engine, pos: &Position) -> String {
    answer_in(engine, pos, 150)
}

fn answer_in(engine: &mut dyn kxo_engine::Engine, pos: &Position, ms: u64) -> String {
    engine
        .choose(pos, &mut MoveBudget::millis(ms))
        .name(pos.rules().size())
}

#[test]
fn every_engine_blocks_a_four_on_15x15() {
    let rules = Rules::new(15, 5).unwrap();
    // X to move; O's four has one open end (the other is X's or the edge),
    // in each direction, one of them a broken four.
    let cases: [(&[&str], &[&str], &[&str]); 5] = [
        (
            &["D8", "E8", "F8", "G8", "K2"],
            &["C8", "B2", "N14", "A15"],
            &["H8"],
        ),
        (
            &["H1", "H2", "H3", "H4", "B14"],
            &["A1", "C3", "O15", "N2"],
            &["H5"],
        ),
        (
            &["B2", "C3", "D4", "E5", "M2"],
            &["A1", "N13", "O1", "L3"],
            &["F6"],
        ),
        (
            &["O1", "N2", "M3", "L4", "A8"],
            &["B12", "C14", "G1", "A2"],
            &["K5"],
        ),
        // Broken: A15 B15 _ D15 E15.
        (
            &["A15", "B15", "D15", "E15", "H3"],
            &["K9", "L11", "M6", "N1"],
            &["C15"],
        ),
    ];
    for (o, x, block) in cases {
        let pos = position(rules, o, x);
        assert_eq!(pos.to_move(), Player::X);
        for (kind, mut engine) in engines(rules) {
            assert_eq!(
                answer(engine.as_mut(), &pos),
                block[0],
                "{kind} must block: {pos:?}"
            );
        }
    }
}

#[test]
fn every_engine_plays_an_end_of_an_open_four_and_completes_its_own_four() {
    let rules = Rules::new(15, 5).unwrap();
    // An open four (both ends empty): no block saves X, but an engine must
    // still take one end rather than look away.
    let pos = position(rules, &["E8", "F8", "G8", "H8"], &["A1", "O15", "A15"]);
    for (kind, mut engine) in engines(rules) {
        let cell = answer(engine.as_mut(), &pos);
        assert!(cell == "D8" || cell == "I8", "{kind} played {cell}");
    }
    // Both sides have a four and X is to move: X completes its own line
    // (D2 or D7) instead of blocking O's.
    let pos = position(
        rules,
        &["E8", "F8", "G8", "H8", "A3"],
        &["D3", "D4", "D5", "D6"],
    );
    assert_eq!(pos.to_move(), Player::X);
    for (kind, mut engine) in engines(rules) {
        let cell = answer(engine.as_mut(), &pos);
        assert!(cell == "D2" || cell == "D7", "{kind} played {cell}");
    }
}

/// Under the standard rule only exactly five wins: O holds B8 and D8-G8,
/// so H8 makes five and C8 six, which is no win and no threat (and the
/// first cell in the board's order). Each engine takes H8 as O and
/// blocks H8 as X; on 7x7 (where the small boards' engines would count
/// the six) the same shape.
#[test]
fn under_the_standard_rule_every_engine_tells_five_from_an_overline() {
    let cases: [(u8, [&str; 5], [&str; 5], &str); 2] = [
        (
            15,
            ["B8", "D8", "E8", "F8", "G8"],
            ["A1", "O15", "A15", "O1", "M12"],
            "H8",
        ),
        (
            7,
            ["A4", "C4", "D4", "E4", "F4"],
            ["A1", "G7", "A7", "G1", "B6"],
            "G4",
        ),
    ];
    for (size, o, x, five) in cases {
        let rules = Rules::new(size, 5).unwrap().with_rule(Rule::Standard);
        // X to move: block the five, not the six.
        let pos = position(rules, &o, &x[..4]);
        assert_eq!(pos.to_move(), Player::X);
        for (kind, mut engine) in engines(rules) {
            assert_eq!(
                answer(engine.as_mut(), &pos),
                five,
                "{kind} as X, {size}x{size}"
            );
        }
        // O to move: make the five.
        let pos = position(rules, &o, &x);
        for (kind, mut engine) in engines(rules) {
            let cell = answer(engine.as_mut(), &pos);
            assert_eq!(cell, five, "{kind} as O, {size}x{size}");
            let mut after = pos;
            after.play(Cell::parse(&cell, size).unwrap()).unwrap();
            assert_eq!(after.outcome(), Outcome::Win(Player::O));
        }
    }
}

/// Every board up to 8x8 where an overline fits, under the standard
/// rule: the one-word tables would count the overline, so these games go
/// to the big boards' engines. Each engine plays a whole game against
/// itself there, and the game ends as the referee says.
#[test]
fn under_the_standard_rule_every_engine_plays_every_small_board_where_an_overline_fits() {
    // Every built-in engine, from the kinds enum: a new one joins.
    let built_in: Vec<BuiltIn> = kxo_engine::EngineKind::ALL
        .into_iter()
        .filter_map(|k| k.built_in())
        .collect();
    for size in 4..=8u8 {
        for goal in 3..size.min(8) {
            let rules = Rules::new(size, goal).unwrap().with_rule(Rule::Standard);
            assert!(!rules.is_small(), "{rules:?}");
            for &kind in &built_in {
                let mut engine = make_engine(kind, rules, 3);
                let mut pos = Position::new(rules);
                while !pos.outcome().is_over() {
                    let cell = engine.choose(&pos, &mut MoveBudget::millis(2));
                    pos.play(cell)
                        .unwrap_or_else(|e| panic!("{kind} {rules:?}: {e}"));
                }
                if let Outcome::Win(_) = pos.outcome() {
                    let line = pos.winning_line().expect("a line");
                    assert_eq!(line.count(), goal as u32, "{rules:?}");
                }
            }
        }
    }
}

#[test]
fn negamax_stops_an_open_three_before_it_becomes_an_open_four() {
    // O has F8 G8 H8 with both sides open and X to move: X must play next
    // to the three (E8 or I8; D8 and J8 also stop a straight four), or lose
    // to the open four that follows.
    let rules = Rules::new(15, 5).unwrap();
    let pos = position(rules, &["F8", "G8", "H8"], &["B2", "N14"]);
    let mut nega = make_engine(BuiltIn::Negamax, rules, 1);
    let cell = answer_in(nega.as_mut(), &pos, 300);
    assert!(["D8", "E8", "I8", "J8"].contains(&cell.as_str()), "{cell}");
}

/// Positions with a victory by continuous fours of at least 9 plies for
/// O (found in random games near the centre): both big-board engines, on
/// a one-millisecond clock, play into it and win against Negamax with
/// twenty: the fours are forced, so they win every time. Without the VCF
/// search they do not, within that clock.
#[test]
fn both_engines_find_and_convert_a_victory_by_continuous_fours() {
    use kxo_engine::gomoku::ThreatSearch;
    let rules = Rules::new(15, 5).unwrap();
    let t = ThreatSearch::new(rules);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(21);
    let mut found = 0;
    while found < 6 {
        let mut pos = Position::new(rules);
        let stones = rng.random_range(10..24) & !1; // O to move
        while pos.move_count() < stones {
            let c = Cell::from_row_col(rng.random_range(4..11), rng.random_range(4..11), 15);
            let _ = pos.play(c);
        }
        if pos.outcome().is_over() {
            continue;
        }
        let mut budget = 100_000;
        match t.find_vcf(&pos, 31, &mut budget) {
            Some(line) if line.len() >= 9 && t.wins_in_one(&pos, Player::X).is_empty() => {}
            _ => continue,
        }
        found += 1;
        for kind in [BuiltIn::Negamax, BuiltIn::Mcts] {
            let mut engine = make_engine(kind, rules, 1);
            let mut defender = make_engine(BuiltIn::Negamax, rules, 2);
            let mut game = pos;
            while !game.outcome().is_over() && game.move_count() < pos.move_count() + 40 {
                let cell = if game.to_move() == Player::O {
                    engine.choose(&game, &mut MoveBudget::millis(1))
                } else {
                    defender.choose(&game, &mut MoveBudget::millis(20))
                };
                game.play(cell).unwrap();
            }
            assert_eq!(
                game.outcome(),
                Outcome::Win(Player::O),
                "{kind:?} from {pos:?}"
            );
        }
    }
}
