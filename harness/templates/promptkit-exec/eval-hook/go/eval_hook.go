// A PromptKit exec eval hook (protocol promptkit-exec, role eval-hook).
//
// PromptKit runs this once per eval result, one process each time, with one
// JSON document on stdin:
//
//	{"eval_id": "tone", "type": "...", "score": 0.85, "explanation": "...",
//	 "duration_ms": 12, "session_id": "...", "turn_index": 1, ...}
//
// ("passed" is in the docs; the real PromptKit does not send it.) PromptKit
// ignores this hook's stdout, so there is nothing to answer: exit 0 quickly.
// (PromptKit gives an eval hook 5 seconds.)
//
// This one logs each result to stderr. Put your own logic in onResult(): send
// scores to your metrics system, alert on low ones...
//
// Build it once (`go build -o eval_hook .`) and let PromptKit run
// ./eval_hook: `go run .` would compile it again on every call.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// onResult is your logic (stdout is ignored; log to stderr or a file).
func onResult(result map[string]any) {
	fmt.Fprintf(os.Stderr, "eval hook: %v scored %v\n", result["eval_id"], result["score"])
}

func main() {
	// Read to EOF: PromptKit sends no trailing newline.
	input, _ := io.ReadAll(os.Stdin)
	var result map[string]any
	if json.Unmarshal(input, &result) == nil && result != nil {
		onResult(result)
	}
}
