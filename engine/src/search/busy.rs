//! The root moves some search thread is searching right now, so that another thread reaching
//! one of them as a later move of the same root puts it off to the end of its list (simplified
//! ABDADA, after Tom Kerrigan, at the root only): two threads then share out the later root
//! moves instead of both searching each, and the one that comes back to a put-off move usually
//! finds it in the transposition table. Only the root: below it the threads rarely meet, since
//! they search different depths.
//!
//! A small set-associative array of position hashes, shared without locks. It is only a hint: a
//! lost or stale mark changes which thread searches what first, never a score.
//!
//! Owns: `BusyTable`.
//! Must not know: positions, moves, what a search does with the hint.

use std::sync::atomic::{AtomicU64, Ordering};

/// Sets of `WAYS` slots; a power of two.
const SETS: usize = 1 << 8;
const WAYS: usize = 4;

/// Marks of positions being searched, by hash.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable::new()
    }
}

impl BusyTable {
    pub fn new() -> BusyTable {
        BusyTable { slots: (0..SETS * WAYS).map(|_| AtomicU64::new(0)).collect() }
    }

    /// Zero marks an empty slot, so a hash of zero is stored as one.
    fn key(hash: u64) -> u64 {
        hash.max(1)
    }

    fn set(&self, key: u64) -> &[AtomicU64] {
        let first = (key as usize & (SETS - 1)) * WAYS;
        &self.slots[first..first + WAYS]
    }

    /// Whether some thread marked `hash` and has not yet unmarked it.
    pub fn is_busy(&self, hash: u64) -> bool {
        let key = BusyTable::key(hash);
        self.set(key).iter().any(|slot| slot.load(Ordering::Relaxed) == key)
    }

    /// Mark `hash` as being searched: in a free slot of its set, else over the set's last slot.
    pub fn enter(&self, hash: u64) {
        let key = BusyTable::key(hash);
        let set = self.set(key);
        for slot in set {
            match slot.compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return,
                Err(current) if current == key => return,
                Err(_) => {}
            }
        }
        set[WAYS - 1].store(key, Ordering::Relaxed);
    }

    /// Remove the mark of `hash` (if still there).
    pub fn leave(&self, hash: u64) {
        let key = BusyTable::key(hash);
        for slot in self.set(key) {
            let _ = slot.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_lasts_from_enter_to_leave() {
        let busy = BusyTable::new();
        assert!(!busy.is_busy(42));
        busy.enter(42);
        assert!(busy.is_busy(42));
        assert!(!busy.is_busy(43));
        busy.leave(42);
        assert!(!busy.is_busy(42));
        busy.enter(0);
        assert!(busy.is_busy(0));
    }

    #[test]
    fn a_full_set_keeps_the_newest_mark() {
        let busy = BusyTable::new();
        // Same set: equal modulo SETS.
        let hashes: Vec<u64> = (1..=WAYS as u64 + 1).map(|i| i * SETS as u64 + 5).collect();
        for &h in &hashes {
            busy.enter(h);
        }
        assert!(hashes[..WAYS - 1].iter().all(|&h| busy.is_busy(h)));
        assert!(busy.is_busy(hashes[WAYS]), "the newest mark replaces the last slot");
        assert!(!busy.is_busy(hashes[WAYS - 1]));
        busy.leave(hashes[0]);
        busy.enter(hashes[WAYS - 1]);
        assert!(busy.is_busy(hashes[WAYS - 1]), "a freed slot is reused");
    }
}
