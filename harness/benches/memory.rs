//! Peak RSS of proctor while a plugin floods it: 1 GiB on stdout, 1 GiB on
//! stderr, through the one-shot and the line-delimited transports.
//!
//! Not a criterion bench: each case is one run of the real `proctor`
//! binary, and the number is its peak resident set (max RSS from wait4,
//! via `/usr/bin/time -f %M` when installed, else the last `VmHWM` sampled
//! every 2 ms). Target: under 64 MiB whatever the plugin writes.
//!
//! Run: `cargo bench -p proctor --bench memory`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GIB: &str = "1073741824";
const LIMIT_KIB: u64 = 64 * 1024;

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is ignored here.
    let proctor = env!("CARGO_BIN_EXE_proctor");
    let flood_out = format!("cat >/dev/null; head -c {GIB} /dev/zero");
    let flood_err = format!("cat >/dev/null; head -c {GIB} /dev/zero >&2; echo '{{}}'");
    let line_out = format!("head -c {GIB} /dev/zero");
    let line_err = format!("head -c {GIB} /dev/zero >&2");
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        (
            "load promptkit-exec, 1 GiB stdout",
            vec!["load", "--protocol", "promptkit-exec", "--role", "tool", "--requests", "1"],
            &flood_out,
        ),
        (
            "load promptkit-exec, 1 GiB stderr",
            vec!["load", "--protocol", "promptkit-exec", "--role", "tool", "--requests", "1"],
            &flood_err,
        ),
        ("load picoclaw-hook, 1 GiB stdout (one line)", vec!["load", "--protocol", "picoclaw-hook", "--requests", "1"], &line_out),
        ("load picoclaw-hook, 1 GiB stderr", vec!["load", "--protocol", "picoclaw-hook", "--requests", "1"], &line_err),
        (
            "certify promptkit-exec tool, 1 GiB stdout per probe",
            vec!["certify", "--protocol", "promptkit-exec", "--role", "tool", "--no-progress"],
            &flood_out,
        ),
    ];
    println!("MEMORY case                                                 peak RSS     wall      target");
    let mut worst = 0;
    for (name, args, script) in cases {
        let mut argv: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        argv.extend([
            "--timeout-ms".into(),
            "120000".into(),
            "--format".into(),
            "json".into(),
            "--".into(),
            "sh".into(),
            "-c".into(),
            script.to_string(),
        ]);
        let start = Instant::now();
        let peak = peak_rss_kib(proctor, &argv);
        let wall = start.elapsed();
        match peak {
            Some(kib) => {
                worst = worst.max(kib);
                let verdict = if kib < LIMIT_KIB { "ok" } else { "MISSED" };
                println!("MEMORY {name:<52} {:>7.1} MiB  {:>6.1} s  < 64 MiB {verdict}", kib as f64 / 1024.0, wall.as_secs_f64());
            }
            None => println!("MEMORY {name:<52} could not be measured"),
        }
    }
    println!(
        "RATIO memory: worst peak RSS {:.1} MiB / 64 MiB = {:.2} (target < 1.0)",
        worst as f64 / 1024.0,
        worst as f64 / LIMIT_KIB as f64
    );
}

/// Peak RSS of `program argv…` in KiB.
fn peak_rss_kib(program: &str, argv: &[String]) -> Option<u64> {
    let time = Path::new("/usr/bin/time");
    if time.exists() {
        let out =
            Command::new(time).args(["-f", "%M", "--", program]).args(argv).stdout(Stdio::null()).stderr(Stdio::piped()).output().ok()?;
        // The last stderr line is time's; proctor's own messages come before it.
        return String::from_utf8_lossy(&out.stderr).lines().last()?.trim().parse().ok();
    }
    let mut child = Command::new(program).args(argv).stdout(Stdio::null()).stderr(Stdio::null()).spawn().ok()?;
    let status = format!("/proc/{}/status", child.id());
    let mut peak = None;
    while child.try_wait().ok()?.is_none() {
        if let Some(kib) = std::fs::read_to_string(&status)
            .ok()
            .and_then(|s| s.lines().find_map(|l| l.strip_prefix("VmHWM:")?.trim().strip_suffix("kB")?.trim().parse().ok()))
        {
            peak = Some(kib);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    peak
}
