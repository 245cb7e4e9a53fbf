// Package relay records every byte between a runtime and a plugin, for the
// interop drivers' --trace.
//
// A driver cannot see the pipes the runtime's own code opens, so it puts
// itself in the plugin's place: the runtime spawns the driver's executable in
// relay mode (Wrap builds that command line), and the relay starts the real
// plugin, copies each stream through and logs every chunk. It must behave
// like the plugin from the runtime's side: the runtime still decides what is
// written, when stdin closes and when the process is killed; the relay exits
// with the plugin's status (or dies of the same signal), passes SIGTERM,
// SIGINT and SIGHUP on, and the plugin never outlives it (Pdeathsig SIGKILL,
// so a runtime's kill of the relay still kills the plugin). It adds one
// process and one more pipe buffer in each direction; after the plugin exits
// it forwards output still in flight for at most DrainGrace, so a grandchild
// holding stdout open does not keep the relay alive.
package relay

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// Arg, as a driver's first argument, selects the relay mode.
const Arg = "__relay"

// DrainGrace is how long output in flight is still forwarded after the plugin exits.
const DrainGrace = 200 * time.Millisecond

// Wrap returns the command line that runs command through the calling
// executable's relay mode, logging to tracePath with times relative to t0.
// The trace file is emptied here once; every relay (one per process of a
// one-shot plugin) appends to it. The program is resolved here, where the
// runtime itself would resolve it (the relay may get no PATH: a PromptKit
// exec tool gets only the variables its binding lists). When it does not
// resolve, command comes back unwrapped, so the runtime reports its own
// start error, and the trace stays empty.
func Wrap(tracePath string, t0 time.Time, command []string) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("locate own executable for --trace: %w", err)
	}
	trace, err := filepath.Abs(tracePath)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(trace, nil, 0o644); err != nil {
		return nil, fmt.Errorf("--trace: %w", err)
	}
	resolved, err := exec.LookPath(command[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "--trace: not tracing: %v\n", err)
		return command, nil
	}
	if resolved, err = filepath.Abs(resolved); err != nil {
		return nil, err
	}
	wrapped := []string{self, Arg, trace, strconv.FormatInt(t0.UnixNano(), 10), resolved, "--"}
	return append(wrapped, command...), nil
}

// record is one line of the trace: a chunk (text when it is valid UTF-8,
// hex otherwise), an end of stream, or a relay event.
type record struct {
	AtMS   float64 `json:"at_ms"`
	PID    int     `json:"pid,omitempty"`
	Dir    string  `json:"dir"`
	Text   *string `json:"text,omitempty"`
	Hex    string  `json:"hex,omitempty"`
	EOF    bool    `json:"eof,omitempty"`
	Event  string  `json:"event,omitempty"`
	Status string  `json:"status,omitempty"`
}

type tracer struct {
	mu  sync.Mutex
	f   *os.File
	t0  time.Time
	pid int
}

// write appends one line; O_APPEND and one write per line keep lines whole
// when several relays share the file.
func (t *tracer) write(rec record) {
	rec.AtMS = float64(time.Since(t.t0).Microseconds()) / 1000
	t.mu.Lock()
	defer t.mu.Unlock()
	rec.PID = t.pid
	body, err := json.Marshal(rec)
	if err != nil {
		return
	}
	_, _ = t.f.Write(append(body, '\n'))
}

func (t *tracer) chunk(dir string, b []byte) {
	rec := record{Dir: dir}
	if utf8.Valid(b) {
		s := string(b)
		rec.Text = &s
	} else {
		rec.Hex = fmt.Sprintf("%x", b)
	}
	t.write(rec)
}

// pump copies src to dst chunk by chunk, logging each chunk, then closes dst
// (for the plugin's stdin, that is how EOF is passed on). When dst stops
// accepting (the runtime closed its end) it keeps draining and logging src,
// so the plugin is not blocked by the relay.
func (t *tracer) pump(dir string, dst io.WriteCloser, src io.Reader) {
	buf := make([]byte, 64*1024)
	broken := false
	for {
		n, err := src.Read(buf)
		if n > 0 {
			t.chunk(dir, buf[:n])
			if !broken {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					t.write(record{Dir: dir, Event: "write_error", Status: werr.Error()})
					broken = true
				}
			}
		}
		if err != nil {
			t.write(record{Dir: dir, EOF: true})
			break
		}
	}
	_ = dst.Close()
}

// Main is the relay mode, given the arguments after Arg:
// TRACEFILE T0_UNIX_NANO PATH -- ARGV0 [ARG...]. It returns the exit status.
func Main(args []string) int {
	if len(args) < 5 || args[2] == "" || args[3] != "--" {
		fmt.Fprintln(os.Stderr, "relay: usage: __relay TRACEFILE T0_UNIX_NANO PATH -- ARGV0 [ARG...]")
		return 2
	}
	nanos, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "relay: bad T0")
		return 2
	}
	f, err := os.OpenFile(args[0], os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "relay: trace: %v\n", err)
		return 126
	}
	defer f.Close()
	t := &tracer{f: f, t0: time.Unix(0, nanos)}

	// Pdeathsig fires when the creating OS thread exits, so keep this
	// goroutine on one thread for the relay's whole life.
	runtime.LockOSThread()

	stdinR, stdinW, err1 := os.Pipe()
	stdoutR, stdoutW, err2 := os.Pipe()
	stderrR, stderrW, err3 := os.Pipe()
	for _, err := range []error{err1, err2, err3} {
		if err != nil {
			fmt.Fprintf(os.Stderr, "relay: pipes: %v\n", err)
			return 126
		}
	}
	// *os.File stdio: the plugin gets the pipe fds directly, and cmd.Wait
	// does not wait for our copying.
	cmd := &exec.Cmd{
		Path:        args[2],
		Args:        args[4:],
		Stdin:       stdinR,
		Stdout:      stdoutW,
		Stderr:      stderrW,
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	}
	// SIGPIPE is caught, not ignored: an ignored signal would be inherited
	// by the plugin, and a broken pipe towards the runtime is handled in pump.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
	if err := cmd.Start(); err != nil {
		t.write(record{Dir: "relay", Event: "start_error", Status: err.Error()})
		fmt.Fprintf(os.Stderr, "relay: %v\n", err)
		return 127
	}
	t.pid = cmd.Process.Pid
	t.write(record{Dir: "relay", Event: "start"})
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()

	go func() {
		for sig := range sigs {
			if sig == syscall.SIGPIPE {
				continue
			}
			t.write(record{Dir: "relay", Event: "signal", Status: sig.String()})
			_ = cmd.Process.Signal(sig)
		}
	}()

	go t.pump("to_plugin", stdinW, os.Stdin)
	var outputs sync.WaitGroup
	outputs.Add(2)
	go func() { defer outputs.Done(); t.pump("from_plugin", os.Stdout, stdoutR) }()
	go func() { defer outputs.Done(); t.pump("stderr", os.Stderr, stderrR) }()

	waitErr := cmd.Wait()
	drained := make(chan struct{})
	go func() { outputs.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(DrainGrace):
		t.write(record{Dir: "relay", Event: "drain_timeout"})
	}

	status := "exit status 0"
	if waitErr != nil {
		status = waitErr.Error()
	}
	t.write(record{Dir: "relay", Event: "exit", Status: status})
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		// Die the same way, so the runtime's Wait reports the same signal.
		signal.Reset()
		_ = syscall.Kill(os.Getpid(), ws.Signal())
		time.Sleep(100 * time.Millisecond)
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}
