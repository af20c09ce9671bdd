//! The statistics of a balance study: a mean score with its 95% interval, the quartiles of the
//! game lengths, and the chi-square test of whether the scores of the start positions differ
//! more than chance would make them.
//!
//! Owns: `MeanScore` (Wilson intervals), `mean_of_means`, `quartiles`, `ChiSquare`, `chi_square_p`.
//! Must not know: games, variants, files.

/// z of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_985;

/// The mean of per-game scores (1, ½, 0) with its 95% interval: the Wilson score interval,
/// the score taken as a proportion of n games (a draw as half a win). It stays inside 0..1 and
/// is fair for a handful of games, where the normal approximation claims certainty after three
/// wins; with draws the scores spread less than a proportion's, so it errs on the wide side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanScore {
    pub games: u64,
    pub mean: f64,
    pub low: f64,
    pub high: f64,
}

impl MeanScore {
    pub fn of(scores: &[f64]) -> MeanScore {
        if scores.is_empty() {
            return MeanScore { games: 0, mean: f64::NAN, low: 0.0, high: 1.0 };
        }
        let n = scores.len() as f64;
        let p = scores.iter().sum::<f64>() / n;
        let z2 = Z95 * Z95;
        let d = 1.0 + z2 / n;
        let centre = (p + z2 / (2.0 * n)) / d;
        let half = Z95 / d * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        MeanScore { games: scores.len() as u64, mean: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0) }
    }

    /// The Elo difference a score stands for (±∞ at 1 and 0).
    pub fn elo(&self) -> f64 {
        -400.0 * (1.0 / self.mean - 1.0).log10()
    }
}

/// The mean of group means (each start's mean score) with a 95% interval from their spread:
/// mean ± 1.96 · s / √k, s the sample standard deviation of the k means. The interval to quote
/// when the starts are a sample of many: games of one start are alike, so the per-game interval
/// understates how far another sample of starts could land. `None` below two groups.
pub fn mean_of_means(means: &[f64]) -> Option<MeanScore> {
    if means.len() < 2 {
        return None;
    }
    let k = means.len() as f64;
    let mean = means.iter().sum::<f64>() / k;
    let var = means.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (k - 1.0);
    let half = Z95 * (var / k).sqrt();
    Some(MeanScore { games: means.len() as u64, mean, low: (mean - half).max(0.0), high: (mean + half).min(1.0) })
}

/// The quartiles (25%, 50%, 75%) of `values`, interpolated between neighbours as spreadsheets
/// do (the order statistic at (n - 1)·q); NaN for no values.
pub fn quartiles(values: &[f64]) -> [f64; 3] {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    [0.25, 0.5, 0.75].map(|q| {
        if v.is_empty() {
            return f64::NAN;
        }
        let at = (v.len() - 1) as f64 * q;
        let (i, frac) = (at.floor() as usize, at.fract());
        v[i] + (v.get(i + 1).copied().unwrap_or(v[i]) - v[i]) * frac
    })
}

/// Whether groups of scores (one per start position) spread more than noise: the statistic
/// Σ (S_j − n_j·m)² / (n_j·σ²) over the groups with games, S_j and n_j a group's score sum and
/// games, m and σ² the mean and the population variance of all the scores; under the
/// hypothesis that every group has the same expected score it is about chi-square distributed
/// with (groups − 1) degrees of freedom (an approximation that wants a few games per group).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChiSquare {
    pub statistic: f64,
    pub df: u64,
    /// The chance of a statistic at least this large without real differences.
    pub p: f64,
}

impl ChiSquare {
    /// From groups of (games, score sum); `None` where there are fewer than two groups with
    /// games, or all scores are equal (no spread to compare with).
    pub fn of(groups: &[(u64, f64)], all_scores: &[f64]) -> Option<ChiSquare> {
        let used: Vec<(u64, f64)> = groups.iter().copied().filter(|g| g.0 > 0).collect();
        let n = all_scores.len() as f64;
        if used.len() < 2 || all_scores.is_empty() {
            return None;
        }
        let mean = all_scores.iter().sum::<f64>() / n;
        let var = all_scores.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        if var <= 0.0 {
            return None;
        }
        let statistic = used.iter().map(|&(g, s)| (s - g as f64 * mean).powi(2) / (g as f64 * var)).sum::<f64>();
        let df = used.len() as u64 - 1;
        Some(ChiSquare { statistic, df, p: chi_square_p(statistic, df) })
    }
}

/// P(X ≥ x) for X chi-square distributed with `df` degrees of freedom: the regularised upper
/// incomplete gamma function Q(df/2, x/2).
pub fn chi_square_p(x: f64, df: u64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    gamma_q(df as f64 / 2.0, x / 2.0)
}

/// ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms: about 15 digits).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // Reflection.
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// Q(a, x) = Γ(a, x) / Γ(a): by its series below a + 1, by its continued fraction above.
fn gamma_q(a: f64, x: f64) -> f64 {
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            n += 1.0;
            term *= x / n;
            sum += term;
            if term.abs() < sum.abs() * 1e-16 {
                break;
            }
        }
        (1.0 - sum * front).clamp(0.0, 1.0)
    } else {
        // Lentz's method.
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        (front * h).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn the_score_interval_is_wilsons() {
        // Scores 1, 0, ½, 1: p = 0.625, n = 4, z² = 3.841459: centre (0.625 + 0.480182) /
        // 1.960365 = 0.563764, half-width 1.959964 / 1.960365 · √(0.058594 + 0.060023) =
        // 0.344338.
        let s = MeanScore::of(&[1.0, 0.0, 0.5, 1.0]);
        assert_eq!(s.games, 4);
        assert!(close(s.mean, 0.625, 1e-12));
        assert!(close(s.low, 0.219427, 1e-5) && close(s.high, 0.908101, 1e-5), "{s:?}");
        // 60 wins, 20 draws, 20 losses: p = 0.7 over 100 games.
        let games: Vec<f64> = [1.0; 60].into_iter().chain([0.5; 20]).chain([0.0; 20]).collect();
        let s = MeanScore::of(&games);
        assert!(close(s.low, 0.604151, 1e-5) && close(s.high, 0.781051, 1e-5), "{s:?}");
        assert!(close(s.elo(), 147.19, 0.01), "{}", s.elo());
        // Three wins out of three: not yet a certainty.
        let s = MeanScore::of(&[1.0; 3]);
        assert!(close(s.low, 0.438503, 1e-5) && s.high == 1.0, "{s:?}");
        assert!(MeanScore::of(&[]).mean.is_nan());
    }

    #[test]
    fn the_mean_of_means_interval_counts_groups_not_games() {
        // Means 0.2 0.4 0.6 0.8: mean 0.5, sample variance (0.09 + 0.01 + 0.01 + 0.09) / 3,
        // standard error √(0.066667 / 4) = 0.129099, half-width 0.253030.
        let m = mean_of_means(&[0.2, 0.4, 0.6, 0.8]).expect("four groups");
        assert_eq!(m.games, 4);
        assert!(close(m.mean, 0.5, 1e-12));
        assert!(close(m.low, 0.246970, 1e-5) && close(m.high, 0.753030, 1e-5), "{m:?}");
        assert!(mean_of_means(&[0.5]).is_none());
    }

    #[test]
    fn quartiles_interpolate() {
        assert_eq!(quartiles(&[40.0, 10.0, 30.0, 20.0]), [17.5, 25.0, 32.5]);
        assert_eq!(quartiles(&[7.0]), [7.0, 7.0, 7.0]);
        assert!(quartiles(&[])[1].is_nan());
    }

    #[test]
    fn chi_square_p_values_match_the_tables() {
        // Two degrees of freedom: P = e^(−x/2) exactly.
        assert!(close(chi_square_p(2.0, 2), (-1.0f64).exp(), 1e-12));
        // The 5% and 1% points of the tables.
        assert!(close(chi_square_p(3.841459, 1), 0.05, 1e-6));
        assert!(close(chi_square_p(6.634897, 1), 0.01, 1e-6));
        assert!(close(chi_square_p(18.307038, 10), 0.05, 1e-6));
        assert!(close(chi_square_p(124.342113, 100), 0.05, 1e-6));
        assert_eq!(chi_square_p(0.0, 3), 1.0);
    }

    #[test]
    fn chi_square_compares_each_group_with_the_overall_mean() {
        // Two starts of four games: 1 1 1 ½ (sum 3.5) and 0 0 ½ 0 (sum 0.5). All eight: mean
        // 0.5, deviations ½ ½ ½ 0 −½ −½ 0 −½, squares summing to 1.5, variance 0.1875. Statistic (3.5 − 2)²/(4·0.1875) + (0.5 − 2)²/(4·0.1875)
        // = 3 + 3 = 6 with one degree of freedom: p = 0.014306.
        let all = [1.0, 1.0, 1.0, 0.5, 0.0, 0.0, 0.5, 0.0];
        let c = ChiSquare::of(&[(4, 3.5), (4, 0.5), (0, 0.0)], &all).expect("two groups");
        assert!(close(c.statistic, 6.0, 1e-12), "{c:?}");
        assert_eq!(c.df, 1);
        assert!(close(c.p, 0.014306, 1e-6), "{c:?}");
        assert!(ChiSquare::of(&[(4, 2.0)], &[0.5; 4]).is_none());
        assert!(ChiSquare::of(&[(2, 1.0), (2, 1.0)], &[0.5; 4]).is_none(), "no spread");
    }
}
