//! Certifying a coding agent's command hook (Claude Code, Codex): one
//! process per event document; its exit status, stdout and stderr are read
//! together, as the agent reads them (`semantics::agent_reading`).

use serde_json::{Value, json};

use crate::check::{CheckId, Failure, Outcome};
use crate::client::OneShotReply;
use crate::protocol::Profile;
use crate::protocol::agent_hook::{self, Agent, HookEvent};
use crate::protocol::promptkit_exec::overlay;
use crate::protocol::timing::Timing;

use super::prefetch::{Prefetch, evidence_of};
use super::recorder::{Judged, Recorder};
use super::semantics::Decision;
use super::semantics::agent_reading::{self, Effect, HookRun};
use super::world::World;
use super::{CertifyError, Options};

/// The checks only some answers decide, and why an answer that did not is no failure.
const DECIDED_BY_SOME: &[(CheckId, &str)] = &[
    ("AGENT-HOOK-STDOUT-JSON", "the hook never exited 0, the only status whose stdout is read"),
    ("AGENT-HOOK-EXIT2-STDERR", "the hook never exited 2"),
    ("AGENT-HOOK-EVENT-NAME", "no answer carried hookSpecificOutput"),
    ("AGENT-HOOK-BLOCK-REASON", "no answer blocked with a JSON decision"),
    ("AGENT-HOOK-OUTPUT-SCHEMA", "no answer was a JSON object"),
    ("AGENT-HOOK-SUPPORTED-OUTPUT", "no answer was a JSON object Codex reads"),
];

/// Everything one run's judgements need.
#[derive(Clone, Copy)]
struct Ctx {
    agent: Agent,
    event: HookEvent,
    profile: Profile,
    /// What the agent waits for, and how long.
    timing: Timing,
}

pub(super) async fn run(opts: &Options, profile: Profile) -> Result<Judged, CertifyError> {
    let (Some(agent), Some(event)) = (Agent::of(opts.family), opts.roles.first().copied().and_then(agent_hook::event_of)) else {
        return Err(CertifyError::Options(format!("{} hooks are certified for one event, and none was given", opts.family)));
    };
    let mut not_in_profile: Vec<CheckId> = opts.left_out.to_vec();
    if agent != Agent::Codex {
        not_in_profile.push("AGENT-HOOK-SUPPORTED-OUTPUT");
    }
    let mut rec = Recorder::new(opts.family, &opts.roles, profile, &not_in_profile);
    rec.require(&opts.require);
    let ctx = Ctx { agent, event, profile, timing: opts.timing(profile) };
    // The hook runs in its project, with the agent's variables (the user's --env win), each
    // request a session of its own.
    let world = World::new(agent, profile, opts.command.cwd.as_deref())?;
    let mut command = opts.command_for(profile);
    command.cwd = Some(world.project().to_path_buf());
    command.env = world.env(event).into_iter().chain(command.env).collect();
    let mut px = Prefetch::new(command, opts.deadlines(profile), opts.jobs);
    if let Some(env_for) = world.session_env(event) {
        px = px.with_env_for(env_for);
    }

    // Each request is the event's fields, documented form, in a session of its own; `render`
    // writes them as the agent does. Rendered once, so the prefetched exchange is the one judged.
    let mut sessions = 0..;
    let mut place = |fields: &Value| -> Result<Vec<u8>, CertifyError> {
        let session = world.session(event, sessions.next().unwrap_or_default())?;
        Ok(render(&ctx, &overlay(session, fields)))
    };
    let probes: Vec<Value> = agent_hook::probes(agent, event);
    let extended = probes.first().map(with_unknown_fields);
    let cases: Vec<Value> =
        opts.cases.iter().flat_map(|c| &c.cases).map(|c| overlay(agent_hook::default_fields(event), &c.request)).collect();
    let probes: Vec<(Value, Vec<u8>)> = probes.into_iter().map(|p| place(&p).map(|bytes| (p, bytes))).collect::<Result<_, _>>()?;
    let extended = extended.as_ref().map(&mut place).transpose()?;
    let cases: Vec<Vec<u8>> = cases.iter().map(&mut place).collect::<Result<_, _>>()?;
    let unknown_applies = rec.applies("ROBUST-UNKNOWN-FIELDS");
    for bytes in probes.iter().map(|(_, b)| b).chain(extended.iter().filter(|_| unknown_applies)).chain(&cases) {
        px.start(bytes.clone());
    }

    let mut first: Option<Answer> = None;
    for (probe, bytes) in &probes {
        (opts.progress)(&format!("{profile}: {} probe ({})", event.name(), tool_of(probe)));
        let ex = px.exchange(bytes.clone()).await?;
        let answer = judge(&mut rec, &ctx, &ex);
        first.get_or_insert(answer);
    }
    if let (Some(extended), Some(first), true) = (&extended, &first, unknown_applies) {
        (opts.progress)(&format!("{profile}: a document with a field no agent sends yet"));
        let ex = px.exchange(extended.clone()).await?;
        rec.exchanged();
        let mut scratch = Recorder::new(opts.family, &opts.roles, profile, &[]);
        let got = judge(&mut scratch, &ctx, &ex);
        let _ = super::lifetime::judge_leftover(&mut rec, &ctx.timing, &ex, &evidence_of(&ex));
        if got.effect() == first.effect() {
            rec.pass("ROBUST-UNKNOWN-FIELDS", evidence_of(&ex));
        } else {
            let failure = Failure::Mismatch {
                path: "$.x_proctor_future".into(),
                expected: format!("ignored (the hook's answer `{}` as without it)", first.effect()),
                actual: format!("`{}`", got.effect()),
            };
            rec.fail("ROBUST-UNKNOWN-FIELDS", failure, evidence_of(&ex));
        }
    }

    match &opts.cases {
        None => rec.skip("CASE-DECISION", "no --cases file given"),
        Some(file) => {
            for (case, bytes) in file.cases.iter().zip(&cases) {
                (opts.progress)(&format!("{profile}: case `{}`", case.name));
                let ex = px.exchange(bytes.clone()).await?;
                rec.set_origin(Some(format!("case `{}`", case.name)));
                let answer = judge(&mut rec, &ctx, &ex);
                rec.set_origin(None);
                let outcome = match &answer.unusable {
                    Some(why) => Outcome::fail(why.clone()),
                    None => match case.expect.judge(Some(&Decision::Effect(answer.effect().to_string()))) {
                        Outcome::Pass => {
                            let dropped = dropped_text(&ctx, &ex, &answer);
                            let text = case.expect.text_failure(answer.reason.as_deref(), answer.context.as_deref(), dropped.as_deref());
                            text.map_or(Outcome::Pass, Outcome::fail)
                        }
                        failed => failed,
                    },
                };
                rec.case(&case.name, outcome, evidence_of(&ex));
            }
        }
    }
    for (id, why) in DECIDED_BY_SOME {
        if rec.applies(id) && !rec.decided(id) {
            rec.skip(id, *why);
        }
    }
    px.finish().await;
    super::lifetime::judge_strays(&mut rec).await;
    Ok(rec.finish())
}

/// What the agent made of one answer.
struct Answer {
    /// What it does next; a lost decision is the agent going on (both fail open).
    effect: Effect,
    /// The reason a block passes on.
    reason: Option<String>,
    /// The text the agent adds to the model's conversation.
    context: Option<String>,
    /// Why the hook's decision is lost, when it is (a hang, a hook error).
    unusable: Option<Failure>,
}

impl Answer {
    fn lost(why: Failure) -> Self {
        Answer { effect: Effect::Proceed, reason: None, context: None, unusable: Some(why) }
    }

    /// The effect as `--cases` names it.
    fn effect(&self) -> &'static str {
        self.effect.name()
    }
}

fn tool_of(fields: &Value) -> String {
    fields.get("tool_name").and_then(Value::as_str).map_or_else(|| "its defaults".to_string(), |t| format!("tool {t}"))
}

/// The document as the profile's agent writes it to the hook.
fn render(ctx: &Ctx, fields: &Value) -> Vec<u8> {
    agent_hook::stdin(ctx.agent, ctx.profile, ctx.event, fields)
}

fn with_unknown_fields(fields: &Value) -> Value {
    overlay(fields.clone(), &json!({"x_proctor_future": {"added_in": "a later release"}}))
}

/// Records what one run decides; returns what the agent made of it.
fn judge(rec: &mut Recorder, ctx: &Ctx, ex: &OneShotReply) -> Answer {
    rec.exchanged();
    let evidence = evidence_of(ex);
    let c = &ex.collected;
    if let Err(lost) = super::lifetime::judge(rec, &ctx.timing, ex, &evidence) {
        return Answer::lost(lost);
    }
    let exit = c.exit.unwrap_or(ex.shutdown.exit).code();
    let reading = agent_reading::read(&HookRun {
        profile: ctx.profile,
        agent: ctx.agent,
        event: ctx.event,
        exit,
        stdout: &c.bytes,
        stderr: ex.stderr.as_bytes(),
    });
    for finding in reading.findings {
        rec.finding(finding, &evidence);
    }
    match reading.error {
        Some(why) => Answer::lost(Failure::Unexpected { what: format!("{} reports a hook error: {why}", ctx.agent.name()) }),
        None => Answer { effect: reading.effect, reason: reading.reason, context: reading.context, unusable: None },
    }
}

/// Why text the hook wrote did not reach the model, when the agent dropped
/// it: plain stdout on an event whose plain stdout the agent does not read.
fn dropped_text(ctx: &Ctx, ex: &OneShotReply, answer: &Answer) -> Option<String> {
    let stdout = String::from_utf8_lossy(&ex.collected.bytes);
    let plain = stdout.trim();
    if answer.context.is_some() || plain.is_empty() || plain.starts_with('{') || agent_reading::plain_text_is_context(ctx.agent, ctx.event)
    {
        return None;
    }
    Some(format!(
        "{} drops plain stdout on {} (it reads it as context only on UserPromptSubmit and SessionStart): print {{\"hookSpecificOutput\": {{\"hookEventName\": \"{}\", \"additionalContext\": …}}}} instead",
        ctx.agent.name(),
        ctx.event.name(),
        ctx.event.name()
    ))
}
