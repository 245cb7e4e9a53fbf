//! Load generation for plugin authors (`proctor load`): many requests, as
//! the runtime would send them, with latency, errors and the plugin's memory.
//!
//! Long-lived JSON-RPC families keep one process: PicoClaw hooks get
//! `hook.hello` first and then up to `concurrency` requests in flight
//! (PicoClaw matches replies by id, so pipelining is what a busy agent
//! does). PromptKit's server executor holds a lock per process and takes
//! the next stdout line as the reply, so a PromptKit server never sees two
//! requests at once: `concurrency` C means C processes, each serial.
//! One-shot families (PromptKit exec, runok) spawn one process per request,
//! at most C at a time.
//!
//! Nothing here retries or restarts: a plugin that dies loses every request
//! it had not answered, and those count as errors. So does a JSON-RPC
//! `error` reply: the request was not served, and a load whose every reply
//! is an error measured how fast the plugin refuses, not how it works (it
//! reported `errors 0` and exit 0). A PromptKit server has no handshake, so its
//! first request includes the interpreter's start-up, as in PromptKit,
//! which starts servers on their first call (see `latency_us.max`).
//! The plugin's pid (for `VmRSS`) is found in `/proc` as the new child of
//! proctor, since `PluginProcess` keeps its child private.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio::time::Instant;

use crate::client::one_shot;
use crate::framing::{Id, ReplyBody, read_document, read_line};
use crate::protocol::{Family, Profile, Role, agent_hook, jsonrpc, picoclaw_hook, promptkit_exec, promptkit_server, runok_extension, wire};
use crate::transport::{Deadlines, ExitOutcome, PluginCommand, PluginProcess, ReadEvent, SpawnError};

/// What to load and how hard.
pub struct LoadOptions {
    /// The plugin.
    pub command: PluginCommand,
    /// Its family.
    pub family: Family,
    /// Its roles (PicoClaw modes; one role for PromptKit exec).
    pub roles: Vec<Role>,
    /// Total requests.
    pub requests: usize,
    /// Requests in flight at once (processes, for PromptKit server and one-shot families).
    pub concurrency: usize,
    /// Per-request deadline and the rest.
    pub deadlines: Deadlines,
    /// Called with the number of finished requests, now and then.
    pub progress: Box<dyn Fn(usize) + Send + Sync>,
}

/// Why requests failed.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct ErrorKinds {
    /// No reply within the request deadline.
    pub timeouts: usize,
    /// A reply that is not JSON, has neither `result` nor `error`, or matches no request.
    pub bad_replies: usize,
    /// Requests lost because the plugin exited (or never answered before exiting).
    pub crashes: usize,
    /// Requests that could not be sent: spawn or write failures.
    pub not_sent: usize,
    /// Well-formed replies carrying a JSON-RPC `error` object: the plugin
    /// refused the request (for a tool, perhaps the generated arguments).
    pub error_replies: usize,
}

impl ErrorKinds {
    fn total(&self) -> usize {
        self.timeouts + self.bad_replies + self.crashes + self.not_sent + self.error_replies
    }
}

/// Latency percentiles in microseconds (nearest rank, over answered requests).
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Latency {
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Slowest.
    pub max: u64,
}

/// The plugin's resident memory, KiB (`VmRSS`), when it could be sampled.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Rss {
    /// After start-up (after `hook.hello` for PicoClaw).
    pub start: Option<u64>,
    /// After the last request, before shutdown.
    pub end: Option<u64>,
    /// Why a value is missing, or how it was taken.
    pub note: String,
}

/// The result of a load run.
#[derive(Debug, Clone, Serialize)]
pub struct LoadReport {
    /// The family loaded.
    pub protocol: &'static str,
    /// Requests attempted.
    pub requests: usize,
    /// Requests that got a good reply (a `result`, for JSON-RPC families).
    pub ok: usize,
    /// Requests that did not (a JSON-RPC `error` reply among them).
    pub errors: usize,
    /// The errors by kind.
    pub error_kinds: ErrorKinds,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Plugin processes started.
    pub processes: usize,
    /// Wall time from the first request written to the last answer read, ms
    /// (long-lived plugins' start-up and shutdown excluded).
    pub elapsed_ms: f64,
    /// Good replies per second of wall time.
    pub throughput_per_s: f64,
    /// Latency of answered requests, µs.
    pub latency_us: Latency,
    /// The plugin's memory.
    pub plugin_rss_kib: Rss,
}

/// Tallies shared by the workers of one run.
#[derive(Default)]
struct Tally {
    latencies: Vec<u64>,
    errors: ErrorKinds,
    rss: Vec<(Option<u64>, Option<u64>)>,
    /// When the first request was written and the last answer read: start-up
    /// (an interpreter loading, `hook.hello`) and shutdown of long-lived
    /// plugins are not load, so they stay outside the throughput window.
    first: Option<Instant>,
    last: Option<Instant>,
}

impl Tally {
    fn window(&mut self, first: Instant, last: Instant) {
        self.first = Some(self.first.map_or(first, |f| f.min(first)));
        self.last = Some(self.last.map_or(last, |l| l.max(last)));
    }

    fn ok(&mut self, took: Duration) {
        self.latencies.push(u64::try_from(took.as_micros()).unwrap_or(u64::MAX));
    }

    /// Judges a JSON-RPC reply body: only a `result` served the request.
    fn reply(&mut self, body: Option<ReplyBody>, took: Duration) {
        match body {
            Some(ReplyBody::Result(_)) => self.ok(took),
            Some(ReplyBody::Error(_)) => self.errors.error_replies += 1,
            _ => self.errors.bad_replies += 1,
        }
    }
}

/// Runs the load. Fails only when the plugin cannot be started at all.
pub async fn run(opts: LoadOptions) -> Result<LoadReport, SpawnError> {
    let opts = Arc::new(opts);
    let profile = Profile::for_family(opts.family)[1];
    let mut tally = Tally::default();
    let processes = match opts.family {
        Family::PicoclawHook => {
            pipelined(&opts, profile, &mut tally).await?;
            1
        }
        Family::PromptkitServer | Family::PromptkitExec | Family::RunokExtension | Family::ClaudeCodeHook | Family::CodexHook => {
            workers(&opts, profile, &mut tally).await?
        }
    };
    let elapsed = match (tally.first, tally.last) {
        (Some(first), Some(last)) => last - first,
        _ => Duration::ZERO,
    };
    let mut lat = tally.latencies;
    lat.sort_unstable();
    let ok = lat.len();
    let rank = |p: f64| lat.get(((p * ok as f64).ceil() as usize).saturating_sub(1)).copied().unwrap_or(0);
    let latency_us = Latency { p50: rank(0.50), p90: rank(0.90), p99: rank(0.99), max: lat.last().copied().unwrap_or(0) };
    let plugin_rss_kib = match opts.family {
        Family::PromptkitExec | Family::RunokExtension | Family::ClaudeCodeHook | Family::CodexHook => {
            Rss { start: None, end: None, note: "one-shot plugins exit after each request; there is no process to sample".into() }
        }
        _ => {
            let start = tally.rss.iter().map(|r| r.0).sum::<Option<u64>>();
            let end = tally.rss.iter().map(|r| r.1).sum::<Option<u64>>();
            let note =
                if tally.rss.len() > 1 { "sum over the processes (one per concurrent request)" } else { "VmRSS of the plugin process" };
            Rss { start, end, note: note.into() }
        }
    };
    let errors = tally.errors.total();
    Ok(LoadReport {
        protocol: opts.family.name(),
        requests: opts.requests,
        ok,
        errors,
        error_kinds: tally.errors,
        concurrency: opts.concurrency,
        processes,
        elapsed_ms: elapsed.as_secs_f64() * 1000.0,
        throughput_per_s: if elapsed.is_zero() { 0.0 } else { ok as f64 / elapsed.as_secs_f64() },
        latency_us,
        plugin_rss_kib,
    })
}

/// The i-th request of a PicoClaw load: the modes' methods in turn order, round robin.
fn picoclaw_request(profile: Profile, methods: &[&'static str], id: u64) -> Vec<u8> {
    let method = methods[(id as usize) % methods.len()];
    let params = picoclaw_hook::params(profile, method, &Value::Null);
    jsonrpc::encode_request(Family::PicoclawHook, profile, id, method, &params)
}

/// One PicoClaw process: hello, then a window of `concurrency` requests in flight.
async fn pipelined(opts: &LoadOptions, profile: Profile, tally: &mut Tally) -> Result<(), SpawnError> {
    let methods = picoclaw_hook::methods(&opts.roles);
    let children = child_pids();
    let mut p = PluginProcess::spawn(&opts.command, opts.deadlines)?;
    let pid = child_pids().into_iter().find(|c| !children.contains(c));
    let hello = jsonrpc::encode_request(Family::PicoclawHook, profile, 0, picoclaw_hook::HELLO, &picoclaw_hook::hello_params(&opts.roles));
    let hello_ok = p.write(&hello, opts.deadlines.startup).await.is_ok()
        && matches!(p.stdout.next_line(opts.deadlines.startup).await, ReadEvent::Line { .. });
    if !hello_ok || methods.is_empty() {
        // No hello, or observe-only (only notifications, nothing to time).
        tally.errors.not_sent += opts.requests;
        p.shutdown().await;
        return Ok(());
    }
    let rss_start = pid.and_then(vm_rss);
    let mut in_flight: HashMap<u64, Instant> = HashMap::new();
    let (mut sent, mut done) = (0usize, 0usize);
    let mut alive = true;
    let first = Instant::now();
    while done < opts.requests {
        while alive && sent < opts.requests && in_flight.len() < opts.concurrency {
            let id = sent as u64 + 1;
            in_flight.insert(id, Instant::now());
            sent += 1;
            if p.write(&picoclaw_request(profile, &methods, id), opts.deadlines.request).await.is_err() {
                // stdin closed: the plugin is gone (or going), and this request with it.
                in_flight.remove(&id);
                tally.errors.crashes += 1;
                done += 1;
                alive = false;
                break;
            }
        }
        if in_flight.is_empty() {
            break;
        }
        match p.stdout.next_line(opts.deadlines.request).await {
            ReadEvent::Line { bytes, ending } => {
                let now = Instant::now();
                let mut message = read_line(&bytes, ending).value;
                let id = message.as_ref().and_then(|m| Id::of(m).as_u64());
                match (id.and_then(|id| in_flight.remove(&id)), message.as_mut().map(ReplyBody::take)) {
                    (Some(t), body) => tally.reply(body, now - t),
                    // A line for no request: count it, without losing a request.
                    (None, _) => {
                        tally.errors.bad_replies += 1;
                        continue;
                    }
                }
                done += 1;
            }
            ReadEvent::TooLong { .. } => tally.errors.bad_replies += 1,
            ReadEvent::Timeout { .. } => {
                // A hung plugin: everything in flight is lost.
                tally.errors.timeouts += in_flight.len();
                done += in_flight.len();
                in_flight.clear();
                alive = false;
            }
            ReadEvent::Eof { .. } => {
                tally.errors.crashes += in_flight.len();
                done += in_flight.len();
                in_flight.clear();
                alive = false;
            }
        }
        (opts.progress)(done);
        if !alive && in_flight.is_empty() {
            break;
        }
    }
    tally.errors.not_sent += opts.requests - sent;
    tally.window(first, Instant::now());
    tally.rss.push((rss_start, pid.and_then(vm_rss)));
    p.shutdown().await;
    Ok(())
}

/// `concurrency` workers taking requests from a shared counter: one process
/// each for PromptKit server, one process per request for one-shot families.
async fn workers(opts: &Arc<LoadOptions>, profile: Profile, tally: &mut Tally) -> Result<usize, SpawnError> {
    let next = Arc::new(AtomicUsize::new(0));
    let finished = Arc::new(AtomicUsize::new(0));
    let mut set = tokio::task::JoinSet::new();
    let mut spawned = 0;
    for _ in 0..opts.concurrency.min(opts.requests).max(1) {
        let (opts, next, finished) = (opts.clone(), next.clone(), finished.clone());
        if opts.family == Family::PromptkitServer {
            // Started here, one at a time, so each child's pid is unambiguous.
            let children = child_pids();
            let process = PluginProcess::spawn(&opts.command, opts.deadlines)?;
            let pid = child_pids().into_iter().find(|c| !children.contains(c));
            spawned += 1;
            set.spawn(async move { server_worker(&opts, profile, process, pid, &next, &finished).await });
        } else {
            set.spawn(async move { oneshot_worker(&opts, profile, &next, &finished).await });
        }
    }
    while let Some(joined) = set.join_next().await {
        let Ok((part, count)) = joined else { continue };
        spawned += count;
        tally.latencies.extend(part.latencies);
        tally.rss.extend(part.rss);
        if let (Some(first), Some(last)) = (part.first, part.last) {
            tally.window(first, last);
        }
        let e = part.errors;
        tally.errors.timeouts += e.timeouts;
        tally.errors.bad_replies += e.bad_replies;
        tally.errors.crashes += e.crashes;
        tally.errors.not_sent += e.not_sent;
        tally.errors.error_replies += e.error_replies;
    }
    Ok(spawned)
}

/// One PromptKit server process, strictly serial, the next line as the reply.
async fn server_worker(
    opts: &LoadOptions,
    profile: Profile,
    mut p: PluginProcess,
    pid: Option<u32>,
    next: &AtomicUsize,
    finished: &AtomicUsize,
) -> (Tally, usize) {
    let mut t = Tally::default();
    // Sampled after the first reply: right after the spawn an interpreter has not loaded yet.
    let mut rss_start = None;
    let params = promptkit_server::params(&Value::Null);
    let mut alive = true;
    let first = Instant::now();
    while let Some(i) = claim(next, opts.requests) {
        if !alive {
            t.errors.not_sent += 1;
            continue;
        }
        let id = i as u64 + 1;
        let start = Instant::now();
        let request = jsonrpc::encode_request(Family::PromptkitServer, profile, id, promptkit_server::EXECUTE, &params);
        if p.write(&request, opts.deadlines.request).await.is_err() {
            t.errors.crashes += 1;
            alive = false;
            continue;
        }
        match p.stdout.next_line(opts.deadlines.request).await {
            ReadEvent::Line { bytes, ending } => t.reply(read_line(&bytes, ending).value.as_mut().map(ReplyBody::take), start.elapsed()),
            ReadEvent::TooLong { .. } => t.errors.bad_replies += 1,
            ReadEvent::Timeout { .. } => {
                t.errors.timeouts += 1;
                alive = false;
            }
            ReadEvent::Eof { .. } => {
                t.errors.crashes += 1;
                alive = false;
            }
        }
        if rss_start.is_none() {
            rss_start = pid.and_then(vm_rss);
        }
        (opts.progress)(finished.fetch_add(1, Ordering::Relaxed) + 1);
    }
    t.window(first, Instant::now());
    t.rss.push((rss_start, pid.and_then(vm_rss)));
    p.shutdown().await;
    (t, 0)
}

/// One-shot requests, one process each, until the counter runs out.
async fn oneshot_worker(opts: &LoadOptions, profile: Profile, next: &AtomicUsize, finished: &AtomicUsize) -> (Tally, usize) {
    let mut t = Tally::default();
    let mut spawned = 0;
    let request = oneshot_request(opts.family, opts.roles.first().copied().unwrap_or(Role::Tool), profile);
    let first = Instant::now();
    while claim(next, opts.requests).is_some() {
        let start = Instant::now();
        match one_shot(&opts.command, opts.deadlines, request.clone()).await {
            Err(_) => t.errors.not_sent += 1,
            Ok(reply) => {
                spawned += 1;
                let took = start.elapsed();
                let mut doc = read_document(&reply.collected.bytes);
                let body = doc.value.as_mut().map(ReplyBody::take);
                let good = match (&body, opts.family) {
                    // A command hook answers with its exit status; only 0 and 2 are answers.
                    (_, f) if f.is_agent_hook() => reply.collected.exit.is_some_and(|e| matches!(e, ExitOutcome::Code(0 | 2))),
                    (Some(b), Family::RunokExtension) => matches!(b, ReplyBody::Result(_) | ReplyBody::Error(_)),
                    (Some(_), _) => doc.is_clean(),
                    (None, _) => false,
                };
                if good && (reply.collected.answered_after.is_some() || opts.family.is_agent_hook()) {
                    if opts.family == Family::RunokExtension {
                        t.reply(body, took);
                    } else {
                        t.ok(took);
                    }
                } else if !reply.finished() {
                    t.errors.timeouts += 1;
                } else if reply.collected.bytes.is_empty() && reply.collected.exit.is_some_and(|e| !e.success()) {
                    t.errors.crashes += 1;
                } else {
                    t.errors.bad_replies += 1;
                }
            }
        }
        (opts.progress)(finished.fetch_add(1, Ordering::Relaxed) + 1);
    }
    t.window(first, Instant::now());
    (t, spawned)
}

/// The request a one-shot plugin gets, as its runtime writes it.
fn oneshot_request(family: Family, role: Role, profile: Profile) -> Vec<u8> {
    if let (Some(agent), Some(event)) = (agent_hook::Agent::of(family), agent_hook::event_of(role)) {
        return agent_hook::stdin(agent, profile, event, &agent_hook::default_fields(event));
    }
    let value = if family == Family::RunokExtension {
        jsonrpc::request(family, profile, 1, runok_extension::VALIDATE_COMMAND, runok_extension::params(&Value::Null))
    } else {
        let phase = promptkit_exec::phases(role).first().copied();
        promptkit_exec::render(role, &promptkit_exec::documented(role, phase, &Value::Null), profile)
    };
    let mut bytes = wire::encode(&value, profile);
    if profile.oneshot_trailing_newline() {
        bytes.push(b'\n');
    }
    bytes
}

/// Takes the next request index, if any are left.
fn claim(next: &AtomicUsize, total: usize) -> Option<usize> {
    let i = next.fetch_add(1, Ordering::Relaxed);
    (i < total).then_some(i)
}

/// Pids of proctor's direct children. `PluginProcess` does not expose its
/// pid, so a new child is found by difference before and after the spawn.
fn child_pids() -> Vec<u32> {
    let me = std::process::id();
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            // Field 4 of /proc/<pid>/stat, after the parenthesised command name.
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| s.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok()))
                == Some(me)
        })
        .collect()
}

/// `VmRSS` of a process, KiB; `None` once it has exited or off Linux.
pub fn vm_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("VmRSS:")?.trim().strip_suffix("kB")?.trim().parse().ok())
}
