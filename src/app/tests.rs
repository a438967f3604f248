//! The live screen's state: its tests.

use super::*;
use kxo_engine::Rules;
use kxo_engine::SearchInfo;

fn app() -> App {
    let config = LiveConfig {
        games: 3,
        x: Some(kxo_engine::BuiltIn::Random.into()),
        delay: Duration::ZERO,
        seed: 1,
        ..LiveConfig::default()
    };
    App::new(config, Instant::now())
}

#[test]
fn actions_switch_tabs_pause_help_and_quit() {
    let mut a = app();
    let now = Instant::now();
    a.press(Action::ShowTab(Tab::Load), now);
    assert_eq!(a.tab, Tab::Load);
    a.press(Action::ShowTab(Tab::Records), now);
    assert_eq!(a.tab, Tab::Records);
    assert!(!a.quit);
    a.press(Action::TogglePause, now);
    assert!(a.paused);
    assert_eq!(a.moves_per_second(), None, "no rate while paused");
    let effects = a.press(Action::TogglePause, now);
    assert!(!a.paused);
    assert!(effects.contains(&Effect::Resumed));
    a.press(Action::ToggleHelp, now);
    assert!(a.help);
    a.press(Action::Escape, now);
    assert!(!a.help);
    // Human-mode actions mean nothing here.
    assert!(a.press(Action::Undo, now).is_empty());
    a.press(Action::Quit, now);
    assert!(a.quit);
}

#[test]
fn escape_closes_the_help_before_the_zoom_under_it() {
    let mut a = app();
    let now = Instant::now();
    a.press(Action::ToggleZoom, now);
    a.press(Action::ToggleHelp, now);
    a.press(Action::Escape, now);
    assert!(!a.help(), "the help, on top, goes first");
    assert!(a.zoomed(), "the zoom stays under it");
    a.press(Action::Escape, now);
    assert!(!a.zoomed());
}

#[test]
fn fixed_engines_stay_fixed_and_others_vary() {
    let mut a = app();
    let mut o_kinds = std::collections::HashSet::new();
    for _ in 0..30 {
        a.restart_game(0, Instant::now());
        assert_eq!(
            a.games[0].engines[1],
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Random)
        );
        o_kinds.insert(a.games[0].engines[0]);
    }
    assert_eq!(o_kinds.len(), EngineKind::playable().len());
}

#[test]
fn free_pairs_always_have_an_mcts_seat_and_vary() {
    let mut a = App::new(LiveConfig::default(), Instant::now());
    let mut pairs = std::collections::HashSet::new();
    for _ in 0..200 {
        a.restart_game(0, Instant::now());
        let e = a.games[0].engines;
        assert!(
            e.contains(&EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts)),
            "{e:?}"
        );
        pairs.insert(e);
    }
    // MCTS against each kind on the list, on either side (itself once).
    assert_eq!(pairs.len(), 2 * kxo_engine::BuiltIn::COUNT - 1, "{pairs:?}");
    // Gomoku (`kxo-tui --gomoku --games 4`): the strong engines only.
    let gomoku = LiveConfig {
        rules: Rules::new(15, 5).unwrap(),
        games: 4,
        ..LiveConfig::default()
    };
    let mut a = App::new(gomoku, Instant::now());
    let mut pairs = std::collections::HashSet::new();
    for _ in 0..100 {
        a.restart_game(0, Instant::now());
        pairs.insert(a.games[0].engines);
    }
    let strong = [kxo_engine::BuiltIn::Mcts, kxo_engine::BuiltIn::Negamax].map(EngineKind::from);
    assert!(
        pairs.iter().flatten().all(|e| strong.contains(e)),
        "{pairs:?}"
    );
    assert_eq!(pairs.len(), 3, "{pairs:?}");
}

#[test]
fn games_start_staggered() {
    let a = app();
    let starts: Vec<Instant> = a.games.iter().map(|g| g.not_before).collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    assert!(starts[2] - starts[0] >= STAGGER / 2);
}

#[test]
fn moves_from_a_stale_generation_are_ignored() {
    let mut a = app();
    let now = Instant::now();
    assert!(!a.apply_move(0, 0, Cell::new(5), now).is_empty());
    a.restart_game(0, now);
    assert!(a.apply_move(0, 0, Cell::new(6), now).is_empty());
    assert_eq!(a.games[0].pos.move_count(), 0);
    assert_eq!(a.totals.moves, 1);
}

#[test]
fn a_finished_game_counts_once_and_holds_for_the_configured_time() {
    let mut a = app();
    let now = Instant::now();
    for (i, name) in ["A1", "A2", "B1", "B2", "C1"].iter().enumerate() {
        let cell = Cell::parse(name, 4).unwrap();
        a.apply_move(1, 0, cell, now);
        assert_eq!(a.games[1].pos.move_count() as usize, i + 1);
    }
    assert_eq!(a.totals.o_wins, 1);
    assert_eq!(a.totals.finished, 1);
    assert_eq!(
        a.games[1].status,
        GameStatus::Over {
            restart_at: Some(now + DEFAULT_HOLD)
        }
    );
    assert!(a.apply_move(1, 0, Cell::new(15), now).is_empty());
    a.restart_game(1, now);
    assert_eq!(
        a.games[1].previous.as_ref().map(|p| p.1),
        Some(Outcome::Win(Player::O))
    );
}

#[test]
fn thinking_shows_until_the_move_and_never_for_a_stale_game() {
    let mut a = app();
    let now = Instant::now();
    let thinking = Thinking {
        side: Player::O,
        engine: EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts),
        used: Duration::from_millis(40),
        clock: Some(Duration::from_millis(100)),
        info: SearchInfo::default(),
        done: false,
    };
    a.report_thinking(0, 0, thinking.clone());
    assert_eq!(a.games[0].thinking.as_ref(), Some(&thinking));
    a.apply_move(0, 0, Cell::new(0), now);
    assert!(a.games[0].thinking.is_none());
    a.report_thinking(0, 7, thinking);
    assert!(a.games[0].thinking.is_none());
}

/// Plays game `index` to its end with the first legal move each turn.
fn play_out(a: &mut App, index: usize, now: Instant) {
    while a.games[index].status == GameStatus::Playing {
        let g = &a.games[index];
        let cell = g.pos.mnk().unwrap().legal_moves().next().unwrap();
        a.apply_move(index, g.generation, cell, now);
    }
}

#[test]
fn big_boards_start_every_game_from_its_own_opening() {
    let rules = Rules::new(15, 5).unwrap();
    let config = LiveConfig {
        rules,
        games: 9,
        o: Some(kxo_engine::BuiltIn::Negamax.into()),
        x: Some(kxo_engine::BuiltIn::Negamax.into()),
        seed: 3,
        ..LiveConfig::default()
    };
    let mut a = App::new(config, Instant::now());
    let mut openings = std::collections::HashSet::new();
    for g in &a.games {
        assert!((2..=4).contains(&g.opening), "{}", g.opening);
        assert_eq!(g.record.moves.len(), g.opening);
        assert_eq!(g.pos.move_count() as usize, g.opening);
        openings.insert(g.record.moves.clone());
    }
    // Nine games, nine move lists: they differ in their first stones.
    assert_eq!(openings.len(), 9);
    // A restart draws a new one.
    let now = Instant::now();
    play_out(&mut a, 0, now);
    let before = a.games[0].record.moves[..a.games[0].opening].to_vec();
    a.restart_game(0, now);
    assert_ne!(a.games[0].record.moves, before);
    // Small boards start empty, as before.
    let small = App::new(
        LiveConfig {
            games: 4,
            ..LiveConfig::default()
        },
        now,
    );
    assert!(
        small
            .games
            .iter()
            .all(|g| g.opening == 0 && g.record.moves.is_empty())
    );
}

#[test]
fn a_tournament_plays_its_games_in_order_and_reports_them() {
    use crate::engines::EngineSpec;
    use crate::tournament::{Format, Openings, Plan, Settings};
    let specs = vec![
        EngineSpec::parse("alpha=random").unwrap(),
        EngineSpec::parse("beta=negamax").unwrap(),
    ];
    let settings = Settings {
        size: 4,
        goal: 3,
        rule: kxo_engine::Rule::Freestyle,
        komi2: None,
        handicap: 0,
        engines: specs.iter().map(EngineSpec::text).collect(),
        format: Format::RoundRobin,
        games: 4,
        repeat: true,
        openings: "none".into(),
        seed: 5,
        limit: crate::engines::RunLimit::Default,
        match_ms: None,
        increment_ms: None,
        margin_ms: None,
        sprt: None,
    };
    let plan = Plan::new(specs, settings, Openings::None);
    let config = LiveConfig {
        games: 2,
        seed: 1,
        tournament: Some(std::rc::Rc::new(plan)),
        ..LiveConfig::default()
    };
    let now = Instant::now();
    let mut a = App::new(config, now);
    // Box 1 plays game 1 (alpha first), box 2 game 2 (colours swapped).
    assert_eq!(a.games[0].labels, ["alpha", "beta"]);
    assert_eq!(a.games[1].labels, ["beta", "alpha"]);
    assert_eq!(
        a.games[0].engines,
        [
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Random),
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Negamax)
        ]
    );
    for round in 0..2 {
        for index in 0..2 {
            play_out(&mut a, index, now);
        }
        let progress = a.tournament.as_ref().unwrap();
        assert_eq!(progress.report.games, 2 * (round + 1));
        for index in 0..2 {
            a.restart_game(index, now);
        }
    }
    // Four games played: the boxes keep their last, and do not restart.
    for g in &a.games {
        assert_eq!(g.status, GameStatus::Over { restart_at: None });
    }
    let report = &a.tournament.as_ref().unwrap().report;
    assert_eq!((report.games, report.scheduled), (4, 4));
    assert_eq!(report.pairings[0].pentanomial.pairs(), 2);
    assert_eq!(
        report.pairings[0].games,
        report.pairings[0].a_wins + report.pairings[0].draws + report.pairings[0].b_wins
    );
}
