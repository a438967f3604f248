//! Negamax on big boards: what the threat suite proves, how deep the
//! table and the reductions reach, the leaf score, the memory limit.
use super::*;
use crate::ai::big::yardstick::Ticks;
use crate::ai::{MoveBudget, Unlimited};

/// Asserts that the search `with` a feature proves at least 8 more of
/// the suite's wins than `without` it, at the same nodes.
fn assert_proves_more(
    what: &str,
    with: impl Fn(BigNegamax) -> BigNegamax,
    without: impl Fn(BigNegamax) -> BigNegamax,
) {
    let (with, without) = (suite_depths(with).1, suite_depths(without).1);
    eprintln!("{what}: {with} with, {without} without");
    assert!(
        with >= without + 8,
        "{what}: {with} with, {without} without"
    );
}

#[test]
fn answering_a_three_at_no_cost_in_plies_proves_more_wins() {
    // The same nodes on any machine: the extension reads the threat
    // lines deeper than counting every ply does (23 wins against 10
    // when it was made, BENCHMARKS.md run AH; 46 against 33 with the
    // leaves' VCF and the reductions, run AI).
    assert_proves_more(
        "extension",
        |e| e.with_defence_extension(DEFENCE_EXTENSION),
        |e| e.with_defence_extension(0),
    );
}

#[test]
fn a_win_by_fours_at_the_leaves_proves_more_wins() {
    // At the same alpha-beta nodes (the fours tried are not counted),
    // the wins by fours at the leaves are proofs the search would not
    // reach: the feature works. What it is worth in time is measured
    // by the suite in a second, BENCHMARKS.md run AI.
    assert_proves_more(
        "leaf vcf",
        |e| e.with_leaf_vcf(LEAF_VCF_TRIES),
        |e| e.with_leaf_vcf(0),
    );
}

#[test]
fn a_forced_block_is_searched_through_to_the_win_behind_it() {
    // In 14 of the suite's 115 positions the side to move must block a
    // four; the win comes after. Playing the block unread (as the
    // engine did) proves none of them.
    let rules = crate::ai::big::suite::SuitePosition::rules();
    let t = Tables::new(rules);
    let (mut forced, mut proved) = (0, 0);
    for p in crate::ai::big::suite::positions() {
        let pos = p.position().expect("legal moves");
        let b = BigBoard::from_position(&t, &pos);
        if b.wins(b.to_move().other()).count() != 1 {
            continue;
        }
        forced += 1;
        let mut engine = BigNegamax::new(rules);
        let analysis = engine.analyse(&pos, &mut Ticks::new(800));
        assert_eq!(
            analysis.best,
            Cell::from_index(b.wins(b.to_move().other()).first().unwrap_or(0))
        );
        assert!(analysis.depth > 0, "{:?} not searched", p.moves);
        proved += usize::from(matches!(analysis.value, Value::Win { .. }));
    }
    eprintln!("forced blocks: {proved} of {forced} proved");
    assert!(forced >= 10, "only {forced} forced blocks in the suite");
    assert!(proved + 2 >= forced, "{proved} of {forced} proved");
}

#[test]
fn the_threat_search_before_thinking_reads_past_17_plies() {
    // The suite's threat wins of 19 plies and more, each given the
    // threat nodes of a second and no alpha-beta: the search before
    // thinking proves them (19 of 21 when it was made, by nodes, the
    // same on any machine; it stopped at 17 plies before, and proved
    // none).
    let rules = crate::ai::big::suite::SuitePosition::rules();
    let (mut long, mut proved) = (0, 0);
    for p in crate::ai::big::suite::positions() {
        if p.vct_plies.is_none_or(|plies| plies < 19) {
            continue;
        }
        long += 1;
        let mut engine = BigNegamax::new(rules);
        let mut a_second = Ticks::sized(1, Duration::from_secs(1));
        let analysis = engine.analyse(&p.position().expect("legal moves"), &mut a_second);
        proved += usize::from(matches!(analysis.value, Value::Win { plies } if plies >= 19));
    }
    eprintln!("threat wins past 17 plies: {proved} of {long}");
    assert!(proved + 2 >= long, "{proved} of {long}");
}

/// The depth `engine` reaches on each of the threat suite's positions,
/// summed, and the wins it proves; each position held to about
/// 100,000 nodes (its threat searches before the alpha-beta as small
/// as 5 ms allow), the same on any machine.
fn suite_depths(engine: impl Fn(BigNegamax) -> BigNegamax) -> (u32, usize) {
    let rules = crate::ai::big::suite::SuitePosition::rules();
    let mut depths = 0;
    let mut wins = 0;
    for p in crate::ai::big::suite::positions() {
        let pos = p.position().expect("legal moves");
        let mut engine = engine(BigNegamax::new(rules));
        let analysis = engine.analyse(&pos, &mut Ticks::new(800));
        depths += analysis.depth;
        wins += usize::from(matches!(analysis.value, Value::Win { .. }));
    }
    (depths, wins)
}

/// Asserts that the search `with` a feature reaches deeper over the
/// suite than `without` it, at the same nodes, and proves as many.
fn assert_reaches_deeper(
    what: &str,
    with: impl Fn(BigNegamax) -> BigNegamax,
    without: impl Fn(BigNegamax) -> BigNegamax,
) {
    let (with, without) = (suite_depths(with), suite_depths(without));
    eprintln!("{what}: {with:?} with, {without:?} without");
    assert!(
        with.0 > without.0 && with.1 >= without.1,
        "{what}: {with:?} with, {without:?} without"
    );
}

#[test]
fn late_move_reductions_reach_deeper_at_equal_nodes() {
    assert_reaches_deeper(
        "late-move reductions",
        |e| e.with_late_move_reductions(true),
        |e| e.with_late_move_reductions(false),
    );
}

#[test]
fn the_table_of_2_20_entries_reaches_deeper_than_the_old_2_17() {
    // 665 plies and 48 wins against 660 and 46 when it was made
    // (BENCHMARKS.md run AJ); level if the table shrinks back.
    assert_reaches_deeper(
        "a table of 2^20 entries, not 2^17",
        |e| e,
        |mut e| {
            e.set_memory_limit(std::mem::size_of::<Entry>() << 17);
            e
        },
    );
}

#[test]
fn a_quiet_leaf_counts_the_move_in_hand_and_a_won_one_only_its_win() {
    let rules = Rules::new(15, 5).unwrap();
    let mut e = BigNegamax::new(rules);
    let board = |e: &BigNegamax, moves: &str| {
        let cells = crate::game::Cell::parse_list(moves, 15).unwrap();
        BigBoard::from_position(&e.tables, &Position::from_moves(rules, &cells).unwrap())
    };
    let quiet = board(&e, "H8,I9,H9");
    assert_eq!(e.leaf(&quiet, 3), quiet.eval() + TEMPO);
    // O to move with an open three: a four, a block, a five.
    let won = board(&e, "H8,A1,I8,A3,J8,A5");
    assert_eq!(e.leaf(&won, 3), WIN - (3 + 3));
}

#[test]
fn a_memory_limit_shrinks_the_table_to_a_power_of_two_within_it() {
    let rules = Rules::new(15, 5).unwrap();
    let pos =
        Position::from_moves(rules, &crate::game::Cell::parse_list("H8,I9", 15).unwrap()).unwrap();
    let mut e = BigNegamax::new(rules);
    e.choose(&pos, &mut MoveBudget::millis(20));
    assert_eq!(e.table.len(), 1 << TABLE_BITS);
    let entry = std::mem::size_of::<Entry>();
    e.set_memory_limit(1 << 20);
    e.choose(&pos, &mut MoveBudget::millis(20));
    // The table and the leaves' answers, within the limit together;
    // the table the largest power of two in what is left.
    let (table, leaves) = (e.table.len() * entry, e.leaf_wins.bytes());
    assert!(table + leaves <= 1 << 20, "{table} + {leaves}");
    assert!(table * 2 > (1 << 20) - leaves, "{table} + {leaves}");
    assert_eq!(leaves, 1 << 16);
    // Never below 2^10 entries, never above its usual size.
    e.set_memory_limit(0);
    e.choose(&pos, &mut Unlimited::new());
    assert_eq!(e.table.len(), 1 << 10);
    e.set_memory_limit(usize::MAX);
    e.choose(&pos, &mut Unlimited::new());
    assert_eq!(e.table.len(), 1 << TABLE_BITS);
    assert_eq!(e.leaf_wins.bytes(), 16 << LEAF_WINS_BITS);
}

#[test]
fn the_line_starts_with_the_move_chosen_and_is_played_legally() {
    let rules = Rules::new(15, 5).unwrap();
    let cells = crate::game::Cell::parse_list("H8,I9,H9,H10,G8", 15).unwrap();
    let pos = Position::from_moves(rules, &cells).unwrap();
    let mut e = BigNegamax::new(rules);
    let a = e.analyse(&pos, &mut MoveBudget::new(crate::ai::Limit::Work(200_000)));
    let line = e.line(&pos, a.best, 8);
    assert_eq!(line.first(), Some(&a.best));
    // The search went deeper than one move: the table names replies.
    assert!(line.len() >= 3, "{line:?}");
    let mut moves = cells.clone();
    moves.extend(&line);
    assert!(Position::from_moves(rules, &moves).is_ok(), "{line:?}");
    // Before any search: the move alone.
    let fresh = BigNegamax::new(rules);
    assert_eq!(fresh.line(&pos, a.best, 8), vec![a.best]);
}
