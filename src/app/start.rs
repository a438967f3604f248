//! How a game on the live screen starts: its engines and names, the
//! tournament game it plays, and its opening; and how a finished
//! tournament game is counted.

use super::{App, GameView, Player};
use kxo_engine::EngineKind;
use kxo_engine::{AnyPosition, Cell, GameRecord, Outcome};

/// How far the tournament the screen shows has got.
#[derive(Clone, Debug)]
pub struct TournamentProgress {
    /// The next game of the plan to start.
    pub(super) next: u32,
    /// Its finished games, folded.
    pub tally: crate::tournament::Tally,
    pub report: crate::tournament::Report,
}

/// What a game starts with: its engines, their names, the tournament game
/// it is, and the opening's stones.
pub(super) struct Start {
    pub(super) rules: kxo_engine::Rules,
    pub(super) engines: [EngineKind; 2],
    pub(super) labels: [String; 2],
    pub(super) slot: Option<crate::tournament::Slot>,
    /// Each side's clock, first player's first.
    pub(super) limits: [kxo_engine::Limit; 2],
    pub(super) opening: Vec<Cell>,
}

impl TournamentProgress {
    /// Whether every game of the tournament has finished.
    pub fn finished(&self) -> bool {
        self.tally.done().len() >= self.tally.schedule().len() as u64
    }
}

impl App {
    /// What game `index` plays next (its round `generation`): the
    /// tournament's next game, or a fresh pair of engines; on boards above
    /// 8x8 from an opening of its own, so that no two games are alike.
    /// `None` when the tournament has no game left.
    pub(super) fn next_start(&mut self, index: usize, generation: u64) -> Option<Start> {
        if let (Some(plan), Some(progress)) = (&self.config.tournament, &mut self.tournament) {
            let slot = plan.schedule.slot(progress.next)?;
            progress.next += 1;
            let specs = [&plan.specs[slot.first], &plan.specs[slot.second]];
            return Some(Start {
                rules: self.config.rules,
                engines: specs.map(|s| s.kind()),
                labels: specs.map(|s| s.name.clone()),
                slot: Some(slot),
                limits: specs.map(|s| s.limit(self.config.limit, self.config.rules)),
                opening: plan.opening(&slot),
            });
        }
        if let Some(start) = self.show_start(index, generation) {
            return Some(start);
        }
        let engines = self.pick_engines();
        let rules = self.config.rules;
        let opening = if rules.is_small() || self.human.is_some() {
            Vec::new()
        } else {
            crate::tournament::opening::random(rules, self.engine_seed(index, 2, generation))
        };
        Some(Start {
            rules,
            labels: [Player::O, Player::X].map(|side| {
                self.config
                    .seat_label(engines[side.index()], side)
                    .to_string()
            }),
            limits: [Player::O, Player::X]
                .map(|side| self.resolved_limit(engines[side.index()], side, rules)),
            engines,
            slot: None,
            opening,
        })
    }

    /// The limit a move of a seat of `kind` on `side`, on `rules`: the
    /// run's limit resolved for its engine ([`crate::engines::EngineSpec::limit`]).
    fn resolved_limit(
        &self,
        kind: EngineKind,
        side: Player,
        rules: kxo_engine::Rules,
    ) -> kxo_engine::Limit {
        let engine = match (kind.built_in(), self.config.seat(side)) {
            (Some(built_in), _) => built_in.into(),
            (None, Some(fixed)) => fixed.clone(),
            (None, None) => return kxo_engine::Limit::Whole,
        };
        crate::engines::EngineSpec::for_seat(engine).limit(self.config.limit, rules)
    }

    /// The default show's next game for box `index`: the board of the mix
    /// whose turn it is (among those a box can show), its two engines on
    /// sides drawn at random, and its opening.
    fn show_start(&mut self, index: usize, generation: u64) -> Option<Start> {
        use rand::RngExt;
        let variant = self
            .config
            .show
            .as_ref()?
            .pick(index, generation, self.fits)?
            .clone();
        let swap = self.rng.random_bool(0.5);
        let order = if swap { [1, 0] } else { [0, 1] };
        let engines = order.map(|i| variant.engines[i].kind());
        let mut limits = order.map(|i| variant.limits[i]);
        if let kxo_engine::Limit::Time(t) = &mut limits[1] {
            *t = t.saturating_mul(variant.x_odds.max(1));
        }
        Some(Start {
            rules: variant.rules,
            labels: engines.map(|e| e.label().to_string()),
            engines,
            slot: None,
            limits,
            opening: super::show::opening(&variant, self.engine_seed(index, 2, generation)),
        })
    }
}

/// A game's position and record after its opening's stones.
pub(super) fn start_position(
    rules: kxo_engine::Rules,
    opening: &[Cell],
) -> (AnyPosition, GameRecord) {
    let mut record = GameRecord::new(rules);
    match AnyPosition::from_moves(rules, opening) {
        Ok(pos) => {
            record.moves = opening.to_vec();
            (pos, record)
        }
        Err(_) => (AnyPosition::new(rules), record),
    }
}

/// A finished tournament game as the tournament's report counts it.
pub(super) fn played_game(
    game: &GameView,
    slot: crate::tournament::Slot,
    outcome: Outcome,
) -> crate::tournament::PlayedGame {
    use crate::tournament::{End, GameResult};
    let (end, reason) = match (&game.forfeit, outcome) {
        (Some((loser, loss)), _) => (
            match loss {
                super::Loss::Forfeit(_) => End::Forfeit,
                super::Loss::Resigned => End::Resign,
                super::Loss::Time => End::Time,
            },
            format!("{} ({loser}) {}", game.labels[loser.index()], loss.phrase()),
        ),
        (None, _) if game.pos.rules().is_go() => (
            End::Score,
            game.go_count().map_or_else(String::new, |s| s.text()),
        ),
        (None, Outcome::Win(_)) => (End::Line, game.pos.rules().in_a_row()),
        _ => (End::Full, "board full".into()),
    };
    crate::tournament::PlayedGame {
        game: slot.game,
        first: game.labels[0].clone(),
        second: game.labels[1].clone(),
        opening: game.opening,
        moves: game.record.moves.iter().map(|c| c.index() as u16).collect(),
        us: (0..game.record.moves.len())
            .map(|i| game.move_cpu.get(i).map_or(0, |t| t.as_micros() as u64))
            .collect(),
        // The live screen charges each move the seat's CPU time.
        cpu_us: [0, 1].map(|side| {
            let moves = game.move_cpu.iter().skip(game.opening);
            let own = moves
                .enumerate()
                .filter(|(i, _)| (game.opening + i) % 2 == side);
            own.map(|(_, t)| t.as_micros() as u64).sum()
        }),
        result: match outcome {
            Outcome::Win(Player::O) => GameResult::First,
            Outcome::Win(Player::X) => GameResult::Second,
            _ => GameResult::Draw,
        },
        end,
        reason,
        transcripts: Vec::new(),
    }
}
