//! `--fuzz N`: requests generated from the tool's JSON Schema parameters.
//!
//! Built-in probes send a handful of tidy arguments; real LLMs send quotes,
//! newlines, emoji, empty strings and boundary numbers, and plugins crash on
//! them. This sends N schema-valid argument objects (proptest, from a fixed
//! seed so a run can be repeated exactly) as the family's real tool request,
//! and checks one protocol-level property for each: an answer within the
//! deadline, well framed, with the right id and a body the family allows.
//! The first input that breaks it is shrunk with proptest's shrinking to a
//! minimal one and printed as a `--cases` entry, ready to paste as a
//! regression test.

mod case;
pub mod schema;
mod target;
pub mod validate;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::Value;

use crate::check::{CheckId, Evidence, Failure, Outcome, lookup};
use crate::protocol::{Family, Profile, Role};

use super::recorder::Recorder;
use super::{CertifyError, CheckResult, Options};
pub use schema::SchemaError;
use target::{Driver, Trial};

/// The catalogue id of the fuzz check.
pub const CHECK: CheckId = "ROBUST-FUZZ";
/// The seed when `--fuzz-seed` is not given: fixed, so two runs agree.
pub const DEFAULT_SEED: u64 = 1;
/// Most plugin runs spent shrinking one failure.
const MAX_SHRINK_RUNS: u32 = 400;
/// Most time spent shrinking one failure (a hang costs a deadline per try).
const SHRINK_BUDGET: Duration = Duration::from_secs(60);
/// Name used for the tool when the schema file does not name one.
const DEFAULT_TOOL: &str = "fuzzed_tool";

/// What to fuzz with.
#[derive(Debug, Clone)]
pub struct Fuzz {
    /// Inputs per profile.
    pub inputs: u32,
    /// Seed of the generator.
    pub seed: u64,
    /// The tool's parameters.
    pub tool: ToolSchema,
}

/// A tool's name and the JSON Schema of its parameters.
#[derive(Debug, Clone)]
pub struct ToolSchema {
    /// Tool name (PicoClaw's `tool`, a tool hook's `name`).
    pub name: String,
    /// The parameters schema (its own root for `$ref`).
    pub parameters: Value,
}

/// `--schema` could not be used.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    /// The file could not be read (missing, a folder or a device, too large, not UTF-8).
    #[error("schema file {0}")]
    Read(#[from] proctor_input::InputError),
    /// Neither JSON nor YAML, or not a schema the generator can use.
    #[error(
        "{path}: {problem}\nhint: --schema takes the JSON Schema of the tool's parameters (JSON or YAML), or a tool descriptor holding it: {{name, parameters}} (PromptPack), {{type: function, function: {{name, parameters}}}} (OpenAI) or {{name, input_schema}}"
    )]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
}

impl ToolSchema {
    /// Reads a schema file: a bare parameters schema or a tool descriptor,
    /// in JSON or YAML; checks the generator can use it.
    pub fn load(path: &Path) -> Result<ToolSchema, FuzzError> {
        let text = proctor_input::read_to_string(path, proctor_input::MAX_BYTES)?;
        let invalid = |problem: String| FuzzError::Invalid { path: path.to_path_buf(), problem };
        let doc: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(json) => serde_saphyr::from_str(&text).map_err(|yaml| invalid(format!("neither JSON ({json}) nor YAML ({yaml})")))?,
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).map(|s| s.split('.').next().unwrap_or(s).to_string());
        let tool = ToolSchema::from_document(doc, stem.as_deref());
        tool.check().map_err(|e| invalid(e.to_string()))?;
        Ok(tool)
    }

    /// Takes the parameters out of a tool descriptor, or the document itself.
    pub fn from_document(doc: Value, fallback_name: Option<&str>) -> ToolSchema {
        let name_of = |v: &Value| v.get("name").and_then(Value::as_str).map(String::from);
        let fallback = || fallback_name.filter(|n| !n.is_empty()).unwrap_or(DEFAULT_TOOL).to_string();
        if let Some(function) = doc.get("function").filter(|f| f.get("parameters").is_some()) {
            return ToolSchema { name: name_of(function).unwrap_or_else(fallback), parameters: function["parameters"].clone() };
        }
        for key in ["parameters", "input_schema", "inputSchema"] {
            if let Some(p) = doc.get(key).filter(|p| p.is_object() && (doc.get("name").is_some() || doc.get("description").is_some())) {
                return ToolSchema { name: name_of(&doc).unwrap_or_else(fallback), parameters: p.clone() };
            }
        }
        ToolSchema { name: fallback(), parameters: doc }
    }

    /// Whether the generator can use the schema: an object schema it supports.
    pub fn check(&self) -> Result<(), SchemaError> {
        let p = &self.parameters;
        let typed = p.get("type").and_then(Value::as_str);
        let object = typed == Some("object")
            || (typed.is_none() && ["properties", "required", "additionalProperties"].iter().any(|k| p.get(k).is_some()));
        if !object && p.get("$ref").is_none() {
            return Err(SchemaError {
                pointer: "#".into(),
                problem: "tool arguments are a JSON object: the root schema needs `\"type\": \"object\"` (and its `properties`)".into(),
            });
        }
        schema::generator(p).map(|_| ())
    }
}

/// Why `--fuzz` cannot apply to a plugin of `family` taking `roles` (with a hint).
pub fn applicable(family: Family, roles: &[Role]) -> Result<(), String> {
    target::kind(family, roles).map(|_| ())
}

/// The fuzz check's result without `--fuzz`.
pub(super) fn skipped(profile: Profile) -> Option<CheckResult> {
    let def = lookup(CHECK)?;
    let reason = "no --fuzz N given (add --fuzz 100 --schema TOOL.json to send generated arguments)".to_string();
    Some(CheckResult::new(def, profile.name(), None, Outcome::Skip { reason }, Evidence::default()))
}

/// The proptest runner for `seed`: the same seed, the same inputs, in order.
fn runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    for chunk in bytes.chunks_mut(8) {
        chunk.copy_from_slice(&seed.to_le_bytes());
    }
    let config = Config { failure_persistence: None, ..Config::default() };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// The first failure, shrunk.
struct Found {
    index: u32,
    args: Value,
    step: usize,
    failure: Failure,
    evidence: Evidence,
    shrink_steps: u32,
    shrink_runs: u32,
    budget_hit: bool,
}

/// Runs the fuzz check under `profile`; returns its result and how many
/// exchanges with the plugin it judged.
pub(super) async fn run(
    opts: &Options,
    fuzz: &Fuzz,
    profile: Profile,
    semantics: &mut Recorder,
) -> Result<(Option<CheckResult>, usize), CertifyError> {
    let Some(def) = lookup(CHECK) else { return Ok((None, 0)) };
    let result = |outcome: Outcome, evidence: Evidence, message: String| {
        let mut r = CheckResult::new(def, profile.name(), None, outcome, evidence);
        r.message = message;
        Some(r)
    };
    let kind = match target::kind(opts.family, &opts.roles) {
        Ok(kind) => kind,
        Err(reason) => return Ok((result(Outcome::Skip { reason: reason.clone() }, Evidence::default(), reason), 0)),
    };
    let generator = match schema::generator(&fuzz.tool.parameters) {
        Ok(g) => g,
        Err(e) => {
            let reason = e.to_string();
            return Ok((
                result(
                    Outcome::Untestable { blocked_by: None, reason: reason.clone() },
                    Evidence::default(),
                    format!("untestable: {reason}"),
                ),
                0,
            ));
        }
    };
    let mut notes = if generator.notes.is_empty() { String::new() } else { format!("\nnot enforced: {}", generator.notes.join("; ")) };
    // Inputs cut below the schema's minimums are not the schema's: said on pass and on failure.
    let valid = match capped_note(&generator.capped) {
        None => "schema-valid",
        Some(note) => {
            notes.push_str(&format!("\n{note}"));
            "generated (capped, not schema-valid)"
        }
    };
    let seed = fuzz.seed;
    let mut driver = Driver::new(opts, profile, kind, &fuzz.tool.name, semantics);
    let mut runner = runner(seed);
    let mut found = None;
    // With --jobs, a one-shot plugin's inputs are all drawn first (the same
    // draws, in the same order) and sent ahead; they are judged in order.
    let mut drawn = std::collections::VecDeque::new();
    if driver.overlaps() {
        for _ in 1..=fuzz.inputs {
            let tree = generator.strategy.new_tree(&mut runner);
            if let Ok(tree) = &tree {
                driver.start(&tree.current());
            }
            let failed = tree.is_err();
            drawn.push_back(tree);
            if failed {
                break;
            }
        }
    }
    for index in 1..=fuzz.inputs {
        (opts.progress)(&format!("{profile}: fuzz input {index}/{}", fuzz.inputs));
        let next = drawn.pop_front().unwrap_or_else(|| generator.strategy.new_tree(&mut runner));
        let mut tree = match next {
            Ok(tree) => tree,
            Err(reason) => {
                driver.close().await;
                let reason = format!("could not generate input {index} from the schema: {reason}");
                return Ok((
                    result(
                        Outcome::Untestable { blocked_by: None, reason: reason.clone() },
                        Evidence::default(),
                        format!("untestable: {reason}"),
                    ),
                    driver.exchanges,
                ));
            }
        };
        let args = tree.current();
        driver.judging(format!("fuzz input {index} (seed {seed})"));
        match driver.try_input(&args).await? {
            Trial::Held => {}
            Trial::Blocked(reason) => {
                driver.close().await;
                let outcome = Outcome::Untestable { blocked_by: Some("LIFECYCLE-HANDSHAKE"), reason };
                let message = outcome.describe();
                return Ok((result(outcome, Evidence::default(), message), driver.exchanges));
            }
            Trial::Broke { step, failure, evidence } => {
                found = Some(
                    shrink(
                        opts,
                        profile,
                        &mut driver,
                        &mut tree,
                        Found { index, args, step, failure, evidence, shrink_steps: 0, shrink_runs: 0, budget_hit: false },
                    )
                    .await?,
                );
                break;
            }
        }
    }
    let Some(f) = found else {
        driver.close().await;
        let message = format!("{} {valid} inputs (seed {seed}) each got a well-formed answer in time{notes}", fuzz.inputs);
        return Ok((result(Outcome::Pass, Evidence::default(), message), driver.exchanges));
    };
    // A long-lived plugin saw earlier inputs: say whether the shrunk one fails alone.
    let mut alone = String::new();
    if driver.long_lived() {
        driver.close().await;
        (opts.progress)(&format!("{profile}: replaying the shrunk input on a fresh process"));
        if matches!(driver.try_input(&f.args).await?, Trial::Held) {
            alone = "\nnote: on a fresh process this input passes; the failure depends on the requests before it (state, or a crash after N requests)".into();
        }
        driver.close().await;
    }
    let (selector, request, decision) = kind.case(&fuzz.tool.name, &f.args, f.step);
    let case = case::render(&format!("fuzz seed {seed} input {}", f.index), selector, &request, decision);
    let shrunk = match (f.shrink_steps, f.budget_hit) {
        (0, _) => "could not be shrunk further".to_string(),
        (n, false) => format!("shrunk in {n} steps ({} plugin runs)", f.shrink_runs),
        (n, true) => format!("shrunk in {n} steps (stopped after {} plugin runs: shrinking budget spent)", f.shrink_runs),
    };
    let message = format!(
        "{}\ninput {} of {} (seed {seed}) broke the protocol; {shrunk}. Reproduce with --fuzz {} --fuzz-seed {seed}.{alone}{notes}\nthe shrunk input as a --cases entry (paste under `cases:`):\n{case}",
        Outcome::fail(f.failure.clone()).describe(),
        f.index,
        fuzz.inputs,
        fuzz.inputs,
    );
    Ok((result(Outcome::fail(f.failure), f.evidence, message), driver.exchanges))
}

/// What a report says when the schema asked for more than proctor
/// generates (see [`schema::MAX_GENERATED`]): where, and at what size.
pub fn capped_note(capped: &[String]) -> Option<String> {
    (!capped.is_empty()).then(|| {
        format!(
            "fuzz: the schema was capped (proctor generates at most {} items and characters per input, nesting multiplied): {}; so the fuzz inputs are NOT schema-valid",
            schema::MAX_GENERATED,
            capped.join("; ")
        )
    })
}

/// Shrinks a failing input with proptest's value tree: simplify while the
/// property still fails, step back (complicate) when it passes.
async fn shrink<T: ValueTree<Value = Value>>(
    opts: &Options,
    profile: Profile,
    driver: &mut Driver<'_>,
    tree: &mut T,
    mut best: Found,
) -> Result<Found, CertifyError> {
    let start = Instant::now();
    let mut more = tree.simplify();
    while more {
        if best.shrink_runs >= MAX_SHRINK_RUNS || start.elapsed() > SHRINK_BUDGET {
            best.budget_hit = true;
            break;
        }
        best.shrink_runs += 1;
        (opts.progress)(&format!(
            "{profile}: shrinking the failing input (try {}, {} smaller so far)",
            best.shrink_runs, best.shrink_steps
        ));
        let candidate = tree.current();
        more = match driver.try_input(&candidate).await? {
            Trial::Broke { step, failure, evidence } => {
                best = Found { args: candidate, step, failure, evidence, shrink_steps: best.shrink_steps + 1, ..best };
                tree.simplify()
            }
            Trial::Held | Trial::Blocked(_) => tree.complicate(),
        };
    }
    Ok(best)
}
