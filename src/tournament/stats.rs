//! The statistics of paired games: pentanomial counts, an Elo difference
//! with its interval, and the sequential probability ratio test.
//!
//! Each opening is played twice with colours swapped; the two games are
//! one sample. Scoring a loss 0, a draw ½ and a win 1, a pair scores 0,
//! ½, 1, 1½ or 2: LL, LD, DD or WL, WD, WW. The pairs are far less
//! correlated than the games inside them (an opening that favours one
//! colour favours each engine once), so the variance of the pair scores
//! gives an honest interval where the per-game one would be too narrow
//! or too wide.

use serde::{Deserialize, Serialize};

#[cfg(test)]
use crate::elo::{EloEstimate, elo_estimate};

/// Pair outcomes from one engine's side: `[LL, LD, DD+WL, WD, WW]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair whose two games scored `points` (0, 1, 2, 3 or 4 half
    /// points) for the engine.
    pub fn add(&mut self, half_points: u32) {
        self.0[half_points.min(4) as usize] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The same counts from the other engine's side.
    #[cfg(test)]
    pub fn flipped(&self) -> Pentanomial {
        let mut f = self.0;
        f.reverse();
        Pentanomial(f)
    }

    /// The pair scores, each 0 to 1 (the mean of its two games).
    #[cfg(test)]
    fn pair_scores(&self) -> Vec<f64> {
        self.0
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| std::iter::repeat_n(i as f64 / 4.0, n as usize))
            .collect()
    }

    /// Elo difference and its 95% interval from the pair scores.
    #[cfg(test)]
    pub fn elo(&self) -> Option<EloEstimate> {
        elo_estimate(&self.pair_scores())
    }

    /// The share of pairs in each bin; an empty bin counts as 0.001 of a
    /// pair (as fastchess does), so no outcome is impossible.
    fn regularized(&self) -> Option<[f64; 5]> {
        if self.pairs() == 0 {
            return None;
        }
        let counts = self.0.map(|c| if c == 0 { 1e-3 } else { c as f64 });
        let n: f64 = counts.iter().sum();
        Some(counts.map(|c| c / n))
    }

    /// The mean score and the variance of a pair's score, each pair a
    /// sample in 0..=1 (the normal approximation's figures, for the tests).
    #[cfg(test)]
    fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let p = self.regularized()?;
        let mean: f64 = (0..5).map(|i| p[i] * i as f64 / 4.0).sum();
        let var: f64 = (0..5).map(|i| p[i] * (i as f64 / 4.0 - mean).powi(2)).sum();
        Some((mean, var))
    }
}

/// What the SPRT's Elo bounds mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Normalized Elo (nElo): the score's distance from ½ in units of its
    /// spread, so a bound means the same however drawish the games are.
    /// fastchess's and fishtest's default.
    Normalized,
    /// Logistic Elo: the score a rating difference predicts.
    Logistic,
}

/// Old state files, written before the model was a setting, meant
/// logistic Elo.
fn logistic() -> EloModel {
    EloModel::Logistic
}

/// `--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized`: H0 "the
/// first engine is `elo0` stronger" against H1 "`elo1` stronger", in
/// normalized Elo unless `model=logistic` says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    #[serde(default = "logistic")]
    pub model: EloModel,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// H1 accepted: the first engine is stronger by about `elo1`.
    H1,
    /// H0 accepted: it is not stronger by `elo1`.
    H0,
    /// Neither bound crossed yet.
    Continue,
}

impl Sprt {
    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05` (any order; alpha and
    /// beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
        };
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = part.split_once('=').ok_or_else(|| {
                format!(
                    "'{}' is not key=value: write elo0=0,elo1=10,alpha=0.05,beta=0.05",
                    kxo_engine::text::shown(part)
                )
            })?;
            if key.trim() == "model" {
                sprt.model = match value.trim() {
                    "normalized" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    other => {
                        return Err(format!(
                            "model '{}' is not one: use model=normalized or model=logistic",
                            kxo_engine::text::shown(other)
                        ));
                    }
                };
                continue;
            }
            let value: f64 = value
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| {
                    format!(
                        "{}: '{}' is not a number",
                        key.trim(),
                        kxo_engine::text::shown(value)
                    )
                })?;
            match key.trim() {
                "elo0" => sprt.elo0 = value,
                "elo1" => sprt.elo1 = value,
                "alpha" => sprt.alpha = value,
                "beta" => sprt.beta = value,
                other => {
                    return Err(format!(
                        "unknown SPRT setting '{}': use elo0, elo1, alpha, beta, model",
                        kxo_engine::text::shown(other)
                    ));
                }
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err("the SPRT needs elo0 and elo1, e.g. elo0=0,elo1=10".into());
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(format!(
                "elo0 ({}) must be below elo1 ({})",
                sprt.elo0, sprt.elo1
            ));
        }
        for (name, v) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("{name} must be between 0 and 0.5, not {v}"));
            }
        }
        Ok(sprt)
    }

    /// The bounds of the log-likelihood ratio: below `lower` accepts H0,
    /// above `upper` accepts H1 (Wald's).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these pairs, in the
    /// pentanomial model (the generalised SPRT of fishtest and fastchess):
    /// for each hypothesis, the distribution of pair scores closest to the
    /// observed one (maximum likelihood) whose mean is the score that
    /// `elo0` or `elo1` predicts; the LLR is the log of how much likelier
    /// the observed pairs are under the one than the other. 0 before the
    /// first pair.
    pub fn llr(&self, penta: &Pentanomial) -> f64 {
        let Some(observed) = penta.regularized() else {
            return 0.0;
        };
        let (p0, p1) = match self.model {
            EloModel::Logistic => (
                closest_with_mean(&observed, score_of(self.elo0)),
                closest_with_mean(&observed, score_of(self.elo1)),
            ),
            EloModel::Normalized => {
                // t = (mean − ½) / σ of a pair's score, for nElo bounds.
                let t = |elo: f64| 2f64.sqrt() * elo / NELO_SCALE;
                (
                    closest_with_t(&observed, t(self.elo0)),
                    closest_with_t(&observed, t(self.elo1)),
                )
            }
        };
        let pairs = penta.pairs() as f64;
        (0..5)
            .map(|i| pairs * observed[i] * (p1[i] / p0[i]).ln())
            .sum()
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The pair scores of the five bins.
const PAIR_SCORE: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The distribution over the five bins with mean `s` that is likeliest
/// to have produced `observed`: `pᵢ = oᵢ / (1 + λ (xᵢ − s))`, with λ the
/// root of `Σ oᵢ (xᵢ − s) / (1 + λ (xᵢ − s)) = 0`, found by bisection on
/// the interval where every `pᵢ` is positive (the sum falls as λ grows).
fn closest_with_mean(observed: &[f64; 5], s: f64) -> [f64; 5] {
    let f = |lambda: f64| -> f64 {
        (0..5)
            .map(|i| {
                let d = PAIR_SCORE[i] - s;
                observed[i] * d / (1.0 + lambda * d)
            })
            .sum()
    };
    let lambda = root_between(-1.0 / (1.0 - s), 1.0 / s, f);
    let p: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + lambda * (PAIR_SCORE[i] - s)));
    let total: f64 = p.iter().sum();
    p.map(|x| x / total)
}

/// The root of `f`, decreasing on the open interval (`lo`, `hi`) where
/// its poles are the ends, by bisection (kept a hair inside the ends).
fn root_between(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let margin = (hi - lo) * 1e-12;
    let (mut lo, mut hi) = (lo + margin, hi - margin);
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// nElo's unit: 800 / ln 10 (a normalized Elo of this many is one
/// standard deviation of a game's score above ½).
pub(super) const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The distribution over the five bins whose `t = (mean − ½) / σ` is
/// `t_star` that is likeliest to have produced `observed`: van den Bergh's
/// fixed point ("Comments on normalized Elo", section 4.1), from the
/// uniform distribution, each step solving for θ by bisection.
fn closest_with_t(observed: &[f64; 5], t_star: f64) -> [f64; 5] {
    let mut p = [0.2f64; 5];
    for _ in 0..30 {
        let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORE[i]).sum();
        let var: f64 = (0..5).map(|i| p[i] * (PAIR_SCORE[i] - mean).powi(2)).sum();
        let sigma = var.sqrt().max(1e-12);
        let phi: [f64; 5] = std::array::from_fn(|i| {
            let z = (PAIR_SCORE[i] - mean) / sigma;
            PAIR_SCORE[i] - 0.5 - 0.5 * t_star * sigma * (1.0 + z * z)
        });
        let (u, v) = phi
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(u, v), &x| {
                (u.min(x), v.max(x))
            });
        if !(u < 0.0 && v > 0.0) {
            break;
        }
        let f = |theta: f64| -> f64 {
            (0..5)
                .map(|i| observed[i] * phi[i] / (1.0 + theta * phi[i]))
                .sum()
        };
        let theta = root_between(-1.0 / v, -1.0 / u, f);
        let next: [f64; 5] = std::array::from_fn(|i| observed[i] / (1.0 + theta * phi[i]));
        let change = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-10 {
            break;
        }
    }
    p
}

/// What a run's pairs say, beside the Elo: normalized Elo with its 95%
/// interval, the likelihood that the first engine is the stronger (LOS),
/// as fastchess reports them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairFigures {
    /// The mean pair score, 0 to 1.
    pub score: f64,
    pub nelo: f64,
    /// Half the width of its 95% interval.
    pub nelo_error: f64,
    /// Likelihood of superiority, 0 to 1.
    pub los: f64,
}

impl Pentanomial {
    /// The pairs' figures; `None` before two pairs, or when every pair
    /// scored alike (no spread to measure by).
    pub fn figures(&self) -> Option<PairFigures> {
        let n = self.pairs() as f64;
        if n < 2.0 {
            return None;
        }
        let p = self.0.map(|c| c as f64 / n);
        let score: f64 = (0..5).map(|i| p[i] * PAIR_SCORE[i]).sum();
        let var: f64 = (0..5).map(|i| p[i] * (PAIR_SCORE[i] - score).powi(2)).sum();
        if var <= 0.0 {
            return None;
        }
        let per_pair = (var / n).sqrt();
        let z = 1.959_963_984_540_054;
        let nelo = |s: f64| (s - 0.5) / (2.0 * var).sqrt() * NELO_SCALE;
        Some(PairFigures {
            score,
            nelo: nelo(score),
            nelo_error: (nelo(score + z * per_pair) - nelo(score - z * per_pair)) / 2.0,
            los: 0.5 * (1.0 + erf((score - 0.5) / (2.0f64.sqrt() * per_pair))),
        })
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, within 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// The expected score of an engine `elo` stronger.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_count_into_five_bins_and_flip() {
        let mut p = Pentanomial::default();
        for half_points in [0, 1, 2, 2, 3, 4, 4, 4] {
            p.add(half_points);
        }
        assert_eq!(p, Pentanomial([1, 1, 2, 1, 3]));
        assert_eq!(p.pairs(), 8);
        assert_eq!(p.flipped(), Pentanomial([3, 1, 2, 1, 1]));
    }

    #[test]
    fn the_llr_matches_hand_worked_examples() {
        let sprt = Sprt::parse("elo0=0,elo1=10,model=logistic").unwrap();
        let s1 = 0.514_387_184_2; // 1 / (1 + 10^(−10/400)); s0 = ½.
        // Only LL and WW pairs: the closest distribution with mean s is
        // (1 − s, 0, 0, 0, s) whatever was seen, so the LLR is a sum over
        // the pairs: n_WW ln(s1/s0) + n_LL ln((1 − s1)/(1 − s0)).
        // 60 WW and 40 LL: 60 ln(1.0287744) + 40 ln(0.9712256) = 0.53423.
        // (The empty bins hold 0.001 of a pair each, which moves the
        // figure in its fourth decimal.)
        let two_bins = Pentanomial([40, 0, 0, 0, 60]);
        let by_hand = 60.0 * (s1 / 0.5f64).ln() + 40.0 * ((1.0 - s1) / 0.5f64).ln();
        assert!((by_hand - 0.534_23).abs() < 1e-4, "{by_hand}");
        let llr = sprt.llr(&two_bins);
        assert!((llr - by_hand).abs() < 2e-3, "{llr} vs {by_hand}");

        // Every bin used: [LL, LD, DD+WL, WD, WW] = [2, 10, 50, 20, 18].
        // Pair scores 0, ¼, ½, ¾, 1:
        //   mean = (10·0.25 + 50·0.5 + 20·0.75 + 18) / 100 = 0.605
        //   var  = Σ pᵢ (xᵢ − 0.605)² = 0.02·0.366025 + 0.10·0.126025
        //        + 0.50·0.011025 + 0.20·0.021025 + 0.18·0.156025 = 0.057725
        // The normal approximation N (s1 − s0)(2 mean − s0 − s1) / (2 var)
        //   = 100 · 0.0143872 · 0.1956128 / 0.11545 = 2.4377.
        // The exact ratio, worked apart in a short script (bisection for λ,
        // and a random search that finds no likelier distribution with
        // mean s1): 2.1417, lower because the observed mean 0.605 lies far
        // from both hypotheses, where the approximation overstates.
        let p = Pentanomial([2, 10, 50, 20, 18]);
        let (mean, var) = p.mean_and_variance().unwrap();
        assert!((mean - 0.605).abs() < 1e-12);
        assert!((var - 0.057725).abs() < 1e-12, "{var}");
        let llr = sprt.llr(&p);
        assert!((llr - 2.1417).abs() < 1e-3, "{llr}");
        let normal = 100.0 * (s1 - 0.5) * (2.0 * mean - 0.5 - s1) / (2.0 * var);
        assert!((normal - 2.4377).abs() < 1e-3 && llr < normal && llr > 0.85 * normal);
        // Bounds for alpha = beta = 0.05: ln(0.05/0.95), ln(0.95/0.05).
        let (lo, hi) = sprt.bounds();
        assert!((lo + 2.944_439).abs() < 1e-6 && (hi - 2.944_439).abs() < 1e-6);
        assert_eq!(sprt.verdict(llr), Verdict::Continue);
        // The same pairs seen from the other engine argue for H0.
        assert!(sprt.llr(&p.flipped()) < 0.0);
        // Twice the pairs: twice the evidence, past the upper bound.
        let doubled = Pentanomial(p.0.map(|c| c * 2));
        assert!((sprt.llr(&doubled) - 2.0 * llr).abs() < 1e-9);
        assert_eq!(sprt.verdict(sprt.llr(&doubled)), Verdict::H1);
    }

    #[test]
    fn one_pair_is_not_enough_for_a_verdict() {
        let sprt = Sprt::parse("elo0=0,elo1=50,model=logistic").unwrap();
        for bin in 0..5 {
            let mut p = Pentanomial::default();
            p.add(bin);
            assert_eq!(sprt.verdict(sprt.llr(&p)), Verdict::Continue, "{p:?}");
        }
    }

    #[test]
    fn sweeps_and_all_draws_are_evidence_and_no_pairs_none() {
        let sprt = Sprt::parse("elo0=0,elo1=10,model=logistic").unwrap();
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        // Every pair won: each is ln(s1/s0) = 0.028 of evidence for H1, so
        // 200 pairs cross the bound (5.7 > 2.94); every pair lost: H0.
        assert_eq!(
            sprt.verdict(sprt.llr(&Pentanomial([0, 0, 0, 0, 200]))),
            Verdict::H1
        );
        assert_eq!(
            sprt.verdict(sprt.llr(&Pentanomial([0, 0, 0, 0, 60]))),
            Verdict::Continue
        );
        assert_eq!(
            sprt.verdict(sprt.llr(&Pentanomial([200, 0, 0, 0, 0]))),
            Verdict::H0
        );
        // All draws says little about 10 Elo: no pair tells the engines apart.
        assert!(sprt.llr(&Pentanomial([0, 0, 60, 0, 0])) < 0.0);
    }

    #[test]
    fn bad_sprt_settings_are_refused_by_name() {
        for (text, needle) in [
            ("elo0=0", "needs elo0 and elo1"),
            ("elo0=10,elo1=0", "must be below"),
            ("elo0=0,elo1=5,alpha=0.7", "alpha"),
            ("elo0=0,elo1=x", "not a number"),
            ("elo0=0,elo1=5,gamma=1", "unknown SPRT setting"),
            ("elo0", "key=value"),
        ] {
            let err = Sprt::parse(text).unwrap_err();
            assert!(err.contains(needle), "{text}: {err}");
        }
        let s = Sprt::parse("alpha=0.1, beta=0.2, elo1=5, elo0=-5").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.2));
        assert_eq!(s.model, EloModel::Normalized);
        assert!(Sprt::parse("elo0=0,elo1=5,model=bayes").is_err());
    }

    /// fastchess's own test values (app/tests/sprt_test.cpp and
    /// elo_test.cpp), its pentanomial counts in its order LL, LD, WL, DD,
    /// WD, WW, with WL and DD in one bin as here.
    fn fastchess(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Pentanomial {
        Pentanomial([ll, ld, wl + dd, wd, ww])
    }

    #[test]
    fn the_llr_matches_fastchess_in_both_models() {
        let sprt = |text: &str| Sprt::parse(text).unwrap();
        for (penta, text, want) in [
            (
                fastchess(365, 16618, 36029, 200, 16974, 390),
                "elo0=0,elo1=2",
                2.25,
            ),
            (
                fastchess(127, 4883, 10311, 401, 5150, 104),
                "elo0=-1.75,elo1=0.25",
                3.01,
            ),
            (fastchess(0, 0, 0, 0, 0, 5550), "elo0=0,elo1=5", 111.82),
            (
                fastchess(223, 9863, 20279, 1000, 10037, 246),
                "elo0=0.5,elo1=2.5,model=logistic",
                -3.07,
            ),
            (
                fastchess(871, 26175, 55003, 980, 26678, 821),
                "elo0=0,elo1=2,model=logistic",
                -4.98,
            ),
        ] {
            let llr = sprt(text).llr(&penta);
            // doctest's Approx(…).epsilon(0.01): within 1%.
            assert!(
                (llr - want).abs() <= 0.01 * want.abs().max(1.0),
                "{text}: {llr} vs {want}"
            );
        }
        // The two models can disagree in sign on the same pairs.
        let p = Pentanomial([226, 10341, 22538, 10459, 227]);
        let logistic = sprt("elo0=0,elo1=2,model=logistic").llr(&p);
        let normalized = sprt("elo0=0,elo1=2").llr(&p);
        assert!(
            logistic < -2.0 && normalized > logistic + 1.0,
            "{logistic} {normalized}"
        );
    }

    #[test]
    fn nelo_and_los_match_fastchess() {
        for (penta, nelo, error, los, score) in [
            (fastchess(34, 54, 31, 32, 64, 75), 57.94, 28.28, 1.0, 0.579),
            (
                fastchess(332, 433, 457, 41, 333, 334),
                -9.17,
                10.96,
                0.0505,
                0.488,
            ),
            (
                fastchess(7895, 8757, 5485, 200, 568, 9999),
                -19.01,
                2.65,
                0.0,
                0.470,
            ),
        ] {
            let f = penta.figures().unwrap();
            assert!((f.nelo - nelo).abs() <= 0.01 * nelo.abs(), "{f:?}");
            assert!((f.nelo_error - error).abs() <= 0.01 * error, "{f:?}");
            assert!((f.los - los).abs() < 0.00005, "{f:?}");
            assert!((f.score - score).abs() <= 0.01 * score, "{f:?}");
        }
    }

    #[test]
    fn the_pair_elo_is_the_elo_of_the_mean_pair_score() {
        let p = Pentanomial([0, 0, 10, 10, 0]);
        // Mean pair score 0.625: Elo 400·log10(0.625/0.375) = 88.7.
        let e = p.elo().unwrap();
        assert!((e.diff - 88.74).abs() < 0.01, "{e:?}");
        assert!(e.lo < e.diff && e.diff < e.hi);
    }
}
