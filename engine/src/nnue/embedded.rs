//! The networks built into the engine, one per board family, from `nets/` (see its README for
//! how each was made), each with the variants where it measured stronger than the hand-written
//! evaluation: only there is it searched with by default. A build may embed one more network
//! (`make EVALFILE=PATH`, see build.rs): it comes first and is the default in every variant it
//! fits. A network that does not read back is left out with an error in the log, so that a bad
//! file in a build costs the learned evaluation, never the engine.
//!
//! Owns: the list of built-in networks, choosing the one that fits a variant (`EvalChoice`).
//! Must not know: options, protocols, the search.

use super::file;
use super::layout::FeatureMap;
use super::network::Network;
use menagerie_rules::variant::Variant;
use once_cell::sync::Lazy;
use std::sync::Arc;

/// Where a built-in network is searched with by default.
#[derive(Clone, Copy, Debug)]
enum DefaultIn {
    /// The variants where self-play measured it stronger than the hand-written evaluation
    /// (`nets/README.md` gives the figures and the commands).
    Variants(&'static [&'static str]),
    /// Every variant it fits (the network a build was asked to embed).
    Everywhere,
}

/// A built-in network file.
struct BuiltInFile {
    name: &'static str,
    bytes: &'static [u8],
    default: DefaultIn,
}

const FILES: &[BuiltInFile] = &[
    BuiltInFile {
        name: "EVALFILE of the build",
        bytes: include_bytes!(concat!(env!("OUT_DIR"), "/evalfile.nnue")),
        default: DefaultIn::Everywhere,
    },
    BuiltInFile {
        name: "menagerie-8x8-gen11.nnue",
        bytes: include_bytes!("../../../nets/menagerie-8x8-gen11.nnue"),
        // Chess-9 with strict castling and the promotion rule sets of Random Variant Chess are
        // the measured games with one rule changed that the network's inputs do not see.
        default: DefaultIn::Variants(&["dchess", "chess9", "chess9+strict-castling", "displacement", "vdchess"]),
    },
    BuiltInFile {
        name: "menagerie-12x8-gen10.nnue",
        bytes: include_bytes!("../../../nets/menagerie-12x8-gen10.nnue"),
        default: DefaultIn::Variants(&["rvc", "rvc+promotion-a", "rvc+promotion-b"]),
    },
    BuiltInFile {
        name: "menagerie-10x8-gen1.nnue",
        bytes: include_bytes!("../../../nets/menagerie-10x8-gen1.nnue"),
        default: DefaultIn::Variants(&["capablanca", "caparandom"]),
    },
];

/// The networks that read back, each with where it is the default (an empty file, a build
/// without EVALFILE, is no network).
static BUILT_IN: Lazy<Vec<(Arc<Network>, DefaultIn)>> = Lazy::new(|| {
    FILES
        .iter()
        .filter(|f| !f.bytes.is_empty())
        .filter_map(|f| match file::read(f.bytes) {
            Ok(net) => Some((Arc::new(net), f.default)),
            Err(e) => {
                log::error!("built-in network {}: {e}", f.name);
                None
            }
        })
        .collect()
});

/// Every built-in network.
pub fn built_in() -> impl Iterator<Item = &'static Arc<Network>> {
    BUILT_IN.iter().map(|(net, _)| net)
}

/// The built-in network to search `variant` with by default: one that fits it and measured
/// stronger in it than the hand-written evaluation.
pub fn default_for(variant: &Variant) -> Option<&'static Arc<Network>> {
    fitting(
        BUILT_IN
            .iter()
            .filter(|(_, default)| match default {
                DefaultIn::Variants(names) => names.contains(&variant.name.as_str()),
                DefaultIn::Everywhere => true,
            })
            .map(|(net, _)| net),
        variant,
    )
}

/// Which evaluation a run that is not a game (bench, datagen) searches a variant with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalChoice {
    /// As the engine does by default (`default_for`).
    #[default]
    Default,
    /// The hand-written evaluation everywhere.
    HandWritten,
    /// A built-in network wherever one fits, else the hand-written evaluation.
    Network,
}

impl EvalChoice {
    /// The network to search `variant` with, `None` for the hand-written evaluation.
    pub fn network_for(self, variant: &Variant) -> Option<&'static Arc<Network>> {
        match self {
            EvalChoice::Default => default_for(variant),
            EvalChoice::HandWritten => None,
            EvalChoice::Network => fitting(built_in(), variant),
        }
    }
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
    use menagerie_rules::variant::by_name;

    #[test]
    fn every_built_in_network_reads_back_and_one_fits_every_built_in_variant() {
        assert_eq!(built_in().count(), FILES.iter().filter(|f| !f.bytes.is_empty()).count());
        for name in menagerie_rules::variant::names_with_options() {
            assert!(fitting(built_in(), by_name(name).expect("variant")).is_some(), "{name}");
        }
    }

    #[test]
    fn each_built_in_network_fits_every_variant_it_is_the_default_in_and_no_other_is_defaulted() {
        for (net, default) in BUILT_IN.iter() {
            if let DefaultIn::Variants(names) = default {
                for name in *names {
                    let variant = by_name(name).unwrap_or_else(|_| panic!("the list names no variant {name}"));
                    assert!(FeatureMap::new(&net.layout, variant).is_ok(), "listed for {name}, which it does not fit");
                    assert!(default_for(variant).is_some_and(|d| Arc::ptr_eq(d, net)), "{name}");
                }
            }
        }
        // Chess and rvcstar fit the 8x8 and 12x8 networks' inputs but are not listed: they keep the
        // hand-written evaluation unless a network is asked for.
        for name in ["chess", "rvcstar"] {
            let variant = by_name(name).expect("variant");
            assert!(fitting(built_in(), variant).is_some(), "{name}");
            assert!(default_for(variant).is_none(), "{name}");
        }
    }
}
