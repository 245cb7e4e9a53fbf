// Command promptkit-sdk opens a PromptPack with the real PromptKit SDK and
// sends a scenario's user turns through it, against an OpenAI-compatible
// endpoint (`proctor mock-provider`). It prints one JSON object per turn:
// the reply, the error text, the tool results of the turn, and for a
// workflow its state, path and artifacts.
//
// The pack is opened the way a host opens it (issue 29): a named prompt is
// sdk.Open, a pack with a workflow and no prompt is sdk.OpenWorkflow, a pack
// with agents and no prompt is sdk.OpenMultiAgent. Scripted tools are bound
// with Conversation.OnTool on every conversation the SDK opens; exec plugins
// come from the RuntimeConfig, as PromptKit binds them.
//
// A misbehaving pack or plugin is data: the driver exits 0 whenever it ran,
// 2 for a usage error.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"github.com/AltairaLabs/PromptKit/pkg/config"
	"github.com/AltairaLabs/PromptKit/sdk"
)

// Spec is what the driver is asked to run, read as JSON from --spec.
type Spec struct {
	// Pack is the JSON pack's path.
	Pack string `json:"pack"`
	// Prompt is the prompt the host opens; empty opens the workflow or the agents.
	Prompt string `json:"prompt"`
	// Variables are the host's variables.
	Variables map[string]string `json:"variables"`
	// RuntimeConfig is the RuntimeConfig file's path, if any.
	RuntimeConfig string `json:"runtime_config"`
	// BaseURL is the OpenAI-compatible endpoint (…/v1).
	BaseURL string `json:"base_url"`
	// Model is the model name the provider sends.
	Model string `json:"model"`
	// Tools are scripted tool handlers: each gives a result or an error.
	Tools map[string]ScriptedTool `json:"tools"`
	// Turns are the user's messages, in order.
	Turns []string `json:"turns"`
	// ConversationID fixes the SDK's random conversation id.
	ConversationID string `json:"conversation_id"`
}

// ScriptedTool is one tool's scripted answer.
type ScriptedTool struct {
	Result *string `json:"result"`
	Error  *string `json:"error"`
}

// ToolResult is one tool message of a turn, as the model is sent it.
type ToolResult struct {
	Tool    string `json:"tool"`
	Content string `json:"content"`
	IsError bool   `json:"is_error"`
}

// Workflow is a workflow conversation's state after a turn.
type Workflow struct {
	State     string            `json:"state"`
	Status    string            `json:"status"`
	Path      []string          `json:"path"`
	Artifacts map[string]string `json:"artifacts"`
}

// TurnReport is what one turn did.
type TurnReport struct {
	Turn        int          `json:"turn"`
	Reply       *string      `json:"reply"`
	Error       *string      `json:"error"`
	ToolResults []ToolResult `json:"tool_results"`
	Workflow    *Workflow    `json:"workflow,omitempty"`
}

// host is an opened pack: a plain conversation, a workflow or a multi-agent session.
type host interface {
	send(ctx context.Context, text string) TurnReport
	close()
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("promptkit-sdk", flag.ContinueOnError)
	fs.SetOutput(stderr)
	specPath := fs.String("spec", "", "the run, as JSON (- for stdin): pack, prompt, variables, runtime_config, base_url, model, tools, turns")
	turnTimeout := fs.Duration("turn-timeout", 60*time.Second, "longest one turn may take")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	spec, err := readSpec(*specPath)
	if err != nil {
		fmt.Fprintf(stderr, "promptkit-sdk: %v\n", err)
		return 2
	}
	h, err := open(spec, stderr)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	if err != nil {
		// Opening is the host's first step: its error is the first turn's outcome.
		msg := err.Error()
		_ = enc.Encode(map[string]any{"open_error": msg})
		return 0
	}
	defer h.close()
	for i, text := range spec.Turns {
		ctx, cancel := context.WithTimeout(context.Background(), *turnTimeout)
		report := h.send(ctx, text)
		cancel()
		report.Turn = i + 1
		if err := enc.Encode(report); err != nil {
			fmt.Fprintf(stderr, "promptkit-sdk: cannot write: %v\n", err)
			return 1
		}
	}
	return 0
}

func readSpec(path string) (*Spec, error) {
	if path == "" {
		return nil, errors.New("--spec FILE is required (- reads stdin)")
	}
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(os.Stdin)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read --spec %s: %w", path, err)
	}
	var spec Spec
	if err := json.Unmarshal(data, &spec); err != nil {
		return nil, fmt.Errorf("--spec %s is not a run: %w", path, err)
	}
	if spec.Pack == "" || spec.BaseURL == "" {
		return nil, fmt.Errorf("--spec %s needs `pack` and `base_url`", path)
	}
	if spec.Model == "" {
		spec.Model = "proctor-scripted"
	}
	return &spec, nil
}

// options are the SDK options every conversation of the run is opened with.
func options(spec *Spec, stderr io.Writer) []sdk.Option {
	opts := []sdk.Option{
		// PromptKit logs at Info; warnings and errors are enough on stderr.
		sdk.WithLogger(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))),
		// The provider as a host declares it: type, model, base URL, key.
		sdk.WithLLMProvider(sdk.ProviderSpec{
			Type:       "openai",
			Model:      spec.Model,
			BaseURL:    spec.BaseURL,
			Credential: &config.CredentialConfig{APIKey: "proctor"},
		}),
	}
	if len(spec.Variables) > 0 {
		opts = append(opts, sdk.WithVariables(spec.Variables))
	}
	if spec.RuntimeConfig != "" {
		opts = append(opts, sdk.WithRuntimeConfig(spec.RuntimeConfig))
	}
	if spec.ConversationID != "" {
		opts = append(opts, sdk.WithConversationID(spec.ConversationID))
	}
	return opts
}

func open(spec *Spec, stderr io.Writer) (host, error) {
	opts := options(spec, stderr)
	if spec.Prompt != "" {
		conv, err := sdk.Open(spec.Pack, spec.Prompt, opts...)
		if err != nil {
			return nil, err
		}
		bindTools(conv, spec.Tools)
		return &single{agent: conv, history: conv}, nil
	}
	shape, err := packShape(spec.Pack)
	if err != nil {
		return nil, err
	}
	switch {
	case shape.agents:
		session, err := sdk.OpenMultiAgent(spec.Pack, opts...)
		if err != nil {
			return nil, err
		}
		for _, member := range session.Members() {
			if conv, ok := member.(*sdk.Conversation); ok {
				bindTools(conv, spec.Tools)
			}
		}
		entry, ok := session.Entry().(*sdk.Conversation)
		if !ok {
			return nil, fmt.Errorf("the entry agent is a %T, not a conversation", session.Entry())
		}
		bindTools(entry, spec.Tools)
		return &single{agent: session, history: entry}, nil
	case shape.workflow:
		wc, err := sdk.OpenWorkflow(spec.Pack, opts...)
		if err != nil {
			return nil, err
		}
		return &workflowHost{wc: wc, tools: spec.Tools, bound: map[*sdk.Conversation]bool{}}, nil
	default:
		return nil, errors.New("the pack has neither a workflow nor agents, and no prompt was named")
	}
}

type shape struct{ workflow, agents bool }

// packShape says whether the pack declares a workflow and agents, as the
// scenario's host decides how to open it.
func packShape(path string) (shape, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return shape{}, err
	}
	var doc struct {
		Workflow json.RawMessage `json:"workflow"`
		Agents   json.RawMessage `json:"agents"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return shape{}, fmt.Errorf("%s is not a JSON pack: %w", path, err)
	}
	return shape{workflow: len(doc.Workflow) > 0, agents: len(doc.Agents) > 0}, nil
}

// bindTools registers the scripted tools' handlers on conv.
func bindTools(conv *sdk.Conversation, scripted map[string]ScriptedTool) {
	for name, tool := range scripted {
		tool := tool
		conv.OnTool(name, func(map[string]any) (any, error) {
			if tool.Error != nil {
				return nil, errors.New(*tool.Error)
			}
			text := ""
			if tool.Result != nil {
				text = *tool.Result
			}
			// A host returns a value; a text that is JSON is that value.
			if json.Valid([]byte(text)) {
				return json.RawMessage(text), nil
			}
			return text, nil
		})
	}
}

// turnOf reads what a Send did: the reply or error, and the tool messages
// that were added to conv's history by it.
func turnOf(conv *sdk.Conversation, before int, resp *sdk.Response, err error) TurnReport {
	var report TurnReport
	if resp != nil {
		text := resp.Text()
		report.Reply = &text
	}
	if err != nil {
		msg := err.Error()
		report.Error = &msg
	}
	report.ToolResults = []ToolResult{}
	if conv == nil {
		return report
	}
	messages := conv.Messages(context.Background())
	for _, m := range messages[min(before, len(messages)):] {
		if m.Role != "tool" || m.ToolResult == nil {
			continue
		}
		content := m.ToolResult.GetTextContent()
		if content == "" {
			content = m.Content
		}
		report.ToolResults = append(report.ToolResults, ToolResult{
			Tool:    m.ToolResult.Name,
			Content: content,
			IsError: m.ToolResult.Error != "",
		})
	}
	return report
}

// single is a host with one conversation to read: a prompt opened alone, or
// a multi-agent session, which sends through (and is read from) its entry.
type single struct {
	agent   sdk.Agent
	history *sdk.Conversation
}

func (s *single) send(ctx context.Context, text string) TurnReport {
	before := len(s.history.Messages(ctx))
	resp, err := s.agent.Send(ctx, text)
	return turnOf(s.history, before, resp, err)
}

func (s *single) close() { _ = s.agent.Close() }

type workflowHost struct {
	wc    *sdk.WorkflowConversation
	tools map[string]ScriptedTool
	// bound remembers the conversations whose handlers are registered: the
	// SDK opens a new conversation for each state it enters.
	bound map[*sdk.Conversation]bool
}

func (w *workflowHost) send(ctx context.Context, text string) TurnReport {
	conv := w.wc.ActiveConversation()
	if conv != nil && !w.bound[conv] {
		bindTools(conv, w.tools)
		w.bound[conv] = true
	}
	before := 0
	if conv != nil {
		before = len(conv.Messages(ctx))
	}
	resp, err := w.wc.Send(ctx, text)
	report := turnOf(conv, before, resp, err)
	wctx := w.wc.Context()
	flow := &Workflow{State: w.wc.CurrentState(), Status: "running", Artifacts: map[string]string{}}
	if w.wc.IsComplete() {
		flow.Status = "completed"
	}
	if wctx != nil {
		if len(wctx.History) > 0 {
			flow.Path = append(flow.Path, wctx.History[0].From)
		}
		for _, t := range wctx.History {
			flow.Path = append(flow.Path, t.To)
		}
		for k, v := range wctx.Artifacts {
			flow.Artifacts[k] = v
		}
	}
	if len(flow.Path) == 0 {
		flow.Path = []string{flow.State}
	}
	report.Workflow = flow
	return report
}

func (w *workflowHost) close() { _ = w.wc.Close() }
