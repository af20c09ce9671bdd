//! The decisions. D-Chess: the coin-toss winner takes White or Black; the other side then moves
//! first and may transpose, so each side option is scored as the negated best transposition of
//! the first mover. The first mover picks the best of "none" and the 19 legal swaps, each scored
//! by a search with him to move. Chess-9: Black relocates first, then White knowing Black's
//! choice, then White moves; Black's options are scored against White's best answer.
//!
//! Owns: `choose_side`, `choose_transposition`, `choose_relocation`, `run_pregame` and their
//! results.
//! Must not know: protocols, search internals, variant names.

use super::start_check::{check_start, with_side_to_move};
use super::{Budget, Decision, PregameError, ScoredOption, Scorer};
use crate::geometry::Color;
use crate::search::SearchLimits;
use crate::startpos::{apply_relocation, apply_transposition, relocations, transpositions};
use crate::variant::{TranspositionRule, Variant};
use std::time::Instant;

/// The order of the relocations (rules.md 5(c)): Black relocates or declines, then White.
pub const RELOCATION_ORDER: [Color; 2] = [Color::Black, Color::White];

/// The side choice, with the first mover's transposition decision under each option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideDecision {
    /// Options `white` and `black` (the side the coin-toss winner takes).
    pub decision: Decision,
    /// Per option, in the same order: the first mover's transposition decision.
    pub replies: Vec<Decision>,
}

impl SideDecision {
    /// The side the coin-toss winner takes.
    pub fn side(&self) -> Color {
        self.decision.chooser
    }
}

fn require_transposition(v: &Variant) -> Result<(), PregameError> {
    if v.transposition == TranspositionRule::None {
        return Err(PregameError::NoSuchDecision { variant: v.name.clone(), decision: "transposition" });
    }
    Ok(())
}

fn require_relocation(v: &Variant) -> Result<(), PregameError> {
    if v.relocation.is_empty() {
        return Err(PregameError::NoSuchDecision { variant: v.name.clone(), decision: "relocation" });
    }
    Ok(())
}

/// "none" and every legal swap of the side to move, each with the FEN it leads to.
fn swap_options(v: &Variant, fen: &str) -> Result<Vec<(String, String)>, PregameError> {
    let mut out = vec![("none".to_string(), fen.to_string())];
    for token in transpositions(v, fen)? {
        let swapped = apply_transposition(v, fen, &token)?;
        out.push((token, swapped));
    }
    Ok(out)
}

/// Score options whose FENs have the chooser to move and about to make the first move.
fn score_to_move(
    v: &'static Variant,
    chooser: Color,
    options: Vec<(String, String)>,
    limits: &SearchLimits,
    scorer: &mut Scorer,
) -> Result<Decision, PregameError> {
    let (start, nodes) = (Instant::now(), scorer.nodes);
    let mut scored = Vec::with_capacity(options.len());
    for (name, fen) in options {
        let score = scorer.score(v, &fen, limits.clone())?;
        scored.push(ScoredOption { name, score, fen, reply: None });
    }
    Ok(Decision::from_options(chooser, scored, scorer.nodes - nodes, start.elapsed()))
}

/// The D-Chess transposition of the first mover (the side to move in `fen`): "none" and the 19
/// legal swaps, each searched with him to move.
pub fn choose_transposition(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    scorer: &mut Scorer,
) -> Result<Decision, PregameError> {
    require_transposition(v)?;
    let budget = budget.validated()?;
    let start = check_start(v, fen)?;
    let options = swap_options(v, &start.fen)?;
    let limits = budget.per_search(options.len());
    score_to_move(v, start.to_move, options, &limits, scorer)
}

/// The D-Chess side choice of the coin-toss winner. The side to move in `fen` is ignored: the
/// choice decides it (the side not taken moves first).
pub fn choose_side(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    scorer: &mut Scorer,
) -> Result<SideDecision, PregameError> {
    require_transposition(v)?;
    let budget = budget.validated()?;
    let start = check_start(v, fen)?;
    let (clock, nodes) = (Instant::now(), scorer.nodes);
    let taken = [Color::White, Color::Black];
    let mut per_option = Vec::with_capacity(taken.len());
    for side in taken {
        per_option.push(swap_options(v, &with_side_to_move(&start.fen, side.flip()))?);
    }
    let limits = budget.per_search(per_option.iter().map(Vec::len).sum());
    let mut options = Vec::with_capacity(taken.len());
    let mut replies = Vec::with_capacity(taken.len());
    for (side, swaps) in taken.into_iter().zip(per_option) {
        let reply = score_to_move(v, side.flip(), swaps, &limits, scorer)?;
        let answer = reply.chosen();
        options.push(ScoredOption {
            name: side.to_string(),
            score: -answer.score,
            fen: answer.fen.clone(),
            reply: Some(answer.name.clone()),
        });
        replies.push(reply);
    }
    let mut decision = Decision::from_options(Color::White, options, scorer.nodes - nodes, clock.elapsed());
    // The coin-toss winner has no colour until he chooses: the chooser is the side taken.
    decision.chooser = taken[decision.best];
    Ok(SideDecision { decision, replies })
}

/// Whether `color` may relocate now: Black chooses first from the orthodox arrays (White's
/// still orthodox), White chooses once, knowing Black's choice.
fn check_relocation_turn(v: &'static Variant, fen: &str, color: Color) -> Result<(), PregameError> {
    let start = check_start(v, fen)?;
    let base = 0;
    match color {
        Color::Black if start.black_array != base => {
            Err(PregameError::OutOfTurn("Black has already made its relocation".to_string()))
        }
        Color::Black if start.white_array != base => Err(PregameError::OutOfTurn(
            "White's array is already relocated, but Black chooses first (White's array must be orthodox)".to_string(),
        )),
        Color::White if start.white_array != base => {
            Err(PregameError::OutOfTurn("White has already made its relocation".to_string()))
        }
        _ => Ok(()),
    }
}

fn relocation_options(v: &Variant, fen: &str, color: Color) -> Result<Vec<(String, String)>, PregameError> {
    relocations(v, fen, color)?
        .into_iter()
        .map(|name| {
            let after = apply_relocation(v, fen, color, &name)?;
            Ok((name, after))
        })
        .collect()
}

/// The Chess-9 relocation of `color`: "none" or a piece that may swap with its bishop. Black's
/// options are scored against White's best answer; White's with White to move.
pub fn choose_relocation(
    v: &'static Variant,
    fen: &str,
    color: Color,
    budget: Budget,
    scorer: &mut Scorer,
) -> Result<Decision, PregameError> {
    require_relocation(v)?;
    let budget = budget.validated()?;
    let start = check_start(v, fen)?;
    check_relocation_turn(v, &start.fen, color)?;
    let own = relocation_options(v, &start.fen, color)?;
    let later: Vec<Color> = RELOCATION_ORDER.iter().copied().skip_while(|&c| c != color).skip(1).collect();
    let Some(&answerer) = later.first() else {
        // The last to relocate: the game starts, White to move.
        let limits = budget.per_search(own.len());
        return score_to_move(v, color, own, &limits, scorer);
    };
    let (clock, nodes) = (Instant::now(), scorer.nodes);
    let mut answers = Vec::with_capacity(own.len());
    for (_, after) in &own {
        answers.push(relocation_options(v, after, answerer)?);
    }
    let limits = budget.per_search(answers.iter().map(Vec::len).sum());
    let mut options = Vec::with_capacity(own.len());
    for ((name, _), answer_options) in own.into_iter().zip(answers) {
        let reply = score_to_move(v, answerer, answer_options, &limits, scorer)?;
        let answer = reply.chosen();
        options.push(ScoredOption {
            name,
            score: -answer.score,
            fen: answer.fen.clone(),
            reply: Some(answer.name.clone()),
        });
    }
    Ok(Decision::from_options(color, options, scorer.nodes - nodes, clock.elapsed()))
}

/// Choices a user imposes instead of letting the engine decide.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Forced {
    /// D-Chess: the side the coin-toss winner takes.
    pub side: Option<Color>,
    /// D-Chess: the first mover's transposition (`none` or a swap token).
    pub swap: Option<String>,
    /// Chess-9: relocations by colour (`none`, `king`, `queen`).
    pub relocations: Vec<(Color, String)>,
}

/// Which step of a pre-game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The coin-toss winner's side.
    Side,
    /// The first mover's transposition.
    Swap(Color),
    /// A Chess-9 relocation.
    Relocate(Color),
}

impl StepKind {
    /// A short key for machine-readable output: `side`, `swap`, `relocate.black`.
    pub fn key(self) -> String {
        match self {
            StepKind::Side => "side".to_string(),
            StepKind::Swap(_) => "swap".to_string(),
            StepKind::Relocate(c) => format!("relocate.{c}"),
        }
    }
}

/// One step of a pre-game: the engine's decision, or a choice the user imposed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub kind: StepKind,
    /// `None` when the choice was imposed.
    pub decision: Option<Decision>,
    pub choice: String,
}

/// A whole pre-game: the steps in order and the start FEN they lead to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pregame {
    pub steps: Vec<Step>,
    pub fen: String,
}

/// Every pre-game decision the variant has, in order, from the start position `fen`:
/// D-Chess side choice and transposition; Chess-9 relocations still open (Black's, then
/// White's). Imposed choices replace the engine's.
pub fn run_pregame(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    forced: &Forced,
    scorer: &mut Scorer,
) -> Result<Pregame, PregameError> {
    let budget = budget.validated()?;
    if (forced.side.is_some() || forced.swap.is_some()) && v.transposition == TranspositionRule::None {
        return Err(PregameError::NoSuchDecision { variant: v.name.clone(), decision: "side choice or transposition" });
    }
    if !forced.relocations.is_empty() {
        require_relocation(v)?;
    }
    if v.transposition != TranspositionRule::None {
        transposition_pregame(v, fen, budget, forced, scorer)
    } else if !v.relocation.is_empty() {
        relocation_pregame(v, fen, budget, forced, scorer)
    } else {
        Err(PregameError::NoSuchDecision { variant: v.name.clone(), decision: "pre-game decision" })
    }
}

fn transposition_pregame(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    forced: &Forced,
    scorer: &mut Scorer,
) -> Result<Pregame, PregameError> {
    let start = check_start(v, fen)?;
    if let Some(token) = forced.swap.as_deref().filter(|&t| t != "none") {
        // Refuse a bad swap before any search: it must be legal for one of the two sides.
        let for_white = apply_transposition(v, &with_side_to_move(&start.fen, Color::White), token);
        let for_black = apply_transposition(v, &with_side_to_move(&start.fen, Color::Black), token);
        if let (Err(e), Err(_)) = (for_white, for_black) {
            return Err(e.into());
        }
    }
    let mut steps = Vec::new();
    let (side, mut reply) = match forced.side {
        Some(side) => {
            steps.push(Step { kind: StepKind::Side, decision: None, choice: side.to_string() });
            (side, None)
        }
        None => {
            let d = choose_side(v, &start.fen, budget, scorer)?;
            let side = d.side();
            let reply = d.replies.get(d.decision.best).cloned();
            steps.push(Step { kind: StepKind::Side, decision: Some(d.decision), choice: side.to_string() });
            (side, reply)
        }
    };
    let first_mover = side.flip();
    let first_fen = with_side_to_move(&start.fen, first_mover);
    let (decision, choice, fen) = match forced.swap.as_deref() {
        Some("none") => (None, "none".to_string(), first_fen),
        Some(token) => {
            let fen = apply_transposition(v, &first_fen, token)?;
            (None, token.to_string(), fen)
        }
        None => {
            let d = match reply.take() {
                Some(d) => d,
                None => choose_transposition(v, &first_fen, budget, scorer)?,
            };
            let chosen = d.chosen().clone();
            (Some(d), chosen.name, chosen.fen)
        }
    };
    steps.push(Step { kind: StepKind::Swap(first_mover), decision, choice });
    Ok(Pregame { steps, fen })
}

fn relocation_pregame(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    forced: &Forced,
    scorer: &mut Scorer,
) -> Result<Pregame, PregameError> {
    let mut fen = check_start(v, fen)?.fen;
    let mut steps = Vec::new();
    for color in RELOCATION_ORDER {
        let imposed = forced.relocations.iter().find(|(c, _)| *c == color).map(|(_, r)| r.clone());
        let open = check_relocation_turn(v, &fen, color).is_ok();
        match (imposed, open) {
            (Some(choice), true) => {
                fen = apply_relocation(v, &fen, color, &choice)?;
                steps.push(Step { kind: StepKind::Relocate(color), decision: None, choice });
            }
            (Some(choice), false) => {
                check_relocation_turn(v, &fen, color)?;
                return Err(PregameError::OutOfTurn(format!("{color} cannot relocate ({choice})")));
            }
            (None, true) => {
                let d = choose_relocation(v, &fen, color, budget, scorer)?;
                let choice = d.chosen().name.clone();
                fen = apply_relocation(v, &fen, color, &choice)?;
                steps.push(Step { kind: StepKind::Relocate(color), decision: Some(d), choice });
            }
            (None, false) => log::info!("pregame: {color}'s relocation is already made in {fen}"),
        }
    }
    Ok(Pregame { steps, fen })
}
