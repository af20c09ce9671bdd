//! A variant compiled for one bitboard width: ray tables, per-piece leap tables and ride, hop and
//! path descriptors, reverse tables for attack detection, Zobrist keys. Built once per variant
//! and width, then shared read-only (`&'static`) by every position of that variant.
//!
//! Owns: `Rules<B>`, attack computation (`attacks`, `attackers`-support tables), Zobrist keys.
//! Must not know: positions' contents, move lists, notation, search.

use crate::betza::{Mode, Travel};
use crate::bitboard::BitSet;
use crate::geometry::{Color, Geometry, Square};
use crate::magic::Magics;
use crate::random::SplitMix64;
use crate::variant::{PieceKind, Variant};
use once_cell::sync::Lazy;
use std::any::Any;
use std::collections::HashMap;
use std::sync::Mutex;

/// A rider component: direction index and range (0 = unlimited).
#[derive(Clone, Copy, Debug)]
pub struct Ride {
    pub dir: u8,
    pub range: u8,
}

/// A bent-rider component: first step, then slides along up to two directions.
#[derive(Clone, Copy, Debug)]
pub struct Bent {
    pub first: (i8, i8),
    pub legs: [u8; 2],
    pub leg_count: u8,
}

/// One modality (moving to empty squares, or capturing) of one piece kind for one colour.
#[derive(Clone, Debug)]
pub struct Modality<B> {
    /// Leap targets per square.
    pub leaps: Vec<B>,
    /// The same leaps as whole-board shifts: (squares whose leap stays on the board, index
    /// offset of the leap).
    pub leap_shifts: Vec<(B, i32)>,
    /// All four orthogonal directions, unlimited.
    pub rook: bool,
    /// All four diagonal directions, unlimited.
    pub bishop: bool,
    /// Other rides.
    pub rides: Vec<Ride>,
    /// Cannon hops (direction indices).
    pub hops: Vec<u8>,
    /// Grasshopper hops (direction indices).
    pub grasshops: Vec<u8>,
    pub bents: Vec<Bent>,
    /// Circular paths: (index of the first king direction in counter-clockwise order, clockwise).
    pub circles: Vec<(u8, bool)>,
    /// Nothing but leaps and the rook/bishop groups (set when the tables are complete).
    pub plain: bool,
}

impl<B: BitSet> Modality<B> {
    fn new(squares: usize) -> Self {
        Modality {
            leaps: vec![B::EMPTY; squares],
            leap_shifts: Vec::new(),
            rook: false,
            bishop: false,
            rides: Vec::new(),
            hops: Vec::new(),
            grasshops: Vec::new(),
            bents: Vec::new(),
            circles: Vec::new(),
            plain: true,
        }
    }

    /// Whether nothing but leaps and unlimited rook/bishop lines.
    fn is_plain(&self) -> bool {
        self.rides.is_empty()
            && self.hops.is_empty()
            && self.grasshops.is_empty()
            && self.bents.is_empty()
            && self.circles.is_empty()
    }
}

/// The compiled movement of one piece kind for one colour.
#[derive(Clone, Debug)]
pub struct KindTables<B> {
    pub quiet: Modality<B>,
    pub capture: Modality<B>,
    /// Quiet and capture modalities are the same (most pieces).
    pub symmetric: bool,
}

/// Zobrist keys.
#[derive(Clone, Debug)]
pub struct Zobrist {
    pub pieces: Vec<u64>,
    pub black_to_move: u64,
    pub castling: Vec<u64>,
    pub en_passant: Vec<u64>,
    pub hand: Vec<u64>,
    pub promotion_spent: Vec<u64>,
}

/// The largest hand count with a distinct Zobrist key.
pub const MAX_HAND: usize = 16;

impl Zobrist {
    /// Keys from a fixed seed: the hashes are the same on every run.
    fn new(squares: usize, kinds: usize) -> Zobrist {
        let mut rng = SplitMix64::new(0x4d65_6e61_6765_7269);
        let mut next = move || rng.next_u64();
        Zobrist {
            pieces: (0..2 * kinds * squares).map(|_| next()).collect(),
            black_to_move: next(),
            castling: (0..squares).map(|_| next()).collect(),
            en_passant: (0..squares).map(|_| next()).collect(),
            hand: (0..2 * kinds * (MAX_HAND + 1)).map(|_| next()).collect(),
            promotion_spent: (0..kinds).map(|_| next()).collect(),
        }
    }
}

/// A variant compiled for bitboard width `B`.
pub struct Rules<B: BitSet> {
    pub variant: &'static Variant,
    pub geometry: Geometry,
    pub squares: usize,
    pub kinds: usize,
    pub royal: PieceKind,
    pub board: B,
    /// Direction vectors; 0..8 are E N NE NW W S SW SE, then other ride vectors in +/- pairs.
    pub dirs: Vec<(i8, i8)>,
    /// Whether stepping along the direction increases the square index.
    pub dir_increasing: Vec<bool>,
    /// Index of the opposite direction.
    pub dir_opposite: Vec<u8>,
    /// `rays[dir * squares + sq]`: squares from `sq` along `dir`, `sq` excluded, to the edge.
    pub rays: Vec<B>,
    /// `tables[kind * 2 + color]`.
    pub tables: Vec<KindTables<B>>,
    /// `leap_from[(kind * 2 + color) * squares + sq]`: squares from which a piece of that kind and
    /// colour captures on `sq` by a leap.
    pub leap_from: Vec<B>,
    /// Kinds with capturing leaps.
    pub leap_kinds: Vec<PieceKind>,
    /// Per colour: kinds that capture along all four orthogonals / diagonals without limit.
    pub rook_kinds: [Vec<PieceKind>; 2],
    pub bishop_kinds: [Vec<PieceKind>; 2],
    /// Per colour and direction: bit mask of kinds that capture by an unlimited ride along the
    /// direction (besides the rook/bishop groups). Indexed `dir * 2 + color`.
    pub dir_riders: Vec<u32>,
    /// Directions that appear in `dir_riders`.
    pub extra_rider_dirs: Vec<u8>,
    /// Kinds whose captures need a forward computation per piece (limited rides, hops, paths).
    pub complex_kinds: Vec<PieceKind>,
    /// Per colour and direction: bit mask of kinds that capture by riding along the direction
    /// (any range): the pieces that can pin. Indexed `dir * 2 + color`.
    pub pinners: Vec<u32>,
    /// Directions with any pinner.
    pub pin_dirs: Vec<u8>,
    /// No capture depends on occupancy except along rides: pins decide legality.
    pub pins_suffice: bool,
    /// Kinds whose captures depend on occupancy in other ways (hops, bent and circular paths):
    /// while the opponent has one on the board, every move is tested in full.
    pub unpinnable_kinds: Vec<PieceKind>,
    /// Per colour: the last rank (promotion zone) and the double-step rank.
    pub promotion_zone: [B; 2],
    pub double_step_zone: [B; 2],
    /// Per colour: the first rank.
    pub back_rank: [B; 2],
    pub pawn_kinds: u32,
    pub zobrist: Zobrist,
    /// File and rank of each square (the geometry divides; hot code looks up instead).
    pub file_of: Vec<i8>,
    pub rank_of: Vec<i8>,
    /// `double_step[sq * 2 + color]`: (square passed, square reached) of a pawn double step
    /// from `sq`, or empty sets where there is none.
    pub double_step: Vec<(B, B)>,
    /// Rook and bishop magics, on boards of at most 64 squares.
    pub magics: Option<(Magics<B>, Magics<B>)>,
    /// Kinds that can pin along some direction.
    pub pinner_kinds: Vec<PieceKind>,
}

const KING_DIRS: [(i8, i8); 8] = [(1, 0), (0, 1), (1, 1), (-1, 1), (-1, 0), (0, -1), (-1, -1), (1, -1)];
/// King steps in counter-clockwise order, for circular riders.
const CIRCLE: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

impl<B: BitSet> Rules<B> {
    /// Compile a variant. The geometry must fit `B`.
    pub fn new(variant: &'static Variant) -> Rules<B> {
        let geometry = variant.geometry;
        let squares = geometry.squares();
        assert!(squares <= B::CAPACITY, "board does not fit the bitboard width");
        let kinds = variant.pieces.len();
        let mut board = B::EMPTY;
        for sq in geometry.all_squares() {
            board |= B::square(sq);
        }
        let mut dirs: Vec<(i8, i8)> = KING_DIRS.to_vec();
        // Other ride vectors, as +/- pairs.
        for p in &variant.pieces {
            for s in &p.steps {
                let ride_like = matches!(s.travel, Travel::Ride { .. } | Travel::Hop | Travel::Grasshop);
                if ride_like && !dirs.contains(&(s.dx, s.dy)) {
                    dirs.push((s.dx, s.dy));
                    dirs.push((-s.dx, -s.dy));
                }
            }
        }
        let files = geometry.files as i32;
        let dir_increasing: Vec<bool> = dirs.iter().map(|&(dx, dy)| dy as i32 * files + dx as i32 > 0).collect();
        let dir_opposite: Vec<u8> =
            dirs.iter().map(|&(dx, dy)| dirs.iter().position(|&v| v == (-dx, -dy)).unwrap_or(0) as u8).collect();
        let mut rays = vec![B::EMPTY; dirs.len() * squares];
        for (d, &(dx, dy)) in dirs.iter().enumerate() {
            for sq in geometry.all_squares() {
                let mut r = B::EMPTY;
                let mut cur = sq;
                while let Some(n) = geometry.offset(cur, dx as i32, dy as i32) {
                    r |= B::square(n);
                    cur = n;
                }
                rays[d * squares + sq.index()] = r;
            }
        }
        let dir_index = |v: (i8, i8)| dirs.iter().position(|&d| d == v).unwrap_or(0) as u8;

        let mut tables = Vec::with_capacity(kinds * 2);
        for p in &variant.pieces {
            for color in Color::BOTH {
                let mut quiet = Modality::new(squares);
                let mut capture = Modality::new(squares);
                for s in &p.steps {
                    // Black's moves are White's mirrored top to bottom.
                    let (dx, dy) = (s.dx, if color == Color::White { s.dy } else { -s.dy });
                    let targets: Vec<&mut Modality<B>> = match s.mode {
                        Mode::Both => vec![&mut quiet, &mut capture],
                        Mode::Move => vec![&mut quiet],
                        Mode::Capture => vec![&mut capture],
                    };
                    for m in targets {
                        match s.travel {
                            Travel::Leap => {
                                let mut sources = B::EMPTY;
                                for sq in geometry.all_squares() {
                                    if let Some(t) = geometry.offset(sq, dx as i32, dy as i32) {
                                        m.leaps[sq.index()] |= B::square(t);
                                        sources |= B::square(sq);
                                    }
                                }
                                m.leap_shifts.push((sources, dy as i32 * geometry.files as i32 + dx as i32));
                            }
                            Travel::Ride { range } => m.rides.push(Ride { dir: dir_index((dx, dy)), range }),
                            Travel::Hop => m.hops.push(dir_index((dx, dy))),
                            Travel::Grasshop => m.grasshops.push(dir_index((dx, dy))),
                            Travel::Bent => {
                                let mut legs = [0u8; 2];
                                for (leg, &(ex, ey)) in
                                    legs.iter_mut().zip(&s.bent_legs).take(s.bent_leg_count as usize)
                                {
                                    let ey = if color == Color::White { ey } else { -ey };
                                    *leg = KING_DIRS.iter().position(|&v| v == (ex, ey)).unwrap_or(0) as u8;
                                }
                                m.bents.push(Bent { first: (dx, dy), legs, leg_count: s.bent_leg_count });
                            }
                            Travel::Circle { clockwise } => {
                                let start = CIRCLE.iter().position(|&v| v == (dx, dy)).unwrap_or(0) as u8;
                                m.circles.push((start, clockwise));
                            }
                        }
                    }
                }
                for m in [&mut quiet, &mut capture] {
                    // Collapse full unlimited rook and bishop direction sets into the fast groups.
                    let full = |m: &Modality<B>, ds: [u8; 4]| {
                        ds.iter().all(|d| m.rides.iter().any(|r| r.dir == *d && r.range == 0))
                    };
                    if full(m, [0, 1, 4, 5]) {
                        m.rook = true;
                        m.rides.retain(|r| !(r.range == 0 && [0, 1, 4, 5].contains(&r.dir)));
                    }
                    if full(m, [2, 3, 6, 7]) {
                        m.bishop = true;
                        m.rides.retain(|r| !(r.range == 0 && [2, 3, 6, 7].contains(&r.dir)));
                    }
                }
                quiet.plain = quiet.is_plain();
                capture.plain = capture.is_plain();
                let symmetric = p.steps.iter().all(|s| s.mode == Mode::Both);
                tables.push(KindTables { quiet, capture, symmetric });
            }
        }

        let mut leap_from = vec![B::EMPTY; kinds * 2 * squares];
        let mut leap_kinds = Vec::new();
        let mut rook_kinds: [Vec<PieceKind>; 2] = [Vec::new(), Vec::new()];
        let mut bishop_kinds: [Vec<PieceKind>; 2] = [Vec::new(), Vec::new()];
        let mut dir_riders = vec![0u32; dirs.len() * 2];
        let mut pinners = vec![0u32; dirs.len() * 2];
        let mut complex_kinds = Vec::new();
        let mut pins_suffice = true;
        let mut unpinnable_kinds = Vec::new();
        for k in 0..kinds {
            let mut has_leaps = false;
            let mut complex = false;
            for color in Color::BOTH {
                let c = &tables[k * 2 + color.index()].capture;
                for from in geometry.all_squares() {
                    for to in c.leaps[from.index()].squares() {
                        leap_from[(k * 2 + color.index()) * squares + to.index()] |= B::square(from);
                        has_leaps = true;
                    }
                }
                if c.rook {
                    rook_kinds[color.index()].push(k);
                    for d in [0, 1, 4, 5] {
                        pinners[d * 2 + color.index()] |= 1 << k;
                    }
                }
                if c.bishop {
                    bishop_kinds[color.index()].push(k);
                    for d in [2, 3, 6, 7] {
                        pinners[d * 2 + color.index()] |= 1 << k;
                    }
                }
                for r in &c.rides {
                    pinners[r.dir as usize * 2 + color.index()] |= 1 << k;
                    if r.range == 0 {
                        dir_riders[r.dir as usize * 2 + color.index()] |= 1 << k;
                    } else {
                        complex = true;
                    }
                }
                if !c.hops.is_empty() || !c.grasshops.is_empty() || !c.bents.is_empty() || !c.circles.is_empty() {
                    complex = true;
                    pins_suffice = false;
                    if !unpinnable_kinds.contains(&k) {
                        unpinnable_kinds.push(k);
                    }
                }
            }
            // Rides limited in range are found per piece; their unlimited siblings too, so that
            // one kind is handled one way.
            if complex {
                complex_kinds.push(k);
                for d in 0..dirs.len() {
                    for color in 0..2 {
                        dir_riders[d * 2 + color] &= !(1 << k);
                    }
                }
            }
            if has_leaps {
                leap_kinds.push(k);
            }
        }
        let extra_rider_dirs = (0..dirs.len() as u8)
            .filter(|&d| dir_riders[d as usize * 2] | dir_riders[d as usize * 2 + 1] != 0)
            .collect();
        let pin_dirs =
            (0..dirs.len() as u8).filter(|&d| pinners[d as usize * 2] | pinners[d as usize * 2 + 1] != 0).collect();

        let rank_mask = |r: i32| {
            let mut m = B::EMPTY;
            for f in 0..geometry.files as i32 {
                if let Some(sq) = geometry.square(f, r) {
                    m |= B::square(sq);
                }
            }
            m
        };
        let last = geometry.ranks as i32 - 1;
        let promotion_zone = [rank_mask(last), rank_mask(0)];
        let double_step_zone = match variant.double_step {
            Some(r) => [rank_mask(r as i32), rank_mask(last - r as i32)],
            None => [B::EMPTY, B::EMPTY],
        };
        let back_rank = [rank_mask(0), rank_mask(last)];
        let royal = variant.royal_kinds().next().unwrap_or(0);
        let pawn_kinds = variant.pieces.iter().enumerate().filter(|(_, p)| p.pawn).fold(0u32, |m, (k, _)| m | 1 << k);

        let file_of = geometry.all_squares().map(|s| geometry.file(s) as i8).collect();
        let rank_of = geometry.all_squares().map(|s| geometry.rank(s) as i8).collect();
        let mut double_step = vec![(B::EMPTY, B::EMPTY); squares * 2];
        for sq in geometry.all_squares() {
            for color in Color::BOTH {
                if double_step_zone[color.index()].has(sq) {
                    let f = color.forward();
                    if let (Some(mid), Some(two)) = (geometry.offset(sq, 0, f), geometry.offset(sq, 0, 2 * f)) {
                        double_step[sq.index() * 2 + color.index()] = (B::square(mid), B::square(two));
                    }
                }
            }
        }

        let magics = (squares <= 64).then(|| (Magics::rook(geometry), Magics::bishop(geometry)));
        let pinner_kinds = (0..kinds).filter(|&k| pinners.iter().any(|m| m & (1 << k) != 0)).collect();

        Rules {
            magics,
            pinner_kinds,
            file_of,
            rank_of,
            double_step,
            variant,
            geometry,
            squares,
            kinds,
            royal,
            board,
            dirs,
            dir_increasing,
            dir_opposite,
            rays,
            tables,
            leap_from,
            leap_kinds,
            rook_kinds,
            bishop_kinds,
            dir_riders,
            extra_rider_dirs,
            complex_kinds,
            pinners,
            pin_dirs,
            pins_suffice,
            unpinnable_kinds,
            promotion_zone,
            double_step_zone,
            back_rank,
            pawn_kinds,
            zobrist: Zobrist::new(squares, kinds),
        }
    }

    /// The ray from `sq` along `dir`, `sq` excluded.
    #[inline]
    pub fn ray(&self, dir: usize, sq: Square) -> B {
        // SAFETY-free indexing: dir < dirs.len() and sq < squares by construction of callers.
        self.rays[dir * self.squares + sq.index()]
    }

    /// The first occupied square along `dir` from `sq`, if any.
    #[inline]
    pub fn first_blocker(&self, dir: usize, sq: Square, occ: B) -> Option<Square> {
        let b = self.ray(dir, sq) & occ;
        if b.is_empty() {
            None
        } else if self.dir_increasing[dir] {
            Some(b.lowest())
        } else {
            Some(b.highest())
        }
    }

    /// Squares an unlimited slider reaches along `dir`: empty squares and the first blocker.
    #[inline]
    pub fn slide(&self, dir: usize, sq: Square, occ: B) -> B {
        let r = self.ray(dir, sq);
        match self.first_blocker(dir, sq, occ) {
            Some(b) => r & !self.ray(dir, b),
            None => r,
        }
    }

    /// Orthogonal slider attacks.
    #[inline(always)]
    pub fn rook_attacks(&self, sq: Square, occ: B) -> B {
        if let Some((rook, _)) = &self.magics {
            return rook.attacks(sq, occ);
        }
        self.slide(0, sq, occ) | self.slide(1, sq, occ) | self.slide(4, sq, occ) | self.slide(5, sq, occ)
    }

    /// Diagonal slider attacks.
    #[inline(always)]
    pub fn bishop_attacks(&self, sq: Square, occ: B) -> B {
        if let Some((_, bishop)) = &self.magics {
            return bishop.attacks(sq, occ);
        }
        self.slide(2, sq, occ) | self.slide(3, sq, occ) | self.slide(6, sq, occ) | self.slide(7, sq, occ)
    }

    /// A slide of at most `range` steps (0 = unlimited).
    #[inline]
    fn slide_range(&self, dir: usize, sq: Square, occ: B, range: u8) -> B {
        let s = self.slide(dir, sq, occ);
        if range == 0 {
            return s;
        }
        let (dx, dy) = self.dirs[dir];
        match self.geometry.offset(sq, dx as i32 * range as i32, dy as i32 * range as i32) {
            Some(limit) => s & !self.ray(dir, limit),
            None => s,
        }
    }

    /// The squares a piece of `kind` and `color` on `sq` reaches in one modality, given the
    /// occupancy: for the quiet modality keep the empty ones, for captures the enemy ones.
    #[inline(always)]
    pub fn reach(&self, m: &Modality<B>, sq: Square, occ: B) -> B {
        let mut t = m.leaps[sq.index()];
        if m.rook {
            t |= self.rook_attacks(sq, occ);
        }
        if m.bishop {
            t |= self.bishop_attacks(sq, occ);
        }
        if !m.plain {
            t |= self.reach_other(m, sq, occ);
        }
        t
    }

    /// The rides, hops and paths of a modality.
    fn reach_other(&self, m: &Modality<B>, sq: Square, occ: B) -> B {
        let mut t = B::EMPTY;
        for r in &m.rides {
            t |= self.slide_range(r.dir as usize, sq, occ, r.range);
        }
        for &d in &m.hops {
            if let Some(screen) = self.first_blocker(d as usize, sq, occ) {
                t |= self.slide(d as usize, screen, occ);
            }
        }
        for &d in &m.grasshops {
            if let Some(screen) = self.first_blocker(d as usize, sq, occ) {
                let (dx, dy) = self.dirs[d as usize];
                if let Some(land) = self.geometry.offset(screen, dx as i32, dy as i32) {
                    t |= B::square(land);
                }
            }
        }
        for b in &m.bents {
            if let Some(first) = self.geometry.offset(sq, b.first.0 as i32, b.first.1 as i32) {
                t |= B::square(first);
                if !occ.has(first) {
                    for i in 0..b.leg_count as usize {
                        t |= self.slide(b.legs[i] as usize, first, occ);
                    }
                }
            }
        }
        for &(start, clockwise) in &m.circles {
            let mut cur = sq;
            for k in 0..7 {
                let idx = if clockwise { (start as i32 - k + 8) % 8 } else { (start as i32 + k) % 8 };
                let (dx, dy) = CIRCLE[idx as usize];
                match self.geometry.offset(cur, dx as i32, dy as i32) {
                    Some(n) if n != sq => {
                        t |= B::square(n);
                        if occ.has(n) {
                            break;
                        }
                        cur = n;
                    }
                    _ => break,
                }
            }
        }
        t
    }

    /// Compiled tables of a kind and colour.
    #[inline]
    pub fn kind_tables(&self, kind: PieceKind, color: Color) -> &KindTables<B> {
        &self.tables[kind * 2 + color.index()]
    }

    /// Squares from which a leaper of `kind` and `color` captures on `sq`.
    #[inline]
    pub fn leap_from(&self, kind: PieceKind, color: Color, sq: Square) -> B {
        self.leap_from[(kind * 2 + color.index()) * self.squares + sq.index()]
    }

    /// Zobrist key of a piece on a square.
    #[inline]
    pub fn piece_key(&self, color: Color, kind: PieceKind, sq: Square) -> u64 {
        self.zobrist.pieces[(kind * 2 + color.index()) * self.squares + sq.index()]
    }

    /// Zobrist key of a hand count.
    #[inline]
    pub fn hand_key(&self, color: Color, kind: PieceKind, count: u8) -> u64 {
        self.zobrist.hand[(kind * 2 + color.index()) * (MAX_HAND + 1) + (count as usize).min(MAX_HAND)]
    }

    /// 0-based file of a square.
    #[inline]
    pub fn file(&self, sq: Square) -> i32 {
        self.file_of[sq.index()] as i32
    }

    /// 0-based rank of a square.
    #[inline]
    pub fn rank(&self, sq: Square) -> i32 {
        self.rank_of[sq.index()] as i32
    }

    /// Whether `kind` is a pawn type.
    #[inline]
    pub fn is_pawn(&self, kind: PieceKind) -> bool {
        self.pawn_kinds & (1 << kind) != 0
    }
}

/// Compiled rules are built once per (variant, width) and kept for the life of the process, so
/// positions can hold a plain `&'static` reference (cheap to copy, shared by search threads).
type RulesCache = HashMap<(usize, usize), &'static (dyn Any + Send + Sync)>;
static CACHE: Lazy<Mutex<RulesCache>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// The compiled rules of a variant for width `B`, built on first use.
pub fn compiled<B: BitSet>(variant: &'static Variant) -> &'static Rules<B> {
    let key = (variant as *const Variant as usize, B::CAPACITY);
    let mut cache = match CACHE.lock() {
        Ok(c) => c,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(r) = cache.get(&key).and_then(|a| a.downcast_ref::<Rules<B>>()) {
        return r;
    }
    let rules: &'static Rules<B> = Box::leak(Box::new(Rules::<B>::new(variant)));
    cache.insert(key, rules);
    rules
}
