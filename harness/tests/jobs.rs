//! `proctor certify --jobs N`: a one-shot plugin's probes, cases and fuzz
//! inputs overlap, and the report is byte for byte the one `--jobs 1` writes,
//! in every format, for plugins that pass and plugins that fail (a shrunk fuzz
//! failure included). A plugin that hangs costs no more than with `--jobs 1`,
//! and nothing it started outlives the run.

mod common;

use std::process::Command;
use std::time::Instant;

use common::{assert_nothing_left, marker, mock, proctor, repo_root};

const SCHEMA: &str = "harness/tests/fixtures/fuzz_tool.schema.json";

/// The report `certify` writes with `--jobs jobs`, and its exit code.
fn report(jobs: &str, format: &str, flags: &[&str], plugin: &[String]) -> (Vec<u8>, Option<i32>) {
    let out = Command::new(proctor())
        .current_dir(repo_root())
        .args(["certify", "--no-progress", "--format", format, "--jobs", jobs])
        .args(flags)
        .arg("--")
        .args(plugin)
        .output()
        .expect("run proctor");
    assert!(!out.stdout.is_empty(), "no report: {}", String::from_utf8_lossy(&out.stderr));
    (out.stdout, out.status.code())
}

fn cases_file(dir: &std::path::Path, text: &str) -> String {
    let path = dir.join("cases.yaml");
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn every_format_is_the_same_at_any_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let tool_cases = cases_file(
        dir.path(),
        "cases:\n  - name: a\n    request: {args: {text: hi}}\n    expect: {decision: result}\n  - name: b\n    request: {args: {text: \"\"}}\n    expect: {decision: error}\n",
    );
    let tool = ["--protocol", "promptkit-exec", "--role", "tool", "--fuzz", "30", "--schema", SCHEMA, "--cases", tool_cases.as_str()];
    let runok = ["--protocol", "runok-extension"];
    let rows: [(&[&str], Vec<String>); 4] = [
        // Passes, with cases (one of them failing) and fuzz inputs.
        (&tool, mock("promptkit-exec", &["--role", "tool"])),
        // A fuzz failure, shrunk: the shrinking's exchanges run on demand.
        (&tool, mock("promptkit-exec", &["--role", "tool", "--fault", "crash-on-quote"])),
        (&runok, mock("runok-extension", &["--decision", "deny"])),
        (&runok, mock("runok-extension", &["--fault", "status-uppercase"])),
    ];
    for (flags, plugin) in &rows {
        for format in ["json", "text", "junit", "markdown"] {
            let (one, one_code) = report("1", format, flags, plugin);
            let (three, three_code) = report("3", format, flags, plugin);
            assert_eq!(one_code, three_code, "{format} {plugin:?}");
            assert!(
                one == three,
                "{format} report of {plugin:?} differs between --jobs 1 and --jobs 3:\n--- jobs 1\n{}\n--- jobs 3\n{}",
                String::from_utf8_lossy(&one),
                String::from_utf8_lossy(&three)
            );
        }
    }
}

/// `--jobs` really overlaps processes (and the comparison above can fail): a
/// plugin that cannot run twice at once passes with `--jobs 1` and is seen to
/// collide with itself with `--jobs 4`.
#[test]
fn processes_overlap_and_a_plugin_that_cannot_share_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let lock = dir.path().join("lock");
    let script = format!(
        "mkdir '{0}' 2>/dev/null || {{ echo 'another copy is running' >&2; exit 3; }}; cat >/dev/null; sleep 0.3; rmdir '{0}'; echo '{{\"result\":\"ok\"}}'",
        lock.display()
    );
    let plugin = vec!["sh".to_string(), "-c".into(), script];
    let flags = ["--protocol", "promptkit-exec", "--role", "tool", "--profile", "documented"];
    let (one, one_code) = report("1", "json", &flags, &plugin);
    assert_eq!(one_code, Some(0), "one at a time it is conformant:\n{}", String::from_utf8_lossy(&one));
    let (four, four_code) = report("4", "json", &flags, &plugin);
    assert_eq!(four_code, Some(1), "four at a time it collides:\n{}", String::from_utf8_lossy(&four));
    assert!(String::from_utf8_lossy(&four).contains("another copy is running"), "{}", String::from_utf8_lossy(&four));
}

#[test]
fn a_hanging_plugin_costs_no_more_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let many: String = (0..12).map(|n| format!("  - name: c{n}\n    expect: {{decision: result}}\n")).collect();
    let cases = cases_file(dir.path(), &format!("cases:\n{many}"));
    let mark = marker("jobs-hang");
    let plugin = vec!["env".to_string(), format!("PROCTOR_TEST_MARKER={mark}"), proctor().into()]
        .into_iter()
        .chain(mock("promptkit-exec", &["--role", "tool", "--fault", "hang"]).into_iter().skip(1))
        .collect::<Vec<_>>();
    let flags =
        ["--protocol", "promptkit-exec", "--role", "tool", "--profile", "documented", "--timeout-ms", "300", "--cases", cases.as_str()];
    let started = Instant::now();
    let (one, _) = report("1", "json", &flags, &plugin);
    let sequential = started.elapsed();
    let started = Instant::now();
    let (four, _) = report("4", "json", &flags, &plugin);
    let overlapped = started.elapsed();
    assert_nothing_left(&mark);
    assert!(one == four, "the same report:\n--- jobs 1\n{}\n--- jobs 4\n{}", String::from_utf8_lossy(&one), String::from_utf8_lossy(&four));
    // Twelve queued cases never judged (the first answer was unreadable) are
    // ended, not waited for: at most the first probe's deadline and shutdown,
    // far below 12 × 300 ms. (Generous: only a runaway would cross it.)
    assert!(overlapped < sequential * 3 + std::time::Duration::from_secs(2), "--jobs 4 took {overlapped:?}, --jobs 1 {sequential:?}");
}

#[test]
fn jobs_must_be_a_positive_number() {
    for bad in ["0", "-1", "many"] {
        let out = Command::new(proctor())
            .args(["certify", "--protocol", "runok-extension", &format!("--jobs={bad}"), "--", "true"])
            .output()
            .expect("run proctor");
        assert_eq!(out.status.code(), Some(2), "--jobs {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--jobs"), "--jobs {bad}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Plugins running at once append to one `--record` file: every line names
/// its process, so each process's record is whole (start, what it read, EOF,
/// exit), whatever the interleaving.
#[test]
fn a_record_written_by_plugins_at_once_keeps_each_process_whole() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("ext.jsonl");
    let many: String = (0..8).map(|n| format!("  - name: c{n}\n    expect: {{decision: deny}}\n")).collect();
    let cases = cases_file(dir.path(), &format!("cases:\n{many}"));
    let plugin = mock("runok-extension", &["--decision", "deny", "--record", record.to_str().unwrap()]);
    let (report, code) = report("4", "json", &["--protocol", "runok-extension", "--cases", &cases], &plugin);
    assert_eq!(code, Some(0), "{}", String::from_utf8_lossy(&report));
    let exchanges = serde_json::from_slice::<serde_json::Value>(&report).unwrap()["summary"]["exchanges"].as_u64().unwrap();
    let mut sessions: std::collections::BTreeMap<u64, Vec<serde_json::Value>> = Default::default();
    for line in std::fs::read_to_string(&record).unwrap().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("a broken record line {line:?}: {e}"));
        sessions.entry(v["pid"].as_u64().expect("every line names its pid")).or_default().push(v);
    }
    assert_eq!(sessions.len() as u64, exchanges, "one process per exchange");
    for (pid, lines) in &sessions {
        assert!(lines.first().is_some_and(|l| l["start"] == true), "pid {pid} starts with its marker: {lines:?}");
        let text: String = lines.iter().filter_map(|l| l["text"].as_str()).collect();
        assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok(), "pid {pid} read one whole request: {text:?}");
        assert!(lines.iter().any(|l| l["eof"] == true) && lines.last().is_some_and(|l| l.get("exit").is_some()), "{lines:?}");
    }
}
