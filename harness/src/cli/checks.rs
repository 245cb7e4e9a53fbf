//! `proctor checks`: the catalogue, the divergences each profile encodes, and
//! the documented rules each runtime does not enforce (its tolerances).

use std::fmt::Write as _;
use std::process::ExitCode;

use proctor_conformance::check::grounds;
use proctor_conformance::check::tolerance::{TOLERANCES, Tolerance};
use proctor_conformance::check::{CATALOGUE, CheckDef, spec_links};
use proctor_conformance::protocol::timing::Timing;
use proctor_conformance::protocol::{Family, Profile};
use proctor_pack::rules::{RULES, Rule};
use serde_json::json;

use super::ChecksArgs;
use crate::report::Format;

pub(super) fn run(args: ChecksArgs) -> anyhow::Result<ExitCode> {
    let families: Vec<Family> = args.protocol.map_or_else(|| Family::ALL.to_vec(), |f| vec![f]);
    let checks: Vec<&CheckDef> = CATALOGUE.iter().filter(|c| c.families.iter().any(|f| families.contains(f))).collect();
    let mut profiles: Vec<Profile> = families.iter().flat_map(|f| Profile::for_family(*f)).collect();
    profiles.sort();
    profiles.dedup();
    // Pack rules belong to no wire family: listed when the whole catalogue is asked for.
    let pack_rules: &[Rule] = if args.protocol.is_none() { RULES } else { &[] };
    match args.format {
        Format::Json => {
            let profiles: Vec<_> = profiles
                .iter()
                .map(|p| json!({"name": p.name(), "aliases": p.aliases(), "provenance": p.provenance(), "compared_with": p.compared_with(), "divergences": p.divergences().collect::<Vec<_>>(), "tolerances": tolerances(*p), "deadlines": deadlines(*p).into_iter().map(|(f, roles, t)| json!({"family": f.name(), "roles": roles, "timing": t, "summary": t.summary()})).collect::<Vec<_>>()}))
                .collect();
            crate::output::emit(&format!(
                "{}\n",
                serde_json::to_string_pretty(&json!({"checks": with_links(&checks), "profiles": profiles, "pack_rules": pack_rules}))?
            ));
        }
        Format::Markdown => crate::output::emit(&(markdown(&checks) + &pack_markdown(pack_rules))),
        Format::Junit | Format::Html => {
            let name = args.format.name();
            return Err(super::UsageError(format!(
                "`proctor checks --format {name}`: the catalogue is not a test run; use text, json or markdown ({name} is for certify, verify and run)"
            ))
            .into());
        }
        Format::Text => crate::output::emit(&(text(&checks, &profiles) + &pack_text(pack_rules))),
    }
    Ok(ExitCode::SUCCESS)
}

/// The checks as JSON, each with `spec_links`: its cited documents upstream, at the profile's version,
/// and `grounds`: why each runtime profile it is judged under cares.
fn with_links(checks: &[&CheckDef]) -> Vec<serde_json::Value> {
    checks
        .iter()
        .map(|c| {
            let mut value = json!(c);
            value["spec_links"] = json!(spec_links(c.spec));
            value["grounds"] = runtime_grounds(c).into_iter().map(|(profile, why)| (profile.name().to_string(), json!(why))).collect();
            value
        })
        .collect()
}

/// Why each runtime profile a check is judged under cares about it (`proctor_conformance::check::grounds`).
fn runtime_grounds(c: &CheckDef) -> Vec<(Profile, String)> {
    let mut out: Vec<(Profile, String)> = Vec::new();
    for &family in c.families {
        for &profile in Profile::for_family(family).iter().filter(|p| **p != Profile::Documented) {
            if out.iter().any(|(p, _)| *p == profile) {
                continue;
            }
            let why = grounds::ground(c, family, profile).unwrap_or_else(|| "none on record".to_string());
            out.push((profile, why));
        }
    }
    out
}

/// The catalogue as a Markdown table, for docs and job summaries.
fn markdown(checks: &[&CheckDef]) -> String {
    let mut out = format!(
        "## proctor check catalogue ({} checks)\n\n| id | group | level | families | what it checks | spec |\n|---|---|---|---|---|---|\n",
        checks.len()
    );
    let cell = |s: &str| s.replace('|', "\\|");
    for c in checks {
        let families: Vec<&str> = c.families.iter().map(|f| f.name()).collect();
        let _ = writeln!(
            out,
            "| `{}` | {} | {:?} | {} | {} | {} |",
            c.id,
            c.group.title(),
            c.level,
            families.join(", "),
            cell(c.summary),
            cell(&spec_cell(c.spec))
        );
    }
    out
}

/// The spec citation with a Markdown link to each document it cites upstream.
fn spec_cell(spec: &str) -> String {
    let links: Vec<String> = spec_links(spec).iter().enumerate().map(|(i, url)| format!("[{}]({url})", i + 1)).collect();
    if links.is_empty() { spec.to_string() } else { format!("{spec} ({})", links.join(" ")) }
}

fn text(checks: &[&CheckDef], profiles: &[Profile]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} checks\n", checks.len());
    let mut group = None;
    for c in checks {
        if group != Some(c.group) {
            group = Some(c.group);
            let _ = writeln!(out, "{}", c.group.title());
        }
        let level = format!("{:?}", c.level).to_lowercase();
        let families: Vec<&str> = c.families.iter().map(|f| f.name()).collect();
        let _ = writeln!(out, "  {:<28} {:<6} {}", c.id, level, c.summary);
        let _ = writeln!(out, "  {:<28} {:<6} families: {}", "", "", families.join(", "));
        let _ = writeln!(out, "  {:<28} {:<6} spec: {}", "", "", c.spec);
        for link in spec_links(c.spec) {
            let _ = writeln!(out, "  {:<28} {:<6}       {link}", "", "");
        }
        let _ = writeln!(out, "  {:<28} {:<6} fix: {}", "", "", c.hint);
        // Why each runtime cares, where that is not the citation above.
        for (profile, why) in runtime_grounds(c) {
            if !why.starts_with("cited:") {
                let _ = writeln!(out, "  {:<28} {:<6} under {profile}: {why}", "", "");
            }
        }
    }
    let _ = writeln!(out, "\nProfiles");
    for p in profiles {
        let n = p.divergences().count();
        let _ = writeln!(
            out,
            "  {}{}",
            p.name(),
            if n == 0 { " (exactly the spec documents)".to_string() } else { format!(" ({n} divergences from the documents)") }
        );
        let _ = writeln!(out, "    {}", p.provenance());
        if !p.aliases().is_empty() {
            let _ = writeln!(out, "    also named: {}", p.aliases().join(", "));
        }
        let _ = writeln!(out, "    compared with: {}", p.compared_with());
        for d in p.divergences() {
            let _ = writeln!(out, "    {:<40} {}", d.id, d.summary);
            let _ = writeln!(out, "    {:<40} source: {}", "", d.source);
        }
        let _ = writeln!(out, "    deadlines (what it waits for, and how long; --timeout-ms replaces the request's):");
        for (family, roles, timing) in deadlines(*p) {
            let _ = writeln!(out, "    {:<40} {}", format!("{family} {roles}"), timing.summary());
            let _ = writeln!(out, "    {:<40} request: {}", "", timing.request.source);
            if timing.startup.source != timing.request.source {
                let _ = writeln!(out, "    {:<40} start-up: {}", "", timing.startup.source);
            }
        }
        let tolerated = tolerances(*p);
        if !tolerated.is_empty() {
            let _ = writeln!(out, "    documented rules {} does not enforce (a failure there is a warning under this profile):", p.name());
        }
        for t in tolerated {
            let _ = writeln!(out, "    {:<40} {}: {}", t.id, t.check, t.runtime_does);
            let _ = writeln!(out, "    {:<40} source: {}", "", t.source);
        }
    }
    out
}

/// The deadlines `profile` plays for each family it covers, roles with the same timing together.
fn deadlines(profile: Profile) -> Vec<(Family, String, Timing)> {
    let mut out: Vec<(Family, Vec<&str>, Timing)> = Vec::new();
    for family in Family::ALL.into_iter().filter(|f| Profile::for_family(*f).contains(&profile)) {
        // An agent's hooks all share its timing: one line, not one per event.
        let roles: &[_] = if family.is_agent_hook() { &family.roles()[..1] } else { family.roles() };
        for &role in roles {
            let timing = profile.timing(family, role);
            let name = if family.is_agent_hook() { "every event" } else { role.name() };
            match out.iter_mut().find(|(f, _, t)| *f == family && *t == timing) {
                Some((_, names, _)) => names.push(name),
                None => out.push((family, vec![name], timing)),
            }
        }
    }
    out.into_iter().map(|(f, names, t)| (f, names.join(","), t)).collect()
}

/// The documented rules `profile`'s runtime does not enforce.
fn tolerances(profile: Profile) -> Vec<&'static Tolerance> {
    TOLERANCES.iter().filter(|t| t.profile == profile).collect()
}

/// The PromptPack rules of `proctor pack check`.
fn pack_text(rules: &[Rule]) -> String {
    if rules.is_empty() {
        return String::new();
    }
    let mut out = format!("\nPromptPack rules (proctor pack check; {} rules, severity set per profile)\n", rules.len());
    for r in rules {
        let _ = writeln!(out, "  {:<30} {}", r.id, r.title);
        let _ = writeln!(out, "  {:<30} source: {}", "", r.source);
    }
    out
}

fn pack_markdown(rules: &[Rule]) -> String {
    if rules.is_empty() {
        return String::new();
    }
    let mut out = format!("\n## PromptPack rules ({} rules)\n\n| id | what it finds | source |\n|---|---|---|\n", rules.len());
    for r in rules {
        let _ = writeln!(out, "| `{}` | {} | {} |", r.id, r.title.replace('|', "\\|"), r.source.replace('|', "\\|"));
    }
    out
}
