//! The HTML pages from hand-built data: what must be on them, and what must never get onto them.

use proctor_conformance::certify::{CheckResult, Report};
use proctor_conformance::check::{CATALOGUE, Evidence, Failure, Outcome, Status};
use proctor_pack::{Diagnostic, PackReport, Severity};

use crate::record::Transcript;
use crate::runner::RunResult;

/// What a hostile plugin writes: markup that closes the evidence block and opens a script, and a
/// right-to-left override that would reorder the text around it.
const HOSTILE: &str = "</pre><script>alert(1)</script><img src=x onerror=alert(2)>\u{202e}'\"&";
const HOSTILE_ESCAPED: &str =
    "&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;\\u{202e}&#39;&quot;&amp;";
const PROFILES: [&str; 2] = ["documented", "picoclaw@cf67dd3"];

fn result(id: &str, profile: &str, outcome: Outcome) -> CheckResult {
    let def = CATALOGUE.iter().find(|d| d.id == id).expect("a catalogue id");
    let evidence = match outcome {
        Outcome::Pass => Evidence::default(),
        _ => Evidence::exchange(b"{\"jsonrpc\":\"2.0\",\"id\":1}\n", HOSTILE.as_bytes()).with_stderr(format!("stderr says {HOSTILE}")),
    };
    CheckResult::new(def, profile, None, outcome, evidence)
}

fn mismatch() -> Outcome {
    Outcome::Fail { failure: Failure::Mismatch { path: "$.id".into(), expected: "1".into(), actual: HOSTILE.into() } }
}

/// A two-profile report: JSONRPC-ID-ECHO fails under both (the runtime's failure accepted by a
/// baseline), JSONRPC-VERSION passes, FRAMING-COMPACT fails only under the documented profile.
fn report() -> Report {
    let checks = vec![
        result("JSONRPC-ID-ECHO", PROFILES[0], mismatch()),
        result("JSONRPC-VERSION", PROFILES[0], Outcome::Pass),
        result("FRAMING-COMPACT", PROFILES[0], mismatch()),
        result("JSONRPC-ID-ECHO", PROFILES[1], mismatch()),
        result("JSONRPC-VERSION", PROFILES[1], Outcome::Pass),
        result("FRAMING-COMPACT", PROFILES[1], Outcome::Pass),
    ];
    let command = vec!["sh".to_string(), "-c".to_string(), HOSTILE.to_string()];
    let mut report = Report::new("picoclaw-hook".into(), None, PROFILES.map(String::from).to_vec(), command, checks).with_exchanges(7);
    report.checks[3].status = Status::ExpectedFailure;
    report.recount();
    report
}

/// The `<td>` of `check` in the matrix row for it, column `profile` (0-based).
fn matrix_cell(page: &str, check: &str, profile: usize) -> String {
    let matrix = &page[page.find("<table class=\"matrix\">").expect("a matrix")..];
    let row = &matrix[matrix.find(&format!("<tr data-check=\"{check}\">")).unwrap_or_else(|| panic!("no row for {check}"))..];
    let row = &row[..row.find("</tr>").expect("row end")];
    row.split("<td").nth(2 + profile).unwrap_or_else(|| panic!("no cell {profile} in {row}")).to_string()
}

#[test]
fn plugin_text_is_escaped_everywhere_and_only_proctors_script_is_on_the_page() {
    let page = super::certify(&report());
    assert_eq!(page.matches("<script").count(), 1, "one script element, proctor's own");
    assert!(!page.contains("<img"), "a plugin's markup became an element");
    assert!(!page.contains('\u{202e}'), "a bidi override reached the page unescaped");
    // In the command line, the evidence (sent, received, stderr) and the failure message.
    assert!(page.matches(HOSTILE_ESCAPED).count() >= 4, "the hostile text is not shown escaped:\n{page}");
}

#[test]
fn the_verdicts_and_every_check_id_are_on_the_page() {
    let report = report();
    let page = super::certify(&report);
    assert!(page.contains("data-verdict=\"nonconformant\""));
    assert!(page.contains("<li data-profile=\"documented\"><code>documented</code> <span class=\"s s-nonconformant\">"));
    assert!(page.contains("<li data-profile=\"picoclaw@cf67dd3\"><code>picoclaw@cf67dd3</code> <span class=\"s s-conformant\">"));
    assert!(page.contains("<dd class=\"exchanges\">7</dd>"));
    for c in &report.checks {
        assert!(page.contains(&format!("<tr data-check=\"{}\">", c.id)), "{} has no matrix row", c.id);
    }
}

#[test]
fn a_failing_cell_links_to_its_evidence_and_an_accepted_failure_is_marked_as_such() {
    let page = super::certify(&report());
    let failing = matrix_cell(&page, "JSONRPC-ID-ECHO", 0);
    assert!(failing.contains("data-status=\"fail\"") && failing.contains("href=\"#f0\"") && failing.contains("✗</span> fail"), "{failing}");
    assert!(page.contains("data-accepted=\"1\""), "the verdict line counts the accepted failure");
    let accepted = matrix_cell(&page, "JSONRPC-ID-ECHO", 1);
    assert!(accepted.contains("data-status=\"expected_failure\"") && accepted.contains("expected failure"), "{accepted}");
    assert!(matrix_cell(&page, "JSONRPC-VERSION", 1).contains("✓</span> pass"));
    let details = &page[page.find("<details class=\"problem\" id=\"f0\"").expect("the failure's details")..];
    let details = &details[..details.find("</details>").expect("details end")];
    for part in [
        "data-kind=\"sent\">{&quot;jsonrpc&quot;:&quot;2.0&quot;,&quot;id&quot;:1}⏎</pre>",
        &format!("data-kind=\"received\">{HOSTILE_ESCAPED} (no trailing newline)</pre>"),
        &format!("data-kind=\"stderr\">stderr says {HOSTILE_ESCAPED} (no trailing newline)</pre>"),
        "<p class=\"hint\">",
        "<p class=\"spec\"><code>",
    ] {
        assert!(details.contains(part), "the evidence lacks {part}:\n{details}");
    }
}

#[test]
fn the_divergence_view_lists_exactly_the_checks_whose_outcome_differs() {
    let page = super::certify(&report());
    let view = &page[page.find("<table class=\"divergence\">").expect("a divergence table")..];
    let view = &view[..view.find("</table>").expect("table end")];
    assert!(view.contains("<tr data-check=\"JSONRPC-ID-ECHO\">"), "fail vs expected failure differs");
    assert!(view.contains("<tr data-check=\"FRAMING-COMPACT\">"), "warn vs pass differs");
    assert!(!view.contains("JSONRPC-VERSION"), "a check passing everywhere does not diverge");
}

#[test]
fn every_result_is_in_exactly_one_matrix_cell() {
    let report = report();
    let rows = crate::report::matrix::rows(&report);
    let mut seen: Vec<usize> = rows.iter().flat_map(|r| r.cells.iter().flatten().map(|(i, _)| *i)).collect();
    seen.sort();
    assert_eq!(seen, (0..report.checks.len()).collect::<Vec<_>>());
    assert_eq!(rows.len(), 3);
}

#[test]
fn a_scenario_shows_its_status_problems_and_transcript_escaped() {
    let mut transcript = Transcript::default();
    transcript.push("plugin gate", "stdout", HOSTILE);
    let failed = RunResult {
        id: "gate-denies".into(),
        file: Some(format!("scenarios/{HOSTILE}.yaml")),
        unusable: false,
        expected_failure: None,
        snapshot_update: None,
        problems: vec![format!("expected deny, got {HOSTILE}")],
        summary: Default::default(),
        transcript,
    };
    let passed = RunResult { id: "gate-allows".into(), problems: Vec::new(), ..failed.clone() };
    let page = super::scenarios(&[failed, passed], &[], &[]);
    assert_eq!(page.matches("<script").count(), 1);
    assert!(page.contains("data-verdict=\"fail\""));
    assert!(page.contains("<details class=\"scenario\" id=\"s0\" data-status=\"fail\" open>"));
    assert!(page.contains("<details class=\"scenario\" id=\"s1\" data-status=\"pass\">"));
    assert!(page.contains(&format!("<li>expected deny, got {HOSTILE_ESCAPED}</li>")));
    assert!(page.contains(&format!("<td>plugin gate</td><td>stdout</td><td class=\"body mono\">{HOSTILE_ESCAPED}</td>")));
}

#[test]
fn a_pack_shows_each_diagnostic_at_its_place_per_profile() {
    let diagnostic = Diagnostic {
        path: "/prompts/triage".into(),
        line: 12,
        column: 5,
        severity: Severity::Error,
        rule: "PACK-DUPLICATE-KEY",
        message: format!("bad {HOSTILE}"),
        fix: "rename it".into(),
    };
    let file = format!("{HOSTILE}.pack.json");
    let reports = [
        PackReport { file: file.clone(), profile: "documented".into(), valid: false, diagnostics: vec![diagnostic] },
        PackReport { file: file.clone(), profile: "promptkit@86d9f36".into(), valid: true, diagnostics: Vec::new() },
    ];
    let page = super::packs(&reports, &[], &[]);
    assert_eq!(page.matches("<script").count(), 1);
    assert!(page.contains("data-verdict=\"invalid\""));
    assert!(page.contains(&format!("<code class=\"location\">{HOSTILE_ESCAPED}.pack.json:12:5</code>")));
    assert!(page.contains("<tr data-rule=\"PACK-DUPLICATE-KEY\">"));
    assert!(page.contains(&format!("bad {HOSTILE_ESCAPED}<br>")));
    assert!(page.contains("<td data-status=\"valid\"><a href=\"#k1\">"));
}

#[test]
fn the_pack_grid_names_a_pack_from_the_folder_given_and_keeps_its_whole_path_in_reach() {
    let reports = [PackReport {
        file: "examples/promptpack/agents.pack.json".into(),
        profile: "documented".into(),
        valid: true,
        diagnostics: Vec::new(),
    }];
    let page = super::packs(&reports, &[], &["examples/promptpack/".to_string()]);
    assert!(page.contains("<th scope=\"row\" title=\"examples/promptpack/agents.pack.json\"><code>agents.pack.json</code></th>"), "{page}");
    let page = super::packs(&reports, &[], &["examples/promptpack/agents.pack.json".to_string()]);
    assert!(page.contains("<code>examples/promptpack/agents.pack.json</code></th>"), "a file given by name keeps its name");
}

/// FRAMING-FLUSHED fails under one profile and keeps two checks from being tested.
fn blocked_report() -> Report {
    let untestable = || Outcome::Untestable { blocked_by: Some("FRAMING-FLUSHED"), reason: "no reply arrived".into() };
    let checks = vec![
        result("FRAMING-FLUSHED", PROFILES[0], mismatch()),
        result("JSONRPC-VERSION", PROFILES[0], untestable()),
        result("JSONRPC-ID-ECHO", PROFILES[0], untestable()),
    ];
    Report::new("picoclaw-hook".into(), None, vec![PROFILES[0].to_string()], vec!["plugin".into()], checks)
}

#[test]
fn untestable_checks_are_listed_under_the_failure_that_blocked_them_without_their_own_fix() {
    let page = super::certify(&blocked_report());
    assert!(
        page.contains("<details class=\"problem\" id=\"f0\" data-check=\"FRAMING-FLUSHED\" data-profile=\"documented\" open>"),
        "{page}"
    );
    assert_eq!(page.matches("<details class=\"problem\"").count(), 1, "an untestable check got an entry of its own:\n{page}");
    assert!(
        page.contains(
            "<p>2 checks could not be tested under <code>documented</code> because <a href=\"#f0\">FRAMING-FLUSHED</a> failed:</p>"
        ),
        "{page}"
    );
    for (i, id) in [(1, "JSONRPC-VERSION"), (2, "JSONRPC-ID-ECHO")] {
        assert!(page.contains(&format!("<li id=\"f{i}\" tabindex=\"-1\" data-check=\"{id}\"")), "{id} has no anchor:\n{page}");
        let hint = CATALOGUE.iter().find(|d| d.id == id).unwrap().hint;
        assert!(!page.contains(&text_of(hint)), "{id}'s unrelated fix is shown:\n{page}");
        // Its matrix cell leads to it.
        assert!(matrix_cell(&page, id, 0).contains(&format!("href=\"#f{i}\"")));
    }
}

/// `s` as the page writes text.
fn text_of(s: &str) -> String {
    super::page::text(s)
}

#[test]
fn counts_read_as_words_one_and_many_never_with_a_parenthesised_s() {
    let diagnostic =
        |severity| Diagnostic { path: String::new(), line: 1, column: 1, severity, rule: "PACK-X", message: "m".into(), fix: "f".into() };
    let one = [PackReport {
        file: "a.pack.json".into(),
        profile: "documented".into(),
        valid: false,
        diagnostics: vec![diagnostic(Severity::Error)],
    }];
    let page = super::packs(&one, &[], &[]);
    assert!(page.contains("<span>1 pack under 1 profile: 0 of 1 verdict valid; 0 files could not be read</span>"), "{page}");
    assert!(page.contains(": 1 error, 0 warnings</summary>"), "{page}");
    let two = [PackReport {
        diagnostics: vec![diagnostic(Severity::Error), diagnostic(Severity::Error), diagnostic(Severity::Warning)],
        ..one[0].clone()
    }];
    assert!(super::packs(&two, &[], &[]).contains(": 2 errors, 1 warning</summary>"));

    let page = super::certify(&report());
    assert!(page.contains("Checks by profile (3 checks, 2 profiles)"), "{page}");
    assert!(page.contains("<p>2 checks end differently depending on the profile"), "{page}");
    let page = super::certify(&blocked_report());
    assert!(page.contains("Checks by profile (3 checks, 1 profile)"), "{page}");
    for page in [super::certify(&report()), super::certify(&blocked_report()), super::packs(&two, &[], &[])] {
        assert!(!page.contains("(s)"), "{page}");
    }
}

#[test]
fn a_check_shared_by_families_cites_only_the_reports_familys_document() {
    let checks = vec![result("JSONRPC-VERSION", PROFILES[0], mismatch())];
    let report = Report::new("picoclaw-hook".into(), None, vec![PROFILES[0].to_string()], vec!["plugin".into()], checks);
    let page = super::certify(&report);
    assert!(
        page.contains("<p class=\"spec\"><code>picoclaw-hook-protocol.md#basic-protocol-structure; JSON-RPC 2.0 §5</code></p>"),
        "{page}"
    );
    assert!(!page.contains("runok-extension-protocol.txt"), "a PicoClaw report cites the runok document:\n{page}");
}
