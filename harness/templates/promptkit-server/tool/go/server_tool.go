// A PromptKit server-mode tool (protocol promptkit-server, role tool).
//
// PromptKit starts this once (`runtime: server`) and keeps it running. It
// writes one JSON-RPC 2.0 request per line on stdin:
//
//	{"jsonrpc":"2.0","id":1,"method":"execute","params":{"args":{...}}}
//
// and waits for one reply line per request, with the same id:
//
//	{"jsonrpc":"2.0","id":1,"result":...}                               the tool worked
//	{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"..."}}     the tool failed
//
// Write each reply at once, in one line: PromptKit waits for it while stdin
// is still open, and reads the next line as the next reply.
//
// This one adds two numbers: {"a": 2, "b": 3} -> {"sum": 5}. Put your own
// logic in runTool(); state kept in this process lasts across calls.
//
// Build it once (`go build -o server_tool .`) and let PromptKit run
// ./server_tool.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// toolError is a failure the LLM should hear about (sent as error code -32000);
// any other error is a bug, sent as -32603.
type toolError struct{ message string }

func (e toolError) Error() string { return e.message }

// runTool is your tool: the result, or a toolError.
func runTool(args map[string]any) (any, error) {
	a, aIsNumber := args["a"].(float64)
	b, bIsNumber := args["b"].(float64)
	if !aIsNumber || !bIsNumber {
		return nil, toolError{"arguments a and b must be numbers"}
	}
	return map[string]float64{"sum": a + b}, nil
}

// rpcError is a JSON-RPC 2.0 error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func main() {
	in := bufio.NewReader(os.Stdin)
	for { // one request per line, until PromptKit closes stdin
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
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	var message map[string]json.RawMessage
	if err := json.Unmarshal(line, &message); err != nil || message == nil {
		if json.Valid(line) {
			reply(nil, "error", rpcError{-32600, "invalid request"})
		} else {
			reply(nil, "error", rpcError{-32700, "parse error"})
		}
		return
	}
	id, isRequest := message["id"]
	if !isRequest {
		return // a notification (no id) gets no reply
	}
	var method string
	if json.Unmarshal(message["method"], &method); method != "execute" {
		reply(id, "error", rpcError{-32601, "method not found"})
		return
	}
	var params struct {
		Args map[string]any `json:"args"`
	}
	_ = json.Unmarshal(message["params"], &params) // not an object: no args
	if params.Args == nil {
		params.Args = map[string]any{}
	}
	// A bug in your tool must not end the process: PromptKit never restarts it.
	defer func() {
		if bug := recover(); bug != nil {
			fmt.Fprintf(os.Stderr, "execute: %v\n", bug)
			reply(id, "error", rpcError{-32603, fmt.Sprintf("internal error: %v", bug)})
		}
	}()
	result, err := runTool(params.Args)
	var failure toolError
	switch {
	case errors.As(err, &failure):
		reply(id, "error", rpcError{-32000, failure.message})
	case err != nil:
		fmt.Fprintf(os.Stderr, "execute: %v\n", err)
		reply(id, "error", rpcError{-32603, "internal error: " + err.Error()})
	default:
		reply(id, "result", result)
	}
}

// reply writes one line with the request's id, copied as it came (null when
// it could not be read). os.Stdout is not buffered: PromptKit, waiting for
// this line, gets it at once.
func reply(id json.RawMessage, kind string, body any) {
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, kind: body})
	if err != nil { // a result JSON cannot hold
		line, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": rpcError{-32603, "internal error: " + err.Error()}})
	}
	os.Stdout.Write(append(line, '\n'))
}
