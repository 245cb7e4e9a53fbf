// Command promptkit-host drives PromptKit's real exec-plugin clients (the Go
// code of github.com/AltairaLabs/PromptKit/runtime) against a plugin command
// and prints what PromptKit did, one JSON line per call.
//
// proctor simulates PromptKit byte for byte; this program is the reference
// that simulation is checked against. Each --calls line is the document
// proctor writes to the plugin. It is decoded back into the Go values the
// PromptKit client takes (tool args, hook request structs, eval context, ...)
// and the client is called: the bytes the plugin then receives are
// PromptKit's own, so any field PromptKit's types do not carry disappears on
// the way. That loss is the measurement and must not be papered over.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/AltairaLabs/PromptKit/runtime/logger"
	"proctor.local/interop/relay"
)

const usageText = `promptkit-host: run PromptKit's real exec-plugin clients (runtime v1.5.11) against a plugin.

Usage:
  promptkit-host --surface SURFACE [--calls FILE] [--timeout-ms N] [--env NAME]...
                 [--name NAME] [--input-schema FILE] [--mode MODE] [--trace FILE] -- COMMAND [ARG...]

Surfaces and the PromptKit code each one calls:
  exec-tool      tools.Registry.ExecuteAsync -> tools.ExecExecutor (one process per call)
  server-tool    tools.Registry.ExecuteAsync -> tools.ServerExecutor (one process, JSON-RPC "execute")
  provider-hook  hooks.BuildExecHooks + hooks.Registry (before_call / after_call)
  tool-hook      hooks.BuildExecHooks + hooks.Registry (before_execution / after_execution)
  session-hook   hooks.BuildExecHooks + hooks.Registry (session_start / session_update / session_end)
  eval           evals.EvalRunner.RunTurnEvals -> handlers.ExecEvalHandler
  eval-hook      evals.ExecEvalHook.OnEvalResult (stdout ignored; failures only logged)
  selector       selection.ExecClient.Select

Options:
  --calls FILE       JSON lines ("-" = stdin). Each line is the document proctor writes to the
                     plugin for the surface (server-tool: the "params" object of an execute
                     request). Without it, built-in calls with proctor's probe values are used.
  --timeout-ms N     The binding's timeout. Every surface has one in PromptKit:
                       exec-tool, server-tool: the registry's per-tool ToolDescriptor.TimeoutMs
                         (PromptKit never reads exec.timeout_ms). Default 30000
                         (tools.DefaultToolTimeout, what file-loaded tools get); 0 = none,
                         which is what SDK pack tools get.
                       hooks: ExecHookConfig.TimeoutMs, default 10 s.
                       eval: ExecEvalConfig.TimeoutMs, default 30 s; the runner caps every
                         eval at 30 s regardless.
                       eval-hook: default 5 s.  selector: default 10 s.
  --env NAME         The binding's env list (repeatable), passed as PromptKit passes it: an exec
                     tool gets ONLY the listed variables; everything else gets the host
                     environment plus these (hooks, eval hook, selector: NAME=VALUE is literal).
  --name NAME        The binding's name: tool name (default get_weather / kv), hook or selector
                     name, eval id. It appears in PromptKit's error texts.
  --input-schema F   exec-tool, server-tool: the tool's input JSON Schema (or a descriptor with
                     "parameters"), so PromptKit coerces and validates args as it does in a pack.
  --mode MODE        Hooks: the binding's mode (default filter; only "observe" means observe).
  --trace FILE       Record every byte between PromptKit and the plugin, as JSON lines
                     {"at_ms","pid","dir":"to_plugin|from_plugin|stderr","text"[,"base64"]}.
                     at_ms is Unix time in ms. The file is truncated at start. PromptKit then
                     spawns this program as a relay in front of COMMAND (resolved with the
                     host PATH beforehand, as PromptKit would resolve it; argv[0] becomes that
                     path). The relay adds a process hop, so races (e.g. a write after the
                     plugin died) can end differently, and bytes written after the plugin
                     exited are not recorded.

Output: one JSON line per call:
  {"index","surface","phase"(hooks),"outcome","error","elapsed_ms"[,"logged"]}
then, for server-tool, {"step":"close","error","elapsed_ms"} after ServerExecutor.Close
(elapsed_ms: how long Close itself took).
"logged" holds the warnings PromptKit logged during the call (runtime/logger).
Exit status: 0 when the calls ran (a failing plugin is data), 2 on usage errors.
`

// binding is what a RuntimeConfig entry would give PromptKit for the plugin.
type binding struct {
	command     string
	args        []string
	env         []string
	timeoutMs   int // -1: not given
	name        string
	mode        string
	inputSchema json.RawMessage
}

// call is one decoded --calls line, ready to run through PromptKit.
type call struct {
	phase string
	run   func(ctx context.Context) (outcome any, errText *string)
}

// surface turns documents into calls and, for long-lived plugins, closes them.
type surface struct {
	defaults []string // documents used without --calls
	parse    func(doc []byte) (call, error)
	close    func() error // nil for one-shot surfaces
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	if len(os.Args) > 1 && os.Args[1] == relay.Arg {
		os.Exit(relay.Main(os.Args[2:]))
	}
	os.Exit(run(os.Args[1:]))
}

func usageError(format string, a ...any) int {
	fmt.Fprintf(os.Stderr, "promptkit-host: "+format+"\n", a...)
	return 2
}

func run(argv []string) int {
	fs := flag.NewFlagSet("promptkit-host", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var (
		surfaceName = fs.String("surface", "", "")
		callsPath   = fs.String("calls", "", "")
		timeoutMs   = fs.Int("timeout-ms", -1, "")
		name        = fs.String("name", "", "")
		schemaPath  = fs.String("input-schema", "", "")
		mode        = fs.String("mode", "filter", "")
		tracePath   = fs.String("trace", "", "")
		env         stringList
	)
	fs.Var(&env, "env", "")
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Print(usageText)
			return 0
		}
		return usageError("%v (see --help)", err)
	}
	command := fs.Args()
	if len(command) == 0 {
		return usageError("no plugin command: give it after -- (see --help)")
	}
	b := &binding{command: command[0], args: command[1:], env: env, timeoutMs: *timeoutMs, name: *name, mode: *mode}
	if *schemaPath != "" {
		schema, schemaName, err := loadInputSchema(*schemaPath)
		if err != nil {
			return usageError("--input-schema: %v", err)
		}
		b.inputSchema = schema
		if b.name == "" {
			b.name = schemaName
		}
	}
	// The surface copies the binding into PromptKit's config: wrap first.
	if *tracePath != "" {
		if err := wrapInRelay(b, *tracePath); err != nil {
			return usageError("--trace: %v", err)
		}
	}
	s, err := newSurface(*surfaceName, b)
	if err != nil {
		return usageError("%v", err)
	}
	docs, lines, err := readCalls(*callsPath, s.defaults)
	if err != nil {
		return usageError("%v", err)
	}
	calls := make([]call, len(docs))
	for i, doc := range docs {
		if calls[i], err = s.parse(doc); err != nil {
			return usageError("--calls %s line %d: %v", *callsPath, lines[i], err)
		}
	}

	logs = captureLogs()
	out := json.NewEncoder(os.Stdout)
	out.SetEscapeHTML(false)
	for i, c := range calls {
		logs.reset()
		start := time.Now()
		outcome, errText := c.run(context.Background())
		elapsed := time.Since(start).Milliseconds()
		_ = out.Encode(struct {
			Index     int              `json:"index"`
			Surface   string           `json:"surface"`
			Phase     string           `json:"phase,omitempty"`
			Outcome   any              `json:"outcome"`
			Error     *string          `json:"error"`
			ElapsedMs int64            `json:"elapsed_ms"`
			Logged    []map[string]any `json:"logged,omitempty"`
		}{i, *surfaceName, c.phase, outcome, errText, elapsed, logs.take()})
	}
	if s.close != nil {
		start := time.Now()
		err := errString(s.close())
		_ = out.Encode(struct {
			Step      string  `json:"step"`
			Error     *string `json:"error"`
			ElapsedMs int64   `json:"elapsed_ms"`
		}{"close", err, time.Since(start).Milliseconds()})
	}
	return 0
}

func newSurface(name string, b *binding) (*surface, error) {
	switch name {
	case "exec-tool":
		return newToolSurface(b, false), nil
	case "server-tool":
		return newToolSurface(b, true), nil
	case "provider-hook":
		return newHookSurface("provider", b)
	case "tool-hook":
		return newHookSurface("tool", b)
	case "session-hook":
		return newHookSurface("session", b)
	case "eval":
		return newEvalSurface(b), nil
	case "eval-hook":
		return newEvalHookSurface(b), nil
	case "selector":
		return newSelectorSurface(b), nil
	case "":
		return nil, errors.New("--surface is required (see --help)")
	}
	return nil, fmt.Errorf("unknown --surface %q (see --help)", name)
}

// readCalls returns the non-blank lines of the calls file (or the defaults)
// with their 1-based line numbers. Every line must be one JSON value.
func readCalls(path string, defaults []string) (docs [][]byte, lines []int, err error) {
	if path == "" {
		for i, d := range defaults {
			docs, lines = append(docs, []byte(d)), append(lines, i+1)
		}
		return docs, lines, nil
	}
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, fmt.Errorf("--calls: %w", err)
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, readErr := br.ReadBytes('\n')
		if readErr != nil && readErr != io.EOF {
			return nil, nil, fmt.Errorf("--calls %s: %w", path, readErr)
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			if !json.Valid(trimmed) {
				return nil, nil, fmt.Errorf("--calls %s line %d: not a JSON document", path, n)
			}
			docs, lines = append(docs, trimmed), append(lines, n)
		}
		if readErr == io.EOF {
			return docs, lines, nil
		}
	}
}

// loadInputSchema reads a JSON Schema, or a tool descriptor holding one under
// "parameters" (OpenAI style, as proctor's --schema accepts), and the
// descriptor's name if any.
func loadInputSchema(path string) (json.RawMessage, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", err
	}
	var desc struct {
		Name       string          `json:"name"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if err := json.Unmarshal(data, &desc); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	if len(desc.Parameters) > 0 {
		return desc.Parameters, desc.Name, nil
	}
	return json.RawMessage(data), "", nil
}

// wrapInRelay makes PromptKit spawn this executable as a tracing relay in
// front of the plugin (interop/relay); the binding's command and args become
// the relay's.
func wrapInRelay(b *binding, tracePath string) error {
	wrapped, err := relay.Wrap(tracePath, time.Now(), append([]string{b.command}, b.args...))
	if err != nil {
		return err
	}
	b.command, b.args = wrapped[0], wrapped[1:]
	return nil
}

func errString(err error) *string {
	if err == nil {
		return nil
	}
	s := err.Error()
	return &s
}

func strPtr(s string) *string { return &s }

func decodeDoc(doc []byte, v any) error {
	if err := json.Unmarshal(doc, v); err != nil {
		return fmt.Errorf("does not decode into PromptKit's input: %w", err)
	}
	return nil
}

// logCapture replaces PromptKit's global logger (runtime/logger) so its
// warnings for a call become part of that call's outcome instead of noise on
// stderr. Some surfaces report failures only there (the eval hook).
type logCapture struct {
	mu      sync.Mutex
	records []map[string]any
}

// logs is the capture installed by run; surfaces may look at it mid-call.
var logs *logCapture

func captureLogs() *logCapture {
	c := &logCapture{}
	logger.SetLogger(slog.New(c))
	return c
}

func (c *logCapture) reset() { c.mu.Lock(); c.records = nil; c.mu.Unlock() }

func (c *logCapture) peek() []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]map[string]any(nil), c.records...)
}

func (c *logCapture) take() []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.records
	c.records = nil
	return r
}

func (c *logCapture) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }

func (c *logCapture) Handle(_ context.Context, r slog.Record) error {
	rec := map[string]any{"level": r.Level.String(), "msg": r.Message}
	r.Attrs(func(a slog.Attr) bool {
		switch v := a.Value.Resolve().Any().(type) {
		case error:
			rec[a.Key] = v.Error()
		case []byte:
			rec[a.Key] = string(v)
		case fmt.Stringer:
			rec[a.Key] = v.String()
		default:
			rec[a.Key] = v
		}
		return true
	})
	c.mu.Lock()
	c.records = append(c.records, rec)
	c.mu.Unlock()
	return nil
}

func (c *logCapture) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *logCapture) WithGroup(string) slog.Handler      { return c }
