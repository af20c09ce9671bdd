//! A user's variant file (`VariantPath`, `--variants`): read it within a size bound and make its
//! variants known only if every one of them can be played, i.e. its start positions (the first,
//! the default and the last) read as positions of that variant under the compiled rules.
//!
//! Owns: `load`, `load_text`, `check_playable`, `VariantFileError`.
//! Must not know: protocols, search.

use crate::any::AnyPosition;
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

/// Read the variant file at `path` and make its variants known (see `variant::install`).
pub fn load(path: &Path) -> Result<Vec<&'static Variant>, VariantFileError> {
    let shown = path.display().to_string();
    let read_error = |e: std::io::Error| VariantFileError::Read { path: shown.clone(), why: e.to_string() };
    let bytes = std::fs::metadata(path).map_err(read_error)?.len();
    if bytes > MAX_VARIANT_FILE_BYTES {
        return Err(VariantFileError::TooLarge { path: shown, bytes });
    }
    let data = std::fs::read(path).map_err(read_error)?;
    let text = String::from_utf8(data).map_err(|_| VariantFileError::NotText { path: shown.clone() })?;
    load_text(&text).map_err(|error| VariantFileError::Definition { path: shown, error })
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
