package main

// Trace mode. NewProcessHook creates its exec.Cmd and pipes privately, so the
// only way to see the bytes without patching PicoClaw is to make the command
// it spawns a transparent relay: this same executable, re-run as
//
//	picoclaw-host __relay TRACEFILE T0_UNIX_NANO PATH -- ARGV0 ARG...
//
// The relay starts the plugin (PATH, argv ARGV0 ARG...), copies stdin,
// stdout and stderr through while logging every chunk, and tries hard not to
// change behaviour:
//   - the host's stdin EOF becomes the plugin's stdin EOF;
//   - SIGTERM/SIGINT/SIGHUP are forwarded; the plugin gets PR_SET_PDEATHSIG
//     SIGKILL, so ProcessHook.Close's Kill of the relay kills the plugin;
//   - the relay exits with the plugin's status, or dies of its signal, so
//     the host's cmd.Wait error ("exit status 1", "signal: killed") matches.
//
// Differences that remain: one extra process (the plugin's parent is the
// relay, not the host), an extra pipe in each direction (twice the buffering
// before a writer blocks), and after the plugin exits the relay forwards
// output still in flight for at most relayDrainGrace (a grandchild holding
// stdout open does not keep the relay alive).

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

const (
	relayArg        = "__relay"
	relayDrainGrace = 200 * time.Millisecond
)

// traceRecord is one line of the trace file. text holds the chunk when it is
// valid UTF-8; otherwise hex holds it, hex-encoded.
type traceRecord struct {
	AtMS   float64 `json:"at_ms"`
	Dir    string  `json:"dir"`
	Text   *string `json:"text,omitempty"`
	Hex    string  `json:"hex,omitempty"`
	EOF    bool    `json:"eof,omitempty"`
	Event  string  `json:"event,omitempty"`
	PID    int     `json:"pid,omitempty"`
	Status string  `json:"status,omitempty"`
}

type tracer struct {
	mu sync.Mutex
	f  *os.File
	t0 time.Time
}

func (t *tracer) write(rec traceRecord) {
	rec.AtMS = float64(time.Since(t.t0).Microseconds()) / 1000
	body, err := json.Marshal(rec)
	if err != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	_, _ = t.f.Write(append(body, '\n'))
}

func (t *tracer) chunk(dir string, b []byte) {
	rec := traceRecord{Dir: dir}
	if utf8.Valid(b) {
		s := string(b)
		rec.Text = &s
	} else {
		rec.Hex = fmt.Sprintf("%x", b)
	}
	t.write(rec)
}

// pump copies src to dst chunk by chunk, logging each chunk as read, then
// closes dst (for the plugin's stdin this is how EOF is passed on).
func (t *tracer) pump(dir string, dst io.WriteCloser, src io.Reader) {
	buf := make([]byte, 64*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			t.chunk(dir, buf[:n])
			if _, werr := dst.Write(buf[:n]); werr != nil {
				t.write(traceRecord{Dir: dir, Event: "write_error", Status: werr.Error()})
				break
			}
		}
		if err != nil {
			t.write(traceRecord{Dir: dir, EOF: true})
			break
		}
	}
	_ = dst.Close()
}

func relayMain(args []string) int {
	// TRACEFILE T0_UNIX_NANO PATH -- ARGV0 [ARG...]
	if len(args) < 5 || args[2] == "" || args[3] != "--" {
		fmt.Fprintln(os.Stderr, "picoclaw-host: bad __relay arguments")
		return 2
	}
	nanos, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "picoclaw-host: bad __relay T0")
		return 2
	}
	f, err := os.OpenFile(args[0], os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "picoclaw-host: trace: %v\n", err)
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
	if err := firstErr(err1, err2, err3); err != nil {
		fmt.Fprintf(os.Stderr, "picoclaw-host: relay pipes: %v\n", err)
		return 126
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
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	if err := cmd.Start(); err != nil {
		t.write(traceRecord{Dir: "relay", Event: "start_error", Status: err.Error()})
		fmt.Fprintf(os.Stderr, "picoclaw-host: relay: %v\n", err)
		return 127
	}
	t.write(traceRecord{Dir: "relay", Event: "start", PID: cmd.Process.Pid})
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()

	go func() {
		for sig := range sigs {
			t.write(traceRecord{Dir: "relay", Event: "signal", Status: sig.String()})
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
	case <-time.After(relayDrainGrace):
		t.write(traceRecord{Dir: "relay", Event: "drain_timeout"})
	}

	state := cmd.ProcessState
	status := "exit status 0"
	if waitErr != nil {
		status = waitErr.Error()
	}
	t.write(traceRecord{Dir: "relay", Event: "exit", Status: status})
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		// Die the same way so the host's cmd.Wait reports the same signal.
		signal.Reset()
		_ = syscall.Kill(os.Getpid(), ws.Signal())
		time.Sleep(100 * time.Millisecond)
		return 128 + int(ws.Signal())
	}
	return state.ExitCode()
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
