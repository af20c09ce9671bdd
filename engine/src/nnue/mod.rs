//! The learned evaluation: a small network per board family, read from a versioned file,
//! evaluated from accumulators that a move updates by the inputs it turns on and off; an
//! evaluation of its own, or a bounded correction of the hand-written one.
//!
//! Owns: input layouts (`layout`), the quantised network and its reference evaluation
//! (`network`), the search's accumulators (`stack`) and their vectorised loops (`simd`, over
//! `aligned` storage), the network file (`file`), the networks built into the engine
//! (`embedded`).
//! Must not know: the search, protocols, the hand-written evaluation's terms, training (the
//! tools crate's `training` makes networks; this module only reads and runs them).

pub mod aligned;
pub mod embedded;
pub mod file;
pub mod layout;
pub mod network;
pub mod simd;
pub mod stack;

pub use file::NetFileError;
pub use layout::{family_of, FeatureMap, InputLayout, LayoutError};
pub use network::{Network, WIDTHS};
pub use stack::{AccumulatorStack, UnsupportedWidth};

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::bitboard::BitSet;
    use menagerie_rules::position::Position;
    use menagerie_rules::random::SplitMix64;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::startpos::start_fen;
    use menagerie_rules::variant::{by_name, names_with_options, Variant};

    /// A network with small pseudo-random weights, so that every input matters.
    fn random_network(layout: InputLayout, hidden: usize, buckets: usize, seed: u64) -> Network {
        let mut rng = SplitMix64::new(seed);
        let mut small = |range: u64| (rng.below(2 * range + 1) as i64 - range as i64) as i16;
        let mut net = Network::zeroed(layout, hidden, buckets);
        net.input_weights.iter_mut().for_each(|w| *w = small(60));
        net.input_bias.iter_mut().for_each(|w| *w = small(100));
        net.output_weights.iter_mut().for_each(|w| *w = small(100));
        net.output_bias.iter_mut().enumerate().for_each(|(b, w)| *w = 1234 * (b as i32 + 1));
        net
    }

    /// Random playouts from random starts of `v`, searched the way the search walks a tree
    /// (two siblings at each ply, sometimes a null move), with the accumulators of `stack`:
    /// every position's output equals the network's from scratch.
    fn playouts_agree<B: BitSet>(
        v: &'static Variant,
        net: &Network,
        stack: &mut AccumulatorStack,
        rng: &mut SplitMix64,
    ) {
        let map = FeatureMap::new(&net.layout, v).expect("fits");
        let index = rng.below(v.start_count());
        let fen = start_fen(v, index).expect("start");
        let mut pos = Position::<B>::from_fen(compiled::<B>(v), &fen).expect("fen");
        stack.set_root(net, &map, &pos);
        let level = stack.level().name();
        assert_eq!(stack.output(net, &map, &pos, 0), net.evaluate(&map, &pos));
        // Past the stack's last ply, where the search evaluates from scratch.
        for ply in 1..=40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mut next = None;
            for _sibling in 0..2 {
                let mut child = pos.clone();
                if rng.below(10) == 0 && !pos.in_check() {
                    child.play_null();
                } else {
                    child.play(moves.as_slice()[rng.index(moves.len())]);
                }
                stack.push(net, &map, &pos, &child, ply);
                let expected = net.evaluate(&map, &child);
                assert_eq!(stack.output(net, &map, &child, ply), expected, "{} {level}, ply {ply} from {fen}", v.name);
                next = Some(child);
            }
            pos = next.expect("a child");
        }
    }

    #[test]
    fn the_search_accumulators_equal_the_reference_at_every_width_and_instruction_set() {
        let mut rng = SplitMix64::new(2024);
        for name in names_with_options() {
            let v = by_name(name).expect("variant");
            for (k, &width) in WIDTHS.iter().enumerate() {
                // Each king-bucket choice (whose king moves rebuild a perspective) at some width.
                let king_buckets = layout::KING_BUCKET_CHOICES[k % layout::KING_BUCKET_CHOICES.len()];
                let layout = InputLayout::union(family_of(v), 2).expect("layout").with_king_buckets(king_buckets);
                let net = random_network(layout, width, 4, 7 + k as u64);
                for level in simd::Level::available() {
                    // A short stack: the deeper plies are evaluated from scratch.
                    let mut stack = AccumulatorStack::with_level(&net, 30, level).expect("a supported width");
                    if v.geometry.squares() <= 64 {
                        playouts_agree::<u64>(v, &net, &mut stack, &mut rng);
                    } else {
                        playouts_agree::<u128>(v, &net, &mut stack, &mut rng);
                    }
                }
            }
        }
    }

    #[test]
    fn a_width_without_compiled_inference_is_refused_by_the_stack_and_the_file_reader() {
        let chess = by_name("chess").expect("chess");
        let layout = InputLayout::union(family_of(chess), 1).expect("layout");
        let odd = random_network(layout.clone(), 48, 1, 3);
        let err = AccumulatorStack::new(&odd, 10).err().expect("48 is refused");
        assert!(err.to_string().contains("48"), "{err}");
        let bytes = file::write(&odd, &[]);
        match file::read(&bytes) {
            Err(NetFileError::Header(e)) => assert!(e.contains("hidden 48"), "{e}"),
            other => panic!("{other:?}"),
        }
        let fine = random_network(layout, 64, 1, 3);
        assert!(AccumulatorStack::new(&fine, 10).is_ok());
    }

    /// A network file's bytes with the last character of its header line `line` made `digit`.
    fn with_last_digit_of(bytes: &[u8], line: &[u8], digit: u8) -> Vec<u8> {
        let at = bytes.windows(line.len()).position(|w| w == line).expect("the header has the line");
        let mut changed = bytes.to_vec();
        changed[at + line.len() - 1] = digit;
        changed
    }

    #[test]
    fn a_network_file_round_trips_and_every_damage_is_refused_with_its_reason() {
        let chess = by_name("chess").expect("chess");
        let layout = InputLayout::union(family_of(chess), 1).expect("layout");
        let net = random_network(layout.clone(), 32, 1, 3);
        let bytes = file::write(&net, &["test network".to_string()]);
        assert_eq!(file::read(&bytes).as_ref(), Ok(&net));
        let correction = Network { correction: Some(75), ..net.clone() };
        assert_eq!(file::read(&file::write(&correction, &[])), Ok(correction));
        let kings = random_network(layout.clone().with_king_buckets(4), 32, 1, 5);
        let kings_bytes = file::write(&kings, &[]);
        assert_eq!(file::read(&kings_bytes), Ok(kings));
        let three = with_last_digit_of(&kings_bytes, b"king buckets 4", b'3');
        assert!(matches!(file::read(&three), Err(NetFileError::Header(e)) if e.contains("king buckets")));
        let bucketed = random_network(layout, 32, 5, 4);
        let bucketed_bytes = file::write(&bucketed, &[]);
        assert_eq!(file::read(&bucketed_bytes), Ok(bucketed));
        // A header that promises more buckets than the weights hold is refused by size.
        let more = with_last_digit_of(&bucketed_bytes, b"output buckets 5", b'6');
        assert!(matches!(file::read(&more), Err(NetFileError::Size { .. })));

        let mut flipped = bytes.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 1;
        assert!(matches!(file::read(&flipped), Err(NetFileError::Checksum { .. })));
        assert!(matches!(file::read(&bytes[..bytes.len() - 3]), Err(NetFileError::Size { .. })));
        assert_eq!(file::read(b"PK\x03\x04 a zip"), Err(NetFileError::NotANetwork));
        let mut newer = bytes.clone();
        newer[7] = 9;
        assert_eq!(file::read(&newer), Err(NetFileError::Version(9)));
        assert_eq!(file::read(&bytes[..10]), Err(NetFileError::Truncated));
        let err = file::load(std::path::Path::new("/nonexistent/net.nnue")).expect_err("missing");
        assert!(err.to_string().contains("/nonexistent/net.nnue"), "{err}");
    }

    #[test]
    fn a_header_that_names_another_layout_or_nonsense_is_refused() {
        let header = |text: &str| {
            let mut b = b"MENAGNN".to_vec();
            b.push(file::VERSION);
            b.extend_from_slice(&(text.len() as u32).to_le_bytes());
            b.extend_from_slice(text.as_bytes());
            file::read(&b)
        };
        for (text, why) in [
            ("board 8x8\nhidden 32\n", "kinds"),
            ("board 99x99\nhidden 32\nkind K K royal\n", "no board"),
            ("board 8x8\nhidden 0\nkind K K royal\n", "hidden"),
            ("board 8x8\nhidden 32\nkind K K royal sideways\n", "unknown flag"),
            ("board 8x8\nhidden 32\nweights 3\n", "unknown line"),
            ("board 8x8\nhidden 32\nkind K K royal\noutput buckets 0\n", "buckets"),
            ("board 8x8\nhidden 32\nkind K K royal\noutput buckets 17\n", "buckets"),
        ] {
            match header(text) {
                Err(NetFileError::Header(e)) => assert!(e.contains(why), "{text:?}: {e}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
        // A well-formed header whose layout a variant does not fit is refused when mapped.
        let rvc = by_name("rvc").expect("rvc");
        let chess_net = InputLayout::union([by_name("chess").expect("chess")], 0).expect("layout");
        assert!(FeatureMap::new(&chess_net, rvc).is_err());
    }

    #[test]
    fn the_output_is_symmetric_under_colour_mirroring() {
        // The same position with colours exchanged and the board mirrored scores the same for
        // the side to move: each perspective sees the board as White.
        let chess = by_name("chess").expect("chess");
        let rules = compiled::<u64>(chess);
        let a =
            Position::<u64>::from_fen(rules, "r3k2r/ppp2ppp/2n5/3qp3/8/2N2N2/PPPP1PPP/R2QK2R w KQkq - 0 1").expect("a");
        let b =
            Position::<u64>::from_fen(rules, "r2qk2r/pppp1ppp/2n2n2/8/3QP3/2N5/PPP2PPP/R3K2R b KQkq - 0 1").expect("b");
        for king_buckets in layout::KING_BUCKET_CHOICES {
            let layout = InputLayout::union([chess], 0).expect("layout").with_king_buckets(king_buckets);
            let net = random_network(layout, 24, 3, 11);
            let map = FeatureMap::new(&net.layout, chess).expect("fits");
            assert_eq!(net.evaluate(&map, &a), net.evaluate(&map, &b));
            assert_ne!(net.evaluate(&map, &a), 0);
        }
    }

    #[test]
    fn output_buckets_step_from_the_bare_kings_to_a_full_board() {
        let layout = |name: &str| InputLayout::union([by_name(name).expect("variant")], 0).expect("layout");
        let (chess, rvc) = (layout("chess"), layout("rvc"));
        assert_eq!(network::output_bucket(&chess, 1, 32), 0);
        assert_eq!(network::output_bucket(&chess, 8, 2), 0);
        assert_eq!(network::output_bucket(&chess, 8, 5), 1);
        assert_eq!(network::output_bucket(&chess, 8, 32), 7);
        assert_eq!(network::output_bucket(&chess, 8, 34), 7, "more than a full board shares the last");
        assert_eq!(network::output_bucket(&rvc, 8, 48), 7);
        assert_eq!(network::output_bucket(&rvc, 8, 12), 1);
    }
}
