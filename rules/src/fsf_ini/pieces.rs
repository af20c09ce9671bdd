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
    match menagerie_moves(&text) {
        Some(ours) if ours == theirs => Ok(text),
        Some(_) => Err(format!("'{fsf_betza}' means other moves to Menagerie's Betza reader")),
        None => Err(format!("'{fsf_betza}' is not Betza Menagerie reads")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_pieces_read_alike_where_taken() {
        for (name, b) in BUILTIN {
            let taken = menagerie_betza(b);
            match name {
                "pawn" | "horse" | "elephant" | "janggiElephant" | "banner" | "immobile" => {
                    assert!(taken.is_err(), "{name}")
                }
                _ => assert!(taken.is_ok(), "{name}: {taken:?}"),
            }
        }
        assert_eq!(fsf_moves("fsW").unwrap().len(), 6);
        assert_eq!(menagerie_betza("KN").unwrap(), "KN");
        assert!(menagerie_betza("mWfceF").is_err());
    }
}
