//! The toolchains that build `proctor init`'s Go and TypeScript templates in
//! tests: `go`; and node, npm and the tsc that the templates' package.json
//! pins, from `.ci/tsc` (where `.ci/run` installs it) or else PATH. A missing
//! one skips its tests loudly, or fails them under `PROCTOR_REQUIRE_GO=1` or
//! `PROCTOR_REQUIRE_TSC=1`, which `.ci/run` sets: there, a template that
//! cannot be built is a broken CI, not a pass.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use proctor::templates::{self, Lang};
use proctor_conformance::protocol::{Family, Role};

/// The folder of the tsc `.ci/run` installs.
fn ci_tsc() -> PathBuf {
    crate::common::repo_root().join(".ci/tsc/node_modules/.bin")
}

/// PATH for the builds: `.ci/tsc`'s tsc before any other.
fn path() -> OsString {
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(ci_tsc()).chain(std::env::split_paths(&rest))).expect("PATH joins")
}

/// A command run from `dir` with the builds' environment: PATH as above, and
/// the Go toolchain on this machine (never one downloaded for a go.mod).
fn command(argv: &[String], dir: &Path) -> Command {
    let mut command = Command::new(&argv[0]);
    command.args(&argv[1..]).current_dir(dir).env("PATH", path()).env("GOTOOLCHAIN", "local");
    command
}

/// The typescript version the templates' package.json pins.
fn pinned_tsc() -> String {
    let template = templates::find(Family::RunokExtension, Role::Guard, Lang::Ts).expect("a TypeScript template");
    let package = template.rendered().support().iter().find(|f| f.name == "package.json").expect("package.json").contents;
    let package: serde_json::Value = serde_json::from_str(package).expect("package.json is JSON");
    package["devDependencies"]["typescript"].as_str().expect("typescript is pinned").to_string()
}

/// What is missing to build `lang`'s templates, if anything.
fn missing(lang: Lang) -> Option<String> {
    let output = |argv: &[&str]| {
        let argv: Vec<String> = argv.iter().map(|a| a.to_string()).collect();
        match command(&argv, Path::new(".")).output() {
            Ok(out) if out.status.success() => Ok(String::from_utf8_lossy(&out.stdout).trim().to_string()),
            Ok(out) => Err(format!("`{}` exited {}", argv.join(" "), out.status)),
            Err(e) => Err(format!("`{}` cannot run: {e}", argv.join(" "))),
        }
    };
    match lang {
        Lang::Go => output(&["go", "version"]).err(),
        Lang::Ts => {
            let pinned = pinned_tsc();
            let found = output(&["node", "--version"]).and(output(&["npm", "--version"])).and(output(&["tsc", "--version"]));
            match found {
                Ok(version) if version == format!("Version {pinned}") => None,
                Ok(version) => Some(format!("tsc says `{version}`, not the {pinned} the templates' package.json pins")),
                Err(e) => Some(format!(
                    "{e} (npm install --prefix .ci/tsc typescript@{pinned}, as .ci/run does, puts tsc in {})",
                    ci_tsc().display()
                )),
            }
        }
        Lang::Python | Lang::Sh => None,
    }
}

/// Whether `lang`'s templates can be built here; when they cannot, says so
/// loudly, or fails when the toolchain is required.
pub fn ready(lang: Lang, test: &str) -> bool {
    let Some(problem) = missing(lang) else { return true };
    let var = if lang == Lang::Go { "PROCTOR_REQUIRE_GO" } else { "PROCTOR_REQUIRE_TSC" };
    assert!(std::env::var(var).map_or(true, |v| v != "1"), "{test}: {var}=1 but {problem}");
    eprintln!("\n!!!!!!!! SKIPPED {test}: {problem}; the {} templates were NOT built or certified !!!!!!!!\n", lang.name());
    false
}

/// Runs the build commands `proctor init` printed, from `dir`. `npm install` is
/// left out: it would fetch the pinned typescript, and the tsc found by
/// [`ready`] is that same version already.
pub fn build(dir: &Path, commands: &[Vec<String>]) -> Result<(), String> {
    for argv in commands.iter().filter(|argv| *argv != &["npm", "install"]) {
        let out = command(argv, dir).output().map_err(|e| format!("`{}` cannot run: {e}", argv.join(" ")))?;
        if !out.status.success() {
            return Err(format!(
                "`{}` exited {}:\n{}{}",
                argv.join(" "),
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    Ok(())
}
