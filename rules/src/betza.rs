//! Betza notation: parse a piece's move description into a list of `Step`s, each a single vector
//! (in White's frame: `dy > 0` is forward) with how it travels and what it may do on arrival.
//!
//! Supported subset (the same strings go to XBoard's `piece` command):
//!
//! | text | meaning |
//! |---|---|
//! | `W F D N A H C Z G` | leapers (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) (3,1) (3,2) (3,3) |
//! | `(x,y)` | explicit leaper, e.g. `(1,4)` for the Giraffe (an extension of ours) |
//! | `K Q R B` | shorthands: `K` = `WF`, `Q` = `RB`, `R` = `WW`, `B` = `FF` |
//! | doubled atom, atom + digits | rider, unlimited (`NN`) or limited range (`R4`) |
//! | `m` / `c` | move only / capture only (default: both) |
//! | `p` | hopper over exactly one piece, then as a rider beyond it (cannon: `mRcpR`) |
//! | `g` | grasshopper: lands just beyond the first piece on the line |
//! | `f b l r v s` | direction filters (forward, backward, left, right, vertical, sideways); a forward or backward letter followed by a sideways one means both at once (`fl` = forward-left) |
//! | `[X?Y]` | bent rider: an `X` step that must land on an empty square, then an unlimited `Y` slide that continues away from the start (Griffin: `[F?R]`) |
//! | `O` | circular rider over king steps (Rhinoceros: 16 paths of 1-7 steps turning 45 degrees each) |
//!
//! Owns: `Step`, `Travel`, `Mode`, `BetzaError`, `parse`.
//! Must not know: boards, geometry, bitboards.

use std::fmt;

/// What a step may do at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Move to an empty square or capture.
    Both,
    /// Move to an empty square only.
    Move,
    /// Capture only.
    Capture,
}

impl Mode {
    /// Whether the mode allows moving to an empty square.
    pub fn moves(self) -> bool {
        matches!(self, Mode::Both | Mode::Move)
    }
    /// Whether the mode allows capturing.
    pub fn captures(self) -> bool {
        matches!(self, Mode::Both | Mode::Capture)
    }
}

/// How a step travels along its vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Travel {
    /// A single jump.
    Leap,
    /// Repeated steps over empty squares; `range` 0 = unlimited.
    Ride { range: u8 },
    /// Ride to a screen, jump it, then ride on beyond (cannon).
    Hop,
    /// Land just beyond the first piece on the line (grasshopper).
    Grasshop,
    /// One step of this vector onto an empty square, then an unlimited slide along each of the
    /// listed second-leg vectors (`legs`, indices into `Step::bent_legs`).
    Bent,
    /// Circular rider: this vector is the first king step of the path; `clockwise` gives the turn.
    Circle { clockwise: bool },
}

/// One vector of a piece's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub dx: i8,
    pub dy: i8,
    pub travel: Travel,
    pub mode: Mode,
    /// For `Travel::Bent`: the second-leg unit vectors (at most 2).
    pub bent_legs: [(i8, i8); 2],
    /// For `Travel::Bent`: how many entries of `bent_legs` are used.
    pub bent_leg_count: u8,
}

impl Step {
    fn simple(dx: i8, dy: i8, travel: Travel, mode: Mode) -> Step {
        Step { dx, dy, travel, mode, bent_legs: [(0, 0); 2], bent_leg_count: 0 }
    }
}

/// An error in a Betza string: the byte offset and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub text: String,
    pub offset: usize,
    pub reason: &'static str,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad Betza '{}' at offset {}: {}", self.text, self.offset, self.reason)
    }
}

impl std::error::Error for BetzaError {}

fn atom_vector(c: char) -> Option<(i8, i8)> {
    Some(match c {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// All symmetric images of the vector (a, b), without repeats.
fn symmetric_images(a: i8, b: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::with_capacity(8);
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let v = (x * sx, y * sy);
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}

/// Whether a vector passes the direction filters. `groups` holds strings of one or two letters.
fn passes(groups: &[String], v: (i8, i8)) -> bool {
    groups.is_empty() || groups.iter().any(|g| in_group(g, v))
}

/// Whether vector (dx, dy) passes one direction group: every letter of `g` holds (`f`orward,
/// `b`ackward, `l`eft, `r`ight; `v`ertical and `s`ideways, which for an oblique leap mean its
/// longer leg). The empty group passes every vector.
pub(crate) fn in_group(g: &str, (dx, dy): (i8, i8)) -> bool {
    let oblique = dx != 0 && dy != 0 && dx.abs() != dy.abs();
    g.chars().all(|c| match c {
        'f' => dy > 0,
        'b' => dy < 0,
        'l' => dx < 0,
        'r' => dx > 0,
        'v' => {
            if oblique {
                dy.abs() > dx.abs()
            } else {
                dx == 0
            }
        }
        's' => {
            if oblique {
                dx.abs() > dy.abs()
            } else {
                dy == 0
            }
        }
        _ => false,
    })
}

/// Parse a Betza string into its steps.
pub fn parse(text: &str) -> Result<Vec<Step>, BetzaError> {
    let err = |offset: usize, reason: &'static str| BetzaError { text: text.to_string(), offset, reason };
    let chars: Vec<char> = text.chars().collect();
    let mut steps = Vec::new();
    let mut i = 0;
    if chars.is_empty() {
        return Err(err(0, "empty move description"));
    }
    while i < chars.len() {
        let start = i;
        let mut mode = Mode::Both;
        let mut hop = false;
        let mut grass = false;
        let mut groups: Vec<String> = Vec::new();
        // Modifiers.
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            match chars[i] {
                'm' => mode = if mode == Mode::Capture { Mode::Both } else { Mode::Move },
                'c' => mode = if mode == Mode::Move { Mode::Both } else { Mode::Capture },
                'p' => hop = true,
                'g' => grass = true,
                'f' | 'b' => {
                    let mut g = chars[i].to_string();
                    if i + 1 < chars.len() && matches!(chars[i + 1], 'l' | 'r' | 's' | 'v') {
                        g.push(chars[i + 1]);
                        i += 1;
                    }
                    groups.push(g);
                }
                'l' | 'r' | 'v' | 's' => groups.push(chars[i].to_string()),
                _ => return Err(err(i, "unknown modifier")),
            }
            i += 1;
        }
        if i >= chars.len() {
            return Err(err(start, "modifiers without an atom"));
        }
        // Atom.
        let c = chars[i];
        let mut pieces: Vec<((i8, i8), bool)> = Vec::new(); // (vector, is_rider_by_shorthand)
        let mut bent: Option<((i8, i8), (i8, i8))> = None;
        let mut circle = false;
        match c {
            '(' => {
                let close = chars[i..].iter().position(|&x| x == ')').ok_or_else(|| err(i, "unclosed '('"))? + i;
                let inner: String = chars[i + 1..close].iter().collect();
                let mut parts = inner.split(',').map(|p| p.trim().parse::<i8>());
                let (a, b) = match (parts.next(), parts.next(), parts.next()) {
                    (Some(Ok(a)), Some(Ok(b)), None) if a >= 0 && b >= 0 && a + b > 0 && a <= 15 && b <= 15 => (a, b),
                    _ => return Err(err(i, "expected (x,y) with small non-negative numbers")),
                };
                pieces.push(((a, b), false));
                i = close + 1;
            }
            '[' => {
                // [X?Y]: bent rider.
                if chars.get(i + 2) != Some(&'?') || chars.get(i + 4) != Some(&']') {
                    return Err(err(i, "expected [X?Y]"));
                }
                let first = atom_vector(chars[i + 1]).ok_or_else(|| err(i + 1, "unknown atom"))?;
                // The second leg is a slide: R and B name the W and F directions.
                let second = match chars[i + 3] {
                    'R' => Some((1, 0)),
                    'B' => Some((1, 1)),
                    c => atom_vector(c),
                }
                .ok_or_else(|| err(i + 3, "unknown atom"))?;
                bent = Some((first, second));
                i += 5;
            }
            'O' => {
                circle = true;
                i += 1;
            }
            'K' => {
                pieces.push(((1, 0), false));
                pieces.push(((1, 1), false));
                i += 1;
            }
            'Q' => {
                pieces.push(((1, 0), true));
                pieces.push(((1, 1), true));
                i += 1;
            }
            'R' => {
                pieces.push(((1, 0), true));
                i += 1;
            }
            'B' => {
                pieces.push(((1, 1), true));
                i += 1;
            }
            _ => {
                let v = atom_vector(c).ok_or_else(|| err(i, "unknown atom"))?;
                pieces.push((v, false));
                i += 1;
            }
        }
        if let Some((first, second)) = bent {
            for (dx, dy) in symmetric_images(first.0, first.1) {
                if !passes(&groups, (dx, dy)) {
                    continue;
                }
                // Second-leg vectors that continue away from the start: both components keep the
                // sign of the first leg (a zero component of the second leg is free).
                let mut legs = [(0i8, 0i8); 2];
                let mut n = 0;
                for (ex, ey) in symmetric_images(second.0, second.1) {
                    let away = (ex == 0 || ex.signum() == dx.signum())
                        && (ey == 0 || ey.signum() == dy.signum())
                        && (ex, ey) != (dx, dy);
                    if away && n < 2 {
                        legs[n] = (ex, ey);
                        n += 1;
                    }
                }
                steps.push(Step { dx, dy, travel: Travel::Bent, mode, bent_legs: legs, bent_leg_count: n as u8 });
            }
            continue;
        }
        if circle {
            for (dx, dy) in symmetric_images(1, 0).into_iter().chain(symmetric_images(1, 1)) {
                for clockwise in [false, true] {
                    steps.push(Step::simple(dx, dy, Travel::Circle { clockwise }, mode));
                }
            }
            continue;
        }
        // Rider suffix: doubled atom letter or a range.
        let mut rider_range: Option<u8> = None;
        if pieces.len() == 1 && !pieces[0].1 && i < chars.len() && chars[i] == c && c != '(' {
            rider_range = Some(0);
            i += 1;
        } else if i < chars.len() && chars[i].is_ascii_digit() {
            let s = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: String = chars[s..i].iter().collect();
            rider_range = Some(n.parse::<u8>().map_err(|_| err(s, "bad range"))?);
        }
        for ((a, b), shorthand_rider) in pieces {
            let rides = shorthand_rider || rider_range.is_some();
            let range = rider_range.unwrap_or_default();
            let travel = if grass {
                Travel::Grasshop
            } else if hop {
                Travel::Hop
            } else if rides {
                if range == 1 {
                    Travel::Leap
                } else {
                    Travel::Ride { range }
                }
            } else {
                Travel::Leap
            };
            for v in symmetric_images(a, b) {
                if passes(&groups, v) {
                    steps.push(Step::simple(v.0, v.1, travel, mode));
                }
            }
        }
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str, travel: Travel, mode: Mode) -> usize {
        parse(text).unwrap().iter().filter(|s| s.travel == travel && s.mode == mode).count()
    }

    #[test]
    fn orthodox_pieces() {
        assert_eq!(parse("N").unwrap().len(), 8);
        assert_eq!(parse("K").unwrap().len(), 8);
        assert_eq!(count("Q", Travel::Ride { range: 0 }, Mode::Both), 8);
        assert_eq!(count("R", Travel::Ride { range: 0 }, Mode::Both), 4);
        assert_eq!(count("BN", Travel::Leap, Mode::Both), 8);
        assert_eq!(count("BN", Travel::Ride { range: 0 }, Mode::Both), 4);
    }

    #[test]
    fn pawn_and_divergent_pieces() {
        let pawn = parse("fmWfcF").unwrap();
        assert_eq!(pawn.len(), 3);
        assert!(pawn.contains(&Step::simple(0, 1, Travel::Leap, Mode::Move)));
        assert!(pawn.contains(&Step::simple(1, 1, Travel::Leap, Mode::Capture)));
        assert!(pawn.contains(&Step::simple(-1, 1, Travel::Leap, Mode::Capture)));
        assert_eq!(count("mBcN", Travel::Ride { range: 0 }, Mode::Move), 4);
        assert_eq!(count("mBcN", Travel::Leap, Mode::Capture), 8);
        assert_eq!(count("mRcpR", Travel::Hop, Mode::Capture), 4);
        assert_eq!(count("gQ", Travel::Grasshop, Mode::Both), 8);
        assert_eq!(count("(1,4)", Travel::Leap, Mode::Both), 8);
        assert_eq!(count("NN", Travel::Ride { range: 0 }, Mode::Both), 8);
        assert_eq!(count("R4", Travel::Ride { range: 4 }, Mode::Both), 4);
        assert_eq!(count("fsN", Travel::Leap, Mode::Both), 2);
    }

    #[test]
    fn bent_and_circular_riders() {
        let griffin = parse("[F?R]").unwrap();
        assert_eq!(griffin.len(), 4);
        for s in &griffin {
            assert_eq!(s.bent_leg_count, 2);
            for &(ex, ey) in &s.bent_legs {
                assert!((ex == 0) != (ey == 0));
                assert!(ex == 0 || ex == s.dx);
                assert!(ey == 0 || ey == s.dy);
            }
        }
        assert_eq!(parse("O").unwrap().len(), 16);
    }

    #[test]
    fn errors_name_the_offset() {
        assert_eq!(parse("").unwrap_err().offset, 0);
        assert_eq!(parse("mX").unwrap_err().offset, 1);
        assert_eq!(parse("fm").unwrap_err().reason, "modifiers without an atom");
        assert!(parse("(1,").is_err());
        assert!(parse("[F?").is_err());
        assert!(parse("xW").is_err());
    }
}
