//! The search-driven decisions, made by walking the pre-game `Sequence` to its end. Each option
//! of a step is scored for its chooser: by a search of the start it leads to where it ends the
//! pre-game (the first mover to move), or else as the best answer of the next chooser, negated
//! where that is the other side. D-Chess: the first mover picks the best of "none" and the 19
//! swaps; the coin-toss winner's side choice is the negated best transposition of the first
//! mover. Chess-9: White's relocation is searched with White to move; Black's options are scored
//! against White's best answer. A decision's budget is spent on the start positions its options
//! lead to by `deepening`, and the decision is made from their scores.
//!
//! Owns: `choose_side`, `choose_transposition`, `choose_relocation`, `run_pregame` and their
//! results.
//! Must not know: protocols, search internals, variant names, the pre-game order and its legal
//! options (the `Sequence`'s).

use super::deepening::{deepen, TIE_MARGIN};
use super::sequence::{
    relocation_turn, require_pregame, require_relocation, require_transposition, Sequence, StepKind, RELOCATION_ORDER,
};
use super::start_check::check_start;
use super::{Budget, Decision, PregameError, ScoredOption, Scorer};
use menagerie_rules::geometry::Color;
use menagerie_rules::startpos::{apply_transposition, side_to_move, with_side_to_move};
use menagerie_rules::variant::{TranspositionRule, Variant};
use std::collections::HashMap;
use std::time::Instant;

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

/// A step decided: the decision, and per option the decision of the next step it leads to
/// (none where the option ends the pre-game).
struct Lookahead {
    decision: Decision,
    replies: Vec<Decision>,
}

/// The start positions that the options of the next step of `seq` lead to (the leaves of
/// its decision tree), in the order of the options: one per way to the end.
fn leaves(seq: &Sequence) -> Result<Vec<String>, PregameError> {
    if seq.next().is_none() {
        return Ok(vec![seq.fen().to_string()]);
    }
    let mut out = Vec::new();
    for option in seq.options()? {
        out.extend(leaves(&seq.after(&option)?)?);
    }
    Ok(out)
}

/// The decision of the next step of `seq` from its leaves' `scores` (each from its side to
/// move), in the order of the options. `among`, where given, limits the choice to those
/// options.
fn lookahead(
    seq: &Sequence,
    scores: &HashMap<String, i32>,
    among: Option<&[String]>,
) -> Result<Lookahead, PregameError> {
    let Some(kind) = seq.next() else {
        return Err(PregameError::OutOfTurn("the pre-game is over".to_string()));
    };
    let mut options = Vec::new();
    let mut replies = Vec::new();
    for name in seq.options()? {
        let after = seq.after(&name)?;
        let chooser = kind.chooser_after(&name);
        let for_chooser = |score: i32, side: Color| if side == chooser { score } else { -score };
        if after.next().is_none() {
            let score = *scores.get(after.fen()).expect("every leaf is scored");
            let score = for_chooser(score, side_to_move(after.fen()));
            options.push(ScoredOption { name, score, fen: after.fen().to_string(), reply: None });
        } else {
            let reply = lookahead(&after, scores, None)?.decision;
            let answer = reply.chosen();
            options.push(ScoredOption {
                name,
                score: for_chooser(answer.score, reply.chooser),
                fen: answer.fen.clone(),
                reply: Some(answer.name.clone()),
            });
            replies.push(reply);
        }
    }
    let mut decision = Decision::from_options(Color::White, options, among);
    // The coin-toss winner has no colour until he chooses: the chooser is the side taken.
    decision.chooser = kind.chooser_after(&decision.chosen().name);
    Ok(Lookahead { decision, replies })
}

/// The options of the next step of `seq` whose scores under `scores` are within `TIE_MARGIN`
/// of the best, each with its leaves.
fn close_options(seq: &Sequence, scores: &HashMap<String, i32>) -> Result<Vec<(String, Vec<String>)>, PregameError> {
    let decision = lookahead(seq, scores, None)?.decision;
    let best = decision.chosen().score;
    let mut close = Vec::new();
    for option in decision.options.iter().filter(|o| o.score >= best - TIE_MARGIN) {
        close.push((option.name.clone(), leaves(&seq.after(&option.name)?)?));
    }
    Ok(close)
}

/// Decide the next step of `seq` within `budget` (see `deepening`).
fn decide(seq: &Sequence, budget: Budget, scorer: &mut Scorer) -> Result<Lookahead, PregameError> {
    let (clock, nodes) = (Instant::now(), scorer.nodes);
    let all = leaves(seq)?;
    let deepened = deepen(seq.variant(), &all, budget, scorer, |scores| close_options(seq, scores))?;
    let mut found = lookahead(seq, &deepened.scores, deepened.among.as_deref())?;
    found.decision.nodes = scorer.nodes - nodes;
    found.decision.elapsed = clock.elapsed();
    found.decision.depth = deepened.depth;
    for reply in &mut found.replies {
        reply.depth = deepened.depth;
    }
    Ok(found)
}

/// Decide one step asked on its own: the step `first` gives for the side to move of the start
/// `fen`, with the pre-game from there on.
fn decide_alone(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    scorer: &mut Scorer,
    require: fn(&Variant) -> Result<(), PregameError>,
    first: impl FnOnce(Color) -> StepKind,
) -> Result<Lookahead, PregameError> {
    require(v)?;
    let budget = budget.validated()?;
    let start = check_start(v, fen)?;
    decide(&Sequence::from_step(v, &start.fen, first(start.to_move))?, budget, scorer)
}

/// The D-Chess transposition of the first mover (the side to move in `fen`): "none" and the 19
/// legal swaps, each searched with him to move.
pub fn choose_transposition(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    scorer: &mut Scorer,
) -> Result<Decision, PregameError> {
    Ok(decide_alone(v, fen, budget, scorer, require_transposition, StepKind::Swap)?.decision)
}

/// The D-Chess side choice of the coin-toss winner. The side to move in `fen` is ignored: the
/// choice decides it (the side not taken moves first).
pub fn choose_side(
    v: &'static Variant,
    fen: &str,
    budget: Budget,
    scorer: &mut Scorer,
) -> Result<SideDecision, PregameError> {
    let Lookahead { decision, replies } =
        decide_alone(v, fen, budget, scorer, require_transposition, |_| StepKind::Side)?;
    Ok(SideDecision { decision, replies })
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
    Ok(decide_alone(v, fen, budget, scorer, require_relocation, |_| StepKind::Relocate(color))?.decision)
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

impl Forced {
    /// The choice imposed at step `kind`, if any.
    fn choice(&self, kind: StepKind) -> Option<String> {
        match kind {
            StepKind::Side => self.side.map(|c| c.to_string()),
            StepKind::Swap(_) => self.swap.clone(),
            StepKind::Relocate(c) => self.relocations.iter().find(|(f, _)| *f == c).map(|(_, r)| r.clone()),
        }
    }
}

/// Refuse, before any search, imposed choices that cannot be made from the start `fen`: a swap
/// legal for neither side, a relocation whose turn has passed.
fn refuse_impossible(v: &'static Variant, fen: &str, forced: &Forced) -> Result<(), PregameError> {
    if let Some(token) = forced.swap.as_deref().filter(|&t| t != "none") {
        let for_white = apply_transposition(v, &with_side_to_move(fen, Color::White), token);
        let for_black = apply_transposition(v, &with_side_to_move(fen, Color::Black), token);
        if let (Err(e), Err(_)) = (for_white, for_black) {
            return Err(e.into());
        }
    }
    for (color, _) in &forced.relocations {
        relocation_turn(v, fen, *color)?;
    }
    Ok(())
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
    require_pregame(v)?;
    let start = check_start(v, fen)?;
    refuse_impossible(v, &start.fen, forced)?;
    let mut seq = Sequence::new(v, &start.fen)?;
    if !v.relocation.is_empty() {
        for color in RELOCATION_ORDER.into_iter().filter(|&c| relocation_turn(v, &start.fen, c).is_err()) {
            log::info!("pregame: {color}'s relocation is already made in {}", start.fen);
        }
    }
    let mut steps = Vec::new();
    let mut found_before: Option<Decision> = None;
    while let Some(kind) = seq.next() {
        let reply = found_before.take();
        let (decision, choice) = match forced.choice(kind) {
            Some(choice) => (None, choice),
            None => {
                let decision = match reply {
                    Some(d) => d,
                    None => {
                        let Lookahead { decision, mut replies } = decide(&seq, budget, scorer)?;
                        // The side choice has searched every transposition under each side:
                        // the first mover's is the one found under the side taken. White's
                        // relocation is searched again with the whole budget once Black's
                        // choice is fixed.
                        if kind == StepKind::Side && decision.best < replies.len() {
                            found_before = Some(replies.swap_remove(decision.best));
                        }
                        decision
                    }
                };
                let choice = decision.chosen().name.clone();
                (Some(decision), choice)
            }
        };
        seq.apply(&choice)?;
        steps.push(Step { kind, decision, choice });
    }
    Ok(Pregame { steps, fen: seq.fen().to_string() })
}
