//! The `pregame` command, the same in UCI and XBoard (GUIs never send it, so third-party tools
//! are unaffected):
//!
//! ```text
//! pregame <variant> choose-side <fen> [budget]       -> pregame option white|black <cp> ...
//!                                                        pregame side white|black
//! pregame <variant> transpose <fen> [budget]         -> pregame option none|<swap> <cp> ...
//!                                                        pregame swap <swap>|none
//! pregame <variant> relocate <fen> white|black [budget] -> pregame option none|king|queen <cp> ...
//!                                                        pregame relocate king|queen|none
//! budget: movetime MS | depth D | nodes N | clock BASE_MS INC_MS (the game's clock)
//! ```
//!
//! The engine's variant and position are left alone: the decision searches with a table of its
//! own, using the engine's thread count and (capped) hash size.
//!
//! The tournament referee asks engines with the same lines (`request`) and reads their answers
//! with `choice_in`.
//!
//! Owns: `protocol_command`, `request`, `choice_in`: the command's words.
//! Must not know: stdin and stdout, which protocol is speaking.

use super::decide::{choose_relocation, choose_side, choose_transposition};
use super::sequence::StepKind;
use super::{Budget, Decision, PregameError, Scorer};
use crate::engine::Engine;
use menagerie_rules::geometry::Color;
use menagerie_rules::variant::by_name;

/// Words that end the FEN of a command.
const AFTER_FEN: [&str; 6] = ["white", "black", "movetime", "depth", "nodes", "clock"];

const USAGE: &str = "usage: pregame <variant> choose-side|transpose <fen> [BUDGET], \
                     or pregame <variant> relocate <fen> white|black [BUDGET], \
                     BUDGET: movetime MS, depth D, nodes N or clock BASE_MS INC_MS";

/// The command's word for a step's decision.
fn decision_word(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Side => "choose-side",
        StepKind::Swap(_) => "transpose",
        StepKind::Relocate(_) => "relocate",
    }
}

/// The word that starts the answer to a step's decision.
fn answer_word(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Side => "side",
        StepKind::Swap(_) => "swap",
        StepKind::Relocate(_) => "relocate",
    }
}

/// The `pregame` line that asks for the decision of step `kind` at `fen`, before its budget.
pub fn request(kind: StepKind, variant: &str, fen: &str) -> String {
    let word = decision_word(kind);
    match kind {
        StepKind::Relocate(c) => format!("pregame {variant} {word} {fen} {c}"),
        StepKind::Side | StepKind::Swap(_) => format!("pregame {variant} {word} {fen}"),
    }
}

/// The choice in an answer to a `request` for step `kind`, given as the words after `pregame`
/// (`side white`, `swap b1g1`, `relocate king`); the first word may be left out. `None` when
/// the answer is not one choice.
pub fn choice_in(kind: StepKind, answer: &str) -> Option<&str> {
    let words: Vec<&str> = answer.split_whitespace().collect();
    match words.as_slice() {
        [word, choice] if *word == answer_word(kind) => Some(choice),
        [choice] if *choice != answer_word(kind) => Some(choice),
        _ => None,
    }
}

/// Answer a `pregame ...` line with its output lines; a line without a budget spends
/// `default_budget`. On error nothing has changed.
pub fn protocol_command(line: &str, engine: &Engine, default_budget: Budget) -> Result<Vec<String>, PregameError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"pregame") || words.len() < 4 {
        return Err(PregameError::Syntax(USAGE.to_string()));
    }
    let v = by_name(words[1]).map_err(|e| PregameError::UnknownVariant(e.to_string()))?;
    let decision = words[2];
    let fen_end = words.iter().skip(3).position(|w| AFTER_FEN.contains(w)).map_or(words.len(), |i| i + 3);
    let fen = words[3..fen_end].join(" ");
    if fen.is_empty() {
        return Err(PregameError::Syntax(format!("no FEN ({USAGE})")));
    }
    let mut rest = &words[fen_end..];
    let color = match rest.first() {
        Some(&"white") => Some(Color::White),
        Some(&"black") => Some(Color::Black),
        _ => None,
    };
    if color.is_some() {
        rest = &rest[1..];
    }
    let budget = match rest {
        [] => default_budget,
        words => Budget::from_words(words)?,
    };
    let mut scorer = Scorer::new(engine.hash_mb(), engine.threads()).with_network(engine.network_for(v));
    let (decision_lines, answer) = match (decision, color) {
        ("choose-side", None) => {
            let d = choose_side(v, &fen, budget, &mut scorer)?;
            let side = d.side();
            (option_lines(&d.decision), answer_line(StepKind::Side, &side.to_string()))
        }
        ("transpose", None) => {
            let d = choose_transposition(v, &fen, budget, &mut scorer)?;
            (option_lines(&d), answer_line(StepKind::Swap(d.chooser), &d.chosen().name))
        }
        ("relocate", Some(color)) => {
            let d = choose_relocation(v, &fen, color, budget, &mut scorer)?;
            (option_lines(&d), answer_line(StepKind::Relocate(color), &d.chosen().name))
        }
        ("relocate", None) => {
            return Err(PregameError::Syntax(format!("relocate needs the colour that chooses ({USAGE})")))
        }
        ("choose-side" | "transpose", Some(c)) => {
            return Err(PregameError::Syntax(format!("'{decision}' takes no colour ('{c}')")))
        }
        _ => return Err(PregameError::Syntax(format!("unknown decision '{decision}' ({USAGE})"))),
    };
    log::info!("pregame {decision}: {} searches, {} nodes, {budget}", scorer.searches, scorer.nodes);
    let mut out = decision_lines;
    out.push(answer);
    Ok(out)
}

fn answer_line(kind: StepKind, choice: &str) -> String {
    format!("pregame {} {choice}", answer_word(kind))
}

fn option_lines(d: &Decision) -> Vec<String> {
    d.options.iter().map(|o| format!("pregame option {} {}", o.name, o.score)).collect()
}
