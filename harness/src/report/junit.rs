//! JUnit XML: one test suite per profile, one test case per check result.
//! A `should` failure is a passing test case with the warning in
//! system-out, so CI dashboards agree with the verdict.

use proctor_conformance::certify::Report;
use proctor_conformance::check::Status;
use quick_junit::{NonSuccessKind, Property, Report as Junit, TestCase, TestCaseStatus, TestSuite};

/// Renders the JUnit report.
pub fn render(report: &Report) -> String {
    render_many(&report.title.clone().unwrap_or_else(|| format!("proctor certify {}", report.protocol)), &[report], &[])
}

/// Several certifications (the plugins of one RuntimeConfig) as one JUnit document; each report's
/// suites are named by its title when it has one.
/// `errors` are the plugins that could not be judged (name, why), each an errored test case.
pub fn render_many(title: &str, reports: &[&Report], errors: &[(String, String)]) -> String {
    let mut junit = Junit::new(title);
    for report in reports {
        junit.add_test_suites(suites(report, reports.len() + errors.len() > 1));
    }
    if !errors.is_empty() {
        let mut suite = TestSuite::new("could not be judged");
        for (name, why) in errors {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
            status.set_message(why.clone());
            suite.add_test_case(TestCase::new(name.clone(), status));
        }
        junit.add_test_suite(suite);
    }
    super::xml_safe(&junit.to_string().unwrap_or_else(|e| format!("<!-- cannot render JUnit: {e} -->\n")))
}

fn suites(report: &Report, named: bool) -> Vec<TestSuite> {
    let mut suites = Vec::new();
    let subject = match (&report.title, named) {
        (Some(title), true) => format!("{title} {}", report.protocol),
        _ => report.protocol.to_string(),
    };
    for profile in &report.profiles {
        let mut suite = TestSuite::new(format!("{subject} [{profile}]"));
        if let Some((_, verdict)) = report.profile_verdicts.iter().find(|(p, _)| p == profile) {
            let word = verdict.name();
            suite.add_property(Property::new("verdict", word));
            // Green only because of a baseline is not a clean pass: a dashboard can tell.
            let accepted = report.accepted(Some(profile)).len();
            if accepted > 0 {
                suite.add_property(Property::new("accepted_failures", accepted.to_string()));
            }
        }
        for c in report.checks.iter().filter(|c| &c.profile == profile) {
            let name = match &c.case {
                Some(case) => format!("{} [{case}]", c.id),
                None => c.id.to_string(),
            };
            let status = match c.status {
                Status::Pass | Status::Warn => TestCaseStatus::success(),
                // Could not run because another check failed: an error, not a
                // failure of its own, so a dashboard counts the cause once.
                Status::Untestable => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                    s.set_message(c.message.clone()).set_type("untestable");
                    s
                }
                Status::Skip | Status::ExpectedFailure => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(c.message.clone());
                    s
                }
                Status::Fail => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(c.message.clone()).set_type(format!("{:?}", c.group).to_lowercase());
                    let mut desc = String::new();
                    if let Some(sent) = &c.evidence.sent {
                        desc.push_str(&format!("sent: {sent}\n"));
                    }
                    if let Some(received) = &c.evidence.received {
                        desc.push_str(&format!("received: {received}\n"));
                    }
                    if let Some(stderr) = &c.evidence.stderr_tail {
                        desc.push_str(&format!("stderr: {stderr}\n"));
                    }
                    if let Some(hint) = c.hint {
                        desc.push_str(&format!("hint: {hint}\nspec: {}\n", c.spec));
                    }
                    s.set_description(desc);
                    s
                }
            };
            let mut case = TestCase::new(name, status);
            case.set_classname(format!("{}.{profile}", report.protocol));
            if c.status == Status::Warn {
                case.set_system_out(format!("warning: {}\nhint: {}", c.message, c.hint.unwrap_or("")));
            }
            suite.add_test_case(case);
        }
        suites.push(suite);
    }
    suites
}
