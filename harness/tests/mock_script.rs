//! `proctor mock-plugin --script FILE`: the real binary plays behaviour files
//! byte for byte, and proctor certify judges a scripted plugin like any other.

mod common;

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{assert_nothing_left, certify_json, marker, problems, proctor, repo_root, results};

/// Writes `script` to a temporary file that lives as long as the returned guard.
fn script_file(script: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("script.json");
    std::fs::write(&path, script).expect("write script");
    (dir, path)
}

fn spawn(protocol: &str, script: &Path, extra: &[&str], marker: Option<&str>) -> Child {
    let mut cmd = Command::new(proctor());
    cmd.args(["mock-plugin", "--protocol", protocol, "--script"]).arg(script).args(extra);
    if let Some(m) = marker {
        cmd.env("PROCTOR_TEST_MARKER", m);
    }
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn proctor mock-plugin")
}

/// Runs the script to its end on `input`.
fn run(protocol: &str, script: &str, input: &[u8]) -> Output {
    let (_dir, path) = script_file(script);
    let mut child = spawn(protocol, &path, &[], None);
    let mut stdin = child.stdin.take().expect("stdin");
    // The plugin may exit before reading everything: a broken pipe is fine.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("wait")
}

/// stdout chunks as they arrive, on a channel (closed at EOF).
fn stdout_chunks(child: &mut Child) -> mpsc::Receiver<Vec<u8>> {
    let mut out = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n @ 1..) = out.read(&mut buf) {
            if tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    rx
}

/// SIGKILL to every process carrying `mark` (children the plugin left behind).
fn kill_marked(mark: &str) {
    for pid in common::marked(mark) {
        if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        }
    }
}

fn kill(child: &mut Child) {
    let pid = rustix::process::Pid::from_child(child);
    let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
    let _ = child.wait();
}

#[test]
fn one_shot_writes_hex_bytes_and_exits_with_its_status() {
    let out = run("promptkit-exec", r#"{"stdout_hex": "7b22ff227d0afe", "stderr_hex": "80", "exit": 3}"#, br#"{"Name":"t","Args":{}}"#);
    assert_eq!(out.stdout, b"{\"\xff\"}\n\xfe");
    assert_eq!(out.stderr, b"\x80");
    assert_eq!(out.status.code(), Some(3));

    let out =
        run("runok-extension", r#"{"stdout": "id=$ID;", "delay_ms": 50}"#, br#"{"jsonrpc":"2.0","id":"r-1","method":"validateCommand"}"#);
    assert_eq!(out.stdout, br#"id="r-1";"#);
    assert_eq!(out.status.code(), Some(0));
    let out = run("runok-extension", r#"{"stdout": "$ID", "read_stdin": false}"#, b"{\"id\":1}");
    assert_eq!(out.stdout, b"null");
}

#[test]
fn long_lived_answers_by_method_with_raw_ids_and_steps_in_order() {
    let script = r#"{
        "stderr": "starting\n", "banner": "log line\n",
        "on": {
            "hook.hello": {"write": "{\"jsonrpc\":\"2.0\",\"id\":$ID,\"result\":{}}\n"},
            "m": [{"write": "first $ID\n"}, {"write": "again $ID\r\n", "stderr": "e2"}],
            "quiet": {},
            "quit": {"write_hex": "ff", "then": "exit", "exit": 7},
            "*": {"write": "other $ID\n"}
        }
    }"#;
    let input = concat!(
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"hook.hello\"}\n",
        "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"hook.hello\"}\n",
        "{\"id\":1,\"method\":\"m\"}\n",
        "{\"id\":2,\"method\":\"m\"}\n",
        "{\"method\":\"m\",\"id\":3}\n",
        "{\"method\":\"quiet\",\"id\":4}\n",
        "{\"method\":\"notification\"}\n",
        "not json\n",
        "{\"method\":\"quit\",\"id\":5}\n",
        "{\"method\":\"m\",\"id\":6}\n",
    );
    let mut bytes = input.as_bytes().to_vec();
    // Invalid UTF-8 inside a line does not stop the method from matching.
    bytes.splice(0..0, b"{\"id\":0,\"method\":\"m\",\"x\":\"\xff\"}\n".iter().copied());
    let out = run("picoclaw-hook", script, &bytes);
    let expected: &[u8] = b"log line\n\
        first 0\n\
        {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\
        {\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"result\":{}}\n\
        again 1\r\n\
        again 2\r\n\
        again 3\r\n\
        other null\n\
        other null\n\
        \xff";
    assert_eq!(String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(expected));
    assert_eq!(out.stdout, expected);
    assert_eq!(out.stderr, b"starting\ne2e2e2");
    assert_eq!(out.status.code(), Some(7), "then: exit with the step's status");
}

#[test]
fn at_eof_exits_with_its_status() {
    let out = run("promptkit-server", r#"{"at_eof": {"stderr": "bye", "exit": 4}}"#, b"{\"method\":\"execute\",\"id\":1}\n");
    assert_eq!((out.stdout.as_slice(), out.stderr.as_slice(), out.status.code()), (&b""[..], &b"bye"[..], Some(4)));
}

#[test]
fn hang_keeps_running_until_killed_and_leaves_nothing() {
    let mark = marker("script-hang");
    let (_dir, path) = script_file(r#"{"on": {"*": {"write": "{\"id\":$ID}\n", "then": "hang"}}}"#);
    let mut child = spawn("picoclaw-hook", &path, &[], Some(&mark));
    let out = stdout_chunks(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"{\"id\":1,\"method\":\"hook.hello\"}\n{\"id\":2,\"method\":\"x\"}\n").expect("write");
    assert_eq!(out.recv_timeout(Duration::from_secs(10)).expect("the answer"), b"{\"id\":1}\n");
    drop(stdin);
    std::thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().expect("try_wait").is_none(), "hangs even after stdin EOF");
    assert_eq!(out.try_recv(), Err(mpsc::TryRecvError::Empty), "stdout stays open and silent");
    assert_eq!(common::marked(&mark).len(), 1, "one process, no helper");
    kill(&mut child);
    assert_nothing_left(&mark);
}

#[test]
fn close_stdout_then_exit_at_eof() {
    let (_dir, path) = script_file(r#"{"on": {"*": {"write": "bye\n", "then": "close_stdout"}}, "at_eof": {"exit": 6}}"#);
    let mut child = spawn("promptkit-server", &path, &[], None);
    let out = stdout_chunks(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"{\"id\":1,\"method\":\"execute\"}\n").expect("write");
    assert_eq!(out.recv_timeout(Duration::from_secs(10)).expect("the answer"), b"bye\n");
    assert_eq!(out.recv_timeout(Duration::from_secs(10)), Err(mpsc::RecvTimeoutError::Disconnected), "stdout closed");
    assert!(child.try_wait().expect("try_wait").is_none(), "still reading stdin");
    stdin.write_all(b"{\"id\":2,\"method\":\"execute\"}\n").expect("still read and discarded");
    drop(stdin);
    assert_eq!(child.wait().expect("wait").code(), Some(6));
}

#[test]
fn one_shot_close_then_hang_and_signal() {
    let mark = marker("script-close-hang");
    let (_dir, path) = script_file(r#"{"stdout": "x", "then": "close_then_hang"}"#);
    let mut child = spawn("runok-extension", &path, &[], Some(&mark));
    let out = stdout_chunks(&mut child);
    drop(child.stdin.take());
    assert_eq!(out.recv_timeout(Duration::from_secs(10)).expect("the answer"), b"x");
    assert_eq!(out.recv_timeout(Duration::from_secs(10)), Err(mpsc::RecvTimeoutError::Disconnected), "stdout closed");
    assert!(child.try_wait().expect("try_wait").is_none(), "hangs");
    kill(&mut child);
    assert_nothing_left(&mark);

    let out = run("runok-extension", r#"{"stdout": "y", "then": "signal"}"#, b"{}");
    assert_eq!((out.stdout.as_slice(), out.status.signal()), (&b"y"[..], Some(9)));
}

#[test]
fn chunks_repeats_and_a_child_holding_stdout() {
    // Partial writes: one reply in 1-byte writes, 100 ms apart, reaches the reader in pieces.
    let mark = marker("script-child");
    let (_dir, path) = script_file(
        r#"{"stdout": "abcd", "write_chunks": {"bytes": 1, "gap_ms": 100}, "stderr": "e", "stderr_repeat": 5,
            "child": {"ms": 30000, "holds": "stdout"}}"#,
    );
    let mut child = spawn("runok-extension", &path, &[], Some(&mark));
    let out = stdout_chunks(&mut child);
    drop(child.stdin.take());
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("stderr to EOF: the child holds only stdout");
    assert_eq!(err, "eeeee", "stderr written five times");
    assert_eq!(child.wait().expect("wait").code(), Some(0));
    let mut pieces: Vec<Vec<u8>> = Vec::new();
    while pieces.concat().len() < 4 {
        pieces.push(out.recv_timeout(Duration::from_secs(10)).expect("a piece"));
    }
    // Four writes, 100 ms apart: a reader sees several of them (not one block), whatever the load.
    assert_eq!((pieces.concat(), pieces.len() > 1), (b"abcd".to_vec(), true), "{pieces:?}");
    // The plugin has exited; its child still holds stdout open.
    assert_eq!(out.recv_timeout(Duration::from_millis(200)), Err(mpsc::RecvTimeoutError::Timeout), "stdout held open by the child");
    assert_eq!(common::marked(&mark).len(), 1, "the child, and only it, is left");
    kill_marked(&mark);
    assert_eq!(out.recv_timeout(Duration::from_secs(10)), Err(mpsc::RecvTimeoutError::Disconnected), "EOF once the child is gone");
    assert_nothing_left(&mark);
}

#[test]
fn a_child_in_its_own_session_and_lingering() {
    let mark = marker("script-escapee");
    let (_dir, path) = script_file(r#"{"on": {"*": {"write": "{\"id\":$ID}\n"}}, "child": {"ms": 30000, "own_session": true}}"#);
    let mut child = spawn("picoclaw-hook", &path, &[], Some(&mark));
    let out = stdout_chunks(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"{\"id\":1,\"method\":\"hook.hello\"}\n").expect("write");
    assert_eq!(out.recv_timeout(Duration::from_secs(10)).expect("the answer"), b"{\"id\":1}\n");
    drop(stdin);
    assert_eq!(child.wait().expect("wait").code(), Some(0));
    assert_eq!(out.recv_timeout(Duration::from_secs(10)), Err(mpsc::RecvTimeoutError::Disconnected), "the child holds no pipe");
    let left = common::marked(&mark);
    assert_eq!(left.len(), 1, "the child outlives the plugin: {left:?}");
    let sid = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit(')').next().and_then(|r| r.split_whitespace().nth(3).map(str::to_string)))
    };
    assert_eq!(sid(&left[0].to_string()), Some(left[0].to_string()), "it leads a session of its own");
    kill_marked(&mark);
    assert_nothing_left(&mark);

    // A one-shot plugin that lingers after its answer has written it before it exits.
    let (_dir, path) = script_file(r#"{"stdout": "x", "linger_ms": 300, "start_delay_ms": 10}"#);
    let mut child = spawn("runok-extension", &path, &[], None);
    let out = stdout_chunks(&mut child);
    drop(child.stdin.take());
    assert_eq!(out.recv_timeout(Duration::from_secs(10)).expect("the answer"), b"x");
    assert!(child.try_wait().expect("try_wait").is_none(), "still lingering after the answer");
    assert_eq!(child.wait().expect("wait").code(), Some(0));
}

#[test]
fn record_keeps_what_the_scripted_plugin_received() {
    let (dir, path) = script_file(r#"{"on": {"*": {"write": "ok\n"}}}"#);
    let record = dir.path().join("rec.jsonl");
    let mut child = spawn("picoclaw-hook", &path, &["--record", record.to_str().expect("utf-8 path")], None);
    child.stdin.take().expect("stdin").write_all(b"{\"id\":1,\"method\":\"hook.hello\"}\n").expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!((out.stdout.as_slice(), out.status.code()), (&b"ok\n"[..], Some(0)));
    let text = std::fs::read_to_string(&record).expect("record");
    let entries: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(entries[1]["text"], "{\"id\":1,\"method\":\"hook.hello\"}\n", "{text}");
    assert_eq!(entries.last().expect("entries")["exit"], 0, "{text}");
}

#[test]
fn bad_scripts_and_conflicting_flags_are_usage_errors() {
    let (_dir, path) = script_file("{\n  \"stdout\": \"x\",\n  \"stdout_hex\": \"78\"\n}");
    let out = Command::new(proctor()).args(["mock-plugin", "--protocol", "runok-extension", "--script"]).arg(&path).output().expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&path.display().to_string()) && err.contains("stdout and stdout_hex are both given"), "{err}");

    std::fs::write(&path, "{\n  \"on\": {\"m\": {\"wrte\": \"x\"}}\n}").expect("write");
    let out = Command::new(proctor()).args(["mock-plugin", "--protocol", "picoclaw-hook", "--script"]).arg(&path).output().expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown field `wrte`") && err.contains("line 2 column"), "{err}");

    for flag in [&["--fault", "hang"][..], &["--decision", "deny"], &["--scenario", "s.yaml", "--plugin", "p"]] {
        let out = Command::new(proctor())
            .args(["mock-plugin", "--protocol", "picoclaw-hook", "--script"])
            .arg(&path)
            .args(flag)
            .output()
            .expect("run");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag:?}: {err}");
        assert!(err.contains("cannot be used with"), "{flag:?}: {err}");
    }
}

fn scripted(name: &str) -> Vec<String> {
    let path = repo_root().join("mocks/scripts").join(name);
    let mut argv: Vec<String> = [proctor(), "mock-plugin", "--protocol", "picoclaw-hook", "--script"].map(String::from).to_vec();
    argv.push(path.display().to_string());
    argv
}

#[test]
fn certify_judges_scripted_picoclaw_hooks() {
    let (code, report, _) = certify_json(&["--protocol", "picoclaw-hook"], &scripted("picoclaw-well.json"));
    assert_eq!(report["verdict"], "conformant", "{}", problems(&report));
    assert_eq!(code, 0);

    let (code, report, _) = certify_json(&["--protocol", "picoclaw-hook"], &scripted("picoclaw-bad-action.json"));
    assert_eq!(report["verdict"], "nonconformant", "{}", problems(&report));
    assert_eq!(code, 1);
    assert!(results(&report, "PICOCLAW-ACTION").iter().any(|r| r["status"] == "fail"), "{}", problems(&report));
}
