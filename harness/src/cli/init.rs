//! `proctor init`: start a plugin from a template. Writes the plugin, its
//! cases, a scenario and a CI workflow into a folder, never over an existing
//! file, then prints the commands that certify and run it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use proctor_conformance::protocol::{Family, Role};

use super::UsageError;
use crate::templates::{self, Lang, Rendered, Template};

#[derive(Debug, clap::Args)]
pub(super) struct InitArgs {
    /// Protocol family: promptkit-exec, promptkit-server, picoclaw-hook, runok-extension, claude-code-hook, codex-hook
    #[arg(long, value_name = "FAMILY")]
    protocol: Family,
    /// The plugin's role. promptkit-exec: tool, eval, provider-hook, tool-hook, session-hook,
    /// eval-hook or selector (required). picoclaw-hook: the modes, comma-separated, of observe,
    /// llm, tool, approve; without --role, one hook that serves every mode, as a PicoClaw hook
    /// usually does. claude-code-hook, codex-hook: PreToolUse (a command guard) or PostToolUse
    /// (an output scanner). The other families have one role.
    #[arg(long, value_name = "ROLE")]
    role: Option<String>,
    /// The plugin's language, each with the standard library only: python; go (a go.mod
    /// without requires; built once with `go build -o NAME .`, run as ./NAME); ts
    /// (TypeScript for Node: `npm install` fetches tsc, pinned in package.json,
    /// `npm run build` compiles NAME.ts to NAME.js, run as `node NAME.js`); or sh where the
    /// role can be written without a JSON parser (promptkit-exec session-hook and
    /// eval-hook, runok-extension). init prints the build commands, and the workflow runs them.
    #[arg(long, value_enum, default_value = "python")]
    lang: Lang,
    /// The folder to write into (created if missing): your plugin's repository, where the
    /// workflow goes under .github/workflows/.
    #[arg(long, value_name = "DIR", default_value = ".")]
    dir: PathBuf,
    /// The workflow's `uses:` for proctor's GitHub action: `./proctor` when proctor is a
    /// git submodule at ./proctor (checked out with `submodules: true`), or OWNER/REPO@REF.
    #[arg(long, value_name = "REF", default_value = "./proctor")]
    action: String,
}

pub(super) fn run(args: InitArgs) -> anyhow::Result<ExitCode> {
    let roles = roles_of(args.protocol, args.role.as_deref())?;
    let template = match roles.as_slice() {
        [role] => template_of(args.protocol, *role, args.lang)?.rendered(),
        modes => templates::picoclaw_modes(modes, args.lang).ok_or_else(|| {
            UsageError(format!(
                "there is no {} template for a PicoClaw hook serving several modes: answering them needs a JSON parser, which sh lacks\nhint: use --lang python, go or ts",
                args.lang.name()
            ))
        })?,
    };
    check_action(&args.action)?;
    if let Some(file) = args.dir.ancestors().find(|a| a.is_file()) {
        return Err(UsageError(format!(
            "--dir {}: {} is a file, not a folder\nhint: name a folder (it is created when missing)",
            args.dir.display(),
            file.display()
        ))
        .into());
    }
    let workflow = template.workflow(&args.action);
    let mut files: Vec<(PathBuf, &str)> = vec![(args.dir.join(&template.plugin.0), &template.plugin.1)];
    files.extend(template.support().iter().map(|f| (args.dir.join(f.name), f.contents)));
    files.extend(template.cases.iter().map(|(name, contents)| (args.dir.join(name), contents.as_str())));
    files.push((args.dir.join(&template.scenario.0), &template.scenario.1));
    files.push((args.dir.join(templates::WORKFLOW_PATH), &workflow));
    let existing: Vec<String> =
        files.iter().filter(|(p, _)| p.symlink_metadata().is_ok()).map(|(p, _)| format!("  {}", p.display())).collect();
    if !existing.is_empty() {
        return Err(UsageError(format!(
            "nothing written: {} already exist{}:\n{}\nhint: move {} away, or pick another folder with --dir",
            if existing.len() == 1 { "this file" } else { "these files" },
            if existing.len() == 1 { "s" } else { "" },
            existing.join("\n"),
            if existing.len() == 1 { "it" } else { "them" },
        ))
        .into());
    }
    write_all(&files)?;
    crate::output::emit(&next_steps(&template, &args.dir, &files, &args.action));
    Ok(ExitCode::SUCCESS)
}

/// The roles the plugin takes: `--role`, or the family's only one; for
/// PicoClaw, the modes listed (all of them without `--role`).
fn roles_of(family: Family, role: Option<&str>) -> Result<Vec<Role>, UsageError> {
    let names = || family.roles().iter().map(|r| r.name()).collect::<Vec<_>>().join(", ");
    if family == Family::PicoclawHook {
        let modes = match role {
            None => family.roles().to_vec(),
            Some(list) => Role::parse_list(family, list).map_err(|e| UsageError(e.to_string()))?,
        };
        if modes.is_empty() {
            return Err(UsageError(format!("--role names no mode\nhint: one or more of {}, comma-separated", names())));
        }
        return Ok(modes);
    }
    match role {
        Some(r) => Role::parse(family, r).map(|r| vec![r]).map_err(|e| UsageError(e.to_string())),
        None => match family.roles() {
            [only] => Ok(vec![*only]),
            roles => {
                let with: Vec<&str> = roles.iter().filter(|r| !templates::langs(family, **r).is_empty()).map(|r| r.name()).collect();
                let listed = if with.len() < roles.len() { with.join(", ") } else { names() };
                Err(UsageError(format!(
                    "{family} needs --role: one of {listed}\nhint: each role speaks differently, so each has its own template"
                )))
            }
        },
    }
}

/// The template for the choice, or why there is none in that language.
/// The roles of `family` that have a template in some language (an agent hook's events: two).
fn roles_with_templates(family: Family) -> Vec<&'static str> {
    family.roles().iter().filter(|r| !templates::langs(family, **r).is_empty()).map(|r| r.name()).collect()
}

fn template_of(family: Family, role: Role, lang: Lang) -> Result<&'static Template, UsageError> {
    templates::find(family, role, lang).ok_or_else(|| {
        if templates::langs(family, role).is_empty() {
            // An event (or role) with no template in any language: say which ones have one.
            return UsageError(format!(
                "there is no template for {family} {role}; the roles with one: {}\nhint: start from one of them; a hook reads every event the same way",
                roles_with_templates(family).join(", ")
            ));
        }
        let langs: Vec<&str> = templates::langs(family, role).iter().map(|l| l.name()).collect();
        let why = if lang == Lang::Sh { ": answering it well needs a JSON parser, which sh lacks (short of jq)" } else { " yet" };
        UsageError(format!(
            "there is no {} template for {family} {role}{why}; languages for it: {}\nhint: use --lang {}",
            lang.name(),
            langs.join(", "),
            langs.first().copied().unwrap_or("python")
        ))
    })
}

/// `--action` must be something GitHub's `uses:` can run: a local action or OWNER/REPO@REF.
fn check_action(action: &str) -> Result<(), UsageError> {
    let remote = action.split_once('@').is_some_and(|(repo, reference)| {
        let mut parts = repo.split('/');
        let owner_and_name = parts.next().is_some_and(|o| !o.is_empty()) && parts.next().is_some_and(|n| !n.is_empty());
        owner_and_name && !reference.is_empty()
    });
    let local = action.starts_with("./") && action.len() > 2;
    if (local || remote) && !action.chars().any(char::is_whitespace) {
        return Ok(());
    }
    Err(UsageError(format!(
        "--action `{action}` is not an action GitHub can use\nhint: ./proctor (proctor as a git submodule at ./proctor) or OWNER/REPO@REF (e.g. acme/proctor@v1)"
    )))
}

/// Writes every file, each created new (never over one that appeared since the check);
/// on a failure, removes the ones already written, so nothing is left half done.
fn write_all(files: &[(PathBuf, &str)]) -> anyhow::Result<()> {
    let mut written: Vec<&Path> = Vec::new();
    let mut result = Ok(());
    for (path, contents) in files {
        match create_new(path, contents) {
            Ok(()) => written.push(path),
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    if result.is_err() {
        for path in written {
            let _ = std::fs::remove_file(path);
        }
    }
    result
}

fn create_new(path: &Path, contents: &str) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create {} (nothing was written over)", path.display()))?;
    file.write_all(contents.as_bytes()).with_context(|| format!("cannot write {}", path.display()))
}

/// What was written, and the commands to run next, from the folder it was written in.
fn next_steps(template: &Rendered, dir: &Path, files: &[(PathBuf, &str)], action: &str) -> String {
    let mut out = String::from("wrote:\n");
    for (path, _) in files {
        // The folder is the user's to name, control characters and all: shown escaped, one line each.
        out.push_str(&format!("  {}\n", crate::report::escape_name(&path.display().to_string())));
    }
    let lang_note = match template.lang {
        Lang::Python => "Python 3, standard library only",
        Lang::Sh => "POSIX sh",
        Lang::Go => "Go, standard library only",
        Lang::Ts => "TypeScript for Node, standard library only; tsc is its one dev dependency",
    };
    out.push_str(&format!(
        "\n{} is a {} {} plugin ({lang_note}); its comments say where your logic goes.\n",
        template.plugin.0,
        template.family,
        template.role_names()
    ));
    let build = template.build();
    let first = if build.is_empty() { "" } else { "build it, " };
    out.push_str(&format!("\nnext: {first}certify it (exit 0: conformant under every profile), then run its scenario:\n"));
    if dir != Path::new(".") {
        out.push_str(&format!("  cd {}\n", crate::report::escape_name(&shell_word(&dir.display().to_string()))));
    }
    for argv in &build {
        out.push_str(&format!("  {}\n", argv.join(" ")));
    }
    out.push_str(&format!("  proctor {}\n", template.certify_args().join(" ")));
    out.push_str(&format!("  proctor run {}\n", template.scenario.0));
    if template.cases.is_none() {
        out.push_str(&format!(
            "(no cases file: a {} {} plugin makes no decision a case can expect; the built-in probes judge it)\n",
            template.family,
            template.role_names()
        ));
    }
    let verb = if build.is_empty() { "certifies" } else { "builds and certifies" };
    out.push_str(&format!("\n{} {verb} it on every push with proctor's GitHub action ({action}", templates::WORKFLOW_PATH));
    match action.strip_prefix("./") {
        Some(path) => out.push_str(&format!(": add proctor as a git submodule at {path}).\n")),
        None => out.push_str(").\n"),
    }
    out
}

/// `word` as the shell reads it: as is when it is plain, else in single quotes.
fn shell_word(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c)) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_github_can_use_pass_and_others_are_refused() {
        for ok in ["./proctor", "./vendor/proctor", "acme/proctor@v1", "acme/proctor/sub@main"] {
            assert!(check_action(ok).is_ok(), "{ok}");
        }
        for bad in ["", "./", "proctor", "acme/proctor", "acme@v1", "https://x.invalid/proctor", "acme/proctor@", "./a b"] {
            assert!(check_action(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn folders_are_quoted_only_when_the_shell_would_split_them() {
        assert_eq!(shell_word("plugins/my-hook"), "plugins/my-hook");
        assert_eq!(shell_word("my hook"), "'my hook'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
    }
}
