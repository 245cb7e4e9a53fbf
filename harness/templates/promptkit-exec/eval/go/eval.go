// A PromptKit exec eval (protocol promptkit-exec, role eval), one-shot.
//
// PromptKit runs this after an assistant reply, with one JSON document on stdin:
//
//	{"type": "...", "params": {...}, "content": "<the reply>", "context": {...}}
//
// and reads one document from stdout:
//
//	{"score": 0.0 to 1.0, "detail": "why", "data": {...anything...}}
//
// This one scores 1.0 when the reply does not apologise and 0.0 when it says
// "sorry". Put your own scoring in score().
//
// Build it once (`go build -o eval .`) and let PromptKit run ./eval:
// `go run .` would compile it again on every call.
package main

import (
	"encoding/json"
	"io"
	"os"
	"strings"
)

// score is your eval: a score between 0 and 1, and a short explanation.
// params is empty when the eval has none.
func score(content string, params map[string]any) (float64, string) {
	if strings.Contains(strings.ToLower(content), "sorry") {
		return 0.0, "the reply apologises"
	}
	return 1.0, "no apology"
}

func main() {
	// Read to EOF: PromptKit sends no trailing newline.
	input, _ := io.ReadAll(os.Stdin)
	var request struct {
		Content any `json:"content"`
		Params  any `json:"params"`
	}
	_ = json.Unmarshal(input, &request) // not JSON, or not an object: nothing to score
	content, _ := request.Content.(string)
	params, _ := request.Params.(map[string]any)
	if params == nil {
		params = map[string]any{}
	}
	value, detail := score(content, params)
	// One document on stdout, then exit 0.
	line, _ := json.Marshal(map[string]any{"score": value, "detail": detail, "data": map[string]any{}})
	os.Stdout.Write(append(line, '\n'))
}
