// A PreToolUse command hook for Claude Code and Codex CLI (protocols
// claude-code-hook and codex-hook): blocks the shell commands in blocked,
// lets everything else through.
//
// The agent runs it once per tool call with the event as one JSON object on
// stdin, then reads its exit status, stdout and stderr. Configure it in
// Claude Code's settings.json or Codex's hooks.json:
//
//	{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard"}]}]}}
//
// How both agents read a hook: stdout holds one JSON object or nothing (logs
// go to stderr); a block always carries its reason (Codex ignores a block
// without one); only documented fields, and never permissionDecision
// "allow" (Codex refuses it; saying nothing lets the call through).
//
// Build it once (`go build -o guard .`) and configure ./guard: `go run .`
// would compile it again for every tool call.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// blocked holds your rules: a piece of a command line, and why it is refused.
var blocked = []struct{ piece, why string }{
	{"rm -rf", "rm -rf deletes files for good"},
	{"--force", "a force push rewrites shared history"},
}

// decide returns the reason to block the call, or "" to let it through.
func decide(payload map[string]any) string {
	input, _ := payload["tool_input"].(map[string]any)
	command, ok := input["command"].(string)
	if payload["tool_name"] != "Bash" || !ok {
		return ""
	}
	for _, rule := range blocked {
		if strings.Contains(command, rule.piece) {
			return rule.why
		}
	}
	return ""
}

func main() {
	var payload map[string]any
	if err := json.NewDecoder(os.Stdin).Decode(&payload); err != nil {
		fmt.Fprintf(os.Stderr, "guard: unreadable payload: %v\n", err)
		return // nothing to judge: let the agent go on
	}
	reason := decide(payload)
	if reason == "" {
		return
	}
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason,
	}})
	fmt.Println(string(out))
}
