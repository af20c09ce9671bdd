//! XBoard's time controls, in XBoard's units, turned into the engine's `SearchLimits`:
//! `level MPS BASE INC` (BASE in minutes or `MIN:SEC`, INC in seconds, fractions allowed),
//! `st SECONDS`, `sd DEPTH`, `nps N` (nodes stand in for time) and the clocks `time`/`otim` in
//! centiseconds.
//!
//! Owns: `Clock`, `ClockError`.
//! Must not know: positions, the session, search internals.

use crate::search::SearchLimits;
use menagerie_rules::geometry::Color;
use std::fmt;

/// A time-control command that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockError(pub String);

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read time control '{}'", self.0)
    }
}

impl std::error::Error for ClockError {}

/// The time control and the clocks as XBoard last sent them.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    /// Moves per session (0: the whole game).
    moves_per_session: u32,
    base_ms: u64,
    increment_ms: u64,
    /// `st`: exact time per move.
    per_move_ms: Option<u64>,
    /// `sd`.
    depth: Option<u32>,
    /// `nps`: nodes per second of virtual time.
    nps: Option<u64>,
    /// `time` and `otim`, in milliseconds.
    own_ms: Option<u64>,
    opponent_ms: Option<u64>,
}

impl Default for Clock {
    /// XBoard's default: 40 moves in 5 minutes.
    fn default() -> Clock {
        Clock {
            moves_per_session: 40,
            base_ms: 5 * 60_000,
            increment_ms: 0,
            per_move_ms: None,
            depth: None,
            nps: None,
            own_ms: None,
            opponent_ms: None,
        }
    }
}

fn seconds_to_ms(text: &str) -> Option<u64> {
    let s: f64 = text.trim().parse().ok()?;
    (0.0..1e9).contains(&s).then(|| (s * 1000.0).round() as u64)
}

fn count<T: std::str::FromStr>(text: &str) -> Option<T> {
    text.trim().parse().ok()
}

impl Clock {
    /// `level MPS BASE INC`.
    pub fn level(&mut self, args: &str) -> Result<(), ClockError> {
        let bad = || ClockError(format!("level {args}"));
        let words: Vec<&str> = args.split_whitespace().collect();
        let [mps, base, inc] = words[..] else { return Err(bad()) };
        let mps: u32 = count(mps).ok_or_else(bad)?;
        let base_ms = match base.split_once(':') {
            Some((min, sec)) => {
                let min: u64 = count(min).ok_or_else(bad)?;
                min.saturating_mul(60_000).saturating_add(seconds_to_ms(sec).ok_or_else(bad)?)
            }
            None => seconds_to_ms(base).ok_or_else(bad)?.saturating_mul(60),
        };
        let increment_ms = seconds_to_ms(inc).ok_or_else(bad)?;
        *self = Clock { moves_per_session: mps, base_ms, increment_ms, per_move_ms: None, ..self.clone() };
        Ok(())
    }

    /// `st SECONDS`.
    pub fn fixed_time(&mut self, args: &str) -> Result<(), ClockError> {
        let ms = seconds_to_ms(args).filter(|&ms| ms > 0).ok_or_else(|| ClockError(format!("st {args}")))?;
        self.per_move_ms = Some(ms);
        Ok(())
    }

    /// `sd DEPTH`; `None` removes the limit (as `new` does).
    pub fn set_depth(&mut self, depth: Option<u32>) {
        self.depth = depth;
    }

    /// `sd DEPTH`.
    pub fn depth(&mut self, args: &str) -> Result<(), ClockError> {
        let d: u32 = count(args).filter(|&d| d > 0).ok_or_else(|| ClockError(format!("sd {args}")))?;
        self.depth = Some(d.min(crate::search::score::MAX_PLY as u32 - 1));
        Ok(())
    }

    /// `nps N` (0 switches it off).
    pub fn nodes_per_second(&mut self, args: &str) -> Result<(), ClockError> {
        let n: u64 = count(args).ok_or_else(|| ClockError(format!("nps {args}")))?;
        self.nps = (n > 0).then_some(n);
        Ok(())
    }

    /// `time CS` (own clock) or `otim CS`.
    pub fn set_clock(&mut self, own: bool, args: &str) -> Result<(), ClockError> {
        // XBoard may send a negative time once the flag has fallen.
        let cs: i64 = count(args).ok_or_else(|| ClockError(format!("time {args}")))?;
        let ms = Some(cs.max(0) as u64 * 10);
        if own {
            self.own_ms = ms;
        } else {
            self.opponent_ms = ms;
        }
        Ok(())
    }

    /// Limits for the engine playing `side`, which has made `own_moves` moves this game.
    pub fn limits(&self, side: Color, own_moves: u32) -> SearchLimits {
        let mut limits = SearchLimits { depth: self.depth, ..SearchLimits::default() };
        let own = self.own_ms.unwrap_or(self.base_ms);
        let opponent = self.opponent_ms.unwrap_or(self.base_ms);
        let to_go = (self.moves_per_session > 0).then(|| self.moves_per_session - own_moves % self.moves_per_session);
        if let Some(nps) = self.nps {
            // The GUI counts nodes as time: spend a share of the virtual clock in nodes.
            let budget_ms =
                self.per_move_ms.unwrap_or_else(|| own / u64::from(to_go.unwrap_or(30)) + self.increment_ms);
            limits.nodes = Some((budget_ms.saturating_mul(nps) / 1000).max(1));
            return limits;
        }
        if let Some(ms) = self.per_move_ms {
            limits.movetime = Some(ms);
            return limits;
        }
        let (w, b) = if side == Color::White { (own, opponent) } else { (opponent, own) };
        limits.wtime = Some(w);
        limits.btime = Some(b);
        limits.winc = Some(self.increment_ms);
        limits.binc = Some(self.increment_ms);
        limits.movestogo = to_go;
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_forms() {
        let mut c = Clock::default();
        c.level("0 0:30 0.5").unwrap();
        c.set_clock(true, "2500").unwrap();
        let l = c.limits(Color::Black, 3);
        assert_eq!((l.btime, l.binc, l.wtime, l.movestogo), (Some(25_000), Some(500), Some(30_000), None));
        c.level("40 5 0").unwrap();
        let l = c.limits(Color::White, 41);
        assert_eq!((l.movestogo, l.winc), (Some(39), Some(0)));
        c.level("0 2 12").unwrap();
        assert!(c.level("0 x 1").is_err() && c.level("1 2").is_err() && c.level("0 -1 0").is_err());
        c.fixed_time("10").unwrap();
        assert_eq!(c.limits(Color::White, 0).movetime, Some(10_000));
        c.nodes_per_second("5000").unwrap();
        c.fixed_time("1").unwrap();
        assert_eq!(c.limits(Color::White, 0).nodes, Some(5000));
        c.depth("3").unwrap();
        assert_eq!(c.limits(Color::White, 0).depth, Some(3));
        assert!(c.depth("0").is_err() && c.fixed_time("nan").is_err());
    }

    #[test]
    fn the_pregame_budget_follows_the_time_control() {
        use crate::pregame::Budget;
        let budget = |c: &Clock| Budget::for_game(&c.limits(Color::White, 0));
        let mut c = Clock::default();
        c.level("0 0:02 0.02").unwrap();
        let short = budget(&c);
        c.level("0 1 0.6").unwrap();
        let long = budget(&c);
        assert_eq!((short, long), (Budget::MoveTime { ms: 600 }, Budget::MoveTime { ms: 18_000 }));
        // 40 moves in 2 minutes: the session's clock over its 40 moves.
        c.level("40 2 0").unwrap();
        assert_eq!(budget(&c), Budget::MoveTime { ms: 5 * 3_000 });
        c.fixed_time("2").unwrap();
        assert_eq!(budget(&c), Budget::MoveTime { ms: 10_000 });
        c.nodes_per_second("1000").unwrap();
        assert_eq!(budget(&c), Budget::Nodes(10_000));
    }
}
