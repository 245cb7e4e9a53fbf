//! proctor interrupted (Ctrl-C, Ctrl-\, SIGTERM, SIGHUP) must not orphan
//! plugins, and must stop.
//!
//! Plugins run in their own process groups, so the signal a terminal sends
//! to proctor's group never reaches them; this handler kills every live
//! plugin group, then exits with the conventional 128 + signal code.
//!
//! SIGQUIT (Ctrl-\) is one of them: by default it dumps core and leaves every
//! plugin running, which is what a user pressing it wants least.
//!
//! The handler runs on a thread of its own for the rest of the process's
//! life, not as a task of the command's runtime. As a task it waited for a
//! free moment of that runtime: work that blocked it (hashing a huge file)
//! ran on past the signal, and once the runtime was dropped tokio's handler
//! still caught the signal and nothing ever acted on it.

use std::sync::OnceLock;

use proctor_conformance::transport::reaper;
use tokio::signal::unix::{SignalKind, signal};

/// The signals that stop proctor, with their numbers (for the exit code).
const SIGNALS: [(fn() -> SignalKind, i32); 4] =
    [(SignalKind::interrupt, 2), (SignalKind::terminate, 15), (SignalKind::hangup, 1), (SignalKind::quit, 3)];

static INSTALLED: OnceLock<()> = OnceLock::new();

/// Installs the handler (once per process; later calls do nothing). Returns
/// when the signals are caught, so a signal sent right after is handled.
pub fn install() {
    INSTALLED.get_or_init(|| {
        let (ready, registered) = std::sync::mpsc::channel::<()>();
        let spawned = std::thread::Builder::new().name("proctor-signals".into()).spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_io().build() else {
                eprintln!("warning: proctor cannot watch for signals: an interrupted run may leave plugins running");
                return;
            };
            runtime.block_on(async move {
                let (caught, mut first) = tokio::sync::mpsc::unbounded_channel();
                for (kind, number) in SIGNALS {
                    let Ok(mut stream) = signal(kind()) else { continue };
                    let caught = caught.clone();
                    tokio::spawn(async move {
                        if stream.recv().await.is_some() {
                            let _ = caught.send(number);
                        }
                    });
                }
                drop(ready);
                if let Some(number) = first.recv().await {
                    let killed = reaper::shut_down();
                    eprintln!("\nproctor: interrupted; stopped {killed} plugin process group(s)");
                    std::process::exit(128 + number);
                }
            });
        });
        if spawned.is_ok() {
            // Disconnected once the handlers are registered (or could not be).
            let _ = registered.recv();
        }
    });
}
