// A PicoClaw process hook in mode `observe` (protocol picoclaw-hook).
//
// PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
// message per line on stdin. The only request is the handshake, which must be
// answered with the same id:
//
//	hook.hello  {"name":..., "version":1, "modes":["observe"]}  -> {"ok": true}
//
// Everything else is a notification (no id), which must never be answered:
//
//	hook.runtime_event  {"kind": "agent.turn.start", "source": ..., "payload": ...}
//
// (older PicoClaw docs call it hook.event, with "Kind"; both are handled).
//
// Reply to the handshake with one line as soon as it is read: PicoClaw waits
// for it while stdin is still open (a hook.hello that never arrives stops
// the agent).
//
// This one logs each event kind to stderr. Put your own logic in onEvent().
//
// Build it once (`go build -o observe_hook .`) and let PicoClaw run ./observe_hook:
// `go run .` would compile it again each time PicoClaw starts the hook.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// onEvent is your logic for a runtime event: record, count, forward...
// (stdout is for replies only).
func onEvent(params map[string]any) {
	kind, ok := params["kind"]
	if !ok || kind == nil || kind == "" {
		kind = params["Kind"]
	}
	fmt.Fprintf(os.Stderr, "observe hook: %v\n", kind)
}

// methods are the requests this hook answers, by name.
var methods = map[string]func(params map[string]any) (any, error){
	"hook.hello": func(map[string]any) (any, error) { return map[string]bool{"ok": true}, nil },
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
