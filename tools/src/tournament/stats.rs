//! Match statistics from per-game points (1, 0.6, 0.5, 0.4, 0): score, draw ratio, the Elo
//! difference with a 95% interval (normal approximation over the observed per-game variance),
//! and the SPRT log-likelihood ratio (the same normal approximation, logistic Elo).
//!
//! Owns: `Tally`, `elo_of_score`, `Sprt`, `SprtState`.
//! Must not know: engines, games, PGN.

/// Results of one engine against another, from the first one's point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Per-game points of the first engine.
    pub points: Vec<f64>,
}

/// Logistic Elo of a score fraction.
pub fn elo_of_score(s: f64) -> f64 {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    // `+ 0.0` turns -0 into 0 for printing.
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// The score fraction of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Add a game worth `points` (a 3/5 stalemate counts as a draw in W/D/L).
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
        self.points.push(points);
    }

    pub fn games(&self) -> usize {
        self.points.len()
    }

    pub fn total(&self) -> f64 {
        self.points.iter().sum()
    }

    /// Mean points per game.
    pub fn mean(&self) -> f64 {
        if self.points.is_empty() {
            0.5
        } else {
            self.total() / self.points.len() as f64
        }
    }

    /// Variance of the per-game points.
    pub fn variance(&self) -> f64 {
        let n = self.points.len() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let m = self.mean();
        self.points.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)
    }

    pub fn draw_ratio(&self) -> f64 {
        if self.points.is_empty() {
            0.0
        } else {
            self.draws as f64 / self.points.len() as f64
        }
    }

    /// Elo difference and its 95% interval (low, high).
    pub fn elo(&self) -> (f64, f64, f64) {
        let m = self.mean();
        let n = self.points.len().max(1) as f64;
        let half = 1.959964 * (self.variance() / n).sqrt();
        (elo_of_score(m), elo_of_score(m - half), elo_of_score(m + half))
    }

    /// The same tally seen from the other engine.
    pub fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            points: self.points.iter().map(|p| 1.0 - p).collect(),
        }
    }
}

/// A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H1 accepted: the first engine is stronger by about elo1.
    H1,
    /// H0 accepted.
    H0,
}

impl Sprt {
    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the tally (normal approximation of the per-game points). The
    /// variance is taken with one extra win and one extra loss, so that a one-sided start (all
    /// wins, variance 0) cannot decide the test at once.
    pub fn llr(&self, t: &Tally) -> f64 {
        let n = t.games() as f64;
        let mut padded = t.clone();
        padded.points.extend([1.0, 0.0]);
        let var = padded.variance();
        if n < 2.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let m = t.mean();
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * var)
    }

    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::H1
        } else if llr <= lo {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_interval() {
        assert!((elo_of_score(0.5)).abs() < 1e-9);
        assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-9);
        let mut t = Tally::default();
        for p in [1.0, 1.0, 0.5, 0.0, 1.0, 0.6, 0.4, 1.0] {
            t.add(p);
        }
        assert_eq!((t.wins, t.draws, t.losses), (4, 3, 1));
        let (e, lo, hi) = t.elo();
        assert!(lo < e && e < hi, "{lo} {e} {hi}");
        assert!((t.mean() - 0.6875).abs() < 1e-9);
        assert!((t.reversed().mean() - 0.3125).abs() < 1e-9);
        assert!((t.draw_ratio() - 3.0 / 8.0).abs() < 1e-9);
    }

    #[test]
    fn sprt_decides_either_way() {
        let sprt = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        let (lo, hi) = sprt.bounds();
        assert!((hi - 2.944).abs() < 0.001 && (lo + 2.944).abs() < 0.001);
        let mut strong = Tally::default();
        let mut even = Tally::default();
        for i in 0..20_000 {
            strong.add([1.0, 0.5, 0.5, 0.0, 1.0][i % 5]);
            even.add([1.0, 0.5, 0.5, 0.0][i % 4]);
        }
        assert_eq!(sprt.state(&strong), SprtState::H1);
        assert_eq!(sprt.state(&even), SprtState::H0);
        let mut few = Tally::default();
        few.add(1.0);
        few.add(0.0);
        assert_eq!(sprt.state(&few), SprtState::Continue);
    }
}
