//! Where the profiles part: the runtime fact that makes one check come out
//! differently under a runtime's profile than under `documented`.
//!
//! A case that expects `pending` passes under the documents and fails under
//! PromptKit with "expected decision pending, got result", while the bytes
//! show `{"pending": …}`. The check's own hint (compare the request…) does not
//! apply; the reason is a divergence of the runtime (PromptKit never reads
//! `pending`). A result whose outcome differs from the documented one names
//! the divergences that can make it differ, with their citations, so the
//! report says why, not only that.

use crate::check::CheckId;
use crate::protocol::{DIVERGENCES, Divergence};

/// Which divergences can part which checks: the divergence's id, the roles
/// it concerns (none: every role of its family), then the checks whose
/// outcome it can change.
const PARTS: &[(&str, &[&str], &[CheckId])] = &[
    ("promptkit.pending-ignored", &["tool"], &["CASE-DECISION", "TOOL-PENDING-SHAPE", "TOOL-RESPONSE-SHAPE"]),
    ("promptkit.tool-document-is-the-result", &["tool"], &["CASE-DECISION", "TOOL-RESPONSE-SHAPE"]),
    ("promptkit.hook-payload-pascal-case", &["provider-hook", "tool-hook", "session-hook"], &["CASE-DECISION"]),
    ("promptkit.selector-payload-go-names", &["selector"], &["CASE-DECISION", "SELECTOR-RESPONSE-SHAPE", "SELECTOR-KNOWN-IDS"]),
    ("promptkit.eval-context-omits-empty", &["eval"], &["CASE-DECISION", "EVAL-SCORE"]),
    ("promptkit.oneshot-no-trailing-newline", &[], &["ROBUST-DEADLINE"]),
    ("promptkit.session-hook-stdout-ignored", &["session-hook"], &["HOOK-OBSERVE-ACK"]),
    ("promptkit.server-one-line-per-call", &[], &["JSONRPC-ID-ECHO", "JSONRPC-NO-DUPLICATE-REPLY", "CASE-DECISION"]),
    ("picoclaw.runtime-event-notification", &[], &["JSONRPC-NOTIFICATION-SILENT"]),
    ("picoclaw.before-llm-system-messages-kept", &[], &["CASE-DECISION", "PICOCLAW-MODIFY-PAYLOAD"]),
];

/// The divergences of `profile` that can make `check` come out otherwise
/// for a plugin of `family` in `role` (`None`: a role the run did not name).
pub(crate) fn divergences_for(profile: &str, family: &str, role: Option<&str>, check: CheckId) -> Vec<&'static Divergence> {
    // A divergence's family is the one its id's runtime speaks for this run's protocol.
    let runtime = family.split('-').next().unwrap_or(family);
    let server = family == "promptkit-server";
    PARTS
        .iter()
        .filter(|(id, roles, checks)| {
            checks.contains(&check)
                && id.starts_with(runtime)
                && (id.contains("server") == server || !id.starts_with("promptkit"))
                && (roles.is_empty() || role.is_some_and(|r| roles.iter().any(|x| r.split(',').any(|y| y == *x))))
        })
        .filter_map(|(id, _, _)| DIVERGENCES.iter().find(|d| d.id == *id && d.profile.name() == profile))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_divergence_and_check_exists() {
        for (id, _, checks) in PARTS {
            assert!(DIVERGENCES.iter().any(|d| d.id == *id), "no divergence {id}");
            for check in *checks {
                assert!(crate::check::lookup(check).is_some(), "{id}: no check {check}");
            }
        }
        let ids =
            |profile, family, role, check| -> Vec<&str> { divergences_for(profile, family, role, check).iter().map(|d| d.id).collect() };
        assert_eq!(
            ids("promptkit@86d9f36", "promptkit-exec", Some("tool"), "CASE-DECISION"),
            ["promptkit.pending-ignored", "promptkit.tool-document-is-the-result"]
        );
        assert_eq!(ids("promptkit@86d9f36", "promptkit-exec", Some("tool-hook"), "CASE-DECISION"), ["promptkit.hook-payload-pascal-case"]);
        assert_eq!(ids("promptkit@86d9f36", "promptkit-server", Some("tool"), "CASE-DECISION"), ["promptkit.server-one-line-per-call"]);
        assert!(ids("documented", "promptkit-exec", Some("tool"), "CASE-DECISION").is_empty());
        assert!(ids("picoclaw@cf67dd3", "picoclaw-hook", None, "JSONRPC-ID-ECHO").is_empty());
    }
}
