//! Text reports of a whole pre-game for the command line: a readable one (each decision with
//! its options, scores and the other side's expected answers) and a machine-readable one (one
//! `decision:option score` line per option, one `decision choice` line per step, then
//! `fen <FEN>`).
//!
//! Owns: `human_lines`, `machine_lines`, `parse_color`.
//! Must not know: stdin and stdout, search.

use super::decide::Pregame;
use super::sequence::StepKind;
use super::{Budget, PregameError};
use menagerie_rules::geometry::Color;

/// A colour from `white`/`w` or `black`/`b`.
pub fn parse_color(text: &str) -> Result<Color, PregameError> {
    Color::from_name(text).ok_or_else(|| PregameError::Syntax(format!("'{text}' is not a colour (white or black)")))
}

fn title(kind: StepKind) -> String {
    match kind {
        StepKind::Side => {
            "side (the coin-toss winner takes it; the other side moves first and may transpose)".to_string()
        }
        StepKind::Swap(c) => format!("swap ({c} moves first and may transpose two back-rank pieces)"),
        StepKind::Relocate(c) => format!("relocate.{c} ({c}'s relocation)"),
    }
}

/// The readable report.
pub fn human_lines(variant: &str, start: &str, budget: Budget, pregame: &Pregame) -> Vec<String> {
    let mut out = vec![format!("{variant} pre-game from {start} ({budget})")];
    for step in &pregame.steps {
        out.push(format!("{}:", title(step.kind)));
        match &step.decision {
            None => out.push(format!("  => {} (imposed)", step.choice)),
            Some(d) => {
                for o in &d.options {
                    let answer = o.reply.as_ref().map(|r| format!("  (answer: {r})")).unwrap_or_default();
                    out.push(format!("  {:<6} {:>6}{answer}", o.name, o.score));
                }
                // A decision found while making the one before (the first mover's
                // transposition under the side taken) has no searches of its own.
                let cost = match d.nodes {
                    0 => "searched with the decision before".to_string(),
                    nodes => format!("{nodes} nodes, {} ms", d.elapsed.as_millis()),
                };
                out.push(format!(
                    "  => {}  ({} scores in centipawns for {}; depth {}; {cost})",
                    step.choice,
                    d.options.len(),
                    d.chooser,
                    d.depth,
                ));
            }
        }
    }
    out.push(format!("start fen: {}", pregame.fen));
    out
}

/// The machine-readable report.
pub fn machine_lines(pregame: &Pregame) -> Vec<String> {
    let mut out = Vec::new();
    for step in &pregame.steps {
        let key = step.kind.key();
        if let Some(d) = &step.decision {
            out.extend(d.options.iter().map(|o| format!("{key}:{} {}", o.name, o.score)));
        }
        out.push(format!("{key} {}", step.choice));
    }
    out.push(format!("fen {}", pregame.fen));
    out
}
