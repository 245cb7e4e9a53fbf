#!/usr/bin/env python3
"""audit_logger.py: a PromptKit exec session hook (promptkit-exec, role session-hook), observe mode.

Writes one audit line per session event to stderr and acknowledges with {"ack": true}.
Reads the session id under both spellings (documented `session_id`, PromptKit's `SessionID`).
"""
import json
import sys


def main() -> None:
    try:
        request = json.loads(sys.stdin.read() or "{}")
    except json.JSONDecodeError:
        request = {}
    request = request if isinstance(request, dict) else {}
    event = request.get("event") if isinstance(request.get("event"), dict) else {}
    session = event.get("SessionID", event.get("session_id", "?"))
    print(f"audit: {request.get('phase', '?')} session={session}", file=sys.stderr)
    print(json.dumps({"ack": True}))


if __name__ == "__main__":
    main()
