//! Certification: run a family's probes against a plugin under each
//! profile and fold the outcomes into a [`Report`].

mod cases;
mod longlived;
mod observe;
mod oneshot;
mod recorder;
mod report;
pub mod semantics;
mod session;

use crate::protocol::{Family, Profile, Role, Transport};
use crate::transport::{Deadlines, PluginCommand, SpawnError};

pub use cases::{Case, CasesError, CasesFile, Expect};
pub use report::{CheckResult, Report, Summary, Verdict};

/// What to certify and how.
pub struct Options {
    /// The plugin.
    pub command: PluginCommand,
    /// Its protocol family.
    pub family: Family,
    /// The roles it claims (PicoClaw: its modes; PromptKit exec: exactly one).
    pub roles: Vec<Role>,
    /// Profiles to run, in order.
    pub profiles: Vec<Profile>,
    /// The author's cases.
    pub cases: Option<CasesFile>,
    /// Deadlines.
    pub deadlines: Deadlines,
    /// Called with a short description of each step (for progress display).
    pub progress: Box<dyn Fn(&str) + Send + Sync>,
}

/// Certification could not be carried out (as opposed to: the plugin failed).
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The plugin could not be started at all.
    #[error(transparent)]
    Spawn(SpawnError),
}

/// Runs every profile and returns the report.
pub async fn certify(opts: &Options) -> Result<Report, CertifyError> {
    let mut checks = Vec::new();
    for profile in &opts.profiles {
        let results = match opts.family.transport() {
            Transport::OneShot => oneshot::run(opts, *profile).await?,
            Transport::LongLivedJsonRpc => longlived::run(opts, *profile).await?,
        };
        checks.extend(results);
    }
    let role = match opts.roles.as_slice() {
        [] => None,
        roles => Some(roles.iter().map(|r| r.name()).collect::<Vec<_>>().join(",")),
    };
    Ok(Report::new(
        opts.family.name().to_string(),
        role,
        opts.profiles.iter().map(|p| p.name().to_string()).collect(),
        opts.command.argv.clone(),
        checks,
    ))
}
