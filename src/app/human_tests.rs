//! Human mode's tests: the person's keys, hints, moves and games.

use super::*;
use crate::app::LiveConfig;

/// A person's game of 9x9 Go (komi 7.5) as Black, against MCTS.
pub(in crate::app) fn go_app() -> App {
    App::new(
        LiveConfig {
            games: 1,
            rules: kxo_engine::Rules::go(9, 15, 0).unwrap(),
            o: Some(kxo_engine::BuiltIn::Mcts.into()),
            x: Some(kxo_engine::BuiltIn::Mcts.into()),
            human: Some(Player::O),
            ..LiveConfig::default()
        },
        Instant::now(),
    )
}

fn human_app() -> App {
    App::new(
        LiveConfig {
            games: 1,
            o: Some(kxo_engine::BuiltIn::Negamax.into()),
            x: Some(kxo_engine::BuiltIn::Negamax.into()),
            human: Some(Player::O),
            ..LiveConfig::default()
        },
        Instant::now(),
    )
}

#[test]
fn a_hint_is_a_request_that_any_other_action_cancels() {
    let mut a = human_app();
    let now = Instant::now();
    let effects = a.press(Action::Hint, now);
    assert!(effects.contains(&Effect::StartHint));
    let id = a.human.as_ref().unwrap().hint_request.as_ref().unwrap().id;
    assert_eq!(
        a.human.as_ref().unwrap().hint.as_deref(),
        Some("hint: thinking…")
    );
    a.press(Action::Cursor(Direction::Left), now);
    assert!(a.human.as_ref().unwrap().hint_request.is_none());
    // The answer to the cancelled request is dropped.
    assert!(
        a.hint_found(id, Cell::new(5), Estimate::Value(Value::Draw), None, vec![])
            .is_empty()
    );
    assert!(a.human.as_ref().unwrap().hint.is_none());
    // A fresh request is answered.
    a.press(Action::Hint, now);
    let id = a.human.as_ref().unwrap().hint_request.as_ref().unwrap().id;
    let line = Cell::parse_list("B2,C3,A1", 4).unwrap();
    a.hint_found(
        id,
        Cell::new(5),
        Estimate::Value(Value::Win { plies: 5 }),
        None,
        line,
    );
    assert_eq!(
        a.human.as_ref().unwrap().hint.as_deref(),
        Some("hint: B2: you win in 3 of your moves (5 plies); line B2 C3 A1 …")
    );
    // A win by threats says which, with its line.
    a.press(Action::Hint, now);
    let id = a.human.as_ref().unwrap().hint_request.as_ref().unwrap().id;
    let line = [5, 6, 9].map(|c| c as usize);
    let threat = kxo_engine::Threat::new(kxo_engine::ThreatKind::Vcf, 3, &line);
    a.hint_found(
        id,
        Cell::new(5),
        Estimate::Value(Value::Win { plies: 3 }),
        Some(threat),
        threat.line().collect(),
    );
    assert_eq!(
        a.human.as_ref().unwrap().hint.as_deref(),
        Some("hint: B2: VCF in 3; line B2 C2 B3 …")
    );
}

#[test]
fn typed_coordinates_and_the_cursor() {
    let mut a = human_app();
    let now = Instant::now();
    a.press(Action::Type('b'), now);
    a.press(Action::Type('3'), now);
    assert_eq!(a.human.as_ref().unwrap().typed, "B3");
    a.press(Action::Confirm, now);
    assert_eq!(
        a.human.as_ref().unwrap().pending,
        Some(Cell::parse("B3", 4).unwrap())
    );
    a.press(Action::Type('9'), now);
    assert!(a.human.as_ref().unwrap().message.is_some());
}

#[test]
fn space_while_the_hint_thinks_waits_for_it_and_escape_puts_a_hint_away() {
    let mut a = human_app();
    let now = Instant::now();
    let cursor = a.human.as_ref().unwrap().cursor;
    let hinted = Cell::new(if cursor == Cell::new(0) { 15 } else { 0 });
    a.press(Action::Hint, now);
    for key in [Action::PlaceAtCursor, Action::Confirm] {
        a.press(key, now);
        let h = a.human.as_ref().unwrap();
        assert!(h.pending.is_none(), "{key:?} played at the old cursor");
        assert!(h.hint_request.is_some(), "{key:?} cancelled the hint");
        assert_eq!(
            h.message.as_deref(),
            Some("the hint is still thinking: wait for it, or press Esc")
        );
    }
    let id = a.human.as_ref().unwrap().hint_request.as_ref().unwrap().id;
    a.hint_found(id, hinted, Estimate::Value(Value::Draw), None, vec![hinted]);
    let h = a.human.as_ref().unwrap();
    assert!(h.hint.is_some(), "{:?}", h.hint);
    assert_eq!(h.cursor, hinted);
    // Esc puts the hint away; the next Space plays where it pointed.
    a.press(Action::Escape, now);
    assert!(a.human.as_ref().unwrap().hint.is_none());
    a.press(Action::PlaceAtCursor, now);
    assert_eq!(a.human.as_ref().unwrap().pending, Some(hinted));
}

#[test]
fn escape_closes_the_help_before_it_drops_a_typed_coordinate() {
    let mut a = human_app();
    let now = Instant::now();
    a.press(Action::Type('b'), now);
    a.press(Action::ToggleHelp, now);
    a.press(Action::Escape, now);
    assert!(!a.help, "the help, on top, goes first");
    assert_eq!(a.human.as_ref().unwrap().typed, "B");
    a.press(Action::Escape, now);
    assert_eq!(a.human.as_ref().unwrap().typed, "");
}

/// Plays O's `moves` and X's `replies` through the app, as the seats
/// would (the person is O).
fn play(a: &mut App, moves: &[&str], now: Instant) {
    for m in moves {
        let cell = Cell::parse(m, 4).unwrap();
        let generation = a.games[0].generation;
        a.apply_move(0, generation, cell, now);
    }
}

#[test]
fn n_mid_game_resigns_only_when_pressed_twice() {
    let mut a = human_app();
    let now = Instant::now();
    play(&mut a, &["A1", "D4"], now);
    a.press(Action::NewGame, now);
    assert_eq!(a.games[0].record.moves.len(), 2, "one N changes nothing");
    assert!(
        a.human
            .as_ref()
            .unwrap()
            .message
            .as_deref()
            .unwrap()
            .contains("again")
    );
    // Another key in between cancels the question.
    a.press(Action::Cursor(Direction::Left), now);
    a.press(Action::NewGame, now);
    assert_eq!(a.games[0].record.moves.len(), 2);
    a.press(Action::NewGame, now);
    let h = a.human.as_ref().unwrap();
    assert_eq!((h.score.person, h.score.computer), (0, 1), "a loss");
    assert_eq!(h.history.len(), 1);
    assert_eq!(h.side, Player::X, "sides swap");
    assert!(a.games[0].record.moves.is_empty(), "a new game");
}

/// The message human mode shows now.
pub(in crate::app) fn message(a: &App) -> String {
    a.human
        .as_ref()
        .and_then(|h| h.message.clone())
        .unwrap_or_default()
}

#[test]
fn on_go_p_twice_passes_and_typed_points_read_as_gtp_writes_them() {
    let go = kxo_engine::Rules::go(9, 15, 0).unwrap();
    let mut a = go_app();
    let now = Instant::now();
    let pending = |a: &App| a.human.as_ref().unwrap().pending;
    // "c3" is C3 of Go: the third row from the bottom.
    for key in ['c', '3'] {
        a.press(Action::Type(key), now);
    }
    a.press(Action::Confirm, now);
    assert_eq!(pending(&a), Some(go.parse_cell("C3").unwrap()));
    assert_eq!(go.cell_name(pending(&a).unwrap()), "C3");
    let generation = a.games[0].generation;
    a.play_pending(0, generation, go.parse_cell("C3").unwrap(), now);
    a.apply_move(0, generation, go.parse_cell("G7").unwrap(), now);
    // One p asks; a second passes.
    a.press(Action::Pass, now);
    assert_eq!(pending(&a), None);
    let said = message(&a);
    assert!(said.contains("press p again"), "{said}");
    a.press(Action::Pass, now);
    assert_eq!(pending(&a), Some(Cell::PASS));
    // A point taken, or a suicide, is refused with its reason.
    let mut b = App::new(a.config.clone(), Instant::now());
    for m in ["A2", "J9", "B1"] {
        let generation = b.games[0].generation;
        b.apply_move(0, generation, go.parse_cell(m).unwrap(), now);
    }
    b.human.as_mut().unwrap().side = Player::X;
    for key in ['a', '1'] {
        b.press(Action::Type(key), now);
    }
    b.press(Action::Confirm, now);
    let said = message(&b);
    assert!(said.contains("A1") && said.contains("suicide"), "{said}");
    assert_eq!(b.human.as_ref().unwrap().pending, None);
    // On a line board p is no move.
    let mut c = human_app();
    c.press(Action::Pass, now);
    c.press(Action::Pass, now);
    assert_eq!(c.human.as_ref().unwrap().pending, None);
}

#[test]
fn undo_after_a_lost_game_takes_the_result_back() {
    let mut a = human_app();
    let now = Instant::now();
    // X (the computer) completes B1 C1 D1 on 4x4, three in a row.
    play(&mut a, &["A2", "B1", "A4", "C1", "C3", "D1"], now);
    assert!(matches!(a.games[0].status, GameStatus::Over { .. }));
    assert_eq!(a.human.as_ref().unwrap().score.computer, 1);
    assert_eq!(a.totals.x_wins, 1);
    a.press(Action::Undo, now);
    let h = a.human.as_ref().unwrap();
    assert_eq!(h.score, Score::default());
    assert!(h.history.is_empty());
    assert_eq!(a.totals.finished, 0);
    assert_eq!(a.games[0].status, GameStatus::Playing);
    // Back before the person's last move (C3) and the winning reply.
    assert_eq!(a.games[0].record.moves.len(), 4);
    assert_eq!(a.games[0].pos.to_move(), Player::O);
}

#[test]
fn enter_right_after_the_end_does_not_start_a_new_game() {
    let mut a = human_app();
    let now = Instant::now();
    play(&mut a, &["A1", "D4", "B1", "D3", "C1"], now);
    assert!(matches!(a.games[0].status, GameStatus::Over { .. }));
    a.press(Action::Confirm, now + ENTER_GUARD / 2);
    assert!(
        matches!(a.games[0].status, GameStatus::Over { .. }),
        "ignored"
    );
    a.press(Action::Confirm, now + ENTER_GUARD);
    assert_eq!(a.games[0].status, GameStatus::Playing, "a fresh press");
}

#[test]
fn g_goes_back_to_the_start_screen_only_between_games() {
    let mut a = human_app();
    let now = Instant::now();
    a.press(Action::ChooseGame, now);
    assert!(a.setup.is_some(), "no move yet: the start screen");
    a.press(Action::Confirm, now);
    assert!(a.setup.is_none());
    assert_eq!(a.games[0].status, GameStatus::Playing);
    a.play_pending(0, a.games[0].generation, Cell::new(5), now);
    a.press(Action::ChooseGame, now);
    assert!(a.setup.is_none(), "mid-game it is refused");
    assert_eq!(
        a.human.as_ref().unwrap().message.as_deref(),
        Some("finish this game first (or press n twice to resign it)")
    );
}
