// A PromptKit exec selector (protocol promptkit-exec, role selector), one-shot.
//
// PromptKit asks a selector which tools or skills fit the user's query, one
// process per question, with one JSON document on stdin:
//
//	{"query": {"text": "...", "k": 2, ...}, "candidates": [{"id": ..., "name": ..., "description": ...}]}
//
// and reads one answer from stdout:
//
//	{"selected": ["id", ...]}   at most k ids, taken from the candidates, best first
//
// The real PromptKit sends Go's field names ("Text", "K", "ID", "Name",
// "Description") while its docs show lowercase ones; read both, as key()
// does. On any failure PromptKit offers every candidate.
//
// This one selects the candidates whose id or name the query mentions. Put
// your own ranking in selectIDs().
//
// Build it once (`go build -o selector .`) and let PromptKit run ./selector:
// `go run .` would compile it again on every call.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// key is obj[lower] (what the docs show) or obj[goName] (what PromptKit sends).
func key(obj any, lower, goName string) any {
	m, _ := obj.(map[string]any)
	if v, ok := m[lower]; ok {
		return v
	}
	return m[goName]
}

// selectIDs is your ranking: the chosen candidate ids, best first.
func selectIDs(text string, candidates []any) []string {
	text = strings.ToLower(text)
	chosen := []string{}
	for _, candidate := range candidates {
		id, ok := key(candidate, "id", "ID").(string)
		name := key(candidate, "name", "Name")
		if !ok {
			continue
		}
		named := name != nil && name != "" && strings.Contains(text, strings.ToLower(fmt.Sprint(name)))
		if strings.Contains(text, strings.ToLower(id)) || named {
			chosen = append(chosen, id)
		}
	}
	return chosen
}

func main() {
	// Read to EOF: PromptKit sends no trailing newline.
	input, _ := io.ReadAll(os.Stdin)
	var request struct {
		Query      any `json:"query"`
		Candidates any `json:"candidates"`
	}
	_ = json.Unmarshal(input, &request) // not JSON, or not an object: nothing to select
	text, _ := key(request.Query, "text", "Text").(string)
	candidates, _ := request.Candidates.([]any)
	chosen := selectIDs(text, candidates)
	// k is a JSON number: a whole one above 0 limits the answer.
	if k, ok := key(request.Query, "k", "K").(float64); ok && k > 0 && k == float64(int(k)) && int(k) < len(chosen) {
		chosen = chosen[:int(k)]
	}
	line, _ := json.Marshal(map[string]any{"selected": chosen})
	os.Stdout.Write(append(line, '\n'))
}
