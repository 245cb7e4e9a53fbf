#!/usr/bin/env python3
"""audit_session_hook.py: a PromptKit exec session hook (role session-hook).

PromptKit runs this at session start, after every completed turn and at
session end, with one JSON document on stdin (no trailing newline):

    {"hook":"session","phase":"session_start"|"session_update"|"session_end",
     "event":{...}}

It writes one audit line to stderr and answers {"ack": true}.

Casing. The docs show snake_case event keys ("session_id", "turn_index"). The
real runtime (PromptKit at 86d9f36) sends the Go field names: "SessionID",
"ConversationID", "Messages", "TurnIndex", "Metadata". Both are read here,
PascalCase first. Messages inside use lowercase keys ("role", "content") in
both cases, and "Messages" may be null.

Facts about the real runtime that shaped this file:

    * Session hooks are observe-only in effect: stdout is never parsed, and in
      observe mode every failure is swallowed. {"ack": true} is still sent so
      the hook follows the documented protocol.
    * "Observe" is NOT asynchronous: PromptKit waits for the process (up to the
      10 s default timeout) before the conversation continues. Stay fast; do
      not call slow services from here.
    * When the hook succeeds PromptKit drops its stderr, so the stderr line is
      for people running the hook by hand or under a harness. For a durable
      trail set AUDIT_LOG_FILE: one JSON line per event is appended there.
    * Never register this script as a provider or tool hook: those read
      {"ack": true} as {"allow": false}, i.e. a deny.
"""

import json
import os
import sys
import time

ABSENT = object()


def pick(obj, *names):
    """First of `names` present in `obj` (PascalCase first, then snake_case)."""
    if isinstance(obj, dict):
        for name in names:
            if name in obj:
                return obj[name]
    return ABSENT


def text(value, limit=80):
    """A short printable rendering of a field for the log line."""
    if value is ABSENT or value is None:
        return "-"
    rendered = value if isinstance(value, str) else json.dumps(value)
    rendered = "".join(ch if ch.isprintable() else "?" for ch in rendered)
    return rendered[:limit] or "-"


def summarise(payload):
    """Pull the interesting fields out of the event, whatever its casing."""
    event = payload.get("event") if isinstance(payload, dict) else None
    phase = payload.get("phase") if isinstance(payload, dict) else None
    messages = pick(event, "Messages", "messages")
    return {
        "phase": phase if isinstance(phase, str) else None,
        "session_id": pick(event, "SessionID", "session_id"),
        "conversation_id": pick(event, "ConversationID", "conversation_id"),
        "turn_index": pick(event, "TurnIndex", "turn_index"),
        "messages": len(messages) if isinstance(messages, list) else 0,
    }


def append_to_log_file(record):
    path = os.environ.get("AUDIT_LOG_FILE")
    if not path:
        return
    try:
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps(record, separators=(",", ":")) + "\n")
    except OSError as err:  # auditing must never break the conversation
        print(f"audit_session_hook: cannot write {path}: {err}", file=sys.stderr)


def main():
    raw = sys.stdin.buffer.read()  # to EOF: the request has no trailing newline
    try:
        payload = json.loads(raw)
    except ValueError as err:
        print(f"audit_session_hook: cannot parse request: {err}", file=sys.stderr)
        payload = {}

    info = summarise(payload)
    print(
        "audit: {} session={} conversation={} turn={} messages={}".format(
            text(info["phase"]), text(info["session_id"]),
            text(info["conversation_id"]), text(info["turn_index"]),
            info["messages"],
        ),
        file=sys.stderr,
        flush=True,
    )
    record = {k: (None if v is ABSENT else v) for k, v in info.items()}
    record["time"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    append_to_log_file(record)

    sys.stdout.write('{"ack":true}\n')
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
