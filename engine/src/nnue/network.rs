//! The quantised network: (inputs -> N) for each perspective, the two halves (the side to
//! move's first) through a squared clipped ReLU into one output, taken from one of a few output
//! layers (buckets) chosen by the number of pieces on the board; and its evaluation of a
//! position from scratch, in plain scalar arithmetic, the reference for the search's
//! incremental and vectorised accumulators (`stack`, `simd`).
//!
//! Owns: `Network`, `WIDTHS`, the quantisation constants, the output arithmetic.
//! Must not know: the search, the file format, protocols.

use super::aligned::AlignedI16s;
use super::layout::{FeatureMap, InputLayout, KingFrame};
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::position::Position;

/// The first layer's scale: a float weight w is stored as round(w * QA), and the activation
/// clips at QA (1.0).
pub const QA: i32 = 255;
/// The output layer's scale: fine enough that rounding the output weights moves no evaluation
/// by more than a centipawn or two (at 64, the same rounding in every position shifted a small
/// network's evaluations by 15 cp), coarse enough that a weight of `WEIGHT_CLIP` fits an i16.
pub const QB: i32 = 1024;
/// Centipawns per unit of the float network's output.
pub const SCALE: i32 = 400;
/// What a correction network with `limit` adds for an output of `output` centipawns: the
/// output bent smoothly into `limit` centipawns either way (`limit * tanh(output / limit)`).
#[inline]
pub fn bounded_correction(output: f32, limit: u16) -> f32 {
    let limit = f32::from(limit.max(1));
    limit * (output / limit).tanh()
}

/// The output bucket of a position with `pieces` on the board, out of `buckets`: the
/// material stage, in equal steps from the bare kings to a full board (two ranks of pieces a
/// side, which a shuffled array may exceed: those share the last bucket). An endgame is judged
/// by other weights than an opening, at no cost to the accumulators.
#[inline]
pub fn output_bucket(layout: &InputLayout, buckets: usize, pieces: usize) -> usize {
    let full = 4 * usize::from(layout.geometry.files);
    (pieces.saturating_sub(1) * buckets / full.max(1)).min(buckets.max(1) - 1)
}

/// A network, quantised for inference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub layout: InputLayout,
    pub hidden: usize,
    /// The column of each input: `input_weights[input * hidden + j]`.
    pub input_weights: AlignedI16s,
    pub input_bias: AlignedI16s,
    /// Output layers, one per bucket (`output_bucket`).
    pub buckets: usize,
    /// Bucket by bucket: the side to move's half, then the other side's.
    pub output_weights: AlignedI16s,
    /// One per bucket.
    pub output_bias: Vec<i32>,
    /// `Some(limit)`: the output is a correction added to the hand-written evaluation, not an
    /// evaluation of its own, bent into `limit` centipawns either way (`bounded_correction`).
    /// Such a network starts from the hand-written judgment and needs far fewer positions to
    /// improve on it; the bound matters because, trained on quiet positions from games, a
    /// network's judgment of the lopsided positions a search visits is unreliable (unbounded,
    /// one moved the hand-written evaluation of random positions by 1.2 pawns on average).
    pub correction: Option<u16>,
}

/// The network widths the engine runs: each is a width the inference loops are compiled for
/// (`simd`), a multiple of 32 so that a column fills whole AVX-512 registers.
pub const WIDTHS: [usize; 7] = [32, 64, 128, 256, 512, 768, 1024];

impl Network {
    /// A network of zero weights (the output is the bias alone) for `layout`, with at least
    /// one output bucket.
    pub fn zeroed(layout: InputLayout, hidden: usize, buckets: usize) -> Network {
        let inputs = layout.input_count();
        let buckets = buckets.max(1);
        Network {
            layout,
            hidden,
            input_weights: AlignedI16s::zeroed(inputs * hidden),
            input_bias: AlignedI16s::zeroed(hidden),
            buckets,
            output_weights: AlignedI16s::zeroed(buckets * 2 * hidden),
            output_bias: vec![0; buckets],
            correction: None,
        }
    }

    /// The column of `input`: its weight to each neuron.
    #[inline]
    pub fn column(&self, input: usize) -> &[i16] {
        &self.input_weights[input * self.hidden..(input + 1) * self.hidden]
    }

    /// The frame of `perspective`'s inputs in `pos` (its king's bucket).
    #[inline]
    pub fn frame<B: BitSet>(map: &FeatureMap, pos: &Position<B>, perspective: Color) -> KingFrame {
        map.frame(perspective, pos.king(perspective))
    }

    /// The inputs that are on in `pos` for `perspective`, in no particular order.
    pub fn active_inputs<B: BitSet>(map: &FeatureMap, pos: &Position<B>, perspective: Color, out: &mut Vec<u32>) {
        out.clear();
        let frame = Self::frame(map, pos, perspective);
        let kinds = pos.rules().variant.pieces.len();
        for color in [Color::White, Color::Black] {
            for kind in 0..kinds {
                for sq in pos.pieces(color, kind).squares() {
                    out.push(map.board_input(frame, perspective, color, kind, sq) as u32);
                }
                let count = pos.hand_count(color, kind);
                if count > 0 {
                    out.extend(map.hand_inputs(frame, perspective, color, kind, count).map(|i| i as u32));
                }
            }
        }
    }

    /// The output bucket of `pos`.
    #[inline]
    pub fn bucket_of<B: BitSet>(&self, pos: &Position<B>) -> usize {
        output_bucket(&self.layout, self.buckets, pos.occupied().count() as usize)
    }

    /// The output weights of `bucket` for the side to move's half and the other side's.
    #[inline]
    pub fn output_halves(&self, bucket: usize) -> (&[i16], &[i16]) {
        self.output_weights[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden].split_at(self.hidden)
    }

    /// The output in centipawns for the side to move, from `sum`, the two halves'
    /// `Σ clamp(v, 0, QA)² * w`: the evaluation, or for a `correction` network what to add to
    /// the hand-written one.
    #[inline]
    pub fn output_from_sum(&self, bucket: usize, sum: i64) -> i32 {
        let raw = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        let centipawns = (raw * i64::from(SCALE) / i64::from(QA * QB)) as i32;
        match self.correction {
            Some(limit) => bounded_correction(centipawns as f32, limit).round() as i32,
            None => centipawns,
        }
    }

    /// The evaluation this network gives a position whose output is `output`: the output, or
    /// for a correction network the output added to `hand_written()` (the hand-written
    /// evaluation, which only a correction network needs).
    #[inline]
    pub fn evaluation(&self, output: i32, hand_written: impl FnOnce() -> i32) -> i32 {
        match self.correction {
            Some(_) => output + hand_written(),
            None => output,
        }
    }

    /// The output for `pos` from scratch, in centipawns for the side to move, by the plainest
    /// arithmetic: the reference that the search's accumulators (`AccumulatorStack`, at every
    /// instruction set) must equal.
    pub fn evaluate<B: BitSet>(&self, map: &FeatureMap, pos: &Position<B>) -> i32 {
        let mut inputs = Vec::new();
        let mut sum = 0i64;
        let bucket = self.bucket_of(pos);
        let (w_us, w_them) = self.output_halves(bucket);
        for (perspective, weights) in [(pos.side_to_move(), w_us), (pos.side_to_move().flip(), w_them)] {
            let mut values = self.input_bias.to_vec();
            Self::active_inputs(map, pos, perspective, &mut inputs);
            for &input in &inputs {
                for (v, w) in values.iter_mut().zip(self.column(input as usize)) {
                    *v = v.wrapping_add(*w);
                }
            }
            // v * w fits an i32 (255 * 32767); times v again it may not, so the sum is wide.
            sum += values
                .iter()
                .zip(weights)
                .map(|(&v, &w)| {
                    let v = i32::from(v).clamp(0, QA);
                    i64::from(v * i32::from(w)) * i64::from(v)
                })
                .sum::<i64>();
        }
        self.output_from_sum(bucket, sum)
    }
}
