//! Match statistics from per-game points (1, 0.6, 0.5, 0.4, 0): score, draw ratio, the Elo
//! difference with a 95% interval, and the SPRT log-likelihood ratio (a normal approximation,
//! logistic Elo).
//!
//! Games played in pairs (one start, colours reversed) are counted by pair once both have
//! ended: the variance is that of the pairs' scores (the pentanomial model of fishtest and
//! OpenBench), not of single games. A start that favours one colour gives one engine a win and
//! the other a win back; counted game by game that looks like noise, and the interval and the
//! SPRT would need more games than the difference between the engines asks for. Without pairs
//! (or before the first pair ends) the per-game variance is used.
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
    /// Mean points of each finished pair of games (one start, colours reversed).
    pub pair_points: Vec<f64>,
    /// Games whose pair partner has not ended yet: (pair id, points).
    unpaired: Vec<(usize, f64)>,
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

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.5
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// Sample variance (0 below two samples).
fn variance(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let m = mean(xs);
    xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)
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

    /// Add a game worth `points` that belongs to the pair of games `pair` (the same start,
    /// colours reversed); the pair counts once its other game has been added too.
    pub fn add_paired(&mut self, pair: usize, points: f64) {
        self.add(points);
        match self.unpaired.iter().position(|&(id, _)| id == pair) {
            Some(i) => {
                let (_, other) = self.unpaired.swap_remove(i);
                self.pair_points.push((points + other) / 2.0);
            }
            None => self.unpaired.push((pair, points)),
        }
    }

    /// How many finished pairs scored 0, 1/2, 1, 3/2 and 2 points (a 3/5 stalemate's odd
    /// tenth rounded to the nearest half point).
    pub fn pentanomial(&self) -> [usize; 5] {
        let mut counts = [0; 5];
        for &p in &self.pair_points {
            counts[((p * 4.0).round() as usize).min(4)] += 1;
        }
        counts
    }

    /// The samples the interval and the SPRT use: the finished pairs when there are any, else
    /// the single games.
    fn samples(&self) -> &[f64] {
        if self.pair_points.is_empty() {
            &self.points
        } else {
            &self.pair_points
        }
    }

    pub fn games(&self) -> usize {
        self.points.len()
    }

    pub fn total(&self) -> f64 {
        self.points.iter().sum()
    }

    /// Mean points per game.
    pub fn mean(&self) -> f64 {
        mean(&self.points)
    }

    pub fn draw_ratio(&self) -> f64 {
        if self.points.is_empty() {
            0.0
        } else {
            self.draws as f64 / self.points.len() as f64
        }
    }

    /// The variance of the samples with one win and one loss (a pair of each) added, so that a
    /// few one-sided results (variance 0) cannot make the interval vanish or decide the SPRT.
    fn padded_variance(&self) -> f64 {
        variance(&[self.samples(), &[1.0, 0.0]].concat())
    }

    /// Elo difference and its 95% interval (low, high): the mean of every game, the standard
    /// error of the pairs' (or games') mean.
    pub fn elo(&self) -> (f64, f64, f64) {
        let m = self.mean();
        let half = 1.959964 * (self.padded_variance() / self.samples().len().max(1) as f64).sqrt();
        (elo_of_score(m), elo_of_score(m - half), elo_of_score(m + half))
    }

    /// The same tally seen from the other engine.
    pub fn reversed(&self) -> Tally {
        let flip = |xs: &[f64]| xs.iter().map(|p| 1.0 - p).collect();
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
            points: flip(&self.points),
            pair_points: flip(&self.pair_points),
            unpaired: self.unpaired.iter().map(|&(id, p)| (id, 1.0 - p)).collect(),
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

    /// The log-likelihood ratio of the tally (normal approximation of the finished pairs'
    /// scores, or of the games' before the first pair ends; the variance padded).
    pub fn llr(&self, t: &Tally) -> f64 {
        let samples = t.samples();
        let n = samples.len() as f64;
        let var = t.padded_variance();
        if n < 2.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        n * (s1 - s0) * (2.0 * mean(samples) - s0 - s1) / (2.0 * var)
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
    fn a_pair_counts_once_both_its_games_have_ended() {
        let mut t = Tally::default();
        t.add_paired(0, 1.0);
        t.add_paired(1, 0.0);
        assert!(t.pair_points.is_empty());
        t.add_paired(0, 0.5);
        t.add_paired(2, 0.6);
        assert_eq!(t.pair_points, vec![0.75]);
        assert_eq!(t.pentanomial(), [0, 0, 0, 1, 0]);
        assert_eq!((t.wins, t.draws, t.losses, t.games()), (1, 2, 1, 4));
        let r = t.reversed();
        assert_eq!(r.pair_points, vec![0.25]);
        let mut back = r.clone();
        back.add_paired(1, 1.0);
        assert_eq!(back.pair_points, vec![0.25, 1.0], "the reversed tally keeps its unpaired games");
        back.add_paired(2, 0.5);
        assert_eq!(back.pentanomial(), [0, 1, 1, 0, 1], "a stalemate's 0.4 and a draw make 0.9: one point");
    }

    #[test]
    fn starts_that_favour_one_colour_are_not_counted_as_noise() {
        // Equal engines whose games the start decides: each start won once by each engine.
        let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let mut paired = Tally::default();
        let mut single = Tally::default();
        for pair in 0..200 {
            for points in [1.0, 0.0] {
                paired.add_paired(pair, points);
                single.add(points);
            }
        }
        assert_eq!(paired.points, single.points);
        assert_eq!(sprt.state(&paired), SprtState::H0, "LLR {}", sprt.llr(&paired));
        assert_eq!(sprt.state(&single), SprtState::Continue, "LLR {}", sprt.llr(&single));
        let (width_paired, width_single) = (paired.elo().2 - paired.elo().1, single.elo().2 - single.elo().1);
        assert!(width_paired < 12.0 && width_single > 60.0, "{width_paired} {width_single}");
        // Where the pairs are as mixed as the games, both agree.
        let mut noisy = Tally::default();
        for pair in 0..200 {
            let first = [1.0, 0.0, 0.5][pair % 3];
            noisy.add_paired(pair, first);
            noisy.add_paired(pair, [0.0, 1.0, 0.5, 1.0, 0.0][pair % 5]);
        }
        let mut flat = Tally::default();
        noisy.points.iter().for_each(|&p| flat.add(p));
        let (llr_pairs, llr_games) = (sprt.llr(&noisy), sprt.llr(&flat));
        assert!((llr_pairs - llr_games).abs() < 0.5 * llr_games.abs().max(0.2), "{llr_pairs} {llr_games}");
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
