//! Fairy-Stockfish's pieces: its built-in piece types in its own order (the order in which it
//! reads their keys, which decides who keeps a letter given twice), their Betza, and its reading
//! of Betza, so that a piece is taken only where Menagerie's reading gives the same moves.
//!
//! Owns: `PIECE_TYPES`, `PAWN`, `KING`, `custom`, `fsf_moves`, `menagerie_betza`.
//! Must not know: variant files, positions.

use crate::betza::{self, Mode, Travel};
use std::collections::BTreeSet;

/// Fairy-Stockfish's built-in piece types in its enum order: (key, Betza).
pub const BUILTIN: [(&str, &str); 36] = [
    ("pawn", "fmWfceF"),
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

/// Custom piece slots (`customPiece1` .. `customPiece25`).
pub const CUSTOM_SLOTS: usize = 25;

/// Index of the pawn, the only type with double steps and en passant by default.
pub const PAWN: usize = 0;
/// Index of the king (after the custom slots, as in Fairy-Stockfish).
pub const KING: usize = BUILTIN.len() + CUSTOM_SLOTS;
/// Number of piece types.
pub const TYPES: usize = KING + 1;

/// Built-in types whose rules Fairy-Stockfish writes in code beyond their Betza, with why
/// Menagerie does not take them.
pub const SPECIAL_RULES: [(usize, &str); 1] =
    [(27, "the Janggi cannon's rules (it never hops over nor captures a cannon) are not supported")];

/// Index of a custom slot (1-based number).
pub fn custom(n: usize) -> usize {
    BUILTIN.len() + n - 1
}

/// The key that names piece type `t` in a section.
pub fn key_of(t: usize) -> String {
    if t < BUILTIN.len() {
        BUILTIN[t].0.to_string()
    } else if t == KING {
        "king".into()
    } else {
        format!("customPiece{}", t - BUILTIN.len() + 1)
    }
}

/// One move of a piece as both engines can compare it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Leap,
    /// Range 0 = unlimited.
    Ride(u8),
    Hop,
    Grasshop,
}

/// (kind, dx, dy, captures) in White's frame; `captures` false = a quiet move.
pub type MoveAtom = (Kind, i8, i8, bool);

/// Why a Betza string is not taken.
pub type BetzaRefusal = String;

/// Fairy-Stockfish's reading of `betza` (its `from_betza`), refusing what Menagerie cannot
/// play: lame leapers (`n`), initial moves (`i`), en passant flags (`e`), riders and hoppers
/// outside the lines Fairy-Stockfish supports them on, and any character it would silently skip.
pub fn fsf_moves(betza: &str) -> Result<BTreeSet<MoveAtom>, BetzaRefusal> {
    let leaper = |c: char| -> Option<Vec<(i8, i8)>> {
        Some(match c {
            'W' => vec![(1, 0)],
            'F' => vec![(1, 1)],
            'D' => vec![(2, 0)],
            'N' => vec![(2, 1)],
            'A' => vec![(2, 2)],
            'H' => vec![(3, 0)],
            'L' | 'C' => vec![(3, 1)],
            'J' | 'Z' => vec![(3, 2)],
            'G' => vec![(3, 3)],
            'K' => vec![(1, 0), (1, 1)],
            _ => return None,
        })
    };
    let rider = |c: char| -> Option<Vec<(i8, i8)>> {
        Some(match c {
            'R' => vec![(1, 0)],
            'B' => vec![(1, 1)],
            'Q' => vec![(1, 0), (1, 1)],
            _ => return None,
        })
    };
    const VERTICALS: &str = "fbvh";
    const HORIZONTALS: &str = "rlsh";
    let chars: Vec<char> = betza.chars().collect();
    let mut out = BTreeSet::new();
    let mut modalities: Vec<bool> = Vec::new();
    let mut hopper = false;
    let mut distance: i32 = 0;
    let mut dirs: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' | 'c' => modalities.push(c == 'c'),
            'p' | 'g' => {
                hopper = true;
                if c == 'g' {
                    distance = 1;
                }
            }
            'n' => return Err(format!("'{betza}': lame leapers (n) are not supported")),
            'i' => return Err(format!("'{betza}': initial-move-only moves (i) are not supported")),
            'e' => return Err(format!("'{betza}': en passant captures (e) by this piece are not supported")),
            _ if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                if let Some(&c2) = chars.get(i + 1) {
                    if c2 == c
                        || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                        || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
                    {
                        dirs.push([c, c2].iter().collect());
                        i += 2;
                        continue;
                    }
                }
                dirs.push([c, c].iter().collect());
            }
            _ => {
                let (atoms, mut is_rider) = match (rider(c), leaper(c)) {
                    (Some(a), _) => (a, true),
                    (None, Some(a)) => (a, false),
                    _ => return Err(format!("'{betza}': '{c}' is not read by Fairy-Stockfish")),
                };
                if let Some(&next) = chars.get(i + 1) {
                    if next.is_ascii_digit() || next == c {
                        is_rider = true;
                        if let Some(d) = next.to_digit(10) {
                            distance = d as i32;
                        }
                        i += 1;
                    }
                }
                let line_piece = atoms.iter().all(|&(a, b)| b == 0 || a == b);
                if hopper && !line_piece {
                    return Err(format!("'{betza}': hoppers move on ranks, files and diagonals only"));
                }
                if is_rider && !atoms.iter().all(|&(a, b)| b == 0 || a == b || (a, b) == (2, 1)) {
                    return Err(format!("'{betza}': riders move on W, F and N lines only"));
                }
                if modalities.is_empty() {
                    modalities = vec![false, true];
                }
                let kind = if hopper {
                    match distance {
                        0 => Kind::Hop,
                        1 => Kind::Grasshop,
                        _ => return Err(format!("'{betza}': limited hoppers are not supported")),
                    }
                } else if is_rider {
                    Kind::Ride(distance as u8)
                } else {
                    Kind::Leap
                };
                for &(a, b) in &atoms {
                    let mut split: Vec<String> = Vec::new();
                    for s in &dirs {
                        let s: Vec<char> = s.chars().collect();
                        if atoms.len() == 1 && b == 0 && s[0] != s[1] {
                            split.push([s[0], s[0]].iter().collect());
                            split.push([s[1], s[1]].iter().collect());
                        } else {
                            split.push(s.iter().collect());
                        }
                    }
                    let any = |list: &[&str]| split.is_empty() || list.iter().any(|d| split.iter().any(|s| s == d));
                    // (dx, dy) per Fairy-Stockfish's eight cases, with a = forward part, b = side.
                    let cases: [(&[&str], (i8, i8)); 8] = [
                        (&["ff", "vv", "rf", "rv", "fh", "rh", "hr"], (b, a)),
                        (&["bb", "vv", "lb", "lv", "bh", "lh", "hr"], (-b, -a)),
                        (&["rr", "ss", "br", "bs", "bh", "rh", "hr"], (a, -b)),
                        (&["ll", "ss", "fl", "fs", "fh", "lh", "hr"], (-a, b)),
                        (&["rr", "ss", "fr", "fs", "fh", "rh", "hl"], (a, b)),
                        (&["ll", "ss", "bl", "bs", "bh", "lh", "hl"], (-a, -b)),
                        (&["bb", "vv", "rb", "rv", "bh", "rh", "hl"], (b, -a)),
                        (&["ff", "vv", "lf", "lv", "fh", "lh", "hl"], (-b, a)),
                    ];
                    for &captures in &modalities {
                        for (names, (dx, dy)) in cases {
                            if any(names) {
                                out.insert((kind, dx, dy, captures));
                            }
                        }
                    }
                }
                modalities.clear();
                dirs.clear();
                hopper = false;
                distance = 0;
            }
        }
        i += 1;
    }
    Ok(out)
}

/// Menagerie's reading of `betza`, in the same terms; `None` where it has moves Fairy-Stockfish
/// has no word for (bent and circular riders).
pub fn menagerie_moves(betza: &str) -> Option<BTreeSet<MoveAtom>> {
    let steps = betza::parse(betza).ok()?;
    let mut out = BTreeSet::new();
    for s in steps {
        let kind = match s.travel {
            Travel::Leap => Kind::Leap,
            Travel::Ride { range } => Kind::Ride(range),
            Travel::Hop => Kind::Hop,
            Travel::Grasshop => Kind::Grasshop,
            Travel::Bent | Travel::Circle { .. } => return None,
        };
        // A range-1 ride is a leap in both engines.
        let kind = if kind == Kind::Ride(1) { Kind::Leap } else { kind };
        if s.mode != Mode::Capture {
            out.insert((kind, s.dx, s.dy, false));
        }
        if s.mode != Mode::Move {
            out.insert((kind, s.dx, s.dy, true));
        }
    }
    Some(out)
}

/// The Menagerie Betza for a Fairy-Stockfish piece: the same text with Fairy-Stockfish's other
/// atom letters (`L` camel, `J` zebra) in Menagerie's (`C`, `Z`), taken only if both engines
/// then read the same moves.
pub fn menagerie_betza(fsf_betza: &str) -> Result<String, BetzaRefusal> {
    if fsf_betza.trim().is_empty() {
        return Err("a piece without moves is not supported".into());
    }
    let mut theirs = fsf_moves(fsf_betza)?;
    // Fairy-Stockfish treats a range-1 ride as a leap of the same vector.
    theirs =
        theirs.into_iter().map(|(k, dx, dy, c)| (if k == Kind::Ride(1) { Kind::Leap } else { k }, dx, dy, c)).collect();
    let text: String = fsf_betza
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            'L' => 'C',
            'J' => 'Z',
            c => c,
        })
        .collect();
    if menagerie_moves(&text).as_ref() == Some(&theirs) {
        return Ok(text);
    }
    // Written move by move in the direction groups Menagerie reads (FSF's `fsW` is Menagerie's
    // `fWsW`), where such groups cover exactly Fairy-Stockfish's moves.
    match synthesize(&theirs) {
        Some(text) if menagerie_moves(&text).as_ref() == Some(&theirs) => Ok(text),
        _ => Err(format!("'{fsf_betza}' has moves Menagerie's Betza cannot write")),
    }
}

/// Menagerie's direction groups.
const GROUPS: [&str; 15] = ["", "f", "b", "l", "r", "v", "s", "fl", "fr", "bl", "br", "fv", "fs", "bv", "bs"];

/// Menagerie Betza for a move set: per kind, atom and what the moves may do, the direction
/// groups that together give exactly its vectors; `None` where no groups do.
fn synthesize(moves: &BTreeSet<MoveAtom>) -> Option<String> {
    use std::collections::BTreeMap;
    // (kind, vector) -> [quiet, capture]; then classes by mode: 0 both, 1 quiet only, 2 capture.
    let mut by_vector: BTreeMap<(Kind, i8, i8), [bool; 2]> = BTreeMap::new();
    for &(k, dx, dy, c) in moves {
        by_vector.entry((k, dx, dy)).or_default()[c as usize] = true;
    }
    // (kind, atom, mode) -> the vectors of that class.
    type Class = (Kind, (i8, i8), u8);
    let mut classes: BTreeMap<Class, Vec<(i8, i8)>> = BTreeMap::new();
    for ((k, dx, dy), [q, c]) in by_vector {
        let (a, b) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
        let mode = match (q, c) {
            (true, true) => 0,
            (true, false) => 1,
            _ => 2,
        };
        classes.entry((k, (a, b), mode)).or_default().push((dx, dy));
    }
    let mut text = String::new();
    for ((kind, (a, b), mode), vectors) in classes {
        let images: Vec<(i8, i8)> = [(a, b), (b, a)]
            .iter()
            .flat_map(|&(x, y)| [(x, y), (-x, y), (x, -y), (-x, -y)])
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let wanted: BTreeSet<(i8, i8)> = vectors.into_iter().collect();
        let set_of = |g: &str| -> BTreeSet<(i8, i8)> {
            images.iter().copied().filter(|&v| crate::betza::in_group(g, v)).collect()
        };
        let mut chosen: Vec<&str> =
            GROUPS.iter().copied().filter(|g| !set_of(g).is_empty() && set_of(g).is_subset(&wanted)).collect();
        let covered: BTreeSet<(i8, i8)> = chosen.iter().flat_map(|g| set_of(g)).collect();
        if covered != wanted {
            return None;
        }
        // Drop a group another chosen group contains.
        let all = chosen.clone();
        chosen.retain(|g| {
            !all.iter()
                .any(|h| h != g && set_of(g).is_subset(&set_of(h)) && (set_of(g) != set_of(h) || h.len() < g.len()))
        });
        let atom = match ((a, b), kind) {
            ((1, 0), Kind::Ride(0)) => "R".to_string(),
            ((1, 1), Kind::Ride(0)) => "B".to_string(),
            ((1, 0), Kind::Hop | Kind::Grasshop) => "R".to_string(),
            ((1, 1), Kind::Hop | Kind::Grasshop) => "B".to_string(),
            (_, Kind::Hop | Kind::Grasshop) => return None,
            ((a, b), k) => {
                let letter = match (a, b) {
                    (1, 0) => 'W',
                    (1, 1) => 'F',
                    (2, 0) => 'D',
                    (2, 1) => 'N',
                    (2, 2) => 'A',
                    (3, 0) => 'H',
                    (3, 1) => 'C',
                    (3, 2) => 'Z',
                    (3, 3) => 'G',
                    _ => return None,
                };
                match k {
                    Kind::Leap => letter.to_string(),
                    Kind::Ride(0) => format!("{letter}{letter}"),
                    Kind::Ride(n) => format!("{letter}{n}"),
                    _ => return None,
                }
            }
        };
        let prefix = match (mode, kind) {
            (_, Kind::Hop) => ["", "m", "c"][mode as usize].to_string() + "p",
            (_, Kind::Grasshop) => ["", "m", "c"][mode as usize].to_string() + "g",
            _ => ["", "m", "c"][mode as usize].to_string(),
        };
        for g in chosen {
            text.push_str(&format!("{prefix}{g}{atom}"));
        }
    }
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_pieces_read_alike_where_taken() {
        for (t, (name, b)) in BUILTIN.iter().enumerate() {
            let taken =
                if SPECIAL_RULES.iter().any(|(s, _)| *s == t) { Err(String::new()) } else { menagerie_betza(b) };
            match *name {
                "pawn" | "horse" | "elephant" | "janggiElephant" | "banner" | "immobile" | "janggiCannon" => {
                    assert!(taken.is_err(), "{name}")
                }
                _ => assert!(taken.is_ok(), "{name}: {taken:?}"),
            }
        }
        assert_eq!(fsf_moves("fsW").unwrap().len(), 6);
        assert_eq!(menagerie_betza("KN").unwrap(), "KN");
        assert!(menagerie_betza("mWfceF").is_err());
        assert_eq!(menagerie_betza("fsW").unwrap(), "fWsW");
        assert_eq!(menagerie_betza("fN").unwrap(), "fvN");
        assert_eq!(menagerie_betza("mfWcfF").unwrap(), "mfWcfF");
        assert!(menagerie_betza("ffN").is_ok() && menagerie_betza("nN").is_err());
    }
}
