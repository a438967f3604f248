//! Elo differences from game results, for `arena` and the Leaderboard tab.

/// The Elo difference that makes `score` (0 to 1) the expected score.
pub(crate) fn elo(score: f64) -> f64 {
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
/// 1: the difference is then unbounded. (Runs keep only sums and use
/// [`elo_from_sums`]; the tests start from the scores.)
#[cfg(test)]
pub(crate) fn elo_estimate(scores: &[f64]) -> Option<EloEstimate> {
    let sum = scores.iter().sum();
    let sum_sq = scores.iter().map(|s| s * s).sum();
    elo_from_sums(scores.len() as u64, sum, sum_sq)
}

/// [`elo_estimate`] from the scores' count, sum and sum of squares: all a
/// long run needs to keep.
pub(crate) fn elo_from_sums(count: u64, sum: f64, sum_sq: f64) -> Option<EloEstimate> {
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

/// Ratings fitted over all games at once, as BayesElo and Ordo do: the
/// logistic Elo model's maximum-likelihood ratings (a draw half a win),
/// their mean 0, each with its 95% interval from the likelihood's
/// curvature. Every pairing that met gets one virtual draw (a prior), so
/// an engine that won every game still has a finite rating, and beating
/// a weak engine is worth little: the fit knows whom each engine met.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ratings {
    /// Per engine: its rating and the bounds of its 95% interval; `None`
    /// for an engine that met no other.
    pub rating: Vec<Option<EloEstimate>>,
}

/// `results[i][j]` holds engine `i`'s wins, draws and losses in games
/// against engine `j` that were counted there (each game once, under
/// either engine; `results[j][i]` holds the others). Games of an engine
/// against itself are ignored.
pub(crate) fn fit_ratings(results: &[Vec<[u32; 3]>]) -> Ratings {
    let n = results.len();
    let c = std::f64::consts::LN_10 / 400.0;
    // Points of i against j (with the prior's half point each way) and
    // games between them.
    let mut points = vec![vec![0.0f64; n]; n];
    let mut games = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let [w, d, l] = results[i][j];
            let [w2, d2, l2] = results[j][i];
            let met = (w + d + l + w2 + d2 + l2) as f64;
            if met > 0.0 {
                points[i][j] = w as f64 + l2 as f64 + 0.5 * (d + d2) as f64 + 0.5;
                games[i][j] = met + 1.0;
            }
        }
    }
    let played: Vec<bool> = (0..n).map(|i| games[i].iter().any(|&g| g > 0.0)).collect();
    let expected = |r: &[f64], i: usize, j: usize| 1.0 / (1.0 + (-c * (r[i] - r[j])).exp());
    // Newton's method on the log-likelihood, ratings centred each step.
    let mut r = vec![0.0f64; n];
    for _ in 0..100 {
        let mut gradient = vec![0.0; n];
        let mut hessian = vec![vec![0.0; n]; n];
        for i in 0..n {
            for j in 0..n {
                if games[i][j] == 0.0 {
                    continue;
                }
                let e = expected(&r, i, j);
                gradient[i] += c * (points[i][j] - games[i][j] * e);
                let h = c * c * games[i][j] * e * (1.0 - e);
                hessian[i][i] += h;
                hessian[i][j] -= h;
            }
        }
        let Some(step) = solve_centred(&hessian, &gradient, &played) else {
            break;
        };
        let mut largest: f64 = 0.0;
        for i in 0..n {
            r[i] += step[i].clamp(-400.0, 400.0);
            largest = largest.max(step[i].abs());
        }
        centre(&mut r, &played);
        if largest < 1e-6 {
            break;
        }
    }
    // The covariance: the information matrix's inverse on ratings of mean 0.
    let mut info = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if games[i][j] > 0.0 {
                let e = expected(&r, i, j);
                let h = c * c * games[i][j] * e * (1.0 - e);
                info[i][i] += h;
                info[i][j] -= h;
            }
        }
    }
    let rating = (0..n)
        .map(|i| {
            if !played[i] {
                return None;
            }
            let mut unit = vec![0.0; n];
            unit[i] = 1.0;
            let column = solve_centred(&info, &unit, &played)?;
            let se = column[i].max(0.0).sqrt();
            Some(EloEstimate {
                diff: r[i] + 0.0,
                lo: r[i] - 1.96 * se,
                hi: r[i] + 1.96 * se,
            })
        })
        .collect();
    Ratings { rating }
}

/// Shifts the ratings of the engines that played to mean 0.
fn centre(r: &mut [f64], played: &[bool]) {
    let k = played.iter().filter(|&&p| p).count().max(1) as f64;
    let mean: f64 = r
        .iter()
        .zip(played)
        .filter(|(_, p)| **p)
        .map(|(x, _)| x)
        .sum::<f64>()
        / k;
    for (x, p) in r.iter_mut().zip(played) {
        *x = if *p { *x - mean } else { 0.0 };
    }
}

/// Solves `h x = b` for `x` of mean 0 over the engines that played (`h` is
/// a graph Laplacian: singular along the all-ones direction, which adding
/// `J / k` removes), by Gaussian elimination. `None` when the engines that
/// played do not all connect.
fn solve_centred(h: &[Vec<f64>], b: &[f64], played: &[bool]) -> Option<Vec<f64>> {
    let idx: Vec<usize> = (0..h.len()).filter(|&i| played[i]).collect();
    let k = idx.len();
    if k == 0 {
        return Some(vec![0.0; h.len()]);
    }
    let scale = h
        .iter()
        .map(|row| row.iter().map(|x| x.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    let shift = scale.max(1e-12) / k as f64;
    let mut a: Vec<Vec<f64>> = idx
        .iter()
        .map(|&i| {
            let mut row: Vec<f64> = idx.iter().map(|&j| h[i][j] + shift).collect();
            row.push(b[i]);
            row
        })
        .collect();
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 * scale.max(1e-12) {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col].clone();
        for (row, line) in a.iter_mut().enumerate() {
            if row != col {
                let f = line[col] / pivot_row[col];
                for (x, p) in line.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut out = vec![0.0; h.len()];
    for (row, &i) in idx.iter().enumerate() {
        out[i] = a[row][k] / a[row][row];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_engines_fit_to_the_elo_of_their_score() {
        // 60 wins, 20 draws, 20 losses: 70% (plus the virtual draw).
        let ratings = fit_ratings(&[vec![[0; 3], [60, 20, 20]], vec![[0; 3], [0; 3]]]);
        let a = ratings.rating[0].unwrap();
        let b = ratings.rating[1].unwrap();
        let score = (60.0 + 10.0 + 0.5) / 101.0;
        assert!((a.diff - b.diff - elo(score)).abs() < 0.5, "{a:?} {b:?}");
        assert!((a.diff + b.diff).abs() < 1e-6);
        assert!(a.lo < a.diff && a.diff < a.hi);
    }

    #[test]
    fn beating_a_weak_engine_is_worth_less_than_beating_a_strong_one() {
        // A beats Random 9 of 10 and draws the perfect player 10 of 10; B
        // beats Random 10 of 10 and loses to the perfect player 10 of 10.
        // A performance against "the engines met" puts B level with A;
        // the fit puts A well above B.
        let (a, b, random, perfect) = (0, 1, 2, 3);
        let mut r = vec![vec![[0u32; 3]; 4]; 4];
        r[a][random] = [9, 1, 0];
        r[a][perfect] = [0, 10, 0];
        r[b][random] = [10, 0, 0];
        r[perfect][b] = [10, 0, 0];
        let fit = fit_ratings(&r);
        let get = |i: usize| fit.rating[i].unwrap().diff;
        assert!(get(a) > get(b) + 100.0, "{fit:?}");
        assert!(get(perfect) > get(a) && get(random) < get(b), "{fit:?}");
        // An engine that met nobody has no rating.
        let alone = fit_ratings(&[vec![[0; 3]; 2], vec![[0; 3]; 2]]);
        assert_eq!(alone.rating, vec![None, None]);
    }
}
