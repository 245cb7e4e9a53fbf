//! The tokio runtime a command's work runs on, chosen so that a plugin's
//! reply costs one wake-up, not two.
//!
//! Only the thread that polls tokio's I/O driver learns of a reply first.
//! Work inside `block_on` on a multi-thread runtime is not that thread: a
//! worker sees the reply and wakes it through a futex, a second wake-up per
//! reply that cost an idle machine 40–70 % on every serial round trip
//! (BENCHMARKS.md, `proctor in block_on`). So work runs either as a task on
//! a worker ([`run`]) or on a current-thread runtime whose one thread drives
//! the I/O itself ([`run_local`]).

use std::future::Future;

/// Runs `work` as a task on a multi-thread runtime (both cores: scenarios
/// and `load --concurrency` run many plugins at once). The interrupt handler
/// is not this runtime's: `cli::main` installs it on a thread of its own.
pub fn run<F>(work: F) -> anyhow::Result<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let task = runtime.spawn(work);
    match runtime.block_on(task) {
        Ok(output) => Ok(output),
        // A panic in the work is a bug: surface it as one, with its message.
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(e) => Err(anyhow::anyhow!("the command's task ended early: {e}")),
    }
}

/// Runs `work` on a current-thread runtime. For work that talks to one plugin at a time (certify), and
/// may hold what cannot move between threads (the fuzzer's proptest value
/// trees) across its awaits.
pub fn run_local<F: Future>(work: F) -> anyhow::Result<F::Output> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    Ok(runtime.block_on(work))
}
