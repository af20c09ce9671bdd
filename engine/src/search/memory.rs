//! What the search threads learn that outlives one search: the quiet-move history, the
//! counter-moves and the correction history, kept between the moves of a game, so that each
//! search starts from what the previous ones found (at a few hundredths of a second a move,
//! a search is too short to learn them afresh). The engine keeps one and clears it with the
//! table (a new game, another variant), and datagen one for each side of a game; a search
//! without one (bench, the pre-game decisions, tests) starts from nothing, and so is
//! reproducible alone.
//!
//! Owns: `SearchMemory`, `ThreadMemory`.
//! Must not know: the tree search, positions, protocols.

use super::correction_history::CorrectionHistory;
use super::ordering::Heuristics;
use std::sync::Mutex;

/// One search thread's tables.
#[derive(Default)]
pub struct ThreadMemory {
    pub heuristics: Heuristics,
    pub correction_history: CorrectionHistory,
}

/// One slot per search thread, by thread number.
#[derive(Default)]
pub struct SearchMemory {
    slots: Mutex<Vec<Option<ThreadMemory>>>,
}

impl SearchMemory {
    pub fn new() -> SearchMemory {
        SearchMemory::default()
    }

    /// Thread `id`'s tables, taken out for a search (fresh ones when it has none).
    pub fn take(&self, id: usize) -> ThreadMemory {
        // A thread that panicked while holding the lock left whole tables or none: either is
        // usable.
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots.get_mut(id).and_then(Option::take).unwrap_or_default()
    }

    /// Thread `id`'s tables, handed back after its search.
    pub fn put(&self, id: usize, memory: ThreadMemory) {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        if slots.len() <= id {
            slots.resize_with(id + 1, || None);
        }
        slots[id] = Some(memory);
    }

    /// Forget everything: a new game or another variant.
    pub fn clear(&self) {
        self.slots.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ordering::mover_kind;
    use menagerie_rules::geometry::Color;
    use menagerie_rules::moves::Move;
    use menagerie_rules::position::Position;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    #[test]
    fn a_thread_gets_back_what_it_put_and_nothing_after_a_clear() {
        let rules = compiled::<u64>(by_name("dchess").unwrap());
        let pos = Position::from_fen(rules, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let m = pos.legal_moves()[0];
        let history = |t: &ThreadMemory| t.heuristics.history(Color::White, mover_kind(&pos, m), m);
        let memory = SearchMemory::new();
        let mut tables = memory.take(3);
        assert_eq!(history(&tables), 0);
        tables.heuristics.quiet_cutoff(&pos, m, &[], 5, 0, Move::NONE, &crate::search::SearchParams::DEFAULT);
        assert!(history(&tables) > 0);
        memory.put(3, tables);
        assert_eq!(history(&memory.take(0)), 0, "another thread's slot");
        let tables = memory.take(3);
        assert!(history(&tables) > 0);
        memory.put(3, tables);
        memory.clear();
        assert_eq!(history(&memory.take(3)), 0);
    }
}
