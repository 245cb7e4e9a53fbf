//! Which of a check's spec citations a report on one family shows.
//!
//! A check shared by several families cites each family's document in its own `; `-separated part
//! (the catalogue, and `proctor checks`, list them all). A report on one family shows the parts
//! that cite its own document or no family's document (an RFC, a runtime's behaviour), never the
//! parts that only cite another family's: a PicoClaw report pointing at the runok document sends
//! its reader to the wrong spec.

use std::borrow::Cow;

use crate::protocol::Family;

/// `spec` as a report on `family` cites it. Borrowed when nothing is left out; the whole `spec` if
/// every part cites another family (the catalogue's tests keep that from happening).
pub fn spec_for(spec: &'static str, family: Family) -> Cow<'static, str> {
    let own = family.document();
    let others: Vec<&str> = Family::ALL.iter().map(|f| f.document()).filter(|d| *d != own).collect();
    let kept: Vec<&str> = spec.split("; ").filter(|part| part.contains(own) || !others.iter().any(|other| part.contains(other))).collect();
    match kept.len() {
        0 => Cow::Borrowed(spec),
        n if n == spec.split("; ").count() => Cow::Borrowed(spec),
        _ => Cow::Owned(kept.join("; ")),
    }
}

/// Where each protocol document a check cites lives upstream, pinned to the version its runtime
/// profile describes, with every section anchor the catalogue cites that was checked there: the
/// file exists at that commit and the heading produces the anchor (GitHub's slugs). The local
/// copies the catalogue names are not in any repository a user has; these are.
struct Upstream {
    document: &'static str,
    url: &'static str,
    /// `(anchor cited, anchor upstream)`: the same section, renamed upstream where they differ.
    anchors: &'static [(&'static str, &'static str)],
}

const UPSTREAM: &[Upstream] = &[
    Upstream {
        document: "picoclaw-hook-protocol.md",
        // picoclaw@cf67dd3; the file is byte-identical at v0.2.9.
        url: "https://github.com/sipeed/picoclaw/blob/cf67dd3851e7926bf04ea9016c2e61248f9f614e/docs/architecture/hooks/hook-json-protocol.md",
        anchors: &[
            ("basic-protocol-structure", "basic-protocol-structure"),
            ("1-hookhello-handshake", "1-hookhello-handshake"),
            ("4-hookbefore_tool", "4-hookbefore_tool"),
            ("6-hookapprove_tool", "6-hookapprove_tool"),
            // Section 7 is `hook.runtime_event` from v0.2.9 on (commit 8caf9aeb2), as the runtime does.
            ("7-hookevent-notification", "7-hookruntime_event-notification"),
            ("action-options", "action-options"),
            ("response-return-result-directly---respond", "response-return-result-directly---respond"),
        ],
    },
    Upstream {
        document: "promptkit-exec-protocol.txt",
        // promptkit@86d9f36 (runtime v1.5.11 plus two commits; the page is the same blob at v1.5.11).
        url: "https://github.com/AltairaLabs/PromptKit/blob/86d9f367e71627ae8dfdca6f8de498071fd61a7c/docs/src/content/docs/sdk/reference/exec-protocol.md",
        anchors: &[
            ("one-shot-mode", "one-shot-mode"),
            ("server-mode", "server-mode-json-rpc-20"),
            ("server-mode-json-rpc-20", "server-mode-json-rpc-20"),
            ("tool-protocol", "tool-protocol"),
            ("eval-protocol", "eval-protocol"),
            ("hook-response", "hook-response"),
            ("json-rpc-response", "json-rpc-response"),
            ("error-handling", "error-handling"),
        ],
    },
    Upstream {
        document: "runok-extension-protocol.txt",
        // runok 0.3.1: the commit its crates.io package records (tag v0.3.1).
        url: "https://github.com/fohte/runok/blob/d42da2302a0503afa6a5163731d1cf38aed926d5/docs/src/content/docs/extensions/protocol.md",
        anchors: &[("transport", "transport"), ("response", "response"), ("result-fields", "result-fields")],
    },
];

/// The anchor at the start of `text` (what follows a `#`): up to the first space or punctuation that
/// ends a citation in prose.
fn anchor_of(text: &str) -> &str {
    text.split(|c: char| c.is_whitespace() || matches!(c, ')' | ',' | ':' | ';')).next().unwrap_or(text)
}

/// Runtime source files the catalogue cites, each checked to exist at the profile's commit:
/// (path as cited, repository blob URL at that commit).
const SOURCES: &[(&str, &str)] = &[
    (
        "pkg/agent/hook_process.go",
        "https://github.com/sipeed/picoclaw/blob/cf67dd3851e7926bf04ea9016c2e61248f9f614e/pkg/agent/hook_process.go",
    ),
    (
        "runtime/hooks/exec_hooks.go",
        "https://github.com/AltairaLabs/PromptKit/blob/86d9f367e71627ae8dfdca6f8de498071fd61a7c/runtime/hooks/exec_hooks.go",
    ),
    (
        "runtime/selection/selector.go",
        "https://github.com/AltairaLabs/PromptKit/blob/86d9f367e71627ae8dfdca6f8de498071fd61a7c/runtime/selection/selector.go",
    ),
    (
        "runtime/selection/exec_client.go",
        "https://github.com/AltairaLabs/PromptKit/blob/86d9f367e71627ae8dfdca6f8de498071fd61a7c/runtime/selection/exec_client.go",
    ),
    (
        "runtime/tools/server_executor.go",
        "https://github.com/AltairaLabs/PromptKit/blob/86d9f367e71627ae8dfdca6f8de498071fd61a7c/runtime/tools/server_executor.go",
    ),
];

/// Standards the catalogue cites by section: (citation, URL of that section).
const STANDARDS: &[(&str, &str)] = &[
    ("JSON-RPC 2.0 §5.1", "https://www.jsonrpc.org/specification#error_object"),
    ("JSON-RPC 2.0 §5", "https://www.jsonrpc.org/specification#response_object"),
    ("JSON-RPC 2.0 §4", "https://www.jsonrpc.org/specification#request_object"),
    ("RFC 8259 §8.1", "https://www.rfc-editor.org/rfc/rfc8259#section-8.1"),
];

/// The upstream links of every document `spec` cites, in order: protocol documents at their section,
/// runtime source files at the profile's commit, standards at their section.
pub fn links(spec: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |link: String| {
        if !out.contains(&link) {
            out.push(link);
        }
    };
    for part in spec.split("; ") {
        for (path, url) in SOURCES {
            if part.contains(path) {
                push(url.to_string());
            }
        }
        // The longest citation first: `§5.1` is not `§5`.
        if let Some((_, url)) = STANDARDS.iter().find(|(cited, _)| part.contains(cited)) {
            push(url.to_string());
        }
        for up in UPSTREAM {
            let Some(at) = part.find(up.document) else { continue };
            let rest = &part[at + up.document.len()..];
            let anchor = rest.strip_prefix('#').map(anchor_of);
            let link = match anchor {
                None | Some("") => up.url.to_string(),
                Some(a) => match up.anchors.iter().find(|(cited, _)| *cited == a) {
                    Some((_, upstream)) => format!("{}#{upstream}", up.url),
                    // An anchor nobody checked upstream: the document, not a guess at its section.
                    None => up.url.to_string(),
                },
            };
            push(link);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CATALOGUE;

    #[test]
    fn every_cited_document_links_upstream_at_a_checked_section() {
        for c in CATALOGUE {
            let cited: Vec<&str> = c.spec.split("; ").filter(|p| UPSTREAM.iter().any(|u| p.contains(u.document))).collect();
            for part in cited {
                let up = UPSTREAM.iter().find(|u| part.contains(u.document)).unwrap();
                if let Some(anchor) = part.split_once('#').map(|(_, a)| anchor_of(a)) {
                    assert!(
                        up.anchors.iter().any(|(cited, _)| *cited == anchor),
                        "{}: `{part}` cites #{anchor}, not checked upstream: add it to UPSTREAM",
                        c.id
                    );
                }
                assert!(!links(part).is_empty(), "{}: `{part}` has no link", c.id);
            }
        }
    }

    #[test]
    fn a_renamed_section_links_to_its_upstream_name() {
        assert_eq!(
            links("picoclaw-hook-protocol.md#7-hookevent-notification"),
            [
                "https://github.com/sipeed/picoclaw/blob/cf67dd3851e7926bf04ea9016c2e61248f9f614e/docs/architecture/hooks/hook-json-protocol.md#7-hookruntime_event-notification"
            ]
        );
        let both = links("promptkit-exec-protocol.txt#one-shot-mode; runok-extension-protocol.txt#response");
        assert!(both[0].ends_with("exec-protocol.md#one-shot-mode") && both[1].ends_with("extensions/protocol.md#response"), "{both:?}");
        assert!(links("research promptkit.md §1.8").is_empty());
        assert_eq!(links("JSON-RPC 2.0 §5.1 (-32601 Method not found)"), ["https://www.jsonrpc.org/specification#error_object"]);
        assert_eq!(
            links("picoclaw@cf67dd3 pkg/agent/hook_process.go: 1 MiB line buffer"),
            ["https://github.com/sipeed/picoclaw/blob/cf67dd3851e7926bf04ea9016c2e61248f9f614e/pkg/agent/hook_process.go"]
        );
    }

    #[test]
    fn a_shared_check_cites_only_the_families_own_document() {
        let version = crate::check::lookup("JSONRPC-VERSION").unwrap().spec;
        assert_eq!(spec_for(version, Family::PicoclawHook), "picoclaw-hook-protocol.md#basic-protocol-structure; JSON-RPC 2.0 §5");
        assert_eq!(spec_for(version, Family::RunokExtension), "runok-extension-protocol.txt#response; JSON-RPC 2.0 §5");
        assert_eq!(spec_for(version, Family::PromptkitServer), "JSON-RPC 2.0 §5");
    }

    #[test]
    fn every_check_cites_something_and_no_other_familys_document_for_each_of_its_families() {
        for c in CATALOGUE {
            for &family in c.families {
                let shown = spec_for(c.spec, family);
                assert!(!shown.trim().is_empty(), "{} cites nothing for {family}", c.id);
                for other in Family::ALL.iter().map(|f| f.document()).filter(|d| *d != family.document()) {
                    assert!(!shown.contains(other), "{} cites {other} in a {family} report: {shown}", c.id);
                }
            }
        }
    }
}
