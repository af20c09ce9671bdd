//! Fairy-Stockfish variant files (`variants.ini`): telling one from Menagerie's own format, and
//! reading each of its sections into a section of Menagerie's format when, and only when,
//! Menagerie plays every rule it sets exactly as Fairy-Stockfish does. A section that sets a
//! rule Menagerie does not have is refused whole, with the key, its line and the reason; the
//! other sections of the file stand on their own. See docs/fairy-stockfish-files.md.
//!
//! Owns: `is_fairy_stockfish`, `translate`, `Refusal`, `Translated`.
//! Must not know: the registry, positions, protocols (`variant_file` installs what comes out).
//!
//! Modules: `ini` (the file's sections) -> `model` (Fairy-Stockfish's variant, keys applied in
//! its order, parents) -> `pieces` (its piece types and Betza); `translate` writes the result.

pub mod ini;
pub mod model;
pub mod pieces;
pub mod translate;

pub use ini::Malformed;

use crate::variant::parse::{LINE_KEYS, SECTION_KEYS};
use std::fmt;

/// A section Menagerie does not take, and why: nothing of it is taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub variant: String,
    pub line: usize,
    /// The key that Menagerie cannot play, if one key is to blame.
    pub key: Option<String>,
    pub reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.key {
            Some(key) => write!(f, "variant '{}' refused: line {}: {key}: {}", self.variant, self.line, self.reason),
            None => write!(f, "variant '{}' refused: line {}: {}", self.variant, self.line, self.reason),
        }
    }
}

impl std::error::Error for Refusal {}

/// One section taken: its name, the line of its header and Menagerie's text for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    pub name: String,
    pub line: usize,
    pub text: String,
}

/// One section's outcome: Menagerie's text for it, or why not.
pub type Translated = Result<Section, Refusal>;

/// Whether `text` is a Fairy-Stockfish variant file: some `key = value` line (outside comments)
/// uses a key that only Fairy-Stockfish reads (`startFen`, `pieceToCharTable`, `maxRank`,
/// `customPiece1`, `knight`, ...). Menagerie's own keys are lower case with hyphens and never
/// one of those; a file with neither kind of key is read as Menagerie's.
pub fn is_fairy_stockfish(text: &str) -> bool {
    text.lines().map(str::trim).filter(|l| !l.starts_with('#') && !l.starts_with(';') && !l.starts_with('[')).any(|l| {
        l.split_once('=').is_some_and(|(k, _)| {
            let k = k.trim();
            !SECTION_KEYS.contains(&k) && !LINE_KEYS.contains(&k) && model::is_fsf_key(k)
        })
    })
}

/// Translate every section of a Fairy-Stockfish file, in file order. A section inherits from
/// an earlier section of the file or from a built-in Fairy-Stockfish variant that Menagerie
/// has exactly (`chess`, `normal`, `fischerandom`, `nocastle`, `fairy`, `amazon`, `capablanca`,
/// `caparandom`, `gothic`, `embassy`); without a parent it
/// starts from Fairy-Stockfish's defaults (chess rules, no pieces). A malformed file is an
/// error and gives nothing.
pub fn translate(text: &str) -> Result<Vec<Translated>, Malformed> {
    let sections = ini::read_sections(text)?;
    let mut built: Vec<(String, Option<model::FsfVariant>)> = Vec::new();
    let mut out = Vec::new();
    for s in &sections {
        let refuse = |reason: String| Refusal { variant: s.name.clone(), line: s.line, key: None, reason };
        if model::FSF_BUILTIN_NAMES.contains(&s.name.as_str()) {
            out.push(Err(refuse("a built-in variant of Fairy-Stockfish, which keeps its own and skips this".into())));
            continue;
        }
        if built.iter().any(|(n, _)| *n == s.name) {
            out.push(Err(refuse("defined twice in the file; Fairy-Stockfish keeps the first".into())));
            continue;
        }
        let start = match &s.parent {
            None => Ok(model::no_parent()),
            Some(p) => match built.iter().rev().find(|(n, _)| n == p) {
                Some((_, Some(v))) => Ok(v.clone()),
                Some((_, None)) => Err(refuse(format!("its parent '{p}' was refused"))),
                None => model::parent(p).ok_or_else(|| {
                    refuse(format!(
                        "parent '{p}' is not a section before it nor a Fairy-Stockfish variant Menagerie has \
                         exactly (chess, normal, fischerandom, nocastle, fairy, amazon, capablanca, caparandom, gothic, \
                         embassy)"
                    ))
                }),
            },
        };
        // A later section inherits what Fairy-Stockfish built even where Menagerie cannot
        // play it as it stands (a child may add the missing king).
        let applied = start.and_then(|mut v| v.apply(s).map(|()| v));
        match applied {
            Ok(v) => {
                let text = translate::to_menagerie_section(s, &v);
                built.push((s.name.clone(), Some(v)));
                out.push(text.map(|text| Section { name: s.name.clone(), line: s.line, text }));
            }
            Err(r) => {
                built.push((s.name.clone(), None));
                out.push(Err(r));
            }
        }
    }
    Ok(out)
}
