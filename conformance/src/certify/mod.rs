//! Certification: run a family's probes against a plugin under each
//! profile and fold the outcomes into a [`Report`].

pub mod capability;
mod cases;
mod command_hook;
pub mod fuzz;
mod go_envelope;
mod lifetime;
mod longlived;
mod observe;
mod oneshot;
mod parting;
mod prefetch;
mod recorder;
mod report;
pub mod semantics;
mod session;
mod world;

use crate::protocol::timing::Timing;
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
    /// `--timeout-ms`: the request deadline the user's runtime configuration
    /// sets, in place of each runtime's default (`None`: each profile's own,
    /// [`crate::protocol::timing`]).
    pub timeout: Option<std::time::Duration>,
    /// `--require`: capabilities the plugin must be seen using (their
    /// checks fail, rather than skip, when no answer used them).
    pub require: Vec<&'static capability::Capability>,
    /// `--fuzz`: generated tool arguments (the fuzz check is skipped without it).
    pub fuzz: Option<fuzz::Fuzz>,
    /// Checks the selection leaves out (`--check`, `--skip-check`): the probes that exist only for
    /// them are not sent (a selected-out check would be dropped from the report anyway).
    pub left_out: Vec<crate::check::CheckId>,
    /// How many one-shot plugin processes may run at once (`--jobs`; 1: one
    /// after another). The report is the same whatever the number.
    pub jobs: usize,
    /// Called with a short description of each step (for progress display).
    pub progress: Box<dyn Fn(&str) + Send + Sync>,
}

impl Options {
    /// The role whose deadlines hold when a call is not one role's own: the
    /// only role, or for a PicoClaw hook an interceptor's (an unknown method,
    /// a burst of calls).
    fn timed_role(&self) -> Role {
        match self.family {
            Family::PicoclawHook => Role::ToolMode,
            _ => self.roles.first().copied().unwrap_or(Role::Tool),
        }
    }

    /// What `profile`'s runtime waits for, and how long, for this plugin.
    pub fn timing(&self, profile: Profile) -> Timing {
        profile.timing(self.family, self.timed_role())
    }

    /// The deadlines proctor plays `profile`'s runtime with.
    pub fn deadlines(&self, profile: Profile) -> Deadlines {
        self.timing(profile).deadlines(self.timeout)
    }

    /// The request deadline of a call made for `role` under `profile` (a PicoClaw mode's own).
    pub fn request_deadline(&self, profile: Profile, role: Role) -> std::time::Duration {
        profile.timing(self.family, role).deadlines(self.timeout).request
    }

    /// The plugin's command as `profile`'s runtime starts it: with only the
    /// listed environment where that runtime gives no more.
    pub fn command_for(&self, profile: Profile) -> PluginCommand {
        let mut command = self.command.clone();
        let role = self.roles.first().copied().unwrap_or(Role::Tool);
        command.env_clear = !command.env.is_empty() && profile.env_only_listed(self.family, role);
        command
    }
}

/// Certification could not be carried out (as opposed to: the plugin failed).
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    /// The plugin could not be started at all.
    #[error(transparent)]
    Spawn(SpawnError),
    /// The plugin's interpreter refused to start it (a module or script it
    /// cannot find): the command's mistake, judged nothing (see
    /// [`crate::transport::interpreter_refusal`] for where the line is).
    #[error("{0}")]
    Refused(String),
    /// The options cannot be certified as given (an agent hook with no event to play).
    #[error("{0}")]
    Options(String),
    /// The world the agent gives its hooks could not be built (no temporary folder).
    #[error(transparent)]
    World(#[from] world::WorldError),
}

/// Runs every profile and returns the report.
pub async fn certify(opts: &Options) -> Result<Report, CertifyError> {
    let mut checks = Vec::new();
    let mut exchanges = 0;
    for profile in &opts.profiles {
        let judged = match opts.family.transport() {
            Transport::OneShot => oneshot::run(opts, *profile).await?,
            Transport::LongLivedJsonRpc => longlived::run(opts, *profile).await?,
            Transport::CommandHook => command_hook::run(opts, *profile).await?,
        };
        let mut results = judged.checks;
        exchanges += judged.exchanges;
        exchanges += with_fuzz(opts, *profile, &mut results).await?;
        checks.extend(results);
    }
    // runok extensions have one implicit role, which no flag names.
    let role = match opts.roles.as_slice() {
        [] => None,
        _ if opts.family == Family::RunokExtension => None,
        roles => Some(roles.iter().map(|r| r.name()).collect::<Vec<_>>().join(",")),
    };
    let mut report = Report::new(
        opts.family.name().to_string(),
        role,
        opts.profiles.iter().map(|p| p.name().to_string()).collect(),
        opts.command.argv.clone(),
        checks,
    )
    .with_exchanges(exchanges);
    // A passing check's message is not printed in text: the cap must still be on record.
    let generated = opts.fuzz.as_ref().and_then(|f| fuzz::schema::generator(&f.tool.parameters).ok());
    report.notes.extend(generated.and_then(|g| fuzz::capped_note(&g.capped)));
    Ok(report)
}

/// Folds a result obtained from fuzz answers into the probes' results: a
/// failure replaces a pass or a skip, a pass replaces a skip (the fuzz
/// inputs exercised what the probes did not).
fn merge(results: &mut [CheckResult], judged: CheckResult) {
    use crate::check::Status;
    let Some(slot) = results.iter_mut().find(|r| r.id == judged.id && r.case.is_none()) else { return };
    let replace =
        matches!((slot.status, judged.status), (Status::Pass | Status::Skip, Status::Fail | Status::Warn) | (Status::Skip, Status::Pass));
    if replace {
        *slot = judged;
    }
}

/// Replaces the probes' placeholder for the fuzz check (they never decide
/// it) with the fuzz run's result, or a skip without `--fuzz`. The fuzz run
/// is separate from the probes so a protocol failure they found cannot stop
/// it, and it runs per profile because the wire shape (Go's `\u003c`
/// escaping, field order) is part of what is fuzzed. Returns how many fuzz
/// exchanges were judged.
async fn with_fuzz(opts: &Options, profile: Profile, results: &mut Vec<CheckResult>) -> Result<usize, CertifyError> {
    let applies = crate::check::lookup(fuzz::CHECK).is_some_and(|def| def.applies(opts.family, &opts.roles));
    if !applies {
        return Ok(0);
    }
    results.retain(|r| r.id != fuzz::CHECK);
    let (result, exchanges) = match &opts.fuzz {
        Some(f) => {
            let mut semantics = recorder::Recorder::new(opts.family, &opts.roles, profile, &[]);
            let run = fuzz::run(opts, f, profile, &mut semantics).await?;
            for judged in semantics.into_decided() {
                merge(results, judged);
            }
            run
        }
        None => (fuzz::skipped(profile), 0),
    };
    results.extend(result);
    let order = |id: &str| crate::check::CATALOGUE.iter().position(|c| c.id == id).unwrap_or(usize::MAX);
    results.sort_by_key(|r| order(r.id));
    Ok(exchanges)
}
