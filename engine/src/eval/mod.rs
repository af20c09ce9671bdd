//! Static evaluation driven only by the variant data, as a sum of terms, each in a module of
//! its own with its own tables: material (material.rs: the variant's piece values or values
//! derived from mobility, pieces in hand, the bishop pair), placement (placement.rs:
//! piece-square tables derived from geometry), pawns (pawns.rs: structure and passed pawns),
//! pieces (pieces.rs: mobility, rook-like pieces on open files, and the pass over the pieces
//! that finds their attacks), royal safety (royal.rs) and threats (threats.rs). Each side's
//! terms are summed for the middlegame and the endgame, tapered by the material left; an
//! endgame where the stronger side has no pawns and a small lead is scaled down; the side to
//! move gets a tempo bonus. `trace` gives the terms one by one (trace.rs); `evaluate` is their
//! total.
//!
//! The search reaches the evaluation through `Evaluation`, one per compiled variant, built on
//! first use and kept for the life of the process like the rules themselves. It takes the
//! position only: the search is copy-make (every child is a copy of its parent with a move
//! played), so state that a learned evaluation keeps per ply can travel with the position
//! copies, or be found again by a per-thread cache compared with the board; no make/unmake
//! hooks are needed. The hand-written `Evaluator` stays inside it whatever else is added: it
//! gives the piece values of exchanges and move ordering, and the trace.
//!
//! Owns: `Evaluation` (what the search calls), `Evaluator` (the hand-written evaluation, its
//! terms composed), `evaluate`, `trace`; its weights are `EvalParams` (params.rs).
//! Must not know: search, notation, protocols, variant names.

use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::position::Position;
use menagerie_rules::rules::Rules;
use menagerie_rules::variant::PieceKind;
use once_cell::sync::Lazy;
use std::any::Any;
use std::collections::HashMap;
use std::sync::Mutex;

mod kinds;
mod material;
mod params;
mod pawns;
mod pieces;
mod placement;
mod royal;
mod threats;
mod trace;

pub use material::PieceValues;
pub use params::EvalParams;
pub use trace::{EvalTrace, InPawns, MgEg, Term};

use material::Material;
use pawns::Pawns;
use pieces::Pieces;
use placement::Placement;
use royal::RoyalSafety;
use threats::Threats;

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

    /// Piece values for exchanges and move ordering.
    #[inline]
    pub fn values(&self) -> &PieceValues {
        &self.hand_written.material.values
    }

    /// Material value of a piece kind on the board (0 for the royal piece).
    #[inline]
    pub fn value(&self, kind: PieceKind) -> i32 {
        self.values().value(kind)
    }

    /// Material value of a piece kind in hand.
    #[inline]
    pub fn hand_value(&self, kind: PieceKind) -> i32 {
        self.values().hand_value(kind)
    }

    /// Value for ordering captures (the royal piece highest).
    #[inline]
    pub fn order_value(&self, kind: PieceKind) -> i32 {
        self.values().order_value(kind)
    }
}

/// The hand-written evaluation of one compiled variant: its terms' tables, and how they are
/// tapered.
pub struct Evaluator<B: BitSet> {
    material: Material<B>,
    placement: Placement,
    pawns: Pawns<B>,
    pieces: Pieces<B>,
    royal: RoyalSafety<B>,
    threats: Threats,
    tempo: i32,
    /// An endgame without pawns for the stronger side and a lead of at most `drawish_lead` in
    /// other material has its endgame score scaled by `drawish_scale` / 64.
    drawish_lead: i32,
    drawish_scale: i32,
    /// Non-pawn material at and above which the game is a pure middlegame, and at and below
    /// which it is a pure endgame.
    midgame_material: i32,
    endgame_material: i32,
}

impl<B: BitSet> Evaluator<B> {
    /// Build the tables of a compiled variant with the default weights.
    pub fn new(rules: &'static Rules<B>) -> Evaluator<B> {
        Evaluator::with_params(rules, &EvalParams::DEFAULT)
    }

    /// Build the tables of a compiled variant with the weights `w`.
    pub fn with_params(rules: &'static Rules<B>, w: &EvalParams) -> Evaluator<B> {
        let whole = |x: f64| x.round() as i32;
        let facts = kinds::survey(rules);
        Evaluator {
            material: Material::new(rules, &facts, w),
            placement: Placement::new(rules, &facts, w),
            pawns: Pawns::new(rules, w),
            pieces: Pieces::new(rules, &facts, w),
            royal: RoyalSafety::new(rules, &facts, w),
            threats: Threats::new(rules, &facts, w),
            tempo: whole(w.tempo),
            drawish_lead: whole(w.drawish_lead),
            drawish_scale: (w.drawish_scale * 64.0).round().clamp(0.0, 64.0) as i32,
            midgame_material: whole(w.midgame_material),
            endgame_material: whole(w.endgame_material).min(whole(w.midgame_material) - 1),
        }
    }

    /// Piece values by kind.
    pub fn values(&self) -> &PieceValues {
        &self.material.values
    }

    /// The score of `pos` in centipawns, from the side to move's point of view: the total of
    /// its trace.
    pub fn evaluate(&self, pos: &Position<B>) -> i32 {
        self.trace(pos).total()
    }

    /// The evaluation of `pos` term by term.
    pub fn trace(&self, pos: &Position<B>) -> EvalTrace {
        let mut terms = [[MgEg::ZERO; 2]; Term::COUNT];
        let mut add = |term: Term, color: Color, s: MgEg| terms[term as usize][color.index()] += s;
        let occ = pos.occupied();
        let pawns = self.pawns.map(pos);
        let (material, pair, count) = self.material.eval(pos);
        let kings = [pos.king(Color::White), pos.king(Color::Black)];
        let zones = kings.map(|k| self.royal.zone(k));
        let worth_more = self.threats.worth_more(pos);
        // By side: attacks on pieces worth more than the attacker, and the danger units of the
        // attacks around its royal piece.
        let mut lesser = [0i32; 2];
        let mut danger = [0i32; 2];
        let activity = self.pieces.eval(pos, &pawns, |color, kind, attacks, reach| {
            let (c, them) = (color.index(), color.flip().index());
            lesser[c] += (attacks & worth_more[them][kind]).count() as i32;
            danger[them] += self.royal.units(kind, reach, zones[them]);
        });
        for color in Color::BOTH {
            let c = color.index();
            add(Term::Material, color, material[c]);
            add(Term::Pair, color, pair[c]);
            add(Term::Placement, color, self.placement.eval(pos, color));
            add(Term::Pawns, color, self.pawns.structure(&pawns, color));
            let own_first = [kings[c], kings[1 - c]];
            add(Term::Passed, color, self.pawns.passed(&pawns, color, own_first, occ));
            add(Term::Mobility, color, activity.mobility[c]);
            add(Term::Files, color, activity.files[c]);
            add(Term::KingSafety, color, self.royal.eval(color, kings[c], pawns.squares[c], danger[c]));
            add(Term::Threats, color, self.threats.eval(pos, &pawns, activity.attacked, lesser[c], color));
        }
        let span = self.midgame_material - self.endgame_material;
        let mut trace = EvalTrace {
            terms,
            side_to_move: pos.side_to_move(),
            phase: (count.phase - self.endgame_material).clamp(0, span),
            span,
            eg_scale: 64,
            tempo: self.tempo,
        };
        let us = pos.side_to_move();
        let eg = trace.side(us).eg - trace.side(us.flip()).eg;
        let strong = if eg > 0 { us.index() } else { us.flip().index() };
        if pawns.squares[strong].is_empty() && count.pieces[strong] - count.pieces[1 - strong] <= self.drawish_lead {
            trace.eg_scale = self.drawish_scale;
        }
        trace
    }
}

/// The score of `pos` in centipawns, from the side to move's point of view.
pub fn evaluate<B: BitSet>(pos: &Position<B>) -> i32 {
    Evaluation::of(pos.rules()).evaluate(pos)
}

/// The hand-written evaluation of `pos` term by term; its `total` is `evaluate(pos)`, and its
/// `Display` is the table of the `eval` command.
pub fn trace<B: BitSet>(pos: &Position<B>) -> EvalTrace {
    Evaluation::of(pos.rules()).hand_written().trace(pos)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use menagerie_rules::random::SplitMix64;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::startpos::start_fen;
    use menagerie_rules::variant::{by_name, names_with_options};

    pub(super) const W: EvalParams = EvalParams::DEFAULT;
    const TEMPO: i32 = W.tempo as i32;

    pub(super) fn position(variant: &str, fen: &str) -> Position<u64> {
        let v = by_name(variant).unwrap();
        Position::from_fen(compiled::<u64>(v), fen).unwrap()
    }

    /// Some terms alone in a chess position: the evaluation with the default weights less the
    /// evaluation with `off`, the defaults with those terms' weights at zero.
    pub(super) fn term_alone(fen: &str, off: &EvalParams) -> i32 {
        let r = compiled::<u64>(by_name("chess").unwrap());
        let p = position("chess", fen);
        Evaluator::with_params(r, &W).evaluate(&p) - Evaluator::with_params(r, off).evaluate(&p)
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
    fn endgames_without_pawns_and_a_small_lead_are_scaled_down() {
        let r = compiled::<u64>(by_name("chess").unwrap());
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

    /// The trace's total recomputed from its parts: each side's terms summed, White's less
    /// Black's, the endgame scaled, tapered, the tempo added, for the side to move.
    fn total_of_parts(t: &EvalTrace) -> i32 {
        let sum = |color: Color, eg: bool| -> i32 {
            Term::ALL.iter().map(|&term| t.term(term, color)).map(|s| if eg { s.eg } else { s.mg }).sum()
        };
        let sign = if t.side_to_move == Color::White { 1 } else { -1 };
        let mg = sign * (sum(Color::White, false) - sum(Color::Black, false));
        let eg = sign * (sum(Color::White, true) - sum(Color::Black, true)) * t.eg_scale / 64;
        (mg * t.phase + eg * (t.span - t.phase)) / t.span + t.tempo
    }

    /// Positions of a variant: a few start positions and seeded random playouts from them.
    fn playout_positions<B: BitSet>(name: &str, seed: u64, mut each: impl FnMut(&Position<B>)) {
        let v = by_name(name).unwrap();
        let rules = compiled::<B>(v);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..3 {
            let fen = start_fen(v, rng.below(v.start_count())).unwrap();
            let mut p = Position::from_fen(rules, &fen).unwrap();
            for _ in 0..60 {
                each(&p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.play(moves[rng.index(moves.len())]);
            }
        }
    }

    /// The trace of `p` adds up to its evaluation.
    fn check_trace<B: BitSet>(name: &str, p: &Position<B>) {
        let t = trace(p);
        assert_eq!(t.total(), evaluate(p), "{name}: {}", p.to_fen());
        assert_eq!(total_of_parts(&t), evaluate(p), "{name}: {}", p.to_fen());
        let white = if p.side_to_move() == Color::White { t.total() } else { -t.total() };
        assert_eq!(t.white_total(), white, "{name}: {}", p.to_fen());
    }

    #[test]
    fn the_trace_of_every_variant_adds_up_to_the_evaluation() {
        let mut seen = 0;
        for (i, name) in names_with_options().into_iter().enumerate() {
            if by_name(name).unwrap().geometry.squares() <= 64 {
                playout_positions::<u64>(name, i as u64, |p| {
                    check_trace(name, p);
                    seen += 1;
                });
            } else {
                playout_positions::<u128>(name, i as u64, |p| {
                    check_trace(name, p);
                    seen += 1;
                });
            }
        }
        assert!(seen > 1000, "{seen} positions");
    }

    #[test]
    fn the_trace_prints_every_term_and_the_total() {
        let p = position("chess", "r1bq1rk1/5ppp/8/6N1/7Q/8/PPP5/1KBR4 b - - 0 1");
        let t = trace(&p);
        let text = t.to_string();
        for term in Term::ALL {
            assert!(text.contains(&format!(" {:>11} | ", term.name())), "{term:?} missing:\n{text}");
        }
        let last = text.lines().last().unwrap();
        let white = t.white_total();
        let expected = format!("{}{}.{:02}", if white < 0 { "-" } else { "" }, white.abs() / 100, white.abs() % 100);
        assert_eq!(last, format!("Total evaluation: {expected} (white side)"), "\n{text}");
        // Terms that cancel between two equal sides: the start position's pawns.
        let start = trace(&position("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
        assert_eq!(start.term(Term::Pawns, Color::White), start.term(Term::Pawns, Color::Black));
        assert_eq!(start.total(), TEMPO);
    }
}
