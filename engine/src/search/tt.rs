//! The transposition table: a fixed array of two-word entries (`AtomicU64` key and data), shared
//! by every search thread without locks. The key word is stored XORed with the data word, so a
//! torn entry (written by two threads at once) fails verification instead of yielding a foreign
//! move or score; moves read from the table are still checked against the generated moves.
//!
//! The slots are allocated as zeroed memory (an all-zero slot is an empty entry), so the kernel
//! maps a page only when a search first writes it: a large `Hash` costs no time until used, and
//! a size the machine cannot provide is an error for the caller, never an abort.
//!
//! Owns: `TranspositionTable`, `TableEntry`, `Bound`, `TableSizeError`.
//! Must not know: positions, move generation, notation, protocols.

use super::score::Score;
use menagerie_rules::moves::Move;
use std::alloc::{self, Layout};
use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// An upper bound (the search failed low).
    Upper = 1,
    /// A lower bound (the search failed high).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// One decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableEntry {
    pub best: Move,
    /// Node-relative score (see `score::to_table`).
    pub score: Score,
    pub depth: i32,
    pub bound: Bound,
}

struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// The shared table. Its size is fixed at creation; another size is another table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

const BYTES_PER_SLOT: usize = std::mem::size_of::<Slot>();

/// A table of the size asked for cannot be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableSizeError {
    pub mb: usize,
}

impl fmt::Display for TableSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot allocate a transposition table of {} MB", self.mb)
    }
}

impl std::error::Error for TableSizeError {}

/// `count` empty slots in zeroed memory, or `None` if the allocator refuses them.
fn zeroed_slots(count: usize) -> Option<Vec<Slot>> {
    let layout = Layout::array::<Slot>(count).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size. A `Slot` is two `AtomicU64`s, for which all-zero
    // bits are a valid value, so the zeroed block holds `count` initialised slots; it was
    // allocated by the global allocator with exactly the layout of a `Vec<Slot>` of capacity
    // `count`, which is what `from_raw_parts` requires.
    unsafe {
        let block = alloc::alloc_zeroed(layout).cast::<Slot>();
        if block.is_null() {
            return None;
        }
        Some(Vec::from_raw_parts(block, count, count))
    }
}

fn pack(best: Move, score: Score, depth: i32, bound: Bound, generation: u8) -> u64 {
    best.bits() as u64
        | ((score as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((generation & 0x3f) as u64) << 58)
}

fn unpack(data: u64) -> Option<(TableEntry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let entry = TableEntry {
        best: Move::from_bits(data as u32),
        score: (data >> 32) as u16 as i16 as Score,
        depth: ((data >> 48) & 0xff) as i32,
        bound,
    };
    Some((entry, ((data >> 58) & 0x3f) as u8))
}

/// Ask the kernel to back the table with 2 MB pages where it allows them only on request
/// (Linux's transparent huge pages in `madvise` mode, a common default): nearly every probe
/// lands on a page of its own, and with 4 KB pages most of them miss the address cache. A hint
/// only: if it is refused, the table works the same, a little slower.
#[cfg(target_os = "linux")]
fn advise_huge_pages<T>(slots: &Vec<T>) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE_PAGE: usize = 2 << 20;
    let start = slots.as_ptr() as usize;
    let end = start + slots.capacity() * std::mem::size_of::<T>();
    let (first, last) = (start.next_multiple_of(HUGE_PAGE), end / HUGE_PAGE * HUGE_PAGE);
    if last > first {
        // SAFETY: the range lies inside the vector's allocation, and MADV_HUGEPAGE changes
        // neither its contents nor its mapping.
        let refused = unsafe { madvise(first as *mut std::ffi::c_void, last - first, MADV_HUGEPAGE) } != 0;
        if refused {
            log::debug!("huge pages refused for the transposition table");
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages<T>(_slots: &Vec<T>) {}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one entry), or an error if the memory cannot
    /// be had.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableSizeError> {
        let count = mb.max(1).checked_mul(1024 * 1024).ok_or(TableSizeError { mb })? / BYTES_PER_SLOT;
        let slots = zeroed_slots(count.max(1)).ok_or(TableSizeError { mb })?;
        // Before the first write, so that the pages are mapped large from the start.
        advise_huge_pages(&slots);
        Ok(TranspositionTable { slots, generation: AtomicU8::new(0) })
    }

    /// A table of about `mb` megabytes, or of the largest power-of-two fraction of it the
    /// machine provides (at least one entry), for callers with no way to report an error.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut size = mb.max(1);
        loop {
            match TranspositionTable::try_new(size) {
                Ok(table) => return table,
                Err(e) if size > 1 => {
                    log::warn!("{e}; trying {} MB", size / 2);
                    size /= 2;
                }
                Err(e) => {
                    log::error!("{e}; using a table of one entry");
                    let slots = std::iter::once(Slot { key: AtomicU64::new(0), data: AtomicU64::new(0) }).collect();
                    return TranspositionTable { slots, generation: AtomicU8::new(0) };
                }
            }
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no entries (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Forget everything (a new game). Must not run during a search.
    pub fn clear(&self) {
        for s in &self.slots {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Start a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store(g.wrapping_add(1) & 0x3f, Ordering::Relaxed);
    }

    #[inline]
    fn slot(&self, hash: u64) -> &Slot {
        let i = ((hash as u128 * self.slots.len() as u128) >> 64) as usize;
        &self.slots[i]
    }

    /// Start loading the entry of `hash` into the cache: called as soon as a child's hash is
    /// known, so that the table's memory latency overlaps the work before the child probes.
    #[inline]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot = self.slot(hash);
            // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault.
            #[allow(unused_unsafe)]
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// The entry for a position hash, if stored.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<TableEntry> {
        let s = self.slot(hash);
        let data = s.data.load(Ordering::Relaxed);
        let key = s.key.load(Ordering::Relaxed);
        if key ^ data != hash {
            return None;
        }
        unpack(data).map(|(e, _)| e)
    }

    /// Store a result. Replaces an entry of another position when it is older or not deeper by
    /// much; keeps the stored move when the new result has none.
    #[inline]
    pub fn store(&self, hash: u64, best: Move, score: Score, depth: i32, bound: Bound) {
        let s = self.slot(hash);
        let generation = self.generation.load(Ordering::Relaxed);
        let old_data = s.data.load(Ordering::Relaxed);
        let old_key = s.key.load(Ordering::Relaxed) ^ old_data;
        let mut best = best;
        if let Some((old, old_generation)) = unpack(old_data) {
            if old_key == hash {
                if !best.is_some() {
                    best = old.best;
                }
                if bound != Bound::Exact && old_generation == generation && depth + 2 < old.depth {
                    return;
                }
            } else if old_generation == generation && depth + 3 < old.depth && bound != Bound::Exact {
                return;
            }
        }
        let data = pack(best, score, depth, bound, generation);
        s.data.store(data, Ordering::Relaxed);
        s.key.store(hash ^ data, Ordering::Relaxed);
    }

    /// Per mille of a sample of entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| unpack(s.data.load(Ordering::Relaxed)).is_some_and(|(_, g)| g == generation))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::geometry::Square;

    #[test]
    fn store_probe_and_clear() {
        let tt = TranspositionTable::new(1);
        let m = Move::normal(Square(12), Square(28));
        tt.store(0xdead_beef, m, -1234, 7, Bound::Lower);
        assert_eq!(tt.probe(0xdead_beef), Some(TableEntry { best: m, score: -1234, depth: 7, bound: Bound::Lower }));
        assert_eq!(tt.probe(0xdead_bee0), None);
        // A result without a move keeps the stored move.
        tt.store(0xdead_beef, Move::NONE, 50, 8, Bound::Exact);
        assert_eq!(tt.probe(0xdead_beef).map(|e| (e.best, e.score)), Some((m, 50)));
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert_eq!(tt.probe(0xdead_beef), None);
    }

    #[test]
    fn a_table_larger_than_any_machine_is_an_error_not_an_abort() {
        // An exabyte: past every address space, so the allocator refuses it.
        assert_eq!(TranspositionTable::try_new(1 << 40).err(), Some(TableSizeError { mb: 1 << 40 }));
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
        let tt = TranspositionTable::try_new(2).expect("2 MB");
        assert_eq!(tt.len(), 2 * 1024 * 1024 / BYTES_PER_SLOT);
        assert_eq!(tt.hashfull(), 0);
        assert!((0..1000u64).all(|h| tt.probe(h.wrapping_mul(0x9e37_79b9_7f4a_7c15)).is_none()));
    }
}
