//! Capabilities: what an answer can use (a denial, `respond`, `modify`,
//! `pending`, a JSON-RPC error) that the built-in probes never ask for.
//!
//! The probes send realistic but harmless requests, so a hook that always
//! allows is never seen denying. The checks that judge a denial's shape are
//! then not judged at all: a skip. A skip must say so plainly and give the
//! exact `--cases` entry that would exercise the capability; `--require`
//! turns "not exercised" into a failure for authors who know their plugin
//! must use it.

use crate::check::CheckId;
use crate::protocol::{Family, Role, picoclaw_hook as pico};

/// One capability: its `--require` name and the check that judges its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capability {
    /// The `--require` name.
    pub name: &'static str,
    /// The check that judges answers using it.
    pub check: CheckId,
    /// What the skip says happened.
    pub unexercised: &'static str,
}

/// Every capability, in `--require` order.
pub const CAPABILITIES: &[Capability] = &[
    Capability { name: "deny", check: "HOOK-DENY-REASON", unexercised: "no answer was a denial" },
    Capability { name: "pending", check: "TOOL-PENDING-SHAPE", unexercised: "no answer was pending" },
    Capability { name: "modify", check: "PICOCLAW-MODIFY-PAYLOAD", unexercised: "no answer used modify" },
    Capability { name: "respond", check: "PICOCLAW-RESPOND-RESULT", unexercised: "no answer used respond" },
    Capability { name: "error", check: "JSONRPC-ERROR-SHAPE", unexercised: "no answer was a JSON-RPC error" },
];

/// The capability whose shape `check` judges.
pub fn for_check(check: CheckId) -> Option<&'static Capability> {
    CAPABILITIES.iter().find(|c| c.check == check)
}

impl Capability {
    /// The capabilities a plugin of `family` taking `roles` can use.
    pub fn available(family: Family, roles: &[Role]) -> Vec<&'static Capability> {
        CAPABILITIES.iter().filter(|c| c.case(family, roles).is_some()).collect()
    }

    /// Parses a `--require` list against what the plugin can use.
    pub fn parse_list(list: &str, family: Family, roles: &[Role]) -> Result<Vec<&'static Capability>, String> {
        let available = Capability::available(family, roles);
        let names = || available.iter().map(|c| c.name).collect::<Vec<_>>().join(", ");
        let mut out = Vec::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match available.iter().find(|c| c.name == name) {
                Some(c) if !out.contains(c) => out.push(*c),
                Some(_) => {}
                None if available.is_empty() => return Err(format!("--require {name}: a {family} plugin has no capability to require")),
                None => return Err(format!("--require {name}: not a capability of this plugin; use one of: {}", names())),
            }
        }
        if out.is_empty() {
            return Err(format!("--require lists nothing; use a comma list of: {}", names()));
        }
        Ok(out)
    }

    /// The `--cases` entry that makes a plugin of `family` taking `roles`
    /// use this capability, or `None` when it cannot. The request is a
    /// placeholder for the author to fill with what triggers it.
    pub fn case(&self, family: Family, roles: &[Role]) -> Option<String> {
        let entry = |selector: &str, request: &str, decision: &str| {
            format!("  - name: {} is exercised\n{selector}    request: {request}\n    expect: {{decision: {decision}}}", self.name)
        };
        let pico_tool = || roles.contains(&Role::ToolMode);
        let pico_before_tool = |decision| {
            entry(
                &format!("    method: {}\n", pico::BEFORE_TOOL),
                "{tool: <a tool your hook intercepts>, arguments: {<what makes it act>}}",
                decision,
            )
        };
        match (self.name, family) {
            ("deny", Family::PromptkitExec) => match roles.first()? {
                Role::ToolHook => Some(entry("    phase: before_execution\n", "{name: <a tool>, args: {<what it must block>}}", "deny")),
                Role::ProviderHook => {
                    Some(entry("    phase: before_call\n", "{messages: [{role: user, content: <what it must block>}]}", "deny"))
                }
                _ => None,
            },
            ("deny", Family::PicoclawHook) if pico_tool() => Some(pico_before_tool("deny_tool")),
            ("deny", Family::PicoclawHook) if roles.contains(&Role::Approve) => Some(entry(
                &format!("    method: {}\n", pico::APPROVE_TOOL),
                "{tool: <a tool it must refuse>, arguments: {<what makes it refuse>}}",
                "denied",
            )),
            ("pending", Family::PromptkitExec) if roles.contains(&Role::Tool) => {
                Some(entry("", "{args: {<what needs approval>}}", "pending"))
            }
            ("modify", Family::PicoclawHook) if pico_tool() => Some(pico_before_tool("modify")),
            ("respond", Family::PicoclawHook) if pico_tool() => Some(pico_before_tool("respond")),
            ("error", Family::PromptkitServer) => Some(entry("", "{args: {<arguments it must refuse>}}", "error")),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn require_names_what_the_plugin_can_use() {
        let pico = [Role::ToolMode];
        let got: Vec<_> = Capability::parse_list("deny, respond", Family::PicoclawHook, &pico).unwrap().iter().map(|c| c.check).collect();
        assert_eq!(got, ["HOOK-DENY-REASON", "PICOCLAW-RESPOND-RESULT"]);
        let err = Capability::parse_list("pending", Family::PicoclawHook, &pico).unwrap_err();
        assert_eq!(err, "--require pending: not a capability of this plugin; use one of: deny, modify, respond");
        assert!(Capability::parse_list("deny", Family::RunokExtension, &[Role::Guard]).unwrap_err().contains("no capability"));
        assert!(Capability::parse_list(",", Family::PromptkitServer, &[Role::Tool]).unwrap_err().contains("use a comma list of: error"));
    }

    #[test]
    fn every_suggested_case_is_a_valid_cases_entry_for_its_plugin() {
        let plugins: &[(Family, &[Role])] = &[
            (Family::PromptkitExec, &[Role::ToolHook]),
            (Family::PromptkitExec, &[Role::ProviderHook]),
            (Family::PromptkitExec, &[Role::Tool]),
            (Family::PromptkitServer, &[Role::Tool]),
            (Family::PicoclawHook, &[Role::ToolMode]),
            (Family::PicoclawHook, &[Role::Approve]),
        ];
        let path = std::path::Path::new("suggested.yaml");
        for (family, roles) in plugins {
            for cap in Capability::available(*family, roles) {
                let entry = cap.case(*family, roles).unwrap();
                // The placeholders are YAML strings, so the entry parses as it is printed.
                let file = crate::certify::CasesFile::parse(&format!("cases:\n{entry}\n"), path)
                    .unwrap_or_else(|e| panic!("{family} {roles:?} {}: {e}\n{entry}", cap.name));
                file.check_applicable(*family, roles, path).unwrap_or_else(|e| panic!("{family} {roles:?} {}: {e}", cap.name));
            }
        }
    }
}
