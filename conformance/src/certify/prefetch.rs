//! One-shot exchanges started ahead of their judging (`certify --jobs N`).
//!
//! A one-shot plugin starts a fresh process for every request, so the probes,
//! the cases and the fuzz inputs of one run are independent and may overlap:
//! most of a spawn is waiting (an interpreter starting up, a deadline running
//! out). The judging still happens one exchange after another, in the order a
//! `--jobs 1` run takes, on the exchanges those requests got: so the report is
//! the same whatever `N` is, as long as the plugin answers a request the same
//! way whenever it is asked.
//!
//! [`Prefetch::start`] queues a request; at most `jobs` queued exchanges are
//! running or waiting to be taken at once (a fair semaphore, so requests
//! start in the order they were queued, and a slot frees when its exchange is
//! taken): memory holds at most `jobs` answers, as `--jobs 1` holds one.
//! [`Prefetch::take`] hands back the exchange of the earliest queued request
//! with the same bytes, or runs the request now when none was queued (a
//! request only the answers so far call for). [`Prefetch::finish`] ends every
//! exchange nobody took (the run judged enough without it: a first answer no
//! runtime could read stops the rest), killing its process tree, so no
//! process outlives the run and a hanging plugin costs no more deadlines than
//! with `--jobs 1`.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinHandle;

use super::CertifyError;
use crate::check::Evidence;
use crate::client::{OneShotReply, one_shot};
use crate::transport::{Deadlines, PluginCommand, SpawnError};

type Pending = JoinHandle<(Result<OneShotReply, SpawnError>, OwnedSemaphorePermit)>;

/// Variables a runtime sets per request, read from the request it writes (an
/// agent's session id).
pub(crate) type EnvFor = Arc<dyn Fn(&[u8]) -> Vec<(String, String)> + Send + Sync>;

/// Exchanges with one plugin command under one profile's deadlines.
pub(crate) struct Prefetch {
    command: PluginCommand,
    env_for: Option<EnvFor>,
    deadlines: Deadlines,
    jobs: usize,
    permits: Arc<Semaphore>,
    pending: Mutex<HashMap<Vec<u8>, VecDeque<Pending>>>,
}

impl Prefetch {
    /// `jobs` is how many processes may run at once (at least one).
    pub(crate) fn new(command: PluginCommand, deadlines: Deadlines, jobs: usize) -> Self {
        let jobs = jobs.max(1);
        Prefetch { command, env_for: None, deadlines, jobs, permits: Arc::new(Semaphore::new(jobs)), pending: Mutex::new(HashMap::new()) }
    }

    /// Adds, to each request's process, the variables `env_for` reads from the request (before the
    /// command's own, which win).
    pub(crate) fn with_env_for(mut self, env_for: EnvFor) -> Self {
        self.env_for = Some(env_for);
        self
    }

    /// The command that runs `sent`.
    fn command_for(&self, sent: &[u8]) -> PluginCommand {
        let mut command = self.command.clone();
        if let Some(env_for) = &self.env_for {
            command.env = env_for(sent).into_iter().chain(command.env).collect();
        }
        command
    }

    /// [`Prefetch::take`] for judging: a plugin that could not start, or whose interpreter
    /// refused to run it, is the command's error (nothing judged), never an answer.
    pub(crate) async fn exchange(&self, sent: Vec<u8>) -> Result<OneShotReply, CertifyError> {
        let ex = self.take(sent).await.map_err(CertifyError::Spawn)?;
        let stdout_bytes = ex.collected.bytes.len() as u64 + ex.collected.dropped;
        match crate::transport::interpreter_refusal(&self.command, Some(ex.shutdown.exit), stdout_bytes, &ex.stderr) {
            Some(why) => Err(CertifyError::Refused(why)),
            None => Ok(ex),
        }
    }

    /// Queues `sent`; with one job there is nothing to overlap, so nothing starts early.
    pub(crate) fn start(&self, sent: Vec<u8>) {
        if self.jobs == 1 {
            return;
        }
        let (command, deadlines, permits) = (self.command_for(&sent), self.deadlines, Arc::clone(&self.permits));
        let request = sent.clone();
        let task = tokio::spawn(async move {
            // Held until the exchange is taken, not only while it runs.
            let permit = permits.acquire_owned().await.expect("the semaphore is never closed");
            (one_shot(&command, deadlines, request).await, permit)
        });
        self.lock().entry(sent).or_default().push_back(task);
    }

    /// The exchange of `sent`: the earliest queued one, or a new one now.
    /// A new one takes no slot: the queued exchanges may hold them all,
    /// waiting for their turn to be taken.
    pub(crate) async fn take(&self, sent: Vec<u8>) -> Result<OneShotReply, SpawnError> {
        let queued = self.lock().get_mut(&sent).and_then(VecDeque::pop_front);
        match queued {
            Some(task) => task.await.map(|(exchange, _slot)| exchange).unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic())),
            None => one_shot(&self.command_for(&sent), self.deadlines, sent).await,
        }
    }

    /// Ends every exchange that was started and never taken: dropping its
    /// process kills the plugin's whole process tree.
    pub(crate) async fn finish(self) {
        let pending = std::mem::take(&mut *self.lock());
        for task in pending.into_values().flatten() {
            task.abort();
            let _ = task.await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<u8>, VecDeque<Pending>>> {
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for Prefetch {
    /// A run that ends early (an error, a panic) still ends what it started.
    fn drop(&mut self) {
        for task in self.lock().values().flatten() {
            task.abort();
        }
    }
}

/// Evidence of a one-shot exchange: both directions and the stderr tail.
pub(crate) fn evidence_of(ex: &OneShotReply) -> Evidence {
    let mut evidence = Evidence::exchange(&ex.sent, &ex.collected.bytes).with_stderr(ex.stderr.clone());
    if let (Some(received), dropped @ 1..) = (&mut evidence.received, ex.collected.dropped) {
        received.push_str(&format!("[… {dropped} more bytes dropped]"));
    }
    evidence
}
