// A PicoClaw process hook in mode `llm` (protocol picoclaw-hook).
//
// PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
// message per line on stdin and waits for one reply line per request, with
// the same id:
//
//	hook.hello       {"name":..., "version":1, "modes":["llm"]}   -> {"ok": true}
//	hook.before_llm  {"model": ..., "messages": [{"role":..., "content":...}]}
//	                                              -> {"action": "continue" | "abort_turn", "reason": ...}
//	hook.after_llm   {"model": ..., "response": {...}}             -> {"action": "continue"}
//
// Messages without an id are notifications: never answer them.
//
// Reply to each request with one line as soon as it is read, echoing its id:
// PicoClaw waits for the reply while stdin is still open (a hook.hello that
// never arrives stops the agent), and several requests can be in flight.
//
// This one ends the turn before the LLM is asked when the user's last message
// says "stop". Put your own rule in beforeLLM().
//
// Build it once (`go build -o llm_hook .`) and let PicoClaw run ./llm_hook:
// `go run .` would compile it again each time PicoClaw starts the hook.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// action is the answer to hook.before_llm and hook.after_llm.
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

// methods are the requests this hook answers, by name.
var methods = map[string]func(params map[string]any) (any, error){
	"hook.hello":      func(map[string]any) (any, error) { return map[string]bool{"ok": true}, nil },
	"hook.before_llm": beforeLLM,
	"hook.after_llm":  afterLLM,
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
