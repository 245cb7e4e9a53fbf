//! The mock plugin really misbehaves: each named fault a runtime
//! implementer relies on, observed on a real `proctor mock-plugin` process
//! through real pipes (bytes, exits, signals, leftover processes).

mod common;

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use common::proctor;

const HELLO: &str =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"hook.hello\",\"params\":{\"name\":\"t\",\"version\":1,\"modes\":[\"tool\"]}}\n";
const BEFORE_TOOL: &str =
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"hook.before_tool\",\"params\":{\"tool\":\"bash\",\"arguments\":{}}}\n";
const AFTER_TOOL: &str = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"hook.after_tool\",\"params\":{\"tool\":\"bash\",\"arguments\":{}}}\n";

/// A running mock plugin with its stdout and stderr read on threads.
struct Mock {
    child: Child,
    out: Receiver<Vec<u8>>,
    err_bytes: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

fn mock(protocol: &str, flags: &[&str]) -> Mock {
    let mut child = Command::new(proctor())
        .args(["mock-plugin", "--protocol", protocol])
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let (tx, out) = channel();
    let mut stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let err_bytes = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = err_bytes.clone();
    let mut stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = stderr.read(&mut buf) {
            if n == 0 {
                break;
            }
            counter.fetch_add(n, std::sync::atomic::Ordering::SeqCst);
        }
    });
    Mock { child, out, err_bytes }
}

impl Mock {
    fn send(&mut self, text: &str) {
        self.child.stdin.as_mut().unwrap().write_all(text.as_bytes()).unwrap();
    }
    /// Everything stdout produced within `wait`; `None` once stdout is closed.
    fn read(&self, wait: Duration) -> Vec<u8> {
        let until = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match self.out.recv_timeout(left) {
                Ok(chunk) => got.extend(chunk),
                Err(_) => break,
            }
        }
        got
    }
    fn lines(&self, wait: Duration) -> Vec<String> {
        String::from_utf8_lossy(&self.read(wait)).lines().map(str::to_string).collect()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        let pgid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
        let _ = rustix::process::kill_process_group(pgid, rustix::process::Signal::KILL);
        let _ = self.child.wait();
    }
}

#[test]
fn hang_answers_the_handshake_then_nothing() {
    let mut m = mock("picoclaw-hook", &["--fault", "hang"]);
    m.send(HELLO);
    m.send(BEFORE_TOOL);
    let lines = m.lines(Duration::from_millis(800));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("\"id\":1"));
    assert!(m.child.try_wait().unwrap().is_none(), "still running");
}

#[test]
fn crash_after_n_exits_1_after_n_answers() {
    let mut m = mock("picoclaw-hook", &["--fault", "crash-after", "--crash-after", "2"]);
    m.send(HELLO);
    m.send(BEFORE_TOOL);
    m.send(AFTER_TOOL);
    let lines = m.lines(Duration::from_millis(800));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(m.child.wait().unwrap().code(), Some(1));
}

#[test]
fn partial_line_stops_without_a_newline() {
    let mut m = mock("picoclaw-hook", &["--fault", "partial-line"]);
    m.send(HELLO);
    m.send(BEFORE_TOOL);
    let out = m.read(Duration::from_millis(800));
    assert!(out.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":1") && !out.contains(&b'\n'), "{:?}", String::from_utf8_lossy(&out));
}

#[test]
fn truncated_line_stops_mid_json_and_stays_alive() {
    let mut m = mock("picoclaw-hook", &["--fault", "truncated-line"]);
    m.send(HELLO);
    m.send(BEFORE_TOOL);
    let out = m.read(Duration::from_millis(800));
    assert!(out.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":1") && !out.contains(&b'\n'), "{:?}", String::from_utf8_lossy(&out));
    assert!(serde_json::from_slice::<serde_json::Value>(&out).is_err(), "the JSON is cut off: {:?}", String::from_utf8_lossy(&out));
    assert!(m.child.try_wait().unwrap().is_none(), "the plugin stays alive after the cut-off line");
}

#[test]
fn wrong_and_duplicate_ids() {
    let mut m = mock("picoclaw-hook", &["--fault", "wrong-id"]);
    m.send(HELLO);
    let lines = m.lines(Duration::from_millis(500));
    assert!(lines[0].contains("\"id\":1001"), "{lines:?}");
    let mut m = mock("picoclaw-hook", &["--fault", "duplicate-id"]);
    m.send(HELLO);
    let lines = m.lines(Duration::from_millis(500));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], lines[1]);
}

#[test]
fn late_reply_arrives_after_the_deadline() {
    let mut m = mock("picoclaw-hook", &["--fault", "late-reply"]);
    m.send(HELLO);
    assert_eq!(m.lines(Duration::from_millis(500)).len(), 1, "the handshake is answered at once");
    m.send(BEFORE_TOOL);
    assert!(m.lines(Duration::from_secs(3)).is_empty(), "nothing within a runtime's usual deadline");
    let late = m.lines(Duration::from_secs(8));
    assert!(late.len() == 1 && late[0].contains("\"id\":2"), "{late:?}");
}

#[test]
fn log_lines_and_stderr_floods() {
    let mut m = mock("picoclaw-hook", &["--fault", "log-line"]);
    m.send(HELLO);
    let lines = m.lines(Duration::from_millis(500));
    assert_eq!(lines[0], "starting mock plugin v1", "{lines:?}");
    let mut m = mock("picoclaw-hook", &["--fault", "stderr-flood"]);
    m.send(HELLO);
    assert_eq!(m.lines(Duration::from_secs(10)).len(), 1);
    assert!(m.err_bytes.load(std::sync::atomic::Ordering::SeqCst) >= proctor_mocks::plugin::FLOOD_BYTES);
}

#[test]
fn ignore_sigterm_survives_term_but_not_kill() {
    let mut m = mock("picoclaw-hook", &["--fault", "ignore-sigterm"]);
    m.send(HELLO);
    assert_eq!(m.lines(Duration::from_millis(500)).len(), 1, "running and answering");
    let pid = rustix::process::Pid::from_raw(m.child.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::TERM).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    assert!(m.child.try_wait().unwrap().is_none(), "SIGTERM was ignored");
    rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
    assert!(m.child.wait().unwrap().code().is_none(), "killed by a signal");
}

#[test]
fn grandchild_keeps_stdout_open_after_exit() {
    let mut m = mock("runok-extension", &["--fault", "grandchild"]);
    m.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"validateCommand\",\"params\":{}}");
    drop(m.child.stdin.take());
    let out = m.read(Duration::from_millis(500));
    assert!(String::from_utf8_lossy(&out).contains("\"status\""));
    assert_eq!(m.child.wait().unwrap().code(), Some(0), "the plugin itself exited");
    // stdout is still open: the reader thread has not seen EOF.
    assert!(matches!(m.out.recv_timeout(Duration::from_millis(500)), Err(std::sync::mpsc::RecvTimeoutError::Timeout)));
}

#[test]
fn slow_start_huge_line_and_invalid_utf8() {
    let start = Instant::now();
    let mut m = mock("picoclaw-hook", &["--fault", "slow-start"]);
    m.send(HELLO);
    assert_eq!(m.lines(Duration::from_secs(5)).len(), 1);
    assert!(start.elapsed() >= Duration::from_millis(1500), "answered only after the slow start");

    let mut m = mock("picoclaw-hook", &["--fault", "huge-line"]);
    m.send(HELLO);
    let out = m.read(Duration::from_secs(3));
    assert!(out.len() > 1024 * 1024, "{} bytes", out.len());

    let mut m = mock("picoclaw-hook", &["--fault", "invalid-utf8"]);
    m.send(HELLO);
    let out = m.read(Duration::from_millis(500));
    assert!(std::str::from_utf8(&out).is_err(), "{out:?}");
}
