//! Certificates: a certification's outcome tied to the exact bytes that
//! were certified.
//!
//! A plugin author certifies once, then ships. The certificate records every
//! check's outcome and the SHA-256 of the plugin's executable and of every
//! file named on its command line (the script), so `proctor certificate
//! check` can tell, later and elsewhere, whether the certificate is still
//! about the plugin that is there now. A badge (a shields.io endpoint) says
//! the verdict in one line.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use proctor_conformance::certify::{Report, Verdict};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The certificate file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
}

/// One check's outcome under one profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// A file whose bytes the certificate is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HashedFile {
    /// The path as resolved when certifying (absolute).
    pub path: PathBuf,
    /// `executable` (argv[0], found on PATH) or `argument` (a file named on the command line).
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
    /// The certificate of `report`, hashing the plugin's files as they are now.
    pub fn of(report: &Report, cwd: &Path) -> Result<Certificate, CertificateError> {
        let mut files = Vec::new();
        if let Some(program) = report.command.first().and_then(|p| resolve_program(p, cwd)) {
            files.push(HashedFile { sha256: sha256_of(&program)?, path: program, role: "executable".into() });
        }
        for arg in report.command.iter().skip(1) {
            let path = cwd.join(arg);
            if path.is_file() && !files.iter().any(|f| f.path == path) {
                files.push(HashedFile { sha256: sha256_of(&path)?, path, role: "argument".into() });
            }
        }
        Ok(Certificate {
            proctor_version: report.proctor_version.to_string(),
            protocol: report.protocol.clone(),
            role: report.role.clone(),
            profiles: report.profiles.clone(),
            verdict: report.verdict,
            profile_verdicts: report.profile_verdicts.iter().cloned().collect(),
            command: report.command.clone(),
            cwd: cwd.to_path_buf(),
            checks: report
                .checks
                .iter()
                .map(|c| CheckOutcome {
                    id: c.id.to_string(),
                    profile: c.profile.clone(),
                    status: serde_json::to_value(c.status).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default(),
                    case: c.case.clone(),
                })
                .collect(),
            files,
        })
    }

    /// Reads a certificate file.
    pub fn load(path: &Path) -> Result<Certificate, CertificateError> {
        let io = |source| CertificateError::Io { path: path.to_path_buf(), source };
        let mut text = String::new();
        // A certificate is a few KiB; a device or a pipe named as one must not be read forever.
        std::fs::File::open(path).and_then(|f| f.take(MAX_CERTIFICATE_BYTES + 1).read_to_string(&mut text)).map_err(io)?;
        if text.len() as u64 > MAX_CERTIFICATE_BYTES {
            let problem = format!("more than {MAX_CERTIFICATE_BYTES} bytes");
            return Err(CertificateError::Invalid { path: path.to_path_buf(), problem });
        }
        let cert: Certificate =
            serde_json::from_str(&text).map_err(|e| CertificateError::Invalid { path: path.to_path_buf(), problem: e.to_string() })?;
        // A digest that is not one cannot have "changed": the file is broken, not the plugin.
        if let Some(f) = cert.files.iter().find(|f| f.sha256.len() != 64 || !f.sha256.bytes().all(|b| b.is_ascii_hexdigit())) {
            let problem = format!("the sha256 of {} is {:?}, not 64 hex digits", f.path.display(), f.sha256);
            return Err(CertificateError::Invalid { path: path.to_path_buf(), problem });
        }
        Ok(cert)
    }

    /// Whether every hashed file still has the certified bytes.
    pub fn check(&self) -> Staleness {
        let mut changes = Vec::new();
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
        let (message, color) = match (self.verdict, works.as_slice()) {
            (Verdict::Conformant, []) => (format!("conformant · {}", self.profiles.join(" · ")), "brightgreen"),
            (Verdict::Conformant, runtimes) => (format!("conformant · {}", runtimes.join(" · ")), "brightgreen"),
            (Verdict::Nonconformant, []) => ("nonconformant".to_string(), "red"),
            (Verdict::Nonconformant, some) => (format!("works with {}", some.join(" · ")), "yellow"),
        };
        serde_json::json!({"schemaVersion": 1, "label": format!("proctor {}", self.protocol), "message": message, "color": color})
    }
}

/// argv[0] as the OS will find it: a path (relative to `cwd`) or a PATH lookup.
fn resolve_program(program: &str, cwd: &Path) -> Option<PathBuf> {
    if program.contains('/') {
        let path = cwd.join(program);
        return path.is_file().then_some(path);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| p.is_file())
}

/// The most a certificate file may hold (one lists a check result per line of a report).
const MAX_CERTIFICATE_BYTES: u64 = 16 * 1024 * 1024;

/// Lowercase hex SHA-256 of a file.
fn sha256_of(path: &Path) -> Result<String, CertificateError> {
    let io = |source| CertificateError::Io { path: path.to_path_buf(), source };
    let mut file = std::fs::File::open(path).map_err(io)?;
    // Only a regular file has bytes to certify: /dev/zero or a FIFO would be read forever.
    if !file.metadata().map_err(io)?.is_file() {
        let not_file =
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file (a device, pipe or FIFO has no fixed bytes to hash)");
        return Err(io(not_file));
    }
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = file.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_device_is_never_read_to_its_end() {
        let err = sha256_of(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
        let err = Certificate::load(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("more than 16777216 bytes"), "{err}");
    }

    #[test]
    fn sha256_is_the_standard_one() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("abc");
        std::fs::write(&f, "abc").unwrap();
        assert_eq!(sha256_of(&f).unwrap(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
