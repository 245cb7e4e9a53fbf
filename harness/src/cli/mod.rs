//! The command line: clap definitions, one module per subcommand, and the
//! exit code as a function of the outcome.

mod certificate;
mod certify;
mod checks;
mod init;
mod judging;
mod load;
mod mock_plugin;
mod mock_provider;
mod pack;
mod run;
mod runtime;
mod runtime_config;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use proctor_conformance::protocol::Family;

use crate::report::Format;

/// Conformance harness for the stdio plugin protocols of LLM agent runtimes.
///
/// proctor plays the runtime's side of the conversation (exactly as the
/// runtime does it, byte for byte) against your plugin executable and
/// judges what comes back.
#[derive(Debug, Parser)]
#[command(name = "proctor", version, propagate_version = true)]
#[command(after_help = "Examples:
  proctor certify --protocol picoclaw-hook -- python3 examples/picoclaw-hook/review_gate.py
  proctor certify --protocol promptkit-exec --role tool-hook \\
      --cases examples/promptkit-exec/pii_tool_hook.cases.yaml \\
      -- python3 examples/promptkit-exec/pii_tool_hook.py
  proctor certify --protocol codex-hook --role PreToolUse \\
      --cases examples/agent-hooks/bash_guard.cases.yaml -- python3 examples/agent-hooks/bash_guard.py
  proctor checks --protocol runok-extension
  proctor run scenarios/runok
  proctor schema > scenario.schema.json

Exit codes: 0 conformant, 1 nonconformant, 2 usage or harness error.")]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Judge a plugin executable against its protocol family.
    ///
    /// Runs the family's built-in probes (and your --cases) under the
    /// documented profile and under the runtime as implemented, and reports
    /// every check with the bytes exchanged and a hint for each failure.
    Certify(Box<CertifyArgs>),
    /// Print the check catalogue and the wire-fidelity profiles.
    Checks(ChecksArgs),
    /// Start a plugin from a template: a plugin that certifies as written, its cases, a scenario, a CI workflow.
    ///
    /// In Python, Go, TypeScript (--lang ts) or, for some roles, sh. Writes into
    /// --dir (default .) and never over an existing file (if one is there,
    /// nothing is written), then prints the commands that build (Go,
    /// TypeScript), certify and run it.
    #[command(after_help = "Examples:
  proctor init --protocol promptkit-exec --role tool-hook --dir my-hook
  proctor init --protocol picoclaw-hook --lang go --dir my-gate
  proctor init --protocol promptkit-server --lang ts --dir my-tool
  proctor init --protocol runok-extension --lang sh --dir guard --action acme/proctor@v1
  proctor init --protocol claude-code-hook --role PreToolUse --dir my-guard")]
    Init(init::InitArgs),
    /// Work with certificates written by `proctor certify --certificate FILE`.
    #[command(subcommand)]
    Certificate(certificate::CertificateCommand),
    /// Check a PromptPack, or render what the model really gets from one of its prompts.
    #[command(subcommand)]
    Pack(pack::PackCommand),
    /// Run as a scripted plugin, well-behaved or misbehaving on purpose.
    ///
    /// Point a runtime (or `proctor certify`) at this command to see how it
    /// copes with a plugin that, say, never flushes, answers with the wrong
    /// id, or leaves a grandchild holding stdout.
    MockPlugin(MockPluginArgs),
    /// Serve the scenario's scripted LLM over HTTP: OpenAI chat completions,
    /// the OpenAI Responses API and the Anthropic Messages API.
    ///
    /// Prints the base URL (http://127.0.0.1:PORT/v1) as the first line on
    /// stdout, then answers round by round, streamed or not, until
    /// interrupted or until stdin, when it is a pipe, is closed. The same
    /// script answers on every route: POST /v1/chat/completions (an OpenAI
    /// client's base URL is the printed one), /v1/responses (Codex CLI: a
    /// provider with `base_url` the printed one and `wire_api = "responses"`)
    /// and /v1/messages (Claude Code: `ANTHROPIC_BASE_URL` is the printed one
    /// without `/v1`).
    MockProvider(mock_provider::MockProviderArgs),
    /// Run scenario files (or folders of them) without cargo.
    ///
    /// Each scenario plays its runtime (PromptKit, PicoClaw or runok) against
    /// real plugin subprocesses and checks its expectations, and the
    /// transcript against its snapshot (`snapshots/<id>.snap` beside the
    /// scenario), as `cargo test` does. `--update-snapshots` writes them.
    Run(RunArgs),
    /// Drive a plugin with many requests: throughput, latency, errors, memory.
    ///
    /// Long-lived hooks get several requests in flight; PromptKit servers get
    /// one process per concurrent request (PromptKit never pipelines);
    /// one-shot plugins are spawned once per request. Exit 1 on any error.
    Load(LoadArgs),
    /// Print the JSON Schema of the scenario format (for editor completion).
    Schema,
    /// Judge what a runtime sent to a scenario's mock plugins and LLM.
    ///
    /// Start each `process: {mock: …}` plugin of the scenario as
    /// `proctor mock-plugin --scenario FILE --plugin NAME --record DIR/NAME.jsonl`
    /// inside your runtime, point it at `proctor mock-provider --scenario FILE
    /// --journal DIR/llm.journal.jsonl`, run the conversation, then verify the
    /// records and the journal. Exit 0 conformant, 1 not, 2 bad input.
    Verify(VerifyArgs),
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// The scenario the runtime ran.
    #[arg(long, value_name = "FILE")]
    scenario: PathBuf,
    #[command(flatten)]
    judging: judging::JudgingArgs,
    /// Record files, or folders of `<plugin>.jsonl` records (from
    /// `proctor mock-plugin --record` or `proctor run --record-dir`).
    #[arg(long = "record", value_name = "PATH")]
    records: Vec<PathBuf>,
    /// The mock provider's journal (`proctor mock-provider --journal FILE`):
    /// judges what the runtime sent the LLM (request shapes, tool results
    /// relayed under their call ids, the script followed round by round,
    /// the scenario's `tool_results` as the LLM was told them).
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Judge against this profile instead of the scenario's: `documented`
    /// asks "does my runtime do what the protocol documents promise?".
    #[arg(long, value_name = "NAME")]
    profile: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the report to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct RunArgs {
    /// Scenario files or folders (default: scenarios/).
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the report to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also write the report in FORMAT to FILE (repeatable), as certify does: one run, every
    /// report a CI job wants. FORMAT is text, json, junit, markdown or html.
    #[arg(long = "report", value_name = "FORMAT=FILE", value_parser = crate::report::parse_report_arg)]
    reports: Vec<(Format, PathBuf)>,
    /// Mock plugins record what they receive to DIR/<plugin>.jsonl, for
    /// `proctor verify` (run one scenario at a time with this).
    #[arg(long, value_name = "DIR")]
    record_dir: Option<PathBuf>,
    /// Scenarios run at once (default: one per core; at most 1024).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    jobs: Option<u64>,
    /// Do not show progress on stderr.
    #[arg(long)]
    no_progress: bool,
    /// Play every scenario under this profile (`documented`, or a runtime as
    /// implemented) instead of its own; `all` plays each under both of its
    /// family's profiles and prints, per scenario, where the two transcripts
    /// first part ways.
    #[arg(long, value_name = "NAME|all")]
    profile: Option<String>,
    /// Failing scenarios accepted for now (YAML: expected_failures: [{scenario, reason}]). A listed
    /// scenario that passes again fails the run as stale.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Write a baseline accepting every failing scenario to FILE (edit each `reason`).
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Write the snapshot of every scenario whose expectations hold: a new
    /// one where there is none, the run's transcript where it differs. The
    /// files are insta's (`snapshots/<id>.snap` beside the scenario), so
    /// `cargo test` and `cargo insta` agree with them; review the change with
    /// `git diff`. A scenario that fails keeps its snapshot.
    #[arg(long, conflicts_with = "profile")]
    update_snapshots: bool,
}

#[derive(Debug, Clone, clap::Args)]
struct CertifyArgs {
    /// Protocol family: promptkit-exec, promptkit-server, picoclaw-hook, runok-extension, claude-code-hook, codex-hook
    ///
    /// claude-code-hook and codex-hook need --role: the hook's event, e.g. PreToolUse.
    #[arg(long, value_name = "FAMILY", required_unless_present = "runtime_config")]
    protocol: Option<Family>,
    /// Certify every exec plugin a PromptKit RuntimeConfig binds, in one report.
    ///
    /// Each binding of spec.tools (exec), spec.evals, spec.hooks and
    /// spec.selectors is certified in its role (a `runtime: server` tool
    /// as promptkit-server), started in the file's folder with the
    /// binding's args, its timeout_ms as the deadline, and its `env:` names
    /// given their values from proctor's environment (or --env). A
    /// `NAME.cases.yaml` beside a plugin's script is used as its --cases.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["protocol", "role", "cases", "command", "cwd", "certificate", "badge", "baseline", "write_baseline", "require", "schema"])]
    runtime_config: Option<PathBuf>,
    /// With --runtime-config: the pack the config binds. Its tools' `parameters` are the
    /// --fuzz schemas, and bindings that name nothing in the pack are reported.
    #[arg(long, value_name = "PACK", requires = "runtime_config")]
    pack: Option<PathBuf>,
    #[command(flatten)]
    judging: judging::JudgingArgs,
    /// Role of the plugin. promptkit-exec: tool, eval, provider-hook, tool-hook,
    /// session-hook, eval-hook or selector (required). picoclaw-hook: a comma list of modes
    /// from observe,llm,tool,approve (default: all four). claude-code-hook, codex-hook: the
    /// event the hook is configured on, as the agent spells it (PreToolUse, PostToolUse,
    /// UserPromptSubmit, Stop … required).
    #[arg(long, value_name = "ROLE")]
    role: Option<String>,
    /// Run only this profile (repeatable): `documented`, or the runtime as
    /// implemented (promptkit@86d9f36, picoclaw@cf67dd3, runok@0.3.1, claude-code@2.1.332,
    /// codex@0.171.0). Default: both.
    #[arg(long = "profile", value_name = "NAME")]
    profiles: Vec<String>,
    /// A YAML file of extra requests with the decision each must get.
    #[arg(long, value_name = "FILE")]
    cases: Option<PathBuf>,
    /// An environment variable your runtime config gives the plugin (repeatable).
    ///
    /// Each profile then builds the environment its runtime would: PromptKit
    /// starts a one-shot exec tool whose config lists `env:` with only those
    /// variables (no PATH, no HOME), everything else gets proctor's own
    /// environment plus these. A tool that only works because your shell had
    /// PATH fails here as it would in production.
    #[arg(long = "env", value_name = "K=V", value_parser = parse_env)]
    env: Vec<(String, String)>,
    /// The working directory your runtime config starts the plugin in.
    #[arg(long, value_name = "DIR")]
    cwd: Option<PathBuf>,
    /// Write a certificate to FILE: every check's outcome, the command line,
    /// and the SHA-256 of the plugin's executable and of every file named on
    /// its command line. `proctor certificate check FILE` tells later whether
    /// those bytes changed since.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// With --certificate: a file, or a folder of files, the certificate also covers
    /// (repeatable). The executable, the files on the command line, --cases,
    /// --schema and --baseline are covered already; what they load is not (a
    /// wrapper script's own arguments, `python3 -m pkg`'s package): name it here.
    #[arg(long, value_name = "PATH", requires = "certificate")]
    covers: Vec<PathBuf>,
    /// Write a shields.io endpoint badge to FILE ("conformant · runok@0.3.1").
    #[arg(long, value_name = "FILE")]
    badge: Option<PathBuf>,
    /// Capabilities the plugin must be seen using, comma-separated: deny,
    /// pending, modify, respond, error (those its role has).
    ///
    /// The built-in probes never ask a hook to deny, respond or modify, so
    /// the checks of those answers' shape are skipped unless a --cases entry
    /// makes the plugin use them. With --require, such a check fails instead
    /// of skipping when no answer used the capability: state what your
    /// plugin must do, and a case that no longer triggers it is caught.
    #[arg(long, value_name = "CAPS")]
    require: Option<String>,
    /// The request deadline your runtime config sets (its `timeout_ms`, an
    /// agent hook's `timeout`), in milliseconds, under every profile.
    ///
    /// Without it each profile waits as its runtime does, per surface:
    /// PromptKit 10 s for an exec hook or selector, 5 s for an eval hook, 30 s
    /// for an eval or a tool; PicoClaw 5 s for an interceptor, 60 s for an
    /// approval; Claude Code 60 s and Codex 600 s for a hook; documented 5 s
    /// (`proctor checks` lists them with their sources). proctor waits at most
    /// 60 s for one answer unless this asks for longer.
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    /// One-shot plugins: run up to N plugin processes at once (default: the
    /// number of CPUs).
    ///
    /// Each probe, case and fuzz input of a one-shot plugin (promptkit-exec,
    /// runok-extension) is a process of its own, so they can overlap; they
    /// are still judged one after another, in order, and the report is the
    /// same as with --jobs 1 for a plugin that answers a request the same way
    /// every time. Use --jobs 1 for a plugin that keeps state between runs
    /// (a counter in a file) or that cannot run twice at once. Each plugin
    /// running holds up to 16 MiB of what it floods stdout with. Long-lived
    /// plugins talk over one process and ignore it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    /// Send N generated tool calls per profile (check ROBUST-FUZZ; needs --schema).
    ///
    /// Each is a random argument object valid against --schema, leaning on
    /// what breaks plugins (quotes, backslashes, newlines, <>&, U+2028,
    /// non-ASCII, empty strings, boundary numbers), sent as the family's real
    /// tool request: promptkit-exec tool {"args": …} (tool-hook: its
    /// before_execution request), promptkit-server `execute`, picoclaw-hook
    /// `hook.before_tool` / `hook.approve_tool`. The property: every one gets
    /// an answer in time, well framed, with the right id and a result or an
    /// error (a tool error is fine; a crash, a hang or garbage is not). A
    /// long-lived plugin serves all inputs in one process. The first failing
    /// input is shrunk to a minimal one and printed as a --cases entry.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    fuzz: Option<u32>,
    /// The tool's parameters for --fuzz: a JSON Schema file (JSON or YAML), or a
    /// tool descriptor holding one ({name, parameters}; OpenAI {type: function, function: …}).
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// Seed of the --fuzz generator: the same seed sends the same inputs in the
    /// same order, so a failure is reproduced by rerunning with the seed the report names.
    #[arg(long, value_name = "S", default_value_t = proctor_conformance::certify::fuzz::DEFAULT_SEED)]
    fuzz_seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write the report to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Also write the report in FORMAT to FILE (repeatable): one run, every report a CI job
    /// wants, e.g. `--report junit=report.xml --report markdown=summary.md --report html=report.html`.
    /// FORMAT is text, json, junit, markdown or html; text is written without colour.
    #[arg(long = "report", value_name = "FORMAT=FILE", value_parser = crate::report::parse_report_arg)]
    reports: Vec<(Format, PathBuf)>,
    /// Do not show progress on stderr.
    #[arg(long)]
    no_progress: bool,
    /// The plugin command and its arguments (after `--`). No shell is involved.
    #[arg(last = true, required_unless_present = "runtime_config", value_name = "COMMAND")]
    command: Vec<String>,
}

#[derive(Debug, clap::Args)]
struct LoadArgs {
    /// Protocol family: promptkit-exec, promptkit-server, picoclaw-hook, runok-extension, claude-code-hook, codex-hook
    #[arg(long, value_name = "FAMILY")]
    protocol: Family,
    /// Role (required for promptkit-exec); PicoClaw modes as a comma list.
    #[arg(long, value_name = "ROLE")]
    role: Option<String>,
    /// Total requests to send (at most 10,000,000: each one's latency is kept for the percentiles).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    requests: u64,
    /// Requests in flight at once (processes, for promptkit-server and one-shot families; at most 4096).
    #[arg(long, value_name = "C", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=4096))]
    concurrency: u64,
    /// Deadline for each request, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = certify::DEFAULT_TIMEOUT_MS)]
    timeout_ms: u64,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: load::LoadFormat,
    /// The plugin command and its arguments (after `--`). No shell is involved.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    command: Vec<String>,
}

#[derive(Debug, clap::Args)]
struct ChecksArgs {
    /// Only the checks of this family.
    #[arg(long, value_name = "FAMILY")]
    protocol: Option<Family>,
    /// Output format (text or json).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

#[derive(Debug, clap::Args)]
struct MockPluginArgs {
    /// Protocol family to speak (not needed with --scenario).
    #[arg(long, value_name = "FAMILY", required_unless_present_any = ["list_faults", "scenario"])]
    protocol: Option<Family>,
    /// Role(s) to play (comma list for PicoClaw modes). Default: every role of the family.
    #[arg(long, value_name = "ROLE")]
    role: Option<String>,
    /// A named misbehaviour (repeatable); `proctor mock-plugin --list-faults` lists them.
    #[arg(long = "fault", value_name = "FAULT")]
    faults: Vec<String>,
    /// What a well-behaved answer decides: allow, deny, pending, respond, modify.
    #[arg(long, value_name = "DECISION")]
    decision: Option<String>,
    /// For the crash-after fault: how many requests to answer before exiting 1.
    #[arg(long, value_name = "N")]
    crash_after: Option<u32>,
    /// Play the plugin a scenario describes (its `process: {mock: …}` and config).
    #[arg(long, value_name = "FILE", requires = "plugin")]
    scenario: Option<PathBuf>,
    /// With --scenario: the plugin's name.
    #[arg(long, value_name = "NAME", requires = "scenario")]
    plugin: Option<String>,
    /// Record every byte received on stdin, with timestamps, as JSON lines.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Print every fault and its kind, then exit; with --protocol (and --role), only the faults that change something there.
    #[arg(long)]
    list_faults: bool,
    /// Play a JSON behaviour file that dictates every byte. One-shot families:
    /// {"read_stdin", "delay_ms", "stderr", "stdout", "exit", "then": exit|hang|close_then_hang|signal}.
    /// Long-lived: {"stderr", "banner", "on": {METHOD or "*": STEP or [STEP...]}, "at_eof": {"stderr", "delay_ms", "exit"}},
    /// STEP = {"delay_ms", "stderr", "write", "then": continue|hang|exit|close_stdout|signal, "exit"}.
    /// `$ID` in stdout/write is the request's raw id (or null); any text field X may be X_hex instead.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["faults", "decision", "scenario", "crash_after", "list_faults"],
        verbatim_doc_comment
    )]
    script: Option<PathBuf>,
}

/// `--env K=V`: a variable name and its value.
fn parse_env(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() && !k.contains(char::is_whitespace) => Ok((k.to_string(), v.to_string())),
        _ => Err(format!("`{s}` is not NAME=VALUE (e.g. --env API_KEY=test)")),
    }
}

/// A usage or harness error: exit code 2, with a message that says what to do.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Parses arguments, runs the subcommand and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    if matches!(cli.command, Command::Certify(_) | Command::Certificate(_) | Command::Run(_) | Command::Load(_)) {
        // Whatever a plugin starts, even in a new session or after a double
        // fork, is re-parented to proctor when its parent exits, so proctor
        // can still end it (transport::tree).
        proctor_conformance::transport::tree::become_subreaper();
        // Before anything starts or is hashed: a signal stops proctor and its plugins at any point.
        crate::interrupt::install();
    }
    let result = match cli.command {
        // A RuntimeConfig is certified binding by binding, each as `certify` would.
        Command::Certify(args) => match args.runtime_config.clone() {
            Some(config) => runtime_config::run(&args, &config),
            None => certify::run(*args),
        },
        Command::Checks(args) => checks::run(args),
        Command::Init(args) => init::run(args),
        Command::Certificate(command) => certificate::run(command),
        Command::Pack(command) => pack::run(command),
        Command::MockPlugin(args) => mock_plugin::run(args),
        Command::MockProvider(args) => mock_provider::run(args),
        Command::Run(args) => run::main(args),
        Command::Verify(args) => verify::run(args),
        Command::Load(args) => load::main(args),
        Command::Schema => {
            crate::output::emit(&format!("{}\n", serde_json::to_string_pretty(&crate::scenario::schema()).unwrap_or_default()));
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // Messages quote what the user gave (a command, a prompt key, a file name): escaped, so
            // an ESC or a bidi override in it never reaches the terminal.
            eprintln!("error: {}", crate::report::escape(&format!("{e:#}")));
            ExitCode::from(2)
        }
    }
}

/// clap's own message and exit code, and, when a plugin's command was given
/// without the `--` before it (`certify --protocol x python3 gate.py`), the
/// same command line with it.
fn usage_error(e: clap::Error) -> ExitCode {
    let _ = e.print();
    if !e.use_stderr() {
        return ExitCode::SUCCESS; // --help, --version
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(tip) = missing_separator_tip(&e, &args) {
        eprintln!("\n{}", crate::report::escape(&tip));
    }
    ExitCode::from(2)
}

/// The tip for `certify`/`load` given a plugin command without `--`.
fn missing_separator_tip(e: &clap::Error, args: &[String]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument || args.iter().any(|a| a == "--") {
        return None;
    }
    if !args.first().is_some_and(|c| c == "certify" || c == "load") {
        return None;
    }
    let Some(ContextValue::String(stray)) = e.get(ContextKind::InvalidArg) else { return None };
    let at = args.iter().position(|a| a == stray)?;
    let quoted = |a: &String| if a.is_empty() || a.contains(char::is_whitespace) { format!("'{a}'") } else { a.clone() };
    let before: Vec<String> = args[..at].iter().map(quoted).collect();
    let after: Vec<String> = args[at..].iter().map(quoted).collect();
    Some(format!(
        "tip: the plugin's command goes after `--`, so proctor's own flags cannot swallow it:\n  proctor {} -- {}",
        before.join(" "),
        after.join(" ")
    ))
}
