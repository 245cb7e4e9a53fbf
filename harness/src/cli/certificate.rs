//! `proctor certificate check FILE`: is a certificate still about the same bytes?

use std::path::PathBuf;
use std::process::ExitCode;

use super::UsageError;
use crate::certificate::{Certificate, Staleness};

/// What to do with a certificate.
#[derive(Debug, clap::Subcommand)]
pub(super) enum CertificateCommand {
    /// Re-hash every file a certificate names; exit 1 when one changed.
    ///
    /// A certificate (`proctor certify --certificate FILE`) holds the SHA-256
    /// of the plugin's executable and of every file named on its command
    /// line. Exit 0 when all still match, 1 when any changed or is gone
    /// (each is named), 2 when FILE is not a certificate.
    Check {
        /// The certificate.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
}

pub(super) fn run(command: CertificateCommand) -> anyhow::Result<ExitCode> {
    let CertificateCommand::Check { file } = command;
    let certificate = Certificate::load(&file).map_err(|e| UsageError(e.to_string()))?;
    if certificate.files.is_empty() {
        return Err(UsageError(format!("{}: names no file, so there is nothing to compare", file.display())).into());
    }
    match certificate.check() {
        Staleness::Current { files } => {
            let verdict = serde_json::to_value(certificate.verdict)?;
            crate::output::emit(&format!(
                "certificate current: {files} file(s) unchanged since proctor {} certified `{}` ({})\n",
                certificate.proctor_version,
                certificate.command.join(" "),
                verdict.as_str().unwrap_or_default()
            ));
            Ok(ExitCode::SUCCESS)
        }
        Staleness::Stale { changes } => {
            let lines: String = changes.iter().map(|c| format!("  {c}\n")).collect();
            crate::output::emit(&format!("certificate stale: the certified bytes changed; certify again\n{lines}"));
            Ok(ExitCode::from(1))
        }
    }
}
