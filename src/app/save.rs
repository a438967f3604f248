//! Human mode's `s`: the game on the board, finished or not, is handed to
//! the files task as a record (the state writes nothing itself), and its
//! answer, the files written or why not, is said on the panel.

use super::{App, Effect, GameStatus, Loss};
use crate::tournament::{End, GameResult, PlayedGame};
use kxo_engine::{Outcome, Player, Rules};

/// A game the files task is asked to save.
#[derive(Clone, Debug)]
pub struct SaveRequest {
    /// Which request: its answer names it.
    pub id: u64,
    pub game: PlayedGame,
    pub rules: Rules,
    /// Whether the game is over (an unfinished one is saved without a
    /// result).
    pub finished: bool,
}

impl App {
    /// `s`: asks for the game on the board to be saved.
    pub(super) fn request_save(&mut self) -> Vec<Effect> {
        let game = &self.games[0];
        let Some(human) = self.human.as_ref() else {
            return Vec::new();
        };
        if game.record.moves.is_empty() {
            if let Some(h) = self.human.as_mut() {
                h.message = Some("nothing to save yet: no move is played".into());
            }
            return vec![Effect::RedrawNow];
        }
        let finished = matches!(game.status, GameStatus::Over { .. });
        let rules = game.pos.rules();
        let name = |side: Player| match side == human.side {
            true => "YOU".to_string(),
            false => game.labels[side.index()].clone(),
        };
        let (result, end, reason) = match (game.outcome(), &game.forfeit) {
            _ if !finished => (GameResult::Draw, End::Full, "not finished".into()),
            (Outcome::Win(p), Some((_, Loss::Resigned))) => {
                (winner(p), End::Resign, "resigned".into())
            }
            (Outcome::Win(p), Some((_, Loss::Forfeit(why)))) => {
                (winner(p), End::Forfeit, why.clone())
            }
            (Outcome::Win(p), None) if rules.is_go() => {
                let count = game.go_count().map(|s| s.text()).unwrap_or_default();
                (winner(p), End::Score, count)
            }
            (Outcome::Win(p), None) => (winner(p), End::Line, rules.in_a_row()),
            _ if rules.is_go() => (GameResult::Draw, End::Score, "0".into()),
            _ => (GameResult::Draw, End::Full, "board full".into()),
        };
        let request = SaveRequest {
            id: human.save_seq + 1,
            game: PlayedGame {
                // A finished game is in the history already (from 0).
                game: (human.history.len() - usize::from(finished && !human.history.is_empty()))
                    as u32,
                first: name(Player::O),
                second: name(Player::X),
                opening: game.opening,
                moves: game.record.moves.iter().map(|c| c.index() as u16).collect(),
                us: Vec::new(),
                cpu_us: [0; 2],
                result,
                end,
                reason,
                transcripts: Vec::new(),
            },
            rules,
            finished,
        };
        if let Some(h) = self.human.as_mut() {
            h.save_seq = request.id;
            h.save_request = Some(request);
            h.message = Some("saving…".into());
        }
        vec![Effect::Save, Effect::RedrawNow]
    }

    /// The files task's answer to save request `id`: the files written,
    /// or why nothing was.
    pub(super) fn saved(&mut self, id: u64, answer: Result<Vec<String>, String>) -> Vec<Effect> {
        let Some(human) = self.human.as_mut() else {
            return Vec::new();
        };
        if human.save_request.as_ref().is_none_or(|r| r.id != id) {
            return Vec::new();
        }
        human.save_request = None;
        human.message = Some(match answer {
            Ok(files) => format!("saved to {}", files.join(" and ")),
            Err(why) => format!("not saved: {why}"),
        });
        self.touch(false);
        vec![Effect::Redraw]
    }
}

fn winner(p: Player) -> GameResult {
    match p {
        Player::O => GameResult::First,
        Player::X => GameResult::Second,
    }
}
