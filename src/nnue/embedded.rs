//! The networks built into the engine, one per board family, from `nets/` (see its README for
//! how each was made). A network that does not read back is left out with an error in the log,
//! so that a bad file in a build costs the learned evaluation, never the engine.
//!
//! Owns: the list of built-in networks, choosing the one that fits a variant.
//! Must not know: options, protocols, the search.

use super::file;
use super::layout::FeatureMap;
use super::network::Network;
use crate::variant::Variant;
use once_cell::sync::Lazy;
use std::sync::Arc;

/// Each built-in network file, by name.
const FILES: &[(&str, &[u8])] = &[("menagerie-8x8-gen2.nnue", include_bytes!("../../nets/menagerie-8x8-gen2.nnue"))];

static BUILT_IN: Lazy<Vec<Arc<Network>>> = Lazy::new(|| {
    FILES
        .iter()
        .filter_map(|(name, bytes)| match file::read(bytes) {
            Ok(net) => Some(Arc::new(net)),
            Err(e) => {
                log::error!("built-in network {name}: {e}");
                None
            }
        })
        .collect()
});

/// Every built-in network.
pub fn built_in() -> &'static [Arc<Network>] {
    &BUILT_IN
}

/// The first of `networks` that fits `variant`.
pub fn fitting<'a>(
    networks: impl IntoIterator<Item = &'a Arc<Network>>,
    variant: &Variant,
) -> Option<&'a Arc<Network>> {
    networks.into_iter().find(|n| FeatureMap::new(&n.layout, variant).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::builtin;

    #[test]
    fn every_built_in_network_reads_back_and_the_8x8_one_fits_every_8x8_variant() {
        assert_eq!(built_in().len(), FILES.len());
        for name in ["chess", "dchess", "chess9", "displacement", "vdchess"] {
            assert!(fitting(built_in(), builtin(name).expect("variant")).is_some(), "{name}");
        }
        assert!(fitting(built_in(), builtin("rvc").expect("rvc")).is_none(), "no 12x8 network yet");
    }
}
