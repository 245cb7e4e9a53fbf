// A PostToolUse command hook for Claude Code and Codex CLI (protocols
// claude-code-hook and codex-hook): when a shell command's output matches a
// rule in flagged, gives the model a reason (Claude Code adds it beside the
// output; Codex replaces the output with it).
//
// Configure it in Claude Code's settings.json or Codex's hooks.json:
//
//	{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./output_scan"}]}]}}
//
// The output is in tool_response, not tool_input, and its shape depends on
// the agent: Claude Code sends Bash's result object (stdout, stderr, ...),
// Codex the output as one string. Logs go to stderr; stdout holds one JSON
// object or nothing; a block always carries its reason.
//
// Build it once (`go build -o output_scan .`) and configure ./output_scan.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

// flagged holds your rules: a pattern in the output, and what the model is told.
var flagged = []struct {
	pattern *regexp.Regexp
	reason  string
}{
	{regexp.MustCompile(`(?i)(password|secret|token)\s*[=:]\s*\S+`), "The output holds a secret: do not repeat it."},
}

// outputOf is the command's output, whichever agent sent it.
func outputOf(response any) string {
	switch r := response.(type) {
	case string:
		return r
	case map[string]any:
		out, _ := r["stdout"].(string)
		errOut, _ := r["stderr"].(string)
		return out + "\n" + errOut
	}
	return ""
}

func main() {
	var payload map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&payload); err != nil {
		fmt.Fprintf(os.Stderr, "output_scan: unreadable payload: %v\n", err)
		return
	}
	output := outputOf(payload["tool_response"])
	for _, rule := range flagged {
		if rule.pattern.MatchString(output) {
			out, _ := json.Marshal(map[string]any{"decision": "block", "reason": rule.reason})
			fmt.Println(string(out))
			return
		}
	}
}
