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
use crate::search::SearchLimits;
use menagerie_rules::geometry::Color;
use menagerie_rules::startpos::StartError;
use std::fmt;
use std::time::Duration;

/// The deepest fixed-depth budget accepted.
pub const MAX_DEPTH: u32 = 64;

/// The budget used when the caller gives none.
pub const DEFAULT_BUDGET: Budget = Budget::Depth(6);

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
/// count is the whole decision's, shared evenly among its searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Depth(u32),
    MoveTime { ms: u64 },
    Nodes(u64),
}

impl Budget {
    /// A budget from its protocol words: `depth D`, `movetime MS` or `nodes N`.
    pub fn from_words(kind: &str, value: &str) -> Result<Budget, PregameError> {
        let number = value
            .parse::<u64>()
            .map_err(|_| PregameError::BadBudget(format!("'{kind} {value}': {value} is not a whole number")))?;
        let budget = match kind {
            "depth" => Budget::Depth(u32::try_from(number).unwrap_or(u32::MAX)),
            "movetime" => Budget::MoveTime { ms: number },
            "nodes" => Budget::Nodes(number),
            _ => return Err(PregameError::BadBudget(format!("'{kind}' (movetime MS, depth D or nodes N)"))),
        };
        budget.validated()
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

    /// The limits of one of `searches` searches that share this budget.
    pub fn per_search(self, searches: usize) -> SearchLimits {
        let share = searches.max(1) as u64;
        match self {
            Budget::Depth(d) => SearchLimits::depth(d),
            Budget::MoveTime { ms } => SearchLimits::movetime((ms / share).max(1)),
            Budget::Nodes(n) => SearchLimits::nodes((n / share).max(1)),
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
    /// Nodes searched and wall time spent.
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Decision {
    fn from_options(chooser: Color, options: Vec<ScoredOption>, nodes: u64, elapsed: Duration) -> Decision {
        let mut best = 0;
        for (i, o) in options.iter().enumerate() {
            if o.score > options[best].score {
                best = i;
            }
        }
        Decision { chooser, options, best, nodes, elapsed }
    }

    /// The chosen option. A decision always has at least the option "none" or two sides.
    pub fn chosen(&self) -> &ScoredOption {
        &self.options[self.best]
    }
}
