// Command promptkit-tools prints the `tools` array PromptKit's OpenAI provider
// sends for a pack prompt's own tools, with PromptKit's own code
// (github.com/AltairaLabs/PromptKit/runtime v1.5.11): the tool registry built
// from the pack as the SDK's loader builds it (sdk/internal/pack/load.go
// ToToolRepository: each pack tool's name, description and parameters), each
// tool the prompt names looked up there and handed to the provider in name
// order as the provider stage does (stages_provider.go
// collectProviderDescriptors), then openai.ToolProvider.BuildTooling with its
// default strict mode.
//
// Usage: promptkit-tools --pack FILE --prompt KEY
// Prints the JSON array (or `null` when no tool is offered).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/AltairaLabs/PromptKit/runtime/persistence/memory"
	"github.com/AltairaLabs/PromptKit/runtime/prompt"
	"github.com/AltairaLabs/PromptKit/runtime/providers"
	"github.com/AltairaLabs/PromptKit/runtime/providers/openai"
	"github.com/AltairaLabs/PromptKit/runtime/tools"
)

func main() {
	packFile := flag.String("pack", "", "the pack (JSON)")
	key := flag.String("prompt", "", "the prompt whose tools are offered")
	flag.Parse()
	if *packFile == "" || *key == "" {
		fmt.Fprintln(os.Stderr, "usage: promptkit-tools --pack FILE --prompt KEY")
		os.Exit(2)
	}
	out, err := offered(*packFile, *key)
	if err != nil {
		fmt.Fprintln(os.Stderr, "promptkit-tools:", err)
		os.Exit(2)
	}
	os.Stdout.Write(append(out, '\n'))
}

func offered(packFile, key string) ([]byte, error) {
	pack, err := prompt.LoadPack(packFile)
	if err != nil {
		return nil, err
	}
	p := pack.Prompts[key]
	if p == nil {
		return nil, fmt.Errorf("%s has no prompt %q", packFile, key)
	}
	repo := memory.NewToolRepository()
	for name, tool := range pack.Tools {
		params, err := json.Marshal(tool.Parameters)
		if err != nil {
			continue
		}
		_ = repo.SaveTool(&tools.ToolDescriptor{Name: name, Description: tool.Description, InputSchema: params, Mode: "local"})
	}
	registry := tools.NewRegistryWithRepository(repo)
	var descriptors []*providers.ToolDescriptor
	for _, name := range p.Tools {
		tool, err := registry.GetTool(name)
		if err != nil {
			continue // PromptKit logs "Tool not found in registry" and offers the rest
		}
		descriptors = append(descriptors, &providers.ToolDescriptor{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema})
	}
	sort.Slice(descriptors, func(i, j int) bool { return descriptors[i].Name < descriptors[j].Name })
	provider := openai.NewToolProvider("openai", "gpt-4o-mini", "http://127.0.0.1:1", providers.ProviderDefaults{}, false, nil, nil)
	built, err := provider.BuildTooling(descriptors)
	if err != nil {
		return nil, err
	}
	return json.Marshal(built)
}
