//! Elo differences from game results, for `arena` and the Leaderboard tab.

/// The Elo difference that makes `score` (0 to 1) the expected score.
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// An Elo difference and the bounds of its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub diff: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Elo difference from per-game scores (1, ½, 0) with its 95% interval
/// (normal approximation of the mean score, mapped through the Elo curve,
/// so the interval is not symmetric). `None` when the mean score is 0 or
/// 1: the difference is then unbounded.
pub fn elo_estimate(scores: &[f64]) -> Option<EloEstimate> {
    let sum = scores.iter().sum();
    let sum_sq = scores.iter().map(|s| s * s).sum();
    elo_from_sums(scores.len() as u64, sum, sum_sq)
}

/// [`elo_estimate`] from the scores' count, sum and sum of squares: all a
/// long run needs to keep.
pub fn elo_from_sums(count: u64, sum: f64, sum_sq: f64) -> Option<EloEstimate> {
    if count == 0 {
        return None;
    }
    let n = count as f64;
    let mean = sum / n;
    if mean <= 0.0 || mean >= 1.0 {
        return None;
    }
    let var = (sum_sq / n - mean * mean).max(0.0);
    let se = (var / n).sqrt();
    let clamp = |p: f64| p.clamp(1e-6, 1.0 - 1e-6);
    // `+ 0.0` turns the -0 of an even score into 0.
    Some(EloEstimate {
        diff: elo(mean) + 0.0,
        lo: elo(clamp(mean - 1.96 * se)) + 0.0,
        hi: elo(clamp(mean + 1.96 * se)) + 0.0,
    })
}
