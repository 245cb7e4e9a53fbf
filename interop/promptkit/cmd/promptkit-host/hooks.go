package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/AltairaLabs/PromptKit/runtime/hooks"
	"github.com/AltairaLabs/PromptKit/runtime/hooks/execconfig"
)

// Default calls: the documents proctor sends for its hook probes.
var defaultHookCalls = map[string][]string{
	"provider": {
		`{"hook":"provider","phase":"before_call","request":{"ProviderID":"main","Model":"claude-sonnet-4-20250514","Messages":[{"role":"user","content":"What is the weather in Paris? <b>now</b>","timestamp":"0001-01-01T00:00:00Z"}],"SystemPrompt":"You are a helpful assistant.","Round":1,"Metadata":null,"Replacement":""}}`,
		`{"hook":"provider","phase":"after_call","request":{"ProviderID":"main","Model":"claude-sonnet-4-20250514","Messages":[{"role":"user","content":"What is the weather in Paris? <b>now</b>","timestamp":"0001-01-01T00:00:00Z"}],"SystemPrompt":"You are a helpful assistant.","Round":1,"Metadata":null,"Replacement":""},"response":{"ProviderID":"main","Model":"claude-sonnet-4-20250514","Message":{"role":"assistant","content":"It is 18 °C and cloudy in Paris.","timestamp":"0001-01-01T00:00:00Z"},"Round":1,"LatencyMs":450}}`,
	},
	"tool": {
		`{"hook":"tool","phase":"before_execution","request":{"Name":"db_query","Args":{"query":"SELECT name FROM users WHERE id < 10"},"CallID":"call_0_db_query"}}`,
		`{"hook":"tool","phase":"after_execution","request":{"Name":"db_query","Args":{"query":"SELECT name FROM users WHERE id < 10"},"CallID":"call_0_db_query"},"response":{"Name":"db_query","CallID":"call_0_db_query","Content":"{\"rows\": []}","Error":"","LatencyMs":120}}`,
	},
	"session": {
		`{"hook":"session","phase":"session_start","event":{"SessionID":"sess_123","ConversationID":"conv_456","Messages":null,"TurnIndex":0,"Metadata":null}}`,
		`{"hook":"session","phase":"session_update","event":{"SessionID":"sess_123","ConversationID":"conv_456","Messages":null,"TurnIndex":1,"Metadata":null}}`,
		`{"hook":"session","phase":"session_end","event":{"SessionID":"sess_123","ConversationID":"conv_456","Messages":null,"TurnIndex":1,"Metadata":null}}`,
	},
}

// Every phase of the hook type is listed: PromptKit spawns nothing for a
// phase missing from `phases:` (exec_hooks.go hasPhase).
var hookPhases = map[string][]string{
	"provider": {"before_call", "after_call"},
	"tool":     {"before_execution", "after_execution"},
	"session":  {"session_start", "session_update", "session_end"},
}

// hookDoc is the document an exec hook receives: execHookRequest
// (runtime/hooks/exec_hooks.go:37) with request/response/event still raw.
type hookDoc struct {
	Hook     string          `json:"hook"`
	Phase    string          `json:"phase"`
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
	Event    json.RawMessage `json:"event"`
}

// sessionOutcome is what a session hook returns to the SDK: only an error
// (stdout is never parsed, exec_hooks.go runSessionPhase).
type sessionOutcome struct {
	ErrorReturned bool `json:"error_returned"`
}

// newHookSurface builds the hook from a RuntimeConfig-shaped binding with
// hooks.BuildExecHooks (the code the SDK and Arena share) and calls it through
// hooks.Registry, as the provider stage and the SDK session dispatch do.
func newHookSurface(kind string, b *binding) (*surface, error) {
	name := b.name
	if name == "" {
		name = kind + "_hook"
	}
	bindings := map[string]*execconfig.ExecHook{name: {
		ExecBinding: execconfig.ExecBinding{Command: b.command, Args: b.args, Env: b.env, TimeoutMs: max(b.timeoutMs, 0)},
		Hook:        kind,
		Phases:      hookPhases[kind],
		Mode:        b.mode,
	}}
	provider, tool, session, err := hooks.BuildExecHooks(bindings, nil)
	if err != nil {
		return nil, err
	}
	var opts []hooks.Option
	for _, h := range provider {
		opts = append(opts, hooks.WithProviderHook(h))
	}
	for _, h := range tool {
		opts = append(opts, hooks.WithToolHook(h))
	}
	for _, h := range session {
		opts = append(opts, hooks.WithSessionHook(h))
	}
	reg := hooks.NewRegistry(opts...)

	s := &surface{defaults: defaultHookCalls[kind]}
	s.parse = func(doc []byte) (call, error) {
		var in hookDoc
		if err := decodeDoc(doc, &in); err != nil {
			return call{}, err
		}
		if in.Hook != kind {
			return call{}, fmt.Errorf("\"hook\" is %q, this surface is %q", in.Hook, kind)
		}
		run, err := hookCall(reg, &in)
		return call{phase: in.Phase, run: run}, err
	}
	return s, nil
}

// hookCall decodes the document's request/response/event into the hook
// types. They have no json tags (runtime/hooks/types.go), so the document's
// PascalCase keys are the Go field names; any other key is dropped.
//
// The phase picks the registry method; PromptKit sets "phase" itself from
// the method called (exec_hooks.go:194, 209, 237, 250, 292).
func hookCall(reg *hooks.Registry, in *hookDoc) (func(context.Context) (any, *string), error) {
	// A request/response/event absent from the document is still passed as
	// a (zero) value: the pipeline always passes one, and omitempty on an
	// `any` holding a struct or non-nil pointer never omits it.
	decode := func(raw json.RawMessage, v any) error {
		if len(raw) == 0 {
			return nil
		}
		return decodeDoc(raw, v)
	}
	decision := func(d hooks.Decision) (any, *string) { return d, nil }
	switch in.Phase {
	case "before_call", "after_call":
		// stages_provider.go:2028 (before) and :1971/:1979 (after).
		req, resp := &hooks.ProviderRequest{}, &hooks.ProviderResponse{}
		if err := decode(in.Request, req); err != nil {
			return nil, err
		}
		if err := decode(in.Response, resp); err != nil {
			return nil, err
		}
		if in.Phase == "before_call" {
			return func(ctx context.Context) (any, *string) { return decision(reg.RunBeforeProviderCall(ctx, req)) }, nil
		}
		return func(ctx context.Context) (any, *string) { return decision(reg.RunAfterProviderCall(ctx, req, resp)) }, nil
	case "before_execution", "after_execution":
		// stages_provider.go:1838 (before) and :2321/:2324 (after).
		var req hooks.ToolRequest
		var resp hooks.ToolResponse
		if err := decode(in.Request, &req); err != nil {
			return nil, err
		}
		if err := decode(in.Response, &resp); err != nil {
			return nil, err
		}
		if in.Phase == "before_execution" {
			return func(ctx context.Context) (any, *string) { return decision(reg.RunBeforeToolExecution(ctx, req)) }, nil
		}
		return func(ctx context.Context) (any, *string) { return decision(reg.RunAfterToolExecution(ctx, req, resp)) }, nil
	case "session_start", "session_update", "session_end":
		var ev hooks.SessionEvent
		if err := decode(in.Event, &ev); err != nil {
			return nil, err
		}
		fire := map[string]func(context.Context, hooks.SessionEvent) error{
			"session_start": reg.RunSessionStart, "session_update": reg.RunSessionUpdate, "session_end": reg.RunSessionEnd,
		}[in.Phase]
		return func(ctx context.Context) (any, *string) {
			err := fire(ctx, ev)
			return sessionOutcome{ErrorReturned: err != nil}, errString(err)
		}, nil
	}
	return nil, fmt.Errorf("unknown phase %q", in.Phase)
}
