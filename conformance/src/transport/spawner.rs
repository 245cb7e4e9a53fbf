//! Where every plugin is forked: one thread that lives as long as proctor.
//!
//! A proctor that is SIGKILLed runs no handler, so nothing of it can end its
//! plugins. On Linux each plugin therefore asks, between fork and exec, for
//! SIGKILL when its parent dies (`PR_SET_PDEATHSIG`). The kernel's "parent"
//! there is the *thread* that forked, not the process: a plugin forked on a
//! tokio blocking thread (which ends after 10 s idle) or on a runtime's
//! worker (ended with its runtime) would be killed in the middle of its run.
//! So every fork happens on this one thread, which never ends; the caller's
//! runtime is entered there, so the child's pipes and its exit are watched by
//! the caller's runtime as if it had forked the child itself.
//!
//! This covers the plugin, not what it starts: a grandchild does not inherit
//! the death signal. A proctor that ends any other way (a signal it handles,
//! or normally) still kills each plugin's whole group and every descendant it
//! adopted (`reaper`, `tree`), so this is the last resort, not the mechanism.

use std::io;
use std::sync::OnceLock;
use std::sync::mpsc;

use tokio::process::{Child, Command};
use tokio::runtime::Handle;

/// A command to fork, the runtime that will own the child, and where the result goes.
type Job = (Command, Handle, mpsc::SyncSender<io::Result<Child>>);

static SPAWNER: OnceLock<Option<mpsc::Sender<Job>>> = OnceLock::new();

/// Spawns `cmd` so that the child dies with proctor. Outside a tokio runtime,
/// or if the spawner thread cannot be started, it is spawned here, as before,
/// without the death signal (a thread that may end must not be its parent).
pub(crate) fn spawn(mut cmd: Command) -> io::Result<Child> {
    let (Ok(handle), Some(spawner)) = (Handle::try_current(), SPAWNER.get_or_init(start)) else {
        return cmd.spawn();
    };
    let (reply, result) = mpsc::sync_channel(1);
    match spawner.send((cmd, handle, reply)) {
        Ok(()) => result.recv().unwrap_or_else(|_| Err(io::Error::other("proctor's spawner thread ended"))),
        Err(mpsc::SendError((mut cmd, ..))) => cmd.spawn(),
    }
}

/// Starts the spawner thread; `None` when it cannot be started.
fn start() -> Option<mpsc::Sender<Job>> {
    let (jobs, queue) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("proctor-spawner".into())
        .spawn(move || {
            for (mut cmd, handle, reply) in queue {
                let _entered = handle.enter();
                die_with_parent(&mut cmd);
                let _ = reply.send(cmd.spawn());
            }
        })
        .ok()?;
    Some(jobs)
}

/// Asks the kernel to SIGKILL the child when the forking thread (this one,
/// which never ends) goes, i.e. when proctor does.
#[cfg(target_os = "linux")]
fn die_with_parent(cmd: &mut Command) {
    let parent = rustix::process::getpid();
    // SAFETY: the closure runs between fork and exec; it makes two raw
    // syscalls and builds an error without allocating, all async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
            // proctor died between the fork and the prctl: no signal will come, so stop here.
            if rustix::process::getppid() != Some(parent) {
                return Err(rustix::io::Errno::SRCH.into());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_cmd: &mut Command) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The death signal's caveat: it follows the thread that forked. A child
    /// started from a thread that has since ended must still be running.
    #[tokio::test]
    async fn a_plugin_started_from_a_thread_that_ends_keeps_running() {
        let handle = Handle::current();
        let mut child = std::thread::spawn(move || {
            let _entered = handle.enter();
            let mut cmd = Command::new("sleep");
            cmd.arg("30").kill_on_drop(true);
            spawn(cmd).expect("spawn sleep")
        })
        .join()
        .expect("the spawning thread ends");
        // Give a death signal, had it been tied to the ended thread, time to land.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(child.try_wait().expect("try_wait").is_none(), "the child died with the thread that asked for it");
        child.kill().await.expect("kill");
    }
}
