// A PromptKit exec session hook (protocol promptkit-exec, role session-hook).
//
// PromptKit runs this at session start, after each completed turn and at
// session end, one process each time, with one JSON document on stdin:
//
//	{"hook": "session", "phase": "session_start" | "session_update" | "session_end",
//	 "event": {"SessionID": ..., "TurnIndex": ..., "Messages": [...], ...}}
//
// and expects {"ack": true} on stdout.
//
// The real PromptKit sends the event keys in PascalCase ("SessionID",
// "TurnIndex") while its docs show snake_case ("session_id", "turn_index");
// read both. PromptKit waits for this process before the conversation goes
// on: keep it fast.
//
// This one logs each event to stderr. Put your own logic in onEvent().
//
// Build it once (`go build -o session_hook .`) and let PromptKit run
// ./session_hook: `go run .` would compile it again on every call.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// onEvent is your logic: record, count, forward... (stdout is for the answer only).
func onEvent(phase any, event map[string]any) {
	session, ok := event["SessionID"]
	if !ok {
		session = event["session_id"]
	}
	turn, ok := event["TurnIndex"]
	if !ok {
		turn = event["turn_index"]
	}
	fmt.Fprintf(os.Stderr, "session hook: %v session=%v turn=%v\n", phase, session, turn)
}

func main() {
	// Read to EOF: PromptKit sends no trailing newline.
	input, _ := io.ReadAll(os.Stdin)
	var payload struct {
		Phase any `json:"phase"`
		Event any `json:"event"`
	}
	if json.Unmarshal(input, &payload) == nil {
		event, _ := payload.Event.(map[string]any)
		if event == nil {
			event = map[string]any{}
		}
		onEvent(payload.Phase, event)
	}
	os.Stdout.Write([]byte("{\"ack\":true}\n"))
}
