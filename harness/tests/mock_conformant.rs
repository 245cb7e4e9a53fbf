//! The well-behaved mock plugin is conformant for every family, role and
//! profile: the baseline every bite row's failing run departs from.

mod common;

use common::{certify_json, mock, problems};
use proctor_conformance::protocol::Family;

#[test]
fn well_behaved_mock_is_conformant_everywhere() {
    // The mock plugin plays the JSON protocols; command hooks are scripts (examples.rs, catalogue_bites.rs).
    for family in Family::ALL.into_iter().filter(|f| !f.is_agent_hook()) {
        let roles: Vec<&str> = match family {
            Family::PromptkitExec => family.roles().iter().map(|r| r.name()).collect(),
            _ => vec![""],
        };
        for role in roles {
            let mut flags = vec!["--protocol", family.name()];
            let mut plugin_flags = vec![];
            if !role.is_empty() {
                flags.extend(["--role", role]);
                plugin_flags.extend(["--role", role]);
            }
            let (code, report, _) = certify_json(&flags, &mock(family.name(), &plugin_flags));
            assert_eq!(report["verdict"], "conformant", "{family} {role}:\n{}", problems(&report));
            assert_eq!(code, 0);
            assert_eq!(report["summary"]["warnings"], 0, "{family} {role}:\n{}", problems(&report));
        }
    }
}
