//! Start positions by index, following each variant's start rule (rules.md numbering): fixed
//! FEN lists, per-side array lists (Chess-9), Chess960 arrays with board/hand sets (VD) and
//! independent per-side arrays with tails (D-Chess). Also the pre-game setup operations that
//! change a start array: the D-Chess transposition and the Chess-9 relocations.
//!
//! Owns: `start_fen`, `random_index`, `transpositions`, `apply_transposition`, `relocations`,
//! `apply_relocation`, the FEN side-to-move field (`side_to_move`, `with_side_to_move`), a
//! FEN rank's squares (`rank_squares`), `StartError`.
//! Must not know: bitboards, move generation, search.

use crate::any::AnyPosition;
use crate::geometry::{Color, Geometry};
use crate::variant::CastlingRule;
use crate::variant::{SetupForms, StartRule, Substitution, TranspositionRule, Variant};
use crate::with_position;
use std::collections::BTreeSet;
use std::fmt;

/// Why a start position cannot be produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    IndexOutOfRange { index: u64, count: u64 },
    NoSuchRule(String),
    BadFen(String),
    IllegalSwap(String),
    IllegalRelocation(String),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::IndexOutOfRange { index, count } => {
                write!(f, "start index {index} out of range (0..{})", count.saturating_sub(1))
            }
            StartError::NoSuchRule(m) | StartError::BadFen(m) => f.write_str(m),
            StartError::IllegalSwap(m) => write!(f, "illegal transposition: {m}"),
            StartError::IllegalRelocation(m) => write!(f, "illegal relocation: {m}"),
        }
    }
}

impl std::error::Error for StartError {}

/// Knight placements among five empty squares, in Scharnagl order.
const KNIGHT_PAIRS: [(usize, usize); 10] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The Chess960 back rank of Scharnagl number `sp` (0..959), with the last three empty squares
/// filled by `tail` (`RKR` for Chess960).
pub fn scharnagl(sp: u32, tail: &str) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = sp as usize;
    rank[n % 4 * 2 + 1] = 'B';
    n /= 4;
    rank[n % 4 * 2] = 'B';
    n /= 4;
    let place = |rank: &mut [char; 8], nth: usize, c: char| {
        if let Some(i) = (0..8).filter(|&i| rank[i] == ' ').nth(nth) {
            rank[i] = c;
        }
    };
    place(&mut rank, n % 6, 'Q');
    n /= 6;
    let (a, b) = KNIGHT_PAIRS[n % 10];
    // Place the second knight first so that the first one's index is not shifted.
    place(&mut rank, b, 'N');
    place(&mut rank, a, 'N');
    let mut tail_chars = tail.chars();
    for c in rank.iter_mut() {
        if *c == ' ' {
            *c = tail_chars.next().unwrap_or('R');
        }
    }
    rank
}

/// Castling rights of a start array: `K`/`Q` where a castling-capable piece stands on that side
/// of the king (upper case for White's array, lower for Black's).
fn castling_field(v: &Variant, white: &str, black: &str) -> String {
    let mut out = String::new();
    let royal = v.pieces.iter().find(|p| p.royal).map(|p| p.letter);
    let castles = |c: char| v.pieces.iter().any(|p| p.letter == c && p.castling_rook);
    for (array, upper) in [(white, true), (black, false)] {
        let letters: Vec<char> = array.chars().map(|c| c.to_ascii_uppercase()).collect();
        let Some(king) = letters.iter().position(|&c| Some(c) == royal) else { continue };
        let sides = [
            ('K', letters[king + 1..].iter().any(|&c| castles(c))),
            ('Q', letters[..king].iter().any(|&c| castles(c))),
        ];
        for (side, present) in sides {
            if present {
                out.push(if upper { side } else { side.to_ascii_lowercase() });
            }
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

fn fill_template(v: &Variant, white: &str, black: &str, hand: &str) -> String {
    v.start_template
        .replace("{W}", &white.to_ascii_uppercase())
        .replace("{b}", &black.to_ascii_lowercase())
        .replace("{hand}", hand)
        .replace("{castling}", &castling_field(v, white, black))
}

/// Whether the variant castles to fixed files from start positions with the king on different
/// files: Chess960 castling, which GUIs and engines know as `fischerandom`, XBoard's
/// `-fischerCastling` or UCI_Chess960 (and then write king-takes-rook).
pub fn castles_as_chess960(variant: &'static Variant) -> bool {
    if !matches!(variant.castling, CastlingRule::Fixed { .. }) {
        return false;
    }
    let count = variant.start_count();
    // Sampling is enough: a shuffle moves the king within the first few hundred indices.
    let step = (count / 1000).max(1);
    let mut files = BTreeSet::new();
    let mut index = 0;
    while index < count && files.len() < 2 {
        if let Some(file) = start_fen(variant, index)
            .ok()
            .and_then(|fen| AnyPosition::from_fen(variant, &fen).ok())
            .and_then(|p| with_position!(&p, q => q.king(Color::White).map(|k| q.rules().geometry.file(k))))
        {
            files.insert(file);
        }
        index += step;
    }
    files.len() > 1
}

/// The start FEN of a variant by index.
pub fn start_fen(v: &Variant, index: u64) -> Result<String, StartError> {
    let count = v.start_count();
    if index >= count {
        return Err(StartError::IndexOutOfRange { index, count });
    }
    Ok(match &v.start {
        StartRule::Fens(list) => list[index as usize].clone(),
        StartRule::Arrays(arrays) => {
            let n = arrays.len() as u64;
            fill_template(v, &arrays[(index / n) as usize], &arrays[(index % n) as usize], "")
        }
        StartRule::MirroredArrays(arrays) => {
            let a = &arrays[index as usize];
            fill_template(v, a, a, "")
        }
        StartRule::Shuffle960Mirrored { sets } => {
            let sp = (index % 960) as u32;
            let mut array: String = scharnagl(sp, "RKR").iter().collect();
            let mut hand = String::new();
            if let Some(&(board, held)) = sets.get((index / 960) as usize) {
                array = array.replace('Q', &board.to_string());
                hand = format!("[{}{}]", held.to_ascii_uppercase(), held.to_ascii_lowercase());
            }
            fill_template(v, &array, &array, &hand)
        }
        StartRule::Shuffle960PerSide { tails } => {
            let per_side = 960 * tails.len() as u64;
            let side_array = |n: u64| -> String {
                let tail = &tails[(n / 960) as usize];
                scharnagl((n % 960) as u32, tail).iter().collect()
            };
            fill_template(v, &side_array(index / per_side), &side_array(index % per_side), "")
        }
        StartRule::Permutations(p) => {
            let array = &p.arrays(&v.pieces)[index as usize];
            fill_template(v, array, array, "")
        }
    })
}

/// A setup form of a variant's start positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// The variant's own start rule (for `rvc`, the 45 basic arrays).
    Basic,
    General,
    Restricted,
    Systematic,
    /// Systematic, with the duplicates replaced so that every index gives a distinct array.
    SystematicDedup,
}

impl std::str::FromStr for Form {
    type Err = StartError;
    fn from_str(s: &str) -> Result<Form, StartError> {
        Ok(match s {
            "basic" => Form::Basic,
            "general" => Form::General,
            "restricted" => Form::Restricted,
            "systematic" => Form::Systematic,
            "systematic-dedup" => Form::SystematicDedup,
            _ => {
                return Err(StartError::NoSuchRule(format!(
                    "unknown form '{s}' (basic, general, restricted, systematic, systematic-dedup)"
                )))
            }
        })
    }
}

/// A start position together with the variant it is played as.
#[derive(Clone, Debug)]
pub struct Start {
    pub variant: &'static Variant,
    pub fen: String,
}

/// How many start positions a form numbers.
pub fn form_count(v: &Variant, form: Form) -> Result<u64, StartError> {
    if form == Form::Basic {
        return Ok(v.start_count());
    }
    let f =
        v.forms.as_ref().ok_or_else(|| StartError::NoSuchRule(format!("{} has no extended setup forms", v.name)))?;
    let entries = v.start_count();
    Ok(match form {
        Form::Basic => entries,
        Form::General => f.general.iter().map(|c| c.len().max(1) as u64).product::<u64>() * entries,
        Form::Restricted => f.restricted.len() as u64 * entries,
        Form::Systematic | Form::SystematicDedup => (f.bases.len() * f.restricted.len()) as u64 * entries,
    })
}

/// The start position of a form by index.
pub fn start_in_form(v: &'static Variant, form: Form, index: u64) -> Result<Start, StartError> {
    let count = form_count(v, form)?;
    if index >= count {
        return Err(StartError::IndexOutOfRange { index, count });
    }
    if form == Form::Basic {
        return Ok(Start { variant: v, fen: start_fen(v, index)? });
    }
    let (Some(f), StartRule::MirroredArrays(entries)) = (v.forms.as_ref(), &v.start) else {
        return Err(StartError::NoSuchRule(format!("{} has no extended setup forms", v.name)));
    };
    let n = entries.len() as u64;
    let entry = &entries[(index % n) as usize];
    let rest = index / n;
    let (array, variant_name) = match form {
        Form::General => {
            let mut picks = Vec::new();
            let mut r = rest;
            for slot in (0..f.slots.len()).rev() {
                let choices = f.general[slot].len().max(1) as u64;
                if let Some(c) = f.general[slot].get((r % choices) as usize) {
                    picks.push((slot, c.clone()));
                }
                r /= choices;
            }
            picks.reverse();
            form_array(f, &f.bases[0], entry, &picks)
        }
        Form::Restricted => {
            let subs: Vec<Substitution> = f.restricted[rest as usize].iter().cloned().collect();
            form_array(f, &f.bases[0], entry, &subs)
        }
        Form::Systematic | Form::SystematicDedup => {
            let per_base = f.restricted.len() as u64;
            let (base, s) = ((rest / per_base) as usize, (rest % per_base) as usize);
            let subs: Vec<Substitution> = f.restricted[s].iter().cloned().collect();
            let (array, name) = form_array(f, &f.bases[base], entry, &subs);
            let duplicate = form == Form::SystematicDedup
                && (0..base).any(|b| {
                    f.restricted.iter().any(|r| {
                        let subs: Vec<Substitution> = r.iter().cloned().collect();
                        form_array(f, &f.bases[b], entry, &subs).0 == array
                    })
                });
            match (&f.dedup, duplicate) {
                (Some(d), true) => {
                    let mut subs = subs;
                    subs.push(d.clone());
                    form_array(f, &f.bases[base], entry, &subs)
                }
                _ => (array, name),
            }
        }
        Form::Basic => unreachable!("handled above"),
    };
    // A rule option (`rvc+promotion-a`) carries over to the variant a candidate asks for.
    let variant = match variant_name {
        Some(name) => {
            let full = match v.name.split_once('+') {
                Some((_, option)) => format!("{name}+{option}"),
                None => name,
            };
            crate::variant::by_name(&full).map_err(|e| StartError::NoSuchRule(e.to_string()))?
        }
        None => v,
    };
    Ok(Start { variant, fen: fill_template(variant, &array, &array, "") })
}

/// Build a form's array: the base with the entry's wing pieces on its `?` files, then the
/// substitutions (inverted where the base already holds the substitute), then the clash rule on
/// the wings. Returns the array and the variant a candidate asks for.
fn form_array(f: &SetupForms, base: &str, entry: &str, subs: &[Substitution]) -> (String, Option<String>) {
    let entry: Vec<char> = entry.chars().collect();
    let mut array: Vec<char> = base.chars().collect();
    let wings: Vec<usize> = (0..array.len()).filter(|&i| array[i] == '?').collect();
    for &i in &wings {
        array[i] = entry.get(i).copied().unwrap_or('?');
    }
    let mut introduced = Vec::new();
    let mut variant = None;
    for (slot, cand) in subs {
        let Some((orthodox, files)) = f.slots.get(*slot) else { continue };
        let holds_substitute = files.iter().all(|&x| array.get(x as usize) == Some(&cand.letter));
        let put = if holds_substitute { *orthodox } else { cand.letter };
        for &x in files {
            if let Some(c) = array.get_mut(x as usize) {
                *c = put;
            }
        }
        if !holds_substitute && put != *orthodox {
            introduced.push(put);
            if cand.variant.is_some() {
                variant = cand.variant.clone();
            }
        }
    }
    for p in introduced {
        if let Some(&(_, replacement)) = f.clash.iter().find(|(c, _)| *c == p) {
            for &i in &wings {
                if array[i] == p {
                    array[i] = replacement;
                }
            }
        }
    }
    (array.into_iter().collect(), variant)
}

/// A uniformly drawn index below `count` from a seed.
pub fn random_index(count: u64, seed: u64) -> u64 {
    crate::random::SplitMix64::new(seed).below(count)
}

/// One rank of a FEN's placement as one letter per square from file a, a space for an empty
/// square (runs of empty squares may have two digits on boards wider than nine files).
pub fn rank_squares(text: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once('/')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            let n: usize = digits.parse().unwrap_or(0);
            out.extend(std::iter::repeat_n(' ', n));
            digits.clear();
        }
        if c != '/' {
            out.push(c);
        }
    }
    out
}

/// The back rank of `color` in a FEN's placement, as letters from file a (upper case for White).
fn back_rank(g: Geometry, fen: &str, color: Color) -> Result<Vec<char>, StartError> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let board = placement.split('[').next().unwrap_or("");
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != g.ranks as usize {
        return Err(StartError::BadFen(format!("'{fen}' does not have {} ranks", g.ranks)));
    }
    let text = if color == Color::White { ranks[ranks.len() - 1] } else { ranks[0] };
    let out = rank_squares(text);
    if out.len() != g.files as usize {
        return Err(StartError::BadFen(format!("the {color} back rank '{text}' does not fill {} files", g.files)));
    }
    Ok(out)
}

fn replace_back_rank(g: Geometry, fen: &str, color: Color, rank: &[char]) -> String {
    let mut parts = fen.splitn(2, ' ');
    let placement = parts.next().unwrap_or("");
    let rest = parts.next().unwrap_or("");
    let (board, hand) = match placement.find('[') {
        Some(i) => (&placement[..i], &placement[i..]),
        None => (placement, ""),
    };
    let mut ranks: Vec<String> = board.split('/').map(str::to_string).collect();
    let mut text = String::new();
    let mut empty = 0;
    for &c in rank {
        if c == ' ' {
            empty += 1;
        } else {
            if empty > 0 {
                text.push_str(&empty.to_string());
                empty = 0;
            }
            text.push(c);
        }
    }
    if empty > 0 {
        text.push_str(&empty.to_string());
    }
    let i = if color == Color::White { g.ranks as usize - 1 } else { 0 };
    if i < ranks.len() {
        ranks[i] = text;
    }
    format!("{}{} {}", ranks.join("/"), hand, rest)
}

/// The side to move of a FEN: Black for `b`, White otherwise (a FEN without the field included).
pub fn side_to_move(fen: &str) -> Color {
    match fen.split_whitespace().nth(1) {
        Some("b") => Color::Black,
        _ => Color::White,
    }
}

/// A FEN with its side-to-move field set (added after a bare placement): how a pre-game gives
/// the first move to the side the coin toss decides.
pub fn with_side_to_move(fen: &str, color: Color) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    let letter = if color == Color::White { "w" } else { "b" };
    if fields.len() >= 2 {
        fields[1] = letter;
    } else {
        fields.push(letter);
    }
    fields.join(" ")
}

/// The legal D-Chess transpositions of a start FEN for the side to move (the first mover), as
/// square-pair tokens such as `b1g1`: two different pieces of the back rank, where a bishop may
/// only trade places with a piece on a square of its own colour.
pub fn transpositions(v: &Variant, fen: &str) -> Result<Vec<String>, StartError> {
    if v.transposition == TranspositionRule::None {
        return Err(StartError::NoSuchRule(format!("{} has no transposition", v.name)));
    }
    let g = v.geometry;
    let color = side_to_move(fen);
    let rank = back_rank(g, fen, color)?;
    let rank_no = if color == Color::White { 0 } else { g.ranks as i32 - 1 };
    let is_bishop = |c: char| c.eq_ignore_ascii_case(&'b');
    let mut out = Vec::new();
    for i in 0..rank.len() {
        for j in i + 1..rank.len() {
            let (a, b) = (rank[i], rank[j]);
            if a == ' ' || b == ' ' || a == b {
                continue;
            }
            let same_colour = (i + j) % 2 == 0;
            if (is_bishop(a) || is_bishop(b)) && !same_colour {
                continue;
            }
            let sq = |f: usize| g.square_name(g.square(f as i32, rank_no).unwrap_or(crate::geometry::Square(0)));
            out.push(format!("{}{}", sq(i), sq(j)));
        }
    }
    Ok(out)
}

/// Apply a D-Chess transposition token to a start FEN.
pub fn apply_transposition(v: &Variant, fen: &str, token: &str) -> Result<String, StartError> {
    let legal = transpositions(v, fen)?;
    let g = v.geometry;
    let (a, n) =
        g.parse_square_prefix(token).ok_or_else(|| StartError::IllegalSwap(format!("'{token}' is not two squares")))?;
    let b =
        g.parse_square(&token[n..]).ok_or_else(|| StartError::IllegalSwap(format!("'{token}' is not two squares")))?;
    let canonical = if a.0 <= b.0 {
        format!("{}{}", g.square_name(a), g.square_name(b))
    } else {
        format!("{}{}", g.square_name(b), g.square_name(a))
    };
    if !legal.contains(&canonical) {
        return Err(StartError::IllegalSwap(format!(
            "'{token}' (the first mover may swap two different back-rank pieces; bishops stay on opposite colours)"
        )));
    }
    let color = side_to_move(fen);
    let mut rank = back_rank(g, fen, color)?;
    rank.swap(g.file(a) as usize, g.file(b) as usize);
    Ok(replace_back_rank(g, fen, color, &rank))
}

/// The relocations a side may still make: (name, piece letter, bishop file).
pub fn relocations(v: &Variant, fen: &str, color: Color) -> Result<Vec<String>, StartError> {
    if v.relocation.is_empty() {
        return Err(StartError::NoSuchRule(format!("{} has no relocation", v.name)));
    }
    let g = v.geometry;
    let rank = back_rank(g, fen, color)?;
    let base: Vec<char> = match &v.start {
        StartRule::Arrays(a) if !a.is_empty() => a[0].chars().collect(),
        _ => return Err(StartError::NoSuchRule(format!("{} has no base array", v.name))),
    };
    let case = |c: char| if color == Color::White { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() };
    if rank.iter().zip(&base).any(|(&r, &b)| r != case(b)) {
        // Already relocated (or not a start array): nothing more is allowed.
        return Ok(vec!["none".to_string()]);
    }
    let mut out = vec!["none".to_string()];
    for &(kind, file) in &v.relocation {
        let bishop_there = rank.get(file as usize).is_some_and(|c| c.eq_ignore_ascii_case(&'b'));
        if bishop_there {
            out.push(v.pieces[kind].name.clone());
        }
    }
    Ok(out)
}

/// Apply a relocation (`king`, `queen` or `none`, by piece name or letter) for `color`.
pub fn apply_relocation(v: &Variant, fen: &str, color: Color, choice: &str) -> Result<String, StartError> {
    let allowed = relocations(v, fen, color)?;
    let name = v
        .relocation
        .iter()
        .map(|&(k, _)| &v.pieces[k])
        .find(|p| {
            p.name == choice || (choice.chars().count() == 1 && choice.eq_ignore_ascii_case(&p.letter.to_string()))
        })
        .map(|p| p.name.clone())
        .unwrap_or_else(|| choice.to_string());
    if !allowed.contains(&name) {
        return Err(StartError::IllegalRelocation(format!("'{choice}' for {color} (allowed: {})", allowed.join(", "))));
    }
    if name == "none" {
        return Ok(fen.to_string());
    }
    let g = v.geometry;
    let mut rank = back_rank(g, fen, color)?;
    let Some(&(kind, file)) = v.relocation.iter().find(|&&(k, _)| v.pieces[k].name == name) else {
        return Err(StartError::IllegalRelocation(choice.to_string()));
    };
    let letter = v.pieces[kind].letter;
    let from = rank
        .iter()
        .position(|c| c.eq_ignore_ascii_case(&letter))
        .ok_or_else(|| StartError::IllegalRelocation(format!("no {name} on the {color} back rank")))?;
    rank.swap(from, file as usize);
    Ok(replace_back_rank(g, fen, color, &rank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::by_name;

    #[test]
    fn scharnagl_known_values() {
        let s = |n| scharnagl(n, "RKR").iter().collect::<String>();
        assert_eq!(s(518), "RNBQKBNR");
        assert_eq!(s(0), "BBQNNRKR");
        assert_eq!(s(959), "RKRNNQBB");
        assert_eq!(scharnagl(518, "KRR").iter().collect::<String>(), "KNBQRBNR");
        assert_eq!(scharnagl(518, "RRK").iter().collect::<String>(), "RNBQRBNK");
    }

    #[test]
    fn dchess_arrays_are_2880_distinct_with_opposite_bishops() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..2880u32 {
            let tails = ["RKR", "KRR", "RRK"];
            let a = scharnagl(n % 960, tails[(n / 960) as usize]);
            let bishops: Vec<usize> = (0..8).filter(|&i| a[i] == 'B').collect();
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2);
            assert!(seen.insert(a));
        }
    }

    #[test]
    fn every_array_has_19_transpositions() {
        let v = by_name("dchess").unwrap();
        for index in [0u64, 1_491_840, 8_294_399, 3_388_813] {
            let fen = start_fen(v, index).unwrap();
            assert_eq!(transpositions(v, &fen).unwrap().len(), 19, "{fen}");
        }
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1";
        let swapped = apply_transposition(v, fen, "a8c8").unwrap();
        assert_eq!(swapped, "qbbnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
        assert!(apply_transposition(v, fen, "a8b8").is_err(), "bishops would share a colour");
        assert!(apply_transposition(v, fen, "d8e8").is_err(), "two knights");
        assert!(apply_transposition(v, fen, "a1c1").is_err(), "not the mover's rank");
    }

    #[test]
    fn chess9_relocations() {
        let v = by_name("chess9").unwrap();
        let fen = start_fen(v, 0).unwrap();
        let black = apply_relocation(v, &fen, Color::Black, "queen").unwrap();
        let both = apply_relocation(v, &black, Color::White, "king").unwrap();
        assert_eq!(both, "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1");
        assert_eq!(relocations(v, &both, Color::White).unwrap(), vec!["none"]);
        assert!(apply_relocation(v, &both, Color::White, "queen").is_err());
        assert!(apply_relocation(v, &fen, Color::White, "rook").is_err());
    }

    fn distinct(form: Form) -> (u64, usize) {
        let v = by_name("rvc").unwrap();
        let n = form_count(v, form).unwrap();
        let mut seen = std::collections::HashSet::new();
        for i in 0..n {
            let s = start_in_form(v, form, i).unwrap();
            if let Err(e) = crate::any::AnyPosition::from_fen(s.variant, &s.fen) {
                panic!("{form:?} {i}: {} is not a valid position: {e}", s.fen);
            }
            seen.insert((s.variant.name.clone(), s.fen));
        }
        (n, seen.len())
    }

    #[test]
    fn rvc_forms_have_the_published_counts() {
        assert_eq!(distinct(Form::Basic), (45, 45));
        assert_eq!(distinct(Form::Restricted), (675, 675));
        assert_eq!(distinct(Form::Systematic), (2025, 1935));
        assert_eq!(distinct(Form::SystematicDedup), (2025, 2025));
        assert_eq!(distinct(Form::General), (16200, 16200));
    }

    #[test]
    fn rvc_forms_follow_the_seed() {
        let v = by_name("rvc").unwrap();
        // Restricted 5 (Tigers replace Bishops) on entry 32 (RHTNBQKBNTYR): wing Tigers -> Vaos.
        let s = start_in_form(v, Form::Restricted, 5 * 45 + 31).unwrap();
        assert!(s.fen.ends_with("/RHVNTQKTNVYR w KQkq - 0 1"), "{}", s.fen);
        // The seed's own example: Cannons, Leo... base 3 with the same entry and Tigers.
        let s = start_in_form(v, Form::Systematic, (2 * 15 + 5) * 45 + 31).unwrap();
        assert!(s.fen.ends_with("/OHVNTLKTNVYO w KQkq - 0 1"), "{}", s.fen);
        // Princesses in the corners: no castling. Stars: an rvcstar game.
        let s = start_in_form(v, Form::Restricted, 8 * 45).unwrap();
        assert!(s.fen.ends_with("/IGCNBQKBNCGI w - - 0 1"), "{}", s.fen);
        let s = start_in_form(v, Form::Restricted, 13 * 45).unwrap();
        assert_eq!(s.variant.name, "rvcstar");
        // Base 2 with Archers replacing Knights is inverted: Knights replace Archers.
        let s = start_in_form(v, Form::Systematic, (15 + 12) * 45).unwrap();
        assert!(s.fen.ends_with("/RGCNSQKSNCGR w KQkq - 0 1"), "{}", s.fen);
        assert!(start_in_form(v, Form::General, 16200).is_err());
        assert!(start_in_form(by_name("chess").unwrap(), Form::General, 0).is_err());
    }

    #[test]
    fn index_out_of_range() {
        let v = by_name("displacement").unwrap();
        assert!(start_fen(v, 1).is_ok());
        assert_eq!(start_fen(v, 2), Err(StartError::IndexOutOfRange { index: 2, count: 2 }));
    }
}
