//! Magic bitboards for rook and bishop lines on boards of at most 64 squares, for any geometry:
//! the relevant blockers of a square, multiplied by a magic number and shifted, index a table of
//! attack sets. Magic numbers are searched when a variant is compiled, with a fixed-seed
//! generator, so every run builds the same tables.
//!
//! Owns: `Magics`.
//! Must not know: pieces, positions.

use crate::bitboard::BitSet;
use crate::geometry::{Geometry, Square};
use crate::random::SplitMix64;

/// Magic numbers this module's search finds for the 8x8 board (rook, then bishop lines),
/// kept so that orthodox-sized variants start instantly; other boards search at load time.
const ROOK_8X8: [u64; 64] = [
    0x0080001880204002,
    0xc040200010004000,
    0x0880081000812002,
    0x2080080004801000,
    0x6600100804020020,
    0x0b00240001000248,
    0x0c80420001000080,
    0x8280014221001480,
    0x0102002042088100,
    0x0002004021008a00,
    0x0000808020001000,
    0x1162000810204200,
    0x8000808008000400,
    0x0210800400020080,
    0x0004002801524410,
    0x0042000082004401,
    0x00124100210c8001,
    0x141000c000402000,
    0x8000808010002001,
    0x0320090010002100,
    0x0008004004020040,
    0x0014004002010040,
    0x2040040010814218,
    0x0020020001047084,
    0x2020400080002090,
    0x0842010200408021,
    0xc040200100110040,
    0x0190040040400800,
    0x0028440180280080,
    0x0a02040080800200,
    0x000030040001c208,
    0x000080aa00110044,
    0x00c0400024800080,
    0x3800400084802010,
    0x002e402001001108,
    0x0210040040400800,
    0x2140100801000500,
    0x0092008002801400,
    0x0009000405000600,
    0x6001000441002882,
    0x0480400020928002,
    0x0220100040004020,
    0x52d0008020008019,
    0x0002001040220008,
    0x4818000402004040,
    0x0002001008020004,
    0x2000012230040088,
    0x1048208044020001,
    0x0460208000400080,
    0x0521400439810100,
    0x4820048020100480,
    0x1002882110050100,
    0x0024080004008080,
    0x0002000400800280,
    0x040001421008a400,
    0x0000010400804200,
    0x0880028040122101,
    0x604100801220400b,
    0x008040100a008022,
    0x0004200810000501,
    0x0121000402100801,
    0x0001000a08040003,
    0x0042000c03086082,
    0x003c004024010882,
];

const BISHOP_8X8: [u64; 64] = [
    0x0008021002002500,
    0x0104280084008060,
    0x0018062242084010,
    0x8051040080004000,
    0x0802021001480014,
    0x8902020a20821300,
    0x0190c60804420004,
    0x0400202410041001,
    0xa001088a08080100,
    0x0014201c09004301,
    0x004004840410c100,
    0x0100840502006100,
    0x0000040420050208,
    0x8601009004210040,
    0x0000450802100c02,
    0x0009024304109a0a,
    0x0040006018010134,
    0x0010502001490500,
    0x0086025002aa0860,
    0x2c08023082004300,
    0x0014010084a00104,
    0x2010802840602000,
    0x01a100004c022004,
    0x0000801602048240,
    0x0090980004600420,
    0x0008080004308080,
    0x0008820410040012,
    0x00020400a0110020,
    0x0208848144002008,
    0x0808008003100080,
    0x1902020904010300,
    0x00004604b0410400,
    0x002120201008084c,
    0x0201084285881040,
    0x0404020200010410,
    0x2210110802040040,
    0xa2c4008400820500,
    0x0020040100002088,
    0x2008080500004100,
    0x1341810100120080,
    0x8041054840002022,
    0x0003414410002008,
    0x0216220022025011,
    0x20810a0124000202,
    0x0280a40104000210,
    0x14100d1000880901,
    0x0004180204220141,
    0x9102280600810020,
    0x0002082384100000,
    0x8014a08824102000,
    0x02c001008804000c,
    0x220000004202080c,
    0x0042411405040000,
    0x0000500a50010020,
    0x8018200402821080,
    0x0012424801031001,
    0x040200c212052004,
    0x4000808488180200,
    0x0400000211040900,
    0x80090a6902104400,
    0x8208000140028201,
    0x0001404088030510,
    0x0080102002040060,
    0x8a20081221840414,
];

/// One square's entry.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// Magic lookup tables for one family of lines (rook or bishop) on one geometry.
#[derive(Clone, Debug)]
pub struct Magics<B> {
    entries: Vec<Entry>,
    table: Vec<B>,
}

fn line_attacks(g: Geometry, sq: Square, dirs: &[(i32, i32)], occ: u64) -> u64 {
    let mut a = 0u64;
    for &(dx, dy) in dirs {
        let mut cur = sq;
        while let Some(n) = g.offset(cur, dx, dy) {
            a |= 1 << n.0;
            if occ & (1 << n.0) != 0 {
                break;
            }
            cur = n;
        }
    }
    a
}

/// Blockers that matter: every square of the lines except the last one in each direction.
fn relevant_mask(g: Geometry, sq: Square, dirs: &[(i32, i32)]) -> u64 {
    let mut m = 0u64;
    for &(dx, dy) in dirs {
        let mut cur = sq;
        while let Some(n) = g.offset(cur, dx, dy) {
            if g.offset(n, dx, dy).is_some() {
                m |= 1 << n.0;
            }
            cur = n;
        }
    }
    m
}

impl<B: BitSet> Magics<B> {
    /// Tables for rook lines on `g` (at most 64 squares).
    pub fn rook(g: Geometry) -> Magics<B> {
        let known = (g.files == 8 && g.ranks == 8).then_some(&ROOK_8X8[..]);
        Magics::new(g, &[(1, 0), (-1, 0), (0, 1), (0, -1)], known)
    }

    /// Tables for bishop lines on `g` (at most 64 squares).
    pub fn bishop(g: Geometry) -> Magics<B> {
        let known = (g.files == 8 && g.ranks == 8).then_some(&BISHOP_8X8[..]);
        Magics::new(g, &[(1, 1), (-1, 1), (1, -1), (-1, -1)], known)
    }

    /// Build tables for the line directions `dirs` on `g` (at most 64 squares), trying the
    /// `known` magic of each square first.
    fn new(g: Geometry, dirs: &[(i32, i32)], known: Option<&[u64]>) -> Magics<B> {
        let mut rng = SplitMix64::new(0x6d61_6769_6373_2121);
        let mut rand = move || rng.next_u64();
        let mut entries = Vec::with_capacity(g.squares());
        let mut table = Vec::new();
        for sq in g.all_squares() {
            let mask = relevant_mask(g, sq, dirs);
            let bits = mask.count_ones();
            // Every subset of the mask, with its attack set.
            let mut occs = Vec::with_capacity(1 << bits);
            let mut sub = 0u64;
            loop {
                occs.push((sub, line_attacks(g, sq, dirs, sub)));
                sub = sub.wrapping_sub(mask) & mask;
                if sub == 0 {
                    break;
                }
            }
            let shift = 64 - bits.max(1);
            let size = 1usize << bits.max(1);
            // A slot is filled in the current trial iff its epoch equals the trial number, so
            // nothing needs clearing between trials.
            let mut slots: Vec<(u32, u64)> = vec![(0, 0); size];
            let mut trial = 0u32;
            let mut first = known.and_then(|k| k.get(sq.index()).copied());
            let magic = loop {
                let candidate = first.take().unwrap_or_else(|| rand() & rand() & rand());
                if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 && bits > 6 {
                    continue;
                }
                trial += 1;
                let ok = occs.iter().all(|&(occ, att)| {
                    let i = (occ.wrapping_mul(candidate) >> shift) as usize;
                    if slots[i].0 != trial {
                        slots[i] = (trial, att);
                        true
                    } else {
                        slots[i].1 == att
                    }
                });
                if ok {
                    break candidate;
                }
            };
            let offset = table.len() as u32;
            table.extend(slots.iter().map(|&(t, a)| B::from_low_u64(if t == trial { a } else { 0 })));
            entries.push(Entry { mask, magic, shift, offset });
        }
        Magics { entries, table }
    }

    /// Attacks along the lines from `sq` with occupancy `occ`.
    #[inline]
    pub fn attacks(&self, sq: Square, occ: B) -> B {
        let e = &self.entries[sq.index()];
        let i = ((occ.low_u64() & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
        self.table[e.offset as usize + i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_agree_with_walking_the_lines() {
        for (files, ranks) in [(8, 8), (6, 6), (10, 6)] {
            let g = Geometry::new(files, ranks).unwrap();
            let rook = [(1, 0), (-1, 0), (0, 1), (0, -1)];
            let m = Magics::<u64>::new(g, &rook, None);
            let known = Magics::<u64>::rook(g);
            let mut x: u64 = 12345;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let occ = x & x.rotate_left(7) & ((1u128 << g.squares()) - 1) as u64;
                for sq in g.all_squares() {
                    assert_eq!(m.attacks(sq, occ), line_attacks(g, sq, &rook, occ));
                    assert_eq!(known.attacks(sq, occ), line_attacks(g, sq, &rook, occ));
                }
            }
        }
    }
}
