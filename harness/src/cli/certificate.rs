//! `proctor certificate check FILE [--rerun]`: is a certificate still about the
//! same bytes, and does certifying again still give its outcomes?

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;

use super::{Cli, Command, UsageError};
use crate::certificate::{Certificate, CheckOutcome, Staleness};

/// What to do with a certificate.
#[derive(Debug, clap::Subcommand)]
pub(super) enum CertificateCommand {
    /// Re-hash every file a certificate names; exit 1 when one changed.
    ///
    /// A certificate (`proctor certify --certificate FILE`) holds the SHA-256
    /// of the plugin's executable, of every file named on its command line, of
    /// the cases, schema and baseline it was judged with and of what --covers
    /// added. Exit 0 when all still match, 1 when any changed or is gone (each
    /// is named), 2 when FILE is not a certificate: one whose verdict its
    /// outcomes do not give, that holds no outcome, or whose content no longer
    /// matches its digest (it was edited).
    Check {
        /// The certificate.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Certify again, from the certificate's folder with its arguments, and
        /// compare every check's outcome: exit 1 when any differs. The digest
        /// shows an edit but is no signature; a rerun is proof.
        ///
        /// A rerun runs only what the certificate hashes: it is refused (exit
        /// 2) when a file changed, when the command's program or a file it
        /// names is not among the hashed files, when the command carries code
        /// of its own (`sh -c …`), when its arguments name another command,
        /// and when they set a variable that makes a program load other code
        /// (`LD_PRELOAD`, `PYTHONPATH`, `NODE_OPTIONS` …). What a program does
        /// with its other arguments no certificate can tell: rerun only
        /// certificates whose source you trust.
        #[arg(long)]
        rerun: bool,
    },
}

pub(super) fn run(command: CertificateCommand) -> anyhow::Result<ExitCode> {
    let CertificateCommand::Check { file, rerun } = command;
    let certificate = Certificate::load(&file).map_err(|e| UsageError(e.to_string()))?;
    if certificate.files.is_empty() {
        return Err(UsageError(format!("{}: names no file, so there is nothing to compare", file.display())).into());
    }
    let mut current = match certificate.check() {
        Staleness::Current { files } => {
            // The certificate's strings are the file's, whoever wrote it: escaped for the terminal.
            crate::output::emit(&crate::report::escape(&format!(
                "certificate current: {files} file(s) unchanged since proctor {} certified `{}` ({})\n",
                certificate.proctor_version,
                certificate.command.join(" "),
                certificate.verdict.name()
            )));
            true
        }
        Staleness::Stale { changes } => {
            let lines: String = changes.iter().map(|c| format!("  {c}\n")).collect();
            crate::output::emit(&crate::report::escape(&format!("certificate stale: the certified bytes changed; certify again\n{lines}")));
            false
        }
    };
    let inline = Certificate::inline_code(&certificate.command);
    if let Some(problem) = &inline {
        crate::output::emit(&crate::report::escape(&format!("note: {problem}: no hash vouches for it, and --rerun will not run it\n")));
    }
    if rerun {
        if let Some(problem) = inline {
            return Err(UsageError(format!(
                "{}: not certifying again: {problem}, and anyone can edit a certificate and recompute its digest\nhint: certify again by hand if you trust it: proctor certify {}",
                crate::report::escape_name(&file.display().to_string()),
                certificate.invocation.join(" ")
            ))
            .into());
        }
        if !current {
            return Err(UsageError(format!(
                "{}: not certifying again: the certificate no longer describes what its command would run (above)",
                crate::report::escape_name(&file.display().to_string())
            ))
            .into());
        }
        current &= certify_again(&file, &certificate)?;
    }
    Ok(if current { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Certifies again as the certificate says it was certified, and compares
/// each check's outcome. True when every one is the same.
fn certify_again(file: &Path, certificate: &Certificate) -> anyhow::Result<bool> {
    let argv = ["proctor", "certify", "--no-progress"].into_iter().map(String::from).chain(certificate.invocation.iter().cloned());
    let Command::Certify(args) = Cli::try_parse_from(argv)
        .map_err(|e| UsageError(format!("{}: its arguments cannot be run again ({})", file.display(), e.kind())))?
        .command
    else {
        return Err(UsageError(format!("{}: its arguments are not a certify invocation", file.display())).into());
    };
    if args.command != certificate.command {
        return Err(UsageError(format!("{}: its arguments run another command than the one it certifies", file.display())).into());
    }
    if let Some((name, _)) = args.env.iter().find(|(name, _)| loads_other_code(name)) {
        return Err(UsageError(format!(
            "{}: its arguments set {name}, which makes a program load code the certificate does not hash",
            file.display()
        ))
        .into());
    }
    std::env::set_current_dir(&certificate.cwd).map_err(|e| {
        UsageError(format!("{}: cannot certify again from {}, where it was certified: {e}", file.display(), certificate.cwd.display()))
    })?;
    // Only the outcomes are compared: the files were hashed by `check` already.
    let again = CheckOutcome::all(&super::certify::report_of(&args, false)?);
    let key = |c: &CheckOutcome| (c.id.clone(), c.profile.clone(), c.case.clone());
    let mut differences = Vec::new();
    for before in &certificate.checks {
        match again.iter().find(|a| key(a) == key(before)) {
            Some(now) if now.status == before.status => {}
            Some(now) => differences.push(format!(
                "{} under {}: {} when certified, {} now",
                label(before),
                before.profile,
                before.status,
                now.status
            )),
            None => differences.push(format!("{} under {}: {} when certified, not run now", label(before), before.profile, before.status)),
        }
    }
    for now in again.iter().filter(|a| !certificate.checks.iter().any(|b| key(b) == key(a))) {
        differences.push(format!("{} under {}: not in the certificate, {} now", label(now), now.profile, now.status));
    }
    if differences.is_empty() {
        crate::output::emit(&format!("certified again: all {} outcome(s) are the certificate's\n", certificate.checks.len()));
        return Ok(true);
    }
    let lines: String = differences.iter().map(|d| format!("  {d}\n")).collect();
    crate::output::emit(&crate::report::escape(&format!(
        "certified again: {} outcome(s) differ from the certificate\n{lines}",
        differences.len()
    )));
    Ok(false)
}

/// Whether the variable `name` makes the dynamic loader or an interpreter
/// run code from a file or text of its choosing.
fn loads_other_code(name: &str) -> bool {
    const PREFIXES: &[&str] = &["LD_", "DYLD_"];
    const NAMES: &[&str] = &[
        "PYTHONPATH",
        "PYTHONSTARTUP",
        "PYTHONHOME",
        "PYTHONINSPECT",
        "NODE_OPTIONS",
        "NODE_PATH",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "BASH_ENV",
        "ENV",
        "GCONV_PATH",
        "LUA_INIT",
        "PATH",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p)) || NAMES.contains(&name)
}

/// A check id, with its case when it has one.
fn label(c: &CheckOutcome) -> String {
    match &c.case {
        Some(case) => format!("{} [{case}]", c.id),
        None => c.id.clone(),
    }
}
