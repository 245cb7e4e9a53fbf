//! Certifying one-shot plugins (PromptKit exec, runok extensions): one
//! process per request; write, close stdin, read to EOF, wait for the exit.

use serde_json::{Value, json};

use crate::check::{Evidence, Failure, answer_checks, tolerance};
use crate::client::OneShotReply;
use crate::framing::{Document, ReplyBody, Violation, parse_envelope, read_document};
use crate::protocol::timing::Timing;
use crate::protocol::{Family, Profile, Role, promptkit_exec, reply_types, runok_extension, wire};

use super::cases::Case;
use super::prefetch::{Prefetch, evidence_of};
use super::recorder::{Judged, Recorder};
use super::semantics::{Asked, Decision, go_reading, judge, runok_reading};
use super::session::check_envelope;
use super::{CertifyError, Options};

/// What every judgement of one run needs to know.
#[derive(Clone, Copy)]
struct Ctx {
    family: Family,
    role: Role,
    profile: Profile,
    /// What the profile's runtime waits for, and how long.
    timing: Timing,
}

/// One request to send: the documented form and the phase it belongs to.
#[derive(Clone)]
struct Probe {
    phase: Option<String>,
    documented: Value,
    /// The decision a `--cases` case expects (`None` for built-in probes).
    meant: Option<String>,
}

/// One spawn-write-read-exit round trip.
type Exchange = OneShotReply;

pub(super) async fn run(opts: &Options, profile: Profile) -> Result<Judged, CertifyError> {
    let family = opts.family;
    let role = opts.roles.first().copied().unwrap_or(Role::Guard);
    let mut not_in_profile = Vec::new();
    if role == Role::SessionHook && !profile.promptkit_reads_session_hook_stdout() {
        // Nothing on stdout is read, so nothing about it can break PromptKit:
        // the checks an eval hook is spared, and the ack.
        not_in_profile.push("HOOK-OBSERVE-ACK");
        not_in_profile.extend(answer_checks());
    }
    if !profile.go_json_replies() || reply_types::promptkit_oneshot(role).is_none() {
        not_in_profile.extend(["GO-DECODE", "GO-READS-AS-DOCUMENTED"]);
    }
    if !profile.runok_serde_replies() {
        not_in_profile.push("RUNOK-DECODE");
    }
    if !super::lifetime::pipes_can_block(&opts.deadlines(profile)) {
        not_in_profile.push("PIPE-WRITES-DRAINED");
    }
    not_in_profile.extend(opts.left_out.iter().copied());
    let mut rec = Recorder::new(family, &opts.roles, profile, &not_in_profile);
    rec.require(&opts.require);
    let ctx = Ctx { family, role, profile, timing: opts.timing(profile) };
    let px = Prefetch::new(opts.command_for(profile), opts.deadlines(profile), opts.jobs);
    start_known(opts, &px, &rec, &ctx);
    let judged = judge_all(opts, &px, rec, &ctx).await;
    px.finish().await;
    let mut rec = judged?;
    super::lifetime::judge_strays(&mut rec).await;
    Ok(rec.finish())
}

/// Queues every request a run is known to send before any answer is in
/// (the probes, their variants, the cases), in the order the run judges them.
fn start_known(opts: &Options, px: &Prefetch, rec: &Recorder, ctx: &Ctx) {
    let Ctx { family, role, profile, .. } = *ctx;
    let newline = profile.oneshot_trailing_newline();
    let all = probes(family, role);
    for probe in &all {
        px.start(render(family, role, profile, probe, newline));
    }
    if let Some(first) = all.first() {
        if rec.applies("LIFECYCLE-READS-TO-EOF") {
            px.start(render(family, role, profile, first, !newline));
        }
        if rec.applies("ROBUST-UNKNOWN-FIELDS") {
            let extended = Probe { documented: with_unknown_fields(family, role, &first.documented), ..first.clone() };
            px.start(render(family, role, profile, &extended, newline));
        }
    }
    for case in opts.cases.iter().flat_map(|c| &c.cases) {
        px.start(render(family, role, profile, &case_probe(family, role, case), newline));
    }
}

async fn judge_all(opts: &Options, px: &Prefetch, mut rec: Recorder, ctx: &Ctx) -> Result<Recorder, CertifyError> {
    let Ctx { family, role, profile, .. } = *ctx;
    let mut answered: Vec<(Probe, Option<Decision>, bool)> = Vec::new();
    for probe in probes(family, role) {
        (opts.progress)(&format!("{profile}: {}", label(&probe)));
        let bytes = render(family, role, profile, &probe, profile.oneshot_trailing_newline());
        let ex = px.exchange(bytes).await?;
        let answer = judge_exchange(&mut rec, ctx, &probe, &ex);
        answered.push((probe, answer.decision.clone(), answer.readable()));
    }
    if rec.applies("PROMPTKIT-KEY-SPELLING") {
        key_spelling(opts, px, &mut rec, ctx, &answered).await?;
    }
    let Some((probe, decision, readable)) = answered.into_iter().next() else { return Ok(rec) };
    if !readable {
        // Comparing unreadable answers proves nothing; say so instead.
        let blocker = rec.first_failure().unwrap_or("FRAMING-SINGLE-DOCUMENT");
        rec.block_rest(blocker, "the runtime could not read the plugin's first answer");
        return Ok(rec);
    }

    if rec.applies("LIFECYCLE-READS-TO-EOF") {
        (opts.progress)(&format!("{profile}: the same request with the other line ending"));
        let newline = !profile.oneshot_trailing_newline();
        let ex = px.exchange(render(family, role, profile, &probe, newline)).await?;
        let (other, other_readable) = outcome_of(&mut rec, ctx, &probe, &ex);
        let describe = |nl: bool| if nl { "with a trailing newline" } else { "without a trailing newline" };
        if (other_readable, &other) == (readable, &decision) {
            rec.pass("LIFECYCLE-READS-TO-EOF", evidence_of(&ex));
        } else {
            let show = |r: bool, d: &Option<Decision>| {
                if r { d.as_ref().map_or("an answer".into(), |d| format!("`{d}`")) } else { "no readable answer".to_string() }
            };
            rec.fail(
                "LIFECYCLE-READS-TO-EOF",
                Failure::Mismatch {
                    path: "$".into(),
                    expected: format!("the same answer as {} ({})", describe(!newline), show(readable, &decision)),
                    actual: format!("{} {}", show(other_readable, &other), describe(newline)),
                },
                evidence_of(&ex),
            );
        }
    }

    if rec.applies("ROBUST-UNKNOWN-FIELDS") {
        (opts.progress)(&format!("{profile}: a request with fields the plugin does not know"));
        let extended = Probe { documented: with_unknown_fields(family, role, &probe.documented), ..probe.clone() };
        let ex = px.exchange(render(family, role, profile, &extended, profile.oneshot_trailing_newline())).await?;
        let (got, got_readable) = outcome_of(&mut rec, ctx, &extended, &ex);
        if (got_readable, &got) == (readable, &decision) {
            rec.pass("ROBUST-UNKNOWN-FIELDS", evidence_of(&ex));
        } else {
            let shown = |d: &Option<Decision>| d.as_ref().map_or("no decision".to_string(), |d| d.to_string());
            rec.fail(
                "ROBUST-UNKNOWN-FIELDS",
                Failure::Mismatch {
                    path: "$.x_proctor_future".into(),
                    expected: format!("ignored (answer `{}` as without it)", shown(&decision)),
                    actual: format!("answer `{}`", shown(&got)),
                },
                evidence_of(&ex),
            );
        }
    }

    run_cases(opts, px, &mut rec, ctx).await?;
    Ok(rec)
}

/// PROMPTKIT-KEY-SPELLING: each probe's content is sent again in the other
/// profile's key spelling. A plugin that answers the two differently reads one
/// spelling only; it fails under this profile when its answer here is the one
/// it gives a request with nothing in it (it is blind to the keys this
/// profile's runtime sends), and passes when the blind one is the other
/// spelling (that profile's report says so). A plugin written from the
/// documents then fails under PromptKit without any --cases of its author.
async fn key_spelling(
    opts: &Options,
    px: &Prefetch,
    rec: &mut Recorder,
    ctx: &Ctx,
    answered: &[(Probe, Option<Decision>, bool)],
) -> Result<(), CertifyError> {
    const ID: &str = "PROMPTKIT-KEY-SPELLING";
    let Ctx { family, role, profile, .. } = *ctx;
    let [documented, runtime] = Profile::for_family(family);
    let other = if profile == documented { runtime } else { documented };
    let newline = profile.oneshot_trailing_newline();
    let shown = |d: &Option<Decision>| d.as_ref().map_or("no decision".to_string(), |d| format!("`{d}`"));
    let spelling = |p: Profile| if p == documented { "the documented key spelling".to_string() } else { format!("{p}'s key spelling") };
    let mut compared = false;
    for (probe, mine, _) in answered.iter().filter(|(_, _, readable)| *readable) {
        // The other spelling, in this profile's encoding: only the keys differ.
        let mut theirs = wire::encode(&promptkit_exec::render(role, &probe.documented, other), profile);
        if newline {
            theirs.push(b'\n');
        }
        if theirs == render(family, role, profile, probe, newline) {
            continue;
        }
        compared = true;
        (opts.progress)(&format!("{profile}: {} in {}", label(probe), spelling(other)));
        let ex = px.exchange(theirs).await?;
        let (got, got_readable) = outcome_of(rec, ctx, probe, &ex);
        if !got_readable || got == *mine {
            rec.pass(ID, evidence_of(&ex));
            continue;
        }
        let blind = Probe { documented: emptied(role, &probe.documented), ..probe.clone() };
        let blind_ex = px.exchange(render(family, role, profile, &blind, newline)).await?;
        let (empty, empty_readable) = outcome_of(rec, ctx, &blind, &blind_ex);
        if empty_readable && empty == *mine {
            rec.fail(
                ID,
                Failure::Mismatch {
                    path: "$".into(),
                    expected: format!("the answer it gives the same content in {} ({})", spelling(other), shown(&got)),
                    actual: format!("{} in {}, its answer to an empty request", shown(mine), spelling(profile)),
                },
                evidence_of(&ex),
            );
            return Ok(());
        }
        rec.pass(ID, evidence_of(&ex));
    }
    if !compared {
        rec.skip(ID, format!("no probe is spelled differently in {}", spelling(other)));
    }
    Ok(())
}

/// A probe with its content taken out: what a plugin reading keys the request
/// does not carry sees.
fn emptied(role: Role, documented: &Value) -> Value {
    let mut v = documented.clone();
    let Some(obj) = v.as_object_mut() else { return v };
    match role {
        Role::Selector => {
            obj.insert("candidates".into(), json!([]));
        }
        Role::Eval => {
            obj.insert("content".into(), json!(""));
            obj.insert("context".into(), json!({}));
        }
        _ => {
            for key in ["request", "response", "event"] {
                if let Some(inner) = obj.get_mut(key) {
                    *inner = json!({});
                }
            }
        }
    }
    v
}

async fn run_cases(opts: &Options, px: &Prefetch, rec: &mut Recorder, ctx: &Ctx) -> Result<(), CertifyError> {
    let Ctx { family, role, profile, .. } = *ctx;
    let Some(cases) = &opts.cases else {
        rec.skip("CASE-DECISION", "no --cases file given");
        return Ok(());
    };
    for case in &cases.cases {
        (opts.progress)(&format!("{profile}: case `{}`", case.name));
        let probe = case_probe(family, role, case);
        let ex = px.exchange(render(family, role, profile, &probe, profile.oneshot_trailing_newline())).await?;
        // The answer to a case is a protocol message like any other: every
        // check holds it, and names the case when it fails.
        rec.set_origin(Some(format!("case `{}`", case.name)));
        let answer = judge_exchange(rec, ctx, &probe, &ex);
        rec.set_origin(None);
        // A case that expects the error, answered with an error beside a
        // result, says what such an answer means: the probes' too.
        if role == Role::Tool && probe.meant.as_deref() == Some("error") && holds_error_and_result(&ex.collected.bytes) {
            let both = |f: &Failure| matches!(f, Failure::Mismatch { actual, .. } if actual == "result and error together");
            let meant = Failure::Mismatch {
                path: "$".into(),
                expected: "exactly one of result, error (a string), pending".into(),
                actual: tolerance::ERROR_BESIDE_A_RESULT_MEANT.into(),
            };
            rec.resolve("TOOL-RESPONSE-SHAPE", both, meant);
        }
        let outcome = match answer.unusable {
            Some(why) => crate::check::Outcome::fail(why),
            None => case.expect.judge(answer.decision.as_ref()),
        };
        rec.case(&case.name, outcome, evidence_of(&ex));
    }
    Ok(())
}

/// Whether a tool's answer holds a non-empty `error` beside a `result`
/// (keys as Go matches them), which PromptKit reads as the error.
fn holds_error_and_result(stdout: &[u8]) -> bool {
    let Some(written) = crate::framing::read_value(stdout) else { return false };
    let doc = go_reading::promptkit_folded(Role::Tool, stdout, &written).unwrap_or(written);
    doc.get("result").is_some() && doc.get("error").and_then(Value::as_str).is_some_and(|e| !e.is_empty())
}

fn case_probe(family: Family, role: Role, case: &Case) -> Probe {
    let documented = match family {
        Family::RunokExtension => runok_request(&case.request),
        _ => promptkit_exec::documented(role, case.phase.as_deref(), &hook_fields(role, &case.request)),
    };
    Probe { phase: case.phase.clone(), documented, meant: case.expect.decision.clone() }
}

/// Case `request` fields for hooks name the inner object's members; wrap them.
fn hook_fields(role: Role, request: &Value) -> Value {
    match role {
        Role::ProviderHook | Role::ToolHook if request.get("request").is_none() && request.get("response").is_none() => {
            json!({"request": request})
        }
        Role::SessionHook if request.get("event").is_none() => json!({"event": request}),
        _ => request.clone(),
    }
}

fn runok_request(fields: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": runok_extension::VALIDATE_COMMAND, "params": runok_extension::params(fields)})
}

fn probes(family: Family, role: Role) -> Vec<Probe> {
    if family == Family::RunokExtension {
        return vec![Probe { phase: None, documented: runok_request(&Value::Null), meant: None }];
    }
    if role == Role::Selector {
        // Three candidates for k = 2, then none at all: both must be answered.
        let empty = json!({"candidates": []});
        return vec![
            Probe { phase: None, documented: promptkit_exec::documented(role, None, &Value::Null), meant: None },
            Probe { phase: None, documented: promptkit_exec::documented(role, None, &empty), meant: None },
        ];
    }
    let phases = promptkit_exec::phases(role);
    if phases.is_empty() {
        return vec![Probe { phase: None, documented: promptkit_exec::documented(role, None, &Value::Null), meant: None }];
    }
    phases
        .iter()
        .map(|p| Probe { phase: Some(p.to_string()), documented: promptkit_exec::documented(role, Some(p), &Value::Null), meant: None })
        .collect()
}

fn label(probe: &Probe) -> String {
    probe.phase.as_ref().map_or("probe request".to_string(), |p| format!("{p} probe"))
}

fn render(family: Family, role: Role, profile: Profile, probe: &Probe, newline: bool) -> Vec<u8> {
    let wire_value = match family {
        Family::RunokExtension => probe.documented.clone(),
        _ => promptkit_exec::render(role, &probe.documented, profile),
    };
    let mut bytes = wire::encode(&wire_value, profile);
    if newline {
        bytes.push(b'\n');
    }
    bytes
}

/// Adds a field no runtime sends today, at the top level and (for hooks)
/// inside the payload object.
fn with_unknown_fields(family: Family, role: Role, documented: &Value) -> Value {
    let mut v = documented.clone();
    let future = json!({"added_in": "a later runtime"});
    if let Some(obj) = v.as_object_mut() {
        obj.insert("x_proctor_future".into(), future.clone());
    }
    let inner = match (family, role) {
        (Family::RunokExtension, _) => Some("params"),
        (_, Role::ProviderHook | Role::ToolHook) => Some("request"),
        (_, Role::SessionHook) => Some("event"),
        (_, Role::Eval) => Some("context"),
        _ => None,
    };
    if let Some(obj) = inner.and_then(|k| v.get_mut(k)).and_then(Value::as_object_mut) {
        obj.insert("x_proctor_future".into(), future);
    }
    v
}

/// What the runtime made of an answer that is compared rather than judged:
/// its variations (another line ending, unknown fields) are held to the
/// check that made them, not to every check again.
fn outcome_of(rec: &mut Recorder, ctx: &Ctx, probe: &Probe, ex: &Exchange) -> (Option<Decision>, bool) {
    rec.exchanged();
    let mut scratch = Recorder::new(ctx.family, &[ctx.role], ctx.profile, &[]);
    let answer = judge_exchange(&mut scratch, ctx, probe, ex);
    let _ = super::lifetime::judge_leftover(rec, &ctx.timing, ex, &evidence_of(ex));
    (answer.decision.clone(), answer.readable())
}

/// What the runtime made of one answer.
struct Answer {
    /// The decision it acts on (its fallback when the answer was unusable).
    decision: Option<Decision>,
    /// Why the runtime could not use the answer (a timeout, a crash, broken
    /// framing), when it could not: a case reports this, never the fallback
    /// decision, so a crash is never mistaken for a denial.
    unusable: Option<Failure>,
}

impl Answer {
    fn usable(decision: Option<Decision>) -> Self {
        Answer { decision, unusable: None }
    }

    fn unusable(family: Family, role: Role, why: Failure) -> Self {
        Answer { decision: fallback(family, role), unusable: Some(why) }
    }

    fn readable(&self) -> bool {
        self.unusable.is_none()
    }
}

/// Records everything one exchange decides; returns what the runtime made of it.
fn judge_exchange(rec: &mut Recorder, ctx: &Ctx, probe: &Probe, ex: &Exchange) -> Answer {
    let Ctx { family, role, profile, timing } = *ctx;
    rec.exchanged();
    let evidence = evidence_of(ex);
    let c = &ex.collected;
    if let Err(lost) = super::lifetime::judge(rec, &timing, ex, &evidence) {
        return Answer::unusable(family, role, lost);
    }

    let exit = c.exit.unwrap_or(ex.shutdown.exit);
    let crash = || Failure::Crash { exit, stderr_tail: ex.stderr.clone() };
    // PromptKit discards the stdout of an eval hook, and of a session hook
    // (runtime/hooks/exec_hooks.go runSessionPhase: `_, _, err = h.runProcess`;
    // measured in interop/promptkit: two documents, a log line, no output at
    // all, all acknowledged): only the exit matters, and any clean exit acks.
    let stdout_discarded = role == Role::EvalHook || (role == Role::SessionHook && !profile.promptkit_reads_session_hook_stdout());
    if stdout_discarded {
        if exit.success() {
            rec.pass("LIFECYCLE-EXIT-ZERO", evidence.clone());
            return Answer::usable((role == Role::SessionHook).then_some(Decision::Ack));
        }
        rec.fail("LIFECYCLE-EXIT-ZERO", crash(), evidence.clone());
        return Answer { decision: None, unusable: Some(crash()) };
    }

    let doc: Document = read_document(&c.bytes);
    // PromptKit reads the whole of stdout with Go's json.Unmarshal into its
    // own type: what that decoding leaves it holding is the answer.
    let go_read = if profile.go_json_replies() { go_reading::promptkit_oneshot(role, &c.bytes) } else { None };
    // The framing checks still say what the documents make of the bytes
    // (what Go reads anyway is a tolerance's warning under the profile).
    super::observe::document(rec, &doc, &evidence);
    // What this profile's runtime can still read: a pretty-printed document,
    // and (for the runtimes, which decode lossily) invalid UTF-8.
    let lossy = tolerance::reads_invalid_utf8(profile);
    let readable_anyway = |v: &Violation| matches!(v, Violation::MultiLine { .. }) || (lossy && matches!(v, Violation::NotUtf8 { .. }));
    let unreadable = |v: &&Violation| !readable_anyway(v);
    let clean = !doc.violations.iter().any(|v| unreadable(&v));
    let readable = matches!(go_read, Some(Ok(_))) || (clean && doc.value.is_some());
    if readable && exit.success() {
        rec.pass("LIFECYCLE-EXIT-ZERO", evidence.clone());
    } else if !exit.success() && family == Family::PromptkitExec {
        rec.fail("LIFECYCLE-EXIT-ZERO", crash(), evidence.clone());
    }
    // PromptKit ignores stdout when the exit status is not 0; runok ignores the status.
    if !exit.success() && family == Family::PromptkitExec {
        return Answer::unusable(family, role, crash());
    }
    if let Some(read) = go_read {
        if !exit.success() {
            return Answer::unusable(family, role, crash());
        }
        let value = match read {
            Ok(value) => {
                rec.pass("GO-DECODE", evidence.clone());
                value
            }
            Err(e) => {
                let why = Failure::Mismatch {
                    path: "$".into(),
                    expected: format!("a document PromptKit's json.Unmarshal reads into its {} reply type", role.name()),
                    actual: e.to_string(),
                };
                rec.fail("GO-DECODE", why.clone(), evidence.clone());
                return Answer::unusable(family, role, why);
            }
        };
        let asked =
            Asked { family, role, method: probe.phase.as_deref(), profile, request: &probe.documented, meant: probe.meant.as_deref() };
        let judged = judge(asked, &value);
        // What the documents would make of the same bytes: a difference is a warning.
        let difference = doc.value.as_ref().map(|written| {
            let documented = judge(Asked { profile: Profile::Documented, ..asked }, written);
            // The same answer with its keys spelt as Go matched them (`Allow` as `allow`).
            let folded =
                go_reading::promptkit_folded(role, &c.bytes, written).map(|f| judge(Asked { profile: Profile::Documented, ..asked }, &f));
            go_reading::reads_otherwise(documented, &judged, profile, folded.as_ref())
        });
        for finding in judged.findings {
            rec.finding(finding, &evidence);
        }
        if let Some(difference) = difference {
            for finding in difference.tolerated {
                rec.finding(finding, &evidence);
            }
            match difference.otherwise {
                Some(why) => rec.fail("GO-READS-AS-DOCUMENTED", why, evidence.clone()),
                None => rec.pass("GO-READS-AS-DOCUMENTED", evidence.clone()),
            }
        }
        return Answer::usable(judged.decision.or_else(|| fallback(family, role)));
    }
    if profile.runok_serde_replies() {
        // runok reads stdout with serde_json into its own types whatever the
        // exit status: what that leaves it holding is the answer.
        return match runok_reading::read(&c.bytes) {
            Ok(reading) => {
                rec.pass("RUNOK-DECODE", evidence.clone());
                runok_answer(rec, ctx, probe, &reading.envelope, &reading.written_result, &evidence)
            }
            Err(e) => {
                let why = Failure::Mismatch {
                    path: "$".into(),
                    expected: "a reply runok 0.3.1's serde_json reads into its JsonRpcResponse, with a result or an error".into(),
                    actual: e,
                };
                rec.fail("RUNOK-DECODE", why.clone(), evidence.clone());
                Answer::unusable(family, role, why)
            }
        };
    }
    let value = match doc.value {
        Some(value) if clean => value,
        _ => {
            let why = match doc.violations.iter().find(unreadable) {
                Some(violation) => Failure::Framing { violation: violation.clone() },
                None if exit.success() => Failure::Missing { what: "an answer on stdout (it exited 0 having written none)".into() },
                None => crash(),
            };
            return Answer::unusable(family, role, why);
        }
    };

    if family == Family::RunokExtension {
        let written_result = value.get("result").cloned().unwrap_or(Value::Null);
        return runok_answer(rec, ctx, probe, &value, &written_result, &evidence);
    }
    judged_answer(rec, ctx, probe, &value, &evidence)
}

/// The role's judge on an answer the runtime could read.
fn judged_answer(rec: &mut Recorder, ctx: &Ctx, probe: &Probe, answer: &Value, evidence: &Evidence) -> Answer {
    let Ctx { family, role, profile, .. } = *ctx;
    let asked = Asked { family, role, method: probe.phase.as_deref(), profile, request: &probe.documented, meant: probe.meant.as_deref() };
    let judged = judge(asked, answer);
    for finding in judged.findings {
        rec.finding(finding, evidence);
    }
    Answer::usable(judged.decision.or_else(|| fallback(family, role)))
}

/// A runok reply: its envelope, the spelling of its result's keys (as
/// written), then the result itself.
fn runok_answer(rec: &mut Recorder, ctx: &Ctx, probe: &Probe, value: &Value, written_result: &Value, evidence: &Evidence) -> Answer {
    let envelope = parse_envelope(value);
    check_envelope(rec, &envelope, &json!(1), evidence);
    let ReplyBody::Result(result) = envelope.body else {
        return Answer::usable(fallback(ctx.family, ctx.role)); // runok: an error reply means ask
    };
    let misspelt: Vec<String> =
        runok_reading::misspelt_fields(written_result).into_iter().map(|(k, f)| format!("`{k}` (runok reads only `{f}`)")).collect();
    if misspelt.is_empty() {
        rec.pass("RUNOK-EXACT-KEYS", evidence.clone());
    } else {
        let why = Failure::Mismatch {
            path: "$.result".into(),
            expected: "keys spelt exactly status, message, fix_suggestion".into(),
            actual: format!("{}: ignored, so what it says never reaches the user", misspelt.join(", ")),
        };
        rec.fail("RUNOK-EXACT-KEYS", why, evidence.clone());
    }
    judged_answer(rec, ctx, probe, &result, evidence)
}

/// What the runtime decides when it cannot read an answer (runtime docs and
/// research notes: filter hooks fail closed, runok asks, evals score 0).
fn fallback(family: Family, role: Role) -> Option<Decision> {
    match (family, role) {
        (Family::RunokExtension, _) => Some(Decision::Status("ask".into())),
        (_, Role::ProviderHook | Role::ToolHook) => Some(Decision::Deny),
        (_, Role::Tool) => Some(Decision::Error),
        (_, Role::Eval) => Some(Decision::Score(0.0)),
        _ => None,
    }
}
