//! proctor's transport against the physical limit, side by side in one run:
//!
//! - `exchange_serial`: one JSON-RPC request, one reply, through
//!   [`RpcClient::call`] vs a minimal std loop (write a line, read a line)
//!   to the same native echo plugin;
//! - `exchange_pipelined`: a batch of requests in flight through
//!   [`PluginProcess`] (one write, then the replies through proctor's line
//!   reader and JSON-RPC decoder), compared with the serial raw rate;
//! - `oneshot`: [`one_shot`] vs bare spawn + write + read to EOF + wait.
//!
//! Criterion prints each time; after each group this bench prints the ratio
//! of the means over every iteration it ran (warm-up included), since a
//! ratio is the number the targets in BENCHMARKS.md are stated in.

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use proctor_conformance::client::{RpcClient, RpcOutcome, one_shot};
use proctor_conformance::framing::read_line;
use proctor_conformance::protocol::{Family, Profile, jsonrpc, picoclaw_hook, wire};
use proctor_conformance::transport::{Deadlines, PluginCommand, PluginProcess, ReadEvent};
use serde_json::Value;

/// Requests in flight in the pipelined benchmark.
const BATCH: u64 = 64;
const TIMEOUT: Duration = Duration::from_secs(10);

/// The native echo plugin (conformance/examples/echo_plugin.rs). Uses the
/// example if cargo built it, else compiles the std-only file with rustc
/// (about a second, once), so a clean `cargo bench` needs nothing else.
fn echo_plugin() -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/echo_plugin.rs");
    // The bench runs from <target>/release/deps/.
    let profile_dir = std::env::current_exe().ok().and_then(|e| Some(e.parent()?.parent()?.to_path_buf())).unwrap_or_else(std::env::temp_dir);
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

/// Time per iteration of every call criterion made.
#[derive(Default)]
struct Mean {
    samples: RefCell<Vec<Duration>>,
}

impl Mean {
    fn add(&self, iters: u64, took: Duration) -> Duration {
        self.samples.borrow_mut().push(took / u32::try_from(iters.max(1)).unwrap_or(u32::MAX));
        took
    }
    /// The median of the last `SAMPLES` calls: the measured samples, not the warm-up.
    fn per_iter(&self) -> Duration {
        let all = self.samples.borrow();
        let mut last: Vec<Duration> = all[all.len().saturating_sub(SAMPLES)..].to_vec();
        last.sort();
        last.get(last.len() / 2).copied().unwrap_or_default()
    }
}

const SAMPLES: usize = 30;

/// A multi-thread runtime, as `proctor certify` and `proctor load` run;
/// `PROCTOR_BENCH_RT=current` picks a current-thread one, to show what the
/// cross-thread wake-ups of the multi-thread scheduler cost.
fn runtime() -> tokio::runtime::Runtime {
    let mut b = match std::env::var("PROCTOR_BENCH_RT").as_deref() {
        Ok("current") => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    };
    b.enable_all().build().expect("tokio runtime")
}

fn request_params() -> Value {
    picoclaw_hook::params(Profile::PicoclawCf67dd3, picoclaw_hook::BEFORE_TOOL, &Value::Null)
}

fn exchange(c: &mut Criterion) {
    let echo = echo_plugin();
    let rt = runtime();
    // Spawning outside `block_on` registers the pipes with this runtime.
    let _guard = rt.enter();
    let command = PluginCommand::new(vec![echo.display().to_string()]).expect("argv");
    let profile = Profile::PicoclawCf67dd3;
    let params = request_params();
    let raw_line = {
        let mut b = wire::encode(&jsonrpc::request(Family::PicoclawHook, profile, 1, picoclaw_hook::BEFORE_TOOL, params.clone()), profile);
        b.push(b'\n');
        b
    };

    let (raw, tokio_raw, proctor, piped) = (Mean::default(), Mean::default(), Mean::default(), Mean::default());
    let mut g = c.benchmark_group("exchange_serial");
    g.throughput(Throughput::Elements(1));
    // Each plugin is spawned once; criterion calls the closures once per sample.
    let mut child = Command::new(&echo).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("spawn echo plugin");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut reply = Vec::with_capacity(256);
    g.bench_function("raw_std_loop", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                stdin.write_all(&raw_line).and_then(|_| stdin.flush()).expect("write");
                reply.clear();
                stdout.read_until(b'\n', &mut reply).expect("read");
            }
            raw.add(iters, start.elapsed())
        });
    });
    drop(stdin);
    let _ = child.wait();
    // The asynchronous floor: the same loop over tokio's pipes, no proctor code.
    let mut child = tokio::process::Command::new(&echo).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("spawn echo plugin");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = tokio::io::BufReader::new(child.stdout.take().expect("stdout"));
    g.bench_function("raw_tokio_loop", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
                let start = Instant::now();
                for _ in 0..iters {
                    stdin.write_all(&raw_line).await.expect("write");
                    stdin.flush().await.expect("flush");
                    reply.clear();
                    stdout.read_until(b'\n', &mut reply).await.expect("read");
                }
                tokio_raw.add(iters, start.elapsed())
            })
        });
    });
    drop(stdin);
    let _ = rt.block_on(child.wait());
    let mut client = RpcClient::start(&command, Deadlines::default(), Family::PicoclawHook, profile).expect("start echo plugin");
    g.bench_function("proctor_rpc_client", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let (_, outcome) = client.call(picoclaw_hook::BEFORE_TOOL, params.clone(), TIMEOUT).await;
                    assert!(matches!(outcome, RpcOutcome::Reply { .. }), "no reply: {outcome:?}");
                }
                proctor.add(iters, start.elapsed())
            })
        });
    });
    rt.block_on(client.close());
    g.finish();

    let mut g = c.benchmark_group("exchange_pipelined");
    g.throughput(Throughput::Elements(BATCH));
    let mut batch = Vec::new();
    for id in 1..=BATCH {
        batch.extend(wire::encode(&jsonrpc::request(Family::PicoclawHook, profile, id, picoclaw_hook::BEFORE_TOOL, params.clone()), profile));
        batch.push(b'\n');
    }
    let mut process = PluginProcess::spawn(&command, Deadlines::default()).expect("start echo plugin");
    g.bench_function(format!("proctor_{BATCH}_in_flight"), |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    process.write(&batch, TIMEOUT).await.expect("write batch");
                    for _ in 0..BATCH {
                        match process.stdout.next_line(TIMEOUT).await {
                            ReadEvent::Line { bytes, ending } => assert!(read_line(&bytes, ending).value.is_some()),
                            other => panic!("no reply: {other:?}"),
                        }
                    }
                }
                piped.add(iters, start.elapsed())
            })
        });
    });
    rt.block_on(process.shutdown());
    g.finish();

    let (raw, tokio_raw, proctor, piped) = (raw.per_iter(), tokio_raw.per_iter(), proctor.per_iter(), piped.per_iter() / BATCH as u32);
    if raw.is_zero() || tokio_raw.is_zero() || proctor.is_zero() || piped.is_zero() {
        return; // filtered out on the command line
    }
    println!("\nRATIO exchange_serial: proctor {proctor:.2?} vs raw {raw:.2?} per round trip = {:.3}x (target <= 1.10x)", ratio(proctor, raw));
    println!("RATIO exchange_serial: raw tokio loop {tokio_raw:.2?} = {:.3}x raw; proctor = {:.3}x the raw tokio loop", ratio(tokio_raw, raw), ratio(proctor, tokio_raw));
    println!(
        "RATIO exchange_pipelined: proctor {:.0}/s with {BATCH} in flight vs serial raw {:.0}/s = {:.2}x the serial raw rate (target > 1x)\n",
        rate(piped),
        rate(raw),
        ratio(raw, piped)
    );
}

fn oneshot(c: &mut Criterion) {
    let echo = echo_plugin();
    let rt = runtime();
    // Spawning outside `block_on` registers the pipes with this runtime.
    let _guard = rt.enter();
    let command = PluginCommand::new(vec![echo.display().to_string(), "--oneshot".into()]).expect("argv");
    let request = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"validateCommand\",\"params\":{\"command\":\"ls\"}}".to_vec();
    let (bare, proctor) = (Mean::default(), Mean::default());
    let mut g = c.benchmark_group("oneshot");
    g.bench_function("bare_std_spawn", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                let mut child = Command::new(&echo).arg("--oneshot").stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn");
                let mut stdin = child.stdin.take().expect("stdin");
                stdin.write_all(&request).expect("write");
                drop(stdin);
                let mut out = Vec::new();
                child.stdout.take().expect("stdout").read_to_end(&mut out).expect("read");
                child.wait().expect("wait");
                assert!(!out.is_empty());
            }
            bare.add(iters, start.elapsed())
        });
    });
    g.bench_function("proctor_one_shot", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let start = Instant::now();
                for _ in 0..iters {
                    let reply = one_shot(&command, Deadlines::default(), request.clone()).await.expect("spawn");
                    assert!(reply.collected.answered_after.is_some(), "no answer");
                }
                proctor.add(iters, start.elapsed())
            })
        });
    });
    g.finish();
    let (bare, proctor) = (bare.per_iter(), proctor.per_iter());
    if bare.is_zero() || proctor.is_zero() {
        return; // filtered out on the command line
    }
    println!("\nRATIO oneshot: proctor {proctor:.2?} vs bare spawn {bare:.2?} per invocation (medians) = {:.3}x (target <= 1.10x)\n", ratio(proctor, bare));
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
