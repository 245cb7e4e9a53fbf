// Command picoclaw-host drives PicoClaw's real process-hook host code
// (github.com/sipeed/picoclaw/pkg/agent: ProcessHook inside a HookManager)
// against any plugin command, and prints what the host decided as JSON lines.
//
// It exists so proctor's simulation of the PicoClaw host can be checked
// against the real thing: same plugin, real host code, compare the bytes and
// the decisions. A misbehaving plugin is data, not a driver failure, so the
// exit status is 0 whenever the driver itself ran, and 2 for usage errors.
//
// Usage:
//
//	picoclaw-host [--modes observe,llm,tool,approve] [--observe-kinds KIND,...]
//	              [--observer-timeout-ms N] [--interceptor-timeout-ms N] [--approval-timeout-ms N]
//	              [--hello-timeout-ms N] [--name NAME]
//	              [--calls FILE] [--trace FILE] [--dir DIR] [--env K=V]... -- COMMAND [ARG...]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/sipeed/picoclaw/pkg/agent"
	"github.com/sipeed/picoclaw/pkg/events"
	"github.com/sipeed/picoclaw/pkg/logger"
	"proctor.local/interop/relay"
)

const usageText = `usage: picoclaw-host [--modes observe,llm,tool,approve] [--observe-kinds KIND,...]
                     [--observer-timeout-ms N] [--interceptor-timeout-ms N] [--approval-timeout-ms N]
                     [--hello-timeout-ms N] [--name NAME]
                     [--calls FILE|-] [--trace FILE] [--dir DIR] [--env K=V]... -- COMMAND [ARG...]
`

// usageError makes run exit 2 instead of 1.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func main() {
	if len(os.Args) > 1 && os.Args[1] == relay.Arg {
		os.Exit(relay.Main(os.Args[2:]))
	}
	err := run(os.Args[1:])
	var uerr usageError
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(os.Stderr, usageText)
	case errors.As(err, &uerr):
		fmt.Fprintf(os.Stderr, "picoclaw-host: %v\n%s", err, usageText)
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "picoclaw-host: %v\n", err)
		os.Exit(1)
	}
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

type config struct {
	opts          agent.ProcessHookOptions
	name          string
	observerMS    int
	interceptorMS int
	approvalMS    int
	helloMS       int
	callsPath     string
	tracePath     string
	pluginCommand []string
	env           stringList
}

func parseArgs(args []string) (*config, error) {
	cfg := &config{}
	fs := flag.NewFlagSet("picoclaw-host", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	modes := fs.String("modes", "observe,llm,tool,approve", "hook modes to enable")
	kinds := fs.String("observe-kinds", "", "runtime event kinds to forward (empty = all)")
	fs.IntVar(&cfg.observerMS, "observer-timeout-ms", 0, "HookManager observer timeout (0 = PicoClaw default)")
	fs.IntVar(&cfg.interceptorMS, "interceptor-timeout-ms", 0, "HookManager interceptor timeout (0 = PicoClaw default)")
	fs.IntVar(&cfg.approvalMS, "approval-timeout-ms", 0, "HookManager approval timeout (0 = PicoClaw default)")
	fs.IntVar(&cfg.helloMS, "hello-timeout-ms", 0, "hook.hello deadline (0 = nil ctx, PicoClaw's own 5 s; -1 = none, as in production)")
	fs.StringVar(&cfg.name, "name", "proctor_probe", "hook name (sent in hook.hello)")
	fs.StringVar(&cfg.callsPath, "calls", "", "JSON lines of calls, - for stdin (default: built-in sequence)")
	fs.StringVar(&cfg.tracePath, "trace", "", "write every byte exchanged with the plugin to this file")
	fs.StringVar(&cfg.opts.Dir, "dir", "", "plugin working directory")
	fs.Var(&cfg.env, "env", "K=V added to the plugin environment (repeatable)")
	if err := fs.Parse(args); err != nil {
		return nil, usageError{err}
	}
	cfg.pluginCommand = fs.Args()
	if len(cfg.pluginCommand) == 0 {
		return nil, usageError{errors.New("missing -- COMMAND")}
	}
	for _, mode := range strings.Split(*modes, ",") {
		switch strings.TrimSpace(mode) {
		case "observe":
			cfg.opts.Observe = true
		case "llm":
			cfg.opts.InterceptLLM = true
		case "tool":
			cfg.opts.InterceptTool = true
		case "approve":
			cfg.opts.ApproveTool = true
		case "":
		default:
			return nil, usageError{fmt.Errorf("unknown mode %q (want observe, llm, tool, approve)", mode)}
		}
	}
	// Passed through verbatim, as MountProcessHook does. (The config-file
	// path would also accept aliases such as "tool_exec_start"; this does not.)
	for _, kind := range strings.Split(*kinds, ",") {
		if kind = strings.TrimSpace(kind); kind != "" {
			cfg.opts.ObserveKinds = append(cfg.opts.ObserveKinds, kind)
		}
	}
	for _, kv := range cfg.env {
		if !strings.Contains(kv, "=") || strings.HasPrefix(kv, "=") {
			return nil, usageError{fmt.Errorf("--env %q: want K=V", kv)}
		}
	}
	cfg.opts.Env = cfg.env
	return cfg, nil
}

func loadCalls(path string) ([]call, error) {
	switch path {
	case "":
		return parseCalls(strings.NewReader(defaultCalls))
	case "-":
		return parseCalls(os.Stdin)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseCalls(f)
}

// recordingHook implements the same hook interfaces as *agent.ProcessHook
// (observer, LLM and tool interceptor, approver, io.Closer) and delegates
// every method to it unchanged. The HookManager only logs a hook's error, so
// this is where the driver learns it: each method hands the error it got to
// errs once the ProcessHook has returned, which may be after the manager has
// already given up on it.
type recordingHook struct {
	ph       *agent.ProcessHook
	errs     chan error
	closeErr error
}

func (h *recordingHook) done(err error) { h.errs <- err }

func (h *recordingHook) OnRuntimeEvent(ctx context.Context, evt events.Event) error {
	err := h.ph.OnRuntimeEvent(ctx, evt)
	h.done(err)
	return err
}

func (h *recordingHook) BeforeLLM(ctx context.Context, req *agent.LLMHookRequest) (*agent.LLMHookRequest, agent.HookDecision, error) {
	next, decision, err := h.ph.BeforeLLM(ctx, req)
	h.done(err)
	return next, decision, err
}

func (h *recordingHook) AfterLLM(ctx context.Context, resp *agent.LLMHookResponse) (*agent.LLMHookResponse, agent.HookDecision, error) {
	next, decision, err := h.ph.AfterLLM(ctx, resp)
	h.done(err)
	return next, decision, err
}

func (h *recordingHook) BeforeTool(ctx context.Context, c *agent.ToolCallHookRequest) (*agent.ToolCallHookRequest, agent.HookDecision, error) {
	next, decision, err := h.ph.BeforeTool(ctx, c)
	h.done(err)
	return next, decision, err
}

func (h *recordingHook) AfterTool(ctx context.Context, r *agent.ToolResultHookResponse) (*agent.ToolResultHookResponse, agent.HookDecision, error) {
	next, decision, err := h.ph.AfterTool(ctx, r)
	h.done(err)
	return next, decision, err
}

func (h *recordingHook) ApproveTool(ctx context.Context, req *agent.ToolApprovalRequest) (agent.ApprovalDecision, error) {
	decision, err := h.ph.ApproveTool(ctx, req)
	h.done(err)
	return decision, err
}

// Close is called by HookManager.Close (closeAllHooks), which only logs the
// error; keep it for the close line.
func (h *recordingHook) Close() error {
	h.closeErr = h.ph.Close()
	return h.closeErr
}

// outLine is every output line; fields a step does not use are omitted, and
// hook_error / error are present as null rather than missing when there was
// no error, so consumers need not guess.
type decisionOut struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
}

type approvalOut struct {
	Approved bool   `json:"approved"`
	Reason   string `json:"reason"`
}

type outLine struct {
	Step      string          `json:"step"`
	OK        *bool           `json:"ok,omitempty"`
	Index     *int            `json:"index,omitempty"`
	Method    string          `json:"method,omitempty"`
	Decision  *decisionOut    `json:"decision,omitempty"`
	Approval  *approvalOut    `json:"approval,omitempty"`
	Payload   json.RawMessage `json:"payload,omitempty"`
	HookError json.RawMessage `json:"hook_error,omitempty"`
	Error     json.RawMessage `json:"error,omitempty"`
	ElapsedMS int64           `json:"elapsed_ms"`
}

type emitter struct {
	mu  sync.Mutex
	enc *json.Encoder
}

// emit writes one line; os.Stdout is unbuffered, so each line is flushed.
func (e *emitter) emit(line any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.enc.Encode(line); err != nil {
		fmt.Fprintf(os.Stderr, "picoclaw-host: writing output: %v\n", err)
	}
}

// nullable renders err as a JSON string, or null: the field is present
// either way (json.RawMessage "null" is not omitted by omitempty).
func nullable(err error) json.RawMessage {
	if err == nil {
		return json.RawMessage("null")
	}
	body, _ := json.Marshal(err.Error())
	return body
}

func ptr[T any](v T) *T { return &v }

func ms(d time.Duration) int64 { return d.Milliseconds() }

// routeLogger sends PicoClaw's logger to stderr, keeping stdout for our JSON
// lines. The logger's console writer is bound to os.Stdout at package init
// and cannot be redirected, so the console is disabled and the logger's only
// other sink, a file, is pointed at a pipe we copy to fd 2. (Opening
// /dev/stderr directly would give the log its own file offset when stderr
// is a regular file, and it would overwrite our own stderr lines.) The
// returned func flushes the copy; call it before exiting.
func routeLogger() (flush func()) {
	logger.DisableConsole()
	r, w, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(os.Stderr, "picoclaw-host: PicoClaw log discarded: %v\n", err)
		return func() {}
	}
	if err := logger.EnableFileLogging(fmt.Sprintf("/proc/self/fd/%d", w.Fd())); err != nil {
		fmt.Fprintf(os.Stderr, "picoclaw-host: PicoClaw log discarded: %v\n", err)
		r.Close()
		w.Close()
		return func() {}
	}
	copied := make(chan struct{})
	go func() {
		_, _ = io.Copy(os.Stderr, r)
		close(copied)
	}()
	return func() {
		logger.DisableFileLogging()
		w.Close()
		<-copied
	}
}

func run(args []string) error {
	t0 := time.Now()
	cfg, err := parseArgs(args)
	if err != nil {
		return err
	}
	calls, err := loadCalls(cfg.callsPath)
	if err != nil {
		return usageError{err}
	}
	defer routeLogger()()

	cfg.opts.Command = cfg.pluginCommand
	if cfg.tracePath != "" {
		cfg.opts.Command, err = relay.Wrap(cfg.tracePath, t0, cfg.pluginCommand)
		if err != nil {
			return err
		}
	}

	out := &emitter{enc: json.NewEncoder(os.Stdout)}
	out.enc.SetEscapeHTML(false)

	// The HookManager gets a real event bus, as in NewAgentLoop: runtime
	// events reach the hook through the manager's own subscription and
	// dispatch goroutine (runRuntimeObserver, with the observer timeout),
	// not by calling OnRuntimeEvent directly.
	bus := events.NewBus()
	defer bus.Close()
	hm := agent.NewHookManager(bus.Channel())
	hm.ConfigureTimeouts(
		time.Duration(cfg.observerMS)*time.Millisecond,
		time.Duration(cfg.interceptorMS)*time.Millisecond,
		time.Duration(cfg.approvalMS)*time.Millisecond,
	)

	// MountProcessHook passes its caller's ctx to NewProcessHook, and only a
	// nil ctx gets the 5 s hello deadline. Production callers pass a ctx
	// without deadline (hello may block forever); --hello-timeout-ms -1 does that.
	var helloCtx context.Context
	switch {
	case cfg.helloMS > 0:
		var cancel context.CancelFunc
		helloCtx, cancel = context.WithTimeout(context.Background(), time.Duration(cfg.helloMS)*time.Millisecond)
		defer cancel()
	case cfg.helloMS < 0:
		helloCtx = context.Background()
	}

	start := time.Now()
	ph, err := agent.NewProcessHook(helloCtx, cfg.name, cfg.opts)
	if err != nil {
		out.emit(outLine{Step: "start", OK: ptr(false), Error: nullable(err), ElapsedMS: ms(time.Since(start))})
		hm.Close()
		out.emit(outLine{Step: "close", Error: nullable(nil)})
		return nil
	}
	out.emit(outLine{Step: "start", OK: ptr(true), ElapsedMS: ms(time.Since(start))})

	hook := &recordingHook{ph: ph, errs: make(chan error, 1)}
	// As AgentLoop.MountProcessHook: a HookRegistration with HookSourceProcess
	// (NamedHook would mark it in-process).
	if err := hm.Mount(agent.HookRegistration{Name: cfg.name, Source: agent.HookSourceProcess, Hook: hook}); err != nil {
		_ = ph.Close()
		return fmt.Errorf("mount: %w", err)
	}

	for i, c := range calls {
		out.emit(drive(hm, bus, hook, i, c))
	}

	start = time.Now()
	hm.Close() // closes the subscription, then every mounted hook
	out.emit(outLine{Step: "close", Error: nullable(hook.closeErr), ElapsedMS: ms(time.Since(start))})
	return nil
}

// drive passes one call through the HookManager and reports its answer along
// with the error the ProcessHook returned. The manager always invokes the
// hook for a non-nil value, and every ProcessHook method returns once its
// context (bounded by the manager's timeout) is done, so waiting on
// hook.errs cannot hang.
func drive(hm *agent.HookManager, bus *events.EventBus, hook *recordingHook, i int, c call) outLine {
	ctx := context.Background()
	line := outLine{Step: "call", Index: ptr(i), Method: c.Method}
	start := time.Now()
	var payload any
	var decision agent.HookDecision
	switch v := c.Value.(type) {
	case *agent.LLMHookRequest:
		payload, decision = hm.BeforeLLM(ctx, v)
	case *agent.LLMHookResponse:
		payload, decision = hm.AfterLLM(ctx, v)
	case *agent.ToolCallHookRequest:
		payload, decision = hm.BeforeTool(ctx, v)
	case *agent.ToolResultHookResponse:
		payload, decision = hm.AfterTool(ctx, v)
	case *agent.ToolApprovalRequest:
		approval := hm.ApproveTool(ctx, v)
		line.ElapsedMS = ms(time.Since(start))
		line.Approval = &approvalOut{Approved: approval.Approved, Reason: approval.Reason}
		line.HookError = nullable(<-hook.errs)
		return line
	case *events.Event:
		// AgentLoop.publishRuntimeEvent uses PublishNonBlocking.
		res := bus.PublishNonBlocking(*v)
		line.Step = "notify"
		var herr error
		if res.Delivered == 0 {
			herr = fmt.Errorf("driver: event not delivered to the hook manager (%+v)", res)
		} else {
			herr = <-hook.errs
		}
		line.ElapsedMS = ms(time.Since(start))
		line.HookError = nullable(herr)
		return line
	}
	line.ElapsedMS = ms(time.Since(start))
	line.Decision = &decisionOut{Action: string(decision.Action), Reason: decision.Reason}
	body, err := json.Marshal(payload)
	if err != nil {
		body, _ = json.Marshal("driver: cannot encode payload: " + err.Error())
	}
	line.Payload = body
	line.HookError = nullable(<-hook.errs)
	return line
}
