//! Numbered jobs shared out among worker threads: each worker takes the next number until none
//! is left or a job has failed, and a progress call runs every so often meanwhile. The
//! self-play tools (`datagen`, `balance`) play their games through it.
//!
//! Owns: the shared job counter, the first failure, the periodic progress call.
//! Must not know: what a job is (a game, a study's entry), files, protocols.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest the progress thread sleeps between looks at whether the workers are done.
const POLL: Duration = Duration::from_millis(100);

/// Run jobs `0..count` on `threads` workers (at most one per job, at least one). Each worker
/// makes its own state with `new_worker` (a search's tables, say) and passes it to every job
/// it runs. `progress` is called every `every` while workers run (never after `run_jobs`
/// returns). The first job to fail stops every worker before its next job, and its error is
/// returned; jobs already under way finish.
pub fn run_jobs<S, E: Send>(
    threads: usize,
    count: u64,
    every: Duration,
    new_worker: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, u64) -> Result<(), E> + Sync,
    progress: impl Fn() + Sync,
) -> Result<(), E> {
    if count == 0 {
        return Ok(());
    }
    let workers = threads.max(1).min(usize::try_from(count).unwrap_or(usize::MAX));
    let next = AtomicU64::new(0);
    let failure: Mutex<Option<E>> = Mutex::new(None);
    let running = AtomicUsize::new(workers);
    let failed = || failure.lock().map_or(true, |f| f.is_some());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut state = new_worker();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= count || failed() {
                        break;
                    }
                    if let Err(e) = job(&mut state, k) {
                        if let Ok(mut f) = failure.lock() {
                            f.get_or_insert(e);
                        }
                        break;
                    }
                }
                running.fetch_sub(1, Ordering::Relaxed);
            });
        }
        scope.spawn(|| {
            let mut last = Instant::now();
            while running.load(Ordering::Relaxed) > 0 {
                std::thread::sleep(every.min(POLL));
                if last.elapsed() >= every {
                    last = Instant::now();
                    progress();
                }
            }
        });
    });
    failure.into_inner().ok().flatten().map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn every_job_runs_once_whatever_the_threads() {
        for threads in [1, 2, 5, 40] {
            let seen = Mutex::new(Vec::new());
            let workers = AtomicUsize::new(0);
            let result: Result<(), ()> = run_jobs(
                threads,
                23,
                Duration::from_secs(60),
                || workers.fetch_add(1, Ordering::Relaxed),
                |_, k| {
                    seen.lock().unwrap().push(k);
                    Ok(())
                },
                || {},
            );
            assert_eq!(result, Ok(()));
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (0..23).collect::<Vec<_>>(), "{threads} threads");
            assert_eq!(workers.into_inner(), threads.min(23), "one worker per job at most");
        }
    }

    #[test]
    fn the_first_failure_stops_the_run_and_is_returned() {
        let ran = AtomicU64::new(0);
        let result = run_jobs(
            1,
            1000,
            Duration::from_secs(60),
            || (),
            |_, k| {
                ran.fetch_add(1, Ordering::Relaxed);
                if k == 6 {
                    Err(format!("job {k} failed"))
                } else {
                    Ok(())
                }
            },
            || {},
        );
        assert_eq!(result, Err("job 6 failed".to_string()));
        assert_eq!(ran.into_inner(), 7, "no job after the failure");
    }

    #[test]
    fn no_jobs_start_no_worker() {
        let result: Result<(), ()> =
            run_jobs(4, 0, Duration::ZERO, || panic!("no worker for no jobs"), |_, _| Ok(()), || {});
        assert_eq!(result, Ok(()));
    }

    #[test]
    fn progress_is_reported_while_a_job_runs() {
        // The only job waits for a progress call, so the run ends only if one comes.
        let reported = AtomicBool::new(false);
        let result: Result<(), ()> = run_jobs(
            1,
            1,
            Duration::ZERO,
            || (),
            |_, _| {
                while !reported.load(Ordering::Relaxed) {
                    std::thread::yield_now();
                }
                Ok(())
            },
            || reported.store(true, Ordering::Relaxed),
        );
        assert_eq!(result, Ok(()));
    }
}
