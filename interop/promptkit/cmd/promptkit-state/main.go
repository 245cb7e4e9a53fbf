// Command promptkit-state renders a workflow state's prompt the way
// PromptKit's SDK does before every round of a workflow conversation, with
// PromptKit's own code (github.com/AltairaLabs/PromptKit/runtime v1.5.11).
//
// The SDK at the pinned commit (sdk/workflow_state_resolver.go, renderState)
// is not served by the module proxy, so the calls it makes are made here, in
// its order, on the runtime module's public API: the registry is built as the
// SDK's pack loader builds it (sdk/internal/pack/load.go ToPromptRegistry: one
// memory repository, every prompt through PackPrompt.ToPromptConfig, every
// fragment registered), the state's prompt is loaded with the variables given
// (the resolver gives the artifacts and workflow_context only), then rendered
// over its defaults and fragment values. What is measured is the runtime's:
// which variables LoadTemplate requires and its error's words, which defaults
// it merges, and when RenderDetailed gives up (the resolver then sends the raw
// template).
//
// Usage: promptkit-state --pack FILE --state NAME [--var NAME=VALUE]...
// Prints one JSON object: {"state", "prompt_task", "outcome": "rendered" |
// "raw" | "error", "system_prompt", "error"}.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"strings"

	"github.com/AltairaLabs/PromptKit/runtime/persistence/memory"
	"github.com/AltairaLabs/PromptKit/runtime/prompt"
	"github.com/AltairaLabs/PromptKit/runtime/template"
)

type vars map[string]string

func (v vars) String() string { return fmt.Sprint(map[string]string(v)) }

func (v vars) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q is not NAME=VALUE", s)
	}
	v[name] = value
	return nil
}

type result struct {
	State        string `json:"state"`
	PromptTask   string `json:"prompt_task"`
	Outcome      string `json:"outcome"`
	SystemPrompt string `json:"system_prompt,omitempty"`
	Error        string `json:"error,omitempty"`
}

func main() {
	packFile := flag.String("pack", "", "the pack (JSON)")
	state := flag.String("state", "", "the workflow state whose prompt is rendered")
	given := vars{}
	flag.Var(given, "var", "NAME=VALUE, repeatable: what the resolver passes (artifacts.NAME, workflow_context)")
	flag.Parse()
	if *packFile == "" || *state == "" {
		fmt.Fprintln(os.Stderr, "usage: promptkit-state --pack FILE --state NAME [--var NAME=VALUE]...")
		os.Exit(2)
	}
	out, err := render(*packFile, *state, given)
	if err != nil {
		fmt.Fprintln(os.Stderr, "promptkit-state:", err)
		os.Exit(2)
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}

func render(packFile, stateName string, given vars) (result, error) {
	pack, err := prompt.LoadPack(packFile)
	if err != nil {
		return result{}, err
	}
	if pack.Workflow == nil || pack.Workflow.States[stateName] == nil {
		return result{}, fmt.Errorf("%s has no workflow state %q", packFile, stateName)
	}
	task := pack.Workflow.States[stateName].PromptTask
	repo := memory.NewPromptRepository()
	for name, p := range pack.Prompts {
		repo.RegisterPrompt(name, p.ToPromptConfig(name))
	}
	for name, content := range pack.Fragments {
		repo.RegisterFragment(name, &prompt.Fragment{Type: "text", Content: content})
	}
	registry := prompt.NewRegistryWithRepository(repo)
	out := result{State: stateName, PromptTask: task}
	tmpl, err := registry.LoadTemplate(task, given, "")
	if err != nil {
		out.Outcome, out.Error = "error", err.Error()
		return out, nil
	}
	merged := map[string]string{}
	maps.Copy(merged, tmpl.DefaultVars)
	maps.Copy(merged, tmpl.FragmentVars)
	maps.Copy(merged, given)
	rendered, err := template.NewRenderer().RenderDetailed(tmpl.RawTemplate, merged)
	if err != nil {
		out.Outcome, out.SystemPrompt = "raw", tmpl.RawTemplate
		return out, nil
	}
	out.Outcome, out.SystemPrompt = "rendered", rendered.Text
	return out, nil
}
