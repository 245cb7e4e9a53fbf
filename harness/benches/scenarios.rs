//! Scenarios end to end: 1, 10, 100 and 1,000 copies of a small runok
//! scenario (one extension, the mock plugin, two commands) run at once on a
//! multi-thread runtime, as `proctor run` runs them.
//!
//! Prints, per size, the wall time, the time per scenario (flat = linear
//! growth) and CPU time / wall time for proctor and its reaped plugins
//! (close to 2.0 = both cores busy). The 1,000 run is a single timed pass
//! (about 2,000 plugin processes), not a criterion sample set.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use proctor::context::RunEnv;
use proctor::runner::run;
use proctor::scenario::{Scenario, parse};

const SCENARIO: &str = "\
id: bench/runok-mock-allow
runtime: runok
plugins:
  - name: guard
    process: {mock: {decision: allow}}
    config: {runok_extension: {timeout_ms: 5000}}
turns:
  - command: {raw: \"ls -la\"}
  - command: {raw: \"git status\"}
expect:
  decisions:
    - {plugin: guard, call: validateCommand, decision: allow}
    - {plugin: guard, call: validateCommand, decision: allow}
";

fn env() -> RunEnv {
    RunEnv {
        root: Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap_or(Path::new(".")).to_path_buf(),
        mock_program: PathBuf::from(env!("CARGO_BIN_EXE_proctor")),
        record_dir: None,
    }
}

/// Runs `copies` scenarios at once; panics if one fails (a broken bench is no bench).
async fn run_all(scenario: &Arc<Scenario>, env: &Arc<RunEnv>, copies: usize) {
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..copies {
        let (s, e) = (scenario.clone(), env.clone());
        set.spawn(async move { run(&s, &e).await });
    }
    while let Some(result) = set.join_next().await {
        let result = result.expect("scenario task");
        assert!(result.passed(), "scenario failed: {:?}", result.problems);
    }
}

/// CPU seconds of this process and its reaped children (/proc/self/stat
/// utime, stime, cutime, cstime; USER_HZ is 100 on Linux).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<u64> = stat
        .rsplit_once(')')
        .map(|(_, r)| r.split_whitespace().skip(11).take(4).filter_map(|f| f.parse().ok()).collect())
        .unwrap_or_default();
    Duration::from_millis(fields.iter().sum::<u64>() * 10)
}

fn scenarios(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("tokio runtime");
    let scenario = Arc::new(parse(SCENARIO, Path::new("bench.yaml")).expect("bench scenario parses"));
    let env = Arc::new(env());
    let mut g = c.benchmark_group("scenarios");
    g.sample_size(10).measurement_time(Duration::from_secs(5)).warm_up_time(Duration::from_secs(1));
    let mut table = Vec::new();
    for copies in [1usize, 10, 100] {
        g.throughput(Throughput::Elements(copies as u64));
        g.bench_with_input(BenchmarkId::from_parameter(copies), &copies, |b, &copies| {
            b.to_async(&rt).iter(|| run_all(&scenario, &env, copies));
        });
        table.push(measure(&rt, &scenario, &env, copies));
    }
    g.finish();
    table.push(measure(&rt, &scenario, &env, 1000));
    println!("\nSCENARIOS copies  wall        per scenario  cpu/wall");
    for (copies, wall, cpu) in &table {
        println!(
            "SCENARIOS {copies:>6}  {:>9.1} ms  {:>9.3} ms  {:.2}",
            wall.as_secs_f64() * 1e3,
            wall.as_secs_f64() * 1e3 / *copies as f64,
            cpu.as_secs_f64() / wall.as_secs_f64()
        );
    }
    let per = |i: usize| table[i].1.as_secs_f64() / table[i].0 as f64;
    println!("RATIO scenarios: per-scenario time at 1000 vs 10 copies = {:.2}x (linear growth = 1.0x or less)\n", per(3) / per(1));
}

/// One timed pass outside criterion, for wall time against CPU time.
fn measure(rt: &tokio::runtime::Runtime, scenario: &Arc<Scenario>, env: &Arc<RunEnv>, copies: usize) -> (usize, Duration, Duration) {
    let cpu = cpu_time();
    let start = Instant::now();
    rt.block_on(run_all(scenario, env, copies));
    (copies, start.elapsed(), cpu_time().saturating_sub(cpu))
}

criterion_group!(benches, scenarios);
criterion_main!(benches);
