//! Shared helpers for the integration tests: run the real `proctor` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use serde_json::Value;

pub fn proctor() -> &'static str {
    env!("CARGO_BIN_EXE_proctor")
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// The argv of the mock plugin speaking `protocol` with extra flags.
pub fn mock(protocol: &str, flags: &[&str]) -> Vec<String> {
    let mut argv = vec![proctor().to_string(), "mock-plugin".into(), "--protocol".into(), protocol.into()];
    argv.extend(flags.iter().map(|s| s.to_string()));
    argv
}

/// Runs `proctor certify --format json` and returns (exit code, report).
pub fn certify_json(certify_flags: &[&str], plugin: &[String]) -> (i32, Value, Output) {
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .arg("certify")
        .arg("--format")
        .arg("json")
        .arg("--no-progress")
        .args(certify_flags)
        .arg("--")
        .args(plugin)
        .output()
        .expect("run proctor");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "report is not JSON ({e}); stdout:\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report, out)
}

/// Every result of check `id` in a report.
pub fn results<'a>(report: &'a Value, id: &str) -> Vec<&'a Value> {
    report["checks"].as_array().expect("checks").iter().filter(|c| c["id"] == id).collect()
}

/// A short listing of a report's non-passing results, for assertion messages.
pub fn problems(report: &Value) -> String {
    report["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["status"] != "pass")
        .map(|c| format!("{} {} [{}]: {}", c["status"], c["id"], c["profile"].as_str().unwrap_or(""), c["message"].as_str().unwrap_or("")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Pids of live processes whose environment carries `marker`.
pub fn marked(marker: &str) -> Vec<u32> {
    let needle = format!("PROCTOR_TEST_MARKER={marker}");
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(env) = std::fs::read(entry.path().join("environ")) else {
            continue;
        };
        let zombie = std::fs::read_to_string(entry.path().join("stat"))
            .is_ok_and(|s| s.rsplit(')').next().is_some_and(|r| r.trim_start().starts_with('Z')));
        if !zombie && env.split(|b| *b == 0).any(|var| var == needle.as_bytes()) {
            pids.push(pid);
        }
    }
    pids
}

/// A marker unique to this test process and moment, for `PROCTOR_TEST_MARKER`.
/// Waits a little for `marker`'s processes to be gone (a SIGKILL and the
/// reaping after it are not instantaneous), then asserts none is left.
pub fn assert_nothing_left(marker: &str) {
    let deadline = Instant::now() + std::time::Duration::from_secs(2);
    while !marked(marker).is_empty() && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(marked(marker), Vec::<u32>::new(), "plugin processes survived the run");
}

pub fn marker(name: &str) -> String {
    format!("{name}-{}-{:?}", std::process::id(), Instant::now())
}

/// A running `proctor mock-provider`, its base URL read from its first
/// stdout line; stopped by closing its stdin, killed if dropped.
pub struct MockProvider {
    pub child: std::process::Child,
    /// `http://127.0.0.1:PORT/v1`.
    pub url: String,
}

impl MockProvider {
    pub fn serve(scenario: &Path, extra: &[&str]) -> MockProvider {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        let mut child = Command::new(proctor())
            .arg("mock-provider")
            .arg("--scenario")
            .arg(scenario)
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start proctor mock-provider");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the base URL as the first stdout line within 20 s");
        let url = line.trim_end().to_string();
        assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/v1") && line.ends_with('\n'), "first line {line:?}");
        MockProvider { child, url }
    }

    /// Closes stdin and waits for the server to exit.
    pub fn stop(mut self) -> std::process::ExitStatus {
        drop(self.child.stdin.take());
        let deadline = Instant::now() + std::time::Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "the server did not exit within 10 s of stdin closing");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for MockProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
