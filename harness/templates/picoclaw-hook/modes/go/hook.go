// A PicoClaw process hook serving every mode (protocol picoclaw-hook).
//
// PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
// message per line on stdin and waits for one reply line per request, with
// the same id. Which of these it sends depends on the modes the hook is
// configured with (observe, llm, tool, approve); this hook answers them all:
//
//	hook.hello         {"name":..., "version":1, "modes":[...]}        -> {"ok": true}
//	hook.before_llm    {"model": ..., "messages": [...]}                -> {"action": "continue" | "abort_turn", "reason": ...}
//	hook.after_llm     {"model": ..., "response": {...}}                -> {"action": "continue"}
//	hook.before_tool   {"tool": "bash", "arguments": {...}}             -> {"action": "continue" | "deny_tool", "reason": ...}
//	hook.after_tool    {"tool": ..., "arguments": ..., "result": ...}   -> {"action": "continue"}
//	hook.approve_tool  {"tool": ..., "arguments": {...}}                -> {"approved": true | false, "reason": ...}
//	hook.runtime_event {"kind": ..., ...}   a notification (mode observe): never answered
//
// Messages without an id are notifications: never answer them.
//
// Reply to each request with one line as soon as it is read, echoing its id:
// PicoClaw waits for the reply while stdin is still open (a hook.hello that
// never arrives stops the agent), and several requests can be in flight.
//
// The rules below are examples: the turn ends when the user says "stop", the
// tool delete_file is refused, a command using sudo is not approved. Put your
// own in the functions.
//
// Build it once (`go build -o hook .`) and let PicoClaw run ./hook:
// `go run .` would compile it again each time PicoClaw starts the hook.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// action is the answer to hook.before_llm, hook.after_llm, hook.before_tool
// and hook.after_tool.
type action struct {
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
}

// beforeLLM is your rule: "continue", or "abort_turn" with a reason.
func beforeLLM(params map[string]any) (any, error) {
	messages, _ := params["messages"].([]any)
	last := ""
	for _, m := range messages {
		if message, ok := m.(map[string]any); ok && message["role"] == "user" {
			last, _ = message["content"].(string)
		}
	}
	if strings.Contains(strings.ToLower(last), "stop") {
		return action{Action: "abort_turn", Reason: "the user asked to stop"}, nil
	}
	return action{Action: "continue"}, nil
}

// afterLLM is called with the LLM's answer; "continue" keeps it as it is.
func afterLLM(params map[string]any) (any, error) {
	return action{Action: "continue"}, nil
}

// deniedTools are the tools beforeTool refuses.
var deniedTools = map[string]bool{"delete_file": true}

// beforeTool is your rule: "continue", or "deny_tool" with a reason.
func beforeTool(params map[string]any) (any, error) {
	if tool, _ := params["tool"].(string); deniedTools[tool] {
		return action{Action: "deny_tool", Reason: "the tool " + tool + " is not allowed here"}, nil
	}
	return action{Action: "continue"}, nil
}

// afterTool is called with the tool's result; "continue" keeps it as it is.
func afterTool(params map[string]any) (any, error) {
	return action{Action: "continue"}, nil
}

// approval is the answer to hook.approve_tool. Approved is always written:
// PicoClaw reads a missing field as a refusal.
type approval struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// approveTool is your rule: approved or not, and why.
func approveTool(params map[string]any) (any, error) {
	arguments, _ := params["arguments"].(map[string]any)
	command, _ := arguments["command"].(string)
	for _, word := range strings.Fields(command) {
		if word == "sudo" {
			return approval{Approved: false, Reason: "commands using sudo need a human"}, nil
		}
	}
	return approval{Approved: true, Reason: "no objection"}, nil
}

// onEvent is your logic for a runtime event: record, count, forward...
// (stdout is for replies only).
func onEvent(params map[string]any) {
	kind, ok := params["kind"]
	if !ok || kind == nil || kind == "" {
		kind = params["Kind"]
	}
	fmt.Fprintf(os.Stderr, "hook: event: %v\n", kind)
}

// methods are the requests this hook answers, by name.
var methods = map[string]func(params map[string]any) (any, error){
	"hook.hello":        func(map[string]any) (any, error) { return map[string]bool{"ok": true}, nil },
	"hook.before_llm":   beforeLLM,
	"hook.after_llm":    afterLLM,
	"hook.before_tool":  beforeTool,
	"hook.after_tool":   afterTool,
	"hook.approve_tool": approveTool,
}

// rpcError is a JSON-RPC 2.0 error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func main() {
	in := bufio.NewReader(os.Stdin)
	for { // one message per line, until PicoClaw closes stdin
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			handle(line)
		}
		if err != nil {
			return
		}
	}
}

// handle answers one line: a request gets exactly one reply, a notification none.
func handle(line []byte) {
	var message map[string]json.RawMessage
	if json.Unmarshal(line, &message) != nil || message == nil {
		return // not a JSON object (a blank line): nothing to answer
	}
	var method string
	_ = json.Unmarshal(message["method"], &method)
	if method == "hook.runtime_event" || method == "hook.event" {
		var params map[string]any
		_ = json.Unmarshal(message["params"], &params)
		onEvent(params)
		return // a notification: no reply
	}
	id, isRequest := message["id"]
	if !isRequest {
		return // a notification: no reply
	}
	handler, known := methods[method]
	if !known {
		reply(id, "error", rpcError{-32601, "method not found"})
		return
	}
	var params map[string]any
	_ = json.Unmarshal(message["params"], &params) // not an object: no params
	if params == nil {
		params = map[string]any{}
	}
	// A bug in your rule must not end the hook: PicoClaw would lose it for good.
	defer func() {
		if bug := recover(); bug != nil {
			fail(id, method, fmt.Errorf("%v", bug))
		}
	}()
	result, err := handler(params)
	if err != nil {
		fail(id, method, err)
		return
	}
	reply(id, "result", result)
}

// fail logs a failure of method to stderr and answers it with a JSON-RPC error.
func fail(id json.RawMessage, method string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", method, err)
	reply(id, "error", rpcError{-32603, "internal error: " + err.Error()})
}

// reply writes one line with the request's id, copied as it came. os.Stdout is
// not buffered: PicoClaw, waiting for this line, gets it at once.
func reply(id json.RawMessage, kind string, body any) {
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, kind: body})
	if err != nil { // a result JSON cannot hold
		line, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": rpcError{-32603, "internal error: " + err.Error()}})
	}
	os.Stdout.Write(append(line, '\n'))
}
