package main

import (
	"context"
	"encoding/json"

	"github.com/AltairaLabs/PromptKit/runtime/tools"
)

// Default calls: proctor's tool probes (conformance/src/protocol/promptkit_exec.rs,
// promptkit_server.rs).
const (
	defaultExecToolCall   = `{"args":{"city":"Paris","units":"metric"}}`
	defaultServerToolCall = `{"args":{"key":"greeting","value":"hello <world> & co"}}`
)

// toolOutcome is tools.ToolExecutionResult as the pipeline receives it from
// Registry.ExecuteAsync, plus the content's exact bytes (json.RawMessage is
// re-compacted when this line is encoded; the raw-stdout fallback of
// exec_executor.go keeps whitespace and newlines that matter).
type toolOutcome struct {
	Status      tools.ToolExecutionStatus `json:"status"`
	Content     json.RawMessage           `json:"content,omitempty"`
	ContentText *string                   `json:"content_text,omitempty"`
	Error       string                    `json:"error,omitempty"`
	PendingInfo *tools.PendingToolInfo    `json:"pending_info,omitempty"`
	Parts       any                       `json:"parts,omitempty"`
}

// newToolSurface registers the plugin as a pack tool bound to an exec
// binding, the way the SDK does it (sdk/exec_tools.go registerExecExecutor:
// it registers ExecExecutor or ServerExecutor, then sets Mode "exec"/"server"
// and ExecConfig on the tool's descriptor). Calls go through
// Registry.ExecuteAsync like the provider stage's tool calls
// (runtime/pipeline/stage/stages_provider.go:1897), so CoerceArgs,
// ValidateArgs and the registry timeout apply.
func newToolSurface(b *binding, server bool) *surface {
	reg := tools.NewRegistry()
	mode, rt, name, defaults := "exec", "", "get_weather", []string{defaultExecToolCall}
	var se *tools.ServerExecutor
	if server {
		se = &tools.ServerExecutor{}
		reg.RegisterExecutor(se)
		mode, rt, name, defaults = "server", "server", "kv", []string{defaultServerToolCall}
	} else {
		reg.RegisterExecutor(&tools.ExecExecutor{})
	}
	if b.name != "" {
		name = b.name
	}
	// PromptKit never reads ExecConfig.TimeoutMs (research §1.2.4); the
	// registry's descriptor timeout is what bounds a call.
	timeout := tools.DefaultToolTimeout
	if b.timeoutMs >= 0 {
		timeout = b.timeoutMs
	}
	_ = reg.Register(&tools.ToolDescriptor{
		Name:        name,
		Description: "plugin under test",
		InputSchema: b.inputSchema,
		Mode:        mode,
		TimeoutMs:   timeout,
		ExecConfig: &tools.ExecConfig{
			Command: b.command, Runtime: rt, Args: b.args, Env: b.env, TimeoutMs: max(b.timeoutMs, 0),
		},
	})

	s := &surface{defaults: defaults}
	s.parse = func(doc []byte) (call, error) {
		// One-shot: the document is json.Marshal(execToolRequest{Args: args})
		// (runtime/tools/exec_executor.go:60). Server: the document is the
		// params map{"args": args} (runtime/tools/server_executor.go:187).
		// Either way the only Go input is the raw args the LLM emitted.
		var in struct {
			Args json.RawMessage `json:"args"`
		}
		if err := decodeDoc(doc, &in); err != nil {
			return call{}, err
		}
		return call{run: func(ctx context.Context) (any, *string) {
			res, err := reg.ExecuteAsync(ctx, name, in.Args)
			if err != nil {
				return nil, errString(err)
			}
			out := toolOutcome{Status: res.Status, Content: res.Content, Error: res.Error, PendingInfo: res.PendingInfo}
			if res.Content != nil {
				out.ContentText = strPtr(string(res.Content))
			}
			if len(res.Parts) > 0 {
				out.Parts = res.Parts
			}
			if res.Error != "" {
				return out, strPtr(res.Error)
			}
			return out, nil
		}}, nil
	}
	if server {
		// Conversation.Close calls ServerExecutor.Close: close stdin, wait
		// 2 s, then kill (runtime/tools/server_executor.go close).
		s.close = se.Close
	}
	return s
}
