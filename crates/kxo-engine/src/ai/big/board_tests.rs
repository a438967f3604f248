//! The big board's incremental state against brute force.
use super::*;
use crate::ai::big::shape::{PatternIndex, window_weight};
use crate::game::{Cell, DIRECTIONS, Rule, Rules};

fn board(rules: Rules, moves: &str) -> (Tables, BigBoard, Position) {
    let t = Tables::new(rules);
    let pos = Position::from_moves(rules, &Cell::parse_list(moves, rules.size()).unwrap()).unwrap();
    (Tables::new(rules), BigBoard::from_position(&t, &pos), pos)
}

/// Win cells by brute force: every empty cell that would end the game.
fn slow_wins(pos: &Position, p: Player) -> Bits {
    let rules = pos.rules();
    pos.empty()
        .iter()
        .filter(|&c| {
            let stones = pos.board(p).with(c);
            crate::game::line_through(&stones, rules, c).is_some()
        })
        .collect()
}

/// For every cell, the windows of K cells through it that hold K - 2
/// stones of `p`, none of the other side, and one more empty cell: by
/// brute force over every window of the board.
fn slow_fours(pos: &Position, p: Player) -> Vec<u8> {
    slow_windows(pos, p, 2)
}

/// Every window of K cells on the board, as its cells.
fn all_windows(rules: Rules) -> Vec<Vec<usize>> {
    let (n, k) = (rules.size() as i32, rules.goal() as i32);
    let mut out = Vec::new();
    for (dr, dc) in DIRECTIONS {
        for r in 0..n {
            for c in 0..n {
                let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                if (0..n).contains(&er) && (0..n).contains(&ec) {
                    out.push(
                        (0..k)
                            .map(|i| ((r + dr * i) * n + c + dc * i) as usize)
                            .collect(),
                    );
                }
            }
        }
    }
    out
}

/// Whether a stone of `p` lies just beyond either end of `window` (its
/// cells in order), which under the standard rule closes it for `p`.
fn flanked(pos: &Position, window: &[usize], p: Player) -> bool {
    let n = pos.rules().size() as i32;
    let at = |x: usize| (x as i32 / n, x as i32 % n);
    let ((r0, c0), (r1, c1)) = (at(window[0]), at(window[1]));
    let (dr, dc) = (r1 - r0, c1 - c0);
    let (rl, cl) = at(window[window.len() - 1]);
    [(r0 - dr, c0 - dc), (rl + dr, cl + dc)]
        .into_iter()
        .filter(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
        .any(|(r, c)| pos.board(p).contains((r * n + c) as usize))
}

/// For every cell, the windows through it with K - `short` stones of
/// `p`, none of the other side (the rest empty), and under the standard
/// rule none of `p` beside it.
fn slow_windows(pos: &Position, p: Player, short: usize) -> Vec<u8> {
    let k = pos.rules().goal() as usize;
    let exact = pos.rules().exact();
    let mut count = vec![0; pos.rules().cells() as usize];
    for window in all_windows(pos.rules()) {
        let of = |q: Player| window.iter().filter(|&&x| pos.board(q).contains(x)).count();
        if of(p) + short == k && of(p.other()) == 0 && !(exact && flanked(pos, &window, p)) {
            for &x in window.iter().filter(|&&x| !pos.board(p).contains(x)) {
                count[x] += 1;
            }
        }
    }
    count
}

/// The line count by brute force over every window of the board.
fn slow_score(pos: &Position) -> i32 {
    all_windows(pos.rules())
        .iter()
        .map(|window| {
            let count =
                |p: Player| window.iter().filter(|&&x| pos.board(p).contains(x)).count() as u32;
            match (count(Player::O), count(Player::X)) {
                (o, 0) => window_weight(o),
                (0, x) => -window_weight(x),
                _ => 0,
            }
        })
        .sum()
}

/// The stones of `p` in `window` (its cells in order) as bits.
fn window_bits(pos: &Position, window: &[usize], p: Player) -> u32 {
    (0..window.len())
        .filter(|&i| pos.board(p).contains(window[i]))
        .fold(0, |acc, i| acc | 1 << i)
}

#[test]
fn any_window_values_are_kept_up_to_date_and_windows_read_in_order() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
    for (size, goal) in [(15, 5), (11, 4), (20, 6)] {
        let rules = Rules::new(size, goal).unwrap();
        let count = 3usize.pow(goal as u32);
        let values = [0, 1].map(|_| {
            let mut v: Vec<i32> = (0..count).map(|_| rng.random_range(-999..1000)).collect();
            v[0] = 0;
            v
        });
        let t = Tables::with_window_values(rules, values.clone());
        let patterns = PatternIndex::new(goal);
        let mut pos = Position::new(rules);
        let mut b = BigBoard::empty();
        for _ in 0..40 {
            let empty: Vec<usize> = pos.empty().iter().collect();
            let c = empty[rng.random_range(0..empty.len())];
            // The windows through a cell, read before it is played.
            let mut through = Vec::new();
            b.for_each_window_through(&t, c, |o, x, bit| through.push((o, x, bit)));
            let mut want = Vec::new();
            for w in all_windows(rules).iter().filter(|w| w.contains(&c)) {
                let bit = 1 << w.iter().position(|&x| x == c).unwrap();
                want.push((
                    window_bits(&pos, w, Player::O),
                    window_bits(&pos, w, Player::X),
                    bit,
                ));
            }
            through.sort_unstable();
            want.sort_unstable();
            assert_eq!(through, want);
            pos.play(Cell::from_index(c)).unwrap();
            b.play(&t, c);
            if pos.outcome().is_over() {
                break;
            }
            let slow = values.clone().map(|side| -> i32 {
                all_windows(rules)
                    .iter()
                    .map(|w| {
                        side[patterns.of(
                            window_bits(&pos, w, Player::O),
                            window_bits(&pos, w, Player::X),
                        )]
                    })
                    .sum()
            });
            assert_eq!(b.score, slow);
            // Worth to the side to move: less what it is worth to the
            // side that just moved.
            assert_eq!(b.eval(), -slow[pos.to_move().other().index()]);
            let mut seen = Vec::new();
            b.for_each_board_window(&t, |o, x| seen.push((o, x)));
            let mut want: Vec<(u32, u32)> = all_windows(rules)
                .iter()
                .map(|w| {
                    (
                        window_bits(&pos, w, Player::O),
                        window_bits(&pos, w, Player::X),
                    )
                })
                .filter(|&(o, x)| o | x != 0)
                .collect();
            seen.sort_unstable();
            want.sort_unstable();
            assert_eq!(seen, want);
        }
    }
}

#[test]
fn incremental_state_matches_brute_force_in_random_games() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
    let standard = |size, goal| Rules::new(size, goal).unwrap().with_rule(Rule::Standard);
    let free = |size, goal| Rules::new(size, goal).unwrap();
    // Small boards under the standard rule fill up with overlines.
    for rules in [
        free(9, 3),
        free(15, 5),
        free(20, 5),
        free(20, 6),
        free(12, 4),
        standard(15, 5),
        standard(7, 5),
        standard(9, 4),
        standard(10, 3),
        standard(20, 6),
    ] {
        let goal = rules.goal();
        let t = Tables::new(rules);
        // Win cells of free-style that the standard rule refuses.
        let mut overlines = 0;
        for _ in 0..20 {
            let mut pos = Position::new(rules);
            let mut b = BigBoard::empty();
            // The same game played as the search by fours plays it.
            let mut for_fours = BigBoard::empty();
            while !pos.outcome().is_over() {
                let empty: Vec<usize> = pos.empty().iter().collect();
                let c = empty[rng.random_range(0..empty.len())];
                let want_win = b.wins(pos.to_move()).contains(c);
                pos.play(Cell::from_index(c)).unwrap();
                b.play(&t, c);
                for_fours.play_for_fours(&t, c);
                assert_eq!(b.outcome(), pos.outcome());
                assert_eq!(for_fours.to_move(), b.to_move());
                for p in [Player::O, Player::X] {
                    assert_eq!(for_fours.stones(p), b.stones(p));
                    assert_eq!(for_fours.wins(p), b.wins(p), "{pos:?}");
                    assert_eq!(for_fours.four_cells(p), b.four_cells(p), "{pos:?}");
                    assert_eq!(for_fours.fours[p.index()], b.fours[p.index()]);
                }
                assert_eq!(
                    want_win,
                    pos.outcome().is_over() && pos.outcome() != Outcome::Draw
                );
                for p in [Player::O, Player::X] {
                    if !pos.outcome().is_over() {
                        assert_eq!(b.wins(p), slow_wins(&pos, p), "{pos:?}");
                        let free = Position::from_moves(rules.with_rule(Rule::Freestyle), &[]);
                        if let (true, Ok(free)) = (rules.exact(), free) {
                            let stones = pos.board(p);
                            overlines += pos
                                .empty()
                                .iter()
                                .filter(|&c| {
                                    let with = stones.with(c);
                                    crate::game::line_through(&with, free.rules(), c).is_some()
                                        && !b.wins(p).contains(c)
                                })
                                .count();
                        }
                    }
                }
                let line_count = slow_score(&pos);
                assert_eq!(b.score, [line_count, -line_count]);
                let for_o = match pos.to_move() {
                    Player::O => b.eval(),
                    Player::X => -b.eval(),
                };
                assert_eq!(for_o, line_count);
                for p in [Player::O, Player::X] {
                    let slow = slow_fours(&pos, p);
                    let slow3 = slow_windows(&pos, p, 3);
                    for c in pos.empty().iter() {
                        assert_eq!(b.fours_at(p, c), slow[c], "{pos:?} {c}");
                        assert_eq!(b.four_cells(p).contains(c), slow[c] > 0);
                        let want = if goal >= 4 { slow3[c] } else { 0 };
                        assert_eq!(b.threes_at(p, c), want, "{pos:?} {c}");
                        assert_eq!(b.three_cells(p).contains(c), want > 0);
                    }
                }
                let near = b.near();
                for cell in near.iter() {
                    assert!(pos.at(Cell::from_index(cell)).is_none());
                }
            }
        }
        assert!(
            !rules.exact() || overlines > 50,
            "{rules:?}: only {overlines} overlines met"
        );
    }
}

/// Whether a stone of `p` on `cell` leaves two win cells or more, by
/// brute force.
fn slow_double(pos: &Position, p: Player, cell: usize) -> bool {
    let rules = pos.rules();
    let after = pos.board(p).with(cell);
    let wins = pos
        .empty()
        .iter()
        .filter(|&w| w != cell)
        .filter(|&w| crate::game::line_through(&after.with(w), rules, w).is_some())
        .count();
    wins >= 2
}

#[test]
fn double_fours_are_the_moves_that_leave_two_win_cells() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        double_fours_under(Rules::new(15, 5).unwrap().with_rule(rule));
    }
}

/// A position of 6 to 29 random stones near the centre of 15x15, so that
/// shapes form; `None` if one side made a line on the way.
fn crowded_centre(rng: &mut impl rand::Rng, rules: Rules) -> Option<Position> {
    use rand::RngExt;
    let mut pos = Position::new(rules);
    let stones = rng.random_range(6..30);
    while pos.move_count() < stones && !pos.outcome().is_over() {
        let c = Cell::from_row_col(rng.random_range(4..11), rng.random_range(4..11), 15);
        let _ = pos.play(c);
    }
    (!pos.outcome().is_over()).then_some(pos)
}

fn double_fours_under(rules: Rules) {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
    let t = Tables::new(rules);
    let (mut seen, mut doubles) = (0, 0);
    while seen < 300 {
        let Some(pos) = crowded_centre(&mut rng, rules) else {
            continue;
        };
        let b = BigBoard::from_position(&t, &pos);
        for p in [Player::O, Player::X] {
            if !b.wins(p).is_empty() {
                continue;
            }
            seen += 1;
            // A double four needs a four: every candidate is a four cell.
            let want = pos.empty().iter().any(|c| slow_double(&pos, p, c));
            let got = b.double_four(&t, p);
            assert_eq!(got.is_some(), want, "{pos:?} {p:?}");
            if let Some(c) = got {
                assert!(slow_double(&pos, p, c));
                doubles += 1;
            }
        }
    }
    assert!(doubles > 20, "only {doubles} double fours in 300 positions");
}

#[test]
fn a_board_rebuilt_from_a_position_is_the_same() {
    let rules = Rules::new(15, 5).unwrap();
    let (t, b, pos) = board(rules, "H8,H9,I8,I9,J8,G7");
    let mut played = BigBoard::empty();
    for m in ["H8", "H9", "I8", "I9", "J8", "G7"] {
        played.play(&t, Cell::parse(m, 15).unwrap().index());
    }
    assert_eq!(b.stones, played.stones);
    assert_eq!(b.lines, played.lines);
    assert_eq!(b.wins, played.wins);
    assert_eq!(b.score, played.score);
    assert_eq!(b.near, played.near);
    assert_eq!(b.to_move(), pos.to_move());
    // O holds H8, I8, J8: G8 and K8 make four, no win cell yet.
    assert!(b.wins(Player::O).is_empty());
}

#[test]
fn the_quick_test_never_turns_away_a_move_that_makes_a_double_four() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        quick_double_four_test_under(Rules::new(15, 5).unwrap().with_rule(rule));
    }
}

/// Over random positions: every empty cell after which a side that had
/// no double four has one passes `may_make_double_four`, and the test
/// turns most other cells away (else it would save nothing).
fn quick_double_four_test_under(rules: Rules) {
    use rand::SeedableRng;
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
    let t = Tables::new(rules);
    let (mut makers, mut passed, mut others) = (0, 0, 0);
    while makers < 200 {
        let Some(pos) = crowded_centre(&mut rng, rules) else {
            continue;
        };
        let b = BigBoard::from_position(&t, &pos);
        let p = b.to_move();
        if !b.wins(p).is_empty() || !b.wins(p.other()).is_empty() || b.double_four(&t, p).is_some()
        {
            continue;
        }
        for c in b.empty_cells(&t).iter() {
            let mut next = b;
            next.play(&t, c);
            let quick = b.may_make_double_four(&t, p, c);
            if next.wins(p).is_empty() && next.double_four(&t, p).is_some() {
                makers += 1;
                assert!(quick, "{pos:?}: {c} makes a double four");
            } else {
                others += 1;
                passed += usize::from(quick);
            }
        }
    }
    assert!(
        passed * 10 < others,
        "{passed} of {others} other cells passed"
    );
}

#[test]
fn the_key_after_a_move_is_the_key_once_it_is_played() {
    let rules = Rules::new(15, 5).unwrap();
    let (t, b, _) = board(rules, "H8,H9,I8,I9,J8,G7");
    for cell in b.empty_cells(&t).iter() {
        let mut next = b;
        next.play(&t, cell);
        assert_eq!(b.key_after(&t, cell), next.key(), "{cell}");
        assert_ne!(next.key(), b.key());
    }
}

/// The rule the searches take a double four by
/// ([`BigBoard::winning_double_four`]: a win in 3 when neither side has a
/// win cell, whatever fours the other side can make), checked in random
/// positions against every reply; and it is offered only then.
#[test]
fn every_winning_double_four_wins_against_every_reply() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        winning_double_fours_win_under(Rules::new(15, 5).unwrap().with_rule(rule));
    }
}

fn winning_double_fours_win_under(rules: Rules) {
    use rand::SeedableRng;
    let t = Tables::new(rules);
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(47);
    let (mut checked, mut against_fours) = (0, 0);
    for _ in 0..20_000 {
        let Some(pos) = crowded_centre(&mut rng, rules) else {
            continue;
        };
        let b = BigBoard::from_position(&t, &pos);
        let (me, opp) = (b.to_move(), b.to_move().other());
        let Some(cell) = b.winning_double_four(&t) else {
            continue;
        };
        assert!(b.wins(me).is_empty() && b.wins(opp).is_empty(), "{pos:?}");
        checked += 1;
        against_fours += usize::from(!b.four_cells(opp).is_empty());
        let mut next = b;
        next.play(&t, cell);
        for reply in next.empty_cells(&t).iter() {
            let mut after = next;
            after.play(&t, reply);
            assert!(
                !after.outcome().is_over() && !after.wins(me).is_empty(),
                "{pos:?}: {cell} then {reply}"
            );
        }
    }
    assert!(
        checked >= 50 && against_fours >= 20,
        "{checked} / {against_fours}"
    );
}
