//! The accumulators of the line a search is on: one per ply and perspective, in one aligned
//! block made when the search starts, each built from its parent's by the inputs the move
//! turned on and off.
//!
//! `push` records what a move changed (found by comparing the two positions' piece sets and
//! hands, so that castling, en passant, promotions and drops are handled alike without the
//! move generator telling the network what it did) and applies it; `output` runs the output
//! layer. A perspective whose king changed bucket, or whose inputs changed more than a move
//! can change, is rebuilt from its position instead. The update is made when the move is,
//! not put off until the position is evaluated: many positions never are (a table cutoff, a
//! cached evaluation), but putting it off measured 4-8% slower at every width, because the
//! update's work is what hides the latency of the table entry the search prefetched just
//! before (docs/history/network.md). A ply whose parent is not current (a root never set) is
//! brought up to date from its nearest current ancestor, or built from its position.
//!
//! Owns: `AccumulatorStack`, the choice of width and instruction set for a search.
//! Must not know: the search, protocols, files.

use super::aligned::AlignedI16s;
use super::layout::{FeatureMap, KingFrame};
use super::network::{Network, WIDTHS};
use super::simd::{self, Level};
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::position::Position;
use std::fmt;

/// Runs `$body` with `$n` the constant equal to `$hidden`, one of `WIDTHS` (the list below
/// must be `WIDTHS`: the stack's test runs every width of it).
macro_rules! with_width {
    ($hidden:expr, $n:ident => $body:expr) => {
        with_width!(@arms $hidden, $n, $body, 32, 64, 128, 256, 512, 768, 1024)
    };
    (@arms $hidden:expr, $n:ident, $body:expr, $($width:literal),*) => {
        match $hidden {
            $($width => {
                const $n: usize = $width;
                $body
            })*
            other => unreachable!("width {other} is refused when a stack is made"),
        }
    };
}

/// The most inputs a move turns on, or off, for one perspective before it is cheaper (and
/// simpler) to rebuild: castling turns two on and two off, a capturing drop fewer.
const MAX_CHANGES: usize = 8;

/// The inputs a move turned on and off for one perspective.
#[derive(Clone, Copy, Debug, Default)]
struct Changes {
    on: [u32; MAX_CHANGES],
    off: [u32; MAX_CHANGES],
    ons: u8,
    offs: u8,
}

impl Changes {
    /// Record one input; false when there is no room left.
    #[inline]
    fn record(&mut self, input: usize, on: bool) -> bool {
        let (list, count) = if on { (&mut self.on, &mut self.ons) } else { (&mut self.off, &mut self.offs) };
        if usize::from(*count) == MAX_CHANGES {
            return false;
        }
        list[usize::from(*count)] = input as u32;
        *count += 1;
        true
    }
}

/// What one ply knows of its accumulators, by perspective.
#[derive(Clone, Copy, Debug, Default)]
struct Ply {
    /// The accumulator holds the ply's position's sums.
    current: [bool; 2],
    /// It cannot be made from the parent's: build it from the position.
    rebuild: [bool; 2],
    changes: [Changes; 2],
}

/// A network whose width the engine has no inference for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedWidth(pub usize);

impl fmt::Display for UnsupportedWidth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a network {} wide; this engine runs widths {WIDTHS:?}", self.0)
    }
}

impl std::error::Error for UnsupportedWidth {}

/// The accumulators of a search line, ply 0 the root.
pub struct AccumulatorStack {
    hidden: usize,
    level: Level,
    /// Ply p, perspective c: `values[(2 * p + c) * hidden..][..hidden]`.
    values: AlignedI16s,
    plies: Vec<Ply>,
    /// Active inputs, while a perspective is rebuilt.
    scratch: Vec<u32>,
}

impl AccumulatorStack {
    /// Accumulators for `plies` plies of a line searched with `net`, at the instruction set
    /// that measured fastest for its width on this CPU.
    pub fn new(net: &Network, plies: usize) -> Result<AccumulatorStack, UnsupportedWidth> {
        Self::with_level(net, plies, Level::preferred(net.hidden))
    }

    /// As `new`, at `level` (one of `Level::available()`).
    pub fn with_level(net: &Network, plies: usize, level: Level) -> Result<AccumulatorStack, UnsupportedWidth> {
        if !WIDTHS.contains(&net.hidden) {
            return Err(UnsupportedWidth(net.hidden));
        }
        let plies = plies.max(1);
        Ok(AccumulatorStack {
            hidden: net.hidden,
            level,
            values: AlignedI16s::zeroed(plies * 2 * net.hidden),
            plies: vec![Ply::default(); plies],
            scratch: Vec::with_capacity(128),
        })
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// Ply 0 holds `root` (built now; the root is evaluated anyway).
    pub fn set_root<B: BitSet>(&mut self, net: &Network, map: &FeatureMap, root: &Position<B>) {
        for perspective in [Color::White, Color::Black] {
            self.rebuild(net, map, root, 0, perspective);
        }
    }

    /// Ply `ply` holds `child`, reached by a move from `parent` at `ply - 1`. Plies beyond the
    /// stack are evaluated from scratch.
    pub fn push<B: BitSet>(
        &mut self,
        net: &Network,
        map: &FeatureMap,
        parent: &Position<B>,
        child: &Position<B>,
        ply: usize,
    ) {
        if ply == 0 || ply >= self.plies.len() {
            return;
        }
        let frames: [KingFrame; 2] =
            [Network::frame(map, child, Color::White), Network::frame(map, child, Color::Black)];
        let state = &mut self.plies[ply];
        state.current = [false; 2];
        state.changes = [Changes::default(); 2];
        for perspective in [Color::White, Color::Black] {
            let p = perspective.index();
            state.rebuild[p] = frames[p] != Network::frame(map, parent, perspective);
        }
        let kinds = child.rules().variant.pieces.len();
        for color in [Color::White, Color::Black] {
            for kind in 0..kinds {
                let (before, after) = (parent.pieces(color, kind), child.pieces(color, kind));
                let (had, has) = (parent.hand_count(color, kind), child.hand_count(color, kind));
                if before == after && had == has {
                    continue;
                }
                for perspective in [Color::White, Color::Black] {
                    let p = perspective.index();
                    if state.rebuild[p] {
                        continue;
                    }
                    let frame = frames[p];
                    let changes = &mut state.changes[p];
                    let mut fits = true;
                    for sq in (before & !after).squares() {
                        fits &= changes.record(map.board_input(frame, perspective, color, kind, sq), false);
                    }
                    for sq in (after & !before).squares() {
                        fits &= changes.record(map.board_input(frame, perspective, color, kind, sq), true);
                    }
                    if had != has {
                        let old = map.hand_inputs(frame, perspective, color, kind, had);
                        let new = map.hand_inputs(frame, perspective, color, kind, has);
                        for input in new.end..old.end {
                            fits &= changes.record(input, false);
                        }
                        for input in old.end..new.end {
                            fits &= changes.record(input, true);
                        }
                    }
                    if !fits {
                        state.rebuild[p] = true;
                    }
                }
            }
        }
        for perspective in [Color::White, Color::Black] {
            self.bring_up_to_date(net, map, child, ply, perspective);
        }
    }

    /// The network's output for `pos`, the position at `ply`, in centipawns for the side to
    /// move (as `Network::evaluate` gives it).
    pub fn output<B: BitSet>(&mut self, net: &Network, map: &FeatureMap, pos: &Position<B>, ply: usize) -> i32 {
        debug_assert_eq!(net.hidden, self.hidden, "the stack was made for another network");
        if ply >= self.plies.len() {
            return net.evaluate(map, pos);
        }
        for perspective in [Color::White, Color::Black] {
            self.bring_up_to_date(net, map, pos, ply, perspective);
        }
        let bucket = net.bucket_of(pos);
        let (w_us, w_them) = net.output_halves(bucket);
        let us = self.slot(ply, pos.side_to_move());
        let them = self.slot(ply, pos.side_to_move().flip());
        let h = self.hidden;
        let (values, level) = (&self.values, self.level);
        let sum = with_width!(h, N => {
            simd::screlu_dot::<N>(level, &values[us..us + h], w_us)
                + simd::screlu_dot::<N>(level, &values[them..them + h], w_them)
        });
        let output = net.output_from_sum(bucket, sum);
        // The invariant of the whole stack, checked from scratch in debug builds.
        debug_assert_eq!(output, net.evaluate(map, pos), "accumulators drifted from the position");
        output
    }

    /// Where ply `ply`'s accumulator of `perspective` starts in `values`.
    #[inline]
    fn slot(&self, ply: usize, perspective: Color) -> usize {
        (2 * ply + perspective.index()) * self.hidden
    }

    /// Make ply `ply`'s accumulator of `perspective` hold `pos`'s sums: from the nearest
    /// ancestor that is current, through the changes of each ply since, or from `pos` itself
    /// when a ply on the way must be rebuilt (its position is gone; `pos` is at hand).
    fn bring_up_to_date<B: BitSet>(
        &mut self,
        net: &Network,
        map: &FeatureMap,
        pos: &Position<B>,
        ply: usize,
        perspective: Color,
    ) {
        let p = perspective.index();
        let mut from = ply;
        while !self.plies[from].current[p] && !self.plies[from].rebuild[p] && from > 0 {
            from -= 1;
        }
        if !self.plies[from].current[p] {
            // A ply on the way cannot be made from its parent, or ply 0 was never set.
            self.rebuild(net, map, pos, ply, perspective);
            return;
        }
        let h = self.hidden;
        for next in from + 1..=ply {
            let (src, dst) = (self.slot(next - 1, perspective), self.slot(next, perspective));
            let changes = self.plies[next].changes[p];
            let (before, after) = self.values.split_at_mut(dst);
            let (on, off) = (&changes.on[..usize::from(changes.ons)], &changes.off[..usize::from(changes.offs)]);
            with_width!(h, N => simd::accumulate::<N>(
                self.level,
                &mut after[..h],
                &before[src..src + h],
                &net.input_weights,
                on,
                off,
            ));
            self.plies[next].current[p] = true;
        }
    }

    /// Build ply `ply`'s accumulator of `perspective` from `pos`.
    fn rebuild<B: BitSet>(
        &mut self,
        net: &Network,
        map: &FeatureMap,
        pos: &Position<B>,
        ply: usize,
        perspective: Color,
    ) {
        Network::active_inputs(map, pos, perspective, &mut self.scratch);
        let (h, at) = (self.hidden, self.slot(ply, perspective));
        with_width!(h, N => simd::accumulate::<N>(
            self.level,
            &mut self.values[at..at + h],
            &net.input_bias,
            &net.input_weights,
            &self.scratch,
            &[],
        ));
        let state = &mut self.plies[ply];
        state.current[perspective.index()] = true;
        state.rebuild[perspective.index()] = false;
    }
}
