//! Weaker play for people: `Skill Level` (0..20, 20 being full strength), and `UCI_LimitStrength`
//! with `UCI_Elo`, which sets the level from an Elo. The method is Stockfish's: below full
//! strength a search looks at `CANDIDATE_LINES` root moves at least (MultiPV) to a depth that
//! grows with the level (`Skill::depth_cap`), here also within a number of nodes that grows by
//! half with every level (`Skill::soft_nodes`: 64 at level 0, about 142,000 at level 19; the
//! iteration under way is completed), which spreads the levels evenly and makes their strength
//! the same at every time control and nearly so on every machine. The move played is then drawn
//! from those lines (`Skill::pick`): each line's score is pulled towards the best one by a share
//! that grows as the level falls, plus a random push of at most a pawn. The engine plays
//! plausible moves, never random ones: a move is picked only if a search found it among the best
//! few, and how much worse than the best it may be is bounded by the level (`Skill::max_loss`: a
//! pawn and three quarters at level 19, about three and a half at level 10, fifteen at level 0).
//! A mate found is always played, a line that is mated never chosen over one that is not.
//!
//! `UCI_Elo` maps onto a fractional level by interpolating the calibration (`CALIBRATION`,
//! measured against Fairy-Max and level against level: docs/skill.md). A fractional level
//! searches to the depth of its whole part and draws with its own weakness.
//!
//! Owns: `Skill`, `CANDIDATE_LINES`, `CALIBRATION`, `MIN_ELO`, `MAX_ELO`, `FULL_STRENGTH`.
//! Must not know: protocols, the tree search's workings (it sees completed lines only).

use super::options::{Options, LIMIT_STRENGTH, SKILL_LEVEL, UCI_ELO};
use crate::search::score::{is_mate, Score};
use crate::search::SearchLimits;
use menagerie_rules::random::SplitMix64;

/// The `Skill Level` of full strength (the default): no skill handicap at all.
pub const FULL_STRENGTH: u64 = 20;

/// Root moves searched (MultiPV lines) below full strength, at least: the moves drawn from.
pub const CANDIDATE_LINES: usize = 4;

/// The most a random push can be worth, in centipawns: a pawn (Stockfish's bound).
const MAX_PUSH_CP: i64 = 100;

/// The soft node limit of level 0, and its growth per level.
const NODES_AT_LEVEL_0: f64 = 64.0;
const NODES_GROWTH_PER_LEVEL: f64 = 1.5;

/// Measured strength by level: (level, Elo on the scale where Fairy-Max 5.0b is 1950), in
/// rising order, rounded to tens. From docs/skill.md, where the games, intervals and commands
/// are: D-Chess at 5+0.05, a maximum-likelihood fit of 530 games against Fairy-Max, Sjaak II and
/// level against level. Rough: one standard error is 50 to 130 Elo.
pub const CALIBRATION: [(f64, f64); 10] = [
    (0.0, 770.0),
    (2.0, 990.0),
    (4.0, 1130.0),
    (6.0, 1330.0),
    (8.0, 1550.0),
    (10.0, 1770.0),
    (12.0, 2020.0),
    (14.0, 2250.0),
    (16.0, 2430.0),
    (19.0, 2680.0),
];

/// The lowest `UCI_Elo`: the calibrated Elo of level 0.
pub const MIN_ELO: u64 = 770;
/// The highest `UCI_Elo`: the calibrated Elo of level 19, the strongest below full strength.
pub const MAX_ELO: u64 = 2680;

/// A strength below full: the level, 0.0 to below 20.0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// The skill the options ask for: from `UCI_Elo` under `UCI_LimitStrength` (which then
    /// overrides `Skill Level`, as in Stockfish), else from `Skill Level`; `None` at full
    /// strength.
    pub fn from_options(options: &Options) -> Option<Skill> {
        if options.check(&LIMIT_STRENGTH) {
            return Some(Skill::from_elo(options.spin(&UCI_ELO)));
        }
        let level = options.spin(&SKILL_LEVEL);
        (level < FULL_STRENGTH).then(|| Skill::at_level(level as f64))
    }

    /// The skill of a level (clamped to 0..=19.99).
    pub fn at_level(level: f64) -> Skill {
        Skill { level: level.clamp(0.0, FULL_STRENGTH as f64 - 0.01) }
    }

    /// The level of an Elo, by linear interpolation of `CALIBRATION` (clamped to its ends).
    pub fn from_elo(elo: u64) -> Skill {
        let elo = elo as f64;
        let (first, last) = (CALIBRATION[0], CALIBRATION[CALIBRATION.len() - 1]);
        if elo <= first.1 {
            return Skill::at_level(first.0);
        }
        if elo >= last.1 {
            return Skill::at_level(last.0);
        }
        let level = CALIBRATION
            .windows(2)
            .find(|w| elo <= w[1].1)
            .map(|w| w[0].0 + (w[1].0 - w[0].0) * (elo - w[0].1) / (w[1].1 - w[0].1))
            .unwrap_or(last.0);
        Skill::at_level(level)
    }

    /// The Elo of this level, by the same interpolation.
    pub fn elo(&self) -> f64 {
        let (first, last) = (CALIBRATION[0], CALIBRATION[CALIBRATION.len() - 1]);
        if self.level <= first.0 {
            return first.1;
        }
        CALIBRATION
            .windows(2)
            .find(|w| self.level <= w[1].0)
            .map(|w| w[0].1 + (w[1].1 - w[0].1) * (self.level - w[0].0) / (w[1].0 - w[0].0))
            .unwrap_or(last.1)
    }

    pub fn level(&self) -> f64 {
        self.level
    }

    /// The deepest iteration searched: one more than the level's whole part (Stockfish picks its
    /// move at this depth).
    pub fn depth_cap(&self) -> u32 {
        1 + self.level.floor() as u32
    }

    /// The nodes after which no new iteration starts: `NODES_AT_LEVEL_0` times
    /// `NODES_GROWTH_PER_LEVEL` to the level.
    pub fn soft_nodes(&self) -> u64 {
        (NODES_AT_LEVEL_0 * NODES_GROWTH_PER_LEVEL.powf(self.level)).round() as u64
    }

    /// The MultiPV lines to search when the user asks for `multipv`.
    pub fn lines(&self, multipv: usize) -> usize {
        multipv.max(CANDIDATE_LINES)
    }

    /// The limits of a search at this level: the depth and the soft node limit capped, the
    /// rest as asked.
    pub fn limits(&self, limits: SearchLimits) -> SearchLimits {
        let (depth, nodes) = (self.depth_cap(), self.soft_nodes());
        SearchLimits {
            depth: Some(limits.depth.map_or(depth, |d| d.min(depth))),
            soft_nodes: Some(limits.soft_nodes.map_or(nodes, |n| n.min(nodes))),
            ..limits
        }
    }

    /// Stockfish's weakness: 120 at level 0 down to 80 at level 20. Out of 128, the share of a
    /// line's shortfall from the best that is forgiven, and the scale of the random push.
    fn weakness(&self) -> f64 {
        120.0 - 2.0 * self.level
    }

    /// The most a picked move can score below the best line, in centipawns, when the lines'
    /// scores spread a pawn or more: the shortfall whose unforgiven share a full random push
    /// still makes up.
    pub fn max_loss(&self) -> Score {
        let w = self.weakness();
        (MAX_PUSH_CP as f64 * w / (128.0 - w)).floor() as Score
    }

    /// The line to play, given the completed lines' scores (best first, as reported): each
    /// score gets `weakness/128` of its shortfall from the best back, plus a random push of up
    /// to `weakness/128` of the lines' spread (at most a pawn); the highest total wins, the
    /// better line on a tie. Returns an index into `scores` (0 when there is one line or none).
    pub fn pick(&self, scores: &[Score], rng: &mut SplitMix64) -> usize {
        let (Some(&top), Some(&worst)) = (scores.iter().max(), scores.iter().min()) else { return 0 };
        let w = self.weakness();
        let spread = (i64::from(top) - i64::from(worst)).min(MAX_PUSH_CP) as f64;
        let mut best = (0, f64::NEG_INFINITY);
        for (i, &s) in scores.iter().enumerate() {
            // A draw for every line, so that the sequence does not depend on the scores.
            let push = spread * (rng.below(w as u64) as f64);
            // A mate is a distance, not an amount: forgiving a share of its shortfall could
            // choose a mated line, or pass up a mate.
            let forgiven = if is_mate(top) || is_mate(s) { 0.0 } else { w * f64::from(top - s) };
            let total = f64::from(s) + (forgiven + push) / 128.0;
            if total > best.1 {
                best = (i, total);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::options::Frontend;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn full_strength_is_no_skill_and_limit_strength_overrides_the_level() {
        let mut o = Options::default();
        assert_eq!(Skill::from_options(&o), None);
        o.set(Frontend::Uci, "Skill Level", "7").unwrap();
        assert_eq!(Skill::from_options(&o), Some(Skill::at_level(7.0)));
        o.set(Frontend::Uci, "UCI_Elo", &MAX_ELO.to_string()).unwrap();
        assert_eq!(Skill::from_options(&o), Some(Skill::at_level(7.0)), "UCI_Elo alone changes nothing");
        o.set(Frontend::Uci, "UCI_LimitStrength", "true").unwrap();
        assert_eq!(Skill::from_options(&o).map(|s| s.level()), Some(CALIBRATION[CALIBRATION.len() - 1].0));
        o.set(Frontend::Uci, "Skill Level", "20").unwrap();
        assert!(Skill::from_options(&o).is_some(), "the Elo limits even at Skill Level 20");
    }

    #[test]
    fn the_elo_range_is_the_calibration_and_the_map_is_monotonic() {
        assert_eq!(MIN_ELO as f64, CALIBRATION[0].1);
        assert_eq!(MAX_ELO as f64, CALIBRATION[CALIBRATION.len() - 1].1);
        assert!(CALIBRATION.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 < w[1].1));
        let mut previous = -1.0;
        for elo in (MIN_ELO..=MAX_ELO).step_by(10) {
            let s = Skill::from_elo(elo);
            assert!(s.level() >= previous, "{elo}");
            assert!((s.elo() - elo as f64).abs() < 0.5, "{elo} -> level {} -> {}", s.level(), s.elo());
            previous = s.level();
        }
        for (level, elo) in CALIBRATION {
            assert_eq!(Skill::from_elo(elo as u64).level(), level);
        }
        assert_eq!(Skill::from_elo(0).level(), 0.0);
        assert_eq!(Skill::from_elo(5000).level(), CALIBRATION[CALIBRATION.len() - 1].0);
    }

    #[test]
    fn the_depth_grows_with_the_level_and_a_smaller_limit_stays() {
        assert_eq!(Skill::at_level(0.0).depth_cap(), 1);
        assert_eq!(Skill::at_level(4.7).depth_cap(), 5);
        assert_eq!(Skill::at_level(25.0).depth_cap(), 20);
        let s = Skill::at_level(9.0);
        assert_eq!(s.limits(SearchLimits::default()).depth, Some(10));
        assert_eq!(s.limits(SearchLimits::depth(3)).depth, Some(3));
        let timed = SearchLimits { wtime: Some(1000), nodes: Some(5000), ..SearchLimits::default() };
        assert_eq!(s.limits(timed.clone()), SearchLimits { depth: Some(10), soft_nodes: Some(2460), ..timed });
        assert_eq!(Skill::at_level(0.0).soft_nodes(), 64);
        assert_eq!(Skill::at_level(19.0).soft_nodes(), 141_878);
        let levels: Vec<u64> = (0..40).map(|l| Skill::at_level(f64::from(l) / 2.0).soft_nodes()).collect();
        assert!(levels.windows(2).all(|w| w[0] < w[1]), "{levels:?}");
        assert_eq!(s.lines(1), CANDIDATE_LINES);
        assert_eq!(s.lines(7), 7);
    }

    #[test]
    fn a_pick_never_loses_more_than_the_level_allows() {
        let mut rng = SplitMix64::new(1);
        for level in 0..20 {
            let s = Skill::at_level(f64::from(level));
            let bound = s.max_loss();
            assert!(bound >= 170, "level {level}: {bound}");
            let mut chosen = [0usize; 4];
            for case in 0..4000 {
                // Lines a pawn or more apart and far apart.
                let gap = 25 * (case % 80) as Score;
                let scores = [40, 40 - gap, 40 - 2 * gap, 40 - 3 * gap];
                let i = s.pick(&scores, &mut rng);
                assert!(scores[0] - scores[i] <= bound, "level {level}: {scores:?} -> {i}");
                chosen[i] += 1;
            }
            // Every level sometimes plays a worse line.
            assert!(chosen[0] < 4000 && chosen[1] > 0, "level {level}: {chosen:?}");
        }
        assert!(Skill::at_level(0.0).max_loss() >= 1400);
        assert!(Skill::at_level(10.0).max_loss() < 400);
        assert!(Skill::at_level(19.0).max_loss() < 180);
    }

    #[test]
    fn lower_levels_pick_worse_lines_more_often() {
        let scores = [30, 10, -20, -60];
        let mean_loss = |level: f64| {
            let mut rng = SplitMix64::new(7);
            let s = Skill::at_level(level);
            (0..20_000).map(|_| scores[0] - scores[s.pick(&scores, &mut rng)]).sum::<Score>() as f64 / 20_000.0
        };
        let losses: Vec<f64> = [0.0, 5.0, 10.0, 15.0, 19.0].into_iter().map(mean_loss).collect();
        assert!(losses.windows(2).all(|w| w[0] > w[1]), "{losses:?}");
        assert!(losses[4] > 0.0, "{losses:?}");
    }

    #[test]
    fn mates_are_played_and_mated_lines_avoided() {
        let mut rng = SplitMix64::new(3);
        let s = Skill::at_level(0.0);
        for _ in 0..2000 {
            assert_eq!(s.pick(&[mate_in(3), 900, 850, 800], &mut rng), 0);
            let i = s.pick(&[-300, -350, mated_in(4), mated_in(2)], &mut rng);
            assert!(i < 2, "{i}");
        }
        assert_eq!(s.pick(&[], &mut rng), 0);
        assert_eq!(s.pick(&[12], &mut rng), 0);
    }

    #[test]
    fn equal_lines_are_drawn_about_evenly() {
        let mut rng = SplitMix64::new(5);
        let s = Skill::at_level(10.0);
        let mut chosen = [0u32; 4];
        for _ in 0..8000 {
            chosen[s.pick(&[0, 0, 0, -100], &mut rng)] += 1;
        }
        // The three equal lines share the draws; the pawn-worse one is rarely played.
        assert!(chosen[..3].iter().all(|&n| n > 1500), "{chosen:?}");
        assert!(chosen[3] < chosen[0] / 3, "{chosen:?}");
    }
}
