//! `proctor mock-provider`: the scenario's scripted LLM served as an
//! OpenAI-compatible HTTP API, for a runtime under test to call.
//!
//! The first line on stdout is the base URL, flushed at once, so a test
//! harness can start the server on port 0 and read where it is. The server
//! stops on SIGINT or SIGTERM, or when stdin reaches end of file if stdin
//! is a pipe (a harness closes it to stop the server without signals). A
//! stdin that is a terminal or /dev/null is not watched: a shell script's
//! background job gets /dev/null, which must not stop the server at once.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use proctor_mocks::provider::journal::Journal;
use proctor_mocks::provider::{ProviderOptions, ProviderServer};
use tokio::signal::unix::{SignalKind, signal};

use super::UsageError;
use crate::scenario::load;

#[derive(Debug, clap::Args)]
pub(super) struct MockProviderArgs {
    /// The scenario whose `llm:` rounds are served, in order.
    #[arg(long, value_name = "FILE")]
    scenario: PathBuf,
    /// Address to listen on; loopback only (127.0.0.1 or [::1]). Port 0 picks a free port.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:0")]
    listen: String,
    /// Also write every request and its answer to FILE as JSON lines (the
    /// journal is always at GET /__proctor/journal).
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Answer requests the script does not cover with a fixed text instead of HTTP 400.
    #[arg(long)]
    lenient: bool,
}

pub(super) fn run(args: MockProviderArgs) -> anyhow::Result<ExitCode> {
    let addr: SocketAddr =
        args.listen.parse().map_err(|e| UsageError(format!("--listen {:?} is not an address such as 127.0.0.1:8080: {e}", args.listen)))?;
    if !addr.ip().is_loopback() {
        return Err(UsageError(format!(
            "--listen {addr}: only loopback addresses (127.0.0.1, [::1]) are allowed; the mock provider is for local tests"
        ))
        .into());
    }
    let scenario = load(&args.scenario).map_err(|e| UsageError(e.to_string()))?;
    let journal = match &args.journal {
        Some(path) => {
            // A journal over the scenario it serves would truncate the scenario.
            let mut inputs = crate::output::Inputs::default();
            inputs.file("the --scenario file", &args.scenario);
            let mut outputs = crate::output::Outputs::prepare(&[("--journal", path)], &inputs)?;
            let target = outputs.take("--journal").ok_or_else(|| UsageError("--journal was not prepared".into()))?;
            Journal::writing_to(target.into_file(false)?)
        }
        None => Journal::default(),
    };
    let rounds = scenario.llm.len();
    let server = ProviderServer::new(scenario.llm, &ProviderOptions { lenient: args.lenient }, journal);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        // Signal handlers first: a SIGTERM right after the URL is printed
        // must stop the server cleanly, not kill it by default action.
        let mut interrupt = signal(SignalKind::interrupt()).context("cannot install the SIGINT handler")?;
        let mut terminate = signal(SignalKind::terminate()).context("cannot install the SIGTERM handler")?;
        // Ctrl-\ stops it as Ctrl-C does, instead of dumping core.
        let mut quit = signal(SignalKind::quit()).context("cannot install the SIGQUIT handler")?;
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr().context("cannot read the bound address")?;
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "http://{local}/v1").and_then(|()| stdout.flush()).context("cannot print the base URL")?;
        drop(stdout);
        eprintln!(
            "proctor mock-provider: {rounds} scripted round(s) from {}; {} mode",
            args.scenario.display(),
            if args.lenient { "lenient" } else { "strict" }
        );
        let stdin_closed = watch_stdin();
        let stop = async move {
            let reason = tokio::select! {
                _ = interrupt.recv() => "SIGINT",
                _ = terminate.recv() => "SIGTERM",
                _ = quit.recv() => "SIGQUIT",
                () = stdin_closed => "stdin closed",
            };
            eprintln!("proctor mock-provider: stopping ({reason})");
        };
        server.clone().serve(listener, stop).await.context("the server failed")?;
        eprintln!("proctor mock-provider: answered {} request(s)", server.journal().len());
        Ok(ExitCode::SUCCESS)
    })
}

/// Completes when stdin, if it is a pipe or socket, reaches end of file;
/// never otherwise. The read runs on a plain thread, which does not keep the
/// process alive once the server has stopped.
fn watch_stdin() -> impl Future<Output = ()> + Send + 'static {
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    if stdin_is_pipe() {
        std::thread::spawn(move || {
            let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
            let _ = tx.send(());
        });
    } else {
        drop(tx);
    }
    async move {
        if rx.await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

fn stdin_is_pipe() -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::FileTypeExt;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else { return false };
    std::fs::File::from(fd).metadata().is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_socket())
}
