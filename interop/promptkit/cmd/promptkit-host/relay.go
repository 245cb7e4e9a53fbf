package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// relayArg selects the hidden relay mode: promptkit-host __relay TRACEFILE -- CMD [ARG...]
const relayArg = "__relay"

// relayMain sits between PromptKit and the plugin when --trace is given.
// PromptKit spawns it in the plugin's place, so PromptKit's own code still
// decides what is written, when stdin closes and when the process is killed;
// the relay copies each stream through and logs every chunk. It must behave
// like the plugin from PromptKit's side: same exit status (or death by the
// same signal), SIGTERM passed on, and the plugin never outlives it
// (Pdeathsig SIGKILL, so PromptKit's SIGKILL on timeout still kills it).
//
// It needs nothing from the environment: PromptKit gives a one-shot exec tool
// only the listed variables, and the environment it gets is passed on as is.
func relayMain(argv []string) int {
	if len(argv) < 3 || argv[1] != "--" {
		fmt.Fprintln(os.Stderr, "usage: promptkit-host __relay TRACEFILE -- COMMAND [ARG...]")
		return 2
	}
	trace, err := os.OpenFile(argv[0], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "promptkit-host relay: %v\n", err)
		return 127
	}
	// Pdeathsig fires when the thread that forked the child exits; keep
	// the main goroutine on its thread for the relay's whole life.
	runtime.LockOSThread()

	cmd := exec.Command(argv[2], argv[3:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdin, err1 := cmd.StdinPipe()
	stdout, err2 := cmd.StdoutPipe()
	stderr, err3 := cmd.StderrPipe()
	if err := firstErr(err1, err2, err3, cmd.Start()); err != nil {
		fmt.Fprintf(os.Stderr, "promptkit-host relay: %v\n", err)
		return 127
	}
	log := &traceLog{f: trace, pid: cmd.Process.Pid}

	// A broken pipe towards PromptKit must be an error we handle, not a
	// SIGPIPE death of the relay (Notify, not Ignore: an ignored signal
	// would be inherited by the plugin).
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGPIPE)
	go func() {
		for s := range sigs {
			if s != syscall.SIGPIPE {
				_ = cmd.Process.Signal(s)
			}
		}
	}()

	go func() {
		pump(os.Stdin, stdin, log, "to_plugin")
		stdin.Close() // PromptKit closed stdin: so does the plugin's.
	}()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); pump(stdout, os.Stdout, log, "from_plugin") }()
	go func() { defer wg.Done(); pump(stderr, os.Stderr, log, "stderr") }()
	wg.Wait() // all output read before Wait closes the pipes (os/exec rule)
	_ = cmd.Wait()

	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		signal.Reset(ws.Signal())
		_ = syscall.Kill(os.Getpid(), ws.Signal())
		time.Sleep(time.Second)
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// pump copies src to dst chunk by chunk, logging each chunk. When dst stops
// accepting (PromptKit closed its end) it keeps draining src, so the plugin
// is not blocked, but it still logs what the plugin wrote.
func pump(src io.Reader, dst io.Writer, log *traceLog, dir string) {
	buf := make([]byte, 64<<10)
	broken := false
	for {
		n, err := src.Read(buf)
		if n > 0 {
			log.write(dir, buf[:n])
			if !broken {
				if _, werr := dst.Write(buf[:n]); werr != nil {
					broken = true
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// traceLog appends one JSON line per chunk. O_APPEND and one write per line
// keep lines whole when several relays share the file.
type traceLog struct {
	mu  sync.Mutex
	f   *os.File
	pid int
}

func (t *traceLog) write(dir string, chunk []byte) {
	line := struct {
		AtMs   int64  `json:"at_ms"`
		Pid    int    `json:"pid"`
		Dir    string `json:"dir"`
		Text   string `json:"text"`
		Base64 string `json:"base64,omitempty"` // exact bytes when text is not valid UTF-8
	}{time.Now().UnixMilli(), t.pid, dir, string(chunk), ""}
	if !utf8.Valid(chunk) {
		line.Base64 = base64.StdEncoding.EncodeToString(chunk)
	}
	var data bytes.Buffer
	enc := json.NewEncoder(&data) // Encode adds the newline
	enc.SetEscapeHTML(false)
	_ = enc.Encode(line)
	t.mu.Lock()
	_, _ = t.f.Write(data.Bytes())
	t.mu.Unlock()
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
