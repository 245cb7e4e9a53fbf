//! An event, then a call at once: how PicoClaw sends them (a tool's start
//! event, then its `after_tool`). A hook reads its stdin in order, so one
//! still busy with the event answers the call late, and PicoClaw's
//! interceptor deadline counts from the call's own write (measured:
//! interop/differential/regressions/picoclaw-hook-503*.json, a hook that
//! takes 2.6 s over each event loses the next call at 2 s).

use serde_json::Value;

use crate::check::{Failure, last_bytes};
use crate::protocol::{Family, Role, picoclaw_hook as pico};
use crate::transport::Phase;

use super::super::recorder::Recorder;
use super::super::session::{Called, Session};
use super::{Run, Step, Stopped};

impl Run<'_> {
    /// Sends the runtime's event notification and, without waiting, `method`:
    /// its reply must come within `method`'s own deadline (ROBUST-DEADLINE).
    /// Only where the runtime sends events (a hook that observes, under a
    /// PicoClaw profile: the documents promise no order between the two).
    pub(super) async fn event_then_call(&mut self, s: &mut Session, rec: &mut Recorder, method: &'static str, params: &Value) -> Step {
        if self.family != Family::PicoclawHook || !self.profile.go_json_replies() || !self.opts.roles.contains(&Role::Observe) {
            return Ok(());
        }
        let (event, event_params) = pico::notification(self.profile);
        self.progress(&format!("{event}, then {method} at once"));
        let (note, written) = s.notify(event, event_params).await;
        if written.is_err() {
            return Ok(()); // the notification step has judged a plugin that stops reading
        }
        let deadline = self.deadline_of(method);
        match s.call(rec, method, params.clone(), deadline).await {
            Called::NoReply { sent, partial, waited } => {
                let mut both = note;
                both.extend_from_slice(&sent);
                let failure = Failure::Timeout {
                    phase: Phase::Request,
                    waited_ms: waited.as_millis() as u64,
                    last_bytes: format!(
                        "(sent right after {event}: the hook was still busy with the event, and {} counts the call's deadline from its own write) {}",
                        self.profile,
                        last_bytes(&partial)
                    ),
                };
                rec.fail("ROBUST-DEADLINE", failure.clone(), s.evidence(&both, &partial));
                Err(Stopped {
                    by: "ROBUST-DEADLINE",
                    reason: "a call sent after an event went unanswered".into(),
                    alive: false,
                    failure: Some(failure),
                })
            }
            called => self.replied(s, rec, called, "ROBUST-DEADLINE", Phase::Request).await.map(drop),
        }
    }
}
