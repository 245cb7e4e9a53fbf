//! A scenario's snapshot: where it lives, whether a run's transcript still
//! matches it, and writing it. `cargo test` writes and reviews snapshots
//! through insta; `proctor run` reads the same files here, and `proctor run
//! --update-snapshots` writes them byte for byte as insta does, so the two
//! never disagree about one scenario and a user without cargo can start one.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::record::Entry;

/// The snapshot of the scenario with `id` in `scenario_file`:
/// `snapshots/<id with / as __>.snap` beside the file.
pub fn path(scenario_file: &Path, id: &str) -> PathBuf {
    dir(scenario_file).join(format!("{}.snap", name(id)))
}

/// The folder holding the snapshots of the scenarios in `scenario_file`'s folder.
pub fn dir(scenario_file: &Path) -> PathBuf {
    scenario_file.parent().unwrap_or(Path::new(".")).join("snapshots")
}

/// The snapshot's name for a scenario id (insta's file stem).
pub fn name(id: &str) -> String {
    id.replace('/', "__")
}

/// What comparing a transcript with its snapshot found.
#[derive(Debug, PartialEq)]
pub enum Comparison {
    /// There is no snapshot for this scenario.
    Missing,
    /// The transcript is the one the snapshot holds.
    Matches,
    /// The transcript differs: a readable account of the first difference.
    Differs(String),
}

/// Compares `entries` with the snapshot at `path`. A snapshot that cannot be
/// read or parsed is an error: it judges nothing, and must be repaired.
pub fn compare(path: &Path, entries: &[Entry]) -> Result<Comparison, String> {
    let text = match proctor_input::read_to_string(path, proctor_input::MAX_BYTES) {
        Ok(text) => text,
        Err(proctor_input::InputError::Open { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Comparison::Missing);
        }
        Err(e) => return Err(format!("snapshot {e}")),
    };
    let malformed = |why: &str| {
        format!("the snapshot {} is malformed ({why})\nhint: delete it and run `cargo test` to record it again", path.display())
    };
    let body = body(&text).ok_or_else(|| malformed("no `---` header"))?;
    let expected: Value = serde_saphyr::from_str(body).map_err(|e| malformed(&e.to_string()))?;
    if let Some(why) = not_a_transcript(&expected) {
        return Err(malformed(why));
    }
    let got = serde_json::to_value(entries).map_err(|e| malformed(&e.to_string()))?;
    Ok(match first_difference(&expected, &got) {
        None => Comparison::Matches,
        Some(at) => Comparison::Differs(format!(
            "snapshot: the transcript differs from {} {at}\nhint: if the change is intended, record it again with `cargo test` and review it (`cargo insta review`)",
            path.display()
        )),
    })
}

/// The file insta's scenario harness (`harness/src/testing.rs`) names as a
/// snapshot's source: written the same here, so `cargo insta` sees no change.
const SOURCE: &str = "harness/src/testing.rs";

/// What writing a snapshot did.
#[derive(Debug, PartialEq)]
pub enum Written {
    /// There was none: it is new.
    New,
    /// It held another transcript: it holds this one now.
    Replaced,
    /// It already held this transcript: left as it was.
    Unchanged,
}

/// The header insta writes above a scenario's transcript (`---`, then its
/// metadata in insta's own YAML).
#[derive(serde::Serialize)]
struct Header<'a> {
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    input_file: String,
}

/// Writes the snapshot of the scenario in `scenario_file` (id `id`) to hold
/// `entries`, in insta's format (its YAML, its header), as `cargo test`
/// would accept it. A snapshot that already matches is left untouched.
pub fn write(scenario_file: &Path, id: &str, description: Option<&str>, entries: &[Entry]) -> Result<Written, String> {
    use insta::_macro_support::{SerializationFormat, serialize_value};
    let path = path(scenario_file, id);
    let was = match compare(&path, entries) {
        Ok(Comparison::Matches) => return Ok(Written::Unchanged),
        Ok(Comparison::Missing) => Written::New,
        Ok(Comparison::Differs(_)) | Err(_) => Written::Replaced,
    };
    // insta names the input file relative to the workspace, which `cargo test` runs from.
    let input_file = std::env::current_dir()
        .ok()
        .and_then(|cwd| scenario_file.strip_prefix(&cwd).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| scenario_file.to_path_buf());
    let header = Header { source: SOURCE, description, input_file: input_file.display().to_string().replace('\\', "/") };
    let text = format!(
        "---\n{}---\n{}\n",
        serialize_value(&header, SerializationFormat::Yaml),
        serialize_value(&entries, SerializationFormat::Yaml).trim_end()
    );
    std::fs::create_dir_all(dir(scenario_file)).map_err(|e| format!("cannot create {}: {e}", dir(scenario_file).display()))?;
    std::fs::write(&path, text).map_err(|e| format!("cannot write the snapshot {}: {e}", path.display()))?;
    Ok(was)
}

/// Why a snapshot's body compares nothing, if it does not: a run's transcript
/// is a list of entries, each on a channel. A header alone (or `[]`, a map, a
/// list of scalars) once compared equal to any run, so a scenario with no
/// `expect` passed having judged nothing.
fn not_a_transcript(expected: &Value) -> Option<&'static str> {
    let Some(entries) = expected.as_array() else {
        return Some("it holds no transcript, only its header: a snapshot must compare something");
    };
    if entries.is_empty() {
        return Some("its transcript has no entry: a snapshot must compare something");
    }
    let entry = |e: &Value| e.get("channel").is_some_and(Value::is_string) && e.get("kind").is_some_and(Value::is_string);
    (!entries.iter().all(entry)).then_some("an entry of its transcript has no `channel` and `kind`")
}

/// The YAML after insta's `---`-delimited header.
fn body(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("---\n")?;
    let end = rest.find("\n---\n")?;
    Some(&rest[end + "\n---\n".len()..])
}

/// Equal as insta writes them: its YAML drops a float's `.0` (`1.0` is `1`), so
/// numbers are equal by value.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, a)| y.get(k).is_some_and(|b| same(a, b))),
        _ => a == b,
    }
}

/// Where two transcripts first differ, said in the transcript's own terms.
fn first_difference(expected: &Value, got: &Value) -> Option<String> {
    let (want, have) = (expected.as_array()?, got.as_array()?);
    for (i, (w, h)) in want.iter().zip(have).enumerate() {
        if !same(w, h) {
            let what = |e: &Value| format!("{} {}: {}", e["channel"].as_str().unwrap_or("?"), e["kind"].as_str().unwrap_or("?"), e["body"]);
            return Some(format!("at entry {}:\n  expected {}\n  got      {}", i + 1, what(w), what(h)));
        }
    }
    match want.len().cmp(&have.len()) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(format!("after entry {}: the run has {} more entries", want.len(), have.len() - want.len())),
        std::cmp::Ordering::Greater => {
            Some(format!("after entry {}: the snapshot has {} more entries", have.len(), want.len() - have.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: &str, body: &str) -> Entry {
        Entry { channel: "plugin g".into(), kind: kind.into(), body: body.into() }
    }

    #[test]
    fn a_transcript_matches_its_snapshot_and_the_first_difference_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let snap = dir.path().join("t.snap");
        assert_eq!(compare(&snap, &[]), Ok(Comparison::Missing));
        std::fs::write(&snap, "---\nsource: x\n---\n- channel: plugin g\n  kind: stdout\n  body: \"{\\\"ok\\\":true}\\n\"\n").unwrap();
        assert_eq!(compare(&snap, &[entry("stdout", "{\"ok\":true}\n")]), Ok(Comparison::Matches));
        let Ok(Comparison::Differs(why)) = compare(&snap, &[entry("stdout", "{\"ok\":false}\n")]) else { panic!() };
        assert!(why.contains("at entry 1:") && why.contains("ok\\\":false"), "{why}");
        let Ok(Comparison::Differs(why)) = compare(&snap, &[entry("stdout", "{\"ok\":true}\n"), entry("stderr", "x")]) else { panic!() };
        assert!(why.contains("the run has 1 more entries"), "{why}");
        std::fs::write(&snap, "---\nsource: x\n---\n- {channel: e, kind: decision, body: {score: 1}}\n").unwrap();
        let score = |v: f64| Entry { channel: "e".into(), kind: "decision".into(), body: serde_json::json!({"score": v}) };
        assert_eq!(compare(&snap, &[score(1.0)]), Ok(Comparison::Matches), "insta writes 1.0 as 1");
        assert!(matches!(compare(&snap, &[score(0.5)]), Ok(Comparison::Differs(_))));
        std::fs::write(&snap, "no header").unwrap();
        assert!(compare(&snap, &[]).unwrap_err().contains("is malformed"));
    }

    #[test]
    fn a_snapshot_that_holds_no_transcript_compares_nothing_and_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let snap = dir.path().join("t.snap");
        let run = [entry("stdout", "{}\n")];
        for (body, why) in [
            ("", "holds no transcript"),
            ("~\n", "holds no transcript"),
            ("{}\n", "holds no transcript"),
            ("[]\n", "has no entry"),
            ("- 1\n- 2\n", "no `channel` and `kind`"),
        ] {
            std::fs::write(&snap, format!("---\nsource: x\n---\n{body}")).unwrap();
            let err = compare(&snap, &run).expect_err(body);
            assert!(err.contains("is malformed") && err.contains(why), "{body:?}: {err}");
        }
    }
}
