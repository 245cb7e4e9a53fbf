//! proctor interrupted (Ctrl-C, SIGTERM, SIGHUP) must not orphan plugins.
//!
//! Plugins run in their own process groups, so the signal a terminal sends
//! to proctor's group never reaches them; this handler kills every live
//! plugin group, then exits with the conventional 128 + signal code.

use proctor_conformance::transport::reaper;
use tokio::signal::unix::{SignalKind, signal};

/// Installs the handler on the current tokio runtime.
pub fn install() {
    for (kind, number) in [(SignalKind::interrupt(), 2), (SignalKind::terminate(), 15), (SignalKind::hangup(), 1)] {
        let Ok(mut stream) = signal(kind) else { continue };
        tokio::spawn(async move {
            if stream.recv().await.is_some() {
                let killed = reaper::shut_down();
                eprintln!("\nproctor: interrupted; stopped {killed} plugin process group(s)");
                std::process::exit(128 + number);
            }
        });
    }
}
