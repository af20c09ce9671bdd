//! Board geometry: colours, squares and their names on boards from 1x1 up to 16 files by 16 ranks
//! (at most 128 squares). Squares are numbered densely, row-major from a1: `rank * files + file`.
//!
//! Owns: `Color`, `Square`, `Geometry`, square names such as `a1`, `l8`, `a10`.
//! Must not know: pieces, bitboards, positions.

use std::fmt;

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// A colour from its name or FEN letter, in any case: `white`/`w`, `black`/`b`.
    pub fn from_name(text: &str) -> Option<Color> {
        match text.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => Some(Color::White),
            "black" | "b" => Some(Color::Black),
            _ => None,
        }
    }

    /// The FEN side-to-move letter.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// +1 for White (moves up the board), -1 for Black.
    #[inline]
    pub fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A square index in the dense row-major layout of some `Geometry`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The index as `usize`, for table lookups.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The largest number of squares any board may have (the width of a `u128`).
pub const MAX_SQUARES: usize = 128;
/// The largest number of files or ranks.
pub const MAX_SIDE: u8 = 16;

/// The shape of a board: files a.. from White's left, ranks 1.. from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    pub files: u8,
    pub ranks: u8,
}

impl Geometry {
    /// A geometry, if the board fits the limits (at most 16x16 and 128 squares).
    pub fn new(files: u8, ranks: u8) -> Option<Geometry> {
        let ok = (1..=MAX_SIDE).contains(&files)
            && (1..=MAX_SIDE).contains(&ranks)
            && files as usize * ranks as usize <= MAX_SQUARES;
        ok.then_some(Geometry { files, ranks })
    }

    /// Number of squares.
    #[inline]
    pub fn squares(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// The square at (file, rank), both 0-based, if it is on the board.
    #[inline]
    pub fn square(self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            None
        } else {
            Some(Square((rank * self.files as i32 + file) as u8))
        }
    }

    /// 0-based file of a square.
    #[inline]
    pub fn file(self, sq: Square) -> i32 {
        (sq.0 % self.files) as i32
    }

    /// 0-based rank of a square.
    #[inline]
    pub fn rank(self, sq: Square) -> i32 {
        (sq.0 / self.files) as i32
    }

    /// The square reached from `sq` by the vector (dx, dy), if on the board.
    #[inline]
    pub fn offset(self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        self.square(self.file(sq) + dx, self.rank(sq) + dy)
    }

    /// King-move distance between two squares (Chebyshev distance).
    #[inline]
    pub fn distance(self, a: Square, b: Square) -> i32 {
        (self.file(a) - self.file(b)).abs().max((self.rank(a) - self.rank(b)).abs())
    }

    /// The rank counted from `color`'s own side (0 = its first rank).
    #[inline]
    pub fn relative_rank(self, sq: Square, color: Color) -> i32 {
        match color {
            Color::White => self.rank(sq),
            Color::Black => self.ranks as i32 - 1 - self.rank(sq),
        }
    }

    /// The absolute rank index of `color`'s relative rank `r`.
    #[inline]
    pub fn absolute_rank(self, r: i32, color: Color) -> i32 {
        match color {
            Color::White => r,
            Color::Black => self.ranks as i32 - 1 - r,
        }
    }

    /// Every square of the board, a1 first.
    pub fn all_squares(self) -> impl Iterator<Item = Square> {
        (0..self.squares() as u8).map(Square)
    }

    /// The name of a square: file letter(s) then the 1-based rank (`a1`, `l8`, `a10`).
    pub fn square_name(self, sq: Square) -> String {
        let mut s = String::with_capacity(3);
        s.push(file_letter(self.file(sq)));
        s.push_str(&(self.rank(sq) + 1).to_string());
        s
    }

    /// Parse a square name that must be the whole of `text`.
    pub fn parse_square(self, text: &str) -> Option<Square> {
        match self.parse_square_prefix(text) {
            Some((sq, used)) if used == text.len() => Some(sq),
            _ => None,
        }
    }

    /// Parse a square name at the start of `text`: one file letter, then a 1-based rank of one or
    /// two digits. Returns the square and the number of bytes used. The rank is read greedily but
    /// only as far as it stays on the board, so `a10a9` reads `a10` on a 10-rank board and `a1`
    /// on an 8-rank one.
    pub fn parse_square_prefix(self, text: &str) -> Option<(Square, usize)> {
        let bytes = text.as_bytes();
        let file = *bytes.first()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let file = (file - b'a') as i32;
        let mut rank: i32 = 0;
        let mut used = 1;
        let mut best = None;
        while used < bytes.len() && bytes[used].is_ascii_digit() && used <= 2 {
            rank = rank * 10 + (bytes[used] - b'0') as i32;
            used += 1;
            if rank == 0 {
                return None;
            }
            if let Some(sq) = self.square(file, rank - 1) {
                best = Some((sq, used));
            }
        }
        best
    }
}

/// The letter of a 0-based file.
pub fn file_letter(file: i32) -> char {
    (b'a' + file as u8) as char
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_wide_and_tall_boards() {
        for (files, ranks) in [(8, 8), (12, 8), (10, 10), (12, 10)] {
            let g = Geometry::new(files, ranks).unwrap();
            for sq in g.all_squares() {
                let name = g.square_name(sq);
                assert_eq!(g.parse_square(&name), Some(sq), "{name} on {files}x{ranks}");
            }
        }
        let g = Geometry::new(12, 10).unwrap();
        assert_eq!(g.square_name(g.square(11, 7).unwrap()), "l8");
        assert_eq!(g.square_name(g.square(0, 9).unwrap()), "a10");
        assert_eq!(g.parse_square_prefix("a10a9"), Some((g.square(0, 9).unwrap(), 3)));
        let g8 = Geometry::new(8, 8).unwrap();
        assert_eq!(g8.parse_square("i1"), None);
        assert_eq!(g8.parse_square("a9"), None);
        assert_eq!(g8.parse_square("a0"), None);
        assert_eq!(g8.parse_square("A1"), None);
    }

    #[test]
    fn geometry_limits() {
        assert!(Geometry::new(12, 10).is_some());
        assert!(Geometry::new(16, 8).is_some());
        assert!(Geometry::new(16, 9).is_none());
        assert!(Geometry::new(0, 8).is_none());
    }
}
