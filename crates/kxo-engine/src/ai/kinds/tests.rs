//! The list's promises, checked for every kind on it: a new line joins
//! every test here without one being written.

use super::{BuiltIn, EngineKind, Entry, Recipe};
use crate::ai::games::play_game;
use crate::game::{Outcome, Player, Position, Rules};

fn recipe(rules: Rules, seed: u64) -> Recipe<'static> {
    Recipe::new(rules, seed)
}

#[test]
fn names_labels_and_aliases_are_unique_and_parse_back() {
    let mut seen = std::collections::HashSet::new();
    for kind in BuiltIn::ALL {
        let entry = kind.entry();
        for name in std::iter::once(entry.name).chain(entry.aliases.iter().copied()) {
            assert!(seen.insert(name), "{name} names two kinds");
            assert_eq!(name.parse::<BuiltIn>(), Ok(kind));
            assert_eq!(name.to_uppercase().parse::<BuiltIn>(), Ok(kind));
        }
        assert!(
            !entry.label.is_empty() && entry.label.len() <= 5,
            "{}",
            entry.label
        );
        assert_eq!(kind.to_string(), entry.name);
        assert!(BuiltIn::names().contains(entry.name));
    }
    let labels: std::collections::HashSet<_> = EngineKind::ALL.iter().map(|k| k.label()).collect();
    assert_eq!(labels.len(), EngineKind::COUNT, "two kinds share a label");
    assert!(
        "brain"
            .parse::<BuiltIn>()
            .unwrap_err()
            .contains("brain:PATH")
    );
    let unknown = "zebra".parse::<BuiltIn>().unwrap_err();
    assert!(unknown.contains(&BuiltIn::names()), "{unknown}");
}

#[test]
fn every_kind_sits_at_its_index() {
    for (i, kind) in EngineKind::ALL.into_iter().enumerate() {
        assert_eq!(kind.index(), i);
    }
    assert_eq!(EngineKind::ALL[EngineKind::COUNT - 1], EngineKind::Brain);
    assert_eq!(EngineKind::playable().len(), BuiltIn::COUNT);
}

#[test]
fn every_kind_plays_small_and_gomoku_boards_to_the_end() {
    for rules in [Rules::new(4, 3), Rules::new(15, 5)] {
        let rules = rules.unwrap();
        for (i, kind) in BuiltIn::ALL.into_iter().enumerate() {
            let mut engine = kind.make(&recipe(rules, i as u64));
            let mut random = BuiltIn::Random.make(&recipe(rules, 99));
            let record = play_game(rules, &mut [engine.as_mut(), random.as_mut()]);
            // Every move legal: the replay ends where the game did (a
            // forfeit would leave the replay unfinished).
            let mut pos = Position::new(rules);
            for &cell in &record.moves {
                pos.play(cell).unwrap();
            }
            assert!(pos.outcome().is_over(), "{kind} forfeited on {rules:?}");
            assert_eq!(pos.outcome(), record.outcome);
        }
    }
}

// The mechanism itself, shown with a kind that exists only here: its file
// is `kinds/tests/first_free.rs`, its line the one below, and with nothing
// else written it has a name, a label and a factory, and plays.
engine_kinds! {
    enum TestKind;
    FirstFree => first_free,
}

#[test]
fn a_kind_made_by_one_file_and_one_line_plays() {
    assert_eq!(TestKind::ALL, [TestKind::FirstFree]);
    let entry: &Entry = TestKind::FirstFree.entry();
    assert_eq!((entry.name, entry.label), ("firstfree", "1ST"));
    let rules = Rules::new(4, 3).unwrap();
    let mut a = (entry.make)(&recipe(rules, 1));
    let mut b = (entry.make)(&recipe(rules, 2));
    let record = play_game(rules, &mut [a.as_mut(), b.as_mut()]);
    // The first free cell each turn: O's stones fill a1, c1, a2, c2, a3,
    // and a1-a2-a3 is three in a row before X has any.
    assert_eq!(record.outcome, Outcome::Win(Player::O));
    assert_eq!(record.moves.len(), 9);
}
