//! Property tests of the parsers that take outside input: coordinates,
//! move lists and model files. Bounded, so they run in CI in seconds: no
//! input may panic, and every refusal says what is wrong.

use std::path::Path;

use kxo_tui::ai::rl::{ALPHA, ValueTable};
use kxo_tui::game::{Cell, GameRecord, Rules};
use kxo_tui::headless::solve::position_from_moves;
use kxo_tui::model;
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 2_000,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_text_as_a_cell_is_parsed_or_refused_clearly(text in ".{0,8}", size in 3u8..=20) {
        match Cell::parse(&text, size) {
            Ok(cell) => {
                prop_assert!(cell.index() < size as usize * size as usize);
                // What it names parses back to the same cell.
                prop_assert_eq!(Cell::parse(&cell.name(size), size).ok(), Some(cell));
            }
            Err(e) => prop_assert!(!e.0.is_empty()),
        }
    }

    #[test]
    fn any_text_as_a_move_list_is_played_or_refused_clearly(
        text in "[A-Ta-t0-9, ]{0,40}|.{0,40}",
        size in 3u8..=20,
        goal in 3u8..=8,
    ) {
        let Ok(rules) = Rules::new(size, goal.min(size)) else { return Ok(()) };
        match position_from_moves(rules, &text) {
            Ok(pos) => prop_assert!(pos.move_count() as usize <= text.len()),
            Err(e) => prop_assert!(!e.0.is_empty()),
        }
    }

    #[test]
    fn any_bytes_as_a_model_are_refused_with_the_file_named(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let rules = Rules::default_rules();
        let path = Path::new("/tmp/fuzzed.model");
        if let Err(e) = model::decode(&bytes, rules, path) {
            prop_assert!(e.to_string().contains("/tmp/fuzzed.model"));
        }
    }

    #[test]
    fn a_damaged_model_is_refused_never_misread(at in 0usize..10_000, flip in 1u8..=255, cut in 0usize..10_000) {
        let rules = Rules::default_rules();
        let mut table = ValueTable::new(rules);
        let mut record = GameRecord::new(rules);
        record.moves = Cell::parse_list("B2,A1,C2,D4,A2", 4).unwrap();
        table.learn(&record, ALPHA);
        let good = model::encode(&table);
        let path = Path::new("m.model");
        // One byte changed: the checksum (or the header) catches it.
        let mut bad = good.clone();
        let i = at % bad.len();
        bad[i] ^= flip;
        prop_assert!(model::decode(&bad, rules, path).is_err());
        // Cut short anywhere: refused.
        let short = &good[..cut % good.len()];
        prop_assert!(model::decode(short, rules, path).is_err());
    }
}
