//! Go in human mode, after two passes: the engine marks the stones it
//! sees dead, the person changes them a chain at a time, and the count
//! follows once they accept it — the way Go servers settle a game.
//! Until then the game is over for the seats but not yet counted.

use std::time::Instant;

use super::{Action, App, Effect, GameStatus};
use kxo_engine::Cell;

impl App {
    /// Whether the person is settling the dead stones of a finished game.
    pub fn marking(&self) -> bool {
        self.human.as_ref().is_some_and(|h| h.marking)
    }

    /// Called when game 0 ends: a person's game of Go that two passes
    /// ended goes to marking (true) instead of being counted now.
    pub(super) fn begin_marking(&mut self, now: Instant) -> bool {
        let Some(human) = self.human.as_mut() else {
            return false;
        };
        let Some(game) = self.games.first_mut() else {
            return false;
        };
        let Some(go) = game.pos.go() else {
            return false;
        };
        if game.forfeit.is_some() || go.passes() < 2 || human.marking {
            return false;
        }
        let dead = go.dead_stones(kxo_engine::go::OWNERSHIP_PLAYOUTS, game.generation);
        game.dead = kxo_engine::Bits::EMPTY;
        for cell in &dead {
            game.dead.insert(cell.index());
        }
        game.status = GameStatus::Over { restart_at: None };
        game.thinking = None;
        human.marking = true;
        human.pending = None;
        human.hint = None;
        human.ended_at = Some(now);
        human.message = Some(match dead.len() {
            0 => "two passes: the computer sees no dead stones".into(),
            1 => "two passes: the computer marks 1 stone dead".into(),
            n => format!("two passes: the computer marks {n} stones dead"),
        });
        self.touch(false);
        true
    }

    /// The marking's keys: Enter, Space, a click or a typed point on a
    /// stone changes its chain; p (or N) accepts the count; u takes back
    /// the last move and play goes on. `None` for the keys that act as in
    /// play (the cursor, typing, help, quit).
    pub(super) fn update_marking(&mut self, action: Action, now: Instant) -> Option<Vec<Effect>> {
        let human = self.human.as_mut()?;
        let rules = self.config.rules;
        let target = match action {
            Action::Confirm if !human.typed.is_empty() => {
                let typed = std::mem::take(&mut human.typed);
                match rules.parse_cell(&typed) {
                    Ok(cell) => cell,
                    Err(e) => {
                        human.message = Some(e.0);
                        return Some(vec![Effect::Redraw]);
                    }
                }
            }
            Action::Confirm | Action::PlaceAtCursor => human.cursor,
            Action::Place(cell) => {
                human.cursor = cell;
                cell
            }
            Action::Pass | Action::NewGame => return Some(self.accept_count(now)),
            Action::Undo => {
                human.marking = false;
                let side = human.side;
                if let Some(game) = self.games.first_mut() {
                    game.status = GameStatus::Playing;
                    game.dead = kxo_engine::Bits::EMPTY;
                }
                return Some(self.take_back(side));
            }
            Action::Hint => {
                human.message = Some("the game is over: mark the dead stones".into());
                return Some(vec![Effect::Redraw]);
            }
            _ => return None,
        };
        Some(self.toggle_chain(target))
    }

    /// Marks the chain through `cell` dead, or alive again.
    fn toggle_chain(&mut self, cell: Cell) -> Vec<Effect> {
        let rules = self.config.rules;
        let Some(game) = self.games.first_mut() else {
            return Vec::new();
        };
        let chain = game.pos.go().map(|go| go.chain(cell)).unwrap_or_default();
        let message = match chain.first() {
            None => format!("{} has no stone to mark", rules.cell_name(cell)),
            Some(first) => {
                let dead = !game.dead.contains(first.index());
                for stone in &chain {
                    match dead {
                        true => game.dead.insert(stone.index()),
                        false => game.dead.remove(stone.index()),
                    }
                }
                let count = game.go_count().map(|s| s.text()).unwrap_or_default();
                let state = if dead { "dead" } else { "alive" };
                let stones = match chain.len() {
                    1 => "1 stone".to_string(),
                    n => format!("{n} stones"),
                };
                format!("{stones} {state}: the count is {count}")
            }
        };
        if let Some(h) = self.human.as_mut() {
            h.message = Some(message);
        }
        self.touch(false);
        vec![Effect::Redraw]
    }

    /// The person accepts the marks: the game is counted without the dead
    /// stones, and its result goes on the score.
    fn accept_count(&mut self, now: Instant) -> Vec<Effect> {
        let Some(game) = self.games.first_mut() else {
            return Vec::new();
        };
        let dead = game.dead_stones();
        let Some(go) = game.pos.go_mut() else {
            return Vec::new();
        };
        let score = go.score_without(&dead);
        go.settle(score);
        if let Some(h) = self.human.as_mut() {
            h.marking = false;
            h.message = Some(format!("counted: {}", score.text()));
        }
        self.count_result(0, score.outcome(), now);
        self.touch(false);
        vec![Effect::Redraw]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::human::tests::message;
    use kxo_engine::{Outcome, Player, Rules};

    /// A person's 9x9 game, as Black, played to the position where two
    /// walls split the board and a White stone sits dead in Black's side.
    fn ended_game(last_pass: bool) -> (App, Rules, Instant) {
        let go = Rules::go(9, 15, 0).unwrap();
        let mut a = crate::app::human::tests::go_app();
        let now = Instant::now();
        let mut moves: Vec<String> = (1..=9)
            .flat_map(|r| [format!("E{r}"), format!("F{r}")])
            .collect();
        moves.extend(["A5", "B5", "C5", "pass", "B4", "pass"].map(String::from));
        if last_pass {
            moves.push("pass".into());
        }
        for m in &moves {
            let generation = a.games[0].generation;
            a.apply_move(0, generation, go.parse_cell(m).unwrap(), now);
        }
        (a, go, now)
    }

    #[test]
    fn two_passes_go_to_marking_and_the_count_follows_the_persons_marks() {
        let (mut a, go, now) = ended_game(true);
        let b5 = go.parse_cell("B5").unwrap();
        // Over for the seats, not yet counted: the engine's marks show.
        assert!(a.marking());
        assert!(matches!(a.games[0].status, GameStatus::Over { .. }));
        assert_eq!(a.games[0].dead_stones(), vec![b5]);
        assert_eq!(a.totals.finished, 0);
        assert!(a.human.as_ref().unwrap().history.is_empty());
        assert_eq!(a.games[0].go_count().unwrap().text(), "B+1.5");
        // A click on B5 brings it back to life: the count changes.
        a.press(Action::Place(b5), now);
        assert!(a.games[0].dead.is_empty());
        let alive = a.games[0].go_count().unwrap().text();
        assert_ne!(alive, "B+1.5");
        assert!(message(&a).contains("alive"), "{}", message(&a));
        // An empty point has nothing to mark; Enter on B5 marks it again.
        a.press(Action::Place(go.parse_cell("A1").unwrap()), now);
        assert!(message(&a).contains("no stone"), "{}", message(&a));
        for key in ['b', '5'] {
            a.press(Action::Type(key), now);
        }
        a.press(Action::Confirm, now);
        assert_eq!(a.games[0].dead_stones(), vec![b5]);
        // A hint is refused; p accepts: counted once, Black wins by 1.5.
        a.press(Action::Hint, now);
        assert!(a.marking());
        a.press(Action::Pass, now);
        assert!(!a.marking());
        assert_eq!(a.games[0].outcome(), Outcome::Win(Player::O));
        assert_eq!(a.totals.finished, 1);
        let h = a.human.as_ref().unwrap();
        assert_eq!(h.score.person, 1);
        assert_eq!(h.history.len(), 1);
        assert_eq!(crate::ui::result_of(&a.games[0]), "B+1.5");
        // A second p is no second count.
        a.press(Action::Pass, now);
        assert_eq!(a.totals.finished, 1);
    }

    #[test]
    fn the_persons_marks_can_turn_the_result_and_undo_goes_back_to_play() {
        let (mut a, go, now) = ended_game(true);
        // B5 alive: Black's area shrinks and White wins on komi.
        a.press(Action::Place(go.parse_cell("B5").unwrap()), now);
        a.press(Action::NewGame, now);
        assert_eq!(a.games[0].outcome(), Outcome::Win(Player::X));
        assert_eq!(a.human.as_ref().unwrap().score.computer, 1);
        // Undo while marking: no count, back to play before the pass.
        let (mut b, _, now) = ended_game(true);
        let moves = b.games[0].record.moves.len();
        b.press(Action::Undo, now);
        assert!(!b.marking());
        assert_eq!(b.games[0].status, GameStatus::Playing);
        assert!(b.games[0].dead.is_empty());
        assert!(b.games[0].record.moves.len() < moves);
        assert_eq!(b.totals.finished, 0);
        assert_eq!(b.human.as_ref().unwrap().score, Default::default());
        // One pass is no end: play goes on.
        let (c, _, _) = ended_game(false);
        assert!(!c.marking());
        assert_eq!(c.games[0].status, GameStatus::Playing);
    }
}
