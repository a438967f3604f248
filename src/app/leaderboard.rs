//! The Leaderboard tab's numbers: every finished game of the live screen,
//! per engine and side, and ratings fitted over all of them at once
//! ([`crate::elo::fit_ratings`]): beating Random is worth little.

use crate::elo::{EloEstimate, fit_ratings};
use kxo_engine::EngineKind;
use kxo_engine::{Outcome, Player};

/// Results of one engine on one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Record {
    fn add(&mut self, score: f64) {
        self.games += 1;
        match score {
            s if s > 0.75 => self.wins += 1,
            s if s < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    /// Points per game: a win 1, a draw ½.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games.max(1) as f64
    }
}

/// One engine's line: by side, in all, and its rating fitted over every
/// game (mean 0), with the 95% interval; `None` for an engine that played
/// only itself.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub engine: EngineKind,
    pub as_o: Record,
    pub as_x: Record,
    pub total: Record,
    pub elo: Option<EloEstimate>,
}

#[derive(Clone, Debug, Default)]
pub struct Leaderboard {
    /// Per engine (in `EngineKind::ALL` order) and side.
    records: [[Record; 2]; EngineKind::COUNT],
    /// `results[o][x]`: O's wins, draws and losses in games between them.
    results: [[[u32; 3]; EngineKind::COUNT]; EngineKind::COUNT],
}

impl Leaderboard {
    /// Counts a finished game between `engines` (O's, X's).
    pub fn record(&mut self, engines: [EngineKind; 2], outcome: Outcome) {
        let column = match outcome {
            Outcome::Win(Player::O) => 0,
            Outcome::Win(Player::X) => 2,
            _ => 1,
        };
        self.results[engines[0].index()][engines[1].index()][column] += 1;
        for side in [Player::O, Player::X] {
            let score = match outcome {
                Outcome::Win(p) if p == side => 1.0,
                Outcome::Win(_) => 0.0,
                _ => 0.5,
            };
            self.records[engines[side.index()].index()][side.index()].add(score);
        }
    }

    /// Games counted (each once).
    pub fn games(&self) -> u32 {
        self.records.iter().map(|r| r[0].games).sum()
    }

    /// The engines that played, best score first.
    pub fn standings(&self) -> Vec<Standing> {
        let results: Vec<Vec<[u32; 3]>> = self.results.iter().map(|r| r.to_vec()).collect();
        let fit = fit_ratings(&results);
        let mut rows: Vec<Standing> = EngineKind::ALL
            .iter()
            .enumerate()
            .filter(|(i, _)| self.records[*i].iter().any(|r| r.games > 0))
            .map(|(i, &engine)| {
                let [as_o, as_x] = self.records[i];
                let total = Record {
                    games: as_o.games + as_x.games,
                    wins: as_o.wins + as_x.wins,
                    draws: as_o.draws + as_x.draws,
                    losses: as_o.losses + as_x.losses,
                };
                Standing {
                    engine,
                    as_o,
                    as_x,
                    total,
                    elo: fit.rating[i],
                }
            })
            .collect();
        // Best rating first; engines without one (they met only
        // themselves) last, by score.
        rows.sort_by(|a, b| {
            let key = |s: &Standing| s.elo.map_or(f64::NEG_INFINITY, |e| e.diff);
            key(b)
                .total_cmp(&key(a))
                .then(b.total.score().total_cmp(&a.total.score()))
        });
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_count_for_both_seats_by_side() {
        let mut b = Leaderboard::default();
        let (m, r) = (
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts),
            EngineKind::BuiltIn(kxo_engine::BuiltIn::Random),
        );
        b.record([m, r], Outcome::Win(Player::O));
        b.record([r, m], Outcome::Win(Player::X));
        b.record([m, r], Outcome::Draw);
        b.record([m, m], Outcome::Win(Player::X));
        assert_eq!(b.games(), 4);
        let rows = b.standings();
        let mcts = rows.iter().find(|s| s.engine == m).unwrap();
        assert_eq!(
            mcts.as_o,
            Record {
                games: 3,
                wins: 1,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(
            mcts.as_x,
            Record {
                games: 2,
                wins: 2,
                draws: 0,
                losses: 0
            }
        );
        assert_eq!(mcts.total.games, 5);
        let random = rows.iter().find(|s| s.engine == r).unwrap();
        assert_eq!(
            random.total,
            Record {
                games: 3,
                wins: 0,
                draws: 1,
                losses: 2
            }
        );
        assert_eq!(rows[0].engine, m, "best score first");
        assert!(
            mcts.elo
                .is_some_and(|e| e.lo < e.diff && e.diff < e.hi && e.diff > 0.0)
        );
    }
}
