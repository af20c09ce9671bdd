//! Static evaluation driven only by the variant data: material (the variant's piece values, or
//! values derived from each piece's mobility on an empty board), pieces in hand worth a little more
//! than on the board, piece-square terms derived from geometry (centralisation for leapers and
//! steppers, less for riders, advancement for pawns, a sheltered royal piece in the middlegame),
//! mobility (on squares enemy pawns do not attack), pawn structure (passed pawns, with the
//! distances of both royal pieces to the square in front of them; connected, doubled and isolated
//! pawns), king safety (attacks on the squares around the royal piece, the pawn shield in front of
//! it, files without own pawns at it), a colour-bound kind on both colours (the bishop pair),
//! threats (pieces attacked by pawns, by lesser pieces, attacked and not defended), rook-like
//! pieces on open and half-open files and a tempo bonus, tapered between middlegame and endgame by
//! the material left; an endgame where the stronger side has no pawns and a small lead is scaled
//! down.
//!
//! The search reaches the evaluation through `Evaluation`, one per compiled variant, built on
//! first use and kept for the life of the process like the rules themselves. It takes the
//! position only: the search is copy-make (every child is a copy of its parent with a move
//! played), so state that a learned evaluation keeps per ply can travel with the position
//! copies, or be found again by a per-thread cache compared with the board; no make/unmake
//! hooks are needed. The hand-written `Evaluator` stays inside it whatever else is added: it
//! gives the piece values of exchanges and move ordering.
//!
//! Owns: `Evaluation` (what the search calls), `Evaluator` (the hand-written evaluation),
//! `evaluate`; its weights are `EvalParams` (params.rs).
//! Must not know: search, notation, protocols, variant names.

use crate::bitboard::BitSet;
use crate::geometry::{Color, Geometry, Square};
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::{PieceKind, MAX_KINDS};
use once_cell::sync::Lazy;
use std::any::Any;
use std::collections::HashMap;
use std::sync::Mutex;

mod params;
pub use params::EvalParams;

/// The value a knight-like piece gets when values are derived from mobility.
const KNIGHT_VALUE: f64 = 300.0;
/// Value of a pawn type without a value in the variant file.
const DEFAULT_PAWN_VALUE: i32 = 100;
/// Mobility bonus per reachable square of any mobile piece, at least.
const MOBILITY_MIN: i32 = 1;

/// The evaluation the search uses for one compiled variant.
pub struct Evaluation<B: BitSet> {
    hand_written: Evaluator<B>,
}

impl<B: BitSet> Evaluation<B> {
    /// The evaluation of a compiled variant, built on first use.
    pub fn of(rules: &'static Rules<B>) -> &'static Evaluation<B> {
        type Cache = HashMap<usize, &'static (dyn Any + Send + Sync)>;
        static CACHE: Lazy<Mutex<Cache>> = Lazy::new(|| Mutex::new(HashMap::new()));
        let key = rules as *const Rules<B> as usize;
        let mut cache = match CACHE.lock() {
            Ok(c) => c,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(e) = cache.get(&key).and_then(|a| a.downcast_ref::<Evaluation<B>>()) {
            return e;
        }
        let e: &'static Evaluation<B> = Box::leak(Box::new(Evaluation { hand_written: Evaluator::new(rules) }));
        cache.insert(key, e);
        e
    }

    /// The score of `pos` in centipawns, from the side to move's point of view.
    #[inline]
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        self.hand_written.evaluate(pos)
    }

    /// The hand-written evaluation.
    pub fn hand_written(&self) -> &Evaluator<B> {
        &self.hand_written
    }

    /// Material value of a piece kind on the board (0 for the royal piece).
    #[inline]
    pub fn value(&self, kind: PieceKind) -> i32 {
        self.hand_written.value(kind)
    }

    /// Material value of a piece kind in hand.
    #[inline]
    pub fn hand_value(&self, kind: PieceKind) -> i32 {
        self.hand_written.hand_value(kind)
    }

    /// Value for ordering captures (the royal piece highest).
    #[inline]
    pub fn order_value(&self, kind: PieceKind) -> i32 {
        self.hand_written.order_value(kind)
    }
}

/// The evaluation tables of one compiled variant.
pub struct Evaluator<B: BitSet> {
    rules: &'static Rules<B>,
    /// Material on the board (0 for royal pieces, which are never captured): the variant's
    /// values (for search and the game phase), and those scaled by the material weights for the
    /// middlegame and the endgame.
    value: [i32; MAX_KINDS],
    value_mg: [i32; MAX_KINDS],
    value_eg: [i32; MAX_KINDS],
    /// Material in hand.
    hand_value: [i32; MAX_KINDS],
    /// Value for move ordering: like `value`, with royal pieces the most valuable.
    order_value: [i32; MAX_KINDS],
    /// `pst[(kind * 2 + color) * squares + sq]`, middlegame and endgame.
    pst_mg: Vec<i16>,
    pst_eg: Vec<i16>,
    /// Kinds whose mobility counts (not pawns, not royal).
    mobile: u32,
    /// Centipawns per reachable square, by kind.
    mobility: [i32; MAX_KINDS],
    /// Kinds counted as non-pawn material for the game phase.
    phase_kinds: u32,
    /// The kinds that can be threatened by a lesser piece (neither pawns nor royal), most
    /// valuable first.
    by_value: Vec<PieceKind>,
    /// Kinds confined to the squares of one colour (bishop-like), and those squares' masks.
    colour_bound: u32,
    light_squares: B,
    /// Bonus for having a colour-bound kind on both colours (the bishop pair).
    pair: (i32, i32),
    /// Kinds that are pawns.
    pawn_kinds: u32,
    /// Kinds that ride files without limit (rook-like), royal ones excepted.
    file_riders: u32,
    /// King-danger units per attacked square next to the enemy royal piece, by kind.
    attack_units: [i32; MAX_KINDS],
    /// Squares next to each square (and the square itself).
    zone: Vec<B>,
    /// Squares of a file, by file.
    file_mask: Vec<B>,
    /// Squares of the neighbouring files, by file.
    neighbour_files: Vec<B>,
    /// `front_span[color * squares + sq]`: squares ahead of `sq` for `color` on its file and the
    /// neighbouring files (a pawn with no enemy pawn there is passed).
    front_span: Vec<B>,
    /// `shield[color * squares + sq]`: the squares just in front of a royal piece on `sq`.
    shield: Vec<B>,
    /// `beside[sq]`: the squares next to `sq` on its rank.
    beside: Vec<B>,
    /// Connected-pawn bonus by `color * squares + sq`, middlegame and endgame.
    connected: Vec<(i16, i16)>,
    royal_open_file_mg: i32,
    /// Passed-pawn bonus by `color * squares + sq`, middlegame and endgame.
    passed_mg: Vec<i16>,
    passed_eg: Vec<i16>,
    /// By `color * squares + sq`: the square in front of a pawn on `sq`, and the endgame weight
    /// per square of distance of the enemy and the own royal piece from it.
    stop_square: Vec<Option<Square>>,
    passer_king: Vec<(i16, i16)>,
    /// `passer_blocked` in 1/256.
    passer_blocked: i32,
    /// Whole-centipawn terms (see `EvalParams`), middlegame and endgame.
    doubled: (i32, i32),
    isolated: (i32, i32),
    shield_mg: i32,
    king_danger_scale: i32,
    king_danger_max: i32,
    tempo: i32,
    threat_by_pawn: (i32, i32),
    threat_by_lesser: (i32, i32),
    hanging: (i32, i32),
    drawish_lead: i32,
    /// `drawish_scale` in 1/64.
    drawish_scale: i32,
    half_open_file: (i32, i32),
    open_file: (i32, i32),
    midgame_material: i32,
    endgame_material: i32,
}

/// Squares a piece of `kind` (White's tables) reaches from `sq` on an empty board, moving or
/// capturing.
fn empty_board_reach<B: BitSet>(rules: &Rules<B>, kind: PieceKind, color: Color, sq: Square) -> B {
    let t = rules.kind_tables(kind, color);
    (rules.reach(&t.quiet, sq, B::EMPTY) | rules.reach(&t.capture, sq, B::EMPTY)) & rules.board
}

/// Average number of knight moves over the squares of a board: the yardstick for derived values.
fn knight_average(g: Geometry) -> f64 {
    const JUMPS: [(i32, i32); 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
    let total: usize =
        g.all_squares().map(|sq| JUMPS.iter().filter(|&&(dx, dy)| g.offset(sq, dx, dy).is_some()).count()).sum();
    (total as f64 / g.squares().max(1) as f64).max(1.0)
}

impl<B: BitSet> Evaluator<B> {
    /// Build the tables of a compiled variant with the default weights.
    pub fn new(rules: &'static Rules<B>) -> Evaluator<B> {
        Evaluator::with_params(rules, &EvalParams::DEFAULT)
    }

    /// Build the tables of a compiled variant with the weights `w`.
    pub fn with_params(rules: &'static Rules<B>, w: &EvalParams) -> Evaluator<B> {
        let whole = |x: f64| x.round() as i32;
        let g = rules.geometry;
        let squares = rules.squares;
        let knight = knight_average(g);
        let mut value = [0; MAX_KINDS];
        let mut value_mg = [0; MAX_KINDS];
        let mut value_eg = [0; MAX_KINDS];
        let mut hand_value = [0; MAX_KINDS];
        let mut order_value = [0; MAX_KINDS];
        let mut pst_mg = vec![0i16; rules.kinds * 2 * squares];
        let mut pst_eg = vec![0i16; rules.kinds * 2 * squares];
        let mut mobile = 0u32;
        let mut mobility = [0; MAX_KINDS];
        let mut phase_kinds = 0u32;
        let mut colour_bound = 0u32;
        let light_squares =
            g.all_squares().filter(|&sq| (g.file(sq) + g.rank(sq)) % 2 != 0).fold(B::EMPTY, |m, sq| m | B::square(sq));
        let files = g.files as f64;
        let last_rank = g.ranks as i32 - 1;

        for k in 0..rules.kinds {
            let def = &rules.variant.pieces[k];
            let pawn = rules.is_pawn(k);
            let royal = k == rules.royal || def.royal;
            let reach_sets: Vec<B> = g.all_squares().map(|sq| empty_board_reach(rules, k, Color::White, sq)).collect();
            let reach: Vec<u32> = reach_sets.iter().map(|r| r.count()).collect();
            let average = (reach.iter().sum::<u32>() as f64 / squares.max(1) as f64).max(0.5);
            let derived = (KNIGHT_VALUE * (average / knight).powf(0.8)).round() as i32;
            let v = match def.value {
                Some(v) => v,
                None if pawn => DEFAULT_PAWN_VALUE,
                None => derived.max(50),
            };
            value[k] = if royal { 0 } else { v };
            let (scale_mg, scale_eg) = if pawn { (1.0, w.pawn_value_eg) } else { (w.piece_value_mg, w.piece_value_eg) };
            value_mg[k] = if royal { 0 } else { whole(v as f64 * scale_mg) };
            value_eg[k] = if royal { 0 } else { whole(v as f64 * scale_eg) };
            hand_value[k] = if royal { 0 } else { v + (v as f64 * w.hand_bonus).floor() as i32 };
            order_value[k] = if royal { 20_000 } else { v };
            if !pawn && !royal {
                mobile |= 1 << k;
                phase_kinds |= 1 << k;
                // Colour-bound: from every square, it reaches only squares of that square's colour.
                let bound = g.all_squares().zip(&reach_sets).all(|(sq, &to)| {
                    let same_colour =
                        if (light_squares & B::square(sq)).is_empty() { !light_squares } else { light_squares };
                    (to & !same_colour).is_empty()
                });
                if bound {
                    colour_bound |= 1 << k;
                }
            }
            let per_square = v as f64 / average;
            let tables = rules.kind_tables(k, Color::White);
            let rides = |m: &crate::rules::Modality<B>| {
                m.rook
                    || m.bishop
                    || !(m.rides.is_empty()
                        && m.hops.is_empty()
                        && m.grasshops.is_empty()
                        && m.bents.is_empty()
                        && m.circles.is_empty())
            };
            let centralisation =
                if rides(&tables.quiet) || rides(&tables.capture) { w.rider_centralisation } else { 1.0 };
            mobility[k] =
                whole(w.mobility_share * per_square).clamp(MOBILITY_MIN, whole(w.mobility_max).max(MOBILITY_MIN));
            for color in Color::BOTH {
                for sq in g.all_squares() {
                    // Tables are White's; Black's are mirrored by rank.
                    let white_sq = g.square(g.file(sq), g.relative_rank(sq, color)).unwrap_or(sq);
                    let centre = reach[white_sq.index()] as f64 - average;
                    let rel_rank = g.relative_rank(sq, color);
                    let (mg, eg) = if pawn {
                        let span = (last_rank - 2).max(1) as f64;
                        let progress = ((rel_rank - 1).max(0) as f64 / span).min(1.0);
                        let centre_files = files / 2.0 - ((g.file(sq) as f64 + 0.5) - files / 2.0).abs();
                        (
                            w.pawn_advance_mg * (rel_rank - 1).max(0) as f64 + w.pawn_centre_mg * centre_files.max(0.0),
                            w.pawn_advance_eg * progress * progress,
                        )
                    } else if royal {
                        (-w.royal_advance_mg * rel_rank as f64 + w.royal_centre_mg * centre, w.royal_centre_eg * centre)
                    } else {
                        let weight = centralisation * per_square * centre;
                        (w.centralisation_mg * weight, w.centralisation_eg * weight)
                    };
                    let i = (k * 2 + color.index()) * squares + sq.index();
                    pst_mg[i] = mg.round().clamp(-500.0, 500.0) as i16;
                    pst_eg[i] = eg.round().clamp(-500.0, 500.0) as i16;
                }
            }
        }
        let mut by_value: Vec<PieceKind> = (0..rules.kinds).filter(|&k| phase_kinds & (1 << k) != 0).collect();
        by_value.sort_by_key(|&k| -value[k]);
        let mut pawn_kinds = 0u32;
        let mut attack_units = [0; MAX_KINDS];
        for k in 0..rules.kinds {
            if rules.is_pawn(k) {
                pawn_kinds |= 1 << k;
            } else if mobile & (1 << k) != 0 {
                attack_units[k] = (value[k] / whole(w.king_attack_value_unit).max(1)).clamp(1, 8);
            }
        }
        let file_riders = rules.rook_kinds[0].iter().filter(|&&k| k != rules.royal).fold(0u32, |m, &k| m | 1 << k);
        let mut zone = vec![B::EMPTY; squares];
        let mut file_mask = vec![B::EMPTY; g.files as usize];
        let mut front_span = vec![B::EMPTY; 2 * squares];
        let mut shield = vec![B::EMPTY; 2 * squares];
        let mut passed_mg = vec![0i16; 2 * squares];
        let mut passed_eg = vec![0i16; 2 * squares];
        let mut stop_square = vec![None; 2 * squares];
        let mut beside = vec![B::EMPTY; squares];
        let mut connected = vec![(0i16, 0i16); 2 * squares];
        let mut passer_king = vec![(0i16, 0i16); 2 * squares];
        for sq in g.all_squares() {
            file_mask[g.file(sq) as usize] |= B::square(sq);
            for dx in [-1, 1] {
                if let Some(t) = g.offset(sq, dx, 0) {
                    beside[sq.index()] |= B::square(t);
                }
            }
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(t) = g.offset(sq, dx, dy) {
                        zone[sq.index()] |= B::square(t);
                    }
                }
            }
            for color in Color::BOTH {
                let i = color.index() * squares + sq.index();
                for t in g.all_squares() {
                    let ahead = (g.relative_rank(t, color) - g.relative_rank(sq, color)) > 0;
                    if ahead && (g.file(t) - g.file(sq)).abs() <= 1 {
                        front_span[i] |= B::square(t);
                    }
                }
                for dx in -1..=1 {
                    if let Some(t) = g.offset(sq, dx, color.forward()) {
                        shield[i] |= B::square(t);
                    }
                }
                let span = (last_rank - 2).max(1) as f64;
                let progress = ((g.relative_rank(sq, color) - 1).max(0) as f64 / span).min(1.0);
                passed_mg[i] = (w.passed_mg * progress * progress).round() as i16;
                passed_eg[i] = (w.passed_eg * progress * progress).round() as i16;
                stop_square[i] = g.offset(sq, 0, color.forward());
                let growth = 1.0 + ((g.relative_rank(sq, color) - 1).max(0) as f64 / (last_rank - 1).max(1) as f64);
                connected[i] = ((w.connected_mg * growth).round() as i16, (w.connected_eg * growth).round() as i16);
                passer_king[i] = (
                    (w.passer_enemy_king_eg * progress).round() as i16,
                    (w.passer_own_king_eg * progress).round() as i16,
                );
            }
        }
        let neighbour_files = (0..g.files as usize)
            .map(|f| {
                let left = if f > 0 { file_mask[f - 1] } else { B::EMPTY };
                let right = file_mask.get(f + 1).copied().unwrap_or(B::EMPTY);
                left | right
            })
            .collect();
        Evaluator {
            rules,
            value,
            value_mg,
            value_eg,
            hand_value,
            order_value,
            pst_mg,
            pst_eg,
            mobile,
            mobility,
            phase_kinds,
            colour_bound,
            by_value,
            light_squares,
            pair: (whole(w.pair_mg), whole(w.pair_eg)),
            pawn_kinds,
            file_riders,
            attack_units,
            zone,
            file_mask,
            neighbour_files,
            front_span,
            shield,
            passed_mg,
            passed_eg,
            stop_square,
            passer_king,
            beside,
            connected,
            royal_open_file_mg: whole(w.royal_open_file_mg),
            passer_blocked: (w.passer_blocked * 256.0).round() as i32,
            doubled: (whole(w.doubled_mg), whole(w.doubled_eg)),
            isolated: (whole(w.isolated_mg), whole(w.isolated_eg)),
            shield_mg: whole(w.shield_mg),
            king_danger_scale: whole(w.king_danger_scale),
            king_danger_max: whole(w.king_danger_max),
            tempo: whole(w.tempo),
            threat_by_pawn: (whole(w.threat_by_pawn_mg), whole(w.threat_by_pawn_eg)),
            threat_by_lesser: (whole(w.threat_by_lesser_mg), whole(w.threat_by_lesser_eg)),
            drawish_lead: whole(w.drawish_lead),
            drawish_scale: (w.drawish_scale * 64.0).round().clamp(0.0, 64.0) as i32,
            hanging: (whole(w.hanging_mg), whole(w.hanging_eg)),
            half_open_file: (whole(w.half_open_file_mg), whole(w.half_open_file_eg)),
            open_file: (whole(w.open_file_mg), whole(w.open_file_eg)),
            midgame_material: whole(w.midgame_material),
            endgame_material: whole(w.endgame_material).min(whole(w.midgame_material) - 1),
        }
    }

    /// Material value of a piece kind on the board (0 for the royal piece).
    #[inline]
    pub fn value(&self, kind: PieceKind) -> i32 {
        self.value[kind]
    }

    /// Material value of a piece kind in hand.
    #[inline]
    pub fn hand_value(&self, kind: PieceKind) -> i32 {
        self.hand_value[kind]
    }

    /// Value for ordering captures (the royal piece highest).
    #[inline]
    pub fn order_value(&self, kind: PieceKind) -> i32 {
        self.order_value[kind]
    }

    /// The score of `pos` in centipawns, from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        let r = self.rules;
        let squares = r.squares;
        let occ = pos.occupied();
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut material = 0i32;
        // Pawns and their attacks first: a piece's mobility leaves out the squares enemy pawns
        // attack.
        let mut pawns = [B::EMPTY; 2];
        let mut pawn_attacked = [B::EMPTY; 2];
        for k in 0..r.kinds {
            if self.pawn_kinds & (1 << k) != 0 {
                for color in Color::BOTH {
                    let mine = pos.pieces(color, k);
                    pawns[color.index()] |= mine;
                    let t = r.kind_tables(k, color);
                    for sq in mine.squares() {
                        pawn_attacked[color.index()] |= r.reach(&t.capture, sq, occ);
                    }
                }
            }
        }
        // The squares around each royal piece, and the danger units of attacks on them.
        let zones = [Color::White, Color::Black].map(|c| pos.king(c).map_or(B::EMPTY, |k| self.zone[k.index()]));
        let mut danger = [0i32; 2];
        // By side and kind: that side's pieces worth more than the kind (to find threats by a
        // lesser piece).
        let mut worth_more = [[B::EMPTY; MAX_KINDS]; 2];
        for color in Color::BOTH {
            let mut more = B::EMPTY;
            let mut group = B::EMPTY;
            for (i, &k) in self.by_value.iter().enumerate() {
                if i > 0 && self.value[k] < self.value[self.by_value[i - 1]] {
                    more |= group;
                    group = B::EMPTY;
                }
                group |= pos.pieces(color, k);
                worth_more[color.index()][k] = more;
            }
        }
        // By side: material other than pawns (board and hand), threats by lesser pieces.
        let mut piece_material = [0i32; 2];
        let mut lesser_threats = [0i32; 2];
        // Squares each side attacks.
        let mut attacked = pawn_attacked;
        // The kind indexes the position and a dozen tables, not only `worth_more`.
        #[allow(clippy::needless_range_loop)]
        for k in 0..r.kinds {
            let all = pos.pieces_of_kind(k);
            if all.is_empty() && pos.hand_count(Color::White, k) == 0 && pos.hand_count(Color::Black, k) == 0 {
                continue;
            }
            let counts_phase = self.phase_kinds & (1 << k) != 0;
            let mobile = self.mobile & (1 << k) != 0;
            let pawn = self.pawn_kinds & (1 << k) != 0;
            let file_rider = self.file_riders & (1 << k) != 0;
            for color in Color::BOTH {
                let c = color.index();
                let mine = all & pos.pieces_of(color);
                let n = mine.count() as i32;
                mg[c] += n * self.value_mg[k];
                eg[c] += n * self.value_eg[k];
                let held = pos.hand_count(color, k) as i32;
                mg[c] += held * self.hand_value[k];
                eg[c] += held * self.hand_value[k];
                if counts_phase {
                    material += (n + held) * self.value[k];
                    piece_material[c] += (n + held) * self.value[k];
                }
                if self.colour_bound & (1 << k) != 0
                    && !(mine & self.light_squares).is_empty()
                    && !(mine & !self.light_squares).is_empty()
                {
                    mg[c] += self.pair.0;
                    eg[c] += self.pair.1;
                }
                let base = (k * 2 + c) * squares;
                let t = r.kind_tables(k, color);
                let empty = r.board & !occ;
                let theirs = pos.pieces_of(color.flip());
                for sq in mine.squares() {
                    mg[c] += self.pst_mg[base + sq.index()] as i32;
                    eg[c] += self.pst_eg[base + sq.index()] as i32;
                    if file_rider {
                        let file = self.file_mask[r.geometry.file(sq) as usize];
                        if (file & pawns[c]).is_empty() {
                            let (bmg, beg) =
                                if (file & pawns[1 - c]).is_empty() { self.open_file } else { self.half_open_file };
                            mg[c] += bmg;
                            eg[c] += beg;
                        }
                    }
                    if pawn {
                        continue;
                    }
                    let attacks = r.reach(&t.capture, sq, occ);
                    attacked[c] |= attacks;
                    if mobile {
                        lesser_threats[c] += (attacks & worth_more[1 - c][k]).count() as i32;
                        let reach = if t.symmetric {
                            attacks & (empty | theirs)
                        } else {
                            (r.reach(&t.quiet, sq, occ) & empty) | (attacks & theirs)
                        };
                        let bonus = (reach & !pawn_attacked[1 - c]).count() as i32 * self.mobility[k];
                        mg[c] += bonus;
                        eg[c] += bonus;
                        let hits = (reach & zones[1 - c]).count() as i32;
                        danger[1 - c] += hits * self.attack_units[k];
                    }
                }
            }
        }
        for color in Color::BOTH {
            let c = color.index();
            let targets = pos.pieces_of(color.flip()) & !pawns[1 - c] & !pos.pieces_of_kind(r.royal);
            let by_pawn = (targets & pawn_attacked[c]).count() as i32;
            let hanging = (targets & attacked[c] & !attacked[1 - c]).count() as i32;
            mg[c] += by_pawn * self.threat_by_pawn.0 + hanging * self.hanging.0;
            eg[c] += by_pawn * self.threat_by_pawn.1 + hanging * self.hanging.1;
            mg[c] += lesser_threats[c] * self.threat_by_lesser.0;
            eg[c] += lesser_threats[c] * self.threat_by_lesser.1;
            let kings = [pos.king(color), pos.king(color.flip())];
            let (pmg, peg) = self.pawn_structure(pawns[c], pawns[1 - c], pawn_attacked[c], color, kings, occ);
            mg[c] += pmg;
            eg[c] += peg;
            if let Some(k) = kings[0] {
                let file = r.geometry.file(k) as usize;
                let open = (file.saturating_sub(1)..=(file + 1).min(self.file_mask.len() - 1))
                    .filter(|&f| (self.file_mask[f] & pawns[c]).is_empty())
                    .count() as i32;
                mg[c] -= open * self.royal_open_file_mg;
            }
            mg[c] -= (danger[c] * danger[c] * self.king_danger_scale / 16).min(self.king_danger_max);
            if let Some(k) = kings[0] {
                if r.geometry.relative_rank(k, color) <= 1 {
                    mg[c] += self.shield_mg * (self.shield[c * squares + k.index()] & pawns[c]).count() as i32;
                }
            }
        }
        let us = pos.side_to_move().index();
        let them = 1 - us;
        let span = self.midgame_material - self.endgame_material;
        let phase = (material - self.endgame_material).clamp(0, span);
        let mg_score = mg[us] - mg[them];
        let mut eg_score = eg[us] - eg[them];
        let strong = if eg_score > 0 { us } else { them };
        if pawns[strong].is_empty() && piece_material[strong] - piece_material[1 - strong] <= self.drawish_lead {
            eg_score = eg_score * self.drawish_scale / 64;
        }
        (mg_score * phase + eg_score * (span - phase)) / span + self.tempo
    }
}

impl<B: BitSet> Evaluator<B> {
    /// Passed, connected, doubled and isolated pawns of `color`: (middlegame, endgame).
    /// `defended` are the squares its pawns attack; `kings` are the royal pieces of `color` and
    /// of its opponent.
    fn pawn_structure(
        &self,
        ours: B,
        theirs: B,
        defended: B,
        color: Color,
        kings: [Option<Square>; 2],
        occ: B,
    ) -> (i32, i32) {
        let squares = self.rules.squares;
        let (mut mg, mut eg) = (0, 0);
        for (file, &mask) in self.file_mask.iter().enumerate() {
            let on_file = (ours & mask).count() as i32;
            if on_file == 0 {
                continue;
            }
            if on_file > 1 {
                mg -= self.doubled.0 * (on_file - 1);
                eg -= self.doubled.1 * (on_file - 1);
            }
            if (ours & self.neighbour_files[file]).is_empty() {
                mg -= self.isolated.0 * on_file;
                eg -= self.isolated.1 * on_file;
            }
        }
        for sq in ours.squares() {
            let i = color.index() * squares + sq.index();
            if defended.has(sq) || !(self.beside[sq.index()] & ours).is_empty() {
                mg += self.connected[i].0 as i32;
                eg += self.connected[i].1 as i32;
            }
            if (self.front_span[i] & theirs).is_empty() {
                let (mut bonus_mg, mut bonus_eg) = (self.passed_mg[i] as i32, self.passed_eg[i] as i32);
                let Some(stop) = self.stop_square[i] else {
                    mg += bonus_mg;
                    eg += bonus_eg;
                    continue;
                };
                if occ.has(stop) {
                    bonus_mg -= bonus_mg * self.passer_blocked / 256;
                    bonus_eg -= bonus_eg * self.passer_blocked / 256;
                }
                let g = self.rules.geometry;
                let distance = |king: Option<Square>| king.map_or(0, |k| g.distance(k, stop).min(5));
                let (enemy, own) = self.passer_king[i];
                bonus_eg += distance(kings[1]) * enemy as i32 - distance(kings[0]) * own as i32;
                mg += bonus_mg;
                eg += bonus_eg;
            }
        }
        (mg, eg)
    }
}

/// The score of `pos` in centipawns, from the side to move's point of view.
pub fn evaluate<B: BitSet>(pos: &Position<B>) -> i32 {
    Evaluation::of(pos.rules()).evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::compiled;
    use crate::variant::builtin;

    const W: EvalParams = EvalParams::DEFAULT;
    const TEMPO: i32 = W.tempo as i32;

    fn position(variant: &str, fen: &str) -> Position<u64> {
        let v = builtin(variant).unwrap();
        Position::from_fen(compiled::<u64>(v), fen).unwrap()
    }

    #[test]
    fn start_position_is_balanced_up_to_tempo() {
        let p = position("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(evaluate(&p), TEMPO);
    }

    #[test]
    fn score_is_relative_to_the_side_to_move() {
        let w = position("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let b = position("chess", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
        assert!(evaluate(&w) > 800);
        assert_eq!(evaluate(&w) - TEMPO, -(evaluate(&b) - TEMPO));
    }

    #[test]
    fn passed_pawns_count_and_weak_pawns_cost() {
        // The same pawn, blocked on a neighbouring file or free to run.
        let passed = position("chess", "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1");
        let held = position("chess", "4k3/8/4p3/8/3P4/8/8/4K3 w - - 0 1");
        let held_far = position("chess", "4k3/p7/8/8/3P4/8/8/4K3 w - - 0 1");
        assert!(evaluate(&passed) - evaluate(&held) > 100, "a passed pawn is worth more than a pawn");
        assert!(evaluate(&held_far) > evaluate(&held), "a pawn that cannot stop ours is no defence");
        let healthy = position("chess", "4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1");
        let doubled = position("chess", "4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1");
        assert!(evaluate(&healthy) > evaluate(&doubled));
    }

    #[test]
    fn pieces_attacked_by_pawns_or_left_hanging_cost() {
        // The same knight, attacked by a pawn on d5 or not by the pawn on a5 (White keeps a pawn,
        // so that no endgame scaling applies).
        let attacked = position("chess", "4k3/8/8/3p4/4N3/8/7P/4K3 w - - 0 1");
        let safe = position("chess", "4k3/8/8/p7/4N3/8/7P/4K3 w - - 0 1");
        let (a, s) = (evaluate(&attacked), evaluate(&safe));
        assert!(s - a >= (W.threat_by_pawn_eg + W.hanging_eg) as i32 - 15, "attacked {a}, safe {s}");
        // A rook attacked by a bishop, defended by its king (g1) or not (d1): without the
        // hanging term both score the same.
        let defended = position("chess", "4k3/8/8/8/3b4/8/5R1P/6K1 w - - 0 1");
        let hanging = position("chess", "4k3/8/8/8/3b4/8/5R1P/3K4 w - - 0 1");
        let (d, h) = (evaluate(&defended), evaluate(&hanging));
        assert!(d - h >= W.hanging_eg as i32, "defended {d}, hanging {h}");
    }

    #[test]
    fn rooks_like_files_without_their_own_pawns() {
        // The same rook, boxed in by the knight in front of it, with its own pawn on its file or
        // only the enemy's (the pawns mirrored, so that every other term cancels: without the
        // file bonus both score the same).
        let closed = position("chess", "4k3/8/8/7p/P7/8/n7/R3K3 w - - 0 1");
        let half_open = position("chess", "4k3/8/8/p7/7P/8/n7/R3K3 w - - 0 1");
        let (c, h) = (evaluate(&closed), evaluate(&half_open));
        assert!(h - c >= 5, "closed {c}, half-open {h}");
    }

    /// Some terms alone in a chess position: the evaluation with the default weights less the
    /// evaluation with `off`, the defaults with those terms' weights at zero.
    fn term_alone(fen: &str, off: &EvalParams) -> i32 {
        let r = compiled::<u64>(builtin("chess").unwrap());
        let p = position("chess", fen);
        Evaluator::with_params(r, &W).evaluate(&p) - Evaluator::with_params(r, off).evaluate(&p)
    }

    #[test]
    fn passed_pawns_want_the_enemy_king_far_and_their_path_free() {
        let off = EvalParams { passer_enemy_king_eg: 0.0, passer_own_king_eg: 0.0, passer_blocked: 0.0, ..W };
        let term = |fen: &str| term_alone(fen, &off);
        let with = Evaluator::with_params(compiled::<u64>(builtin("chess").unwrap()), &W);
        // A white pawn on d6 (stop square d7), bare kings: a pure endgame.
        let progress = 4.0 / 5.0;
        let per_square = |weight: f64| (weight * progress).round() as i32;
        // The black king four squares from d7 (h7), the white one five (d2) or one (e6).
        let far_king = term("8/7k/3P4/8/8/8/3K4/8 w - - 0 1");
        assert_eq!(far_king, 4 * per_square(W.passer_enemy_king_eg) - 5 * per_square(W.passer_own_king_eg));
        let escorted = term("8/7k/3PK3/8/8/8/8/8 w - - 0 1");
        assert_eq!(escorted, 4 * per_square(W.passer_enemy_king_eg) - per_square(W.passer_own_king_eg));
        // The black king on the stop square: it blocks and is at distance 0.
        let blocked = term("8/3k4/3P4/4K3/8/8/8/8 w - - 0 1");
        let bonus = with.passed_eg[Color::White.index() * 64 + 43] as i32;
        assert_eq!(blocked, -(bonus * with.passer_blocked / 256) - 2 * per_square(W.passer_own_king_eg));
        assert!(escorted > far_king && blocked < escorted, "{far_king} {escorted} {blocked}");
    }

    #[test]
    fn pieces_attacked_by_lesser_pieces_cost() {
        let off = EvalParams { threat_by_lesser_mg: 0.0, threat_by_lesser_eg: 0.0, ..W };
        let term = |fen: &str| term_alone(fen, &off);
        // White's knight on e5 attacks the rook on d7 and the queen on f7: two threats. Out of
        // its reach (a7, h7) they are none; Black's rook and queen attacking the knight are not
        // threats by a lesser piece.
        let fork = term("4k3/3r1q2/8/4N3/8/8/8/4K3 w - - 0 1");
        let apart = term("4k3/r6q/8/4N3/8/8/8/4K3 w - - 0 1");
        assert_eq!(apart, 0);
        assert!(fork > 0, "{fork}");
        // A bishop attacking a knight of equal value is no threat by a lesser piece.
        assert_eq!(term("4k3/8/8/3n4/8/1B6/8/4K3 w - - 0 1"), term("4k3/8/8/3n4/8/8/1B6/4K3 w - - 0 1"));
    }

    #[test]
    fn endgames_without_pawns_and_a_small_lead_are_scaled_down() {
        let r = compiled::<u64>(builtin("chess").unwrap());
        let unscaled = Evaluator::with_params(r, &EvalParams { drawish_scale: 1.0, ..W });
        let with = Evaluator::with_params(r, &W);
        let both = |fen: &str| {
            let p = position("chess", fen);
            (with.evaluate(&p), unscaled.evaluate(&p))
        };
        // Rook against bishop: the lead is a rook less a bishop, within `drawish_lead`.
        let (scaled, full) = both("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1");
        assert!(full > 100 && scaled < full / 2, "{scaled} {full}");
        // Queen against rook is a win: no scaling.
        let (scaled, full) = both("4k3/8/8/3r4/8/8/8/Q3K3 w - - 0 1");
        assert_eq!(scaled, full);
        // A pawn for the stronger side: no scaling either.
        let (scaled, full) = both("4k3/8/8/3b4/8/8/P7/R3K3 w - - 0 1");
        assert_eq!(scaled, full);
    }

    #[test]
    fn connected_pawns_and_a_closed_king_file_count() {
        let off = EvalParams { connected_mg: 0.0, connected_eg: 0.0, royal_open_file_mg: 0.0, ..W };
        let term = |fen: &str| term_alone(fen, &off);
        let with = Evaluator::with_params(compiled::<u64>(builtin("chess").unwrap()), &W);
        // Bare kings and pawns: a pure endgame, where only the connected bonus counts.
        let bonus = |sq: usize| with.connected[sq].1 as i32;
        // d4 and e4 side by side; d4 defended by e3; d4 and f4 apart.
        assert_eq!(term("7k/8/8/8/3PP3/8/8/K7 w - - 0 1"), bonus(27) + bonus(28));
        assert_eq!(term("7k/8/8/8/3P4/4P3/8/K7 w - - 0 1"), bonus(27));
        assert_eq!(term("7k/8/8/8/3P1P2/8/8/K7 w - - 0 1"), 0);
        assert!(with.connected[27 + 16].0 > with.connected[27].0, "the bonus grows with progress");
        // With the pieces on, the middlegame: the king on g1 behind f2-g2-h2, or with g2 gone.
        let closed = term("rnbqkbnr/pppppppp/8/8/8/8/5PPP/RNBQ1RK1 w - - 0 1");
        let open = term("rnbqkbnr/pppppppp/8/8/8/8/5P1P/RNBQ1RK1 w - - 0 1");
        assert!(closed > open, "{closed} {open}");
    }

    #[test]
    fn attacks_near_the_king_and_a_missing_shield_cost() {
        let e = |p: &Position<u64>| evaluate(p);
        // The pawns in front of the castled king count as its shield, those on the other wing
        // do not.
        let r = compiled::<u64>(builtin("chess").unwrap());
        let unshielded = Evaluator::with_params(r, &EvalParams { shield_mg: 0.0, ..W });
        let shield = |fen: &str| {
            let p = position("chess", fen);
            e(&p) - unshielded.evaluate(&p)
        };
        // Black's king keeps its three pawns; White's has its three or none. With nearly all the
        // pieces on, the middlegame weight counts alone.
        let sheltered = "rnbq1rk1/ppppbppp/8/8/8/8/5PPP/RNBQ1RK1 w - - 0 1";
        let bare = "rnbq1rk1/ppppbppp/8/8/8/8/PPP5/RNBQ1RK1 w - - 0 1";
        assert_eq!(shield(sheltered), 0);
        assert_eq!(shield(bare), -3 * W.shield_mg as i32);
        // The same attackers on the king's wing or, mirrored, on the other wing.
        let near = position("chess", "r1bq1rk1/5ppp/8/6N1/7Q/8/PPP5/1KBR4 b - - 0 1");
        let far = position("chess", "r1bq1rk1/5ppp/8/1N6/Q7/8/PPP5/1KBR4 b - - 0 1");
        assert!(e(&near) + 15 < e(&far), "{} {}", e(&near), e(&far));
    }

    #[test]
    fn mobility_leaves_out_the_squares_enemy_pawns_attack() {
        let r = compiled::<u64>(builtin("chess").unwrap());
        let more = EvalParams { mobility_share: 3.0 * W.mobility_share, mobility_max: 3.0 * W.mobility_max, ..W };
        let (with, with_more) = (Evaluator::with_params(r, &W), Evaluator::with_params(r, &more));
        // The mobility term alone, as a multiple of the knight's weight per square.
        let mobility = |fen: &str| {
            let p = position("chess", fen);
            with_more.evaluate(&p) - with.evaluate(&p)
        };
        // The knight on e4 reaches eight squares; the pawn on b6 attacks c5, the one on h7 none
        // (White keeps a pawn, so that no endgame scaling applies).
        let free = mobility("4k3/7p/8/8/4N3/8/P7/4K3 w - - 0 1");
        let watched = mobility("4k3/8/1p6/8/4N3/8/P7/4K3 w - - 0 1");
        assert!(watched > 0, "free {free}, watched {watched}");
        assert_eq!(free * 7, watched * 8, "free {free}, watched {watched}");
    }

    #[test]
    fn colour_bound_pieces_on_both_colours_earn_the_pair_bonus() {
        let r = compiled::<u64>(builtin("chess").unwrap());
        let with = Evaluator::with_params(r, &W);
        let without = Evaluator::with_params(r, &EvalParams { pair_mg: 0.0, pair_eg: 0.0, ..W });
        let gain = |fen: &str| {
            let p = position("chess", fen);
            with.evaluate(&p) - without.evaluate(&p)
        };
        // Endgame material only: the endgame weight counts.
        assert_eq!(gain("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), W.pair_eg as i32, "bishops on c1 and f1");
        assert_eq!(gain("4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1"), 0, "bishops on c1 and g1, both dark");
        assert_eq!(gain("4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1"), 0, "knights are not colour-bound");
        assert_eq!(gain("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1"), 0, "both sides have the pair");
    }

    #[test]
    fn derived_values_follow_mobility() {
        let r = compiled::<u64>(builtin("chess").unwrap());
        // The knight's derived value is the yardstick; the king is royal and has none.
        let reach: f64 =
            r.geometry.all_squares().map(|s| empty_board_reach(r, 1, Color::White, s).count() as f64).sum();
        assert!((reach / 64.0 - knight_average(r.geometry)).abs() < 1e-9);
        let e = Evaluator::new(r);
        assert_eq!(e.value(r.royal), 0);
        assert!(e.hand_value(1) > e.value(1));
    }

    #[test]
    fn knights_prefer_the_centre_and_pawns_advance() {
        let corner = position("chess", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
        let centre = position("chess", "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        assert!(evaluate(&centre) > evaluate(&corner));
        let back = position("chess", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let far = position("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(evaluate(&far) > evaluate(&back) + 50);
    }
}
