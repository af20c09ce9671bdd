//! A user's variant file (`VariantPath`, `--variants`): read it within a size bound and make its
//! variants known only if every one of them can be played, i.e. its start positions (the first,
//! the default and the last) read as positions of that variant under the compiled rules.
//!
//! A Fairy-Stockfish file (`fsf_ini` tells them apart by their keys) is read section by
//! section instead: each section Menagerie plays exactly becomes a variant, each other one is
//! refused with its reason, and the refusals are returned for the caller to show.
//!
//! Owns: `load`, `load_text`, `load_fairy_stockfish_text`, `check_playable`, `Loaded`,
//! `VariantFileError`.
//! Must not know: protocols, search.

use crate::any::AnyPosition;
use crate::fsf_ini::{self, Refusal};
use crate::startpos::start_fen;
use crate::variant::{self, Variant, VariantError};
use std::fmt;
use std::path::Path;

/// The largest variant file read: far above any real definition, small enough to hold in memory.
pub const MAX_VARIANT_FILE_BYTES: u64 = 1 << 20;

/// Why a variant file was refused; nothing of it was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantFileError {
    /// The file could not be read.
    Read {
        path: String,
        why: String,
    },
    TooLarge {
        path: String,
        bytes: u64,
    },
    NotText {
        path: String,
    },
    /// A definition is wrong: the line and the reason.
    Definition {
        path: String,
        error: VariantError,
    },
}

/// What a variant file added, and the sections of a Fairy-Stockfish file that were refused.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub variants: Vec<&'static Variant>,
    pub refused: Vec<Refusal>,
}

impl fmt::Display for VariantFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantFileError::Read { path, why } => write!(f, "cannot read variant file '{path}': {why}"),
            VariantFileError::TooLarge { path, bytes } => {
                write!(f, "variant file '{path}' has {bytes} bytes; at most {MAX_VARIANT_FILE_BYTES} are read")
            }
            VariantFileError::NotText { path } => write!(f, "variant file '{path}' is not UTF-8 text"),
            VariantFileError::Definition { path, error } => {
                write!(f, "variant file '{path}' line {}: {}", error.line, error.message)
            }
        }
    }
}

impl std::error::Error for VariantFileError {}

/// Read the variant file at `path` and make its variants known (see `variant::install`); a
/// Fairy-Stockfish file section by section (see `load_fairy_stockfish_text`).
pub fn load(path: &Path) -> Result<Loaded, VariantFileError> {
    let shown = path.display().to_string();
    let read_error = |e: std::io::Error| VariantFileError::Read { path: shown.clone(), why: e.to_string() };
    let bytes = std::fs::metadata(path).map_err(read_error)?.len();
    if bytes > MAX_VARIANT_FILE_BYTES {
        return Err(VariantFileError::TooLarge { path: shown, bytes });
    }
    let data = std::fs::read(path).map_err(read_error)?;
    let text = String::from_utf8(data).map_err(|_| VariantFileError::NotText { path: shown.clone() })?;
    let loaded = if fsf_ini::is_fairy_stockfish(&text) {
        load_fairy_stockfish_text(&text)
    } else {
        load_text(&text).map(|variants| Loaded { variants, refused: Vec::new() })
    };
    loaded.map_err(|error| VariantFileError::Definition { path: shown, error })
}

/// Make known each section of a Fairy-Stockfish file that Menagerie plays exactly (and whose
/// start position is playable); the others are returned as refusals. A malformed file is an
/// error and changes nothing.
pub fn load_fairy_stockfish_text(text: &str) -> Result<Loaded, VariantError> {
    let sections = fsf_ini::translate(text).map_err(|m| VariantError { line: m.line, message: m.message })?;
    let mut loaded = Loaded::default();
    for section in sections {
        let installed = section.and_then(|s| {
            // A Fairy-Stockfish file has no `replace = yes`: Menagerie's own variants stay.
            if variant::by_name(&s.name).is_ok_and(|v| variant::is_builtin(&v.name)) {
                return Err(Refusal {
                    variant: s.name.clone(),
                    line: s.line,
                    key: None,
                    reason: "a built-in variant of Menagerie, which a Fairy-Stockfish file does not redefine".into(),
                });
            }
            log::debug!("Fairy-Stockfish section '{}' read as:\n{}", s.name, s.text);
            variant::install(&s.text, &check_playable).map_err(|e| Refusal {
                variant: s.name.clone(),
                line: s.line,
                key: None,
                reason: e.message,
            })
        });
        match installed {
            Ok(variants) => loaded.variants.extend(variants),
            Err(refusal) => {
                log::info!("{refusal}");
                loaded.refused.push(refusal);
            }
        }
    }
    Ok(loaded)
}

/// Make the variants defined in `text` known, if every one is playable.
pub fn load_text(text: &str) -> Result<Vec<&'static Variant>, VariantError> {
    variant::install(text, &check_playable)
}

/// Whether a variant can be played: its first, default and last start positions are legal
/// positions of it.
pub fn check_playable(v: &'static Variant) -> Result<(), String> {
    let count = v.start_count();
    if count == 0 {
        return Err("no start position".into());
    }
    if v.start_default >= count {
        return Err(format!("start-default {} is past the last start position ({})", v.start_default, count - 1));
    }
    for index in [0, v.start_default, count - 1] {
        let fen = start_fen(v, index).map_err(|e| format!("start position {index}: {e}"))?;
        AnyPosition::from_fen(v, &fen).map_err(|e| format!("start position {index} ({fen}): {e}"))?;
    }
    Ok(())
}
