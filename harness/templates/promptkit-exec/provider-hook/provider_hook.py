#!/usr/bin/env python3
"""A PromptKit exec provider hook (protocol promptkit-exec, role provider-hook).

PromptKit runs this around every LLM call, one process per call, with one JSON
document on stdin:
    {"hook": "provider", "phase": "before_call", "request": {...}}
    {"hook": "provider", "phase": "after_call", "request": {...}, "response": {...}}
and reads one answer from stdout:
    {"allow": true}   or   {"allow": false, "reason": "..."}

The real PromptKit sends the request and response keys in PascalCase
("Messages", "Message") while its docs show snake_case ("messages",
"message"); read both, as key() does. A crash, an empty answer or {} counts
as a deny: always answer with an explicit "allow".

This one denies a call when a message says "secret". Put your own rule in decide().
"""

import json
import sys


def key(obj, pascal, snake):
    """obj[pascal] (what PromptKit sends) or obj[snake] (what its docs show)."""
    if not isinstance(obj, dict):
        return None
    return obj.get(pascal, obj.get(snake))


def texts(payload):
    """The text of every message in the request, and of the reply (after_call)."""
    messages = key(payload.get("request"), "Messages", "messages") or []
    reply = key(payload.get("response"), "Message", "message")
    for message in [*messages, reply]:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            yield content


def decide(payload):
    """Your rule. Return {"allow": True} or {"allow": False, "reason": "..."}."""
    if any("secret" in text.lower() for text in texts(payload)):
        return {"allow": False, "reason": "a message mentions a secret"}
    return {"allow": True}


def main():
    # Read to EOF: PromptKit sends no trailing newline.
    try:
        payload = json.loads(sys.stdin.buffer.read())
    except ValueError:
        payload = None
    if isinstance(payload, dict):
        answer = decide(payload)
    else:
        answer = {"allow": False, "reason": "unreadable request"}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
