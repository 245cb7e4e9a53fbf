//! `proctor certify`: validate the invocation, run certification, render,
//! and turn the verdict into the exit code.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use proctor_conformance::certify::capability::Capability;
use proctor_conformance::certify::fuzz::{self, Fuzz, ToolSchema};
use proctor_conformance::certify::{CasesFile, CertifyError, Options, Verdict, certify};
use proctor_conformance::protocol::{Family, Profile, Role};
use proctor_conformance::transport::PluginCommand;

use super::{CertifyArgs, UsageError, runtime};
use crate::certificate::Certificate;
use crate::output;
use crate::report::{Format, render};

/// `--timeout-ms` when not given.
pub(super) const DEFAULT_TIMEOUT_MS: u64 = 5000;

pub(super) fn run(args: CertifyArgs) -> anyhow::Result<ExitCode> {
    let mut outputs = outputs(&args)?;
    let report = report_of(&args, !args.no_progress)?;
    let color = args.format == Format::Text && args.output.is_none() && output::stdout_wants_color();
    let mut rendered = render(&report, args.format, color);
    if let (Some(n), Format::Text) = (args.fuzz, args.format) {
        // Passing checks print no message in text; the seed must still be on record.
        rendered.push_str(&format!(
            "fuzz: {n} generated inputs per profile from seed {} (rerun with --fuzz {n} --fuzz-seed {})\n",
            args.fuzz_seed, args.fuzz_seed
        ));
    }
    output::deliver(outputs.take("--output"), &rendered)?;
    write_reports(&mut outputs, &args.reports, |format| Ok(render(&report, format, false)))?;
    if args.certificate.is_some() || args.badge.is_some() {
        let certificate = certificate_of(&args, &report)?;
        if let Some(target) = outputs.take("--certificate") {
            target.write(serde_json::to_string_pretty(&certificate)?.as_bytes())?;
            for line in certificate.coverage() {
                eprintln!("certificate: {}", crate::report::escape(&line));
            }
        }
        if let Some(target) = outputs.take("--badge") {
            target.write(serde_json::to_string_pretty(&certificate.badge())?.as_bytes())?;
        }
    }
    Ok(match report.verdict {
        Verdict::Conformant => ExitCode::SUCCESS,
        Verdict::Nonconformant => ExitCode::from(1),
    })
}

/// Writes each `--report FORMAT=FILE` (prepared as `--report FORMAT`, in order).
pub(super) fn write_reports(
    outputs: &mut output::Outputs,
    reports: &[(Format, std::path::PathBuf)],
    render: impl Fn(Format) -> anyhow::Result<String>,
) -> anyhow::Result<()> {
    for (format, _) in reports {
        if let Some(target) = outputs.take(&format.report_flag()) {
            target.write(render(*format)?.as_bytes())?;
        }
    }
    Ok(())
}

/// Before anything runs: every output can be written, none is an input (the
/// plugin's program and files, cases, schema, a baseline other than the one
/// being rewritten) or another output, and a certificate can hold every path.
fn outputs(args: &CertifyArgs) -> Result<output::Outputs, UsageError> {
    let mut inputs = output::Inputs::default();
    if let Some(p) = &args.cases {
        inputs.file("the --cases file", p);
    }
    if let Some(p) = &args.schema {
        inputs.file("the --schema file", p);
    }
    for p in &args.covers {
        inputs.file("a file --covers names", p);
    }
    if let Some(mut command) = PluginCommand::new(args.command.clone()) {
        command.cwd = args.cwd.clone();
        inputs.command("the plugin's command", &command);
    }
    let labels: Vec<String> = args.reports.iter().map(|(format, _)| format.report_flag()).collect();
    let mut written: Vec<(&str, &std::path::Path)> = Vec::new();
    written.extend(args.output.as_deref().map(|p| ("--output", p)));
    written.extend(labels.iter().zip(&args.reports).map(|(label, (_, path))| (label.as_str(), path.as_path())));
    written.extend(args.certificate.as_deref().map(|p| ("--certificate", p)));
    written.extend(args.badge.as_deref().map(|p| ("--badge", p)));
    // The report, certificate and badge may not overwrite the `--baseline` either; only
    // `--write-baseline` may rewrite it (that keeps its reasons).
    if let Some(baseline) = args.judging.baseline_file() {
        let mut with_baseline = output::Inputs::default();
        with_baseline.file("the --baseline file", baseline);
        output::refuse_clobbering(&written, &with_baseline)?;
    }
    if args.certificate.is_some() {
        certificate_can_hold(args)?;
    }
    // `--write-baseline` is prepared with the judging flags; here it is only kept off the inputs and the outputs.
    let mut all = written.clone();
    all.extend(args.judging.write_baseline_file().map(|p| ("--write-baseline", p)));
    output::refuse_clobbering(&all, &inputs)?;
    output::Outputs::prepare(&written, &inputs)
}

/// A certificate records its paths as JSON text: a path that is not UTF-8
/// would be lost after the whole run, so it is refused before it, named.
fn certificate_can_hold(args: &CertifyArgs) -> Result<(), UsageError> {
    let cwd = std::env::current_dir().map_err(|e| UsageError(format!("--certificate: cannot tell the current folder: {e}")))?;
    let unreadable = |what: String| {
        UsageError(format!(
            "--certificate: {what} is not UTF-8, and a certificate records paths as text\nhint: rename it (or certify from a folder whose path is UTF-8), or leave out --certificate"
        ))
    };
    if cwd.to_str().is_none() {
        return Err(unreadable(format!("the current folder {}", cwd.display())));
    }
    if let Some(dir) = args.cwd.as_ref().filter(|d| d.to_str().is_none()) {
        return Err(unreadable(format!("--cwd {}", dir.display())));
    }
    let files = Certificate::files_of(&args.command, &cwd, &certified_inputs(args)).map_err(|e| UsageError(e.to_string()))?;
    match files.iter().find(|(path, _)| path.to_str().is_none()) {
        Some((path, role)) => Err(unreadable(format!("{} (certified as `{role}`)", path.display()))),
        None => Ok(()),
    }
}

/// Checks the invocation, certifies, and judges the result as the flags say
/// (selection, `--strict`, baseline): the report every output is rendered from.
pub(super) fn report_of(args: &CertifyArgs, progress: bool) -> anyhow::Result<proctor_conformance::certify::Report> {
    if args.pack.is_some() {
        return Err(UsageError("--pack is read with --runtime-config only (the pack whose plugins the RuntimeConfig binds)".into()).into());
    }
    let family = args.protocol.ok_or_else(|| UsageError("--protocol is required (or --runtime-config)".into()))?;
    let roles = roles(family, args.role.as_deref())?;
    let profiles = if args.profiles.is_empty() {
        Profile::for_family(family).to_vec()
    } else {
        args.profiles.iter().map(|p| Profile::parse(family, p).map_err(|e| UsageError(e.to_string()))).collect::<Result<_, _>>()?
    };
    let cases = args.cases.as_deref().map(CasesFile::load).transpose().map_err(|e| UsageError(e.to_string()))?;
    if let (Some(cases), Some(path)) = (&cases, &args.cases) {
        cases.check_applicable(family, &roles, path).map_err(|e| UsageError(e.to_string()))?;
    }
    let fuzz = fuzz_options(args, family, &roles)?;
    let mut judging = args.judging.validate()?;
    let require = match &args.require {
        Some(list) => Capability::parse_list(list, family, &roles).map_err(UsageError)?,
        None => Vec::new(),
    };
    if args.timeout_ms == Some(0) {
        return Err(UsageError("--timeout-ms must be at least 1".into()).into());
    }
    let mut command =
        PluginCommand::new(args.command.clone()).ok_or_else(|| UsageError("the plugin command after `--` is empty".into()))?;
    command.env_remove = crate::context::UNBUFFERING_VARIABLES.iter().map(|v| v.to_string()).collect();
    command.env = args.env.clone();
    if let Some(cwd) = &args.cwd {
        if !cwd.is_dir() {
            return Err(UsageError(format!("--cwd {}: not a directory", cwd.display())).into());
        }
        command.cwd = Some(cwd.clone());
    }
    let plan = Plan {
        family,
        roles,
        profiles,
        command,
        cases,
        fuzz,
        require,
        timeout: args.timeout_ms.map(Duration::from_millis),
        jobs: jobs(args.jobs),
        left_out: args.judging.left_out(),
        written_in: WrittenIn::CommandLine,
    };
    let mut report = judge(plan, progress)?;
    report.options = replay_options(args);
    args.judging.apply(&mut report, &mut judging)?;
    Ok(report)
}

/// The certificate of `report`: the plugin's files, the files that shaped the
/// judgment and those `--covers` adds, hashed now, and the arguments to certify again.
fn certificate_of(args: &CertifyArgs, report: &proctor_conformance::certify::Report) -> anyhow::Result<Certificate> {
    let cwd = std::env::current_dir()?;
    Ok(Certificate::of(report, &cwd, invocation(args), &certified_inputs(args))?)
}

/// The files besides the plugin's own that a certificate covers, each with its role.
fn certified_inputs(args: &CertifyArgs) -> Vec<(&'static str, std::path::PathBuf)> {
    let mut inputs: Vec<(&str, std::path::PathBuf)> = Vec::new();
    inputs.extend(args.cases.iter().map(|p| ("cases", p.clone())));
    inputs.extend(args.schema.iter().map(|p| ("schema", p.clone())));
    inputs.extend(args.judging.baseline_file().map(|p| ("baseline", p.to_path_buf())));
    inputs.extend(args.covers.iter().map(|p| ("covered", p.clone())));
    inputs
}

/// Everything `certify` needs to judge the same plugin the same way again:
/// the protocol and role, the flags that shaped the run, and the command.
fn invocation(args: &CertifyArgs) -> Vec<String> {
    let mut o = Vec::new();
    if let Some(family) = args.protocol {
        o.extend(["--protocol".to_string(), family.name().to_string()]);
    }
    if let Some(role) = &args.role {
        o.extend(["--role".to_string(), role.clone()]);
    }
    o.extend(replay_options(args));
    o.extend(args.judging.invocation());
    o.push("--".into());
    o.extend(args.command.iter().cloned());
    o
}

/// `--jobs` as given, or one plugin process per CPU.
pub(super) fn jobs(given: Option<u16>) -> usize {
    given.map_or_else(|| std::thread::available_parallelism().map_or(1, usize::from), usize::from)
}

/// One plugin to certify, its invocation already checked.
pub(super) struct Plan {
    pub family: Family,
    pub roles: Vec<Role>,
    pub profiles: Vec<Profile>,
    pub command: PluginCommand,
    pub cases: Option<CasesFile>,
    pub fuzz: Option<Fuzz>,
    pub require: Vec<&'static Capability>,
    /// The request deadline the user's configuration sets (`None`: each runtime's own).
    pub timeout: Option<Duration>,
    /// One-shot plugin processes run at once.
    pub jobs: usize,
    pub left_out: Vec<proctor_conformance::check::CheckId>,
    /// Where the command was written, which the hints of a command that cannot start point at.
    pub written_in: WrittenIn,
}

/// Where a plugin's command was written.
#[derive(Clone, Copy)]
pub(super) enum WrittenIn {
    /// After `--` on proctor's command line.
    CommandLine,
    /// In a RuntimeConfig binding (`command` and `args`).
    Binding,
}

impl WrittenIn {
    /// What to check when the command's script is not there.
    fn script_hint(self) -> &'static str {
        match self {
            WrittenIn::CommandLine => "check the path of the script after `--` (relative paths start from --cwd, or from here)",
            WrittenIn::Binding => "check the binding's command and args (relative paths start from the RuntimeConfig's folder)",
        }
    }

    /// What to check when the program cannot be started.
    fn command_hint(self) -> &'static str {
        match self {
            WrittenIn::CommandLine => "check the command after `--`",
            WrittenIn::Binding => "check the binding's command and args",
        }
    }
}

/// Certifies one plugin: every probe, case and fuzz input under every profile, with the notes on
/// its environment and on deadlines longer than the runtime's own.
pub(super) fn judge(plan: Plan, progress: bool) -> anyhow::Result<proctor_conformance::certify::Report> {
    if let Some(script) = plan.command.missing_script() {
        let place = plan.command.cwd.as_ref().map(|d| format!(" (from {})", d.display())).unwrap_or_default();
        return Err(UsageError(format!(
            "`{}` would run {}{place}, {}: the plugin never started, so nothing can be judged\nhint: {}",
            plan.command.program(),
            script.path.display(),
            script.why,
            plan.written_in.script_hint()
        ))
        .into());
    }
    let written_in = plan.written_in;
    let show_progress = progress && std::io::stderr().is_terminal();
    let options = Options {
        command: plan.command,
        family: plan.family,
        roles: plan.roles,
        profiles: plan.profiles,
        cases: plan.cases,
        timeout: plan.timeout,
        require: plan.require,
        fuzz: plan.fuzz,
        left_out: plan.left_out,
        jobs: plan.jobs,
        progress: Box::new(move |step| {
            if show_progress {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K  … {}", crate::report::escape(step));
                let _ = err.flush();
            }
        }),
    };
    let report = runtime::run_local(certify(&options))?;
    if show_progress {
        eprint!("\r\x1b[2K");
    }
    let mut report = report.map_err(|e| match e {
        CertifyError::Spawn(e) => {
            UsageError(format!("{e}\nhint: {}; proctor runs it directly, without a shell", written_in.command_hint()))
        }
        CertifyError::Refused(why) => UsageError(format!(
            "{why}\nnothing was judged: the interpreter exited before the plugin ran\nhint: {}",
            written_in.command_hint()
        )),
        CertifyError::Options(why) => UsageError(why),
        CertifyError::World(e) => {
            UsageError(format!("{e}\nnothing was judged\nhint: check that the temporary folder ($TMPDIR) is writable"))
        }
    })?;
    report.notes.extend(environment_notes(&options, &report));
    for note in deadline_notes(&options) {
        eprintln!("warning: {}", crate::report::escape(&note));
        report.notes.push(note);
    }
    Ok(report)
}

/// `--fuzz`/`--schema`/`--fuzz-seed`, checked against the family and role
/// before any plugin starts.
fn fuzz_options(args: &CertifyArgs, family: Family, roles: &[Role]) -> Result<Option<Fuzz>, UsageError> {
    let Some(inputs) = args.fuzz else {
        if args.schema.is_some() {
            return Err(UsageError("--schema is only used with --fuzz N\nhint: add --fuzz 100 to send 100 generated tool calls".into()));
        }
        return Ok(None);
    };
    fuzz::applicable(family, roles).map_err(UsageError)?;
    let Some(path) = &args.schema else {
        return Err(UsageError(
            "--fuzz needs --schema FILE: the JSON Schema of the tool's parameters, which the inputs are generated from\nhint: for a PromptPack tool, the tool's `parameters` object (a whole tool descriptor works too), e.g. examples/promptkit-exec/weather_tool.schema.json".into(),
        ));
    };
    let tool = ToolSchema::load(path).map_err(|e| UsageError(e.to_string()))?;
    Ok(Some(Fuzz { inputs, seed: args.fuzz_seed, tool }))
}

/// The roles a plugin claims, with per-family defaults and a clear error.
pub(super) fn roles(family: Family, role: Option<&str>) -> Result<Vec<Role>, UsageError> {
    let names = || family.roles().iter().map(|r| r.name()).collect::<Vec<_>>().join(", ");
    match (family, role) {
        (Family::PromptkitExec, None) => Err(UsageError(format!(
            "promptkit-exec needs --role: one of {}\nhint: a one-shot exec plugin is a tool, an eval or a hook, and each speaks differently",
            names()
        ))),
        (Family::PromptkitExec, Some(r)) => Ok(vec![Role::parse(family, r).map_err(|e| UsageError(e.to_string()))?]),
        (Family::PicoclawHook, Some(r)) => {
            let modes = Role::parse_list(family, r).map_err(|e| UsageError(e.to_string()))?;
            if modes.is_empty() {
                return Err(UsageError(format!("--role lists no mode; use a comma list of {}", names())));
            }
            Ok(modes)
        }
        (f, None) if f.is_agent_hook() => Err(agent_hook_needs_event(family)),
        (_, Some(r)) => Ok(vec![Role::parse(family, r).map_err(|e| UsageError(e.to_string()))?]),
        (_, None) => Ok(family.roles().to_vec()),
    }
}

/// The error for an agent hook family without `--role`: a hook is certified for the event it is
/// configured on, as the agent spells it.
pub(super) fn agent_hook_needs_event(family: Family) -> UsageError {
    let names = family.roles().iter().map(|r| r.name()).collect::<Vec<_>>().join(", ");
    UsageError(format!(
        "{family} needs --role: the event the hook is configured on, one of {names}\nhint: a hook that serves several events is certified once per event"
    ))
}

/// Says, for each profile whose runtime gave the plugin only the listed
/// variables and under which it failed, what it got and, when its stderr
/// tells, which variable it missed.
fn environment_notes(options: &Options, report: &proctor_conformance::certify::Report) -> Vec<String> {
    let mut notes = Vec::new();
    for profile in &options.profiles {
        let command = options.command_for(*profile);
        let failed = report.profile_verdicts.iter().any(|(p, v)| p == profile.name() && *v == Verdict::Nonconformant);
        if !command.env_clear || !failed {
            continue;
        }
        let names: Vec<&str> = command.env.iter().map(|(k, _)| k.as_str()).collect();
        let stderr: Vec<&str> =
            report.checks.iter().filter(|c| c.profile == profile.name()).filter_map(|c| c.evidence.stderr_tail.as_deref()).collect();
        let missed = stderr.iter().find_map(|s| missed_variable(s));
        let missed = match missed {
            Some(var) => format!(" It looked for {var}, which it did not get: add it to the tool's `env:` list (and to --env)."),
            None => " A plugin that starts a program by name needs PATH in that list; one that reads HOME needs HOME.".to_string(),
        };
        notes.push(format!(
            "under {profile} this exec tool got only the variables --env lists ({}): PromptKit gives a one-shot exec tool whose runtime config lists `env:` nothing else, no PATH and no HOME.{missed}",
            names.join(", ")
        ));
    }
    notes
}

/// The variable a crash's stderr says was missing: Python's `KeyError: 'HOME'`,
/// a shell's `HOME: parameter not set`, or a program not found without PATH.
fn missed_variable(stderr: &str) -> Option<String> {
    if let Some(at) = stderr.find("KeyError: '") {
        let rest = &stderr[at + "KeyError: '".len()..];
        return rest.split('\'').next().filter(|v| !v.is_empty()).map(String::from);
    }
    if let Some(at) = stderr.find(": parameter not set") {
        return stderr[..at].rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().map(String::from);
    }
    (stderr.contains("not found") || stderr.contains("No such file or directory")).then(|| "PATH".to_string())
}

/// The flags that shaped the run, as they would be typed again.
fn replay_options(args: &CertifyArgs) -> Vec<String> {
    let mut o = Vec::new();
    let mut flag = |name: &str, value: String| o.extend([name.to_string(), value]);
    for p in &args.profiles {
        flag("--profile", p.clone());
    }
    if let Some(cases) = &args.cases {
        flag("--cases", cases.display().to_string());
    }
    if let Some(require) = &args.require {
        flag("--require", require.clone());
    }
    if let Some(n) = args.fuzz {
        flag("--fuzz", n.to_string());
        flag("--fuzz-seed", args.fuzz_seed.to_string());
    }
    if let Some(schema) = &args.schema {
        flag("--schema", schema.display().to_string());
    }
    if let Some(ms) = args.timeout_ms {
        flag("--timeout-ms", ms.to_string());
    }
    for (k, v) in &args.env {
        flag("--env", format!("{k}={v}"));
    }
    if let Some(cwd) = &args.cwd {
        flag("--cwd", cwd.display().to_string());
    }
    o
}

/// A `--timeout-ms` longer than a runtime's own deadline hides the timeout
/// the plugin would hit there, and a runtime deadline past proctor's ceiling
/// is not waited out: say so, once per profile, naming the limit.
fn deadline_notes(options: &Options) -> Vec<String> {
    use proctor_conformance::protocol::timing::CEILING;
    let mut notes = Vec::new();
    for profile in &options.profiles {
        let tightest = options.roles.iter().map(|r| profile.timing(options.family, *r).request).min_by_key(|l| l.duration);
        let Some(limit) = tightest else { continue };
        match options.timeout {
            Some(asked) if asked > limit.duration && *profile != Profile::Documented => notes.push(format!(
                "--timeout-ms {} is above {profile}'s own {} ms deadline ({}): an answer that slow passes here; check that your configuration really sets it",
                asked.as_millis(),
                limit.duration.as_millis(),
                limit.source
            )),
            None if limit.duration > CEILING => notes.push(format!(
                "{profile} waits {} s for an answer ({}); proctor waits at most {} s (--timeout-ms {} waits it out)",
                limit.duration.as_secs(),
                limit.source,
                CEILING.as_secs(),
                limit.duration.as_millis()
            )),
            _ => {}
        }
    }
    notes
}
