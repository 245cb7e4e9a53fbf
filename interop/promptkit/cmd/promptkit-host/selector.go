package main

import (
	"context"

	"github.com/AltairaLabs/PromptKit/runtime/selection"
)

// Default call: proctor's selector probe.
const defaultSelectorCall = `{"query":{"Text":"I need a flight to Paris","Kind":"skill","PackID":"travel-pack","AgentID":"planner","K":2},"candidates":[{"ID":"book_flight","Name":"Book a flight","Description":"Books flights <one-way> & return","Metadata":{"team":"travel"}},{"ID":"weather","Name":"Weather","Description":"Forecasts for a city","Metadata":null},{"ID":"currency","Name":"Currency","Description":"Converts amounts between currencies","Metadata":null}]}`

// selectorOutcome is what Select returns. On an error the SDK's callers
// include every eligible candidate instead (exec_client.go Select comment).
type selectorOutcome struct {
	Selected []string `json:"selected"`
}

// newSelectorSurface builds the selector as sdk/runtime_config.go
// applySelectors does (selection.NewExecClient, direct sandbox) and calls
// Select with the decoded query and candidates.
func newSelectorSurface(b *binding) *surface {
	name := b.name
	if name == "" {
		name = "rerank"
	}
	client := selection.NewExecClient(selection.ExecClientConfig{
		Name: name, Command: b.command, Args: b.args, Env: b.env, TimeoutMs: max(b.timeoutMs, 0),
	})
	s := &surface{defaults: []string{defaultSelectorCall}}
	s.parse = func(doc []byte) (call, error) {
		// The document is json.Marshal(execRequest{Query, Candidates})
		// (runtime/selection/exec_client.go:86). Query and Candidate have no
		// json tags, so the keys are their Go field names; K is Query.K.
		var in struct {
			Query      selection.Query       `json:"query"`
			Candidates []selection.Candidate `json:"candidates"`
		}
		if err := decodeDoc(doc, &in); err != nil {
			return call{}, err
		}
		return call{run: func(ctx context.Context) (any, *string) {
			selected, err := client.Select(ctx, in.Query, in.Candidates)
			if err != nil {
				return nil, errString(err)
			}
			return selectorOutcome{selected}, nil
		}}, nil
	}
	return s
}
