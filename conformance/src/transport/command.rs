//! What to run: an argv array, never a shell string.

use std::path::PathBuf;

/// The command line of a plugin, with its environment and working directory.
///
/// proctor never goes through a shell: `argv[0]` is looked up on `PATH` exactly
/// as the runtimes do (`exec.Command` in Go, `Command::new` in Rust).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginCommand {
    /// Program and arguments. Never empty once validated by [`PluginCommand::new`].
    pub argv: Vec<String>,
    /// Extra environment variables, added to proctor's own environment
    /// (or, with `env_clear`, the whole environment).
    pub env: Vec<(String, String)>,
    /// Start from an empty environment, so only `env` reaches the plugin (as
    /// PromptKit starts an exec tool whose runtime config lists `env:`).
    pub env_clear: bool,
    /// Variables of proctor's own environment the plugin must not inherit.
    pub env_remove: Vec<String>,
    /// Working directory; `None` keeps proctor's.
    pub cwd: Option<PathBuf>,
}

impl PluginCommand {
    /// A command from argv; `None` when argv is empty.
    pub fn new(argv: Vec<String>) -> Option<Self> {
        if argv.is_empty() || argv[0].is_empty() {
            return None;
        }
        Some(PluginCommand { argv, env: Vec::new(), env_clear: false, env_remove: Vec::new(), cwd: None })
    }

    /// The program name (first element of argv).
    pub fn program(&self) -> &str {
        &self.argv[0]
    }

    /// The command as a user would type it, for messages (not for execution).
    pub fn display(&self) -> String {
        self.argv
            .iter()
            .map(|a| {
                if a.is_empty() || a.chars().any(|c| c.is_whitespace() || "'\"\\$`".contains(c)) {
                    format!("'{}'", a.replace('\'', r"'\''"))
                } else {
                    a.clone()
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}
