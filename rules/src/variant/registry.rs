//! The variants this process knows: the built-in ones (`builtin.vars`) and those a user's file
//! added at run time. A known variant lives as long as the process (`&'static`), so that compiled
//! rules and positions can point at it; a redefinition adds a new variant and the name leads to
//! it from then on, while games already begun keep the one they started with.
//!
//! Owns: lookup by name (with the GUIs' aliases), the lists of names, installing new definitions
//! all or nothing.
//! Must not know: files, positions, protocols (the caller checks what needs them, through the
//! `check` it passes to `install`).

use super::parse::{read_definitions, Definitions};
use super::{Variant, VariantError, BUILTIN_TEXT};
use once_cell::sync::Lazy;
use std::fmt;
use std::sync::{RwLock, RwLockReadGuard};

struct Known {
    variant: &'static Variant,
    builtin: bool,
}

struct Registry {
    known: Vec<Known>,
    /// Every definition read so far, for later files to inherit from.
    definitions: Definitions,
}

static REGISTRY: Lazy<RwLock<Registry>> = Lazy::new(|| {
    let built = read_definitions(BUILTIN_TEXT, &Definitions::default()).and_then(|d| Ok((d.build()?, d)));
    match built {
        Ok((variants, definitions)) => RwLock::new(Registry {
            known: variants.into_iter().map(|v| Known { variant: Box::leak(Box::new(v)), builtin: true }).collect(),
            definitions,
        }),
        // The embedded file is checked by a unit test; failing here is a build defect, not input.
        Err(e) => panic!("built-in variant file is broken: {e}"),
    }
});

fn registry() -> RwLockReadGuard<'static, Registry> {
    // A writer never leaves the registry half changed (it swaps in finished entries), so a
    // poisoned lock still guards a whole registry.
    REGISTRY.read().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Names GUIs use for built-in variants: (their name, ours).
const ALIASES: [(&str, &str); 5] = [
    ("fischerandom", "chess960"),
    ("fischerrandom", "chess960"),
    ("normal", "chess"),
    ("standard", "chess"),
    // XBoard's name for shuffle chess without castling, which D-Chess is.
    ("nocastle", "dchess"),
];

/// Names of the known variants, built-in ones first, in file order. Rule options of a variant
/// are variants named `base+option` (e.g. `rvc+promotion-a`); they are left out here.
pub fn names() -> Vec<&'static str> {
    names_with_options().into_iter().filter(|n| !n.contains('+')).collect()
}

/// Every known variant name, rule options included.
pub fn names_with_options() -> Vec<&'static str> {
    registry().known.iter().map(|k| k.variant.name.as_str()).collect()
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant '{}' (known: {})", self.0, names().join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

/// A known variant by name; GUI aliases such as `fischerandom` lead to the built-in variant.
pub fn by_name(name: &str) -> Result<&'static Variant, UnknownVariant> {
    let wanted = ALIASES.iter().find(|(alias, _)| *alias == name).map_or(name, |(_, ours)| ours);
    registry()
        .known
        .iter()
        .find(|k| k.variant.name == wanted)
        .map(|k| k.variant)
        .ok_or_else(|| UnknownVariant(name.to_string()))
}

/// Every definition read so far (what a new file's sections may inherit from).
pub fn definitions() -> Definitions {
    registry().definitions.clone()
}

/// Whether `name` is a variant built into the engine.
pub fn is_builtin(name: &str) -> bool {
    registry().known.iter().any(|k| k.builtin && k.variant.name == name)
}

/// Read the variant definitions in `text` (sections may inherit from any known variant), build
/// them, `check` each, and only if all of that succeeds make them known. A definition may take
/// the name of a variant loaded before from a file; of a built-in one only if it says
/// `replace = yes`. On error nothing is known that was not known before.
pub fn install(
    text: &str,
    check: &dyn Fn(&'static Variant) -> Result<(), String>,
) -> Result<Vec<&'static Variant>, VariantError> {
    let definitions = read_definitions(text, &definitions())?;
    for name in definitions.names() {
        let line = definitions.line_of(name).unwrap_or(0);
        if ALIASES.iter().any(|(alias, _)| *alias == name) {
            return Err(VariantError { line, message: format!("'{name}' is another name of a built-in variant") });
        }
        if is_builtin(name) && !definitions.replaces(name) {
            return Err(VariantError {
                line,
                message: format!("'{name}' is a built-in variant: say 'replace = yes' in its section to redefine it"),
            });
        }
    }
    let variants = definitions.build()?;
    let mut installed = Vec::with_capacity(variants.len());
    for variant in variants {
        let line = definitions.line_of(&variant.name).unwrap_or(0);
        // Checked variants must be `'static` (compiled rules point at them); one refused here
        // stays allocated, which only a user's repeated bad files can add up.
        let variant: &'static Variant = Box::leak(Box::new(variant));
        check(variant).map_err(|why| VariantError { line, message: format!("variant '{}': {why}", variant.name) })?;
        installed.push(variant);
    }
    let mut registry = REGISTRY.write().unwrap_or_else(|poisoned| poisoned.into_inner());
    for &variant in &installed {
        let entry = Known { variant, builtin: false };
        match registry.known.iter_mut().find(|k| k.variant.name == variant.name) {
            Some(slot) => *slot = entry,
            None => registry.known.push(entry),
        }
    }
    registry.definitions = registry.definitions.merged(&definitions);
    Ok(installed)
}
