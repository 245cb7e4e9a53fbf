//! `proctor checks`: the catalogue, the divergences each profile encodes, and
//! the documented rules each runtime does not enforce (its tolerances).

use std::process::ExitCode;

use proctor_conformance::check::tolerance::{TOLERANCES, Tolerance};
use proctor_conformance::check::{CATALOGUE, CheckDef};
use proctor_conformance::protocol::{Family, Profile};
use serde_json::json;

use super::ChecksArgs;
use crate::report::Format;

pub(super) fn run(args: ChecksArgs) -> anyhow::Result<ExitCode> {
    let families: Vec<Family> = args.protocol.map_or_else(|| Family::ALL.to_vec(), |f| vec![f]);
    let checks: Vec<&CheckDef> = CATALOGUE.iter().filter(|c| c.families.iter().any(|f| families.contains(f))).collect();
    let mut profiles: Vec<Profile> = families.iter().flat_map(|f| Profile::for_family(*f)).collect();
    profiles.sort();
    profiles.dedup();
    match args.format {
        Format::Json => {
            let profiles: Vec<_> = profiles
                .iter()
                .map(|p| json!({"name": p.name(), "divergences": p.divergences().collect::<Vec<_>>(), "tolerances": tolerances(*p)}))
                .collect();
            println!("{}", serde_json::to_string_pretty(&json!({"checks": checks, "profiles": profiles}))?);
        }
        _ => print_text(&checks, &profiles),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(checks: &[&CheckDef], profiles: &[Profile]) {
    println!("{} checks\n", checks.len());
    let mut group = None;
    for c in checks {
        if group != Some(c.group) {
            group = Some(c.group);
            println!("{}", c.group.title());
        }
        let level = format!("{:?}", c.level).to_lowercase();
        let families: Vec<&str> = c.families.iter().map(|f| f.name()).collect();
        println!("  {:<28} {:<6} {}", c.id, level, c.summary);
        println!("  {:<28} {:<6} families: {}", "", "", families.join(", "));
        println!("  {:<28} {:<6} spec: {}", "", "", c.spec);
        println!("  {:<28} {:<6} fix: {}", "", "", c.hint);
    }
    println!("\nProfiles");
    for p in profiles {
        let n = p.divergences().count();
        println!(
            "  {}{}",
            p.name(),
            if n == 0 { " (exactly the spec documents)".to_string() } else { format!(" ({n} divergences from the documents)") }
        );
        for d in p.divergences() {
            println!("    {:<40} {}", d.id, d.summary);
            println!("    {:<40} source: {}", "", d.source);
        }
        let tolerated = tolerances(*p);
        if !tolerated.is_empty() {
            println!("    documented rules {} does not enforce (a failure there is a warning under this profile):", p.name());
        }
        for t in tolerated {
            println!("    {:<40} {}: {}", t.id, t.check, t.runtime_does);
            println!("    {:<40} source: {}", "", t.source);
        }
    }
}

/// The documented rules `profile`'s runtime does not enforce.
fn tolerances(profile: Profile) -> Vec<&'static Tolerance> {
    TOLERANCES.iter().filter(|t| t.profile == profile).collect()
}
