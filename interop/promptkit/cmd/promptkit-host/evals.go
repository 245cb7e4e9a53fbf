package main

import (
	"context"
	"fmt"

	"github.com/AltairaLabs/PromptKit/runtime/evals"
	"github.com/AltairaLabs/PromptKit/runtime/evals/handlers"
	"github.com/AltairaLabs/PromptKit/runtime/types"
)

// Default calls: proctor's eval and eval-hook probes.
const (
	defaultEvalCall     = `{"type":"tone_check","params":{"expected_tone":"professional"},"content":"I'd be happy to help you with that <order #42> & more!","context":{"turn_index":1}}`
	defaultEvalHookCall = `{"eval_id":"tone","type":"tone_check","score":0.85,"explanation":"polite","duration_ms":12,"session_id":"sess_123","turn_index":1}`
)

// evalDoc is the exec eval stdin document, execEvalRequest
// (runtime/evals/handlers/exec_handler.go:60), read back into the
// EvalContext fields buildRequest (exec_handler.go:132) copies from.
type evalDoc struct {
	Type    string         `json:"type"`
	Params  map[string]any `json:"params"`
	Content string         `json:"content"`
	Context *struct {
		// messageView{role, content}; content was msg.GetContent()
		// (external_eval.go:85), so text from Parts comes back as Content.
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		TurnIndex int `json:"turn_index"`
		// toolCallView has no tags (tool_call_views.go:44); it is built in
		// external_eval.go:98 with Index=TurnIndex, Name=ToolName,
		// Args=Arguments, Result=fmt.Sprintf("%v", Result). A string Result
		// prints as itself, so the string is the faithful inverse.
		ToolCalls []struct {
			Name   string
			Args   map[string]any
			Result string
			Error  string
			Index  int
		} `json:"tool_calls"`
		Variables map[string]any `json:"variables"`
		Metadata  map[string]any `json:"metadata"`
		SessionID string         `json:"session_id"`
		PromptID  string         `json:"prompt_id"`
	} `json:"context"`
}

// evalOutcome is the EvalResult the runner returns, plus "passed" as the
// runner decides it for its eval events (runtime/evals/runner.go:358-366:
// a bool Value wins, else score >= 1.0; a nil score passes).
type evalOutcome struct {
	*evals.EvalResult
	Passed bool `json:"passed"`
}

// newEvalSurface runs each document's eval through evals.EvalRunner with a
// registry holding an ExecEvalHandler for its type, as the SDK does for
// `spec.evals` bindings (RunTurnEvals, every_turn): the runner's 30 s cap,
// def.Params passed unmodified and the SessionID/TurnIndex stamping apply.
func newEvalSurface(b *binding) *surface {
	s := &surface{defaults: []string{defaultEvalCall}}
	s.parse = func(doc []byte) (call, error) {
		var in evalDoc
		if err := decodeDoc(doc, &in); err != nil {
			return call{}, err
		}
		ec := &evals.EvalContext{CurrentOutput: in.Content}
		if c := in.Context; c != nil {
			ec.TurnIndex, ec.Variables, ec.Metadata, ec.SessionID, ec.PromptID =
				c.TurnIndex, c.Variables, c.Metadata, c.SessionID, c.PromptID
			for _, m := range c.Messages {
				ec.Messages = append(ec.Messages, types.Message{Role: m.Role, Content: m.Content})
			}
			for _, tc := range c.ToolCalls {
				ec.ToolCalls = append(ec.ToolCalls, types.ToolCallRecord{
					TurnIndex: tc.Index, ToolName: tc.Name, Arguments: tc.Args, Result: tc.Result, Error: tc.Error,
				})
			}
		}
		id := b.name
		if id == "" {
			id = in.Type
		}
		return call{run: func(ctx context.Context) (any, *string) {
			reg := evals.NewEmptyEvalTypeRegistry()
			reg.Register(handlers.NewExecEvalHandler(&handlers.ExecEvalConfig{
				TypeName: in.Type, Command: b.command, Args: b.args, Env: b.env, TimeoutMs: max(b.timeoutMs, 0),
			}))
			def := evals.EvalDef{ID: id, Type: in.Type, Trigger: evals.TriggerEveryTurn, Params: in.Params}
			results := evals.NewEvalRunner(reg).RunTurnEvals(ctx, []evals.EvalDef{def}, ec)
			if len(results) == 0 {
				return nil, strPtr("the runner returned no result")
			}
			r := &results[0]
			passed := false
			if !r.Skipped {
				if v, ok := r.Value.(bool); ok {
					passed = v
				} else {
					passed = r.Score == nil || *r.Score >= 1.0
				}
			}
			var errText *string
			if r.Error != "" {
				errText = strPtr(r.Error)
			}
			return evalOutcome{r, passed}, errText
		}}, nil
	}
	return s
}

// hookOutcome: an eval hook returns nothing; PromptKit only logs a failure
// (exec_hook.go OnEvalResult) and carries on. The call's "error" is the
// error PromptKit logged, and "logged" the whole record.
type hookOutcome struct {
	FailureLogged bool `json:"failure_logged"`
}

// newEvalHookSurface calls ExecEvalHook.OnEvalResult with the decoded
// EvalResult. The document is json.Marshal(result) (exec_hook.go:90) and
// EvalResult has json tags, so it decodes directly.
func newEvalHookSurface(b *binding) *surface {
	name := b.name
	if name == "" {
		name = "eval_hook"
	}
	hook := evals.NewExecEvalHook(&evals.ExecEvalHookConfig{
		Name: name, Command: b.command, Args: b.args, Env: b.env, TimeoutMs: max(b.timeoutMs, 0),
	})
	s := &surface{defaults: []string{defaultEvalHookCall}}
	s.parse = func(doc []byte) (call, error) {
		var r evals.EvalResult
		if err := decodeDoc(doc, &r); err != nil {
			return call{}, err
		}
		return call{run: func(ctx context.Context) (any, *string) {
			def := &evals.EvalDef{ID: r.EvalID, Type: r.Type}
			hook.OnEvalResult(ctx, def, &evals.EvalContext{SessionID: r.SessionID, TurnIndex: r.TurnIndex}, &r)
			for _, rec := range logs.peek() {
				if rec["msg"] == "exec eval hook: subprocess failed" {
					text := fmt.Sprint(rec["error"])
					if stderr, _ := rec["stderr"].(string); stderr != "" {
						text += " (stderr: " + stderr + ")"
					}
					return hookOutcome{true}, &text
				}
			}
			return hookOutcome{false}, nil
		}}, nil
	}
	return s
}
