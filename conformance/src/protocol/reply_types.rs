//! The Go types PromptKit and PicoClaw decode each plugin reply into.
//!
//! Both runtimes read every reply with `json.Unmarshal` into a typed struct,
//! so what a reply means to them is decided by these types and Go's rules
//! ([`crate::gojson`]): keys match case-insensitively, a wrong type anywhere
//! fails the whole reply, unknown keys are ignored. Each type below is the
//! runtime's own, field for field (json tags, pointer or value, element
//! types), cited at the release interop/ runs (PromptKit runtime v1.5.11,
//! PicoClaw v0.3.1, whose hook host is byte-identical with v0.2.9 and
//! cf67dd3). Fields the runtime never reads are still listed: a wrong type
//! in them fails the reply all the same.

use crate::gojson::{GoField as F, GoType as T};

use super::picoclaw_hook::{AFTER_LLM, AFTER_TOOL, APPROVE_TOOL, BEFORE_LLM, BEFORE_TOOL, HELLO};
use super::{Family, Role};

fn int() -> T {
    T::Int { bits: 0 }
}

fn float64() -> T {
    T::Float { bits: 64 }
}

/// PromptKit `tools.execToolResponse` (runtime/tools/exec_executor.go:38-49).
fn promptkit_exec_tool() -> T {
    let pending = T::strukt("tools.execPending", vec![F::new("reason", "Reason", T::String), F::new("message", "Message", T::String)]);
    T::strukt(
        "tools.execToolResponse",
        vec![F::new("result", "Result", T::RawMessage), F::new("error", "Error", T::String), F::new("pending", "Pending", T::ptr(pending))],
    )
}

/// PromptKit `hooks.execHookResponse` (runtime/hooks/exec_hooks.go:45-52).
fn promptkit_exec_hook() -> T {
    T::strukt(
        "hooks.execHookResponse",
        vec![
            F::new("allow", "Allow", T::Bool),
            F::new("reason", "Reason", T::String),
            F::new("enforced", "Enforced", T::Bool),
            F::new("ack", "Ack", T::Bool),
            F::new("metadata", "Metadata", T::map(T::Any)),
        ],
    )
}

/// PromptKit `handlers.execEvalResponse` (runtime/evals/handlers/exec_handler.go:78-83).
fn promptkit_exec_eval() -> T {
    T::strukt(
        "handlers.execEvalResponse",
        vec![F::new("score", "Score", float64()), F::new("detail", "Detail", T::String), F::new("data", "Data", T::map(T::Any))],
    )
}

/// PromptKit `selection.execResponse` (runtime/selection/exec_client.go:37-40).
fn promptkit_exec_selector() -> T {
    T::strukt("selection.execResponse", vec![F::new("selected", "Selected", T::slice(T::String)), F::new("reason", "Reason", T::String)])
}

/// PromptKit `tools.jsonRPCResponse` (runtime/tools/server_executor.go:71-81).
pub fn promptkit_server_response() -> T {
    let error = T::strukt("tools.jsonRPCError", vec![F::new("code", "Code", int()), F::new("message", "Message", T::String)]);
    T::strukt(
        "tools.jsonRPCResponse",
        vec![
            F::new("jsonrpc", "JSONRPC", T::String),
            F::new("result", "Result", T::RawMessage),
            F::new("error", "Error", T::ptr(error)),
            F::new("id", "ID", T::Int { bits: 64 }),
        ],
    )
}

/// The type a PromptKit one-shot reply of `role` is decoded into; `None`
/// where PromptKit never reads stdout (session hooks, the eval hook).
pub fn promptkit_oneshot(role: Role) -> Option<T> {
    match role {
        Role::Tool => Some(promptkit_exec_tool()),
        Role::ProviderHook | Role::ToolHook => Some(promptkit_exec_hook()),
        Role::Eval => Some(promptkit_exec_eval()),
        Role::Selector => Some(promptkit_exec_selector()),
        _ => None,
    }
}

/// PicoClaw `agent.processHookRPCMessage` (pkg/agent/hook_process.go:59-71):
/// every stdout line is decoded into it; a line that fails is skipped.
pub fn picoclaw_envelope() -> T {
    let error = T::strukt("agent.processHookRPCError", vec![F::new("code", "Code", int()), F::new("message", "Message", T::String)]);
    T::strukt(
        "agent.processHookRPCMessage",
        vec![
            F::new("jsonrpc", "JSONRPC", T::String),
            F::new("id", "ID", T::Uint { bits: 64 }),
            F::new("method", "Method", T::String),
            F::new("params", "Params", T::RawMessage),
            F::new("result", "Result", T::RawMessage),
            F::new("error", "Error", T::ptr(error)),
        ],
    )
}

/// `tools.ToolResult` (pkg/tools/shared/result.go:18-62): no UnmarshalJSON.
fn picoclaw_tool_result() -> T {
    T::strukt(
        "tools.ToolResult",
        vec![
            F::new("for_llm", "ForLLM", T::String),
            F::new("for_user", "ForUser", T::String),
            F::new("silent", "Silent", T::Bool),
            F::new("is_error", "IsError", T::Bool),
            F::new("async", "Async", T::Bool),
            F::new("media", "Media", T::slice(T::String)),
            F::new("artifact_tags", "ArtifactTags", T::slice(T::String)),
            F::new("response_handled", "ResponseHandled", T::Bool),
        ],
    )
}

/// `agent.HookMeta` (pkg/agent/events.go:11-20): untagged, so its keys are the Go names.
fn picoclaw_meta() -> T {
    let s = |n: &'static str| F::new(n, n, T::String);
    T::strukt(
        "agent.HookMeta",
        vec![
            s("AgentID"),
            s("TurnID"),
            s("ParentTurnID"),
            s("SessionKey"),
            F::new("Iteration", "Iteration", int()),
            s("TracePath"),
            s("Source"),
        ],
    )
}

/// `*agent.TurnContext` (pkg/agent/turn_context.go:11-15); its three members
/// are pointers to structs of other packages, modelled as any JSON object.
fn picoclaw_turn_context() -> T {
    let member = || T::ptr(T::strukt("", vec![]));
    T::ptr(T::strukt(
        "agent.TurnContext",
        vec![F::new("inbound", "Inbound", member()), F::new("route", "Route", member()), F::new("scope", "Scope", member())],
    ))
}

/// `providers.ToolCall` and `providers.FunctionCall` (pkg/providers/protocoltypes/types.go).
fn picoclaw_tool_call() -> T {
    let function = T::strukt(
        "protocoltypes.FunctionCall",
        vec![
            F::new("name", "Name", T::String),
            F::new("arguments", "Arguments", T::String),
            F::new("thought_signature", "ThoughtSignature", T::String),
        ],
    );
    T::strukt(
        "protocoltypes.ToolCall",
        vec![
            F::new("id", "ID", T::String),
            F::new("type", "Type", T::String),
            F::new("function", "Function", T::ptr(function)),
            F::new("extra_content", "ExtraContent", T::ptr(T::strukt("", vec![]))),
        ],
    )
}

/// `providers.Message` (pkg/providers/protocoltypes/types.go).
fn picoclaw_message() -> T {
    T::strukt(
        "protocoltypes.Message",
        vec![
            F::new("role", "Role", T::String),
            F::new("content", "Content", T::String),
            F::new("model_name", "ModelName", T::String),
            F::new("media", "Media", T::slice(T::String)),
            F::new("attachments", "Attachments", T::slice(T::Any)),
            F::new("reasoning_content", "ReasoningContent", T::String),
            F::new("system_parts", "SystemParts", T::slice(T::Any)),
            F::new("tool_calls", "ToolCalls", T::slice(picoclaw_tool_call())),
            F::new("tool_call_id", "ToolCallID", T::String),
        ],
    )
}

fn picoclaw_llm_request() -> T {
    let function = T::strukt(
        "protocoltypes.ToolFunctionDefinition",
        vec![
            F::new("name", "Name", T::String),
            F::new("description", "Description", T::String),
            F::new("parameters", "Parameters", T::map(T::Any)),
        ],
    );
    let tool = T::strukt("protocoltypes.ToolDefinition", vec![F::new("type", "Type", T::String), F::new("function", "Function", function)]);
    T::strukt(
        "agent.LLMHookRequest",
        vec![
            F::new("meta", "Meta", picoclaw_meta()),
            F::new("context", "Context", picoclaw_turn_context()),
            F::new("model", "Model", T::String),
            F::new("messages", "Messages", T::slice(picoclaw_message())),
            F::new("tools", "Tools", T::slice(tool)),
            F::new("options", "Options", T::map(T::Any)),
            F::new("graceful_terminal", "GracefulTerminal", T::Bool),
        ],
    )
}

fn picoclaw_llm_response() -> T {
    let usage = T::ptr(T::strukt("", vec![]));
    let response = T::strukt(
        "protocoltypes.LLMResponse",
        vec![
            F::new("content", "Content", T::String),
            F::new("reasoning_content", "ReasoningContent", T::String),
            F::new("tool_calls", "ToolCalls", T::slice(picoclaw_tool_call())),
            F::new("finish_reason", "FinishReason", T::String),
            F::new("usage", "Usage", usage),
            F::new("reasoning", "Reasoning", T::String),
            F::new("reasoning_details", "ReasoningDetails", T::slice(T::Any)),
        ],
    );
    T::strukt(
        "agent.LLMHookResponse",
        vec![
            F::new("meta", "Meta", picoclaw_meta()),
            F::new("context", "Context", picoclaw_turn_context()),
            F::new("model", "Model", T::String),
            F::new("response", "Response", T::ptr(response)),
        ],
    )
}

fn picoclaw_tool_call_request() -> T {
    T::strukt(
        "agent.ToolCallHookRequest",
        vec![
            F::new("meta", "Meta", picoclaw_meta()),
            F::new("context", "Context", picoclaw_turn_context()),
            F::new("tool", "Tool", T::String),
            F::new("arguments", "Arguments", T::map(T::Any)),
            F::new("channel", "Channel", T::String),
            F::new("chat_id", "ChatID", T::String),
            F::new("hook_result", "HookResult", T::ptr(picoclaw_tool_result())),
        ],
    )
}

fn picoclaw_tool_result_response() -> T {
    T::strukt(
        "agent.ToolResultHookResponse",
        vec![
            F::new("meta", "Meta", picoclaw_meta()),
            F::new("context", "Context", picoclaw_turn_context()),
            F::new("tool", "Tool", T::String),
            F::new("arguments", "Arguments", T::map(T::Any)),
            F::new("result", "Result", T::ptr(picoclaw_tool_result())),
            F::new("duration", "Duration", T::Int { bits: 64 }),
        ],
    )
}

/// The `result` type of a PicoClaw method (pkg/agent/hook_process.go:73-102,
/// hooks.go:48): the decision is an embedded `processHookDecisionResponse`
/// whose `action` and `reason` are promoted; hello's result is a map.
pub fn picoclaw_result(method: &str) -> Option<T> {
    let decision = || {
        F::embedded(
            "processHookDecisionResponse",
            T::strukt(
                "agent.processHookDecisionResponse",
                vec![F::new("action", "Action", T::String), F::new("reason", "Reason", T::String)],
            ),
        )
    };
    let with = |name: &'static str, payload: Vec<F>| {
        let mut fields = vec![decision()];
        fields.extend(payload);
        T::strukt(name, fields)
    };
    Some(match method {
        HELLO => T::map(T::Any),
        APPROVE_TOOL => {
            T::strukt("agent.ApprovalDecision", vec![F::new("approved", "Approved", T::Bool), F::new("reason", "Reason", T::String)])
        }
        BEFORE_LLM => with("agent.processHookBeforeLLMResponse", vec![F::new("request", "Request", T::ptr(picoclaw_llm_request()))]),
        AFTER_LLM => with("agent.processHookAfterLLMResponse", vec![F::new("response", "Response", T::ptr(picoclaw_llm_response()))]),
        BEFORE_TOOL => with(
            "agent.processHookBeforeToolResponse",
            vec![F::new("call", "Call", T::ptr(picoclaw_tool_call_request())), F::new("result", "Result", T::ptr(picoclaw_tool_result()))],
        ),
        AFTER_TOOL => with("agent.processHookAfterToolResponse", vec![F::new("result", "Result", T::ptr(picoclaw_tool_result_response()))]),
        _ => return None,
    })
}

/// Whether `family`'s runtime decodes replies with Go's encoding/json.
pub fn decoded_by_go(family: Family) -> bool {
    matches!(family, Family::PromptkitExec | Family::PromptkitServer | Family::PicoclawHook)
}
