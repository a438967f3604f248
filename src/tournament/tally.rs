//! A run's results folded in game by game: counts, pairs, the crosstable
//! and the SPRT, never the games themselves. The report
//! ([`super::Report`]) is drawn from the tally, so `arena`'s memory does
//! not grow with `--games`: what a tally holds beyond its counts is the
//! games that arrived out of order (a pair waiting for its second game,
//! or for the pairs before it when the SPRT reads pairs in order), which
//! is about as many as there are threads.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::schedule::{Schedule, Slot};
use super::stats::{Pentanomial, Verdict};
use super::{End, GameResult, PlayedGame, Settings};

/// The forfeits a report lists one by one; past these it gives the count.
pub(super) const LISTED_FORFEITS: usize = 20;

/// The game numbers seen, as a watermark (every game below it seen) and
/// the few seen above it: games finish nearly in order, so this stays
/// small however long the run.
#[derive(Clone, Debug, Default)]
pub struct DoneSet {
    below: u32,
    above: BTreeSet<u32>,
}

impl DoneSet {
    pub fn contains(&self, game: u32) -> bool {
        game < self.below || self.above.contains(&game)
    }

    /// Adds a game; `false` when it was there already.
    pub fn insert(&mut self, game: u32) -> bool {
        if self.contains(game) {
            return false;
        }
        self.above.insert(game);
        while self.above.remove(&self.below) {
            self.below += 1;
        }
        true
    }

    /// Moves the watermark past games that are not this set's to see
    /// (another shard's), so that they do not keep it down.
    pub fn skip_while(&mut self, mut not_ours: impl FnMut(u32) -> bool, end: u32) {
        while self.below < end && (not_ours(self.below) || self.above.contains(&self.below)) {
            self.above.remove(&self.below);
            self.below += 1;
        }
    }

    pub fn len(&self) -> u64 {
        self.below as u64 + self.above.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What a report needs of one game.
#[derive(Clone, Debug)]
struct Summary {
    slot: Slot,
    result: GameResult,
    /// Each side's own moves (after the opening) and their time (µs),
    /// first player first.
    moves: [(u64, u64); 2],
    /// Each side's CPU time (µs), first player first.
    cpu_us: [u64; 2],
    /// "game 3: mine (X) forfeits: …" for a forfeit or a loss on time.
    forfeit: Option<(usize, End, String)>,
}

impl Summary {
    fn new(game: &PlayedGame, slot: Slot) -> Summary {
        let mut moves = [(0u64, 0u64); 2];
        for (i, us) in game.us.iter().enumerate().skip(game.opening) {
            // The first player's moves are the even ones, whoever placed
            // the opening.
            let side = &mut moves[i % 2];
            side.0 += 1;
            side.1 = side.1.saturating_add(*us);
        }
        let forfeit = match game.end {
            End::Forfeit | End::Time => {
                let loser = match game.result {
                    GameResult::First => slot.second,
                    _ => slot.first,
                };
                Some((
                    loser,
                    game.end,
                    format!("game {}: {}", game.number(), game.reason),
                ))
            }
            End::Line | End::Full | End::Score | End::Resign => None,
        };
        Summary {
            slot,
            result: game.result,
            moves,
            cpu_us: game.cpu_us,
            forfeit,
        }
    }

    /// Half points for the game's first player.
    fn first_points(&self) -> u32 {
        match self.result {
            GameResult::First => 2,
            GameResult::Draw => 1,
            GameResult::Second => 0,
        }
    }
}

/// Score samples (a pair's mean score, or a lone game's) as sums: the
/// Elo estimate needs their count, sum and sum of squares only.
#[derive(Clone, Copy, Debug, Default)]
pub struct Samples {
    pub n: u64,
    pub sum: f64,
    pub sum_sq: f64,
}

impl Samples {
    fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    pub fn estimate(&self) -> Option<crate::elo::EloEstimate> {
        crate::elo::elo_from_sums(self.n, self.sum, self.sum_sq)
    }
}

/// What one engine did.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Wins, draws, losses.
    pub wdl: [u32; 3],
    /// Its own moves (after the opening) and their thinking time (µs).
    pub moves: u64,
    pub us: u64,
    /// The CPU time it used (µs): its thread's, or its brain's process's.
    pub cpu_us: u64,
    pub samples: Samples,
    pub pentanomial: Pentanomial,
    /// Wins, draws, losses as the first player (O) and as the second (X).
    pub by_side: [[u32; 3]; 2],
    /// Games it lost by failing (a brain that crashed, cheated, was late)
    /// and on its match clock.
    pub forfeits: u32,
    pub time_losses: u32,
}

/// What two engines did against each other, from the first's side.
#[derive(Clone, Debug, Default)]
pub struct Meeting {
    pub pentanomial: Pentanomial,
    pub samples: Samples,
    /// The first engine's wins, draws, losses.
    pub wdl: [u32; 3],
}

/// The counted games, folded.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    pub games: u32,
    pub first_wins: u32,
    pub second_wins: u32,
    pub draws: u32,
    pub engines: Vec<EngineTally>,
    pub meetings: HashMap<(usize, usize), Meeting>,
    pub forfeits: Vec<String>,
    pub more_forfeits: u32,
}

/// Where the SPRT stands: the complete pairs in order, as far as every
/// game of them is finished.
#[derive(Clone, Debug, Default)]
pub struct SprtProgress {
    pub pentanomial: Pentanomial,
    /// The next pair it reads.
    next_pair: u32,
    /// The pair after which the test was decided.
    pub decided: Option<u32>,
}

/// A run's results so far.
#[derive(Clone, Debug)]
pub struct Tally {
    pub settings: Settings,
    schedule: Schedule,
    done: DoneSet,
    /// Games of pairs not yet folded in: a pair missing a game, or (with
    /// the SPRT) a pair whose turn has not come.
    pending: BTreeMap<u32, Vec<Summary>>,
    counts: Counts,
    sprt: SprtProgress,
    /// The shards whose games this tally sees (a shard's run, or a merge
    /// of some of them): `(count, indices)`; `None` for the whole run.
    shards: Option<(u32, BTreeSet<u32>)>,
    /// The SPRT may stop the run: not in a shard's own run, where the
    /// test is `arena merge`'s, over every shard's pairs.
    sprt_stops: bool,
}

impl Tally {
    /// An empty tally of a run with `settings` (checked).
    pub fn new(settings: Settings) -> Tally {
        let engines = settings.engines.len();
        Tally {
            schedule: Schedule::new(&settings),
            settings,
            done: DoneSet::default(),
            pending: BTreeMap::new(),
            counts: Counts {
                engines: vec![EngineTally::default(); engines],
                ..Counts::default()
            },
            sprt: SprtProgress::default(),
            shards: None,
            sprt_stops: true,
        }
    }

    /// A shard's own run: its SPRT counts its pairs for its report, and
    /// never stops it; `arena merge` of the shards decides the test.
    pub fn leave_sprt_to_merge(&mut self) {
        self.sprt_stops = false;
    }

    /// Whether the SPRT decides this tally's run (not a shard's own).
    pub fn sprt_stops(&self) -> bool {
        self.sprt_stops
    }

    /// Sees only the games of these shards (all of the same count).
    pub fn restrict_to(&mut self, shards: &[super::Shard]) {
        if let Some(first) = shards.first() {
            let indices = shards.iter().map(|s| s.index).collect();
            self.shards = Some((first.count, indices));
        }
    }

    /// Whether game `game` is one this tally is to see.
    pub fn in_scope(&self, slot: &Slot) -> bool {
        match &self.shards {
            None => true,
            Some((count, indices)) => indices.contains(&(slot.pair % count + 1)),
        }
    }

    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The games seen so far (counted or not).
    pub fn done(&self) -> &DoneSet {
        &self.done
    }

    pub fn done_mut(&mut self) -> &mut DoneSet {
        &mut self.done
    }

    /// The pair after which the SPRT stopped the run, if it did.
    pub fn decided(&self) -> Option<u32> {
        self.sprt.decided
    }

    pub fn sprt(&self) -> &SprtProgress {
        &self.sprt
    }

    /// Folds in a finished game. `Ok(false)` when it is not counted: seen
    /// already (a game found twice counts once), or after the pair where
    /// the SPRT stopped the run. A game that is not the schedule's (its
    /// number, its engines) is refused.
    pub fn add(&mut self, game: &PlayedGame) -> Result<bool, String> {
        let slot = self.check(game)?;
        if !self.done.insert(game.game) {
            return Ok(false);
        }
        if self.shards.is_some() {
            let (schedule, shards) = (&self.schedule, &self.shards);
            let len = schedule.len();
            self.done.skip_while(
                |g| {
                    let Some(slot) = schedule.slot(g) else {
                        return false;
                    };
                    !matches!(shards, Some((count, indices)) if indices.contains(&(slot.pair % count + 1)))
                },
                len,
            );
        }
        if self.sprt.decided.is_some_and(|d| slot.pair > d) {
            return Ok(false);
        }
        let pair = slot.pair;
        let games = self.pending.entry(pair).or_default();
        games.push(Summary::new(game, slot));
        // In game order, whichever thread finished first.
        games.sort_by_key(|g| g.slot.game);
        let complete = games.len() as u32 == self.schedule.pair_len(pair);
        if self.settings.sprt.is_some() {
            self.advance_sprt();
        } else if complete && let Some(games) = self.pending.remove(&pair) {
            self.counts.fold(&games);
        }
        Ok(true)
    }

    /// The game's slot, if the game is one the schedule holds.
    fn check(&self, game: &PlayedGame) -> Result<Slot, String> {
        let slot = self
            .schedule
            .slot(game.game)
            .ok_or_else(|| format!("game {} is not one of this run's", game.number()))?;
        let names = &self.settings.engines;
        if names[slot.first].name != game.first || names[slot.second].name != game.second {
            return Err(format!(
                "game {} is not one of this run's: other engines",
                game.number()
            ));
        }
        if game.reason.len() > super::MAX_REASON || !super::plain(&game.reason) {
            return Err(format!(
                "game {}'s reason is too long or holds a control character",
                game.number()
            ));
        }
        let cells = self.settings.size as usize * self.settings.size as usize;
        // Go's stones come and go, and a move may be a pass.
        let go = self.settings.rule == kxo_engine::Rule::Go;
        let most = if go {
            super::GO_MOVES_PER_CELL * cells
        } else {
            cells
        };
        let on_board = |c: u16| (c as usize) < cells || (go && kxo_engine::Cell::new(c).is_pass());
        if game.moves.len() > most
            || game.us.len() != game.moves.len()
            || game.opening > game.moves.len()
            || game.moves.iter().any(|&c| !on_board(c))
        {
            return Err(format!("game {} holds moves no game can", game.number()));
        }
        Ok(slot)
    }

    /// Folds in the complete pairs whose turn has come, in order, while
    /// the SPRT is not decided; then drops what comes after the decision.
    fn advance_sprt(&mut self) {
        let Some(sprt) = self.settings.sprt else {
            return;
        };
        let pairs = self
            .schedule
            .slot(self.schedule.len().saturating_sub(1))
            .map_or(0, |s| s.pair + 1);
        while self.sprt.decided.is_none() {
            // Pairs no shard of this tally plays are not waited for.
            if let Some((count, indices)) = &self.shards {
                while self.sprt.next_pair < pairs
                    && !indices.contains(&(self.sprt.next_pair % count + 1))
                {
                    self.sprt.next_pair += 1;
                }
            }
            let pair = self.sprt.next_pair;
            let complete = self
                .pending
                .get(&pair)
                .is_some_and(|g| g.len() as u32 == self.schedule.pair_len(pair));
            if !complete {
                break;
            }
            let Some(games) = self.pending.remove(&pair) else {
                break;
            };
            // From engine 0's side; a pair of one game counts twice.
            let half: u32 = games
                .iter()
                .map(|g| {
                    let p = g.first_points();
                    if g.slot.first == 0 { p } else { 2 - p }
                })
                .sum();
            self.sprt
                .pentanomial
                .add(if games.len() == 1 { half * 2 } else { half });
            self.counts.fold(&games);
            self.sprt.next_pair += 1;
            if self.sprt_stops
                && sprt.verdict(sprt.llr(&self.sprt.pentanomial)) != Verdict::Continue
            {
                self.sprt.decided = Some(pair);
                self.pending.retain(|&p, _| p <= pair);
            }
        }
    }

    /// The counts as they stand, with the games still waiting for their
    /// pair folded in as they are (a pair cut short counts the games it
    /// has).
    pub fn counts(&self) -> Counts {
        let mut counts = self.counts.clone();
        for games in self.pending.values() {
            counts.fold(games);
        }
        counts
    }

    /// First-player wins, second-player wins and draws of every game
    /// seen (counted or waiting), without building the counts.
    pub fn counts_cheap(&self) -> [u32; 3] {
        let mut out = [
            self.counts.first_wins,
            self.counts.second_wins,
            self.counts.draws,
        ];
        for g in self.pending.values().flatten() {
            out[g.result as usize] += 1;
        }
        out
    }

    /// Games waiting for their pair (bounded by how far out of order
    /// games arrive).
    pub fn waiting(&self) -> usize {
        self.pending.values().map(Vec::len).sum()
    }
}

impl Counts {
    /// Adds one pair's finished games (one or two).
    fn fold(&mut self, played: &[Summary]) {
        for g in played {
            self.games = self.games.saturating_add(1);
            match g.result {
                GameResult::First => self.first_wins += 1,
                GameResult::Second => self.second_wins += 1,
                GameResult::Draw => self.draws += 1,
            }
            if let Some((loser, end, text)) = &g.forfeit {
                let tally = &mut self.engines[*loser];
                match end {
                    End::Time => tally.time_losses += 1,
                    _ => tally.forfeits += 1,
                }
                if self.forfeits.len() < LISTED_FORFEITS {
                    self.forfeits.push(text.clone());
                } else {
                    self.more_forfeits += 1;
                }
            }
            let p = g.first_points();
            for (side, (engine, points)) in [(g.slot.first, p), (g.slot.second, 2 - p)]
                .into_iter()
                .enumerate()
            {
                let tally = &mut self.engines[engine];
                tally.wdl[2 - points as usize] += 1;
                tally.by_side[side][2 - points as usize] += 1;
                tally.moves += g.moves[side].0;
                tally.us = tally.us.saturating_add(g.moves[side].1);
                tally.cpu_us = tally.cpu_us.saturating_add(g.cpu_us[side]);
            }
        }
        let Some(first) = played.first() else {
            return;
        };
        let (a, b) = (
            first.slot.first.min(first.slot.second),
            first.slot.first.max(first.slot.second),
        );
        let a_half: u32 = played
            .iter()
            .map(|g| {
                let p = g.first_points();
                if g.slot.first == a { p } else { 2 - p }
            })
            .sum();
        let meeting = self.meetings.entry((a, b)).or_default();
        if played.len() == 2 {
            self.engines[a].pentanomial.add(a_half);
            self.engines[b].pentanomial.add(4 - a_half);
            meeting.pentanomial.add(a_half);
        }
        // Elo samples: a whole pair is one sample, a lone game its own.
        let sample = a_half as f64 / (2.0 * played.len() as f64);
        self.engines[a].samples.add(sample);
        self.engines[b].samples.add(1.0 - sample);
        meeting.samples.add(sample);
        for g in played {
            let a_points = if g.slot.first == a {
                g.first_points()
            } else {
                2 - g.first_points()
            };
            meeting.wdl[2 - a_points as usize] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_done_set_stays_small_when_games_come_nearly_in_order() {
        let mut done = DoneSet::default();
        for g in 0..100_000u32 {
            // Neighbours swapped: games finish out of order, a little.
            let game = g ^ 1;
            assert!(done.insert(game));
            assert!(done.above.len() <= 1);
        }
        assert!(!done.insert(5));
        assert_eq!(done.len(), 100_000);
        assert!(done.contains(99_999) && !done.contains(100_000));
        // Another shard's games do not hold the watermark down.
        let mut shard = DoneSet::default();
        for g in (0..1000u32).filter(|g| g % 4 == 1) {
            shard.insert(g);
            shard.skip_while(|g| g % 4 != 1, 1000);
        }
        assert!(shard.above.is_empty());
    }
}
