//! `proctor load`: drive a plugin with many requests and report throughput,
//! latency percentiles, errors and the plugin's memory at start and end.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use proctor_conformance::load::{LoadOptions, LoadReport, run};
use proctor_conformance::protocol::{Family, Role};
use proctor_conformance::transport::{Deadlines, PluginCommand};

use super::{LoadArgs, UsageError, runtime};

/// `--format` of `proctor load`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum LoadFormat {
    /// A short summary for people.
    Text,
    /// The machine-readable report.
    Json,
}

pub(super) fn main(args: LoadArgs) -> anyhow::Result<ExitCode> {
    let family = args.protocol;
    let roles = roles(family, args.role.as_deref())?;
    if args.timeout_ms == 0 {
        return Err(UsageError("--timeout-ms must be at least 1".into()).into());
    }
    // clap bounds both (1..=10,000,000 and 1..=4096), so neither can size an allocation without limit.
    let (requests, concurrency) = (args.requests as usize, args.concurrency as usize);
    let mut command =
        PluginCommand::new(args.command.clone()).ok_or_else(|| UsageError("the plugin command after `--` is empty".into()))?;
    // A plugin that cannot start is the command's mistake, not a load result: said before any request.
    if command.resolve_program().is_none() {
        return Err(UsageError(format!(
            "cannot start `{}`: no such program\nhint: check the command after `--`; proctor runs it directly, without a shell",
            command.program()
        ))
        .into());
    }
    if let Some(script) = command.missing_script() {
        return Err(UsageError(format!(
            "`{}` would run {}, {}: nothing would be loaded\nhint: check the path of the script after `--`",
            command.program(),
            script.path.display(),
            script.why
        ))
        .into());
    }
    // As in certify: the runtimes' environment does not make Python unbuffered.
    command.env_remove = vec!["PYTHONUNBUFFERED".into()];
    let show_progress = std::io::stderr().is_terminal();
    let total = requests;
    let options = LoadOptions {
        command,
        family,
        roles,
        requests,
        concurrency,
        deadlines: Deadlines { request: Duration::from_millis(args.timeout_ms), ..Deadlines::default() },
        progress: Box::new(move |done| {
            // Every 1/100th of the run is plenty for a human, and cheap.
            if show_progress && (done % (total / 100).max(1) == 0 || done == total) {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K  … {done}/{total} requests");
                let _ = err.flush();
            }
        }),
    };
    let report = runtime::run(run(options))?;
    if show_progress {
        eprint!("\r\x1b[2K");
    }
    let report =
        report.map_err(|e| UsageError(format!("{e}\nhint: check the command after `--`; proctor runs it directly, without a shell")))?;
    match args.format {
        LoadFormat::Json => crate::output::emit(&format!("{}\n", serde_json::to_string_pretty(&report)?)),
        LoadFormat::Text => crate::output::emit(&text(&report)),
    }
    Ok(if report.errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The human summary.
fn text(r: &LoadReport) -> String {
    let kib = |v: Option<u64>| v.map_or("-".to_string(), |v| format!("{v} KiB"));
    let e = &r.error_kinds;
    let l = &r.latency_us;
    format!(
        "{} requests to a {} plugin, {} in flight, {} process(es), {:.0} ms\n\
         throughput  {:.1} replies/s\n\
         latency µs  p50 {}  p90 {}  p99 {}  max {}\n\
         errors      {} (timeouts {}, bad replies {}, crashes {}, not sent {}, JSON-RPC error replies {})\n\
         plugin RSS  start {}  end {}  ({})\n",
        r.requests,
        r.protocol,
        r.concurrency,
        r.processes,
        r.elapsed_ms,
        r.throughput_per_s,
        l.p50,
        l.p90,
        l.p99,
        l.max,
        r.errors,
        e.timeouts,
        e.bad_replies,
        e.crashes,
        e.not_sent,
        e.error_replies,
        kib(r.plugin_rss_kib.start),
        kib(r.plugin_rss_kib.end),
        r.plugin_rss_kib.note,
    )
}

/// The roles to load: PromptKit exec needs one, PicoClaw takes a mode list
/// (default: every mode), the others have a single role.
fn roles(family: Family, role: Option<&str>) -> Result<Vec<Role>, UsageError> {
    let names = || family.roles().iter().map(|r| r.name()).collect::<Vec<_>>().join(", ");
    match (family, role) {
        (Family::PromptkitExec, None) => Err(UsageError(format!("promptkit-exec needs --role: one of {}", names()))),
        (Family::PicoclawHook, Some(r)) => {
            let modes = Role::parse_list(family, r).map_err(|e| UsageError(e.to_string()))?;
            if !modes.iter().any(|m| m.name() != "observe") {
                return Err(UsageError(format!(
                    "--role needs a mode that gets requests (observe-only hooks get notifications only); one of {}",
                    names()
                )));
            }
            Ok(modes)
        }
        (f, None) if f.is_agent_hook() => Err(super::certify::agent_hook_needs_event(family)),
        (_, Some(r)) => Ok(vec![Role::parse(family, r).map_err(|e| UsageError(e.to_string()))?]),
        (_, None) => Ok(family.roles().to_vec()),
    }
}
