//! How long each runtime waits for a plugin, and what it waits for.
//!
//! A plugin that answers a PromptKit tool hook in 7 s works (PromptKit waits
//! 10 s) and one that answers a PicoClaw interceptor in 7 s is skipped (5 s).
//! proctor used to hold every runtime to its own 5 s, which called the first
//! plugin broken and said nothing true of the second. So every deadline a
//! profile judges by is the runtime's own, per surface, named here with
//! where it was read and where it was measured; `documented` keeps
//! proctor's defaults, because the protocol documents name none.
//!
//! A deadline is also a question of *what* the runtime waits for:
//! PromptKit's one-shot surfaces run the plugin with Go's `cmd.Run` under
//! one context, so answering, exiting and closing the pipes all fall inside
//! one deadline, and a hook that answers at once and exits 3 s later is
//! fine. The long-lived runtimes close stdin, wait 2 s and kill. That is
//! [`Ending`].

use std::time::Duration;

use super::{Family, Profile, Role};
use crate::transport::{Deadlines, Ending, EofWait, Pipes};

/// One deadline of a runtime, with its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Limit {
    /// How long.
    #[serde(serialize_with = "millis")]
    pub duration: Duration,
    /// Where the value comes from (source file at the pinned release, a
    /// document, or proctor's own default), and how it was measured.
    pub source: &'static str,
}

fn millis<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(d.as_millis() as u64)
}

impl Limit {
    const fn secs(secs: u64, source: &'static str) -> Limit {
        Limit { duration: Duration::from_secs(secs), source }
    }
}

/// The deadlines a runtime gives a plugin of one family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Timing {
    /// Spawn to the first answer (a handshake, or a server's first call).
    pub startup: Limit,
    /// Each request, from the write to the complete answer.
    pub request: Limit,
    /// Stdin closed to exit, for long-lived plugins (then the runtime kills).
    pub shutdown: Limit,
    /// What a one-shot runtime waits for after the answer.
    pub ending: Ending,
    /// How the runtime reads the plugin's stdout and stderr.
    #[serde(skip)]
    pub pipes: Pipes,
    /// What the runtime does when a deadline passes without the answer.
    pub gives_up: &'static str,
    /// What it does when a process the plugin left holds the pipes past the
    /// deadline, where that differs from `gives_up`.
    pub held_open: Option<&'static str>,
    /// The start-up counts against the first call's deadline (PromptKit starts
    /// a server on its first call, under that call's context), so a configured
    /// request deadline bounds it too; otherwise the start-up keeps its own.
    #[serde(skip)]
    pub startup_in_first_call: bool,
}

impl Timing {
    /// The deadlines in one line, for `proctor checks`: what is waited for, how long.
    pub fn summary(&self) -> String {
        let secs = |d: Duration| {
            if d.subsec_millis() == 0 { format!("{} s", d.as_secs()) } else { format!("{} ms", d.as_millis()) }
        };
        let startup = match self.startup_in_first_call {
            true => format!("start-up within the first call's {}", secs(self.request.duration)),
            false => format!("start-up {}", secs(self.startup.duration)),
        };
        let mut parts = vec![startup, format!("each request {}", secs(self.request.duration))];
        parts.push(match self.ending {
            Ending::ExitWithinRequest => "the exit within the request's deadline".to_string(),
            Ending::ExitAfterAnswer => format!("stdin closed, then {} to exit", secs(self.shutdown.duration)),
        });
        match self.pipes.output_to_eof {
            Some(EofWait::Grace(g)) => parts.push(format!("the output pipes closed within {} of the exit", secs(g))),
            Some(EofWait::UntilDeadline) => parts.push("the output pipes closed (a child holding one keeps it waiting)".into()),
            None => {}
        }
        if self.pipes.stdout_after_exit {
            parts.push("stdout read only after the exit".into());
        }
        if let Some(limit) = self.pipes.stderr_line_limit {
            parts.push(format!("stderr read by lines, stopping for good at one of {} bytes", limit));
        }
        parts.join("; ")
    }

    /// The deadlines proctor runs a plugin under to play this runtime.
    /// `timeout` is `--timeout-ms` (or a RuntimeConfig binding's `timeout_ms`):
    /// the request deadline the user's own configuration sets, which
    /// replaces the runtime's default; start-up keeps the runtime's own, unless
    /// the runtime starts the plugin within its first call.
    /// A runtime deadline past [`CEILING`] is waited only up to it.
    pub fn deadlines(&self, timeout: Option<Duration>) -> Deadlines {
        let own_startup = self.startup.duration.min(CEILING);
        let (startup, request) = match timeout {
            Some(t) if self.startup_in_first_call => (t, t),
            Some(t) => (own_startup, t),
            None => (own_startup, self.request.duration.min(CEILING)),
        };
        Deadlines { startup, request, shutdown: self.shutdown.duration, ending: self.ending, pipes: self.pipes, ..Deadlines::default() }
    }
}

/// proctor's own deadlines, used by `documented`: the protocol documents name none
/// but runok's (`timeout after 5s`).
const OWN_STARTUP: Limit = Limit::secs(5, "proctor's default (the protocol documents name no start-up deadline)");
const OWN_REQUEST: Limit =
    Limit::secs(5, "proctor's default (the protocol documents name no request deadline; runok's shows `timeout after 5s`)");
const OWN_SHUTDOWN: Limit = Limit::secs(2, "proctor's default: both long-lived runtimes kill 2 s after closing stdin");

/// The longest proctor waits for one answer when a runtime waits longer
/// (Codex's 600 s hook timeout, PicoClaw's handshake, which has none):
/// past it the report says that proctor, not the runtime, stopped waiting.
pub const CEILING: Duration = Duration::from_secs(60);

impl Profile {
    /// The deadlines `self`'s runtime gives a plugin of `family` playing `role`.
    pub fn timing(self, family: Family, role: Role) -> Timing {
        let own = Timing {
            startup: OWN_STARTUP,
            request: OWN_REQUEST,
            shutdown: OWN_SHUTDOWN,
            ending: Ending::ExitAfterAnswer,
            pipes: Pipes::default(),
            gives_up: "the runtime goes on without the answer",
            held_open: None,
            startup_in_first_call: false,
        };
        match (self, family) {
            (Profile::Promptkit86d9f36, Family::PromptkitExec) => Timing {
                request: promptkit_oneshot(role),
                ending: Ending::ExitWithinRequest,
                // exec.Cmd copies stdout and stderr into buffers and Wait waits for both copies:
                // the sandboxed hooks and selector give them 500 ms past the exit (WaitDelay) and
                // then fail. Tools and evals have no WaitDelay: they wait for a child holding a
                // pipe however long it takes (measured: interop/promptkit, FIDELITY.md), which is
                // fine within the deadline and the leftover it is past it (the fault comparison
                // holds a `grandchild` there as 45 s lost).
                pipes: Pipes { output_to_eof: promptkit_eof_wait(role), stderr_to_eof: true, ..Pipes::default() },
                gives_up: promptkit_gives_up(role),
                held_open: matches!(role, Role::Tool | Role::Eval).then_some(PROMPTKIT_WAITS_FOR_PIPES),
                ..own
            },
            (Profile::Promptkit86d9f36, Family::PromptkitServer) => Timing {
                // getOrStart spawns the server inside Execute, under the call's timeout context
                // (runtime/tools/server_executor.go:84-118; measured: a 2.6 s start fails a 2 s tool).
                startup_in_first_call: true,
                startup: PROMPTKIT_IDLE,
                request: PROMPTKIT_IDLE,
                shutdown: Limit::secs(2, "serverShutdownTimeout: close stdin, wait 2 s, SIGKILL (runtime/tools/server_executor.go)"),
                // cmd.Stderr is a bytes.Buffer: cmd.Wait, which Close waits on, waits for its copy (server_executor.go:150-152,264-283).
                pipes: Pipes { stderr_waited_at_close: true, ..Pipes::default() },
                gives_up: "the turn ends with an error, and the server's late reply is read as the next call's (`JSON-RPC response ID mismatch`)",
                ..own
            },
            (Profile::PicoclawCf67dd3, Family::PicoclawHook) => Timing {
                startup: Limit::secs(
                    30,
                    "none in production: hook.hello waits on the agent loop's context, which has no deadline (pkg/agent/hook_process.go:147-152; measured: a hello at 7 s is waited for); a config reload's 30 s context (providerReloadTimeout, pkg/gateway/gateway.go:58) is the one bound",
                ),
                request: picoclaw_call(role),
                shutdown: Limit::secs(
                    2,
                    "processHookCloseTimeout: close stdin, wait 2 s, Process.Kill (pkg/agent/hook_process.go:154,161-185)",
                ),
                // readStderr: a bufio.Scanner with the 1 MiB buffer; a longer line ends the loop (pkg/agent/hook_process.go:435-444).
                // readLoop reads stdout until EOF, through Close (pkg/agent/hook_process.go:406-433).
                pipes: Pipes { stderr_line_limit: Some(1024 * 1024), stdout_read_to_exit: true, ..Pipes::default() },
                gives_up: picoclaw_gives_up(role),
                ..own
            },
            (Profile::Runok031, Family::RunokExtension) => Timing {
                request: Limit::secs(
                    5,
                    "the timeout runok's documents show (`timeout after 5s`); ExtensionRunner::validate takes it as a parameter and polls try_wait every 10 ms (src/exec/extension_runner.rs:234-259)",
                ),
                ending: Ending::ExitWithinRequest,
                // stdout is piped and read by wait_with_output only after try_wait saw the exit.
                pipes: Pipes { stdout_after_exit: true, output_to_eof: Some(EofWait::UntilDeadline), ..Pipes::default() },
                gives_up: "runok kills the extension and asks the user (`Extension timed out, asking user for confirmation`)",
                ..own
            },
            // The hooks references name each agent's default `timeout`, and the agent reads the exit status.
            (Profile::Documented, Family::ClaudeCodeHook) => Timing {
                request: Limit::secs(60, "the hooks reference: a command hook's default `timeout` is 60 s"),
                ending: Ending::ExitWithinRequest,
                ..own
            },
            (Profile::Documented, Family::CodexHook) => Timing {
                request: Limit::secs(600, "the hooks documentation: a hook's default `timeout` is 600 s"),
                ending: Ending::ExitWithinRequest,
                ..own
            },
            (Profile::ClaudeCode21332, Family::ClaudeCodeHook) => Timing {
                request: Limit::secs(
                    600,
                    "Claude Code 2.1.332's hook executor defaults to 600000 ms (`timeoutMs` in the binary; its reference says 60 s); `timeout` is in seconds, and on it the hook's process group is killed (measured, interop/agents)",
                ),
                ending: Ending::ExitWithinRequest,
                gives_up: "Claude Code kills the hook's process group and goes on without its decision: a block is lost and the tool runs (measured)",
                ..own
            },
            (Profile::Codex0171, Family::CodexHook) => Timing {
                request: Limit::secs(
                    600,
                    "Codex's default hook `timeout`, 600 s (hooks documentation; `timeout_sec.unwrap_or(600)`); `timeout` is in seconds and 0.171.0 ignores `timeoutSec` (measured, interop/agents)",
                ),
                ending: Ending::ExitWithinRequest,
                // Codex takes the hook's output once stdout and stderr have closed: a child holding
                // either keeps it waiting up to the timeout, and then the block is lost (measured).
                pipes: Pipes { output_to_eof: Some(EofWait::UntilDeadline), stderr_to_eof: true, ..Pipes::default() },
                gives_up: "Codex kills the hook (`hook: EVENT Failed`) and goes on without its decision: a block is lost and the tool runs (measured)",
                ..own
            },
            _ => own,
        }
    }
}

const PROMPTKIT_IDLE: Limit = Limit::secs(
    30,
    "none of the executor's own: the pipeline's idle timeout (DefaultIdleTimeoutSeconds = 30, runtime/pipeline/stage/config.go) ends the turn, as the registry's DefaultToolTimeout (30000 ms) does for file-loaded tools (research promptkit.md §1.2.4)",
);

fn promptkit_oneshot(role: Role) -> Limit {
    match role {
        Role::ProviderHook | Role::ToolHook | Role::SessionHook => Limit::secs(
            10,
            "defaultExecHookTimeout = 10 s, the whole run under one context (runtime/hooks/exec_hooks.go; research promptkit.md §1.5)",
        ),
        Role::EvalHook => Limit::secs(5, "DefaultExecEvalHookTimeout = 5 s (runtime/evals/exec_hook.go; research promptkit.md §1.0)"),
        Role::Selector => Limit::secs(
            10,
            "the exec selector's 10 s timeout, through the sandbox (runtime/selection/exec_client.go; research promptkit.md §1.8)",
        ),
        Role::Eval => Limit::secs(
            30,
            "defaultExecEvalTimeout = 30 s, also the runner's cap (runtime/evals/handlers/exec_handler.go, runtime/evals/runner.go)",
        ),
        _ => PROMPTKIT_IDLE,
    }
}

fn promptkit_eof_wait(role: Role) -> Option<EofWait> {
    match role {
        Role::ProviderHook | Role::ToolHook | Role::SessionHook | Role::EvalHook | Role::Selector => {
            Some(EofWait::Grace(Duration::from_millis(500)))
        }
        // cmd.Run without WaitDelay (tools/exec_executor.go:95-116, evals/handlers/exec_handler.go:159-178):
        // a child holding a pipe is waited for, inside the deadline and past it.
        _ => Some(EofWait::UntilDeadline),
    }
}

/// What a PromptKit tool or eval does while a process the plugin left holds its pipes.
const PROMPTKIT_WAITS_FOR_PIPES: &str =
    "PromptKit's cmd.Run waits for that process however long it lives (no WaitDelay): the call completes only then, past its deadline";

fn promptkit_gives_up(role: Role) -> &'static str {
    match role {
        Role::ProviderHook | Role::ToolHook => "PromptKit kills the hook and denies the call (`exec hook … failed`)",
        Role::SessionHook => "PromptKit kills the hook and the session hook fails",
        Role::EvalHook => "PromptKit kills the hook and logs it",
        Role::Eval => "PromptKit kills the eval and scores 0",
        Role::Selector => "PromptKit kills the selector and the selection fails",
        _ => "PromptKit fails the tool call",
    }
}

fn picoclaw_gives_up(role: Role) -> &'static str {
    match role {
        Role::Approve => "PicoClaw denies the tool call (`tool approval hook … timed out`)",
        _ => "PicoClaw skips the hook for that call and goes on (`Interceptor hook timed out`)",
    }
}

fn picoclaw_call(role: Role) -> Limit {
    match role {
        Role::Approve => Limit::secs(60, "approval_timeout_ms default 60000 (pkg/agent/hooks.go:18-23)"),
        Role::Observe => {
            Limit { duration: Duration::from_millis(500), source: "observer_timeout_ms default 500 (pkg/agent/hooks.go:18-23)" }
        }
        _ => Limit::secs(5, "interceptor_timeout_ms default 5000 (pkg/agent/hooks.go:18-23)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_keeps_proctors_own_deadlines() {
        for family in Family::ALL.into_iter().filter(|f| !f.is_agent_hook()) {
            let t = Profile::Documented.timing(family, Role::Tool);
            assert_eq!(
                (t.startup.duration, t.request.duration, t.ending),
                (Duration::from_secs(5), Duration::from_secs(5), Ending::ExitAfterAnswer)
            );
        }
    }

    #[test]
    fn each_runtime_has_its_own_per_surface() {
        let pk = |role| Profile::Promptkit86d9f36.timing(Family::PromptkitExec, role).request.duration.as_secs();
        assert_eq!([pk(Role::ToolHook), pk(Role::EvalHook), pk(Role::Eval), pk(Role::Selector), pk(Role::Tool)], [10, 5, 30, 10, 30]);
        let pico = |role| Profile::PicoclawCf67dd3.timing(Family::PicoclawHook, role).request.duration.as_millis();
        assert_eq!([pico(Role::Llm), pico(Role::ToolMode), pico(Role::Approve), pico(Role::Observe)], [5000, 5000, 60000, 500]);
        assert_eq!(Profile::Promptkit86d9f36.timing(Family::PromptkitServer, Role::Tool).startup.duration.as_secs(), 30);
        assert_eq!(Profile::Promptkit86d9f36.timing(Family::PromptkitExec, Role::ToolHook).ending, Ending::ExitWithinRequest);
        assert_eq!(Profile::PicoclawCf67dd3.timing(Family::PicoclawHook, Role::Llm).ending, Ending::ExitAfterAnswer);
        // The agents' references name their default hook timeouts; Claude Code's binary waits longer than its reference says.
        let agent = |p: Profile, f| p.timing(f, Role::Tool).request.duration.as_secs();
        assert_eq!(agent(Profile::Documented, Family::ClaudeCodeHook), 60);
        assert_eq!(agent(Profile::ClaudeCode21332, Family::ClaudeCodeHook), 600);
        assert_eq!(agent(Profile::Documented, Family::CodexHook), 600);
    }
}
