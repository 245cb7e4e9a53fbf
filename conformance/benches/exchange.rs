//! proctor's transport against the physical limit, side by side in one run:
//!
//! - `exchange_serial`: one JSON-RPC request, one reply, through
//!   [`RpcClient::call`] vs a minimal std loop (write a line, read a line)
//!   to the same native echo plugin, with the floors between them: the same
//!   loop on tokio, on tokio with a deadline per read, and through a
//!   blocking reader thread per connection;
//! - `exchange_pipelined`: a batch of requests in flight through
//!   [`PluginProcess`] (one write, then the replies through proctor's line
//!   reader and JSON-RPC decoder), compared with the serial raw rate;
//! - `oneshot`: [`one_shot`] vs bare spawn + write + read to EOF + wait.
//!
//! Criterion prints each contender's time. The `RATIO` lines, the numbers
//! BENCHMARKS.md states its targets in, come from a separate interleaved
//! pass: the contenders take turns in short rounds and each ratio compares
//! medians. On a 2-core machine the cost of a round trip drifts by a factor
//! of several as cores sleep and wake; measured one after the other, two
//! contenders can see different machines, taking turns they see the same.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use proctor_conformance::client::{RpcClient, RpcOutcome, one_shot};
use proctor_conformance::framing::read_line;
use proctor_conformance::protocol::{Family, Profile, jsonrpc, picoclaw_hook};
use proctor_conformance::transport::{Deadlines, PluginCommand, PluginProcess, ReadEvent};
use serde_json::Value;
use tokio::runtime::Runtime;

/// Requests in flight in the pipelined benchmark.
const BATCH: u64 = 64;
const TIMEOUT: Duration = Duration::from_secs(10);

/// The native echo plugin (conformance/examples/echo_plugin.rs). Uses the
/// example if cargo built it, else compiles the std-only file with rustc
/// (about a second, once), so a clean `cargo bench` needs nothing else.
fn echo_plugin() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/echo_plugin.rs");
    // The bench runs from <target>/release/deps/.
    let profile_dir =
        std::env::current_exe().ok().and_then(|e| Some(e.parent()?.parent()?.to_path_buf())).unwrap_or_else(std::env::temp_dir);
    let built = profile_dir.join("examples/echo_plugin");
    let fresh = |p: &Path| {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        matches!((modified(p), modified(&src)), (Some(b), Some(s)) if b >= s)
    };
    if fresh(&built) {
        return built;
    }
    let out = profile_dir.join("bench-tools/echo_plugin");
    if !fresh(&out) {
        std::fs::create_dir_all(out.parent().unwrap_or(Path::new("."))).expect("create bench-tools directory");
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
        let status = Command::new(rustc)
            .args(["--edition", "2024", "-C", "opt-level=3", "-o"])
            .arg(&out)
            .arg(&src)
            .status()
            .expect("run rustc to build the echo plugin");
        assert!(status.success(), "rustc failed to build {}", src.display());
    }
    out
}

/// Rounds of the interleaved comparison and round trips per round: every
/// contender runs one round in turn, so a change in the machine's state (an
/// idle core waking slower, a neighbour's build) hits them all alike.
const ROUNDS: usize = 60;
const ROUND_TRIPS: u64 = 200;
/// One-shot invocations per round of the interleaved comparison.
const ONESHOT_ROUNDS: usize = 40;
const ONESHOTS_PER_ROUND: u64 = 20;

/// A multi-thread runtime, as `proctor certify` and `proctor load` run;
/// `PROCTOR_BENCH_RT=current` picks a current-thread one.
fn runtime() -> Runtime {
    let mut b = match std::env::var("PROCTOR_BENCH_RT").as_deref() {
        Ok("current") => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    };
    b.enable_all().build().expect("tokio runtime")
}

/// Runs `work` on one of the runtime's workers, the way proctor's commands
/// run theirs (`harness::cli::run_on_worker`): a worker that waits for the
/// plugin's reply is woken by the I/O driver it polls itself.
fn on_worker<T: Send + 'static>(rt: &Runtime, work: impl Future<Output = T> + Send + 'static) -> T {
    rt.block_on(rt.spawn(work)).expect("bench task panicked")
}

fn request_params() -> Value {
    picoclaw_hook::params(Profile::PicoclawCf67dd3, picoclaw_hook::BEFORE_TOOL, &Value::Null)
}

/// Something that does `n` serial round trips to its own echo plugin.
trait RoundTrips {
    fn run(&mut self, rt: &Runtime, n: u64) -> Duration;
}

/// The physical limit: blocking std pipes, write a line, read a line.
struct RawStd {
    _child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
    line: Arc<Vec<u8>>,
    reply: Vec<u8>,
}

impl RoundTrips for RawStd {
    fn run(&mut self, _: &Runtime, n: u64) -> Duration {
        let start = Instant::now();
        for _ in 0..n {
            self.stdin.write_all(&self.line).and_then(|_| self.stdin.flush()).expect("write");
            self.reply.clear();
            self.stdout.read_until(b'\n', &mut self.reply).expect("read");
        }
        start.elapsed()
    }
}

type TokioPipes = (tokio::process::ChildStdin, tokio::io::BufReader<tokio::process::ChildStdout>);

/// How the raw tokio loop bounds each read.
#[derive(Clone, Copy)]
enum Bound {
    /// Not at all.
    None,
    /// `tokio::time::timeout`, as any client that must survive a hung plugin
    /// reads (proctor's floor): a pending timer gives every `epoll_wait` a
    /// timeout, which the kernel serves with a high-resolution timer.
    Timer,
    /// A deadline kept by a watchdog thread that ticks every 10 ms and wakes a
    /// `Notify` when it passes: no tokio timer, coarser deadlines. Measures
    /// what that design would win back.
    Watchdog,
}

/// A deadline in nanoseconds since the bench's epoch, watched by a thread.
struct Watchdog {
    epoch: Instant,
    deadline_ns: std::sync::atomic::AtomicU64,
    fired: tokio::sync::Notify,
}

impl Watchdog {
    fn start() -> Arc<Self> {
        let w = Arc::new(Watchdog { epoch: Instant::now(), deadline_ns: u64::MAX.into(), fired: tokio::sync::Notify::new() });
        let watched = Arc::downgrade(&w);
        std::thread::spawn(move || {
            while let Some(w) = watched.upgrade() {
                let now = w.epoch.elapsed().as_nanos() as u64;
                if now >= w.deadline_ns.load(std::sync::atomic::Ordering::Relaxed) {
                    w.fired.notify_waiters();
                }
                drop(w);
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        w
    }

    fn arm(&self, within: Duration) {
        let at = (self.epoch.elapsed() + within).as_nanos() as u64;
        self.deadline_ns.store(at, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The asynchronous floor: the same loop over tokio's pipes, no proctor code,
/// each read bounded as `bound` says.
struct RawTokio {
    _child: tokio::process::Child,
    pipes: Option<TokioPipes>,
    line: Arc<Vec<u8>>,
    bound: Bound,
    watchdog: Arc<Watchdog>,
}

impl RawTokio {
    fn start(echo: &Path, line: Arc<Vec<u8>>, bound: Bound) -> Self {
        let mut child = tokio::process::Command::new(echo)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("spawn echo plugin");
        let pipes = (child.stdin.take().expect("stdin"), tokio::io::BufReader::new(child.stdout.take().expect("stdout")));
        RawTokio { _child: child, pipes: Some(pipes), line, bound, watchdog: Watchdog::start() }
    }
}

impl RoundTrips for RawTokio {
    fn run(&mut self, rt: &Runtime, n: u64) -> Duration {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        let (mut stdin, mut stdout) = self.pipes.take().expect("pipes");
        let (line, bound, watchdog) = (self.line.clone(), self.bound, self.watchdog.clone());
        let (pipes, took) = on_worker(rt, async move {
            let mut reply = Vec::with_capacity(256);
            let start = Instant::now();
            for _ in 0..n {
                stdin.write_all(&line).await.expect("write");
                stdin.flush().await.expect("flush");
                reply.clear();
                match bound {
                    Bound::None => {
                        stdout.read_until(b'\n', &mut reply).await.expect("read");
                    }
                    Bound::Timer => {
                        tokio::time::timeout(TIMEOUT, stdout.read_until(b'\n', &mut reply)).await.expect("in time").expect("read");
                    }
                    Bound::Watchdog => {
                        watchdog.arm(TIMEOUT);
                        tokio::select! {
                            biased;
                            read = stdout.read_until(b'\n', &mut reply) => { read.expect("read"); }
                            _ = watchdog.fired.notified() => panic!("deadline passed"),
                        }
                    }
                }
            }
            ((stdin, stdout), start.elapsed())
        });
        self.pipes = Some(pipes);
        took
    }
}

/// The floor of a dedicated blocking reader thread per connection: the task
/// writes the line, a std thread blocked in `read` hands each reply line to
/// the task over a channel. No proctor code: what the design itself costs.
struct RawThread {
    _child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    replies: Option<tokio::sync::mpsc::UnboundedReceiver<Vec<u8>>>,
    line: Arc<Vec<u8>>,
}

impl RawThread {
    fn start(echo: &Path, line: Arc<Vec<u8>>) -> Self {
        let mut child = Command::new(echo).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("spawn echo plugin");
        let (stdin, stdout) = (child.stdin.take().expect("stdin"), child.stdout.take().expect("stdout"));
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut reply = Vec::with_capacity(64);
                if stdout.read_until(b'\n', &mut reply).unwrap_or(0) == 0 || tx.send(reply).is_err() {
                    return;
                }
            }
        });
        RawThread { _child: child, stdin: Some(stdin), replies: Some(rx), line }
    }
}

impl RoundTrips for RawThread {
    fn run(&mut self, rt: &Runtime, n: u64) -> Duration {
        let (mut stdin, mut replies) = (self.stdin.take().expect("stdin"), self.replies.take().expect("replies"));
        let line = self.line.clone();
        let (stdin, replies, took) = on_worker(rt, async move {
            let start = Instant::now();
            for _ in 0..n {
                // A pipe write of one short line never blocks while the plugin keeps reading.
                stdin.write_all(&line).expect("write");
                replies.recv().await.expect("reply");
            }
            (stdin, replies, start.elapsed())
        });
        (self.stdin, self.replies) = (Some(stdin), Some(replies));
        took
    }
}

/// proctor's [`RpcClient::call`], on a worker (`in_task`) as proctor's
/// commands run it, or in `block_on` on the calling thread.
struct Proctor {
    client: Option<RpcClient>,
    params: Value,
    in_task: bool,
}

impl Proctor {
    async fn calls(mut client: RpcClient, params: Value, n: u64) -> (RpcClient, Duration) {
        let start = Instant::now();
        for _ in 0..n {
            let (_, outcome) = client.call(picoclaw_hook::BEFORE_TOOL, &params, TIMEOUT).await;
            assert!(matches!(outcome, RpcOutcome::Reply { .. }), "no reply: {outcome:?}");
        }
        (client, start.elapsed())
    }
}

impl RoundTrips for Proctor {
    fn run(&mut self, rt: &Runtime, n: u64) -> Duration {
        let client = self.client.take().expect("client");
        let work = Proctor::calls(client, self.params.clone(), n);
        let (client, took) = if self.in_task { on_worker(rt, work) } else { rt.block_on(work) };
        self.client = Some(client);
        took
    }
}

/// The median of each contender's per-round-trip time over `rounds`
/// interleaved rounds of `per_round` round trips.
fn interleaved(rt: &Runtime, contenders: &mut [&mut dyn RoundTrips], rounds: usize, per_round: u64) -> Vec<Duration> {
    let mut times = vec![Vec::with_capacity(rounds); contenders.len()];
    for _ in 0..rounds {
        for (c, t) in contenders.iter_mut().zip(&mut times) {
            t.push(c.run(rt, per_round) / u32::try_from(per_round).unwrap_or(u32::MAX));
        }
    }
    times.into_iter().map(median).collect()
}

/// Whether this run asked for `group`'s ratios: not when profiling
/// (`--profile-time`), nor when a name filter on the command line leaves
/// the group out (`cargo bench -- oneshot`).
fn wants_ratios(group: &str) -> bool {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--profile-time") {
        return false;
    }
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-') && a.parse::<f64>().is_err()).collect();
    filters.is_empty() || filters.iter().any(|f| group.contains(f.as_str()) || f.starts_with(group))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn exchange(c: &mut Criterion) {
    let echo = echo_plugin();
    let rt = runtime();
    // Spawning outside `block_on` registers the pipes with this runtime.
    let _guard = rt.enter();
    let command = PluginCommand::new(vec![echo.display().to_string()]).expect("argv");
    let profile = Profile::PicoclawCf67dd3;
    let params = request_params();
    let line = Arc::new(jsonrpc::encode_request(Family::PicoclawHook, profile, 1, picoclaw_hook::BEFORE_TOOL, &params));

    let mut child = Command::new(&echo).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("spawn echo plugin");
    let (stdin, stdout) = (child.stdin.take().expect("stdin"), BufReader::new(child.stdout.take().expect("stdout")));
    let mut raw = RawStd { _child: child, stdin, stdout, line: line.clone(), reply: Vec::with_capacity(256) };
    let mut raw_thread = RawThread::start(&echo, line.clone());
    let mut raw_tokio = RawTokio::start(&echo, line.clone(), Bound::None);
    let mut raw_tokio_deadline = RawTokio::start(&echo, line.clone(), Bound::Timer);
    let mut raw_tokio_watchdog = RawTokio::start(&echo, line, Bound::Watchdog);
    let start = |in_task| Proctor {
        client: Some(RpcClient::start(&command, Deadlines::default(), Family::PicoclawHook, profile).expect("start echo plugin")),
        params: params.clone(),
        in_task,
    };
    let (mut proctor, mut proctor_block_on) = (start(true), start(false));

    let mut g = c.benchmark_group("exchange_serial");
    g.throughput(Throughput::Elements(1));
    {
        let named: [(&str, &mut dyn RoundTrips); 7] = [
            ("raw_std_loop", &mut raw),
            ("raw_tokio_loop", &mut raw_tokio),
            ("raw_tokio_loop_with_deadline", &mut raw_tokio_deadline),
            ("raw_tokio_loop_with_watchdog", &mut raw_tokio_watchdog),
            ("raw_reader_thread_loop", &mut raw_thread),
            ("proctor_rpc_client", &mut proctor),
            ("proctor_rpc_client_block_on", &mut proctor_block_on),
        ];
        for (name, contender) in named {
            g.bench_function(name, |b| b.iter_custom(|iters| contender.run(&rt, iters)));
        }
    }
    g.finish();
    let ratios = wants_ratios("exchange_serial");
    let medians = if ratios {
        let mut contenders: [&mut dyn RoundTrips; 7] = [
            &mut raw,
            &mut raw_tokio,
            &mut raw_tokio_deadline,
            &mut raw_tokio_watchdog,
            &mut raw_thread,
            &mut proctor,
            &mut proctor_block_on,
        ];
        interleaved(&rt, &mut contenders, ROUNDS, ROUND_TRIPS)
    } else {
        vec![Duration::ZERO; 7]
    };
    let [raw_t, tokio_t, deadline_t, watchdog_t, thread_t, proctor_t, block_on_t] = medians[..] else { unreachable!("seven contenders") };
    if ratios {
        println!(
            "\nRATIO exchange_serial: proctor {proctor_t:.2?} vs raw {raw_t:.2?} per round trip = {:.3}x (target <= 1.50x; interleaved medians, {ROUNDS}x{ROUND_TRIPS})",
            ratio(proctor_t, raw_t)
        );
        println!(
            "RATIO exchange_serial: raw tokio loop {tokio_t:.2?} = {:.3}x raw; proctor = {:.3}x the raw tokio loop",
            ratio(tokio_t, raw_t),
            ratio(proctor_t, tokio_t)
        );
        println!(
            "RATIO exchange_serial: raw tokio loop with a deadline {deadline_t:.2?} = {:.3}x raw (proctor's floor); proctor = {:.3}x that floor",
            ratio(deadline_t, raw_t),
            ratio(proctor_t, deadline_t)
        );
        println!(
            "RATIO exchange_serial: raw tokio loop with a watchdog deadline {watchdog_t:.2?} = {:.3}x raw (no tokio timer, 10 ms precision)",
            ratio(watchdog_t, raw_t)
        );
        println!(
            "RATIO exchange_serial: raw reader-thread loop {thread_t:.2?} = {:.3}x raw (the floor of a blocking reader thread per connection)",
            ratio(thread_t, raw_t)
        );
        println!(
            "RATIO exchange_serial: proctor in block_on {block_on_t:.2?} = {:.3}x raw (the cross-thread wake-up proctor's commands avoid)",
            ratio(block_on_t, raw_t)
        );
    }
    for p in [proctor, proctor_block_on] {
        rt.block_on(p.client.expect("client").close());
    }

    let mut g = c.benchmark_group("exchange_pipelined");
    g.throughput(Throughput::Elements(BATCH));
    let mut batch = Vec::new();
    for id in 1..=BATCH {
        batch.extend(jsonrpc::encode_request(Family::PicoclawHook, profile, id, picoclaw_hook::BEFORE_TOOL, &params));
    }
    let mut process = PluginProcess::spawn(&command, Deadlines::default()).expect("start echo plugin");
    let mut piped = Vec::new();
    g.bench_function(format!("proctor_{BATCH}_in_flight"), |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    process.write(&batch, TIMEOUT).await.expect("write batch");
                    for _ in 0..BATCH {
                        match process.stdout.next_line(TIMEOUT).await {
                            ReadEvent::Line { bytes, ending } => {
                                assert!(read_line(&bytes, ending).value.is_some())
                            }
                            other => panic!("no reply: {other:?}"),
                        }
                    }
                }
                let took = start.elapsed();
                piped.push(took / u32::try_from(iters * BATCH).unwrap_or(u32::MAX));
                took
            })
        });
    });
    rt.block_on(process.shutdown());
    g.finish();
    let piped = median(piped);
    if piped.is_zero() || raw_t.is_zero() {
        return; // filtered out on the command line
    }
    println!(
        "RATIO exchange_pipelined: proctor {:.0}/s with {BATCH} in flight vs serial raw {:.0}/s = {:.2}x the serial raw rate (target > 1x)\n",
        rate(piped),
        rate(raw_t),
        ratio(raw_t, piped)
    );
}

/// A bare spawn + write + read to EOF + wait, with std.
struct BareSpawn<'a> {
    echo: &'a Path,
    request: &'a [u8],
}

impl RoundTrips for BareSpawn<'_> {
    fn run(&mut self, _: &Runtime, n: u64) -> Duration {
        let start = Instant::now();
        for _ in 0..n {
            let mut child = Command::new(self.echo)
                .arg("--oneshot")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn");
            let mut stdin = child.stdin.take().expect("stdin");
            stdin.write_all(self.request).expect("write");
            drop(stdin);
            let mut out = Vec::new();
            child.stdout.take().expect("stdout").read_to_end(&mut out).expect("read");
            child.wait().expect("wait");
            assert!(!out.is_empty());
        }
        start.elapsed()
    }
}

/// proctor's [`one_shot`], on a worker as proctor's commands run it.
struct ProctorOneShot {
    command: PluginCommand,
    request: Vec<u8>,
}

impl RoundTrips for ProctorOneShot {
    fn run(&mut self, rt: &Runtime, n: u64) -> Duration {
        let (command, request) = (self.command.clone(), self.request.clone());
        on_worker(rt, async move {
            let start = Instant::now();
            for _ in 0..n {
                let reply = one_shot(&command, Deadlines::default(), request.clone()).await.expect("spawn");
                assert!(reply.collected.answered_after.is_some(), "no answer");
            }
            start.elapsed()
        })
    }
}

fn oneshot(c: &mut Criterion) {
    let echo = echo_plugin();
    let rt = runtime();
    // Spawning outside `block_on` registers the pipes with this runtime.
    let _guard = rt.enter();
    let request = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"validateCommand\",\"params\":{\"command\":\"ls\"}}".to_vec();
    let mut bare = BareSpawn { echo: &echo, request: &request };
    let command = PluginCommand::new(vec![echo.display().to_string(), "--oneshot".into()]).expect("argv");
    let mut proctor = ProctorOneShot { command, request: request.clone() };
    let mut g = c.benchmark_group("oneshot");
    g.bench_function("bare_std_spawn", |b| b.iter_custom(|iters| bare.run(&rt, iters)));
    g.bench_function("proctor_one_shot", |b| b.iter_custom(|iters| proctor.run(&rt, iters)));
    g.finish();
    if !wants_ratios("oneshot") {
        return;
    }
    let medians = interleaved(&rt, &mut [&mut bare, &mut proctor], ONESHOT_ROUNDS, ONESHOTS_PER_ROUND);
    let [bare, proctor] = medians[..] else { unreachable!("two contenders") };
    println!(
        "\nRATIO oneshot: proctor {proctor:.2?} vs bare spawn {bare:.2?} per invocation = {:.3}x (target <= 1.10x; interleaved medians, {ONESHOT_ROUNDS}x{ONESHOTS_PER_ROUND})\n",
        ratio(proctor, bare)
    );
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(f64::MIN_POSITIVE)
}

fn rate(per: Duration) -> f64 {
    1.0 / per.as_secs_f64().max(f64::MIN_POSITIVE)
}

criterion_group! {
    name = benches;
    // 2 cores: fewer, longer samples keep the noise down.
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    targets = exchange, oneshot
}
criterion_main!(benches);
