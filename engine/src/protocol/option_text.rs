//! How each protocol writes the engine's options, all read from `engine::options::all`:
//! UCI's `option name NAME type spin default D min A max B` lines, XBoard's
//! `feature option="NAME -spin D A B"` lines, and XBoard's 0/1 check values read as the
//! registry's true/false.
//!
//! Owns: the UCI and XBoard texts of an option.
//! Must not know: which options there are and what they do (the registry says), sessions.

use crate::engine::options::{self, EngineOption, Frontend, OptionKind};

/// UCI's `option name ...` line of one option.
pub fn uci_line(option: &EngineOption) -> String {
    let kind = match option.kind {
        OptionKind::Spin { default, min, max, .. } => format!("spin default {default} min {min} max {max}"),
        OptionKind::Check { default } => format!("check default {default}"),
        OptionKind::Combo { default, choices, .. } => {
            let vars: Vec<String> = choices().iter().map(|c| format!("var {c}")).collect();
            format!("combo default {default} {}", vars.join(" "))
        }
        OptionKind::File { default } => format!("string default {default}"),
    };
    format!("option name {} type {kind}", option.name)
}

/// XBoard's `feature option="..."` line of one option (a combo's default marked `*`).
pub fn xboard_feature(option: &EngineOption) -> String {
    let kind = match option.kind {
        OptionKind::Spin { default, min, max, .. } => format!("-spin {default} {min} {max}"),
        OptionKind::Check { default } => format!("-check {}", u8::from(default)),
        OptionKind::Combo { default, choices, .. } => {
            let marked: Vec<String> =
                choices().iter().map(|&c| if c == default { format!("*{c}") } else { c.to_string() }).collect();
            format!("-combo {}", marked.join(" /// "))
        }
        OptionKind::File { default } => format!("-file {default}"),
    };
    format!("feature option=\"{} {kind}\"", option.name)
}

/// The lines that offer every option of `frontend`, in the registry's order.
pub fn offer_lines(frontend: Frontend) -> Vec<String> {
    let write = match frontend {
        Frontend::Uci => uci_line,
        Frontend::Xboard => xboard_feature,
    };
    options::all().filter(|o| o.offered_by(frontend)).map(write).collect()
}

/// An XBoard value in the registry's words: XBoard sends a check as 1 or 0.
pub fn xboard_value<'a>(name: &str, value: &'a str) -> &'a str {
    let check = options::find(Frontend::Xboard, name).is_some_and(|o| matches!(o.kind, OptionKind::Check { .. }));
    match value.trim() {
        "1" if check => "true",
        "0" if check => "false",
        _ => value,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::options::{EVAL_FILE, HASH, MOVE_OVERHEAD, RANDOM_START, RULESET, USE_NNUE, VARIANT};
    use menagerie_rules::variant;

    #[test]
    fn both_renderings_come_from_one_declaration() {
        assert_eq!(uci_line(&HASH), "option name Hash type spin default 16 min 1 max 65536");
        assert_eq!(xboard_feature(&HASH), "feature option=\"Hash -spin 16 1 65536\"");
        // The range once had two sources, and the two protocols disagreed on it.
        assert_eq!(uci_line(&MOVE_OVERHEAD), "option name Move Overhead type spin default 30 min 0 max 10000");
        assert_eq!(xboard_feature(&MOVE_OVERHEAD), "feature option=\"Move Overhead -spin 30 0 10000\"");
        assert_eq!(xboard_feature(&RANDOM_START), "feature option=\"Random start -check 1\"");
        assert_eq!(uci_line(&EVAL_FILE), "option name EvalFile type string default <embedded>");
        assert_eq!(xboard_feature(&EVAL_FILE), "feature option=\"EvalFile -file <embedded>\"");
        assert_eq!(uci_line(&USE_NNUE), "option name Use NNUE type check default true");
        let ruleset = xboard_feature(&RULESET);
        assert!(ruleset.starts_with("feature option=\"Ruleset -combo *auto /// chess /// chess960 /// "), "{ruleset}");
        assert!(uci_line(&RULESET).starts_with("option name Ruleset type combo default auto var auto var chess "));
    }

    #[test]
    fn the_variant_combo_is_the_list_of_built_in_variants() {
        let expected: Vec<String> = variant::names().iter().map(|v| format!("var {v}")).collect();
        assert_eq!(
            uci_line(&VARIANT),
            format!("option name UCI_Variant type combo default chess {}", expected.join(" "))
        );
        assert!(!uci_line(&VARIANT).contains("fischerandom"));
    }

    #[test]
    fn each_front_end_offers_its_options_once() {
        let uci = offer_lines(Frontend::Uci);
        let xboard = offer_lines(Frontend::Xboard);
        for option in options::all() {
            let in_uci = uci.iter().filter(|l| l.starts_with(&format!("option name {} type ", option.name))).count();
            let in_xboard =
                xboard.iter().filter(|l| l.starts_with(&format!("feature option=\"{} -", option.name))).count();
            assert_eq!(in_uci, usize::from(option.offered_by(Frontend::Uci)), "{}", option.name);
            assert_eq!(in_xboard, usize::from(option.offered_by(Frontend::Xboard)), "{}", option.name);
        }
        assert_eq!(uci.len() + xboard.len(), options::all().map(|o| o.offered.len()).sum::<usize>());
    }

    #[test]
    fn xboard_checks_are_read_as_true_and_false() {
        assert_eq!(xboard_value("Random start", "1"), "true");
        assert_eq!(xboard_value("random start", " 0"), "false");
        assert_eq!(xboard_value("Random start", "yes"), "yes");
        assert_eq!(xboard_value("MultiPV", "1"), "1");
    }
}
