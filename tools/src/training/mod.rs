//! Training networks from self-play games: the samples a game's positions make (`samples`, which
//! score each position with the hand-written evaluation too), the trainer (`train`) and its
//! checkpoints (`checkpoint`). The engine crate owns the network, its file and its inference;
//! this module only makes networks.

pub mod checkpoint;
pub mod samples;
pub mod train;

#[cfg(test)]
mod tests {
    use super::samples::{self, SampleSet};
    use super::*;
    use menagerie_engine::nnue::{family_of, file, network, FeatureMap, InputLayout, Network};
    use menagerie_rules::position::Position;
    use menagerie_rules::random::SplitMix64;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::startpos::start_fen;
    use menagerie_rules::variant::by_name;

    fn tiny_samples() -> (InputLayout, SampleSet, Vec<crate::datagen::format::GameRecord>) {
        use crate::datagen::play_game;
        use menagerie_engine::nnue::embedded::EvalChoice;
        use menagerie_engine::search::{SearchThreads, TranspositionTable};
        let dchess = by_name("dchess").expect("dchess");
        let layout = InputLayout::union(family_of(dchess), 1).expect("layout");
        let tt = TranspositionTable::new(1);
        let pool = SearchThreads::new(1);
        let games: Vec<_> =
            (0..6).filter_map(|g| play_game(dchess, 40 + g, 200, EvalChoice::HandWritten, &tt, &pool)).collect();
        let (set, skipped) = SampleSet::from_games(&layout, &games).expect("replay");
        assert_eq!(skipped, 0);
        assert!(set.len() > 100, "{} samples", set.len());
        (layout, set, games)
    }

    /// A small, fast training run for the tiny sample set: every test varies it.
    fn tiny_config() -> train::TrainConfig {
        train::TrainConfig {
            hidden: 16,
            epochs: 12,
            batch: 64,
            learning_rate: 0.01,
            validation: 0.0,
            ..Default::default()
        }
    }

    #[test]
    fn the_trainer_lowers_its_loss_and_is_the_same_for_a_seed() {
        let (plain, plain_set, games) = tiny_samples();
        let kings = plain.clone().with_king_buckets(4);
        let (kings_set, _) = SampleSet::from_games(&kings, &games).expect("replay");
        for (correction, buckets, king_buckets) in
            [(None, 1, 1), (Some(100), 1, 1), (Some(100), 4, 1), (Some(100), 4, 4)]
        {
            let (layout, set) = if king_buckets == 1 { (&plain, &plain_set) } else { (&kings, &kings_set) };
            let config = train::TrainConfig { correction, buckets, ..tiny_config() };
            let mut losses = Vec::new();
            let net = train::train(layout.clone(), set, &config, |r, _| losses.push(r.loss));
            assert!(losses[losses.len() - 1] < 0.8 * losses[0], "correction {correction:?}: {losses:?}");
            assert_eq!(net.quantised().correction, correction);
            assert_eq!(net.quantised().buckets, buckets);
            assert_eq!(net.quantised().layout.king_buckets, king_buckets);
            let again = train::train(layout.clone(), set, &config, |_, _| {});
            assert_eq!(net, again, "same seed, same network");
        }
    }

    #[test]
    fn a_run_resumed_from_its_checkpoint_makes_the_network_the_whole_run_makes() {
        let (layout, set, _) = tiny_samples();
        let config = train::TrainConfig { epochs: 4, validation: 0.2, ..tiny_config() };
        let whole = train::train(layout.clone(), &set, &config, |_, _| {});
        let mut after_two = None;
        train::train_from(layout.clone(), &set, &config, None, |report, _, checkpoint| {
            if report.epoch == 2 {
                after_two = Some(checkpoint);
            }
        });
        let fingerprint = train::fingerprint(&layout, &set, &config);
        let bytes = after_two.expect("epoch 2").write(&fingerprint);
        let resumed_from = checkpoint::Checkpoint::read(&bytes, &fingerprint).expect("reads back");
        let mut epochs = Vec::new();
        let resumed =
            train::train_from(layout.clone(), &set, &config, Some(resumed_from), |r, _, _| epochs.push(r.epoch));
        assert_eq!(epochs, [3, 4]);
        assert_eq!(resumed, whole);
        // Another run's settings do not take it.
        let other = train::TrainConfig { seed: 2, ..config };
        assert!(checkpoint::Checkpoint::read(&bytes, &train::fingerprint(&layout, &set, &other)).is_err());
    }

    #[test]
    fn a_material_network_learns_and_gives_every_square_of_a_kind_the_same_column() {
        let (layout, set, _) = tiny_samples();
        let config = train::TrainConfig { correction: Some(100), piece_squares: false, ..tiny_config() };
        let mut losses = Vec::new();
        let net = train::train(layout.clone(), &set, &config, |r, _| losses.push(r.loss)).quantised();
        assert!(losses[losses.len() - 1] < 0.9 * losses[0], "{losses:?}");
        let (h, squares) = (net.hidden, layout.geometry.squares());
        let column = |input: usize| &net.input_weights[input * h..(input + 1) * h];
        for group in 0..2 * layout.kinds.len() {
            let first = column(group * squares);
            assert!(first.iter().any(|&w| w != 0), "group {group} learnt nothing");
            for square in 1..squares {
                assert_eq!(column(group * squares + square), first, "group {group}, square {square}");
            }
        }
    }

    #[test]
    fn the_quantised_network_evaluates_within_a_few_centipawns_of_the_float_one() {
        let (layout, _, games) = tiny_samples();
        // Four king buckets, whose shared columns the quantiser folds in, and four output
        // buckets: the trainer counts a sample's pieces from its inputs, the engine from the
        // board, and the two must pick the same output layer.
        let layout = layout.with_king_buckets(4);
        let (set, _) = SampleSet::from_games(&layout, &games).expect("replay");
        let config = train::TrainConfig { hidden: 32, epochs: 6, buckets: 4, ..tiny_config() };
        let float = train::train(layout, &set, &config, |_, _| {});
        let net = float.quantised();
        let bytes = file::write(&net, &[]);
        let net = file::read(&bytes).expect("round trip");
        let dchess = by_name("dchess").expect("dchess");
        let map = FeatureMap::new(&net.layout, dchess).expect("fits");
        let rules = compiled::<u64>(dchess);
        let (mut worst, mut total) = (0i32, 0i32);
        let mut rng = SplitMix64::new(9);
        for _ in 0..40 {
            let fen = start_fen(dchess, rng.below(dchess.start_count())).expect("start");
            let mut pos = Position::<u64>::from_fen(rules, &fen).expect("fen");
            for _ in 0..rng.below(30) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play(moves.as_slice()[rng.index(moves.len())]);
            }
            let (mut ours, mut theirs) = (Vec::new(), Vec::new());
            Network::active_inputs(&map, &pos, pos.side_to_move(), &mut ours);
            Network::active_inputs(&map, &pos, pos.side_to_move().flip(), &mut theirs);
            let (ours, theirs): (Vec<u16>, Vec<u16>) =
                (ours.iter().map(|&i| i as u16).collect(), theirs.iter().map(|&i| i as u16).collect());
            let sample = samples::Sample { ours: &ours, theirs: &theirs, score: 0, result: 0.5, hand_written: 0 };
            let expected = (float.output(&sample) * network::SCALE as f32).round() as i32;
            let error = (net.evaluate(&map, &pos) - expected).abs();
            (worst, total) = (worst.max(error), total + error);
        }
        // Each of some 30 active input weights rounds by up to 1/510 at QA = 255, and the
        // squared activation and the 400 cp scale multiply that. The roundings add like a
        // random walk: a centipawn or two on average, the worst of 40 positions a few more,
        // never tens.
        assert!(worst <= 8, "quantisation moved an evaluation by {worst} cp");
        assert!(total <= 40 * 2, "quantisation moved the evaluations by {total} cp in all, over 40 positions");
    }
}
