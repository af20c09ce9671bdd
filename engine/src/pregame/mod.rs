//! The pre-game (rules.md sections 1 and 5): the D-Chess coin-toss winner's side choice, the
//! D-Chess first mover's transposition, and the Chess-9 relocations (Black first, then White
//! knowing Black's choice), as one sequence of steps, and the decisions search makes on it.
//! Every decision searches each option with a share of the caller's budget and reports every
//! option with its score, in centipawns from the chooser's point of view.
//!
//! Which decisions a variant has comes from its data (`Variant::transposition`,
//! `Variant::relocation`), never from its name.
//!
//! Owns: `PregameError`, `Budget`, `ScoredOption`, `Decision`, the pre-game order with the legal
//! options of each step (`sequence`, which the tournament referee walks too), the start checks
//! (`start_check`), the option scorer (`scorer`), the decisions and the whole pre-game
//! (`decide`), the protocol-neutral `pregame ...` command and its answers (`protocol`), the
//! command-line reports (`report`).
//! Must not know: UCI or XBoard I/O (the command returns its output lines), search internals
//! (the search is called as a black box), variant names.

pub mod decide;
pub mod deepening;
pub mod protocol;
pub mod report;
pub mod scorer;
pub mod sequence;
pub mod start_check;

pub use decide::{
    choose_relocation, choose_side, choose_transposition, run_pregame, Forced, Pregame, SideDecision, Step,
};
pub use protocol::{choice_in, protocol_command, request};
pub use report::{human_lines, machine_lines, parse_color};
pub use scorer::Scorer;
pub use sequence::{Sequence, StepKind, RELOCATION_ORDER};
pub use start_check::{check_start, CheckedStart};

use crate::engine::EngineError;
use crate::search::{SearchLimits, SearchParams};
use menagerie_rules::geometry::Color;
use menagerie_rules::startpos::StartError;
use std::fmt;
use std::time::Duration;

/// The deepest fixed-depth budget accepted.
pub const MAX_DEPTH: u32 = 64;

/// The budget used when the caller gives none and no clock is known.
pub const DEFAULT_BUDGET: Budget = Budget::MoveTime { ms: 2_000 };

/// A decision made before a clocked game gets the time the engine would give this many moves
/// at the start of that game. The pre-game is played once and shapes the whole game, so it is
/// worth several moves; the pre-game is not on the game's clock, so more would only lengthen
/// every game.
pub const PREGAME_MOVES: u64 = 5;

/// The least and the most a decision gets from a clock, in milliseconds: a bullet game's
/// decision still searches every option a few plies deep, and a long game's does not keep the
/// opponent waiting for minutes.
pub const CLOCK_BUDGET_MS: (u64, u64) = (100, 30_000);

/// Why a pre-game request was refused. Nothing is changed by a refused request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PregameError {
    /// The command line cannot be read.
    Syntax(String),
    UnknownVariant(String),
    /// The variant has no such pre-game decision (e.g. a transposition in Chess-9).
    NoSuchDecision {
        variant: String,
        decision: &'static str,
    },
    /// The text is not a FEN of the variant.
    BadFen(String),
    /// A valid position, but not a start position of the variant.
    NotAStart(String),
    /// A relocation asked for out of turn, or a second time.
    OutOfTurn(String),
    /// A swap or relocation the rules forbid.
    IllegalChoice(String),
    /// A budget that cannot be spent.
    BadBudget(String),
}

impl fmt::Display for PregameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PregameError::Syntax(m) => write!(f, "pregame: {m}"),
            PregameError::UnknownVariant(m) => write!(f, "pregame: {m}"),
            PregameError::NoSuchDecision { variant, decision } => {
                write!(f, "pregame: {variant} has no {decision}")
            }
            PregameError::BadFen(m) => write!(f, "pregame: bad FEN: {m}"),
            PregameError::NotAStart(m) => write!(f, "pregame: not a start position: {m}"),
            PregameError::OutOfTurn(m) => write!(f, "pregame: out of turn: {m}"),
            PregameError::IllegalChoice(m) => write!(f, "pregame: {m}"),
            PregameError::BadBudget(m) => write!(f, "pregame: bad budget: {m}"),
        }
    }
}

impl std::error::Error for PregameError {}

impl From<StartError> for PregameError {
    fn from(e: StartError) -> Self {
        match e {
            StartError::IllegalSwap(_) | StartError::IllegalRelocation(_) => PregameError::IllegalChoice(e.to_string()),
            StartError::BadFen(m) => PregameError::BadFen(m),
            other => PregameError::NotAStart(other.to_string()),
        }
    }
}

impl From<EngineError> for PregameError {
    fn from(e: EngineError) -> Self {
        PregameError::BadFen(e.to_string())
    }
}

/// What a decision may spend. A depth applies to every option's search; a move time or a node
/// count is the whole decision's (see `deepening` for how it is spent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Depth(u32),
    MoveTime { ms: u64 },
    Nodes(u64),
}

impl Budget {
    /// A budget from its protocol words: `depth D`, `movetime MS`, `nodes N`, or `clock BASE
    /// INC` (the game's clock and increment in milliseconds; see `for_clock`).
    pub fn from_words(words: &[&str]) -> Result<Budget, PregameError> {
        let number = |value: &str| {
            value
                .parse::<u64>()
                .map_err(|_| PregameError::BadBudget(format!("'{}': {value} is not a whole number", words.join(" "))))
        };
        let budget = match *words {
            ["depth", d] => Budget::Depth(u32::try_from(number(d)?).unwrap_or(u32::MAX)),
            ["movetime", ms] => Budget::MoveTime { ms: number(ms)? },
            ["nodes", n] => Budget::Nodes(number(n)?),
            ["clock", base, inc] => Budget::for_clock(number(base)?, number(inc)?)?,
            _ => {
                return Err(PregameError::BadBudget(format!(
                    "'{}' (movetime MS, depth D, nodes N or clock BASE INC)",
                    words.join(" ")
                )))
            }
        };
        budget.validated()
    }

    /// The budget of one decision before a game of `base_ms` on the clock plus `inc_ms` a
    /// move (see `for_game`).
    pub fn for_clock(base_ms: u64, inc_ms: u64) -> Result<Budget, PregameError> {
        if base_ms == 0 {
            return Err(PregameError::BadBudget("clock 0: a game needs time on its clock".to_string()));
        }
        let limits = SearchLimits { wtime: Some(base_ms), winc: Some(inc_ms), ..SearchLimits::default() };
        Ok(Budget::for_game(&limits))
    }

    /// The budget of one decision before a game whose first move White would search within
    /// `limits`: `PREGAME_MOVES` times that move's time (its clock over the moves to go, plus
    /// the increment), within `CLOCK_BUDGET_MS`; or as many times its nodes; or its depth. A
    /// game without limits gets `DEFAULT_BUDGET`.
    pub fn for_game(limits: &SearchLimits) -> Budget {
        let (least, most) = CLOCK_BUDGET_MS;
        let time = |ms: u64| Budget::MoveTime { ms: PREGAME_MOVES.saturating_mul(ms).clamp(least, most) };
        if let Some(nodes) = limits.nodes {
            return Budget::Nodes(PREGAME_MOVES.saturating_mul(nodes).max(1));
        }
        if let Some(ms) = limits.movetime {
            return time(ms);
        }
        if let Some(clock) = limits.wtime {
            let to_go = limits.movestogo.map_or(SearchParams::DEFAULT.time_moves_to_go, |m| u64::from(m.max(1)));
            return time(clock / to_go + limits.winc.unwrap_or(0));
        }
        match limits.depth {
            Some(depth) => Budget::Depth(depth.clamp(1, MAX_DEPTH)),
            None => DEFAULT_BUDGET,
        }
    }

    /// The budget itself if it can be spent.
    pub fn validated(self) -> Result<Budget, PregameError> {
        match self {
            Budget::Depth(d) if d == 0 || d > MAX_DEPTH => {
                Err(PregameError::BadBudget(format!("depth {d} (1..{MAX_DEPTH})")))
            }
            Budget::MoveTime { ms: 0 } => Err(PregameError::BadBudget("movetime 0".to_string())),
            Budget::Nodes(0) => Err(PregameError::BadBudget("nodes 0".to_string())),
            b => Ok(b),
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Depth(d) => write!(f, "depth {d}"),
            Budget::MoveTime { ms } => write!(f, "movetime {ms}"),
            Budget::Nodes(n) => write!(f, "nodes {n}"),
        }
    }
}

/// One option of a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoredOption {
    /// `white`/`black`, a swap token such as `b1g1`, `king`/`queen`, or `none`.
    pub name: String,
    /// Centipawns from the chooser's point of view (a forced mate as ±(31000 - plies)).
    pub score: i32,
    /// The start FEN this option leads to, with the later choices of the other side as the
    /// search expects them.
    pub fen: String,
    /// The other side's expected answer, where it still has a choice to make.
    pub reply: Option<String>,
}

/// A decision: every option scored, the best chosen (ties go to the earlier option, so "none"
/// and White win ties).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub chooser: Color,
    pub options: Vec<ScoredOption>,
    /// Index of the chosen option.
    pub best: usize,
    /// The depth every option was searched to (options close to the best may have been
    /// searched a ply deeper, see `deepening`).
    pub depth: u32,
    /// Nodes searched and wall time spent.
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Decision {
    /// The decision with the best of `options` chosen, or the best of those named in `among`.
    fn from_options(chooser: Color, options: Vec<ScoredOption>, among: Option<&[String]>) -> Decision {
        let allowed = |o: &ScoredOption| among.is_none_or(|names| names.contains(&o.name));
        let mut best = options.iter().position(allowed).expect("a decision has an allowed option");
        for (i, o) in options.iter().enumerate() {
            if allowed(o) && o.score > options[best].score {
                best = i;
            }
        }
        Decision { chooser, options, best, depth: 0, nodes: 0, elapsed: Duration::ZERO }
    }

    /// The chosen option. A decision always has at least the option "none" or two sides.
    pub fn chosen(&self) -> &ScoredOption {
        &self.options[self.best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(base_ms: u64, inc_ms: u64) -> Budget {
        Budget::for_clock(base_ms, inc_ms).unwrap()
    }

    #[test]
    fn a_longer_clock_gives_a_larger_budget_within_its_bounds() {
        // Five moves of the first move's time (the clock over 20 moves to go, plus the
        // increment): 2 s + 0.02 s gives 5 * (100 + 20) ms.
        assert_eq!(clock(2_000, 20), Budget::MoveTime { ms: 600 });
        assert_eq!(clock(60_000, 600), Budget::MoveTime { ms: 18_000 });
        let sizes: Vec<Budget> =
            [(1_000, 0), (2_000, 20), (10_000, 100), (60_000, 600)].map(|(b, i)| clock(b, i)).into();
        assert!(sizes
            .windows(2)
            .all(|w| matches!((w[0], w[1]), (Budget::MoveTime { ms: a }, Budget::MoveTime { ms: b }) if a < b)));
        // A bullet game's decision still gets the floor; a long game's is capped.
        assert_eq!(clock(100, 0), Budget::MoveTime { ms: CLOCK_BUDGET_MS.0 });
        assert_eq!(clock(3_600_000, 30_000), Budget::MoveTime { ms: CLOCK_BUDGET_MS.1 });
        assert!(Budget::for_clock(0, 100).is_err());
    }

    #[test]
    fn a_game_without_a_clock_lends_its_own_limit() {
        assert_eq!(Budget::for_game(&SearchLimits::movetime(200)), Budget::MoveTime { ms: 1_000 });
        assert_eq!(Budget::for_game(&SearchLimits::nodes(10_000)), Budget::Nodes(50_000));
        assert_eq!(Budget::for_game(&SearchLimits::depth(7)), Budget::Depth(7));
        assert_eq!(Budget::for_game(&SearchLimits::default()), DEFAULT_BUDGET);
        // Moves to go share the clock among fewer moves than the default 20.
        let session = SearchLimits { wtime: Some(60_000), movestogo: Some(40), ..SearchLimits::default() };
        assert_eq!(Budget::for_game(&session), Budget::MoveTime { ms: 7_500 });
    }

    #[test]
    fn the_choice_is_the_best_option_or_the_best_of_those_looked_at_deeper() {
        let option =
            |name: &str, score: i32| ScoredOption { name: name.to_string(), score, fen: String::new(), reply: None };
        let options = vec![option("none", 5), option("a1b1", 9), option("c1d1", 7), option("e1f1", 9)];
        let all = Decision::from_options(Color::White, options.clone(), None);
        assert_eq!(all.chosen().name, "a1b1", "ties go to the earlier option");
        let among = ["none".to_string(), "c1d1".to_string()];
        assert_eq!(Decision::from_options(Color::White, options, Some(&among)).chosen().name, "c1d1");
    }

    #[test]
    fn budgets_read_from_their_words() {
        assert_eq!(Budget::from_words(&["clock", "2000", "20"]), Ok(Budget::MoveTime { ms: 600 }));
        assert_eq!(Budget::from_words(&["depth", "5"]), Ok(Budget::Depth(5)));
        assert_eq!(Budget::from_words(&["nodes", "9"]), Ok(Budget::Nodes(9)));
        assert_eq!(Budget::from_words(&["movetime", "30"]), Ok(Budget::MoveTime { ms: 30 }));
        for bad in
            [&["clock", "0", "20"][..], &["clock", "2000"], &["clock", "x", "1"], &["depth", "0"], &["speed", "1"]]
        {
            assert!(matches!(Budget::from_words(bad), Err(PregameError::BadBudget(_))), "{bad:?}");
        }
    }
}
