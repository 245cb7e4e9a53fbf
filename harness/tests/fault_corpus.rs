//! The fault corpus as a matrix: every misbehaviour the mock plugin can
//! perform ([`Fault::ALL`]), crossed with every protocol family it changes
//! anything for ([`Fault::applies_to`]), run through the real
//! `proctor certify` binary. Each pair must be judged with the typed outcome
//! its row in [`ROWS`] names, leave no process of the plugin behind, and keep
//! proctor's peak RSS under [`RSS_LIMIT_KIB`].
//!
//! The pairs come from the code, so a new fault or a wider `applies_to` joins
//! the matrix at once, and fails it until a row says what must happen.
//! Problems are collected over the whole matrix and reported together, one
//! line per (fault, family).
//!
//! Interrupting proctor itself (SIGINT, SIGTERM) is covered by
//! `fault_tolerance.rs`; this file is about what proctor does to plugins.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::{marked, marker, mock, proctor, repo_root};
use proctor_conformance::protocol::{Family, Role};
use proctor_mocks::plugin::{Fault, FaultKind};
use serde_json::Value;

/// Every request deadline; faults that wait (hang, late-reply) are judged at it.
const TIMEOUT: &str = "--timeout-ms=400";
/// Two one-shot plugins at once, on any machine: each running exchange may
/// hold up to 16 MiB of a flood, so the bound below is for this many.
const JOBS: &str = "--jobs=2";
/// proctor's peak resident set (VmHWM) may not reach 64 MiB, floods or not
/// (at `--jobs 1` a stdout flood costs about 27 MiB, at `--jobs 2` about 52).
const RSS_LIMIT_KIB: u64 = 64 * 1024;
/// Killed plugin processes may take a moment to be reaped.
const LEAK_WINDOW: Duration = Duration::from_secs(3);
/// One certify run that takes longer than this is killed and reported.
const RUN_LIMIT: Duration = Duration::from_secs(120);
/// Certify runs in flight at once; most of their time is spent waiting.
const THREADS: usize = 6;

const EXEC: Family = Family::PromptkitExec;
const SERVER: Family = Family::PromptkitServer;
const PICO: Family = Family::PicoclawHook;
const RUNOK: Family = Family::RunokExtension;
/// The families the mock plugin plays (command hooks are scripts, held by catalogue_bites.rs and the agents comparison).
const ALL: &[Family] = &[EXEC, SERVER, PICO, RUNOK];
const ONE_SHOT: &[Family] = &[EXEC, RUNOK];
const LINES: &[Family] = &[SERVER, PICO];
const RPC: &[Family] = &[SERVER, PICO, RUNOK];

/// What certify must make of a (fault, family) pair.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// A `must` check notices: exit 1, and one of these (check id, failure
    /// `kind`) pairs is a real failure (`detail.outcome == "fail"`, not
    /// untestable) under at least one profile.
    Fails(&'static [(&'static str, &'static str)]),
    /// Only a `should` check notices: exit 0, and one of these pairs warns.
    Warns(&'static [(&'static str, &'static str)]),
    /// Allow-list: the fault changes the plugin's bytes, but nothing the
    /// family's runtime depends on, so certify must pass it (exit 0, no
    /// failing or warning check). The reason says why.
    Harmless(&'static str),
}

/// The expectation for one fault on some families.
#[derive(Debug, Clone, Copy)]
struct Row {
    fault: &'static str,
    families: &'static [Family],
    expect: Expect,
    /// Extra mock-plugin flags (a decision, a companion fault, a count).
    mock: &'static [&'static str],
    /// Extra certify flags (a probe the fault needs, such as `--fuzz`).
    certify: &'static [&'static str],
    /// The matching check's message must contain this.
    message: Option<&'static str>,
}

const fn row(fault: &'static str, families: &'static [Family], expect: Expect) -> Row {
    Row { fault, families, expect, mock: &[], certify: &[], message: None }
}

impl Row {
    const fn mock(mut self, flags: &'static [&'static str]) -> Row {
        self.mock = flags;
        self
    }
    const fn certify(mut self, flags: &'static [&'static str]) -> Row {
        self.certify = flags;
        self
    }
    const fn message(mut self, text: &'static str) -> Row {
        self.message = Some(text);
        self
    }
}

use Expect::{Fails, Harmless, Warns};

const SINGLE_DOC: &[(&str, &str)] = &[("FRAMING-SINGLE-DOCUMENT", "framing")];
const DEADLINE: &[(&str, &str)] = &[("ROBUST-DEADLINE", "timeout")];
/// Generated tool calls, from a schema with a free-text string.
const FUZZ: &[&str] = &["--fuzz", "20", "--schema", "harness/tests/fixtures/fault_corpus/tool.schema.json"];

/// One row per (fault, family) the fault applies to; see [`plan`] for how a
/// pair finds its row. Keep `Harmless` rows few, each with its reason.
const ROWS: &[Row] = &[
    // Framing.
    row("two-documents", ONE_SHOT, Fails(SINGLE_DOC)),
    // The duplicate reply is read as the answer to the next request.
    // Matched by id (documented, PicoClaw) a second copy is its own finding;
    // PromptKit server mode reads it as the next call's reply.
    row("two-documents", LINES, Fails(&[("JSONRPC-NO-DUPLICATE-REPLY", "unexpected"), ("JSONRPC-ID-ECHO", "id_mismatch")])),
    row("log-line", ONE_SHOT, Fails(SINGLE_DOC)),
    row("log-line", LINES, Fails(&[("FRAMING-NO-STRAY-OUTPUT", "framing")])),
    row("empty-output", ONE_SHOT, Fails(SINGLE_DOC)),
    // One-shot hosts parse the whole of stdout, so indentation is only untidy.
    row("pretty-print", ONE_SHOT, Warns(&[("FRAMING-COMPACT", "framing")])),
    row("pretty-print", LINES, Fails(&[("FRAMING-LINE-PER-MESSAGE", "framing")])),
    row("partial-line", LINES, Fails(&[("FRAMING-LINE-PER-MESSAGE", "framing")])),
    row("truncated-line", LINES, Fails(&[("FRAMING-LINE-PER-MESSAGE", "framing")])),
    row("truncated-line", ONE_SHOT, Fails(SINGLE_DOC)),
    row("invalid-utf8", ALL, Fails(&[("FRAMING-UTF8", "framing")])),
    row("bom", ALL, Fails(&[("FRAMING-NO-BOM", "framing")])),
    row("crlf", LINES, Warns(&[("FRAMING-LF-ENDINGS", "framing")])),
    row(
        "crlf",
        ONE_SHOT,
        Harmless("a one-shot reply is one JSON document read to EOF, and a CR after it is JSON whitespace; there are no lines to end"),
    ),
    row("no-flush", LINES, Fails(&[("FRAMING-FLUSHED", "buffered")])),
    row("huge-line", &[PICO], Fails(&[("FRAMING-LINE-SIZE", "framing")])),
    row(
        "huge-line",
        &[EXEC, SERVER],
        Harmless("only PicoClaw caps a line at 1 MiB; PromptKit exec reads stdout to EOF, PromptKit server allows 10 MiB lines (research/promptkit.md §1.3.2), and the padding is 1.5 MiB"),
    ),
    // runok reads stdout only after the exit: 1.5 MiB never leaves the pipe, so the extension never exits.
    row("huge-line", &[RUNOK], Fails(&[("PIPE-WRITES-DRAINED", "pipe_blocked")])),
    // JSON-RPC envelope.
    row("no-jsonrpc", RPC, Fails(&[("JSONRPC-VERSION", "mismatch")])),
    row("wrong-version", RPC, Fails(&[("JSONRPC-VERSION", "mismatch")])),
    row("wrong-id", RPC, Fails(&[("JSONRPC-ID-ECHO", "id_mismatch")])),
    row("string-id", RPC, Fails(&[("JSONRPC-ID-ECHO", "id_mismatch")])),
    row("duplicate-id", LINES, Fails(&[("JSONRPC-NO-DUPLICATE-REPLY", "unexpected"), ("JSONRPC-ID-ECHO", "id_mismatch")])),
    row("duplicate-id", &[RUNOK], Fails(SINGLE_DOC)),
    row("both-result-error", RPC, Fails(&[("JSONRPC-RESULT-XOR-ERROR", "mismatch")])),
    row("neither-result-error", RPC, Fails(&[("JSONRPC-RESULT-XOR-ERROR", "mismatch")])),
    row("bad-error-object", LINES, Fails(&[("JSONRPC-ERROR-SHAPE", "mismatch")])),
    row(
        "bad-error-object",
        &[RUNOK],
        Harmless("runok only ever sends validateCommand, which the mock answers with a result: there is no error object to get wrong"),
    ),
    row("reply-to-notification", &[PICO], Fails(&[("JSONRPC-NOTIFICATION-SILENT", "unexpected")])),
    row(
        "reply-to-notification",
        &[SERVER, RUNOK],
        Harmless("PromptKit server and runok send no notifications (research/promptkit.md §1.3.2, research/picoclaw-runok.md), so there is nothing to answer"),
    ),
    row("ignore-unknown-method", LINES, Fails(&[("JSONRPC-UNKNOWN-METHOD", "missing")])),
    row(
        "ignore-unknown-method",
        &[RUNOK],
        Harmless("runok sends one validateCommand per process and never another method, so no unknown method is probed"),
    ),
    // Lifecycle.
    row("no-hello", &[PICO], Fails(&[("LIFECYCLE-HANDSHAKE", "timeout")])),
    row("hello-error", &[PICO], Fails(&[("LIFECYCLE-HANDSHAKE", "mismatch")])),
    row("crash-after", &[EXEC], Fails(&[("LIFECYCLE-EXIT-ZERO", "crash")])).mock(&["--crash-after", "1"]),
    row("crash-after", LINES, Fails(&[("LIFECYCLE-STAYS-ALIVE", "crash")])).mock(&["--crash-after", "1"]),
    row(
        "crash-after",
        &[RUNOK],
        Harmless("one request per process, and runok ignores the exit status completely (research/picoclaw-runok.md, 'Exit code'): exit 1 after the only answer is invisible"),
    )
    .mock(&["--crash-after", "1"]),
    row("ignore-eof", ALL, Fails(&[("LIFECYCLE-EXIT-ON-EOF", "timeout")])),
    row("exit-nonzero", &[EXEC], Fails(&[("LIFECYCLE-EXIT-ZERO", "crash")])),
    row(
        "exit-nonzero",
        RPC,
        Harmless("no runtime of these families reads the exit status of a plugin that answered and exited at EOF (runok: 'ignored completely'; PromptKit server and PicoClaw only wait for the process at shutdown); LIFECYCLE-EXIT-ZERO is promptkit-exec only"),
    ),
    row("needs-newline", ONE_SHOT, Fails(&[("LIFECYCLE-READS-TO-EOF", "mismatch")])),
    row("grandchild", ALL, Fails(&[("LIFECYCLE-NO-LEFTOVER", "leak")])),
    // Out of the group and off the pipes: only descendant tracking finds it (and the corpus checks none is left).
    row("escape-session", ALL, Fails(&[("LIFECYCLE-NO-LEFTOVER", "leak")])),
    // Alone, SIGTERM never comes: the mock exits at EOF. With ignore-eof it
    // must be escalated to SIGKILL, and the report must say so.
    row("ignore-sigterm", ALL, Fails(&[("LIFECYCLE-EXIT-ON-EOF", "timeout")])).mock(&["--fault", "ignore-eof"]).message("ignored SIGTERM"),
    row("slow-start", ONE_SHOT, Fails(DEADLINE)),
    // PromptKit starts a server within its first call, under the call's timeout: the configured
    // 400 ms bounds the start-up too (measured: interop/differential/regressions/promptkit-server-tool-503001514.json).
    row("slow-start", &[SERVER], Fails(DEADLINE)),
    row(
        "slow-start",
        &[PICO],
        Harmless("hook.hello waits for the startup deadline, not --timeout-ms (PicoClaw's handshake has no bound of its own), and the 2 s delay is within it, as the fault promises: 'should pass with default deadlines'"),
    ),
    // Semantics.
    row("tool-empty", &[EXEC], Fails(&[("TOOL-RESPONSE-SHAPE", "mismatch")])),
    row("tool-both", &[EXEC], Fails(&[("TOOL-RESPONSE-SHAPE", "mismatch")])),
    row(
        "tool-empty",
        &[SERVER],
        Harmless("PromptKit server hands the JSON-RPC result to the model as the tool result, whatever it is; it never looks inside for result/error/pending (research/promptkit.md §1.3.2)"),
    ),
    row(
        "tool-both",
        &[SERVER],
        Harmless("PromptKit server hands the JSON-RPC result to the model as the tool result, whatever it is; it never looks inside for result/error/pending (research/promptkit.md §1.3.2)"),
    ),
    row("pending-no-reason", &[EXEC], Fails(&[("TOOL-PENDING-SHAPE", "mismatch")])).mock(&["--decision", "pending"]),
    row("score-out-of-range", &[EXEC], Fails(&[("EVAL-SCORE", "mismatch")])),
    row("selector-not-list", &[EXEC], Fails(&[("SELECTOR-RESPONSE-SHAPE", "mismatch")])),
    row("selector-unknown-id", &[EXEC], Fails(&[("SELECTOR-KNOWN-IDS", "mismatch")])),
    row("selector-too-many", &[EXEC], Warns(&[("SELECTOR-AT-MOST-K", "mismatch")])),
    row("documented-keys-only", &[EXEC], Fails(&[("PROMPTKIT-KEY-SPELLING", "mismatch")])),
    row("score-string", &[EXEC], Fails(&[("EVAL-SCORE", "mismatch")])),
    row("allow-string", &[EXEC], Fails(&[("HOOK-ALLOW-BOOLEAN", "mismatch")])),
    row("ack-only", &[EXEC], Fails(&[("HOOK-ALLOW-BOOLEAN", "mismatch")])),
    row("deny-no-reason", &[EXEC, PICO], Warns(&[("HOOK-DENY-REASON", "mismatch")])).mock(&["--decision", "deny"]),
    row("no-ack", &[EXEC], Warns(&[("HOOK-OBSERVE-ACK", "mismatch")])),
    row("unknown-action", &[PICO], Fails(&[("PICOCLAW-ACTION", "mismatch")])),
    row("respond-everywhere", &[PICO], Fails(&[("PICOCLAW-ACTION", "mismatch")])),
    row("modify-flat", &[PICO], Fails(&[("PICOCLAW-MODIFY-PAYLOAD", "mismatch")])).mock(&["--decision", "modify"]),
    row("modify-empty", &[PICO], Fails(&[("PICOCLAW-MODIFY-PAYLOAD", "mismatch")])),
    row("respond-no-result", &[PICO], Fails(&[("PICOCLAW-RESPOND-RESULT", "mismatch")])).mock(&["--decision", "respond"]),
    row("approve-missing", &[PICO], Fails(&[("PICOCLAW-APPROVE-BOOLEAN", "mismatch")])),
    row("approve-string", &[PICO], Fails(&[("PICOCLAW-APPROVE-BOOLEAN", "mismatch")])),
    row("status-uppercase", &[RUNOK], Fails(&[("RUNOK-STATUS", "mismatch")])),
    row("message-number", &[RUNOK], Fails(&[("RUNOK-OPTIONAL-STRINGS", "mismatch")])).mock(&["--decision", "deny"]),
    // Robustness.
    row("hang", ALL, Fails(DEADLINE)),
    // With every PicoClaw mode on, before_llm is probed first, where an error
    // reads as `continue` like the plain answer: the error itself must fail it.
    row("strict-fields", ALL, Fails(&[("ROBUST-UNKNOWN-FIELDS", "mismatch")])),
    row("drop-pipelined", &[PICO], Fails(&[("ROBUST-CONCURRENT", "missing")])),
    row(
        "drop-pipelined",
        &[SERVER],
        Harmless("PromptKit server holds a mutex over write+read, one request in flight per process (research/promptkit.md §1.3.2), so requests are never pipelined"),
    ),
    row(
        "stderr-flood",
        ALL,
        Harmless("proctor drains stderr while it waits, so a chatty plugin still answers in time; the pair proves proctor survives 50 MiB of stderr within the RSS bound"),
    ),
    row("stdout-flood", ONE_SHOT, Fails(SINGLE_DOC)),
    row("stdout-flood", LINES, Fails(&[("FRAMING-LINE-SIZE", "framing")])),
    row("late-reply", RPC, Fails(DEADLINE)),
    // PicoClaw's stderr reader stops at a line of 1 MiB; the hook blocks in its next stderr write.
    row("stderr-long-line", &[PICO], Fails(&[("PIPE-WRITES-DRAINED", "pipe_blocked")])),
    // runok reads stdout only after the exit: a reply over the pipe buffer never lets the extension exit.
    row("big-reply", &[RUNOK], Fails(&[("PIPE-WRITES-DRAINED", "pipe_blocked")])),
    // Only generated arguments carry a quote; the built-in probes do not.
    row("crash-on-quote", &[EXEC, SERVER, PICO], Fails(&[("ROBUST-FUZZ", "crash")])).certify(FUZZ),
    row("only-marked", ALL, Harmless("a modifier: alone it changes nothing, it only holds the other semantic faults back from unmarked requests")),
];

/// One (fault, family) pair to run.
#[derive(Debug, Clone)]
struct Pair {
    fault: Fault,
    family: Family,
    role: Option<Role>,
    row: Row,
}

impl Pair {
    fn label(&self) -> (String, String) {
        let family = match self.role {
            Some(role) => format!("{} --role {}", self.family, role.name()),
            None => self.family.to_string(),
        };
        (self.fault.name().to_string(), family)
    }
}

/// What went wrong, for the final table.
#[derive(Debug, Clone)]
struct Problem {
    fault: String,
    family: String,
    what: String,
}

/// The role a pair plays: `None` for the family's default (every PicoClaw
/// mode, the only role of the others); for promptkit-exec, which needs one,
/// `tool` unless the fault only changes another role.
fn representative_role(fault: Fault, family: Family) -> Option<Role> {
    if family != EXEC {
        return None;
    }
    std::iter::once(Role::Tool).chain(family.roles().iter().copied()).find(|&role| fault.applies_to(family, role))
}

/// Derives the pairs from [`Fault::ALL`] and `applies_to`, matching each to
/// exactly one row; everything that does not fit is a problem.
fn plan() -> (Vec<Pair>, Vec<Problem>) {
    let mut pairs = Vec::new();
    let mut problems = Vec::new();
    let mut problem = |fault: &str, family: &str, what: String| problems.push(Problem { fault: fault.into(), family: family.into(), what });
    for row in ROWS {
        if row.fault.parse::<Fault>().is_err() {
            problem(row.fault, "-", "row names a fault that does not exist".into());
        }
        if let Harmless(reason) = row.expect
            && reason.trim().is_empty()
        {
            problem(row.fault, "-", "allow-list row without a reason".into());
        }
    }
    for &fault in Fault::ALL {
        let families: Vec<Family> = Family::ALL.into_iter().filter(|&f| fault.applies_to_family(f)).collect();
        if families.is_empty() {
            problem(fault.name(), "-", "applies to no family, so it is never tested".into());
        }
        for family in Family::ALL {
            let rows: Vec<&Row> = ROWS.iter().filter(|r| r.fault == fault.name() && r.families.contains(&family)).collect();
            let applies = families.contains(&family);
            match (applies, rows.as_slice()) {
                (false, []) => {}
                (false, _) => problem(fault.name(), family.name(), "stale row: the fault changes nothing for this family".into()),
                (true, []) => problem(fault.name(), family.name(), "no expectation row (add one to ROWS)".into()),
                (true, [row]) => {
                    let role = representative_role(fault, family);
                    pairs.push(Pair { fault, family, role, row: **row });
                }
                (true, _) => problem(fault.name(), family.name(), format!("{} rows match; keep one", rows.len())),
            }
        }
    }
    (pairs, problems)
}

/// What one certify run produced.
struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    elapsed: Duration,
    /// proctor's peak RSS, from the kernel's account at its exit (`wait4`).
    peak_kib: Option<u64>,
    leftover: Vec<u32>,
    killed: bool,
}

/// Reaps `pid` and returns its exit status and peak RSS in KiB. The kernel
/// keeps the peak until the process is reaped, so, unlike sampling
/// `/proc/PID/status`, no run is too short to measure.
fn wait_with_peak(pid: u32) -> (std::process::ExitStatus, Option<u64>) {
    use std::os::unix::process::ExitStatusExt;
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in; zeroed is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: pid is our own unreaped child; both pointers are valid for the call.
    let reaped = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    let peak = (reaped == pid as libc::pid_t).then(|| u64::try_from(usage.ru_maxrss).unwrap_or(0));
    (std::process::ExitStatus::from_raw(status), peak)
}

// The child is reaped by `wait_with_peak` (wait4 by pid), which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn certify(pair: &Pair, mark: &str) -> Run {
    let family = pair.family.name();
    let mut flags: Vec<&str> = Vec::new();
    if let Some(role) = pair.role {
        flags.extend(["--role", role.name()]);
    }
    let mut plugin = flags.clone();
    plugin.extend(["--fault", pair.fault.name()]);
    plugin.extend(pair.row.mock);
    let start = Instant::now();
    let mut child = Command::new(proctor())
        .current_dir(repo_root())
        .env("PROCTOR_TEST_MARKER", mark)
        .args(["certify", "--format", "json", "--no-progress", TIMEOUT, JOBS, "--protocol", family])
        .args(&flags)
        .args(pair.row.certify)
        .arg("--")
        .args(mock(family, &plugin))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn proctor");
    let pid = child.id();
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let (stdout, stderr, (status, peak_kib), killed) = std::thread::scope(|s| {
        let out = s.spawn(move || {
            let mut buf = Vec::new();
            let _ = out.read_to_end(&mut buf);
            buf
        });
        let err = s.spawn(move || {
            let mut buf = Vec::new();
            let _ = err.read_to_end(&mut buf);
            buf
        });
        let (tx, exited) = std::sync::mpsc::channel();
        s.spawn(move || tx.send(wait_with_peak(pid)));
        let (ended, killed) = match exited.recv_timeout(RUN_LIMIT.saturating_sub(start.elapsed())) {
            Ok(ended) => (ended, false),
            Err(_) => {
                // Still unreaped (the waiting thread has not returned), so the pid is still proctor's.
                let _ = child.kill();
                (exited.recv().expect("wait4 thread"), true)
            }
        };
        (out.join().expect("stdout reader"), err.join().expect("stderr reader"), ended, killed)
    });
    let elapsed = start.elapsed();
    let until = Instant::now() + LEAK_WINDOW;
    let mut leftover = marked(mark);
    while !leftover.is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
        leftover = marked(mark);
    }
    Run { code: status.code(), stdout, stderr, elapsed, peak_kib, leftover, killed }
}

/// `id[profile]:kind` for every real failure or warning, for messages.
fn failures(report: &Value) -> String {
    let mut seen: Vec<String> = report["checks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["detail"]["outcome"] == "fail")
        .map(|c| {
            format!(
                "{} {}:{}",
                c["status"].as_str().unwrap_or("?"),
                c["id"].as_str().unwrap_or("?"),
                c["detail"]["failure"]["kind"].as_str().unwrap_or("?")
            )
        })
        .collect();
    seen.sort();
    seen.dedup();
    if seen.is_empty() { "none".into() } else { seen.join(", ") }
}

/// Every way `run` misses `pair`'s row.
fn judge(pair: &Pair, run: &Run) -> Vec<String> {
    let mut wrong = Vec::new();
    let stderr = String::from_utf8_lossy(&run.stderr);
    if run.killed {
        wrong.push(format!("proctor still running after {RUN_LIMIT:?}; killed"));
    }
    if stderr.contains("panicked") {
        wrong.push(format!("proctor panicked: {}", stderr.lines().find(|l| l.contains("panicked")).unwrap_or("")));
    }
    if !run.leftover.is_empty() {
        wrong.push(format!("plugin processes alive {LEAK_WINDOW:?} after certify returned: pids {:?}", run.leftover));
    }
    match run.peak_kib {
        None => wrong.push("proctor's peak RSS could not be read (wait4 failed)".into()),
        Some(kib) if kib >= RSS_LIMIT_KIB => wrong.push(format!("proctor's peak RSS {kib} KiB >= {RSS_LIMIT_KIB} KiB")),
        Some(_) => {}
    }
    let report: Value = match serde_json::from_slice(&run.stdout) {
        Ok(report) => report,
        Err(e) => {
            let tail: String = stderr.chars().rev().take(300).collect::<Vec<_>>().into_iter().rev().collect();
            wrong.push(format!("exit {:?}, report is not JSON ({e}); stderr: {tail}", run.code));
            return wrong;
        }
    };
    let (want_code, wanted_status, acceptable) = match pair.row.expect {
        Fails(ok) => (1, "fail", ok),
        Warns(ok) => (0, "warn", ok),
        Harmless(_) => (0, "", &[][..]),
    };
    let got = failures(&report);
    if run.code != Some(want_code) {
        wrong.push(format!("exit {:?}, expected {want_code}; failures: {got}", run.code));
    }
    let checks = report["checks"].as_array().cloned().unwrap_or_default();
    if let Harmless(_) = pair.row.expect {
        if got != "none" {
            wrong.push(format!("allow-listed as harmless, yet: {got}"));
        }
        return wrong;
    }
    let hits: Vec<&Value> = checks
        .iter()
        .filter(|c| {
            c["status"] == wanted_status
                && c["detail"]["outcome"] == "fail"
                && acceptable.iter().any(|(id, kind)| c["id"] == *id && c["detail"]["failure"]["kind"] == *kind)
        })
        .collect();
    let want = acceptable.iter().map(|(id, kind)| format!("{id}:{kind}")).collect::<Vec<_>>().join(" or ");
    if hits.is_empty() {
        wrong.push(format!("expected {wanted_status} {want}; got: {got}"));
    } else if let Some(text) = pair.row.message
        && !hits.iter().any(|c| c["message"].as_str().is_some_and(|m| m.contains(text)))
    {
        let messages: Vec<&str> = hits.iter().filter_map(|c| c["message"].as_str()).collect();
        wrong.push(format!("{want} message lacks {text:?}: {messages:?}"));
    }
    wrong
}

/// Longest first, so the waits overlap: lifecycle and robustness faults
/// (hangs, ignored EOF, slow starts) take seconds, the rest milliseconds.
fn slow_first(pair: &Pair) -> u8 {
    match pair.fault.kind() {
        FaultKind::Lifecycle | FaultKind::Robustness => 0,
        FaultKind::Framing => 1,
        FaultKind::Envelope | FaultKind::Semantics => 2,
    }
}

fn table(rows: &[(String, String, String)]) -> String {
    let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(5);
    let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(6);
    let mut text = format!("{:w0$}  {:w1$}  {}\n", "fault", "family", "what");
    for (fault, family, what) in rows {
        text.push_str(&format!("{fault:w0$}  {family:w1$}  {what}\n"));
    }
    text
}

#[test]
fn every_fault_has_exactly_one_row_per_family_it_applies_to() {
    let (pairs, problems) = plan();
    let rows: Vec<_> = problems.into_iter().map(|p| (p.fault, p.family, p.what)).collect();
    assert!(rows.is_empty(), "the fault corpus table is out of step with the code:\n{}", table(&rows));
    assert!(pairs.len() >= Fault::ALL.len(), "only {} pairs", pairs.len());
}

#[test]
fn every_fault_on_every_family_is_judged_and_cleaned_up() {
    let started = Instant::now();
    let (mut pairs, mut problems) = plan();
    pairs.sort_by_key(slow_first);
    let queue = Mutex::new(pairs.iter());
    let done: Mutex<Vec<(Pair, Run, Vec<String>)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..THREADS {
            s.spawn(|| {
                loop {
                    let Some(pair) = queue.lock().unwrap().next() else {
                        break;
                    };
                    let mark = marker(&format!("fault-corpus-{}-{}", pair.fault, pair.family));
                    let run = certify(pair, &mark);
                    let wrong = judge(pair, &run);
                    done.lock().unwrap().push((pair.clone(), run, wrong));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|(p, ..)| (p.fault, p.family));

    let mut summary = Vec::new();
    for (pair, run, wrong) in &done {
        let (fault, family) = pair.label();
        let verdict = match pair.row.expect {
            Fails(_) => "fails",
            Warns(_) => "warns",
            Harmless(_) => "harmless",
        };
        let peak = run.peak_kib.map_or("?".into(), |k| format!("{k} KiB"));
        summary.push((
            fault.clone(),
            family.clone(),
            format!(
                "{verdict:8} exit {:?} in {:>5} ms, peak RSS {peak}{}",
                run.code,
                run.elapsed.as_millis(),
                if wrong.is_empty() { "" } else { "  << PROBLEM" }
            ),
        ));
        for what in wrong {
            problems.push(Problem { fault: fault.clone(), family: family.clone(), what: what.clone() });
        }
    }
    let peak = done.iter().filter_map(|(_, r, _)| r.peak_kib.map(|k| (k, r))).max_by_key(|(k, _)| *k);
    let slowest = done.iter().max_by_key(|(_, r, _)| r.elapsed).map(|(p, r, _)| (p.label(), r.elapsed));
    println!("{}", table(&summary));
    println!(
        "{} pairs in {:.1} s on {THREADS} threads; highest proctor peak RSS {} KiB; slowest {:?}",
        done.len(),
        started.elapsed().as_secs_f64(),
        peak.map_or(0, |(k, _)| k),
        slowest
    );
    let rows: Vec<_> = problems.into_iter().map(|p| (p.fault, p.family, p.what)).collect();
    assert!(rows.is_empty(), "{} problem(s) in the fault corpus:\n{}", rows.len(), table(&rows));
}
