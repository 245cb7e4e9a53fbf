package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/sipeed/picoclaw/pkg/agent"
	"github.com/sipeed/picoclaw/pkg/events"
)

// call is one step of the sequence: a method name and its params, already
// decoded into the Go type the real host holds at that point (e.g.
// *agent.LLMHookRequest). Decoding here, before the plugin starts, means a
// bad calls file is a usage error and never half a run.
type call struct {
	Method string
	Value  any
}

// decoders turns wire params into the real PicoClaw Go values. The host
// re-encodes these values when it talks to the plugin, so fields the Go
// types lack are dropped on purpose: that is what this driver measures.
var decoders = map[string]func(json.RawMessage) (any, error){
	"hook.before_llm":    decodeInto[agent.LLMHookRequest],
	"hook.after_llm":     decodeInto[agent.LLMHookResponse],
	"hook.before_tool":   decodeInto[agent.ToolCallHookRequest],
	"hook.after_tool":    decodeInto[agent.ToolResultHookResponse],
	"hook.approve_tool":  decodeInto[agent.ToolApprovalRequest],
	"hook.runtime_event": decodeEvent,
}

func decodeInto[T any](raw json.RawMessage) (any, error) {
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, err
	}
	return v, nil
}

// agentPayloads maps agent event kinds to the payload struct AgentLoop.emitEvent
// publishes for them (pkg/agent/event_payloads.go). events.Event.Payload is
// `any`, so a plain Unmarshal would leave a map whose keys encoding/json
// re-emits sorted; the real host publishes these structs, whose fields come
// out in declaration order and without unknown keys. Other kinds keep the
// generic decoded value.
var agentPayloads = map[events.Kind]func(json.RawMessage) (any, error){
	events.KindAgentTurnStart:              payloadAs[agent.TurnStartPayload],
	events.KindAgentTurnEnd:                payloadAs[agent.TurnEndPayload],
	events.KindAgentLLMRequest:             payloadAs[agent.LLMRequestPayload],
	events.KindAgentLLMDelta:               payloadAs[agent.LLMDeltaPayload],
	events.KindAgentLLMResponse:            payloadAs[agent.LLMResponsePayload],
	events.KindAgentLLMRetry:               payloadAs[agent.LLMRetryPayload],
	events.KindAgentContextCompress:        payloadAs[agent.ContextCompressPayload],
	events.KindAgentSessionSummarize:       payloadAs[agent.SessionSummarizePayload],
	events.KindAgentToolExecStart:          payloadAs[agent.ToolExecStartPayload],
	events.KindAgentToolExecEnd:            payloadAs[agent.ToolExecEndPayload],
	events.KindAgentToolExecSkipped:        payloadAs[agent.ToolExecSkippedPayload],
	events.KindAgentSteeringInjected:       payloadAs[agent.SteeringInjectedPayload],
	events.KindAgentFollowUpQueued:         payloadAs[agent.FollowUpQueuedPayload],
	events.KindAgentInterruptReceived:      payloadAs[agent.InterruptReceivedPayload],
	events.KindAgentSubTurnSpawn:           payloadAs[agent.SubTurnSpawnPayload],
	events.KindAgentSubTurnEnd:             payloadAs[agent.SubTurnEndPayload],
	events.KindAgentSubTurnResultDelivered: payloadAs[agent.SubTurnResultDeliveredPayload],
	events.KindAgentSubTurnOrphan:          payloadAs[agent.SubTurnOrphanPayload],
	events.KindAgentError:                  payloadAs[agent.ErrorPayload],
}

// payloadAs stores the payload by value, as emitEvent does.
func payloadAs[T any](raw json.RawMessage) (any, error) {
	var v T
	err := json.Unmarshal(raw, &v)
	return v, err
}

func decodeEvent(raw json.RawMessage) (any, error) {
	var evt events.Event
	if err := json.Unmarshal(raw, &evt); err != nil {
		return nil, err
	}
	var payload struct {
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(raw, &payload); err != nil {
		return nil, err
	}
	typed, ok := agentPayloads[evt.Kind]
	if ok && len(payload.Payload) > 0 && !bytes.Equal(payload.Payload, []byte("null")) {
		v, err := typed(payload.Payload)
		if err != nil {
			return nil, fmt.Errorf("payload of %s: %w", evt.Kind, err)
		}
		evt.Payload = v
	}
	return &evt, nil
}

// parseCalls reads JSON lines {"method":...,"params":{...}}. Blank lines are
// skipped; errors name the 1-based line number.
func parseCalls(r io.Reader) ([]call, error) {
	var calls []call
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 64*1024*1024)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var entry struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(text), &entry); err != nil {
			return nil, fmt.Errorf("calls line %d: not a JSON object: %w", line, err)
		}
		decode, ok := decoders[entry.Method]
		if !ok {
			return nil, fmt.Errorf("calls line %d: unknown method %q (want one of %s)",
				line, entry.Method, methodList())
		}
		if len(entry.Params) == 0 || bytes.Equal(entry.Params, []byte("null")) {
			return nil, fmt.Errorf("calls line %d: params object is required", line)
		}
		value, err := decode(entry.Params)
		if err != nil {
			return nil, fmt.Errorf("calls line %d: params do not decode into the %s type: %w",
				line, entry.Method, err)
		}
		calls = append(calls, call{Method: entry.Method, Value: value})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading calls: %w", err)
	}
	return calls, nil
}

func methodList() string {
	return "hook.before_llm, hook.after_llm, hook.before_tool, hook.after_tool, " +
		"hook.approve_tool, hook.runtime_event"
}

// defaultCalls is one turn through every stage, with the params proctor's
// picoclaw@cf67dd3 profile sends (proctor certify ... --record), so a run
// without --calls is directly comparable to proctor's own exchange.
const defaultCalls = `
{"method":"hook.before_llm","params":{"meta":{"AgentID":"agent-1","TurnID":"turn-1","ParentTurnID":"","SessionKey":"session-1","Iteration":0,"TracePath":"turn.llm.request","Source":"runTurn"},"model":"claude-sonnet","messages":[{"role":"system","content":"You are PicoClaw."},{"role":"user","content":"list the files <here> & there"}],"tools":[{"type":"function","function":{"name":"bash","description":"run a shell command","parameters":{"type":"object","properties":{"command":{"type":"string"}}}}}],"options":{"temperature":0.7,"max_tokens":1024}}}
{"method":"hook.before_tool","params":{"meta":{"AgentID":"agent-1","TurnID":"turn-1","ParentTurnID":"","SessionKey":"session-1","Iteration":0,"TracePath":"turn.tool.before","Source":"runTurn"},"tool":"bash","arguments":{"command":"ls -la"}}}
{"method":"hook.approve_tool","params":{"meta":{"AgentID":"agent-1","TurnID":"turn-1","ParentTurnID":"","SessionKey":"session-1","Iteration":0,"TracePath":"turn.tool.approve","Source":"runTurn"},"tool":"bash","arguments":{"command":"ls -la"}}}
{"method":"hook.after_tool","params":{"meta":{"AgentID":"agent-1","TurnID":"turn-1","ParentTurnID":"","SessionKey":"session-1","Iteration":0,"TracePath":"turn.tool.after","Source":"runTurn"},"tool":"bash","arguments":{"command":"ls -la"},"result":{"for_llm":"file1.txt\nfile2.txt","silent":false,"is_error":false,"async":false},"duration":15000000}}
{"method":"hook.after_llm","params":{"meta":{"AgentID":"agent-1","TurnID":"turn-1","ParentTurnID":"","SessionKey":"session-1","Iteration":0,"TracePath":"turn.llm.response","Source":"runTurn"},"model":"claude-sonnet","response":{"content":"Listing files.","tool_calls":[{"id":"tc-1"}],"finish_reason":"tool_calls","reasoning":"","reasoning_details":null}}}
{"method":"hook.runtime_event","params":{"id":"evt-1","kind":"agent.tool.exec_start","time":"2026-06-13T10:00:00Z","source":{"component":"agent"},"scope":{"agent_id":"agent-1","session_key":"session-1","turn_id":"turn-1"},"correlation":{},"payload":{"Tool":"bash","Arguments":{"command":"ls -la"}}}}
`
