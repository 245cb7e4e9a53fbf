#!/usr/bin/env python3
"""A PromptKit exec session hook (protocol promptkit-exec, role session-hook).

PromptKit runs this at session start, after each completed turn and at session
end, one process each time, with one JSON document on stdin:
    {"hook": "session", "phase": "session_start" | "session_update" | "session_end",
     "event": {"SessionID": ..., "TurnIndex": ..., "Messages": [...], ...}}
and expects {"ack": true} on stdout.

The real PromptKit sends the event keys in PascalCase ("SessionID",
"TurnIndex") while its docs show snake_case ("session_id", "turn_index");
read both. PromptKit waits for this process before the conversation goes on:
keep it fast.

This one logs each event to stderr. Put your own logic in on_event().
"""

import json
import sys


def on_event(phase, event):
    """Your logic: record, count, forward... (stdout is for the answer only)."""
    session = event.get("SessionID", event.get("session_id"))
    turn = event.get("TurnIndex", event.get("turn_index"))
    print(f"session hook: {phase} session={session} turn={turn}", file=sys.stderr)


def main():
    # Read to EOF: PromptKit sends no trailing newline.
    try:
        payload = json.loads(sys.stdin.buffer.read())
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        event = payload.get("event")
        on_event(payload.get("phase"), event if isinstance(event, dict) else {})
    sys.stdout.write(json.dumps({"ack": True}) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
