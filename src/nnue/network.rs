//! The quantised network and its accumulators: (inputs -> N) for each perspective, the two
//! halves (the side to move's first) through a squared clipped ReLU into one output, taken
//! from one of a few output layers (buckets) chosen by the number of pieces on the board.
//!
//! An accumulator holds the first layer's sums for both perspectives. It is built from scratch
//! (`refresh`) or, from a parent position's, by adding and subtracting the columns of the inputs
//! a move turned on and off (`update`): those are found by comparing the two positions' piece
//! sets and hands, so that every kind of move (castling, en passant, promotion, drops) is
//! handled alike without the move generator telling the network what it did. Where the layout
//! has king buckets, a perspective whose king moved to another bucket is built from scratch.
//!
//! Owns: `Network`, `Accumulator`, the quantisation constants, the output arithmetic.
//! Must not know: the search, the file format, protocols.

use super::layout::{FeatureMap, InputLayout, KingFrame};
use crate::bitboard::BitSet;
use crate::geometry::Color;
use crate::position::Position;

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
    pub input_weights: Vec<i16>,
    pub input_bias: Vec<i16>,
    /// Output layers, one per bucket (`output_bucket`).
    pub buckets: usize,
    /// Bucket by bucket: the side to move's half, then the other side's.
    pub output_weights: Vec<i16>,
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

/// The first layer's sums of one position, for each perspective (by colour index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub values: [Vec<i16>; 2],
}

impl Accumulator {
    /// An accumulator for a network with `hidden` neurons (its values are set by `refresh`).
    pub fn new(hidden: usize) -> Accumulator {
        Accumulator { values: [vec![0; hidden], vec![0; hidden]] }
    }
}

#[inline]
fn add_column(values: &mut [i16], column: &[i16]) {
    for (v, w) in values.iter_mut().zip(column) {
        *v = v.wrapping_add(*w);
    }
}

#[inline]
fn sub_column(values: &mut [i16], column: &[i16]) {
    for (v, w) in values.iter_mut().zip(column) {
        *v = v.wrapping_sub(*w);
    }
}

impl Network {
    /// A network of zero weights (the output is the bias alone) for `layout`, with at least
    /// one output bucket.
    pub fn zeroed(layout: InputLayout, hidden: usize, buckets: usize) -> Network {
        let inputs = layout.input_count();
        let buckets = buckets.max(1);
        Network {
            layout,
            hidden,
            input_weights: vec![0; inputs * hidden],
            input_bias: vec![0; hidden],
            buckets,
            output_weights: vec![0; buckets * 2 * hidden],
            output_bias: vec![0; buckets],
            correction: None,
        }
    }

    #[inline]
    fn column(&self, input: usize) -> &[i16] {
        &self.input_weights[input * self.hidden..(input + 1) * self.hidden]
    }

    /// The frame of `perspective`'s inputs in `pos` (its king's bucket).
    #[inline]
    fn frame<B: BitSet>(map: &FeatureMap, pos: &Position<B>, perspective: Color) -> KingFrame {
        map.frame(perspective, pos.king(perspective))
    }

    /// The inputs that are on in `pos` for `perspective`, in no particular order.
    pub fn active_inputs<B: BitSet>(map: &FeatureMap, pos: &Position<B>, perspective: Color, out: &mut Vec<usize>) {
        out.clear();
        let frame = Self::frame(map, pos, perspective);
        let kinds = pos.rules().variant.pieces.len();
        for color in [Color::White, Color::Black] {
            for kind in 0..kinds {
                for sq in pos.pieces(color, kind).squares() {
                    out.push(map.board_input(frame, perspective, color, kind, sq));
                }
                let count = pos.hand_count(color, kind);
                if count > 0 {
                    out.extend(map.hand_inputs(frame, perspective, color, kind, count));
                }
            }
        }
    }

    /// `perspective`'s half of an accumulator, from scratch for `pos`.
    fn refresh_perspective<B: BitSet>(
        &self,
        map: &FeatureMap,
        pos: &Position<B>,
        perspective: Color,
        values: &mut [i16],
    ) {
        let frame = Self::frame(map, pos, perspective);
        values.copy_from_slice(&self.input_bias);
        let kinds = pos.rules().variant.pieces.len();
        for color in [Color::White, Color::Black] {
            for kind in 0..kinds {
                for sq in pos.pieces(color, kind).squares() {
                    add_column(values, self.column(map.board_input(frame, perspective, color, kind, sq)));
                }
                for input in map.hand_inputs(frame, perspective, color, kind, pos.hand_count(color, kind)) {
                    add_column(values, self.column(input));
                }
            }
        }
    }

    /// `acc` from scratch for `pos`.
    pub fn refresh<B: BitSet>(&self, map: &FeatureMap, pos: &Position<B>, acc: &mut Accumulator) {
        for perspective in [Color::White, Color::Black] {
            self.refresh_perspective(map, pos, perspective, &mut acc.values[perspective.index()]);
        }
    }

    /// `acc` for `child` from `from`, the accumulator of `parent`, by the inputs that differ
    /// between the two positions; a perspective whose king changed bucket is refreshed, since
    /// all its inputs moved.
    pub fn update<B: BitSet>(
        &self,
        map: &FeatureMap,
        parent: &Position<B>,
        child: &Position<B>,
        from: &Accumulator,
        acc: &mut Accumulator,
    ) {
        let kinds = child.rules().variant.pieces.len();
        for perspective in [Color::White, Color::Black] {
            let values = &mut acc.values[perspective.index()];
            let frame = Self::frame(map, child, perspective);
            if frame != Self::frame(map, parent, perspective) {
                self.refresh_perspective(map, child, perspective, values);
                continue;
            }
            values.copy_from_slice(&from.values[perspective.index()]);
            for color in [Color::White, Color::Black] {
                for kind in 0..kinds {
                    let before = parent.pieces(color, kind);
                    let after = child.pieces(color, kind);
                    if before != after {
                        for sq in (before & !after).squares() {
                            sub_column(values, self.column(map.board_input(frame, perspective, color, kind, sq)));
                        }
                        for sq in (after & !before).squares() {
                            add_column(values, self.column(map.board_input(frame, perspective, color, kind, sq)));
                        }
                    }
                    let (had, has) = (parent.hand_count(color, kind), child.hand_count(color, kind));
                    if had != has {
                        let (old, new) = (
                            map.hand_inputs(frame, perspective, color, kind, had),
                            map.hand_inputs(frame, perspective, color, kind, has),
                        );
                        for input in new.end..old.end {
                            sub_column(values, self.column(input));
                        }
                        for input in old.end..new.end {
                            add_column(values, self.column(input));
                        }
                    }
                }
            }
        }
    }

    /// The output of `pos`, accumulated in `acc`, in centipawns for the side to move: the
    /// evaluation, or for a `correction` network what to add to the hand-written one.
    pub fn output<B: BitSet>(&self, acc: &Accumulator, pos: &Position<B>) -> i32 {
        let side_to_move = pos.side_to_move();
        let bucket = output_bucket(&self.layout, self.buckets, pos.occupied().count() as usize);
        let us = &acc.values[side_to_move.index()];
        let them = &acc.values[side_to_move.flip().index()];
        let weights = &self.output_weights[bucket * 2 * self.hidden..(bucket + 1) * 2 * self.hidden];
        let (w_us, w_them) = weights.split_at(self.hidden);
        // v * w fits an i32 (255 * 32767); times v again it may not, so the sum is wide.
        let half = |values: &[i16], weights: &[i16]| -> i64 {
            values
                .iter()
                .zip(weights)
                .map(|(&v, &w)| {
                    let v = i32::from(v).clamp(0, QA);
                    i64::from(v * i32::from(w)) * i64::from(v)
                })
                .sum()
        };
        let sum = half(us, w_us) + half(them, w_them);
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

    /// The output for `pos` from scratch, in centipawns for the side to move.
    pub fn evaluate<B: BitSet>(&self, map: &FeatureMap, pos: &Position<B>) -> i32 {
        let mut acc = Accumulator::new(self.hidden);
        self.refresh(map, pos, &mut acc);
        self.output(&acc, pos)
    }
}
