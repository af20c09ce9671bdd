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
//! budget: movetime MS | depth D | nodes N
//! ```
//!
//! The engine's variant and position are left alone: the decision searches with a table of its
//! own, using the engine's thread count and (capped) hash size.
//!
//! Owns: `protocol_command`.
//! Must not know: stdin and stdout, which protocol is speaking.

use super::decide::{choose_relocation, choose_side, choose_transposition};
use super::{Budget, Decision, PregameError, Scorer, DEFAULT_BUDGET};
use crate::engine::Engine;
use crate::geometry::Color;
use crate::variant::builtin;

/// Words that end the FEN of a command.
const AFTER_FEN: [&str; 5] = ["white", "black", "movetime", "depth", "nodes"];

const USAGE: &str = "usage: pregame <variant> choose-side|transpose <fen> [movetime MS|depth D|nodes N], \
                     or pregame <variant> relocate <fen> white|black [movetime MS|depth D|nodes N]";

/// Answer a `pregame ...` line with its output lines. On error nothing has changed.
pub fn protocol_command(line: &str, engine: &Engine) -> Result<Vec<String>, PregameError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"pregame") || words.len() < 4 {
        return Err(PregameError::Syntax(USAGE.to_string()));
    }
    let v = builtin(words[1]).map_err(|e| PregameError::UnknownVariant(e.to_string()))?;
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
        [] => DEFAULT_BUDGET,
        [kind, value] => Budget::from_words(kind, value)?,
        _ => return Err(PregameError::Syntax(format!("cannot read '{}' ({USAGE})", rest.join(" ")))),
    };
    let mut scorer = Scorer::new(engine.hash_mb(), engine.threads());
    let (decision_lines, answer) = match (decision, color) {
        ("choose-side", None) => {
            let d = choose_side(v, &fen, budget, &mut scorer)?;
            let side = d.side();
            (option_lines(&d.decision), format!("pregame side {side}"))
        }
        ("transpose", None) => {
            let d = choose_transposition(v, &fen, budget, &mut scorer)?;
            (option_lines(&d), format!("pregame swap {}", d.chosen().name))
        }
        ("relocate", Some(color)) => {
            let d = choose_relocation(v, &fen, color, budget, &mut scorer)?;
            (option_lines(&d), format!("pregame relocate {}", d.chosen().name))
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

fn option_lines(d: &Decision) -> Vec<String> {
    d.options.iter().map(|o| format!("pregame option {} {}", o.name, o.score)).collect()
}
