// A PromptKit exec tool hook (protocol promptkit-exec, role tool-hook).
//
// PromptKit runs this before (and after) every tool call, one process per
// call, with one JSON document on stdin:
//
//	{"hook": "tool", "phase": "before_execution", "request": {"Name": ..., "Args": {...}, "CallID": ...}}
//
// and reads one answer from stdout:
//
//	{"allow": true}   or   {"allow": false, "reason": "..."}
//
// The real PromptKit sends "Name", "Args" and "CallID" (PascalCase) while its
// docs show "name", "args" and "call_id"; read both, as key() does. A crash,
// an empty answer or {} counts as a deny: always answer with an explicit "allow".
//
// This one denies a call whose arguments mention "secret". Put your own rule in decide().
//
// Build it once (`go build -o tool_hook .`) and let PromptKit run
// ./tool_hook: `go run .` would compile it again on every call.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// answer is what PromptKit reads: Allow is always written, true or false.
type answer struct {
	Allow  bool   `json:"allow"`
	Reason string `json:"reason,omitempty"`
}

// key is obj[pascal] (what PromptKit sends) or obj[snake] (what its docs show).
func key(obj any, pascal, snake string) any {
	m, _ := obj.(map[string]any)
	if v, ok := m[pascal]; ok {
		return v
	}
	return m[snake]
}

// decide is your rule.
func decide(payload map[string]any) answer {
	request := payload["request"]
	tool := fmt.Sprint(key(request, "Name", "name"))
	args, _ := json.Marshal(key(request, "Args", "args")) // null when the LLM sent no arguments
	if strings.Contains(strings.ToLower(string(args)), "secret") {
		if len(tool) > 60 {
			tool = tool[:60]
		}
		return answer{Allow: false, Reason: "the arguments of " + tool + " mention a secret"}
	}
	return answer{Allow: true}
}

func main() {
	// Read to EOF: PromptKit sends no trailing newline.
	input, _ := io.ReadAll(os.Stdin)
	var payload map[string]any
	reply := answer{Allow: false, Reason: "unreadable request"}
	if json.Unmarshal(input, &payload) == nil && payload != nil {
		reply = decide(payload)
	}
	line, _ := json.Marshal(reply)
	os.Stdout.Write(append(line, '\n'))
}
