//! Every live plugin group, so that an interrupted proctor can kill them all.
//!
//! A plugin runs in its own process group, so the SIGINT a terminal sends to
//! proctor's group never reaches it. The CLI's signal handler calls
//! [`kill_all`] before exiting; without it an interrupted run would orphan
//! every plugin it had started.

use std::collections::BTreeSet;
use std::sync::Mutex;

use rustix::process::{Pid, Signal, kill_process_group};

static LIVE: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Held while a plugin is spawned and registered, and while proctor looks
/// for orphans it adopted: a child spawned a moment ago but not registered
/// yet must never be taken for an orphan (and killed).
static SPAWN_GATE: Mutex<()> = Mutex::new(());

/// Holds the spawn gate (see [`SPAWN_GATE`]) until the guard is dropped.
pub(crate) fn gate() -> std::sync::MutexGuard<'static, ()> {
    SPAWN_GATE.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn register(pgid: i32) {
    LIVE.lock().unwrap_or_else(|e| e.into_inner()).insert(pgid);
}

pub(crate) fn unregister(pgid: i32) {
    LIVE.lock().unwrap_or_else(|e| e.into_inner()).remove(&pgid);
}

/// SIGKILLs every plugin group still registered, then every other
/// descendant of proctor (those that left their group); returns how many
/// groups there were.
pub fn kill_all() -> usize {
    let groups = std::mem::take(&mut *LIVE.lock().unwrap_or_else(|e| e.into_inner()));
    for pgid in &groups {
        if let Some(pid) = Pid::from_raw(*pgid) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
    super::tree::kill_and_reap(&super::tree::all_descendants());
    groups.len()
}

/// For a proctor about to exit on a signal: from here on no plugin can start
/// (the spawn gate stays shut), then every one started is killed. Without the
/// gate, workers still spawning after [`kill_all`] took its list would leave
/// plugins running with no parent (seen: 48 of 1000 under `load`).
pub fn shut_down() -> usize {
    std::mem::forget(gate());
    kill_all()
}

/// The leaders (= group ids) of the plugins running now.
pub fn live() -> Vec<i32> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner()).iter().copied().collect()
}

/// How many plugin groups are live right now (for tests and diagnostics).
pub fn live_count() -> usize {
    LIVE.lock().unwrap_or_else(|e| e.into_inner()).len()
}
