//! The engine's options, each declared once: its name, its kind (a spin with its default and
//! range, a check, a combo with its choices), the front ends that offer it, and what a change
//! does (`Effect`). Both protocols print their option lists from `OPTIONS` and set every option
//! through `Options::set`, so that a value is read, checked and refused in one place; the
//! engine applies a change's effect (`Engine::set_option`). Adding an option is one declaration
//! here (and its place in `OPTIONS`) plus its effect. Built with the `tune` feature, every
//! number of the search's table (`search::params::TUNABLES`) follows as a spin of its own name
//! (`all`), whose effect sets the number for the next search.
//!
//! Owns: `EngineOption`, `OptionKind`, `Effect`, `Frontend`, `OPTIONS`, `all`, `Options` (the
//! current values), `OptionError`, the meaning of `Ruleset`'s `auto`.
//! Must not know: how a protocol writes an option or a value (UCI's `option name ...`,
//! XBoard's `feature option=...` and its 0/1 checks), stdin and stdout.

use super::skill;
use menagerie_rules::variant;
use std::fmt;

/// Which front end offers an option: most of UCI's `UCI_` options and XBoard's `Random start`
/// mean something only to the protocol that names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frontend {
    Uci,
    Xboard,
}

/// The kind of an option, with its default.
#[derive(Clone, Copy, Debug)]
pub enum OptionKind {
    /// A whole number in `min..=max`; `unit` (with its leading space) names it in errors.
    Spin { default: u64, min: u64, max: u64, unit: &'static str },
    /// True or false.
    Check { default: bool },
    /// One of a list, read without regard to case. `choices` is the list offered, default
    /// first; `read` gives the value a text stands for (aliases included), or `None`.
    Combo { default: &'static str, choices: fn() -> Vec<&'static str>, read: fn(&str) -> Option<&'static str> },
    /// A file's path; what it must hold is the effect's to check.
    File { default: &'static str },
}

/// What a change of an option does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A new, empty transposition table of that many megabytes.
    Hash,
    /// That many search threads, started at once and kept between searches.
    Threads,
    /// That many principal variations per iteration.
    MultiPv,
    /// That many milliseconds kept in reserve per move under a clock.
    MoveOverhead,
    /// The network read from the file named replaces the one loaded before (the default name
    /// means the networks built into the engine).
    EvalFile,
    /// The variant played changes: the protocol chooses it from `Ruleset`, `UCI_Variant` and
    /// `UCI_Chess960` (`Options::rules_for`), since only it knows when a game may change.
    Rules,
    /// The variants of the file named become known; the protocol announces the new list.
    Variants,
    /// Nothing now: the value is kept for the protocol that reads it.
    Kept,
    /// The search number of the option's name takes the value, from the next search on (only
    /// in an engine built with the `tune` feature).
    Tunable,
}

/// One option, as declared.
#[derive(Debug)]
pub struct EngineOption {
    pub name: &'static str,
    pub kind: OptionKind,
    /// The front ends that offer it (and accept it).
    pub offered: &'static [Frontend],
    pub effect: Effect,
}

/// An option's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(u64),
    Check(bool),
    Combo(&'static str),
    File(String),
}

/// Default transposition table size in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest Hash value accepted, in megabytes.
pub const MAX_HASH_MB: usize = 64 * 1024;
/// Largest Threads value accepted.
pub const MAX_THREADS: usize = 256;
/// Largest MultiPV value accepted.
pub const MAX_MULTIPV: usize = 64;
/// Default Move Overhead in milliseconds.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;
/// Largest Move Overhead accepted, in milliseconds: ten seconds a move is more than any GUI's lag.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 10_000;

const BOTH: &[Frontend] = &[Frontend::Uci, Frontend::Xboard];
const UCI: &[Frontend] = &[Frontend::Uci];
const XBOARD: &[Frontend] = &[Frontend::Xboard];

pub static HASH: EngineOption = spin("Hash", DEFAULT_HASH_MB as u64, 1, MAX_HASH_MB as u64, " megabytes", Effect::Hash);

pub static THREADS: EngineOption = spin("Threads", 1, 1, MAX_THREADS as u64, "", Effect::Threads);

pub static MOVE_OVERHEAD: EngineOption =
    spin("Move Overhead", DEFAULT_MOVE_OVERHEAD_MS, 0, MAX_MOVE_OVERHEAD_MS, " milliseconds", Effect::MoveOverhead);

pub static MULTIPV: EngineOption = spin("MultiPV", 1, 1, MAX_MULTIPV as u64, "", Effect::MultiPv);

/// Pondering needs nothing set in advance: `go ponder` says it all.
pub static PONDER: EngineOption = check("Ponder", false, UCI, Effect::Kept);

/// Analysis needs nothing set in advance: `go infinite` says it all.
pub static ANALYSE_MODE: EngineOption = check("UCI_AnalyseMode", false, UCI, Effect::Kept);

/// Search reports carry the win/draw/loss split their score stands for (`search::Wdl`).
pub static SHOW_WDL: EngineOption = check("UCI_ShowWDL", false, UCI, Effect::Kept);

/// Castling written king-takes-rook; turns `chess` into `chess960`.
pub static CHESS960: EngineOption = check("UCI_Chess960", false, UCI, Effect::Rules);

/// The variant the GUI asks for. `fischerandom` (Cute Chess's name) is read as chess960 but
/// never offered: Cute Chess would send it back as chess960.
pub static VARIANT: EngineOption = EngineOption {
    name: "UCI_Variant",
    kind: OptionKind::Combo { default: "chess", choices: variant::names, read: read_variant },
    offered: UCI,
    effect: Effect::Rules,
};

/// The rules played whatever the GUI names (`auto`: as it names them), for GUIs that play our
/// variants under the names of theirs.
pub static RULESET: EngineOption = EngineOption {
    name: "Ruleset",
    kind: OptionKind::Combo { default: AUTO, choices: ruleset_choices, read: read_ruleset },
    offered: BOTH,
    effect: Effect::Rules,
};

/// XBoard's engine-defined variants start from a randomly drawn start position.
pub static RANDOM_START: EngineOption = check("Random start", true, XBOARD, Effect::Kept);

/// The `EvalFile` value that names the networks built into the engine.
pub const EMBEDDED_NETWORKS: &str = "<embedded>";

/// The learned evaluation where a network fits the variant (read when a search starts); off,
/// the hand-written one.
pub static USE_NNUE: EngineOption = check("Use NNUE", true, BOTH, Effect::Kept);

/// A network file to use in place of the built-in networks, for the variants it fits.
pub static EVAL_FILE: EngineOption = EngineOption {
    name: "EvalFile",
    kind: OptionKind::File { default: EMBEDDED_NETWORKS },
    offered: BOTH,
    effect: Effect::EvalFile,
};

/// The `VariantPath` value that names no file.
pub const NO_VARIANT_FILE: &str = "<empty>";

/// A variant file whose variants join the built-in ones (Fairy-Stockfish's name, so that GUIs and
/// scripts that set it for Fairy-Stockfish work unchanged).
pub static VARIANT_PATH: EngineOption = EngineOption {
    name: "VariantPath",
    kind: OptionKind::File { default: NO_VARIANT_FILE },
    offered: BOTH,
    effect: Effect::Variants,
};

/// Weaker play for people: 0 (weakest) to 20 (full strength, the default); see `skill`.
pub static SKILL_LEVEL: EngineOption =
    spin("Skill Level", skill::FULL_STRENGTH, 0, skill::FULL_STRENGTH, "", Effect::Kept);

/// Play at the strength `UCI_Elo` names (overriding `Skill Level`). XBoard offers it under the
/// same name: Polyglot and GUIs that speak both protocols know it.
pub static LIMIT_STRENGTH: EngineOption = check("UCI_LimitStrength", false, BOTH, Effect::Kept);

/// The strength played under `UCI_LimitStrength`, over the calibrated range (`skill`).
pub static UCI_ELO: EngineOption = spin("UCI_Elo", skill::MIN_ELO, skill::MIN_ELO, skill::MAX_ELO, "", Effect::Kept);

/// Every option, in the order the protocols list them.
pub static OPTIONS: [&EngineOption; 17] = [
    &HASH,
    &THREADS,
    &MOVE_OVERHEAD,
    &MULTIPV,
    &SKILL_LEVEL,
    &LIMIT_STRENGTH,
    &UCI_ELO,
    &PONDER,
    &ANALYSE_MODE,
    &SHOW_WDL,
    &CHESS960,
    &VARIANT_PATH,
    &VARIANT,
    &RULESET,
    &RANDOM_START,
    &USE_NNUE,
    &EVAL_FILE,
];

/// Every option offered, in the order the protocols list them: `OPTIONS`, then (built with the
/// `tune` feature) the search's numbers.
pub fn all() -> impl Iterator<Item = &'static EngineOption> {
    OPTIONS.iter().copied().chain(tunable_options().iter())
}

/// The search's numbers as options: none in the engine that plays.
#[cfg(not(feature = "tune"))]
fn tunable_options() -> &'static [EngineOption] {
    &[]
}

/// The search's numbers as options, with their names, defaults and ranges from the table.
#[cfg(feature = "tune")]
fn tunable_options() -> &'static [EngineOption] {
    use crate::search::params::TUNABLES;
    static TUNABLE_OPTIONS: once_cell::sync::Lazy<Vec<EngineOption>> = once_cell::sync::Lazy::new(|| {
        TUNABLES
            .iter()
            .map(|t| spin(t.name, t.default as u64, t.min as u64, t.max as u64, "", Effect::Tunable))
            .collect()
    });
    &TUNABLE_OPTIONS
}

/// A spin both protocols offer.
const fn spin(
    name: &'static str,
    default: u64,
    min: u64,
    max: u64,
    unit: &'static str,
    effect: Effect,
) -> EngineOption {
    EngineOption { name, kind: OptionKind::Spin { default, min, max, unit }, offered: BOTH, effect }
}

const fn check(name: &'static str, default: bool, offered: &'static [Frontend], effect: Effect) -> EngineOption {
    EngineOption { name, kind: OptionKind::Check { default }, offered, effect }
}

/// `Ruleset`'s value for following the GUI's variant.
const AUTO: &str = "auto";

fn read_variant(text: &str) -> Option<&'static str> {
    variant::by_name(text).ok().map(|v| v.name.as_str())
}

fn ruleset_choices() -> Vec<&'static str> {
    std::iter::once(AUTO).chain(variant::names_with_options()).collect()
}

fn read_ruleset(text: &str) -> Option<&'static str> {
    if text == AUTO {
        Some(AUTO)
    } else {
        read_variant(text)
    }
}

impl EngineOption {
    /// Whether `frontend` offers this option.
    pub fn offered_by(&self, frontend: Frontend) -> bool {
        self.offered.contains(&frontend)
    }

    /// The value before any change.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Combo { default, .. } => OptionValue::Combo(default),
            OptionKind::File { default } => OptionValue::File(default.to_string()),
        }
    }

    /// Read a value text: a number in range, `true`/`false`, or one of the combo's values (all
    /// without regard to case, surrounding blanks ignored).
    pub fn parse(&'static self, text: &str) -> Result<OptionValue, OptionError> {
        let text = text.trim();
        let lower = text.to_ascii_lowercase();
        let refused = || OptionError::BadValue { option: self, value: text.to_string() };
        match self.kind {
            OptionKind::Spin { min, max, .. } => {
                text.parse::<u64>().ok().filter(|n| (min..=max).contains(n)).map(OptionValue::Spin).ok_or_else(refused)
            }
            OptionKind::Check { .. } => match lower.as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(refused()),
            },
            OptionKind::Combo { read, .. } => read(&lower).map(OptionValue::Combo).ok_or_else(refused),
            OptionKind::File { .. } if text.is_empty() => Err(refused()),
            OptionKind::File { .. } => Ok(OptionValue::File(text.to_string())),
        }
    }
}

/// The option a front end offers under `name` (read without regard to case).
pub fn find(frontend: Frontend, name: &str) -> Option<&'static EngineOption> {
    let name = name.trim();
    all().find(|o| o.offered_by(frontend) && o.name.eq_ignore_ascii_case(name))
}

/// Why a value was refused; the option keeps its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option of that name (as typed) is offered.
    Unknown(String),
    /// The text is not a value of the option.
    BadValue { option: &'static EngineOption, value: String },
    /// The value could not be applied (a table too large for the machine, a file that is no
    /// network); the option and the engine keep what they had.
    NotApplied { option: &'static EngineOption, why: String },
}

impl PartialEq for EngineOption {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for EngineOption {}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::BadValue { option, value } => match option.kind {
                OptionKind::Spin { min, max, unit, .. } => {
                    write!(f, "{} must be {min}..{max}{unit}, not '{value}'", option.name)
                }
                OptionKind::Check { .. } => write!(f, "{} is true or false, not '{value}'", option.name),
                OptionKind::Combo { .. } => write!(f, "unknown {} '{value}'", option.name),
                OptionKind::File { .. } => write!(f, "{} needs a file name", option.name),
            },
            OptionError::NotApplied { option, why } => write!(f, "{}: {why}", option.name),
        }
    }
}

impl std::error::Error for OptionError {}

/// The current value of every option.
#[derive(Clone, Debug)]
pub struct Options {
    /// In the order of `all`.
    values: Vec<OptionValue>,
}

impl Default for Options {
    fn default() -> Self {
        Options { values: all().map(|o| o.default_value()).collect() }
    }
}

impl Options {
    /// Set the option `frontend` offers as `name` from a value text; on error nothing changes.
    pub fn set(&mut self, frontend: Frontend, name: &str, text: &str) -> Result<&'static EngineOption, OptionError> {
        let option = find(frontend, name).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
        let value = option.parse(text)?;
        if let Some(slot) = all().position(|o| o == option).and_then(|i| self.values.get_mut(i)) {
            *slot = value;
        }
        Ok(option)
    }

    /// The value of an option.
    pub fn value(&self, option: &EngineOption) -> OptionValue {
        all()
            .position(|o| o == option)
            .and_then(|i| self.values.get(i).cloned())
            .unwrap_or_else(|| option.default_value())
    }

    /// A check option's value (false for an option of another kind).
    pub fn check(&self, option: &EngineOption) -> bool {
        self.value(option) == OptionValue::Check(true)
    }

    /// A spin option's value (0 for an option of another kind).
    pub fn spin(&self, option: &EngineOption) -> u64 {
        match self.value(option) {
            OptionValue::Spin(n) => n,
            _ => 0,
        }
    }

    /// A file option's value (empty for an option of another kind).
    pub fn file(&self, option: &EngineOption) -> String {
        match self.value(option) {
            OptionValue::File(s) => s,
            _ => String::new(),
        }
    }

    /// A combo option's value (empty for an option of another kind).
    pub fn combo(&self, option: &EngineOption) -> &'static str {
        match self.value(option) {
            OptionValue::Combo(s) => s,
            _ => "",
        }
    }

    /// The rules to play when the GUI asks for `requested`: `Ruleset`, unless it is `auto`.
    pub fn rules_for<'a>(&self, requested: &'a str) -> &'a str {
        match self.combo(&RULESET) {
            AUTO => requested,
            ruleset => ruleset,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_declared_once_and_offered() {
        let options: Vec<&EngineOption> = all().collect();
        for (i, a) in options.iter().enumerate() {
            assert!(!a.offered.is_empty(), "{} is offered by no front end", a.name);
            for b in &options[i + 1..] {
                assert!(!a.name.eq_ignore_ascii_case(b.name), "{} declared twice", a.name);
            }
        }
        for frontend in [Frontend::Uci, Frontend::Xboard] {
            for name in ["Hash", "threads", "MOVE OVERHEAD", "MultiPV", "Ruleset", "skill level", "UCI_Elo"] {
                assert!(find(frontend, name).is_some(), "{name} missing for {frontend:?}");
            }
        }
        // Offered to XBoard under the UCI names, which Polyglot and two-protocol GUIs know.
        assert!(find(Frontend::Xboard, "UCI_LimitStrength").is_some());
        assert!(find(Frontend::Uci, "Random start").is_none());
        assert!(find(Frontend::Xboard, "UCI_Variant").is_none());
    }

    #[test]
    fn defaults_are_values_of_their_options() {
        for option in all() {
            let text = match option.default_value() {
                OptionValue::Spin(n) => n.to_string(),
                OptionValue::Check(b) => b.to_string(),
                OptionValue::Combo(s) => {
                    let OptionKind::Combo { choices, .. } = option.kind else { unreachable!() };
                    assert_eq!(choices().first(), Some(&s), "{}: the default is listed first", option.name);
                    s.to_string()
                }
                OptionValue::File(s) => s,
            };
            assert_eq!(option.parse(&text), Ok(option.default_value()), "{}", option.name);
        }
    }

    #[test]
    fn ranges_are_checked_at_both_ends() {
        let mut o = Options::default();
        for (option, min, max) in [
            (&HASH, 1, MAX_HASH_MB as u64),
            (&THREADS, 1, MAX_THREADS as u64),
            (&MOVE_OVERHEAD, 0, MAX_MOVE_OVERHEAD_MS),
            (&MULTIPV, 1, MAX_MULTIPV as u64),
            (&SKILL_LEVEL, 0, skill::FULL_STRENGTH),
            (&UCI_ELO, skill::MIN_ELO, skill::MAX_ELO),
        ] {
            for frontend in [Frontend::Uci, Frontend::Xboard] {
                assert!(o.set(frontend, option.name, &max.to_string()).is_ok());
                assert_eq!(o.spin(option), max);
                assert!(o.set(frontend, option.name, &min.to_string()).is_ok());
                assert_eq!(o.spin(option), min);
                for bad in [(max + 1).to_string(), "-1".to_string(), "many".to_string(), String::new()] {
                    assert!(o.set(frontend, option.name, &bad).is_err(), "{} {bad}", option.name);
                    assert_eq!(o.spin(option), min, "{} kept its value", option.name);
                }
            }
        }
        let e = o.set(Frontend::Xboard, "move overhead", "10001").unwrap_err();
        assert_eq!(e.to_string(), "Move Overhead must be 0..10000 milliseconds, not '10001'");
        let e = o.set(Frontend::Uci, "Hash", " 0 ").unwrap_err();
        assert_eq!(e.to_string(), "Hash must be 1..65536 megabytes, not '0'");
    }

    #[test]
    fn checks_and_combos_read_without_regard_to_case() {
        let mut o = Options::default();
        assert!(o.check(&RANDOM_START));
        assert!(o.set(Frontend::Xboard, "random START", "False").is_ok());
        assert!(!o.check(&RANDOM_START));
        assert_eq!(o.set(Frontend::Uci, "Ponder", "1").unwrap_err().to_string(), "Ponder is true or false, not '1'");
        assert!(o.set(Frontend::Uci, "UCI_Variant", "FischeRandom").is_ok());
        assert_eq!(o.combo(&VARIANT), "chess960");
        assert_eq!(
            o.set(Frontend::Uci, "UCI_Variant", "xiangqi").unwrap_err().to_string(),
            "unknown UCI_Variant 'xiangqi'"
        );
        assert_eq!(o.combo(&VARIANT), "chess960");
        assert_eq!(o.set(Frontend::Uci, "Contempt", "2").unwrap_err().to_string(), "unknown option 'Contempt'");
    }

    #[test]
    fn ruleset_auto_follows_the_gui() {
        let mut o = Options::default();
        assert_eq!(o.rules_for("chess"), "chess");
        assert!(o.set(Frontend::Xboard, "Ruleset", "Chess9+Strict-Castling").is_ok());
        assert_eq!(o.rules_for("chess"), "chess9+strict-castling");
        assert!(o.set(Frontend::Uci, "Ruleset", "shogi").is_err());
        assert_eq!(o.rules_for("chess960"), "chess9+strict-castling");
        assert!(o.set(Frontend::Uci, "Ruleset", "AUTO").is_ok());
        assert_eq!(o.rules_for("rvc"), "rvc");
    }

    #[cfg(feature = "tune")]
    #[test]
    fn tune_every_search_number_is_an_option_with_the_table_range() {
        use crate::search::params::TUNABLES;
        for t in TUNABLES {
            for frontend in [Frontend::Uci, Frontend::Xboard] {
                let option = find(frontend, t.name).unwrap_or_else(|| panic!("{} not offered", t.name));
                assert_eq!(option.effect, Effect::Tunable);
                let OptionKind::Spin { default, min, max, .. } = option.kind else { panic!("{} is no spin", t.name) };
                assert_eq!((default, min, max), (t.default as u64, t.min as u64, t.max as u64), "{}", t.name);
            }
        }
        let mut o = Options::default();
        let e = o.set(Frontend::Uci, "delta_margin", "601").unwrap_err();
        assert_eq!(e.to_string(), "delta_margin must be 0..600, not '601'");
        assert_eq!(o.spin(find(Frontend::Uci, "delta_margin").unwrap()), 200);
    }
}
