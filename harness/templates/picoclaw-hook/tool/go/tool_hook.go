// A PicoClaw process hook in mode `tool` (protocol picoclaw-hook).
//
// PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
// message per line on stdin and waits for one reply line per request, with
// the same id:
//
//	hook.hello        {"name":..., "version":1, "modes":["tool"]}    -> {"ok": true}
//	hook.before_tool  {"tool": "bash", "arguments": {...}}          -> {"action": "continue" | "deny_tool", "reason": ...}
//	hook.after_tool   {"tool": ..., "arguments": ..., "result": ...} -> {"action": "continue"}
//
// Messages without an id are notifications: never answer them.
//
// Reply to each request with one line as soon as it is read, echoing its id:
// PicoClaw waits for the reply while stdin is still open (a hook.hello that
// never arrives stops the agent), and several requests can be in flight.
//
// This one refuses the tool `delete_file`. Put your own rule in beforeTool().
//
// Build it once (`go build -o tool_hook .`) and let PicoClaw run ./tool_hook:
// `go run .` would compile it again each time PicoClaw starts the hook.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// action is the answer to hook.before_tool and hook.after_tool.
type action struct {
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
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

// methods are the requests this hook answers, by name.
var methods = map[string]func(params map[string]any) (any, error){
	"hook.hello":       func(map[string]any) (any, error) { return map[string]bool{"ok": true}, nil },
	"hook.before_tool": beforeTool,
	"hook.after_tool":  afterTool,
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
