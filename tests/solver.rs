//! The solver against an independent slow one (plain negamax with a memo,
//! written here from the rules alone), and its perfect play in games.

use std::collections::HashMap;

use kxo_engine::Value;
use kxo_engine::solver::Solver;
use kxo_engine::{Cell, Outcome, Position, Rules};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Exact score for the side to move: `100 - d` for a win `d` plies away,
/// `-(100 - d)` for a loss, 0 for a draw.
fn slow(pos: &Position, memo: &mut HashMap<u128, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.table()) {
        return v;
    }
    let mut best = i32::MIN;
    for m in pos.legal_moves() {
        let mut next = *pos;
        next.play(m).expect("a legal move");
        best = best.max(after_move(&next, memo));
    }
    memo.insert(pos.table(), best);
    best
}

/// The exact score, for the side that just moved, of the position reached
/// by a move (one ply further from its own start).
fn after_move(next: &Position, memo: &mut HashMap<u128, i32>) -> i32 {
    match next.outcome() {
        Outcome::Win(_) => 99,
        Outcome::Draw => 0,
        Outcome::Ongoing => {
            let s = -slow(next, memo);
            s - s.signum()
        }
    }
}

fn score(v: Value) -> i32 {
    match v {
        Value::Win { plies } => 100 - plies as i32,
        Value::Loss { plies } => -(100 - plies as i32),
        Value::Draw => 0,
        Value::Unknown(s) => panic!("the solver guessed {s}"),
    }
}

/// Checks the solver's value and that its move keeps that value.
fn check(solver: &mut Solver, pos: &Position, memo: &mut HashMap<u128, i32>) {
    let a = solver.solve(pos).expect("no limit set");
    let expected = slow(pos, memo);
    assert_eq!(score(a.value), expected, "{pos:?}");
    let mut next = *pos;
    next.play(a.best).expect("the best move is legal");
    let after = after_move(&next, memo);
    assert_eq!(after, expected, "best move {:?} in {pos:?}", a.best);
}

#[test]
fn every_three_by_three_position_matches_the_slow_solver() {
    fn walk(pos: &Position, solver: &mut Solver, memo: &mut HashMap<u128, i32>, seen: &mut u32) {
        if pos.outcome().is_over() {
            return;
        }
        *seen += 1;
        check(solver, pos, memo);
        for m in pos.legal_moves() {
            let mut next = *pos;
            next.play(m).expect("legal");
            walk(&next, solver, memo, seen);
        }
    }
    let rules = Rules::new(3, 3).unwrap();
    let (mut memo, mut seen) = (HashMap::new(), 0);
    // One solver for all: what its table keeps from one position must not
    // spoil the next.
    walk(
        &Position::new(rules),
        &mut Solver::new(rules),
        &mut memo,
        &mut seen,
    );
    // Every unfinished position along every game (with repeats).
    assert!(seen > 200_000, "{seen}");
}

fn random_position(rules: Rules, marks: u32, rng: &mut Xoshiro256PlusPlus) -> Option<Position> {
    let mut pos = Position::new(rules);
    while pos.move_count() < marks {
        let moves: Vec<Cell> = pos.legal_moves().collect();
        if moves.is_empty() {
            return None;
        }
        pos.play(moves[rng.random_range(0..moves.len())])
            .expect("legal");
    }
    (!pos.outcome().is_over()).then_some(pos)
}

#[test]
fn sampled_four_by_four_and_five_by_five_positions_match_the_slow_solver() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    for (size, goal, marks, samples) in [
        (4, 3, 4..=9, 150),
        (4, 4, 5..=9, 150),
        (5, 4, 12..=16, 60),
        // Five in a row: the pairing strategies cut these searches.
        (5, 5, 13..=17, 60),
    ] {
        let rules = Rules::new(size, goal).unwrap();
        let mut solver = Solver::new(rules);
        let mut memo = HashMap::new();
        let mut checked = 0;
        while checked < samples {
            let n = rng.random_range(marks.clone());
            if let Some(pos) = random_position(rules, n, &mut rng) {
                check(&mut solver, &pos, &mut memo);
                checked += 1;
            }
        }
    }
}

/// (6,6,5) is a draw (published): a pairing strategy for the second
/// player appears a few moves in, and the whole proof takes a few hundred
/// nodes (it ran past 240 s and 898 million nodes without them). With and
/// without pairings the solver gives the same values on sampled positions
/// late enough for the search without them to end.
#[test]
fn pairing_strategies_settle_six_by_six_five_in_a_row_and_change_no_value() {
    let rules = Rules::new(6, 5).unwrap();
    let mut solver = Solver::new(rules);
    let a = solver.solve(&Position::new(rules)).unwrap();
    assert_eq!(a.value, Value::Draw);
    assert!(a.nodes < 100_000, "{} nodes", a.nodes);
    let mut plain = Solver::new(rules);
    plain.set_pairing(false);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut checked = 0;
    while checked < 40 {
        let n = rng.random_range(14..=22);
        if let Some(pos) = random_position(rules, n, &mut rng) {
            let (with, without) = (solver.solve(&pos).unwrap(), plain.solve(&pos).unwrap());
            assert_eq!(with.value, without.value, "{pos:?}");
            // The move it gives keeps the value (judged without pairings).
            let mut next = pos;
            next.play(with.best).unwrap();
            if !next.outcome().is_over() {
                let reply = plain.solve(&next).unwrap();
                // The opponent's result is the mirror of ours.
                assert_eq!(
                    score(reply.value).signum(),
                    -score(with.value).signum(),
                    "{pos:?}"
                );
            }
            checked += 1;
        }
    }
}

/// Plays the solver as `perfect` against a random opponent from `pos`,
/// which the solver says `perfect` wins: it must win, as fast as it said.
fn converts(rules: Rules, moves: &str, rng: &mut Xoshiro256PlusPlus) {
    let cells = Cell::parse_list(moves, rules.size()).unwrap();
    let start = Position::from_moves(rules, &cells).unwrap();
    let mut solver = Solver::with_hash_bytes(rules, 64 << 20);
    let Value::Win { plies } = solver.solve(&start).expect("no limit").value else {
        panic!("{moves} is not won for the side to move");
    };
    let winner = start.to_move();
    let mut pos = start;
    let mut played = 0;
    while !pos.outcome().is_over() {
        let cell = if pos.to_move() == winner {
            solver.solve(&pos).expect("no limit").best
        } else {
            let moves: Vec<Cell> = pos.legal_moves().collect();
            moves[rng.random_range(0..moves.len())]
        };
        pos.play(cell).expect("legal");
        played += 1;
    }
    assert_eq!(pos.outcome(), Outcome::Win(winner), "{pos:?}");
    assert!(played <= plies, "won in {played} plies, solved {plies}");
}

#[test]
fn the_solver_never_lets_a_won_position_go() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    for _ in 0..20 {
        converts(Rules::new(4, 3).unwrap(), "", &mut rng);
    }
    for _ in 0..2 {
        converts(Rules::new(6, 4).unwrap(), "", &mut rng);
    }
}

/// Every line of K cells on an N x N board, as cell indices (written here
/// from the rules, apart from the program's geometry).
fn windows(n: i32, k: i32) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for r in 0..n {
            for c in 0..n {
                let cells: Vec<(i32, i32)> = (0..k).map(|i| (r + dr * i, c + dc * i)).collect();
                if cells
                    .iter()
                    .all(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
                {
                    out.push(cells.iter().map(|&(r, c)| (r * n + c) as usize).collect());
                }
            }
        }
    }
    out
}

/// A proof file read back: its branches' ends by their moves, the moves
/// that follow each prefix, the board's lines and the attacker.
struct Proof {
    branches: HashMap<Vec<Cell>, String>,
    prefixes: HashMap<Vec<Cell>, std::collections::BTreeSet<Cell>>,
    lines: Vec<Vec<usize>>,
    attacker: kxo_engine::Player,
}

/// An independent check of a `solve --proof` file: the side to move at
/// `root` cannot win if every branch of the strategy ends well and every
/// attacker move is answered. Returns why not, if not.
fn check_proof(root: &Position, text: &str) -> Result<usize, String> {
    let rules = root.rules();
    let n = rules.size();
    let lines = windows(n as i32, rules.goal() as i32);
    let attacker = root.to_move();
    let mut branches: HashMap<Vec<Cell>, String> = HashMap::new();
    let mut prefixes: HashMap<Vec<Cell>, std::collections::BTreeSet<Cell>> = HashMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|w| ["over", "dead", "pairs"].contains(w))
            .ok_or(format!("no end in '{line}'"))?;
        let moves: Vec<Cell> = words[..at]
            .iter()
            .map(|w| Cell::parse(w, n).map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?;
        for i in 0..moves.len() {
            prefixes
                .entry(moves[..i].to_vec())
                .or_default()
                .insert(moves[i]);
        }
        branches.insert(moves, words[at..].join(" "));
    }
    fn walk(pos: &Position, path: &mut Vec<Cell>, ctx: &Proof) -> Result<usize, String> {
        let Proof {
            branches,
            prefixes,
            lines,
            attacker,
        } = ctx;
        let attacker = *attacker;
        let defender = attacker.other();
        if let Some(end) = branches.get(path) {
            if prefixes.contains_key(path) {
                return Err(format!("{path:?} ends and goes on"));
            }
            let held = |c: usize, p| pos.at(Cell::new(c as u16)) == Some(p);
            let open: Vec<&Vec<usize>> = lines
                .iter()
                .filter(|l| !l.iter().any(|&c| held(c, defender)))
                .collect();
            let ok = match end.split_whitespace().next() {
                Some("over") => pos.outcome().is_over() && pos.outcome() != Outcome::Win(attacker),
                Some("dead") => open.is_empty(),
                Some("pairs") => {
                    let mut used = std::collections::HashSet::new();
                    let mut pairs = Vec::new();
                    for p in end.split_whitespace().skip(1) {
                        let (a, b) = p.split_once('-').ok_or("a pair without '-'")?;
                        let a = Cell::parse(a, pos.rules().size()).map_err(|e| e.to_string())?;
                        let b = Cell::parse(b, pos.rules().size()).map_err(|e| e.to_string())?;
                        if a == b || !used.insert(a) || !used.insert(b) {
                            return Err(format!("{path:?}: pairs overlap"));
                        }
                        if pos.at(a).is_some() || pos.at(b).is_some() {
                            return Err(format!("{path:?}: a pair on a stone"));
                        }
                        pairs.push((a.index(), b.index()));
                    }
                    !pos.outcome().is_over()
                        && open
                            .iter()
                            .all(|l| pairs.iter().any(|(a, b)| l.contains(a) && l.contains(b)))
                }
                _ => false,
            };
            return if ok {
                Ok(1)
            } else {
                Err(format!("{path:?}: '{end}' does not hold"))
            };
        }
        if pos.outcome().is_over() {
            return Err(format!("{path:?}: the game ended unrecorded"));
        }
        let next = prefixes
            .get(path)
            .ok_or(format!("{path:?}: nothing follows"))?;
        if pos.to_move() == attacker {
            let all: std::collections::BTreeSet<Cell> = pos.legal_moves().collect();
            if *next != all {
                return Err(format!("{path:?}: not every attacker move is answered"));
            }
        } else if next.len() != 1 {
            return Err(format!("{path:?}: the defender has {} answers", next.len()));
        }
        let mut count = 0;
        for &c in next {
            let mut child = *pos;
            child.play(c).map_err(|e| format!("{path:?} {c:?}: {e}"))?;
            path.push(c);
            count += walk(&child, path, ctx)?;
            path.pop();
        }
        Ok(count)
    }
    let proof = Proof {
        branches,
        prefixes,
        lines,
        attacker,
    };
    walk(root, &mut Vec::new(), &proof)
}

/// `solve --proof` for (5,5,5) and for (6,6,5) after D4 A6: the
/// independent checker above accepts the proofs the program writes and
/// refuses corrupted ones. The (6,6,5) one is a proof of some size (836
/// branches; 1,436 before the zone proofs chose the defender's moves), so
/// that corrupting it tests the checker.
#[test]
fn the_proofs_of_draws_check_out_and_corrupted_ones_do_not() {
    use kxo_engine::solver as proof;
    for (size, goal, moves, min_branches) in [(5, 5, "", 1), (6, 5, "D4,A6", 500)] {
        let rules = Rules::new(size, goal).unwrap();
        let root = Position::from_moves(rules, &Cell::parse_list(moves, size).unwrap()).unwrap();
        let mut solver = Solver::new(rules);
        let branches = proof::cannot_win(&mut solver, &root).unwrap();
        let text = proof::to_text(&root, &branches, "test");
        let checked = check_proof(&root, &text).unwrap();
        assert_eq!(checked, branches.len());
        assert!(checked >= min_branches, "{checked}");
        if size == 6 {
            let body: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
            // A branch left out: an attacker move goes unanswered.
            let missing = body[1..].join("\n");
            assert!(check_proof(&root, &missing).is_err());
            // A pairing with a pair moved onto a stone, or split.
            let line = body[0];
            let stone = line.split_whitespace().next().unwrap();
            let (head, pairs) = line.split_once(" pairs ").unwrap();
            let first_pair = pairs.split_whitespace().next().unwrap();
            let onto_stone = format!(
                "{head} pairs {stone}-{}",
                &pairs[first_pair.find('-').unwrap() + 1..]
            );
            let mut broken = body.clone();
            broken[0] = &onto_stone;
            assert!(check_proof(&root, &broken.join("\n")).is_err());
            let without_a_pair = format!("{head} pairs {}", pairs.split_once(' ').unwrap().1);
            broken[0] = &without_a_pair;
            assert!(check_proof(&root, &broken.join("\n")).is_err());
        }
    }
    // A position the side to move wins has no proof to write.
    let rules = Rules::new(4, 3).unwrap();
    assert!(proof::cannot_win(&mut Solver::new(rules), &Position::new(rules)).is_err());
}

#[test]
fn seven_by_seven_five_in_a_row_is_a_draw() {
    // Published as a draw (Hsu et al., 2020). The weak games' zone proofs
    // settle it in under a second (BENCHMARKS.md has the figures).
    let rules = Rules::new(7, 5).unwrap();
    let mut solver = Solver::with_hash_bytes(rules, 256 << 20);
    let a = solver.solve(&Position::new(rules)).unwrap();
    assert_eq!(a.value, Value::Draw);
    // The move it gives keeps the draw: the other side cannot win after it.
    let mut next = Position::new(rules);
    next.play(a.best).unwrap();
    assert_eq!(solver.solve(&next).unwrap().value, Value::Draw);
}
