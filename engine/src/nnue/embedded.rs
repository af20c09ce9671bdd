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
        default: DefaultIn::Variants(&[
            "dchess",
            "chess9",
            "chess9+strict-castling",
            "displacement",
            "vdchess",
            "chess",
            "chess960",
        ]),
    },
    BuiltInFile {
        name: "menagerie-12x8-gen12.nnue",
        bytes: include_bytes!("../../../nets/menagerie-12x8-gen12.nnue"),
        default: DefaultIn::Variants(&["rvc", "rvc+promotion-a", "rvc+promotion-b"]),
    },
    BuiltInFile {
        name: "menagerie-10x8-gen6.nnue",
        bytes: include_bytes!("../../../nets/menagerie-10x8-gen6.nnue"),
        default: DefaultIn::Variants(&["capablanca", "caparandom"]),
    },
];

/// The networks that read back, each with where it is the default (an empty file, a build
/// without EVALFILE, is no network).
static BUILT_IN: Lazy<Vec<(Arc<Network>, DefaultIn, &'static str)>> = Lazy::new(|| {
    FILES
        .iter()
        .filter(|f| !f.bytes.is_empty())
        .filter_map(|f| match file::read(f.bytes) {
            Ok(net) => Some((Arc::new(net), f.default, f.name)),
            Err(e) => {
                log::error!("built-in network {}: {e}", f.name);
                None
            }
        })
        .collect()
});

/// Every built-in network.
pub fn built_in() -> impl Iterator<Item = &'static Arc<Network>> {
    BUILT_IN.iter().map(|(net, _, _)| net)
}

/// The built-in network to search `variant` with by default: one that fits it and measured
/// stronger in it than the hand-written evaluation. A variant a user defined (in a file, or
/// redefining a built-in one) was never measured; it gets its board family's network when its
/// pieces fit the network's layout, since in every variant measured so far a fitting network
/// beat the hand-written evaluation by hundreds of Elo (docs/history/network.md).
pub fn default_for(variant: &Variant) -> Option<&'static Arc<Network>> {
    let user_defined = !menagerie_rules::variant::is_builtin(&variant.name);
    fitting(
        BUILT_IN
            .iter()
            .filter(|(_, default, _)| match default {
                DefaultIn::Variants(names) => user_defined || names.contains(&variant.name.as_str()),
                DefaultIn::Everywhere => true,
            })
            .map(|(net, _, _)| net),
        variant,
    )
}

/// The file name of a built-in network (`None` for any other network).
pub fn built_in_name(network: &Arc<Network>) -> Option<&'static str> {
    BUILT_IN.iter().find(|(net, _, _)| Arc::ptr_eq(net, network)).map(|(_, _, name)| *name)
}

/// In words, what a search of `variant` evaluates with when it was given `network` (what
/// `eval` reports): the network and where it came from, or why it is the hand-written
/// evaluation.
pub fn describe(variant: &Variant, network: Option<&Arc<Network>>) -> String {
    match (network, network.and_then(built_in_name)) {
        (Some(_), Some(name)) => format!("network {name} (built in)"),
        (Some(_), None) => "the network of EvalFile".to_string(),
        (None, _) => match fitting(built_in(), variant).and_then(built_in_name) {
            Some(name) => format!(
                "the hand-written evaluation ({name} fits {} but is not its default: it was not measured stronger there)",
                variant.name
            ),
            None => format!("the hand-written evaluation (no network fits {})", variant.name),
        },
    }
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
        for (net, default, _) in BUILT_IN.iter() {
            if let DefaultIn::Variants(names) = default {
                for name in *names {
                    let variant = by_name(name).unwrap_or_else(|_| panic!("the list names no variant {name}"));
                    assert!(FeatureMap::new(&net.layout, variant).is_ok(), "listed for {name}, which it does not fit");
                    assert!(default_for(variant).is_some_and(|d| Arc::ptr_eq(d, net)), "{name}");
                }
            }
        }
        // Rvcstar fits the 12x8 network's inputs but is not listed (its J is another piece than
        // the one the network learned): it keeps the hand-written evaluation.
        let rvcstar = by_name("rvcstar").expect("variant");
        assert!(fitting(built_in(), rvcstar).is_some());
        assert!(default_for(rvcstar).is_none());
    }

    #[test]
    fn a_variant_a_user_defines_gets_the_network_its_pieces_fit_and_none_otherwise() {
        let text =
            "[embedded-test-shuffle:dchess]\n\n[embedded-test-nightriders:chess]\npiece = N nightrider NN value=500\n";
        // Built, not installed: the process's other tests see only the built-in variants.
        let known = menagerie_rules::variant::registry::definitions();
        let built = menagerie_rules::variant::parse::read_definitions(text, &known).and_then(|d| d.build());
        let installed = built.expect("the test file builds");
        let shuffle = installed.iter().find(|v| v.name == "embedded-test-shuffle").expect("installed");
        let eight_by_eight = BUILT_IN.iter().find(|(_, _, name)| name.contains("8x8")).map(|(net, _, _)| net);
        let default = default_for(shuffle).expect("the 8x8 network fits a D-Chess child");
        assert!(eight_by_eight.is_some_and(|net| Arc::ptr_eq(net, default)));
        assert!(built_in_name(default).is_some_and(|name| name.contains("8x8")));
        // The nightrider is no piece of any network's layout.
        let nightriders = installed.iter().find(|v| v.name == "embedded-test-nightriders").expect("installed");
        assert!(default_for(nightriders).is_none());
    }
}
