//! The mock plugin as a real process: the faults that need one.
//!
//! Signal dispositions, leftover children, start-up delays, refusing to exit
//! and the exit status cannot be observed through in-memory pipes, so they
//! are applied here around [`serve`].

use std::error::Error as _;
use std::io::{self, Read, Write};
use std::thread;
use std::time::Duration;

use super::config::MockPluginConfig;
use super::fault::Fault;
use super::serve::{Ending, serve};
use super::sleeper::{Holds, Sleeper};

/// How long "never exit" lasts; any harness deadline is far shorter.
const STAY_ALIVE: Duration = Duration::from_secs(3600);
/// [`Fault::SlowStart`]'s delay: noticeable, yet under usual startup deadlines.
const SLOW_START: Duration = Duration::from_secs(2);
/// Exit status of [`Fault::ExitNonzero`]; 3 so it differs from a crash's 1.
const NONZERO_EXIT: i32 = 3;

/// Runs the mock plugin on this process's stdin, stdout and stderr.
///
/// Returns the exit status; the caller must `std::process::exit` with it
/// (returning, rather than exiting here, keeps `main` in charge of the
/// process). Replies go to fd 1 unbuffered and are flushed one by one.
pub fn run(config: &MockPluginConfig) -> i32 {
    run_with(config, raw_stdin())
}

/// [`run`], recording every byte received on stdin to `record` as JSON
/// lines (`{"at_ms":…,"text":…}` or `"hex"` for bytes that are not UTF-8,
/// then `{"at_ms":…,"eof":true}`), flushed as they arrive, so a runtime that
/// kills the plugin still leaves a complete record; a process that ends by
/// itself adds `{"at_ms":…,"exit":CODE}`.
pub fn run_recording(config: &MockPluginConfig, record: std::fs::File) -> io::Result<i32> {
    recording(record, |stdin| run_with(config, stdin))
}

/// Runs `body` on a stdin that records every chunk it reads to `record`
/// (the format of [`run_recording`]), then records how `body` ended.
/// `record` is opened by the caller, for appending (proctor's `output` module
/// decides how a path the user named may be written).
pub(crate) fn recording(mut file: std::fs::File, body: impl FnOnce(Box<dyn Read>) -> i32) -> io::Result<i32> {
    // One record file can hold many processes (one-shot plugins), even at
    // once: each starts with a marker, and every line names its pid.
    record_line(&mut file, serde_json::json!({"at_ms": 0, "start": true}))?;
    let start = std::time::Instant::now();
    let exit_record = file.try_clone()?;
    let code = body(Box::new(Recorder { inner: raw_stdin(), file, start }));
    // How the process ended, so `proctor verify` can tell a plugin that died
    // on its own (no EOF before it) from one the runtime closed.
    let mut file = exit_record;
    let _ = record_line(&mut file, serde_json::json!({"at_ms": start.elapsed().as_millis() as u64, "exit": code}));
    Ok(code)
}

/// Appends one record line with this process's pid, in a single write: the
/// file is opened for appending, so lines of processes writing at once
/// interleave whole, never mixed.
fn record_line(file: &mut std::fs::File, mut entry: serde_json::Value) -> io::Result<()> {
    entry["pid"] = serde_json::json!(std::process::id());
    let mut line = entry.to_string().into_bytes();
    line.push(b'\n');
    file.write_all(&line)?;
    file.flush()
}

/// Passes stdin through, writing each chunk to the record file.
struct Recorder {
    inner: Box<dyn Read>,
    file: std::fs::File,
    start: std::time::Instant,
}

impl Read for Recorder {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let at_ms = self.start.elapsed().as_millis() as u64;
        let entry = if n == 0 {
            serde_json::json!({"at_ms": at_ms, "eof": true})
        } else {
            match std::str::from_utf8(&buf[..n]) {
                Ok(text) => serde_json::json!({"at_ms": at_ms, "text": text}),
                Err(_) => serde_json::json!({"at_ms": at_ms, "hex": buf[..n].iter().map(|b| format!("{b:02x}")).collect::<String>()}),
            }
        };
        // A record that cannot be written must not change what the plugin does.
        let _ = record_line(&mut self.file, entry);
        Ok(n)
    }
}

fn run_with(config: &MockPluginConfig, stdin: Box<dyn Read>) -> i32 {
    if config.has(Fault::IgnoreSigterm) {
        ignore_sigterm();
    }
    if config.has(Fault::Grandchild) {
        GRANDCHILD.start();
    }
    if config.has(Fault::EscapeSession) {
        ESCAPEE.start();
    }
    if config.has(Fault::SlowStart) {
        thread::sleep(SLOW_START);
    }
    match serve(config, stdin, raw_stdout(), io::stderr()) {
        Ok(Ending::InputClosed) => {
            if config.has(Fault::IgnoreEof) {
                thread::sleep(STAY_ALIVE);
            }
            if config.has(Fault::ExitNonzero) { NONZERO_EXIT } else { 0 }
        }
        Ok(Ending::Crashed) => 1,
        Ok(Ending::Hung) => {
            thread::sleep(STAY_ALIVE);
            0
        }
        Err(err) => {
            let mut text = format!("proctor mock plugin: {err}");
            let mut source = err.source();
            while let Some(cause) = source {
                text.push_str(&format!(": {cause}"));
                source = cause.source();
            }
            // If stderr is gone too there is nobody left to tell.
            let _ = writeln!(io::stderr(), "{text}");
            1
        }
    }
}

/// stdin without std's buffer, so the naive reader of
/// [`Fault::DropPipelined`] sees the kernel's chunks as they are.
pub(crate) fn raw_stdin() -> Box<dyn Read> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdin().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(io::stdin())
}

/// stdout without std's line buffer: every write reaches fd 1 at once, so
/// the mock's buffering is exactly what its faults say it is.
pub(crate) fn raw_stdout() -> Box<dyn Write> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(io::stdout())
}

/// A forgotten background job: `sleep 45` holding our stdout and stderr, so
/// the pipes stay open after we exit, clear of every runtime's deadline (a
/// PromptKit tool waits for the pipes up to its 30 s and past it).
const GRANDCHILD: Sleeper = Sleeper { lives: Duration::from_secs(45), holds: Holds::Both, own_session: false };
/// `sleep 300` in a session of its own, with no pipe of the plugin's:
/// signalling the plugin's process group cannot reach it.
const ESCAPEE: Sleeper = Sleeper { lives: Duration::from_secs(300), holds: Holds::None, own_session: true };

/// Sets SIGTERM to "ignore", so only SIGKILL ends the plugin.
///
/// rustix 1.x has no safe signal-disposition API and libc is not a
/// dependency, so this declares the C library's `signal` (always linked by
/// std on Unix) directly.
#[cfg(unix)]
#[expect(unsafe_code, reason = "setting a signal disposition needs the C library")]
fn ignore_sigterm() {
    // The numbers are the same on Linux and the BSDs/macOS.
    const SIGTERM: i32 = 15;
    const SIG_IGN: usize = 1;
    unsafe extern "C" {
        // `sighandler_t` is a pointer-sized function pointer; SIG_IGN is the
        // integer 1 in that slot, so `usize` has the right size and ABI.
        fn signal(signum: i32, handler: usize) -> usize;
    }
    // SAFETY: installing SIG_IGN runs no Rust code in signal context and
    // touches no memory; the previous disposition returned is not needed.
    unsafe {
        signal(SIGTERM, SIG_IGN);
    }
}

#[cfg(not(unix))]
fn ignore_sigterm() {
    let _ = writeln!(io::stderr(), "proctor mock plugin: ignore-sigterm has no effect on this platform");
}
