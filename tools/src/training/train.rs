//! The trainer: a float copy of the network fitted to samples by Adam on every core, then
//! quantised. The target blends the search's score and the game's result,
//! `lambda * sigmoid(score / SCALE) + (1 - lambda) * result`; the loss is the squared error of
//! `sigmoid(output)`. A batch is cut into a fixed number of chunks whose gradients are summed in
//! order, so that a run is the same for a given seed whatever the number of threads.
//!
//! Owns: `FloatNetwork`, `TrainConfig`, the training loop, quantisation.
//! Must not know: how samples were made, protocols, the search.

use super::checkpoint::Checkpoint;
use super::samples::{Sample, SampleSet};
use menagerie_engine::nnue::layout::InputLayout;
use menagerie_engine::nnue::network::{bounded_correction, output_bucket, Network, QA, QB, SCALE};
use menagerie_rules::random::SplitMix64;
use rayon::prelude::*;
use std::time::Instant;

/// Weights are kept within this so that the quantised ones fit their integers (an output weight
/// of 1.98 is 2028 at QB = 1024) and the accumulators cannot overflow.
const WEIGHT_CLIP: f32 = 1.98;
/// Chunks per batch, whatever the number of threads: the sum order, hence the result, is fixed.
const CHUNKS: usize = 16;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// Weight of the search's score against the game's result in the target.
    pub lambda: f32,
    pub seed: u64,
    /// Share of the games held out, whole, to measure the fit.
    pub validation: f32,
    /// Train shared columns per (relative colour, kind) beside the per-square ones (see
    /// `FloatNetwork::factors`).
    pub factorise: bool,
    /// Train a correction network with this bound (`Network::correction`).
    pub correction: Option<u16>,
    /// Train a column per (kind, square); when false, a board input's column is its factor
    /// column alone, so the network sees only the material (needs `factorise`).
    pub piece_squares: bool,
    /// Output layers chosen by material (`Network::buckets`).
    pub buckets: usize,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            hidden: 128,
            epochs: 20,
            batch: 16384,
            learning_rate: 0.001,
            lambda: 0.7,
            seed: 1,
            validation: 0.05,
            factorise: true,
            correction: None,
            piece_squares: true,
            buckets: 1,
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub loss: f64,
    pub validation_loss: f64,
    /// The validation loss of the hand-written evaluation alone: what a network must beat.
    pub hand_written_loss: f64,
    pub samples_per_second: f64,
    pub learning_rate: f32,
}

impl std::fmt::Display for EpochReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "epoch {}: loss {:.6}, validation loss {:.6} (hand-written alone {:.6}), {:.0} samples/s, learning rate {:.6}",
            self.epoch,
            self.loss,
            self.validation_loss,
            self.hand_written_loss,
            self.samples_per_second,
            self.learning_rate
        )
    }
}

/// The network in floats: the same shape as `Network`, weights at their real scale.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub layout: InputLayout,
    pub hidden: usize,
    /// Shared columns, one per (relative colour, kind), each added to the column of every board
    /// input of its colour and kind: a piece's worth wherever it stands is learnt from every
    /// position it appears in, not square by square, which a few million positions cannot
    /// teach. Folded into the board columns when quantised; zero when not factorised.
    pub factors: usize,
    /// Where the layout has king buckets: shared columns, one per input of a bucket, each
    /// added to that input's column in every bucket, so that what a piece on a square is worth
    /// whatever the king's bucket is learnt from every position (zero: none).
    pub king_free: usize,
    /// `w1[input * hidden + j]`, then the factor columns, the king-free columns, `b1`, `w2`
    /// (bucket by bucket, the side to move's half first), `b2` (one per bucket): one vector, so
    /// that the optimiser treats every weight alike.
    pub params: Vec<f32>,
    /// Output layers chosen by material (`Network::buckets`).
    pub buckets: usize,
    /// The bound of a correction network (`Network::correction`).
    pub correction: Option<u16>,
    /// Whether board inputs have a column of their own beside their factor column
    /// (`TrainConfig::piece_squares`); when not, their own columns stay zero.
    pub piece_squares: bool,
}

struct Offsets {
    factors: usize,
    king_free: usize,
    b1: usize,
    w2: usize,
    b2: usize,
}

impl FloatNetwork {
    /// Small random weights (uniform, scaled by the fan-in); the factor columns, if
    /// `factorise`, start at zero, or at random where board inputs have no columns of their own.
    pub fn random(layout: InputLayout, config: &TrainConfig) -> FloatNetwork {
        let hidden = config.hidden;
        let inputs = layout.input_count();
        let factors = if config.factorise { 2 * layout.kinds.len() } else { 0 };
        let king_free = if config.factorise && config.piece_squares && layout.king_buckets > 1 {
            layout.bucket_inputs()
        } else {
            0
        };
        let piece_squares = config.piece_squares || factors == 0;
        let board_inputs = factors * layout.geometry.squares();
        let bucket_inputs = layout.bucket_inputs();
        let mut rng = SplitMix64::new(config.seed);
        let mut uniform = |scale: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale;
        let buckets = config.buckets.max(1);
        let mut params =
            Vec::with_capacity((inputs + factors + king_free) * hidden + hidden + buckets * (2 * hidden + 1));
        for input in 0..inputs {
            let own = piece_squares || input % bucket_inputs >= board_inputs;
            params.extend((0..hidden).map(|_| if own { uniform(0.1) } else { 0.0 }));
        }
        params.extend((0..factors * hidden).map(|_| if piece_squares { 0.0 } else { uniform(0.1) }));
        params.extend((0..king_free * hidden).map(|_| 0.0));
        params.extend((0..hidden).map(|_| uniform(0.1) + 0.15));
        params.extend((0..buckets * 2 * hidden).map(|_| uniform(1.0 / (2.0 * hidden as f32).sqrt())));
        params.extend((0..buckets).map(|_| 0.0));
        FloatNetwork {
            layout,
            hidden,
            factors,
            king_free,
            params,
            buckets,
            correction: config.correction,
            piece_squares,
        }
    }

    fn offsets(&self) -> Offsets {
        let factors = self.layout.input_count() * self.hidden;
        let king_free = factors + self.factors * self.hidden;
        let b1 = king_free + self.king_free * self.hidden;
        let w2 = b1 + self.hidden;
        Offsets { factors, king_free, b1, w2, b2: w2 + self.buckets * 2 * self.hidden }
    }

    /// The output bucket of a sample: its pieces on the board are its board inputs.
    fn bucket(&self, sample: &Sample<'_>) -> usize {
        let board_inputs = 2 * self.layout.kinds.len() * self.layout.geometry.squares();
        let bucket_inputs = self.layout.bucket_inputs();
        let pieces = sample.ours.iter().filter(|&&i| usize::from(i) % bucket_inputs < board_inputs).count();
        output_bucket(&self.layout, self.buckets, pieces)
    }

    /// The factor column shared by `input`, if it has one (board inputs are numbered by king
    /// bucket, then (relative colour, kind), then square).
    #[inline]
    fn factor_of(&self, input: usize) -> Option<usize> {
        let squares = self.layout.geometry.squares();
        let input = input % self.layout.bucket_inputs();
        (self.factors > 0 && input < self.factors * squares).then(|| input / squares)
    }

    /// The king-free column shared by `input`, if it has one.
    #[inline]
    fn king_free_of(&self, input: usize) -> Option<usize> {
        (self.king_free > 0).then(|| input % self.king_free)
    }

    /// The starts of the parameter ranges whose sum is `input`'s column: its own, its factor
    /// column and its king-free column (each shared one where it has it).
    fn columns(&self, input: usize, o: &Offsets) -> (usize, Option<usize>, Option<usize>) {
        let h = self.hidden;
        let factor = self.factor_of(input).map(|f| o.factors + f * h);
        let king_free = self.king_free_of(input).map(|k| o.king_free + k * h);
        (input * h, factor, king_free)
    }

    fn accumulate(&self, inputs: &[u16], out: &mut [f32]) {
        let h = self.hidden;
        let o = self.offsets();
        out.copy_from_slice(&self.params[o.b1..o.b1 + h]);
        for &i in inputs {
            let (column, factor, king_free) = self.columns(usize::from(i), &o);
            for start in std::iter::once(column).chain(factor).chain(king_free) {
                for (v, w) in out.iter_mut().zip(&self.params[start..start + h]) {
                    *v += w;
                }
            }
        }
    }

    /// What the sigmoid of the prediction is taken of: the output, plus the hand-written
    /// evaluation for a correction network (both in units of SCALE centipawns).
    fn logit(&self, sample: &Sample<'_>, output: f32) -> f32 {
        match self.correction {
            Some(limit) => {
                let scale = SCALE as f32;
                (bounded_correction(output * scale, limit) + f32::from(sample.hand_written)) / scale
            }
            None => output,
        }
    }

    /// The slope of `logit` in the output.
    fn logit_slope(&self, output: f32) -> f32 {
        match self.correction {
            Some(limit) => {
                let t = (output * SCALE as f32 / f32::from(limit.max(1))).tanh();
                1.0 - t * t
            }
            None => 1.0,
        }
    }

    /// The raw output (centipawns / SCALE) of one sample.
    pub fn output(&self, sample: &Sample<'_>) -> f32 {
        let h = self.hidden;
        let o = self.offsets();
        let (mut us, mut them) = (vec![0.0; h], vec![0.0; h]);
        self.accumulate(sample.ours, &mut us);
        self.accumulate(sample.theirs, &mut them);
        let bucket = self.bucket(sample);
        let w2 = &self.params[o.w2 + bucket * 2 * h..o.w2 + (bucket + 1) * 2 * h];
        let half =
            |acc: &[f32], w: &[f32]| acc.iter().zip(w).map(|(&a, &w)| a.clamp(0.0, 1.0).powi(2) * w).sum::<f32>();
        half(&us, &w2[..h]) + half(&them, &w2[h..]) + self.params[o.b2 + bucket]
    }

    /// The loss of one sample, and its gradient added into `grad`.
    fn backprop(&self, sample: &Sample<'_>, lambda: f32, grad: &mut [f32], work: &mut Work) -> f32 {
        let h = self.hidden;
        let o = self.offsets();
        self.accumulate(sample.ours, &mut work.us);
        self.accumulate(sample.theirs, &mut work.them);
        let bucket = self.bucket(sample);
        let w2_at = o.w2 + bucket * 2 * h;
        let w2 = &self.params[w2_at..w2_at + 2 * h];
        let mut out = self.params[o.b2 + bucket];
        for j in 0..h {
            out += work.us[j].clamp(0.0, 1.0).powi(2) * w2[j] + work.them[j].clamp(0.0, 1.0).powi(2) * w2[h + j];
        }
        let predicted = sigmoid(self.logit(sample, out));
        let target = lambda * sigmoid(f32::from(sample.score) / SCALE as f32) + (1.0 - lambda) * sample.result;
        let error = predicted - target;
        let d_out = 2.0 * error * predicted * (1.0 - predicted) * self.logit_slope(out);
        grad[o.b2 + bucket] += d_out;
        for (side, acc, inputs) in [(0, &work.us, sample.ours), (1, &work.them, sample.theirs)] {
            for j in 0..h {
                let a = acc[j];
                let active = a.clamp(0.0, 1.0);
                grad[w2_at + side * h + j] += d_out * active * active;
                // The activation's slope: 2a inside (0, 1), flat outside.
                let slope = if a > 0.0 && a < 1.0 { 2.0 * a } else { 0.0 };
                work.d_acc[j] = d_out * w2[side * h + j] * slope;
                grad[o.b1 + j] += work.d_acc[j];
            }
            for &i in inputs {
                let (column, factor, king_free) = self.columns(usize::from(i), &o);
                let own = (self.piece_squares || factor.is_none()).then_some(column);
                for start in own.into_iter().chain(factor).chain(king_free) {
                    for (g, d) in grad[start..start + h].iter_mut().zip(&work.d_acc) {
                        *g += d;
                    }
                }
            }
        }
        error * error
    }
}

/// A thread's work space for `backprop`.
struct Work {
    us: Vec<f32>,
    them: Vec<f32>,
    d_acc: Vec<f32>,
}

impl Work {
    fn new(hidden: usize) -> Work {
        Work { us: vec![0.0; hidden], them: vec![0.0; hidden], d_acc: vec![0.0; hidden] }
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Adam's moments for every parameter.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n], step: 0 }
    }

    fn apply(&mut self, params: &mut [f32], grad: &[f32], learning_rate: f32, scale: f32) {
        self.step += 1;
        let c1 = 1.0 - Self::BETA1.powi(self.step);
        let c2 = 1.0 - Self::BETA2.powi(self.step);
        params.par_iter_mut().zip(&mut self.m).zip(&mut self.v).zip(grad).for_each(|(((p, m), v), &g)| {
            let g = g * scale;
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *p -= learning_rate * (*m / c1) / ((*v / c2).sqrt() + Self::EPSILON);
            *p = p.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        });
    }
}

/// The mean loss of `net` over the samples at `indices`; with no network, of the hand-written
/// evaluation alone.
fn mean_loss(net: Option<&FloatNetwork>, set: &SampleSet, indices: &[usize], lambda: f32) -> f64 {
    if indices.is_empty() {
        return 0.0;
    }
    let total: f64 = indices
        .par_chunks(4096)
        .map(|chunk| {
            chunk
                .iter()
                .map(|&i| {
                    let s = set.get(i);
                    let target = lambda * sigmoid(f32::from(s.score) / SCALE as f32) + (1.0 - lambda) * s.result;
                    let logit = match net {
                        Some(net) => net.logit(&s, net.output(&s)),
                        None => f32::from(s.hand_written) / SCALE as f32,
                    };
                    let e = f64::from(sigmoid(logit) - target);
                    e * e
                })
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    total / indices.len() as f64
}

/// The learning rate of an epoch: the base rate, a tenth of it for the last quarter of the run.
fn learning_rate(config: &TrainConfig, epoch: usize) -> f32 {
    if epoch * 4 >= config.epochs * 3 {
        config.learning_rate * 0.1
    } else {
        config.learning_rate
    }
}

/// Fit a network to `set`; `on_epoch` gets each epoch's figures and the network so far.
pub fn train(
    layout: InputLayout,
    set: &SampleSet,
    config: &TrainConfig,
    mut on_epoch: impl FnMut(&EpochReport, &FloatNetwork),
) -> FloatNetwork {
    train_from(layout, set, config, None, |report, net, _| on_epoch(report, net))
}

/// A description of a run's settings and data: a checkpoint made by a run with another one
/// is refused.
pub fn fingerprint(layout: &InputLayout, set: &SampleSet, config: &TrainConfig) -> String {
    format!("{config:?} {layout:?} samples {} games {}", set.len(), set.game_count())
}

/// As `train`, going on from `resume` (a checkpoint of the same run: `fingerprint`) if given;
/// `on_epoch` also gets the checkpoint after each epoch. A resumed run makes the network the
/// uninterrupted run would have made: the samples are split and shuffled from the seed as
/// they were, and the weights and the optimiser's moments are the checkpoint's.
pub fn train_from(
    layout: InputLayout,
    set: &SampleSet,
    config: &TrainConfig,
    resume: Option<Checkpoint>,
    mut on_epoch: impl FnMut(&EpochReport, &FloatNetwork, Checkpoint),
) -> FloatNetwork {
    let mut net = FloatNetwork::random(layout, config);
    let mut rng = SplitMix64::new(config.seed ^ 0x5eed);
    let (validation, mut training) = split_by_game(set, config.validation, &mut rng);
    let hand_written_loss = mean_loss(None, set, &validation, config.lambda);
    let n = net.params.len();
    let mut adam = Adam::new(n);
    let mut first_epoch = 1;
    let mut best_validation = f64::INFINITY;
    if let Some(c) = resume.filter(|c| c.params.len() == n) {
        // The epochs done drew their shuffles from the generator: draw them again.
        for _ in 0..c.epochs_done {
            shuffle(&mut training, &mut rng);
        }
        first_epoch = c.epochs_done + 1;
        best_validation = c.best_validation;
        net.params = c.params;
        adam = Adam { m: c.adam_m, v: c.adam_v, step: c.adam_step };
    }
    let h = config.hidden;
    for epoch in first_epoch..=config.epochs {
        let started = Instant::now();
        shuffle(&mut training, &mut rng);
        let rate = learning_rate(config, epoch - 1);
        let mut loss_sum = 0.0f64;
        for batch in training.chunks(config.batch.max(1)) {
            let per_chunk = batch.len().div_ceil(CHUNKS);
            let parts: Vec<(Vec<f32>, f64)> = batch
                .par_chunks(per_chunk.max(1))
                .map(|chunk| {
                    let mut grad = vec![0.0f32; n];
                    let mut work = Work::new(h);
                    let mut loss = 0.0f64;
                    for &i in chunk {
                        loss += f64::from(net.backprop(&set.get(i), config.lambda, &mut grad, &mut work));
                    }
                    (grad, loss)
                })
                .collect();
            let mut grad = vec![0.0f32; n];
            for (g, loss) in &parts {
                loss_sum += loss;
                grad.par_iter_mut().zip(g).for_each(|(a, b)| *a += b);
            }
            adam.apply(&mut net.params, &grad, rate, 1.0 / batch.len() as f32);
        }
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let report = EpochReport {
            epoch,
            loss: loss_sum / training.len().max(1) as f64,
            validation_loss: mean_loss(Some(&net), set, &validation, config.lambda),
            hand_written_loss,
            samples_per_second: training.len() as f64 / secs,
            learning_rate: rate,
        };
        best_validation = best_validation.min(report.validation_loss);
        let checkpoint = Checkpoint {
            epochs_done: epoch,
            params: net.params.clone(),
            adam_m: adam.m.clone(),
            adam_v: adam.v.clone(),
            adam_step: adam.step,
            best_validation,
        };
        on_epoch(&report, &net, checkpoint);
    }
    net
}

/// The validation and training samples: a `share` of the games, drawn at random, held out
/// whole.
fn split_by_game(set: &SampleSet, share: f32, rng: &mut SplitMix64) -> (Vec<usize>, Vec<usize>) {
    let mut games: Vec<usize> = (0..set.game_count()).collect();
    shuffle(&mut games, rng);
    let held = ((games.len() as f32 * share).round() as usize).min(games.len());
    let mut held_out = vec![false; games.len()];
    for &g in &games[..held] {
        held_out[g] = true;
    }
    (0..set.len()).partition(|&i| held_out[set.games[i] as usize])
}

fn shuffle(v: &mut [usize], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.index(i + 1));
    }
}

fn quantise(x: f32, scale: i32) -> i16 {
    (x * scale as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

impl FloatNetwork {
    /// The network for inference: weights rounded to their integer scales.
    pub fn quantised(&self) -> Network {
        let o = self.offsets();
        let h = self.hidden;
        let input_weights = (0..o.factors)
            .map(|k| {
                let (_, factor, king_free) = self.columns(k / h, &o);
                let shared: f32 = factor.into_iter().chain(king_free).map(|start| self.params[start + k % h]).sum();
                // Folded weights keep the clip, so that the accumulators cannot overflow.
                quantise((self.params[k] + shared).clamp(-WEIGHT_CLIP, WEIGHT_CLIP), QA)
            })
            .collect();
        Network {
            layout: self.layout.clone(),
            hidden: self.hidden,
            input_weights,
            input_bias: self.params[o.b1..o.w2].iter().map(|&w| quantise(w, QA)).collect(),
            buckets: self.buckets,
            output_weights: self.params[o.w2..o.b2].iter().map(|&w| quantise(w, QB)).collect(),
            output_bias: self.params[o.b2..].iter().map(|&b| (b * (QA * QB) as f32).round() as i32).collect(),
            correction: self.correction,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    fn vd_layout() -> InputLayout {
        let names = ["chess", "dchess", "vdchess"];
        InputLayout::union(names.iter().map(|n| by_name(n).expect("built in")), 1).expect("layout")
    }

    #[test]
    fn the_validation_set_holds_out_whole_games() {
        let games: Vec<u32> = (0..100u32).flat_map(|g| std::iter::repeat_n(g, 1 + g as usize % 7)).collect();
        let n = games.len();
        let set = SampleSet {
            inputs: Vec::new(),
            starts: vec![0; n + 1],
            mids: vec![0; n],
            scores: vec![0; n],
            results: vec![0.5; n],
            hand_written: vec![0; n],
            games,
        };
        let (validation, training) = split_by_game(&set, 0.1, &mut SplitMix64::new(5));
        assert_eq!(validation.len() + training.len(), n);
        let held: std::collections::BTreeSet<u32> = validation.iter().map(|&i| set.games[i]).collect();
        assert_eq!(held.len(), 10, "a tenth of the 100 games");
        assert!(training.iter().all(|&i| !held.contains(&set.games[i])), "a game on both sides");
    }

    #[test]
    fn factor_columns_are_folded_into_every_board_column_of_their_kind() {
        let layout = vd_layout();
        let config = TrainConfig { hidden: 8, seed: 3, ..TrainConfig::default() };
        let mut net = FloatNetwork::random(layout, &config);
        let o = net.offsets();
        let squares = net.layout.geometry.squares();
        assert_eq!(net.factors, 2 * net.layout.kinds.len());
        for (k, w) in net.params[o.factors..o.b1].iter_mut().enumerate() {
            *w = 0.01 * (k % 7) as f32;
        }
        let q = net.quantised();
        let h = net.hidden;
        for input in 0..net.layout.input_count() {
            for j in 0..h {
                let shared =
                    if input < net.factors * squares { net.params[o.factors + (input / squares) * h + j] } else { 0.0 };
                let expected = quantise(net.params[input * h + j] + shared, QA);
                assert_eq!(q.input_weights[input * h + j], expected, "input {input}, neuron {j}");
            }
        }
    }

    #[test]
    fn king_free_columns_are_folded_into_the_same_input_of_every_king_bucket() {
        let layout = vd_layout().with_king_buckets(4);
        let per_bucket = layout.bucket_inputs();
        let config = TrainConfig { hidden: 4, seed: 5, ..TrainConfig::default() };
        let mut net = FloatNetwork::random(layout, &config);
        let o = net.offsets();
        assert_eq!(net.king_free, per_bucket);
        let squares = net.layout.geometry.squares();
        let h = net.hidden;
        for (k, w) in net.params[o.factors..o.b1].iter_mut().enumerate() {
            *w = 0.001 * (k % 11) as f32;
        }
        let q = net.quantised();
        for input in 0..net.layout.input_count() {
            let base = input % per_bucket;
            for j in 0..h {
                let factor =
                    if base < net.factors * squares { net.params[o.factors + (base / squares) * h + j] } else { 0.0 };
                let king_free = net.params[o.king_free + base * h + j];
                let expected = quantise(net.params[input * h + j] + factor + king_free, QA);
                assert_eq!(q.input_weights[input * h + j], expected, "input {input}, neuron {j}");
            }
        }
    }
}
