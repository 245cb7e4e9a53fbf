//! Drives the serving loop through in-memory pipes.

use super::*;
use crate::plugin::Decision;
use proctor_conformance::protocol::Role;
use serde_json::json;

fn config(family: Family, faults: &[Fault]) -> MockPluginConfig {
    let mut config = MockPluginConfig::new(family);
    config.faults = faults.to_vec();
    config
}

/// Serves `input` and returns the ending and raw stdout.
fn drive(config: &MockPluginConfig, input: &[u8]) -> (Ending, Vec<u8>) {
    let mut out = Vec::new();
    let ending = serve(config, input, &mut out, io::sink()).expect("in-memory I/O cannot fail");
    (ending, out)
}

/// Parses stdout as JSON lines.
fn replies(out: &[u8]) -> Vec<Value> {
    out.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(l))))
        .collect()
}

fn lines(messages: &[Value]) -> Vec<u8> {
    messages.iter().flat_map(|m| format!("{m}\n").into_bytes()).collect()
}

fn picoclaw_session() -> Vec<u8> {
    lines(&[
        json!({"jsonrpc": "2.0", "id": 1, "method": "hook.hello", "params": {"name": "h", "version": 1}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "hook.before_tool", "params": {"tool": "bash", "arguments": {}}}),
        json!({"jsonrpc": "2.0", "method": "hook.runtime_event", "params": {"kind": "turn_start"}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "hook.approve_tool", "params": {"tool": "bash"}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "hook.unknown"}),
    ])
}

#[test]
fn one_shot_tool_reads_to_eof_without_newline() {
    let (ending, out) = drive(&config(Family::PromptkitExec, &[]), br#"{"args":{"city":"NYC"}}"#);
    assert_eq!(ending, Ending::InputClosed);
    assert_eq!(out, b"{\"result\":{\"echo\":{\"city\":\"NYC\"}}}\n");
}

#[test]
fn one_shot_garbage_gets_an_error_document() {
    let (_, out) = drive(&config(Family::PromptkitExec, &[]), b"not json");
    assert!(replies(&out)[0]["error"].as_str().unwrap().starts_with("invalid request JSON"));
    let (_, out) = drive(&config(Family::RunokExtension, &[]), b"");
    assert_eq!(replies(&out)[0]["error"]["code"], json!(-32700));
    assert_eq!(replies(&out)[0]["id"], Value::Null);
}

#[test]
fn eval_hook_writes_nothing() {
    let mut c = config(Family::PromptkitExec, &[Fault::LogLine]);
    c.roles = vec![Role::EvalHook];
    let (ending, out) = drive(&c, br#"{"eval_id":"e","type":"t","duration_ms":1}"#);
    assert_eq!((ending, out.len()), (Ending::InputClosed, 0));
}

#[test]
fn picoclaw_answers_pipelined_requests_in_order() {
    let (ending, out) = drive(&config(Family::PicoclawHook, &[]), &picoclaw_session());
    assert_eq!(ending, Ending::InputClosed);
    let r = replies(&out);
    assert_eq!(r.len(), 4, "the notification gets no reply");
    assert_eq!(r[0], json!({"jsonrpc": "2.0", "id": 1, "result": {"ok": true, "name": "mock"}}));
    assert_eq!(r[1]["result"], json!({"action": "continue"}));
    assert_eq!(r[2]["result"], json!({"approved": true}));
    assert_eq!((r[3]["id"].clone(), r[3]["error"]["code"].clone()), (json!(4), json!(-32601)));
}

#[test]
fn server_handles_huge_lines_crlf_and_garbage() {
    let big = "a".repeat(5 * 1024 * 1024);
    let mut input =
        format!("{}\r\n", json!({"jsonrpc": "2.0", "id": 1, "method": "execute", "params": {"args": {"big": big}}})).into_bytes();
    input.extend_from_slice(b"\n{oops\n");
    let (_, out) = drive(&config(Family::PromptkitServer, &[]), &input);
    let r = replies(&out);
    assert_eq!(r[0]["result"]["echo"]["big"].as_str().unwrap().len(), big.len());
    assert_eq!(r[1]["error"]["code"], json!(-32700));
    assert_eq!(r.len(), 2, "blank lines are skipped");
}

#[test]
fn drop_pipelined_answers_only_the_first_line_of_a_read() {
    let (_, out) = drive(&config(Family::PicoclawHook, &[Fault::DropPipelined]), &picoclaw_session());
    let r = replies(&out);
    assert_eq!(r.len(), 1);
    assert_eq!(r[0]["id"], json!(1));
}

#[test]
fn crash_after_counts_answered_requests() {
    let mut c = config(Family::PicoclawHook, &[Fault::CrashAfter]);
    c.crash_after = Some(2);
    let (ending, out) = drive(&c, &picoclaw_session());
    assert_eq!(ending, Ending::Crashed);
    assert_eq!(replies(&out).len(), 2);
    let (ending, out) = drive(&config(Family::PromptkitExec, &[Fault::CrashAfter]), b"{}");
    assert_eq!((ending, replies(&out).len()), (Ending::Crashed, 1));
}

#[test]
fn hang_answers_hello_then_nothing() {
    let (ending, out) = drive(&config(Family::PicoclawHook, &[Fault::Hang]), &picoclaw_session());
    assert_eq!(ending, Ending::Hung);
    assert_eq!(replies(&out).len(), 1);
    let (ending, out) = drive(&config(Family::RunokExtension, &[Fault::Hang]), b"{}");
    assert_eq!((ending, out.len()), (Ending::Hung, 0));
}

#[test]
fn hello_faults() {
    let (_, out) = drive(&config(Family::PicoclawHook, &[Fault::NoHello]), &picoclaw_session());
    let ids: Vec<_> = replies(&out).iter().map(|r| r["id"].clone()).collect();
    assert_eq!(ids, [json!(2), json!(3), json!(4)]);
    let (_, out) = drive(&config(Family::PicoclawHook, &[Fault::HelloError]), &picoclaw_session());
    assert_eq!(replies(&out)[0]["error"]["code"], json!(-32000));
}

#[test]
fn notification_and_unknown_method_faults() {
    let faults = [Fault::ReplyToNotification, Fault::IgnoreUnknownMethod];
    let (_, out) = drive(&config(Family::PicoclawHook, &faults), &picoclaw_session());
    let ids: Vec<_> = replies(&out).iter().map(|r| r["id"].clone()).collect();
    assert_eq!(ids, [json!(1), json!(2), Value::Null, json!(3)]);
}

#[test]
fn partial_line_stops_after_the_first_reply() {
    let (ending, out) = drive(&config(Family::PicoclawHook, &[Fault::PartialLine]), &picoclaw_session());
    assert_eq!(ending, Ending::InputClosed);
    assert!(!out.ends_with(b"\n"));
    assert_eq!(serde_json::from_slice::<Value>(&out).unwrap()["id"], json!(1));
}

#[test]
fn no_flush_holds_everything_until_eof_and_a_crash_loses_it() {
    let (_, out) = drive(&config(Family::PicoclawHook, &[Fault::NoFlush]), &picoclaw_session());
    assert_eq!(replies(&out).len(), 4);
    let (ending, out) = drive(&config(Family::PicoclawHook, &[Fault::NoFlush, Fault::CrashAfter]), &picoclaw_session());
    assert_eq!((ending, out.len()), (Ending::Crashed, 0));
}

#[test]
fn one_shot_framing_faults() {
    let c = config(Family::PromptkitExec, &[Fault::TwoDocuments, Fault::LogLine]);
    let (_, out) = drive(&c, br#"{"args":{}}"#);
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text, "starting mock plugin v1\n{\"result\":{\"echo\":{}}}\n{\"result\":{\"echo\":{}}}\n");
    let (ending, out) = drive(&config(Family::RunokExtension, &[Fault::EmptyOutput]), b"{}");
    assert_eq!((ending, out.len()), (Ending::InputClosed, 0));
}

#[test]
fn needs_newline_loses_an_unterminated_request() {
    let c = config(Family::PromptkitExec, &[Fault::NeedsNewline]);
    let (_, out) = drive(&c, br#"{"args":{"a":1}}"#);
    assert_eq!(replies(&out), [json!({"error": "no input"})]);
    let (_, out) = drive(&c, b"{\"args\":\n{\"a\":1}}\n");
    assert_eq!(replies(&out), [json!({"result": {"echo": {"a": 1}}})]);
    let runok = br#"{"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{}}"#;
    let (_, out) = drive(&config(Family::RunokExtension, &[Fault::NeedsNewline]), runok);
    assert_eq!(replies(&out), [json!({"jsonrpc": "2.0", "id": 1, "result": {"status": "ask"}})]);
}

#[test]
fn strict_fields_reject_new_keys() {
    let c = config(Family::PromptkitExec, &[Fault::StrictFields]);
    let (_, out) = drive(&c, br#"{"args":{},"trace_id":"t"}"#);
    assert_eq!(replies(&out), [json!({"error": "unknown field trace_id"})]);
    let (_, out) = drive(&c, br#"{"args":{"anything":1}}"#);
    assert!(replies(&out)[0].get("result").is_some());
    let c = config(Family::PromptkitServer, &[Fault::StrictFields]);
    let (_, out) = drive(&c, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"execute\",\"params\":{\"args\":{},\"x\":1}}\n");
    assert_eq!(replies(&out)[0]["error"], json!({"code": -32602, "message": "unknown field x"}));
}

/// Counts bytes instead of keeping 50 MiB around.
struct Counter(usize);
impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn floods_come_once_before_the_first_answer() {
    let c = config(Family::PicoclawHook, &[Fault::StderrFlood, Fault::StdoutFlood]);
    let (mut out, mut err) = (Counter(0), Counter(0));
    serve(&c, picoclaw_session().as_slice(), &mut out, &mut err).unwrap();
    assert_eq!(err.0, FLOOD_BYTES);
    assert!(out.0 > FLOOD_BYTES && out.0 < FLOOD_BYTES + 1024, "{}", out.0);
}

#[test]
fn decision_flows_through_the_loop() {
    let mut c = config(Family::PromptkitServer, &[]);
    c.decision = Decision::Deny;
    let (_, out) = drive(&c, b"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"execute\",\"params\":{\"args\":{}}}\n");
    assert_eq!(replies(&out), [json!({"jsonrpc": "2.0", "id": "x", "error": {"code": -32000, "message": "denied by mock"}})]);
}
