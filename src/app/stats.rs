//! What the finished games of the live screen were like, for the show's
//! account of itself: their lengths and how many repeated a recent game
//! move for move. Bounded, however long the screen runs.

use std::collections::{HashSet, VecDeque};
use std::hash::{Hash, Hasher};

use kxo_engine::Cell;

/// Recent games remembered to tell a repeat.
const RECENT: usize = 4096;
/// Game lengths counted exactly up to this many plies (20x20 has 400).
const LONGEST: usize = 401;

/// The finished games' lengths and repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Story {
    /// Games of each length in plies (the last bin: that many or more).
    lengths: Vec<u64>,
    /// The move lists of the last [`RECENT`] games, as hashes.
    recent: VecDeque<u64>,
    seen: HashSet<u64>,
    /// Games that repeated one of the recent ones.
    pub repeats: u64,
    pub games: u64,
}

impl Default for Story {
    fn default() -> Story {
        Story {
            lengths: vec![0; LONGEST],
            recent: VecDeque::new(),
            seen: HashSet::new(),
            repeats: 0,
            games: 0,
        }
    }
}

impl Story {
    /// Counts a finished game of these moves (the opening's included).
    pub fn record(&mut self, moves: &[Cell]) {
        self.games += 1;
        self.lengths[moves.len().min(LONGEST - 1)] += 1;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        moves.len().hash(&mut h);
        for m in moves {
            m.index().hash(&mut h);
        }
        let key = h.finish();
        if self.seen.contains(&key) {
            self.repeats += 1;
            return;
        }
        if self.recent.len() == RECENT
            && let Some(old) = self.recent.pop_front()
        {
            self.seen.remove(&old);
        }
        self.recent.push_back(key);
        self.seen.insert(key);
    }

    /// The median game length in plies, once a game has finished.
    pub fn median_plies(&self) -> Option<usize> {
        let half = self.games.div_ceil(2);
        let mut count = 0;
        for (plies, &n) in self.lengths.iter().enumerate() {
            count += n;
            if count >= half && self.games > 0 {
                return Some(plies);
            }
        }
        None
    }

    /// The share of games that were not a repeat of a recent one.
    pub fn distinct_share(&self) -> f64 {
        match self.games {
            0 => 1.0,
            n => 1.0 - self.repeats as f64 / n as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_give_the_median_and_repeats_are_counted() {
        let mut s = Story::default();
        assert_eq!(s.median_plies(), None);
        let game = |n: usize, shift: usize| -> Vec<Cell> {
            (0..n).map(|i| Cell::new((i + shift) as u16)).collect()
        };
        for (n, shift) in [(5, 0), (9, 0), (16, 0), (9, 1), (9, 0)] {
            s.record(&game(n, shift));
        }
        assert_eq!(s.games, 5);
        assert_eq!(s.repeats, 1);
        assert_eq!(s.median_plies(), Some(9));
        assert!((s.distinct_share() - 0.8).abs() < 1e-12);
    }
}
