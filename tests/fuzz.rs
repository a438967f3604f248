//! Property tests of the parsers that take outside input: coordinates,
//! move lists and model files. Bounded, so they run in CI in seconds: no
//! input may panic, and every refusal says what is wrong.

use std::path::Path;

use kxo_engine::learner::{ALPHA, ValueTable};
use kxo_engine::{Cell, GameRecord, Rules};
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

    #[test]
    fn a_header_that_claims_any_entry_count_is_refused_unless_it_fits(count in any::<u64>()) {
        let rules = Rules::default_rules();
        let table = ValueTable::new(rules);
        let mut bytes = model::encode(&table);
        // The count sits just before the entries (none here) and the CRC.
        let at = bytes.len() - 4 - 8;
        bytes[at..at + 8].copy_from_slice(&count.to_le_bytes());
        let result = model::decode(&bytes, rules, Path::new("m.model"));
        prop_assert_eq!(result.is_ok(), count == 0);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Whatever a manager sends, `kxo-tui brain` answers in lines of text
    /// with no control character in them, and never panics.
    #[test]
    fn any_bytes_to_the_brain_get_answers_a_terminal_can_show(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        lines in proptest::collection::vec("[A-Z]{0,8}[ ,0-9\\x00-\\x1f\\x7f-\\u{9f}]{0,12}", 0..6),
    ) {
        use kxo_tui::headless::brain::{BrainOptions, run};
        let mut input = b"START 7\n".to_vec();
        for l in &lines {
            input.extend_from_slice(l.as_bytes());
            input.push(b'\n');
        }
        input.extend_from_slice(&bytes);
        input.extend_from_slice(b"\nEND\n");
        let mut out = Vec::new();
        let options = BrainOptions {
            engine: kxo_tui::engines::EngineSpec::for_seat(kxo_engine::BuiltIn::Random.into()),
            goal: 4,
            think_ms: Some(5),
            hash_mb: 1,
            seed: 1,
            learned_eval: false,
        };
        run(std::io::Cursor::new(input), &mut out, options).expect("serves");
        let text = std::str::from_utf8(&out).expect("UTF-8 replies");
        for line in text.lines() {
            prop_assert!(kxo_engine::text::is_inert(line), "{:?}", line);
        }
    }
}
