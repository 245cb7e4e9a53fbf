//! Why each runtime cares about each check.
//!
//! A check that is `must` under a runtime's profile says the plugin breaks in
//! that runtime. That claim needs evidence from the runtime itself: a fact
//! the comparison with the real runtime holds on every run (interop/), or a
//! citation of its code. The check's own `spec` often cites the runtime; a
//! tolerance says the runtime does *not* care (a warning there). What is left
//! is grounded here, and `every_must_under_a_runtime_has_a_ground` refuses a
//! check that has none. `proctor checks` prints the ground of every check
//! under every runtime profile.

use super::catalogue::{CATALOGUE, CheckDef, CheckId, Group, Level};
use super::tolerance::TOLERANCES;
use crate::protocol::{Family, Profile};

/// A ground given here, for checks whose `spec` does not cite the runtime.
struct Ground {
    check: CheckId,
    /// The families it holds for (their runtime profiles).
    families: &'static [Family],
    /// The evidence: which comparison holds it, or which code says so.
    evidence: &'static str,
}

use Family::{
    ClaudeCodeHook as CLAUDE, CodexHook as CODEX, PicoclawHook as PICO, PromptkitExec as EXEC, PromptkitServer as SERVER,
    RunokExtension as RUNOK,
};

const JSON_ANSWERS: &[Family] = &[EXEC, SERVER, PICO, RUNOK];
const ALL: &[Family] = &Family::ALL;

static GROUNDS: &[Ground] = &[
    Ground {
        check: "FRAMING-NO-BOM",
        families: JSON_ANSWERS,
        evidence: "the fault comparison (interop/fidelity.sh --only fault, mock fault `bom`) holds the verdict to each runtime's outcome: Go's json.Unmarshal refuses a leading EF BB BF (`invalid character 'ï'`), and so does runok's serde",
    },
    Ground {
        check: "FRAMING-COMPACT",
        families: &[PICO, RUNOK],
        evidence: "the fault comparison (`pretty-print`): PicoClaw reads one line per message, so an indented reply is lost; runok reads stdout whole, so it is only untidy (a should)",
    },
    Ground {
        check: "FRAMING-LF-ENDINGS",
        families: &[SERVER],
        evidence: "the fault comparison (`crlf`): Go's bufio.Scanner strips the CR, so PromptKit reads the line (a should)",
    },
    Ground {
        check: "FRAMING-FLUSHED",
        families: &[SERVER, PICO],
        evidence: "the fault comparison (`no-flush`): both keep stdin open for the session, so a reply held in a buffer never arrives and the call times out",
    },
    Ground {
        check: "JSONRPC-NO-DUPLICATE-REPLY",
        families: &[SERVER],
        evidence: "the fault comparison (`duplicate-id`, `two-documents`) and the timing pair promptkit.server-one-line-per-call: PromptKit reads one line per call, so a second copy is the next call's reply",
    },
    Ground {
        check: "JSONRPC-RESULT-XOR-ERROR",
        families: &[RUNOK],
        evidence: "the fault comparison (`both-result-error`, `neither-result-error`) and interop/runok's tests: runok decodes `result` or fails with `missing 'result' field`",
    },
    Ground {
        check: "JSONRPC-ERROR-SHAPE",
        families: &[PICO, RUNOK],
        evidence: "the fault comparison (`bad-error-object`) holds the verdict to PicoClaw's and runok's outcome with an error object whose code is a string and whose message a number",
    },
    Ground {
        check: "LIFECYCLE-STAYS-ALIVE",
        families: &[PICO],
        evidence: "the fault comparison (`crash-after`): PicoClaw never restarts a hook (pkg/agent/hook_process.go waitLoop fails every pending and later call)",
    },
    Ground {
        check: "LIFECYCLE-EXIT-ON-EOF",
        families: &[CLAUDE, CODEX],
        evidence: "measured with interop/agents: both agents take a hook's answer at its exit, within the hook's `timeout`, and kill it there (a hook that never exits loses its decision)",
    },
    Ground {
        check: "LIFECYCLE-NO-LEFTOVER",
        families: &[SERVER, PICO],
        evidence: "the fault comparison (`grandchild`, `escape-session`): both end only the plugin process at close (PicoClaw's Process.Kill, PromptKit's SIGKILL after 2 s), so what it started runs on after the session",
    },
    Ground {
        check: "ROBUST-SEQUENTIAL",
        families: &[SERVER, PICO],
        evidence: "the fault comparison (`crash-after`, `drop-pipelined`): one process serves the whole session in both runtimes, and neither restarts it",
    },
    Ground {
        check: "ROBUST-UNKNOWN-FIELDS",
        families: &[CLAUDE, CODEX],
        evidence: "the agents add fields release by release (claude-code@2.1.332 sends prompt_id, effort, duration_ms beyond its reference; the payload comparison of interop/fidelity.sh --only agents holds them)",
    },
    Ground {
        check: "AGENT-HOOK-STDOUT-JSON",
        families: &[CLAUDE],
        evidence: "the agents comparison (genes `banner`, `trailer`, `two-docs`, `bom`, `pretty`): generated hooks with text around their JSON through Claude Code 2.1.332, whose parseHookOutput (read from its binary) the verdict follows",
    },
    Ground {
        check: "AGENT-HOOK-EXIT2-STDERR",
        families: &[CLAUDE],
        evidence: "the agents comparison (gene `reason-to-stdout`): exit 2 with the reason on stdout, through Claude Code 2.1.332, which feeds stderr back and not stdout",
    },
    Ground {
        check: "AGENT-HOOK-EVENT-NAME",
        families: &[CLAUDE],
        evidence: "the agents comparison (genes `no-event-name`, `wrong-event-name`) through Claude Code 2.1.332, which rejects such an output as a hook error",
    },
    Ground {
        check: "CASE-DECISION",
        families: ALL,
        evidence: "the author's own cases, rendered as each runtime sends them and read as it reads the answer: held to every runtime by the case, differential and agents comparisons (the runtime reached the case's decision exactly when proctor passes it)",
    },
    Ground {
        check: "CASE-REQUIRE",
        families: ALL,
        evidence: "the author's own --require: a capability the plugin must be seen using, under every profile alike",
    },
];

/// The words that name a runtime in a check's `spec` citation.
fn names_runtime(spec: &str, profile: Profile) -> bool {
    let words: &[&str] = match profile {
        Profile::Documented => return true,
        Profile::Promptkit86d9f36 => &["promptkit", "PromptKit"],
        Profile::PicoclawCf67dd3 => &["picoclaw", "PicoClaw"],
        Profile::Runok031 => &["runok"],
        Profile::ClaudeCode21332 => &["claude-code", "Claude Code"],
        Profile::Codex0171 => &["codex", "Codex"],
    };
    words.iter().any(|w| spec.contains(w))
}

/// Why `profile`'s runtime cares about `check` for a plugin of `family`, or
/// `None` when nothing says it does.
pub fn ground(check: &CheckDef, family: Family, profile: Profile) -> Option<String> {
    if profile == Profile::Documented {
        return Some(format!("the documents: {}", check.spec));
    }
    if let Some(t) = TOLERANCES.iter().find(|t| t.check == check.id && t.profile == profile) {
        return Some(format!("partly a warning there ({}): {}", t.id, t.runtime_does));
    }
    if let Some(g) = GROUNDS.iter().find(|g| g.check == check.id && g.families.contains(&family)) {
        return Some(g.evidence.to_string());
    }
    names_runtime(check.spec, profile).then(|| format!("cited: {}", check.spec))
}

/// Every (check, family, runtime profile) a `must` check is judged under
/// with no ground: what `every_must_under_a_runtime_has_a_ground` refuses.
pub fn ungrounded() -> Vec<(CheckId, Family, Profile)> {
    let mut out = Vec::new();
    for check in CATALOGUE.iter().filter(|c| c.group != Group::Runtime && c.level == Level::Must) {
        for &family in check.families {
            for &profile in Profile::for_family(family).iter().filter(|p| **p != Profile::Documented) {
                if ground(check, family, profile).is_none() {
                    out.push((check.id, family, profile));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_must_under_a_runtime_has_a_ground() {
        assert_eq!(ungrounded(), Vec::new(), "a must check with no fact or citation of the runtime behind it");
    }

    #[test]
    fn every_ground_names_a_real_check_of_its_families() {
        for g in GROUNDS {
            let def = super::super::lookup(g.check).unwrap_or_else(|| panic!("no check {}", g.check));
            assert!(g.families.iter().all(|f| def.families.contains(f)), "{}: a family it does not apply to", g.check);
        }
    }
}
