//! Matches between engines refereed by Menagerie's own rules core (`menagerie match`), and
//! opening books for external match tools (`menagerie book`).
//!
//! Layers: `runner` (the match: workers, PGN file, progress, SPRT stop) -> `schedule` (pairings,
//! start positions) / `referee` (one game) -> `client` (the engine interface) -> `uci_client` /
//! `xboard_client` -> `engine_process`; `pgn`, `stats` and `book` stand alone.
//!
//! Owns: the match settings (`TimeControl`, `Adjudication`, `GameOptions`), `MatchError`.
//! Must not know: search or evaluation internals; the variants' names (behaviour comes from
//! the variant data).

pub mod book;
pub mod client;
pub mod engine_process;
pub mod pgn;
pub mod referee;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod uci_client;
pub mod xboard_client;

use menagerie_engine::pregame::Budget;
use menagerie_engine::search::SearchLimits;
use std::fmt;
use std::str::FromStr;

pub use engine_process::{EngineError, EngineSpec, PregameMode, Proto};
pub use runner::{run_match, MatchConfig, MatchSummary};

/// Any failure of a match or book run that stops it.
#[derive(Debug)]
pub enum MatchError {
    Config(String),
    Engine(EngineError),
    Io(String),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(m) => f.write_str(m),
            MatchError::Engine(e) => write!(f, "{e}"),
            MatchError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<EngineError> for MatchError {
    fn from(e: EngineError) -> MatchError {
        MatchError::Engine(e)
    }
}

/// How long engines may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Base time and increment, kept by the referee.
    Clock { base_ms: u64, inc_ms: u64 },
    /// Fixed time per move.
    MoveTime(u64),
    /// Fixed depth (no clock; a hang is caught by the hang timeout).
    Depth(u32),
    /// Fixed nodes per move.
    Nodes(u64),
}

impl TimeControl {
    /// What each pre-game decision may spend before a game at this time control: the engine's
    /// own rule for the limits of the game's first move (`Budget::for_game`).
    pub fn pregame_budget(&self) -> Budget {
        let limits = match *self {
            TimeControl::Clock { base_ms, inc_ms } => {
                SearchLimits { wtime: Some(base_ms), winc: Some(inc_ms), ..SearchLimits::default() }
            }
            TimeControl::MoveTime(ms) => SearchLimits::movetime(ms),
            TimeControl::Depth(d) => SearchLimits::depth(d),
            TimeControl::Nodes(n) => SearchLimits::nodes(n),
        };
        Budget::for_game(&limits)
    }
}

fn millis(secs: &str) -> Option<u64> {
    let s: f64 = secs.parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| (s * 1000.0).round() as u64)
}

impl FromStr for TimeControl {
    type Err = MatchError;
    /// `10+0.1` (seconds), `movetime=200` (ms), `depth=6`, `nodes=20000`.
    fn from_str(s: &str) -> Result<TimeControl, MatchError> {
        let bad = || MatchError::Config(format!("bad time control '{s}' (10+0.1, movetime=MS, depth=N or nodes=N)"));
        if let Some((k, v)) = s.split_once('=') {
            let n: u64 = v.parse().map_err(|_| bad())?;
            return match k {
                "movetime" if n > 0 => Ok(TimeControl::MoveTime(n)),
                "depth" if n > 0 && n < 128 => Ok(TimeControl::Depth(n as u32)),
                "nodes" if n > 0 => Ok(TimeControl::Nodes(n)),
                _ => Err(bad()),
            };
        }
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        match (millis(base), millis(inc)) {
            (Some(b), Some(i)) if b > 0 => Ok(TimeControl::Clock { base_ms: b, inc_ms: i }),
            _ => Err(bad()),
        }
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag: `10+0.1` in seconds, `1/0.2` for a fixed time per move, `-`
    /// for depth or nodes.
    pub fn pgn(&self) -> String {
        let secs = |ms: u64| {
            let s = format!("{:.3}", ms as f64 / 1000.0);
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        };
        match *self {
            TimeControl::Clock { base_ms, inc_ms: 0 } => secs(base_ms),
            TimeControl::Clock { base_ms, inc_ms } => format!("{}+{}", secs(base_ms), secs(inc_ms)),
            TimeControl::MoveTime(ms) => format!("1/{}", secs(ms)),
            _ => "-".to_string(),
        }
    }
}

/// Resign adjudication: both engines agree, for `count` moves each, that one side is at least
/// `score` centipawns behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub count: u32,
    pub score: i32,
}

/// Draw adjudication: from move `move_number`, both engines' last `count` scores within
/// `score` centipawns of zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub count: u32,
    pub score: i32,
}

/// Optional adjudication.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    pub resign: Option<ResignRule>,
    pub draw: Option<DrawRule>,
    /// A draw after this many moves (each side).
    pub max_moves: Option<u32>,
}

/// Read `key=value` fields into numbers, with the allowed keys.
pub fn key_values(text: &[String], keys: &[&str]) -> Result<Vec<f64>, MatchError> {
    let mut out = vec![f64::NAN; keys.len()];
    for field in text.iter().flat_map(|t| t.split_whitespace()) {
        let (k, v) = field.split_once('=').ok_or_else(|| MatchError::Config(format!("'{field}' is not key=value")))?;
        let i = keys
            .iter()
            .position(|&x| x == k)
            .ok_or_else(|| MatchError::Config(format!("unknown key '{k}' (expected {})", keys.join(", "))))?;
        out[i] = v.parse().map_err(|_| MatchError::Config(format!("'{v}' is not a number in '{field}'")))?;
    }
    if let Some(i) = out.iter().position(|x| x.is_nan()) {
        return Err(MatchError::Config(format!("missing {}=...", keys[i])));
    }
    Ok(out)
}

impl Adjudication {
    /// From the command-line forms `movecount=3 score=600`, `movenumber=40 movecount=8 score=10`.
    pub fn parse(resign: &[String], draw: &[String], max_moves: Option<u32>) -> Result<Adjudication, MatchError> {
        let resign = if resign.is_empty() {
            None
        } else {
            let v = key_values(resign, &["movecount", "score"])?;
            Some(ResignRule { count: v[0].max(1.0) as u32, score: v[1] as i32 })
        };
        let draw = if draw.is_empty() {
            None
        } else {
            let v = key_values(draw, &["movenumber", "movecount", "score"])?;
            Some(DrawRule { move_number: v[0] as u32, count: v[1].max(1.0) as u32, score: v[2] as i32 })
        };
        Ok(Adjudication { resign, draw, max_moves })
    }
}

/// Settings of every game of a match.
#[derive(Clone, Copy, Debug)]
pub struct GameOptions {
    pub tc: TimeControl,
    /// Allowed overrun of a clock or move time before a time forfeit.
    pub grace_ms: u64,
    /// Without a clock (depth, nodes): how long an engine may stay silent.
    pub hang_ms: u64,
    /// What each pre-game decision may spend (the `pregame` command's budget).
    pub pregame_budget: Budget,
    pub adjudication: Adjudication,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!("10+0.1".parse::<TimeControl>().unwrap(), TimeControl::Clock { base_ms: 10_000, inc_ms: 100 });
        assert_eq!("60".parse::<TimeControl>().unwrap(), TimeControl::Clock { base_ms: 60_000, inc_ms: 0 });
        assert_eq!("movetime=200".parse::<TimeControl>().unwrap(), TimeControl::MoveTime(200));
        assert_eq!("depth=5".parse::<TimeControl>().unwrap(), TimeControl::Depth(5));
        assert_eq!("nodes=1000".parse::<TimeControl>().unwrap(), TimeControl::Nodes(1000));
        for bad in ["", "x+1", "0+1", "depth=0", "speed=3", "10+-1", "depth=x"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(TimeControl::Clock { base_ms: 10_000, inc_ms: 100 }.pgn(), "10+0.1");
        assert_eq!(TimeControl::MoveTime(200).pgn(), "1/0.2");
        assert_eq!(TimeControl::Depth(3).pgn(), "-");
    }

    #[test]
    fn adjudication_forms() {
        let a = Adjudication::parse(&["movecount=3 score=600".into()], &[], Some(200)).unwrap();
        assert_eq!(a.resign, Some(ResignRule { count: 3, score: 600 }));
        assert!(a.draw.is_none());
        let d = Adjudication::parse(&[], &["movenumber=40".into(), "movecount=8".into(), "score=10".into()], None);
        assert_eq!(d.unwrap().draw, Some(DrawRule { move_number: 40, count: 8, score: 10 }));
        assert!(Adjudication::parse(&["movecount=3".into()], &[], None).is_err());
        assert!(Adjudication::parse(&["moves=3 score=1".into()], &[], None).is_err());
    }
}
