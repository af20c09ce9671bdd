//! How a decision spends its budget on the start positions its options lead to (its leaves):
//! every leaf is searched to the same depth, one depth after another (the table shared, so
//! each round starts from what the last one found), for as long as the next round is expected
//! to fit what is left; then what is left goes to a deeper look at the options within
//! `TIE_MARGIN` of the best, which are compared on it. Scores of different depths are never
//! compared: a leaf searched one ply deeper than its rival is judged on another scale (odd and
//! even depths differ by about a tempo), which an even split of the budget does not prevent.
//! A fixed depth is spent as one round at that depth.
//!
//! Owns: `deepen`, `Deepened`, `TIE_MARGIN`.
//! Must not know: what the options mean or how a decision is made from its leaves' scores
//! (the caller names the contenders), protocols.

use super::{Budget, PregameError, Scorer, MAX_DEPTH};
use crate::search::SearchLimits;
use menagerie_rules::variant::Variant;
use std::collections::HashMap;
use std::time::Instant;

/// Options whose scores are this close to the best one's (centipawns) get a deeper look where
/// the budget allows: about the change of a start position's score from one depth to the next.
pub const TIE_MARGIN: i32 = 15;

/// The growth of a round's cost from one depth to the next assumed before two rounds have been
/// measured, and the bounds of the measured one (a cheap round can be noisy).
const ASSUMED_GROWTH: f64 = 2.5;
const GROWTH_BOUNDS: (f64, f64) = (1.5, 6.0);

/// The leaves' scores, from the side to move of each, all searched to `depth`, except that
/// the leaves of the options in `among` (when set) were searched one ply deeper and the choice
/// is to be made among those options alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deepened {
    pub scores: HashMap<String, i32>,
    pub depth: u32,
    pub among: Option<Vec<String>>,
}

/// The part of a budget still to spend, in its own unit: nodes or milliseconds.
struct Allowance {
    budget: Budget,
    start: Instant,
    nodes_at_start: u64,
}

impl Allowance {
    fn total(&self) -> u64 {
        match self.budget {
            Budget::MoveTime { ms } => ms,
            Budget::Nodes(n) => n,
            Budget::Depth(_) => u64::MAX,
        }
    }

    fn spent(&self, scorer: &Scorer) -> u64 {
        match self.budget {
            Budget::MoveTime { .. } => self.start.elapsed().as_millis() as u64,
            Budget::Nodes(_) => scorer.nodes - self.nodes_at_start,
            Budget::Depth(_) => 0,
        }
    }

    fn left(&self, scorer: &Scorer) -> u64 {
        self.total().saturating_sub(self.spent(scorer))
    }

    /// The limits of a search to `depth` that must stop where the budget ends; `None` when
    /// nothing is left.
    fn limits(&self, depth: u32, scorer: &Scorer) -> Option<SearchLimits> {
        let left = self.left(scorer);
        let mut limits = SearchLimits::depth(depth);
        match self.budget {
            Budget::MoveTime { .. } => limits.movetime = Some(left),
            Budget::Nodes(_) => limits.nodes = Some(left),
            Budget::Depth(_) => return Some(limits),
        }
        (left > 0).then_some(limits)
    }
}

/// Search each of `leaves` to `depth`. `None` when the budget cut one short.
fn round(
    v: &'static Variant,
    leaves: &[String],
    depth: u32,
    allowance: Option<&Allowance>,
    scorer: &mut Scorer,
) -> Result<Option<HashMap<String, i32>>, PregameError> {
    let mut scores = HashMap::new();
    for fen in leaves {
        let limits = match allowance {
            None => SearchLimits::depth(depth),
            Some(a) => match a.limits(depth, scorer) {
                Some(limits) => limits,
                None => return Ok(None),
            },
        };
        match scorer.score_to_depth(v, fen, limits)? {
            Some(score) => scores.insert(fen.clone(), score),
            None => return Ok(None),
        };
    }
    Ok(Some(scores))
}

/// Spend `budget` on `leaves`. `contenders(scores)` names the options within `TIE_MARGIN` of
/// the best under those scores, each with its leaves; it is asked once the rounds are over.
pub fn deepen(
    v: &'static Variant,
    leaves: &[String],
    budget: Budget,
    scorer: &mut Scorer,
    contenders: impl Fn(&HashMap<String, i32>) -> Result<Vec<(String, Vec<String>)>, PregameError>,
) -> Result<Deepened, PregameError> {
    if let Budget::Depth(depth) = budget {
        let scores = round(v, leaves, depth, None, scorer)?.expect("a round without a budget completes");
        return Ok(Deepened { scores, depth, among: None });
    }
    let allowance = Allowance { budget, start: Instant::now(), nodes_at_start: scorer.nodes };
    // Depth 1 always completes, so that every option has a score. Its cost says nothing of the
    // next rounds' (it pays for setting up the search, a first loaded network included).
    let mut scores = round(v, leaves, 1, None, scorer)?.expect("a round without a budget completes");
    let mut depth = 1;
    let mut costs: Vec<u64> = Vec::new();
    while depth < MAX_DEPTH {
        let predicted = match costs[..] {
            [] => 0.0,
            [last] => last as f64 * ASSUMED_GROWTH,
            [.., before, last] => {
                last as f64 * (last as f64 / before.max(1) as f64).clamp(GROWTH_BOUNDS.0, GROWTH_BOUNDS.1)
            }
        };
        if predicted > allowance.left(scorer) as f64 {
            break;
        }
        let before = allowance.spent(scorer);
        match round(v, leaves, depth + 1, Some(&allowance), scorer)? {
            Some(next) => {
                scores = next;
                depth += 1;
                costs.push(allowance.spent(scorer) - before);
            }
            None => return Ok(Deepened { scores, depth, among: None }),
        }
    }
    // What is left is not enough for another whole round: look deeper at the close options.
    let close = contenders(&scores)?;
    if close.len() < 2 || depth >= MAX_DEPTH {
        return Ok(Deepened { scores, depth, among: None });
    }
    let close_leaves: Vec<String> = close.iter().flat_map(|(_, leaves)| leaves.iter().cloned()).collect();
    match round(v, &close_leaves, depth + 1, Some(&allowance), scorer)? {
        Some(deeper) => {
            scores.extend(deeper);
            Ok(Deepened { scores, depth, among: Some(close.into_iter().map(|(name, _)| name).collect()) })
        }
        None => Ok(Deepened { scores, depth, among: None }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    const NONE: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1";
    const SWAPPED: &str = "qbbnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1";

    fn leaves() -> Vec<String> {
        vec![NONE.to_string(), SWAPPED.to_string()]
    }

    /// Both leaves as options that are always close.
    fn both_close(_: &HashMap<String, i32>) -> Result<Vec<(String, Vec<String>)>, PregameError> {
        Ok(vec![("none".to_string(), vec![NONE.to_string()]), ("a8c8".to_string(), vec![SWAPPED.to_string()])])
    }

    #[test]
    fn a_fixed_depth_is_one_round_at_that_depth() {
        let v = by_name("dchess").unwrap();
        let mut scorer = Scorer::new(1, 1);
        let d = deepen(v, &leaves(), Budget::Depth(3), &mut scorer, both_close).unwrap();
        assert_eq!((d.depth, d.among, d.scores.len(), scorer.searches), (3, None, 2, 2));
    }

    #[test]
    fn node_budgets_deepen_every_leaf_together_and_stay_within_the_budget() {
        let v = by_name("dchess").unwrap();
        let mut first_round = Scorer::new(1, 1);
        deepen(v, &leaves(), Budget::Depth(1), &mut first_round, both_close).unwrap();
        let mut depths = Vec::new();
        let mut deeper_looks = 0;
        for nodes in [2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000] {
            let mut scorer = Scorer::new(1, 1);
            let d = deepen(v, &leaves(), Budget::Nodes(nodes), &mut scorer, both_close).unwrap();
            // Only the first round (depth 1) may go past the budget, and each capped search
            // by less than a node check's interval.
            assert!(scorer.nodes <= nodes + first_round.nodes + 2 * 4096, "{nodes}: {}", scorer.nodes);
            assert_eq!(d.scores.len(), 2);
            if let Some(among) = &d.among {
                assert_eq!(among, &["none", "a8c8"]);
                deeper_looks += 1;
            }
            depths.push(d.depth);
        }
        assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
        assert!(depths[depths.len() - 1] >= depths[0] + 3, "{depths:?}");
        assert!(deeper_looks > 0, "no budget left room for a deeper look: {depths:?}");
    }
}
