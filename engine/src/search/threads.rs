//! The search threads: a persistent pool (rayon) sized by the Threads option, on which every
//! search of its owner runs, the main search thread and its Lazy SMP helpers alike, so that a
//! search starts without creating threads. Its owner (the engine, the bench, a pre-game scorer)
//! keeps it for as long as the thread count stays the same.
//!
//! Owns: `SearchThreads`, `ThreadsError`.
//! Must not know: what a search does, protocols.

use std::fmt;

/// Stack of each search thread: the recursion keeps a position and a move list per ply.
const THREAD_STACK: usize = 16 * 1024 * 1024;

/// A fixed number of search threads.
pub struct SearchThreads {
    /// `None` when the system refused to create the threads: each search then starts its own
    /// (as many as asked), so a search never fails for want of a pool.
    pool: Option<rayon::ThreadPool>,
    count: usize,
}

impl fmt::Debug for SearchThreads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchThreads").field("count", &self.count).field("pooled", &self.pool.is_some()).finish()
    }
}

/// The system would not start the threads asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadsError {
    pub count: usize,
    pub why: String,
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot start {} search threads: {}", self.count, self.why)
    }
}

impl std::error::Error for ThreadsError {}

impl SearchThreads {
    /// `count` threads (at least one), started now and kept until this is dropped; if the
    /// system will not start them, each search starts its own.
    pub fn new(count: usize) -> SearchThreads {
        SearchThreads::try_new(count).unwrap_or_else(|e| {
            log::warn!("{e}; each search will start its own");
            SearchThreads::unpooled(count)
        })
    }

    /// `count` threads (at least one), started now, or why the system would not start them.
    pub fn try_new(count: usize) -> Result<SearchThreads, ThreadsError> {
        SearchThreads::try_with_stack(count, THREAD_STACK)
    }

    fn try_with_stack(count: usize, stack: usize) -> Result<SearchThreads, ThreadsError> {
        let count = count.max(1);
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(count)
            .stack_size(stack)
            .thread_name(|i| format!("search-{i}"))
            .build();
        match built {
            Ok(pool) => Ok(SearchThreads { pool: Some(pool), count }),
            Err(e) => Err(ThreadsError { count, why: e.to_string() }),
        }
    }

    /// `count` threads started by each search and ended with it (the fallback of `new`).
    pub fn unpooled(count: usize) -> SearchThreads {
        SearchThreads { pool: None, count: count.max(1) }
    }

    /// How many threads a search runs on.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Start `task` on one of the threads (the task may then `run` a search on the others)
    /// and return at once.
    pub fn spawn(&self, task: impl FnOnce() + Send + 'static) {
        match &self.pool {
            Some(pool) => pool.spawn(task),
            None => {
                let spawned =
                    std::thread::Builder::new().name("search-0".to_string()).stack_size(THREAD_STACK).spawn(task);
                if let Err(e) = spawned {
                    log::error!("could not start a search thread: {e}");
                }
            }
        }
    }

    /// Run `main` (thread 0) and `helper(id)` for every other thread id at the same time, and
    /// return their results by id (`None` for a thread that could not run). Returns once all
    /// have returned. Called from one of the pool's threads (see `spawn`), `main` runs on it;
    /// from any other thread, that thread only waits.
    pub fn run<R: Send>(&self, main: impl FnOnce() -> R + Send, helper: impl Fn(usize) -> R + Sync) -> Vec<Option<R>> {
        let mut results: Vec<Option<R>> = (0..self.count).map(|_| None).collect();
        let helper = &helper;
        match &self.pool {
            Some(pool) => pool.scope(|scope| {
                let (main_result, helper_results) = results.split_at_mut(1);
                for (index, slot) in helper_results.iter_mut().enumerate() {
                    scope.spawn(move |_| *slot = Some(helper(index + 1)));
                }
                // The scope's body runs on one of the pool's threads, with its large stack.
                main_result[0] = Some(main());
            }),
            None => std::thread::scope(|scope| {
                let (main_result, helper_results) = results.split_at_mut(1);
                for (index, slot) in helper_results.iter_mut().enumerate() {
                    let spawned = std::thread::Builder::new()
                        .name(format!("search-{}", index + 1))
                        .stack_size(THREAD_STACK)
                        .spawn_scoped(scope, move || *slot = Some(helper(index + 1)));
                    if let Err(e) = spawned {
                        log::warn!("could not start search thread {}: {e}", index + 1);
                    }
                }
                let spawned = std::thread::Builder::new()
                    .name("search-0".to_string())
                    .stack_size(THREAD_STACK)
                    .spawn_scoped(scope, move || main_result[0] = Some(main()));
                if let Err(e) = spawned {
                    log::warn!("could not start the main search thread: {e}");
                }
            }),
        }
        results
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::Mutex;

    fn runs_every_thread_at_once(threads: &SearchThreads) {
        let n = threads.count();
        // Every thread waits at the barrier: the run returns only if all ran at the same time.
        let barrier = std::sync::Barrier::new(n);
        let names = Mutex::new(HashSet::new());
        let record = |id: usize| {
            barrier.wait();
            if let Ok(mut names) = names.lock() {
                names.insert(std::thread::current().name().map(str::to_string));
            }
            id * 10
        };
        let results = threads.run(|| record(0), record);
        assert_eq!(results, (0..n).map(|id| Some(id * 10)).collect::<Vec<_>>());
        assert_eq!(names.lock().map(|n| n.len()).unwrap_or(0), n, "one distinct thread per id");
    }

    #[test]
    fn a_pool_runs_main_and_helpers_concurrently_and_again() {
        let threads = SearchThreads::new(3);
        assert_eq!(threads.count(), 3);
        runs_every_thread_at_once(&threads);
        runs_every_thread_at_once(&threads);
    }

    #[test]
    fn the_unpooled_fallback_runs_them_too() {
        let threads = SearchThreads::unpooled(3);
        runs_every_thread_at_once(&threads);
        assert_eq!(SearchThreads::new(0).count(), 1);
    }

    fn distinct_threads_over_five_runs(threads: &SearchThreads) -> usize {
        let id = |_: usize| std::thread::current().id();
        (0..5).flat_map(|_| threads.run(|| id(0), id)).flatten().collect::<HashSet<_>>().len()
    }

    #[test]
    fn a_pool_keeps_its_threads_between_runs() {
        assert!(distinct_threads_over_five_runs(&SearchThreads::new(2)) <= 2);
        // Thread ids are never reused: the fallback starts new threads for every run.
        assert_eq!(distinct_threads_over_five_runs(&SearchThreads::unpooled(2)), 10);
    }

    #[test]
    fn threads_the_system_will_not_start_are_an_error_not_an_abort() {
        // Stacks of a petabyte each: no system maps them.
        let e = SearchThreads::try_with_stack(2, 1 << 50).expect_err("petabyte stacks");
        assert_eq!(e.count, 2);
        assert!(e.to_string().starts_with("cannot start 2 search threads: "), "{e}");
    }
}
