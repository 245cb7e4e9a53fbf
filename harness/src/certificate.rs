//! Certificates: a certification's outcome tied to the exact bytes that
//! were certified.
//!
//! A plugin author certifies once, then ships. The certificate records every
//! check's outcome and the SHA-256 of the plugin's executable, of every file
//! named on its command line (the script), of the files that shaped the
//! judgment (cases, schema, baseline) and of any the author adds (`--covers`),
//! so `proctor certificate check` can tell, later and elsewhere, whether the
//! certificate is still about the plugin that is there now. A badge (a
//! shields.io endpoint) says the verdict in one line.
//!
//! A certificate is consistent by construction: its verdicts must be the ones
//! its outcomes give, it must hold outcomes under every profile it names, and a
//! digest over its content shows an edit. The digest is not a signature (anyone
//! can compute one); `certificate check --rerun` certifies again to be sure.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use proctor_conformance::certify::{Report, Verdict};
use proctor_conformance::check::Status;
use proctor_conformance::transport::PluginCommand;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The certificate file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// A field the digest does not know would sit outside it: refused.
#[serde(deny_unknown_fields)]
pub struct Certificate {
    /// proctor's version.
    pub proctor_version: String,
    /// `--protocol`.
    pub protocol: String,
    /// `--role`, when given or implied.
    pub role: Option<String>,
    /// Profiles run.
    pub profiles: Vec<String>,
    /// The overall verdict.
    pub verdict: Verdict,
    /// The verdict per profile.
    pub profile_verdicts: BTreeMap<String, Verdict>,
    /// The plugin's argv, as given.
    pub command: Vec<String>,
    /// The directory the command ran from (relative paths resolve here).
    pub cwd: PathBuf,
    /// Every check's outcome.
    pub checks: Vec<CheckOutcome>,
    /// The hashed files.
    pub files: Vec<HashedFile>,
    /// Baseline entries that no longer applied (they failed the run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stale_baseline: Vec<String>,
    /// The `proctor certify` arguments that produced it, to be run again by
    /// `certificate check --rerun` (from `cwd`).
    pub invocation: Vec<String>,
    /// `sha256:` and the SHA-256 of the certificate's compact JSON with this field empty.
    pub digest: String,
}

/// One check's outcome under one profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// A field the digest does not know would sit outside it: refused.
#[serde(deny_unknown_fields)]
pub struct CheckOutcome {
    /// Check id.
    pub id: String,
    /// Profile.
    pub profile: String,
    /// `pass`, `fail`, `warn` or `skip`.
    pub status: String,
    /// The `--cases` case, for CASE-DECISION rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
}

impl CheckOutcome {
    /// Every check's outcome in `report`, as a certificate records them.
    pub fn all(report: &Report) -> Vec<CheckOutcome> {
        let outcome = |c: &proctor_conformance::certify::CheckResult| CheckOutcome {
            id: c.id.to_string(),
            profile: c.profile.clone(),
            status: c.status.name().to_string(),
            case: c.case.clone(),
        };
        report.checks.iter().map(outcome).collect()
    }
}

/// A file whose bytes the certificate is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// A field the digest does not know would sit outside it: refused.
#[serde(deny_unknown_fields)]
pub struct HashedFile {
    /// The path as resolved when certifying (absolute).
    pub path: PathBuf,
    /// `executable` (argv[0], found on PATH), `argument` (a file named on the
    /// command line), `cases`, `schema`, `baseline`, or `covered` (`--covers`).
    pub role: String,
    /// Lowercase hex SHA-256 of the contents.
    pub sha256: String,
}

/// What `proctor certificate check` found.
#[derive(Debug, Clone, PartialEq)]
pub enum Staleness {
    /// Every hashed file has the certified bytes.
    Current {
        /// How many files were compared.
        files: usize,
    },
    /// Some file changed or is gone.
    Stale {
        /// One line per changed file.
        changes: Vec<String>,
    },
}

/// A certificate could not be written, read or used.
#[derive(Debug, thiserror::Error)]
pub enum CertificateError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file could not be read (missing, a folder or a device, too large, not UTF-8).
    #[error("{0}\nhint: give the certificate `proctor certify --certificate FILE` wrote")]
    Input(proctor_input::InputError),
    /// A file or folder given to `--covers` could not be read.
    #[error("--covers {0}")]
    Covered(proctor_input::InputError),
    /// The file is not a certificate.
    #[error("{path}: not a proctor certificate ({problem})\nhint: write one with `proctor certify --certificate FILE …`")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl Certificate {
    /// The certificate of `report`, hashing the plugin's files as they are now,
    /// and `inputs` (each with its role; a folder stands for every file under it).
    pub fn of(report: &Report, cwd: &Path, invocation: Vec<String>, inputs: &[(&str, PathBuf)]) -> Result<Certificate, CertificateError> {
        let files = Certificate::files_of(&report.command, cwd, inputs)?
            .into_iter()
            .map(|(path, role)| Ok(HashedFile { sha256: sha256_of(&path)?, path, role }))
            .collect::<Result<Vec<_>, CertificateError>>()?;
        let mut certificate = Certificate {
            proctor_version: report.proctor_version.to_string(),
            protocol: report.protocol.clone(),
            role: report.role.clone(),
            profiles: report.profiles.clone(),
            verdict: report.verdict,
            profile_verdicts: report.profile_verdicts.iter().cloned().collect(),
            command: report.command.clone(),
            cwd: cwd.to_path_buf(),
            checks: CheckOutcome::all(report),
            files,
            stale_baseline: report.stale_baseline.clone(),
            invocation,
            digest: String::new(),
        };
        certificate.digest = certificate.computed_digest();
        Ok(certificate)
    }

    /// The files a certificate of `command`, run from `cwd`, is about, each
    /// with its role, not yet hashed: the program, the files on the command
    /// line, and `inputs` (a folder stands for every file under it). Known
    /// before the run, so a path a certificate cannot hold is refused then.
    pub fn files_of(command: &[String], cwd: &Path, inputs: &[(&str, PathBuf)]) -> Result<Vec<(PathBuf, String)>, CertificateError> {
        let mut files: Vec<(PathBuf, String)> = Vec::new();
        let mut add = |path: PathBuf, role: &str| {
            if !files.iter().any(|(f, _)| *f == path) {
                files.push((path, role.into()));
            }
        };
        let program = PluginCommand::new(command.to_vec()).map(|c| PluginCommand { cwd: Some(cwd.to_path_buf()), ..c });
        if let Some(program) = program.and_then(|c| c.resolve_program()) {
            add(program, "executable");
        }
        for arg in command.iter().skip(1) {
            let path = cwd.join(arg);
            if path.is_file() {
                add(path, "argument");
            }
        }
        for (role, path) in inputs {
            for file in proctor_input::files_under(&cwd.join(path), |_| true, MAX_COVERED_FILES).map_err(CertificateError::Covered)? {
                add(file, role);
            }
        }
        Ok(files)
    }

    /// The digest of everything but the digest itself.
    fn computed_digest(&self) -> String {
        let unsigned = Certificate { digest: String::new(), ..self.clone() };
        let bytes = serde_json::to_vec(&unsigned).unwrap_or_default();
        format!("sha256:{}", hex(&Sha256::digest(&bytes)))
    }

    /// Why this is not a certificate proctor could have written, if it is not:
    /// no outcome, an outcome under no profile, a verdict its outcomes do not
    /// give, or content that changed after the digest was taken.
    fn inconsistency(&self) -> Option<String> {
        if self.checks.is_empty() {
            return Some("it holds no check outcome, so it certifies nothing".into());
        }
        let statuses = Status::ALL.map(Status::name);
        if let Some(c) = self.checks.iter().find(|c| !statuses.contains(&c.status.as_str())) {
            return Some(format!("{} under {} has the status {:?}; a status is one of {}", c.id, c.profile, c.status, statuses.join(", ")));
        }
        if let Some(c) = self.checks.iter().find(|c| !self.profiles.contains(&c.profile)) {
            return Some(format!("{} has an outcome under {}, a profile it does not list", c.id, c.profile));
        }
        for profile in &self.profiles {
            let outcomes: Vec<&CheckOutcome> = self.checks.iter().filter(|c| &c.profile == profile).collect();
            if outcomes.iter().all(|c| c.status == Status::Skip.name()) {
                return Some(format!("no check ran under {profile}, so it certifies nothing there"));
            }
            // A `must` check that could not be judged fails the run as a failure does.
            let must =
                |id: &str| proctor_conformance::check::lookup(id).is_some_and(|d| d.level == proctor_conformance::check::Level::Must);
            let blocking = |c: &&CheckOutcome| c.status == Status::Fail.name() || (c.status == Status::Untestable.name() && must(&c.id));
            let derived = Verdict::of(outcomes.iter().any(blocking));
            if self.profile_verdicts.get(profile) != Some(&derived) {
                return Some(format!("its verdict under {profile} is not {}, the verdict its outcomes give", derived.name()));
            }
        }
        if self.profile_verdicts.len() != self.profiles.len() {
            return Some("it gives verdicts for profiles it does not list".into());
        }
        let derived = Verdict::of(self.profile_verdicts.values().any(|v| *v == Verdict::Nonconformant) || !self.stale_baseline.is_empty());
        if self.verdict != derived {
            return Some(format!("its verdict is not {}, the verdict its outcomes give", derived.name()));
        }
        if self.digest != self.computed_digest() {
            return Some("its content does not match its digest: it was edited after proctor wrote it".into());
        }
        // Resealed after an edit: proctor hashes as `argument` exactly the files the command names.
        if let Some(f) =
            self.files.iter().find(|f| f.role == "argument" && !self.command.iter().skip(1).any(|a| self.cwd.join(a) == f.path))
        {
            return Some(format!("it hashes {} as a file of the command, which its command does not name", f.path.display()));
        }
        None
    }

    /// Reads a certificate file.
    pub fn load(path: &Path) -> Result<Certificate, CertificateError> {
        // A certificate is a few KiB; a device or a FIFO named as one must not be read forever.
        let text = proctor_input::read_to_string(path, MAX_CERTIFICATE_BYTES).map_err(CertificateError::Input)?;
        if text.trim().is_empty() {
            return Err(CertificateError::Invalid { path: path.to_path_buf(), problem: "the file is empty".into() });
        }
        let cert: Certificate =
            serde_json::from_str(&text).map_err(|e| CertificateError::Invalid { path: path.to_path_buf(), problem: e.to_string() })?;
        // A digest that is not one cannot have "changed": the file is broken, not the plugin.
        if let Some(f) = cert.files.iter().find(|f| f.sha256.len() != 64 || !f.sha256.bytes().all(|b| b.is_ascii_hexdigit())) {
            let problem = format!("the sha256 of {} is {:?}, not 64 hex digits", f.path.display(), f.sha256);
            return Err(CertificateError::Invalid { path: path.to_path_buf(), problem });
        }
        match cert.inconsistency() {
            Some(problem) => Err(CertificateError::Invalid { path: path.to_path_buf(), problem }),
            None => Ok(cert),
        }
    }

    /// What the certificate covers, and what it cannot see, in lines for people.
    pub fn coverage(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "covers {} file(s): {}",
            self.files.len(),
            self.files.iter().map(|f| format!("{} ({})", f.path.display(), f.role)).collect::<Vec<_>>().join(", ")
        )];
        if let Some(at) = self.command.iter().position(|a| a == "-m") {
            let module = self.command.get(at + 1).map_or("", String::as_str);
            lines.push(format!("`-m {module}` runs a module the certificate does not cover: add its folder with --covers"));
        }
        lines.push("files these load (imports, a wrapper's own arguments) are not covered: add them with --covers PATH".into());
        lines
    }

    /// Whether its command runs code written in the certificate itself
    /// (`sh -c …`): no hashed file holds that code, so nothing vouches for it.
    pub fn inline_code(command: &[String]) -> Option<String> {
        let cmd = PluginCommand::new(command.to_vec())?;
        cmd.inline_code_option().map(|option| {
            format!("its command runs code written on the command line (`{} {option} …`), which no hashed file holds", cmd.program())
        })
    }

    /// What the command would run now, from `cwd`, that the certificate does
    /// not hash: the program as `PATH` finds it today, and every file the
    /// command line names. A certificate proctor wrote hashes both; one whose
    /// command was rewritten (digest and all) does not.
    fn unhashed(&self) -> Vec<String> {
        let hashed = |p: &Path| self.files.iter().any(|f| f.path == p);
        let mut out = Vec::new();
        let Some(command) = PluginCommand::new(self.command.clone()).map(|c| PluginCommand { cwd: Some(self.cwd.clone()), ..c }) else {
            return vec!["its command is empty".into()];
        };
        match command.resolve_program() {
            Some(program) if hashed(&program) => {}
            Some(program) => out.push(format!("the command's program is now {}, which was not certified", program.display())),
            None => out.push(format!("the command's program `{}` cannot be found from {}", command.program(), self.cwd.display())),
        }
        for arg in self.command.iter().skip(1) {
            let path = self.cwd.join(arg);
            if path.is_file() && !hashed(&path) {
                out.push(format!("{} is on the command line but was not certified", path.display()));
            }
        }
        out
    }

    /// Whether every hashed file still has the certified bytes, and the
    /// command runs nothing else.
    pub fn check(&self) -> Staleness {
        let mut changes = self.unhashed();
        for f in &self.files {
            match sha256_of(&f.path) {
                Ok(now) if now == f.sha256 => {}
                Ok(now) => {
                    changes.push(format!("{} ({}) changed: sha256 {} when certified, {} now", f.path.display(), f.role, f.sha256, now))
                }
                Err(e) => changes.push(format!("{} ({}) cannot be read: {e}", f.path.display(), f.role)),
            }
        }
        if changes.is_empty() { Staleness::Current { files: self.files.len() } } else { Staleness::Stale { changes } }
    }

    /// The shields.io endpoint JSON for a badge: "conformant · runok@0.3.1".
    pub fn badge(&self) -> serde_json::Value {
        let works: Vec<&str> = self
            .profiles
            .iter()
            .filter(|p| self.profile_verdicts.get(*p) == Some(&Verdict::Conformant) && p.as_str() != "documented")
            .map(String::as_str)
            .collect();
        // Green only because of a baseline is not a clean pass: its own words and colour.
        let accepted = self.checks.iter().filter(|c| c.status == "expected_failure").count();
        // A run that could have asked cases and asked none judged the protocol only.
        let cases_asked = |asked: bool| self.checks.iter().any(|c| c.id == "CASE-DECISION" && c.case.is_some() == asked);
        let protocol_only = cases_asked(false) && !cases_asked(true);
        let (message, color) = match (self.verdict, works.as_slice()) {
            (Verdict::Conformant, _) if accepted > 0 => {
                let shown = if works.is_empty() { self.profiles.join(" · ") } else { works.join(" · ") };
                (format!("conformant with {accepted} accepted failure{} · {shown}", if accepted == 1 { "" } else { "s" }), "yellowgreen")
            }
            (Verdict::Conformant, []) if protocol_only => (format!("protocol only · {}", self.profiles.join(" · ")), "green"),
            (Verdict::Conformant, runtimes) if protocol_only => (format!("protocol only · {}", runtimes.join(" · ")), "green"),
            (Verdict::Conformant, []) => (format!("conformant · {}", self.profiles.join(" · ")), "brightgreen"),
            (Verdict::Conformant, runtimes) => (format!("conformant · {}", runtimes.join(" · ")), "brightgreen"),
            (Verdict::Nonconformant, []) => ("nonconformant".to_string(), "red"),
            (Verdict::Nonconformant, some) => (format!("works with {}", some.join(" · ")), "yellow"),
        };
        serde_json::json!({"schemaVersion": 1, "label": format!("proctor {}", self.protocol), "message": message, "color": color})
    }
}

/// The most files a folder given to `--covers` may hold.
const MAX_COVERED_FILES: usize = 10_000;

/// The largest file a certificate hashes (1 GiB). A signal stops the hashing
/// at any size (`interrupt` runs on its own thread); this bound keeps a huge
/// file from being read for minutes when nobody interrupts.
const MAX_HASHED_BYTES: u64 = 1 << 30;

/// The most a certificate file may hold (one lists a check result per line of a report).
const MAX_CERTIFICATE_BYTES: u64 = 16 * 1024 * 1024;

/// Lowercase hex SHA-256 of a file.
fn sha256_of(path: &Path) -> Result<String, CertificateError> {
    let io = |source| CertificateError::Io { path: path.to_path_buf(), source };
    // Only a regular file has bytes to certify: /dev/zero would be read forever, and opening a
    // FIFO nobody writes would never return, so the kind is asked before the file is opened.
    let metadata = std::fs::metadata(path).map_err(io)?;
    if !metadata.is_file() {
        let not_file =
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file (a device, pipe or FIFO has no fixed bytes to hash)");
        return Err(io(not_file));
    }
    // An 8 GB (sparse) file was hashed to its end; no plugin, script or input of one is
    // that large, and a certified file never is, so a larger one now has changed.
    let too_large = |size: u64| {
        io(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            format!(
                "{size} bytes, more than the {} MiB proctor hashes; a plugin, its script and the inputs a certificate covers are smaller: leave this file out of --covers",
                MAX_HASHED_BYTES >> 20
            ),
        ))
    };
    if metadata.len() > MAX_HASHED_BYTES {
        return Err(too_large(metadata.len()));
    }
    // Bounded again while reading: the file may grow after its size was asked.
    let mut file = std::fs::File::open(path).map_err(io)?.take(MAX_HASHED_BYTES + 1);
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut read = 0u64;
    loop {
        let n = file.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        read += n as u64;
        hasher.update(&buf[..n]);
    }
    if read > MAX_HASHED_BYTES {
        return Err(too_large(read));
    }
    Ok(hex(&hasher.finalize()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_never_read_to_its_end() {
        let err = sha256_of(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let err = Certificate::load(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("/dev/zero: is a device, not a file"), "{err}");
    }

    #[test]
    fn a_file_over_the_bound_is_refused_before_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("huge");
        // Sparse: no disk is used, but reading it would take gigabytes.
        std::fs::File::create(&f).unwrap().set_len(8 << 30).unwrap();
        let err = sha256_of(&f).unwrap_err().to_string();
        assert!(err.contains("huge: 8589934592 bytes, more than the 1024 MiB proctor hashes"), "{err}");
    }

    #[test]
    fn sha256_is_the_standard_one() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("abc");
        std::fs::write(&f, "abc").unwrap();
        assert_eq!(sha256_of(&f).unwrap(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
