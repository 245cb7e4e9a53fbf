// A PromptKit exec provider hook (protocol promptkit-exec, role provider-hook).
//
// PromptKit runs this around every LLM call, one process per call, with one
// JSON document on stdin:
//
//	{"hook": "provider", "phase": "before_call", "request": {...}}
//	{"hook": "provider", "phase": "after_call", "request": {...}, "response": {...}}
//
// and reads one answer from stdout:
//
//	{"allow": true}   or   {"allow": false, "reason": "..."}
//
// The real PromptKit sends the request and response keys in PascalCase
// ("Messages", "Message") while its docs show snake_case ("messages",
// "message"); read both, as key() does. A crash, an empty answer or {} counts
// as a deny: always answer with an explicit "allow".
//
// This one denies a call when a message says "secret". Put your own rule in decide().
//
// Build it once (`go build -o provider_hook .`) and let PromptKit run
// ./provider_hook: `go run .` would compile it again on every call.
package main

import (
	"encoding/json"
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

// texts is the text of every message in the request, and of the reply (after_call).
func texts(payload map[string]any) []string {
	messages, _ := key(payload["request"], "Messages", "messages").([]any)
	all := append(messages, key(payload["response"], "Message", "message"))
	var out []string
	for _, message := range all {
		if m, ok := message.(map[string]any); ok {
			if content, ok := m["content"].(string); ok {
				out = append(out, content)
			}
		}
	}
	return out
}

// decide is your rule.
func decide(payload map[string]any) answer {
	for _, text := range texts(payload) {
		if strings.Contains(strings.ToLower(text), "secret") {
			return answer{Allow: false, Reason: "a message mentions a secret"}
		}
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
