//! Search limits and time management: what a `go` asks for (depth, nodes, mate, move time, clock
//! times with increments and moves to go, infinite or ponder), turned into a soft limit (do not
//! start another iteration after it) and a hard limit (stop searching at once), both kept clear
//! of the clock by a move overhead so that the engine never loses on time. The shares and
//! factors are the `time_` numbers of `SearchParams`.
//!
//! Owns: `SearchLimits`, `TimeManager`.
//! Must not know: positions, moves, protocols.

use super::params::SearchParams;
use menagerie_rules::geometry::Color;
use std::time::{Duration, Instant};

/// What a search is asked to respect. Every field is optional; with none set the search runs
/// until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes, summed over all threads.
    pub nodes: Option<u64>,
    /// Nodes after which no new iteration starts (the one under way is completed, so that its
    /// lines are whole): a limit of strength, not of time.
    pub soft_nodes: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Exact time for this move, in milliseconds.
    pub movetime: Option<u64>,
    /// Clock times and increments in milliseconds.
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
    /// Pondering: search until stopped (on `ponderhit` the protocol starts a timed search).
    pub ponder: bool,
}

impl SearchLimits {
    /// Limits of a fixed-depth search.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits { depth: Some(depth), ..SearchLimits::default() }
    }

    /// Limits of a search of a fixed number of nodes.
    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits { nodes: Some(nodes), ..SearchLimits::default() }
    }

    /// Limits of a search of fixed time.
    pub fn movetime(ms: u64) -> SearchLimits {
        SearchLimits { movetime: Some(ms), ..SearchLimits::default() }
    }

    /// Whether only `stop` ends the search.
    pub fn until_stopped(&self) -> bool {
        self.infinite || self.ponder
    }
}

/// Time limits of one search, measured from its start.
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Do not start a new iteration after this much time.
    soft: Option<Duration>,
    /// Stop at once after this much time.
    hard: Option<Duration>,
    /// Whether the soft limit may be scaled by how settled the search is: under a clock, not
    /// for a fixed move time.
    flexible: bool,
}

impl TimeManager {
    /// Limits for `side` to move, with `overhead_ms` kept in reserve per move for communication,
    /// under the default shares (`SearchParams::DEFAULT`).
    pub fn new(limits: &SearchLimits, side: Color, overhead_ms: u64, start: Instant) -> TimeManager {
        TimeManager::with_params(limits, side, overhead_ms, start, &SearchParams::DEFAULT)
    }

    /// As `new`, with the shares of `params` (its `time_` numbers).
    pub fn with_params(
        limits: &SearchLimits,
        side: Color,
        overhead_ms: u64,
        start: Instant,
        params: &SearchParams,
    ) -> TimeManager {
        let none = TimeManager { start, soft: None, hard: None, flexible: false };
        if limits.until_stopped() {
            return none;
        }
        if let Some(ms) = limits.movetime {
            let t = Duration::from_millis(ms.saturating_sub(overhead_ms).max(1));
            return TimeManager { start, soft: Some(t), hard: Some(t), flexible: false };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime, limits.winc.unwrap_or(0)),
            Color::Black => (limits.btime, limits.binc.unwrap_or(0)),
        };
        let Some(time) = time else { return none };
        // Never plan to use more than the clock minus the overhead.
        let usable = time.saturating_sub(overhead_ms).max(1);
        let to_go = limits.movestogo.map(|m| m.clamp(1, 50) as u64).unwrap_or(params.time_moves_to_go.max(1));
        // The time this move should take on average.
        let share = (usable / to_go + inc * params.time_increment_percent / 100).min(usable / 2).max(1);
        // An iteration takes longer than all before it: none starts after part of the share.
        let soft = (share * params.time_soft_percent / 100).max(1);
        // The hard limit: a few shares, but at most a fraction of the clock (most of it only
        // when this is the last move before the control).
        let cap = if to_go == 1 { usable * 9 / 10 } else { usable / params.time_hard_clock_divisor.max(1) };
        let hard = (share * params.time_hard_percent / 100).min(cap).max(soft).max(1);
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            flexible: true,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search has a time limit at all.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }

    /// Whether a new iteration should not be started once the soft limit is scaled by
    /// `factor` (see `SearchParams::iteration_time_factor`) where the clock leaves the choice; the hard limit
    /// still stops the search.
    pub fn soft_expired_scaled(&self, factor: f64) -> bool {
        let factor = if self.flexible { factor.max(0.0) } else { 1.0 };
        self.soft.is_some_and(|s| self.elapsed() >= s.mul_f64(factor))
    }

    /// Whether the search must stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_stay_inside_the_clock() {
        let start = Instant::now();
        let limits = SearchLimits { wtime: Some(1000), winc: Some(0), ..SearchLimits::default() };
        let tm = TimeManager::new(&limits, Color::White, 50, start);
        let (soft, hard) = (tm.soft.unwrap(), tm.hard.unwrap());
        assert!(soft <= hard && hard < Duration::from_millis(950));
        let limits = SearchLimits { btime: Some(10), movestogo: Some(1), ..SearchLimits::default() };
        let tm = TimeManager::new(&limits, Color::Black, 50, start);
        assert_eq!(tm.hard, Some(Duration::from_millis(1)));
        let tm = TimeManager::new(&SearchLimits::movetime(300), Color::White, 20, start);
        assert_eq!(tm.hard, Some(Duration::from_millis(280)));
        let tm = TimeManager::new(
            &SearchLimits { infinite: true, movetime: Some(5), ..Default::default() },
            Color::White,
            0,
            start,
        );
        assert!(!tm.is_timed());
        // Only White's clock given, Black to move: no time limit.
        let tm = TimeManager::new(&SearchLimits { wtime: Some(5), ..Default::default() }, Color::Black, 0, start);
        assert!(!tm.is_timed());
    }

    #[test]
    fn an_unsettled_or_falling_search_gets_more_time_a_settled_one_less() {
        let p = SearchParams::DEFAULT;
        assert!(p.iteration_time_factor(0, 0) > p.iteration_time_factor(1, 0));
        assert!(p.iteration_time_factor(4, 0) < 1.0);
        assert_eq!(p.iteration_time_factor(4, 0), p.iteration_time_factor(40, 0));
        assert!(p.iteration_time_factor(2, 100) > p.iteration_time_factor(2, 0));
        assert_eq!(p.iteration_time_factor(2, -300), p.iteration_time_factor(2, 0));
        assert_eq!(p.iteration_time_factor(2, 1000), 1.5);
    }
}
