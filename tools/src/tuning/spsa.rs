//! Simultaneous perturbation stochastic approximation (Spall), as OpenBench runs it for chess
//! engines: every number is moved by `±c_k` at once (the sign drawn per number), a game pair
//! between the two perturbed engines estimates the gradient, and each number steps by `r_k *
//! c_k * (wins - losses) * sign`. The gains shrink as `c_k = c / k^gamma` and `a_k = a / (A +
//! k)^alpha`, with `c` and `a` chosen so that at the planned last iteration `N` the perturbation
//! is the number's `c_end` and the learning rate `r_k = a_k / c_k^2` its `r_end`.
//!
//! Owns: `SpsaParam` (a number's current value and gains), `Schedule`, `Perturbation`, the
//! update rule.
//! Must not know: engines, games, files.

use menagerie_rules::random::SplitMix64;

/// Spall's recommended exponents (OpenBench's defaults).
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
/// The stability constant `A` as a share of the planned iterations (OpenBench's 10%).
pub const A_RATIO: f64 = 0.1;

/// One number being tuned.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    pub name: String,
    /// The current estimate (theta), real-valued; engines get it rounded.
    pub value: f64,
    pub min: f64,
    pub max: f64,
    /// The perturbation at the last planned iteration.
    pub c_end: f64,
    /// The learning rate at the last planned iteration.
    pub r_end: f64,
}

/// The gain sequences of a run planned for `iterations` iterations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    pub iterations: u64,
    pub alpha: f64,
    pub gamma: f64,
    /// `A`.
    pub stability: f64,
}

impl Schedule {
    /// OpenBench's schedule for a run of `iterations` iterations.
    pub fn planned(iterations: u64) -> Schedule {
        let iterations = iterations.max(1);
        Schedule { iterations, alpha: ALPHA, gamma: GAMMA, stability: A_RATIO * iterations as f64 }
    }

    /// `(c_k, r_k)` of `p` at iteration `k` (from 1).
    pub fn gains(&self, p: &SpsaParam, k: u64) -> (f64, f64) {
        let n = self.iterations as f64;
        let k = k.max(1) as f64;
        let c = p.c_end * n.powf(self.gamma);
        let a_end = p.r_end * p.c_end * p.c_end;
        let a = a_end * (self.stability + n).powf(self.alpha);
        let c_k = c / k.powf(self.gamma);
        let a_k = a / (self.stability + k).powf(self.alpha);
        (c_k, a_k / (c_k * c_k))
    }
}

/// The two engines' values of one iteration and the signs that made them.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// +1 or -1 per number.
    pub signs: Vec<f64>,
    /// `theta + c_k * sign`, rounded and kept in range.
    pub plus: Vec<i64>,
    /// `theta - c_k * sign`, rounded and kept in range.
    pub minus: Vec<i64>,
}

/// Draw the signs of iteration `k` from `rng` and the values of the two engines.
pub fn perturb(params: &[SpsaParam], schedule: &Schedule, k: u64, rng: &mut SplitMix64) -> Perturbation {
    let signs: Vec<f64> = params.iter().map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 }).collect();
    let value = |p: &SpsaParam, x: f64| x.clamp(p.min, p.max).round() as i64;
    let mut plus = Vec::with_capacity(params.len());
    let mut minus = Vec::with_capacity(params.len());
    for (p, sign) in params.iter().zip(&signs) {
        let (c_k, _) = schedule.gains(p, k);
        plus.push(value(p, p.value + c_k * sign));
        minus.push(value(p, p.value - c_k * sign));
    }
    Perturbation { signs, plus, minus }
}

/// Step every number after iteration `k`, whose games the plus engine won `wins` and lost
/// `losses` of: towards the side that scored better, kept in range.
pub fn update(params: &mut [SpsaParam], schedule: &Schedule, k: u64, signs: &[f64], wins: u32, losses: u32) {
    let result = f64::from(wins) - f64::from(losses);
    for (p, sign) in params.iter_mut().zip(signs) {
        let (c_k, r_k) = schedule.gains(p, k);
        p.value = (p.value + r_k * c_k * result * sign).clamp(p.min, p.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(value: f64) -> SpsaParam {
        SpsaParam { name: "x".into(), value, min: 0.0, max: 200.0, c_end: 8.0, r_end: 0.002 }
    }

    #[test]
    fn the_gains_end_at_c_end_and_r_end_and_are_larger_before() {
        let s = Schedule::planned(1000);
        let p = param(100.0);
        let (c_end, r_end) = s.gains(&p, 1000);
        assert!((c_end - 8.0).abs() < 1e-9 && (r_end - 0.002).abs() < 1e-12, "{c_end} {r_end}");
        let (c_1, r_1) = s.gains(&p, 1);
        // 1000^0.101: about twice the last perturbation at the first iteration.
        assert!(c_1 > 1.9 * c_end && c_1 < 2.1 * c_end, "{c_1}");
        assert!(r_1 * c_1 * c_1 > r_end * c_end * c_end, "a_k falls");
    }

    #[test]
    fn the_winning_side_pulls_the_value_and_ranges_hold() {
        let s = Schedule::planned(100);
        let mut rng = SplitMix64::new(5);
        let mut params = vec![param(100.0), param(199.5)];
        let p = perturb(&params, &s, 1, &mut rng);
        for i in 0..2 {
            assert!(p.plus[i] as f64 <= 200.0 && p.minus[i] as f64 >= 0.0);
            assert_eq!(p.plus[i] > p.minus[i], p.signs[i] > 0.0, "{p:?}");
        }
        let before = params[0].value;
        update(&mut params, &s, 1, &p.signs, 2, 0);
        assert_eq!(params[0].value > before, p.signs[0] > 0.0, "towards the plus engine's value");
        assert!(params[1].value <= 200.0);
        let after = params[0].value;
        update(&mut params, &s, 2, &p.signs, 1, 1);
        assert_eq!(params[0].value, after, "an even pair moves nothing");
    }
}
