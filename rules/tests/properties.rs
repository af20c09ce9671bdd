//! Property tests of the rules core over seeded, deterministic random playouts of every built-in
//! variant: the incremental hash, FEN round trips, coordinate notation round trips, distinct SAN,
//! legality of the generated moves, agreement of the two bitboard widths, and colour symmetry.
//!
//! Playouts are driven by a SplitMix64 generator with fixed seeds, so every run plays the same
//! games; a failure message names the variant, the start FEN, the moves played and the FEN and
//! move where the property broke.
//!
//! Widths: a variant whose board has at most 64 squares is played with `u64` bitboards (and some
//! playouts also with `u128`, in lockstep); a larger board (the 12x8 `rvc` family) only with
//! `u128`, so the width comparisons apply only where both widths fit.

use menagerie_rules::bitboard::BitSet;
use menagerie_rules::moves::{Move, MoveKind, MoveList};
use menagerie_rules::perft::perft;
use menagerie_rules::position::Position;
use menagerie_rules::random::SplitMix64;
use menagerie_rules::rules::compiled;
use menagerie_rules::startpos::start_fen;
use menagerie_rules::variant::{self, Variant};
use std::collections::HashMap;

/// Plies per playout at most.
const MAX_PLIES: usize = 60;
/// Playouts per variant with 64-bit boards.
const PLAYOUTS_PER_VARIANT: usize = 50;
/// Of which this many are also played in lockstep with 128-bit boards.
const WIDE_PLAYOUTS_PER_VARIANT: usize = 4;
/// Playouts per variant whose board needs 128-bit bitboards (about a hundred legal moves per
/// position and ten times the per-move cost of an 8x8 board, so fewer of them).
const PLAYOUTS_PER_WIDE_VARIANT: usize = 25;
/// Plies per playout at most on those boards.
const MAX_PLIES_WIDE: usize = 100;
/// Built-in variants whose rules are not colour-symmetric (excluded from the mirror test).
const COLOUR_ASYMMETRIC: &[&str] = &[];
/// Examples kept per kind of failure (all are counted).
const EXAMPLES_PER_GROUP: usize = 3;

/// A stable seed per variant name, so adding a variant does not change the others' games.
fn name_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Whether the variant's board fits 64-bit bitboards (and so both widths can be compared).
fn fits_u64(v: &Variant) -> bool {
    v.geometry.squares() <= 64
}

fn all_variants() -> Vec<&'static Variant> {
    let names = variant::names();
    assert!(names.len() >= 6, "expected at least six built-in variants, got {names:?}");
    names.iter().map(|n| variant::by_name(n).unwrap_or_else(|e| panic!("{e}"))).collect()
}

/// The start indices a variant's playouts use in turn: the first and last index, then random
/// ones.
fn start_indices(v: &Variant, rng: &mut SplitMix64, n: usize) -> Vec<u64> {
    let count = v.start_count();
    assert!(count > 0, "{}: no start positions", v.name);
    let mut out = vec![0, count - 1];
    while out.len() < n {
        out.push(rng.next_u64() % count);
    }
    out.truncate(n);
    out
}

/// What a playout has played so far, for failure messages.
struct Trail {
    variant: String,
    start: String,
    moves: Vec<String>,
}

impl Trail {
    fn describe(&self) -> String {
        format!("variant {}, start '{}', moves [{}]", self.variant, self.start, self.moves.join(" "))
    }
}

/// Counts of the special moves the playouts played, to show that they exercise them.
#[derive(Default, Debug)]
struct Coverage {
    plies: usize,
    positions_checked: usize,
    moves_checked: usize,
    castles: usize,
    promotions: usize,
    en_passant: usize,
    drops: usize,
    captures: usize,
    mates: usize,
    stalemates: usize,
}

impl Coverage {
    fn add(&mut self, other: &Coverage) {
        self.plies += other.plies;
        self.positions_checked += other.positions_checked;
        self.moves_checked += other.moves_checked;
        self.castles += other.castles;
        self.promotions += other.promotions;
        self.en_passant += other.en_passant;
        self.drops += other.drops;
        self.captures += other.captures;
        self.mates += other.mates;
        self.stalemates += other.stalemates;
    }
}

/// Failures grouped by property, with a few examples of each.
struct Failures {
    groups: Vec<(String, usize, Vec<String>)>,
    total: usize,
    /// Failures of state properties ((a), (b), (e)), after which a playout stops.
    state: usize,
}

impl Failures {
    fn new() -> Failures {
        Failures { groups: Vec::new(), total: 0, state: 0 }
    }

    /// Record a failure of a group (one property, one way of failing).
    fn push(&mut self, group: &str, msg: String) {
        self.total += 1;
        if ["(a)", "(b)", "(e)"].iter().any(|p| group.starts_with(p)) {
            self.state += 1;
        }
        match self.groups.iter_mut().find(|g| g.0 == group) {
            Some(g) => {
                g.1 += 1;
                if g.2.len() < EXAMPLES_PER_GROUP {
                    g.2.push(msg);
                }
            }
            None => self.groups.push((group.to_string(), 1, vec![msg])),
        }
    }

    fn assert_none(&self, what: &str) {
        if self.total == 0 {
            return;
        }
        let mut text = String::new();
        for (key, n, examples) in &self.groups {
            text.push_str(&format!("--- {n} x {key}\n"));
            for e in examples {
                text.push_str(e);
                text.push('\n');
            }
        }
        panic!("{} {what} failures in {} groups:\n{text}", self.total, self.groups.len());
    }
}

fn is_capture<B: BitSet>(pos: &Position<B>, m: Move) -> bool {
    matches!(m.kind(), MoveKind::EnPassant)
        || (matches!(m.kind(), MoveKind::Normal | MoveKind::Promotion) && pos.piece_at(m.to()).is_some())
}

fn is_pawn_move<B: BitSet>(pos: &Position<B>, m: Move) -> bool {
    m.kind() != MoveKind::Drop
        && m.kind() != MoveKind::Castle
        && pos.piece_at(m.from()).is_some_and(|p| pos.rules().is_pawn(p.kind))
}

/// Pick a move, biased towards the rare kinds (castling, promotion, en passant), captures and
/// pawn moves so that 60 plies reach them often enough.
fn choose<B: BitSet>(pos: &Position<B>, legal: &[Move], rng: &mut SplitMix64) -> Move {
    let pick = |set: Vec<Move>, rng: &mut SplitMix64| set[rng.index(set.len())];
    let special: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| matches!(m.kind(), MoveKind::Castle | MoveKind::Promotion | MoveKind::EnPassant))
        .collect();
    if !special.is_empty() && rng.index(4) != 0 {
        return pick(special, rng);
    }
    let roll = rng.index(8);
    if roll < 2 {
        let captures: Vec<Move> = legal.iter().copied().filter(|&m| is_capture(pos, m)).collect();
        if !captures.is_empty() {
            return pick(captures, rng);
        }
    } else if roll < 4 {
        let pawn: Vec<Move> = legal.iter().copied().filter(|&m| is_pawn_move(pos, m)).collect();
        if !pawn.is_empty() {
            return pick(pawn, rng);
        }
    }
    legal[rng.index(legal.len())]
}

/// Check every per-position property; returns the legal moves. A failure is recorded and the
/// return value is `None` (the playout stops there, to avoid cascades).
fn check_position<B: BitSet>(
    pos: &Position<B>,
    trail: &Trail,
    failures: &mut Failures,
    cov: &mut Coverage,
) -> Option<MoveList> {
    let rules = pos.rules();
    let fen = pos.to_fen();
    let width = B::CAPACITY;
    let at = || format!("{} ({width}-bit), at FEN '{fen}'", trail.describe());
    // Notation failures ((c), (d)) do not stop the playout; the others may mean a broken state.
    let state_failures = failures.state;
    cov.positions_checked += 1;

    // (a) The incremental hash equals the hash from scratch.
    if pos.hash() != pos.hash_from_scratch() {
        failures.push(
            "(a) hash",
            format!("(a) hash {:#x} != hash_from_scratch {:#x}: {}", pos.hash(), pos.hash_from_scratch(), at()),
        );
    }

    // (b) FEN out, FEN in: the same FEN and the same hash.
    match Position::from_fen(rules, &fen) {
        Ok(back) => {
            if back.to_fen() != fen {
                failures.push("(b) fen", format!("(b) FEN round trip gives '{}': {}", back.to_fen(), at()));
            }
            if back.hash() != pos.hash() {
                failures.push(
                    "(b) fen hash",
                    format!("(b) FEN round trip changes the hash {:#x} -> {:#x}: {}", pos.hash(), back.hash(), at()),
                );
            }
        }
        Err(e) => failures.push("(b) fen unreadable", format!("(b) to_fen output does not read back ({e}): {}", at())),
    }

    let legal = pos.legal_moves();
    let moves = legal.as_slice();

    // (e) count_legal agrees with legal_moves, and no move is listed twice.
    if pos.count_legal() != moves.len() {
        failures.push(
            "(e) count_legal",
            format!("(e) count_legal {} != legal_moves().len() {}: {}", pos.count_legal(), moves.len(), at()),
        );
    }
    let mut seen: HashMap<Move, usize> = HashMap::new();
    for &m in moves {
        *seen.entry(m).or_default() += 1;
    }
    for (m, n) in &seen {
        if *n > 1 {
            failures.push(
                "(e) duplicate move",
                format!("(e) move {} listed {n} times: {}", pos.move_to_uci(*m, true), at()),
            );
        }
    }

    let mover = pos.side_to_move();
    let mut sans: HashMap<String, Move> = HashMap::new();
    for &m in moves {
        cov.moves_checked += 1;
        let uci = pos.move_to_uci(m, false);
        // (c) Both coordinate forms parse back to the same move.
        for chess960 in [false, true] {
            let text = pos.move_to_uci(m, chess960);
            match pos.parse_move(&text) {
                Ok(back) if back == m => {}
                Ok(back) => failures.push(
                    &format!("(c) uci mismatch, chess960={chess960}, {:?}", m.kind()),
                    format!(
                        "(c) '{text}' (chess960={chess960}) of {m:?} parses back as {back:?} ('{}'): {}",
                        pos.move_to_uci(back, chess960),
                        at()
                    ),
                ),
                Err(e) => failures.push(
                    &format!("(c) uci unparsable, chess960={chess960}, {:?}", m.kind()),
                    format!("(c) '{text}' (chess960={chess960}) of {m:?} does not parse: {e}: {}", at()),
                ),
            }
        }
        // (d) SAN strings are pairwise distinct.
        let san = pos.move_to_san(m);
        if let Some(other) = sans.insert(san.clone(), m) {
            failures.push(
                "(d) san duplicate",
                format!("(d) SAN '{san}' names both {} and {}: {}", pos.move_to_uci(other, false), uci, at()),
            );
        }
        // (e) A legal move does not leave the mover's king attacked; the child's hash is right too.
        let mut child = pos.clone();
        child.play(m);
        match child.king(mover) {
            Some(k) => {
                if child.is_attacked(k, mover.flip()) {
                    failures.push(
                        "(e) king attacked",
                        format!("(e) legal move {uci} leaves the {mover} king on {k:?} attacked: {}", at()),
                    );
                }
            }
            None => failures.push("(e) king gone", format!("(e) after {uci} the {mover} king is gone: {}", at())),
        }
        if child.hash() != child.hash_from_scratch() {
            failures
                .push("(a) child hash", format!("(a) after {uci} the incremental hash differs from scratch: {}", at()));
        }
        if child.checkers() != child.checkers_from_scratch() {
            failures
                .push("(a) child checkers", format!("(a) after {uci} the kept checkers differ from scratch: {}", at()));
        }
    }

    // (e) The converse: a pseudo-legal move the filter rejected does leave the king attacked.
    let mut pseudo = MoveList::new();
    pos.generate(&mut pseudo);
    for &m in pseudo.iter() {
        if m.kind() == MoveKind::Castle || seen.contains_key(&m) {
            continue;
        }
        let mut child = pos.clone();
        child.play(m);
        if let Some(k) = child.king(mover) {
            if !child.is_attacked(k, mover.flip()) {
                failures.push(
                    "(e) over-strict filter",
                    format!(
                        "(e) pseudo-legal move {} was rejected but leaves the king safe: {}",
                        pos.move_to_uci(m, false),
                        at()
                    ),
                );
            }
        }
    }

    (failures.state == state_failures).then_some(legal)
}

fn record<B: BitSet>(cov: &mut Coverage, pos_before: &Position<B>, m: Move) {
    cov.plies += 1;
    match m.kind() {
        MoveKind::Castle => cov.castles += 1,
        MoveKind::Promotion => cov.promotions += 1,
        MoveKind::EnPassant => cov.en_passant += 1,
        MoveKind::Drop => cov.drops += 1,
        MoveKind::Normal => {}
    }
    if is_capture(pos_before, m) {
        cov.captures += 1;
    }
}

/// One playout with `B` bitboards, checking every position; returns the positions visited.
fn playout<B: BitSet>(
    v: &'static Variant,
    index: u64,
    rng: &mut SplitMix64,
    failures: &mut Failures,
    cov: &mut Coverage,
) -> Vec<Position<B>> {
    assert!(v.geometry.squares() <= B::CAPACITY, "{}: the board does not fit {}-bit bitboards", v.name, B::CAPACITY);
    let start = start_fen(v, index).unwrap_or_else(|e| panic!("{} start {index}: {e}", v.name));
    let mut pos = Position::from_fen(compiled::<B>(v), &start)
        .unwrap_or_else(|e| panic!("{} start {index} '{start}' does not load: {e}", v.name));
    let mut trail = Trail { variant: v.name.clone(), start, moves: Vec::new() };
    let mut visited = vec![pos.clone()];
    let max_plies = if fits_u64(v) { MAX_PLIES } else { MAX_PLIES_WIDE };
    for _ in 0..max_plies {
        let Some(legal) = check_position(&pos, &trail, failures, cov) else { break };
        if legal.is_empty() {
            if pos.in_check() {
                cov.mates += 1;
            } else {
                cov.stalemates += 1;
            }
            break;
        }
        let m = choose(&pos, legal.as_slice(), rng);
        record(cov, &pos, m);
        trail.moves.push(pos.move_to_uci(m, false));
        pos.play(m);
        visited.push(pos.clone());
    }
    visited
}

/// One playout played with both widths in lockstep: every property on both, and the same FEN and
/// the same legal moves (in coordinate notation) on both.
fn wide_playout(v: &'static Variant, index: u64, rng: &mut SplitMix64, failures: &mut Failures, cov: &mut Coverage) {
    assert!(fits_u64(v), "{}: the board does not fit 64-bit bitboards", v.name);
    let start = start_fen(v, index).unwrap_or_else(|e| panic!("{} start {index}: {e}", v.name));
    let mut narrow = Position::from_fen(compiled::<u64>(v), &start).unwrap_or_else(|e| panic!("{e}"));
    let mut wide = Position::from_fen(compiled::<u128>(v), &start).unwrap_or_else(|e| panic!("{e}"));
    let mut trail = Trail { variant: v.name.clone(), start, moves: Vec::new() };
    for _ in 0..MAX_PLIES {
        let (Some(ln), Some(lw)) =
            (check_position(&narrow, &trail, failures, cov), check_position(&wide, &trail, failures, cov))
        else {
            break;
        };
        if narrow.to_fen() != wide.to_fen() {
            failures.push(
                "width fen",
                format!(
                    "widths disagree: 64-bit '{}', 128-bit '{}': {}",
                    narrow.to_fen(),
                    wide.to_fen(),
                    trail.describe()
                ),
            );
            break;
        }
        let mut un: Vec<String> = ln.iter().map(|&m| narrow.move_to_uci(m, true)).collect();
        let mut uw: Vec<String> = lw.iter().map(|&m| wide.move_to_uci(m, true)).collect();
        un.sort();
        uw.sort();
        if un != uw {
            failures.push(
                "width moves",
                format!(
                    "widths disagree on legal moves at '{}': 64-bit {un:?}, 128-bit {uw:?}: {}",
                    narrow.to_fen(),
                    trail.describe()
                ),
            );
            break;
        }
        if ln.is_empty() {
            break;
        }
        let m = choose(&narrow, ln.as_slice(), rng);
        // Moves are encoded by square index, the same with either width.
        let text = narrow.move_to_uci(m, false);
        if !lw.iter().any(|&w| w == m) {
            failures.push("width move", format!("128-bit legal moves lack {m:?} ({text}): {}", trail.describe()));
            break;
        }
        record(cov, &narrow, m);
        trail.moves.push(text);
        narrow.play(m);
        wide.play(m);
    }
}

#[test]
fn random_playouts_keep_every_property() {
    let started = std::time::Instant::now();
    let mut failures = Failures::new();
    let mut total = Coverage::default();
    let mut wide_total = Coverage::default();
    let mut playouts = 0;
    for v in all_variants() {
        let mut rng = SplitMix64::new(name_seed(&v.name));
        let mut cov = Coverage::default();
        if fits_u64(v) {
            let starts = start_indices(v, &mut rng, PLAYOUTS_PER_VARIANT);
            for &index in &starts {
                playout::<u64>(v, index, &mut rng, &mut failures, &mut cov);
                playouts += 1;
            }
            for &index in starts.iter().take(WIDE_PLAYOUTS_PER_VARIANT) {
                wide_playout(v, index, &mut rng, &mut failures, &mut cov);
                playouts += 1;
            }
        } else {
            for index in start_indices(v, &mut rng, PLAYOUTS_PER_WIDE_VARIANT) {
                playout::<u128>(v, index, &mut rng, &mut failures, &mut cov);
                playouts += 1;
            }
        }
        let started_variant = started.elapsed();
        println!("{} ({} squares, {:?} so far): {cov:?}", v.name, v.geometry.squares(), started_variant);
        total.add(&cov);
        if !fits_u64(v) {
            wide_total.add(&cov);
        }
    }
    println!("{playouts} playouts in {:?}: {total:?}", started.elapsed());
    println!("of which on boards of more than 64 squares: {wide_total:?}");
    failures.assert_none("property");
    assert!(playouts >= 300, "only {playouts} playouts");
    // The playouts must reach the special moves, or the properties say little about them.
    assert!(total.castles > 0 && total.promotions > 0 && total.en_passant > 0 && total.drops > 0, "{total:?}");
    // The same on the 128-bit-only boards (none of them has drops).
    assert!(wide_total.plies > 0, "no variant needs 128-bit bitboards");
    assert!(
        wide_total.castles > 0 && wide_total.promotions > 0 && wide_total.en_passant > 0,
        "boards of more than 64 squares: {wide_total:?}"
    );
}

/// A few positions from playouts of a variant: the start and positions some plies in.
fn sample_positions<B: BitSet>(v: &'static Variant, seed: u64, playouts: usize) -> Vec<Position<B>> {
    let mut rng = SplitMix64::new(name_seed(&v.name) ^ seed);
    let mut failures = Failures::new();
    let mut cov = Coverage::default();
    let mut out = Vec::new();
    for index in start_indices(v, &mut rng, playouts) {
        let visited = playout::<B>(v, index, &mut rng, &mut failures, &mut cov);
        for ply in [0, 9, 24, 45] {
            if let Some(p) = visited.get(ply) {
                if p.has_legal_move() {
                    out.push(p.clone());
                }
            }
        }
    }
    out
}

#[test]
fn both_widths_give_equal_perft() {
    let mut failures = Failures::new();
    let mut checked = 0;
    let mut variants = 0;
    // Only boards that fit both widths can be compared.
    for v in all_variants().into_iter().filter(|v| fits_u64(v)) {
        variants += 1;
        for p in sample_positions::<u64>(v, 0x5eed_0001, 2) {
            let fen = p.to_fen();
            let wide = Position::from_fen(compiled::<u128>(v), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let narrow = Position::from_fen(compiled::<u64>(v), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let (a, b) = (perft(&narrow, 3), perft(&wide, 3));
            checked += 1;
            if a != b {
                failures.push(
                    "width perft",
                    format!("variant {}, FEN '{fen}': perft 3 is {a} with u64, {b} with u128", v.name),
                );
            }
        }
    }
    println!("{checked} positions of {variants} variants compared");
    assert!(variants >= 6, "only {variants} variants fit 64-bit bitboards");
    assert!(checked >= 24, "only {checked} positions");
    failures.assert_none("width");
}

/// The colour-mirrored FEN: ranks reversed, piece and hand letters change case, the other side
/// moves, castling letters change case (files are kept), the en passant rank is reflected.
fn mirror_fen(fen: &str, ranks: u8) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
            .collect()
    };
    let (board, hand) = match fields[0].find('[') {
        Some(i) => (&fields[0][..i], &fields[0][i..]),
        None => (fields[0], ""),
    };
    let mut rows: Vec<&str> = board.split('/').collect();
    rows.reverse();
    let placement = format!("{}{}", swap(&rows.join("/")), swap(hand));
    let side = if fields[1] == "w" { "b" } else { "w" };
    let castling = if fields[2] == "-" { "-".to_string() } else { swap(fields[2]) };
    let ep = if fields[3] == "-" {
        "-".to_string()
    } else {
        let (file, rank) = fields[3].split_at(1);
        let rank: u8 = rank.parse().unwrap_or_else(|_| panic!("bad ep in '{fen}'"));
        format!("{file}{}", ranks + 1 - rank)
    };
    format!("{placement} {side} {castling} {ep} {} {}", fields[4], fields[5])
}

/// Perft `depth` of sample positions of `v` and of their colour mirrors, with `B` bitboards; returns
/// the number of pairs compared.
fn mirror_check<B: BitSet>(v: &'static Variant, playouts: usize, depth: u32, failures: &mut Failures) -> usize {
    let mut checked = 0;
    let rules = compiled::<B>(v);
    for p in sample_positions::<B>(v, 0x5eed_0002, playouts) {
        let fen = p.to_fen();
        let mirrored = mirror_fen(&fen, v.geometry.ranks);
        let original = Position::from_fen(rules, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let flipped = match Position::from_fen(rules, &mirrored) {
            Ok(f) => f,
            Err(e) => {
                failures.push(
                    "mirror load",
                    format!("variant {}: mirror '{mirrored}' of '{fen}' does not load: {e}", v.name),
                );
                continue;
            }
        };
        let twice = mirror_fen(&flipped.to_fen(), v.geometry.ranks);
        match Position::from_fen(rules, &twice) {
            Ok(back) if back.to_fen() == fen && back.hash() == original.hash() => {}
            Ok(back) => failures
                .push("mirror twice", format!("variant {}: mirroring '{fen}' twice gives '{}'", v.name, back.to_fen())),
            Err(e) => failures.push(
                "mirror twice load",
                format!("variant {}: mirror '{twice}' of '{mirrored}' does not load: {e}", v.name),
            ),
        }
        let (a, b) = (perft(&original, depth), perft(&flipped, depth));
        checked += 1;
        if a != b {
            failures.push(
                "mirror perft",
                format!("variant {}: perft {depth} of '{fen}' is {a}, of its mirror '{mirrored}' {b}", v.name),
            );
        }
    }
    checked
}

#[test]
fn colour_mirrored_positions_give_equal_perft() {
    let mut failures = Failures::new();
    let mut checked = 0;
    let mut wide_checked = 0;
    let variants: Vec<&'static Variant> = all_variants();
    for v in variants {
        if COLOUR_ASYMMETRIC.contains(&v.name.as_str()) {
            continue;
        }
        if fits_u64(v) {
            // Orthodox chess gets the most positions; every other variant a few.
            let playouts = if v.name == "chess" { 6 } else { 2 };
            checked += mirror_check::<u64>(v, playouts, 3, &mut failures);
        } else {
            let n = mirror_check::<u128>(v, 2, 3, &mut failures);
            assert!(n >= 4, "variant {}: only {n} mirrored pairs", v.name);
            wide_checked += n;
        }
    }
    println!("{checked} mirrored pairs compared with 64-bit boards, {wide_checked} with 128-bit boards");
    assert!(checked >= 30, "only {checked} positions");
    assert!(wide_checked >= 8, "only {wide_checked} positions on boards of more than 64 squares");
    failures.assert_none("mirror");
}

#[test]
fn mirror_fen_helper_is_right() {
    assert_eq!(
        mirror_fen("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR[Cq] b KQk d3 0 3", 8),
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR[cQ] w kqK d6 0 3"
    );
}
