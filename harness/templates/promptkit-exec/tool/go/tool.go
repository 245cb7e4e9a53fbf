// A PromptKit exec tool (protocol promptkit-exec, role tool), one-shot.
//
// PromptKit starts this program once per tool call, writes one JSON document
// to its stdin and closes it:  {"args": {...the arguments the LLM chose...}}
// The program writes exactly one JSON document to stdout and exits 0:
//
//	{"result": ...}   the tool worked; the LLM sees the result
//	{"error": "..."}  the tool failed; the LLM sees the message
//
// This one greets someone: {"name": "Ada"} -> {"result": {"greeting": "Hello, Ada!"}}.
// Put your own logic in runTool().
//
// Build it once (`go build -o tool .`) and let PromptKit run ./tool:
// `go run .` would compile it again on every call.
package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
)

// runTool is your tool. Return the result, or an error the LLM should see.
func runTool(args map[string]any) (any, error) {
	name, _ := args["name"].(string)
	if strings.TrimSpace(name) == "" {
		return nil, errors.New("missing argument: name (a non-empty string)")
	}
	return map[string]string{"greeting": "Hello, " + strings.TrimSpace(name) + "!"}, nil
}

func main() {
	// Read to EOF: PromptKit sends no trailing newline, so a line reader
	// would wait for a line that never ends.
	input, _ := io.ReadAll(os.Stdin)
	var request struct {
		Args any `json:"args"`
	}
	_ = json.Unmarshal(input, &request) // not JSON, or not an object: no args
	var answer map[string]any
	switch args := request.Args.(type) {
	case nil: // the LLM sent no arguments
		answer = answerOf(runTool(map[string]any{}))
	case map[string]any:
		answer = answerOf(runTool(args))
	default:
		answer = map[string]any{"error": "args must be a JSON object"}
	}
	// One document and nothing else on stdout (logs go to stderr), then exit 0:
	// PromptKit ignores stdout when the exit status is not 0.
	line, _ := json.Marshal(answer)
	os.Stdout.Write(append(line, '\n'))
}

// answerOf is what PromptKit reads for runTool's outcome.
func answerOf(result any, err error) map[string]any {
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	return map[string]any{"result": result}
}
