#!/usr/bin/env python3
"""A PromptKit exec tool hook (protocol promptkit-exec, role tool-hook).

PromptKit runs this before (and after) every tool call, one process per call,
with one JSON document on stdin:
    {"hook": "tool", "phase": "before_execution", "request": {"Name": ..., "Args": {...}, "CallID": ...}}
and reads one answer from stdout:
    {"allow": true}   or   {"allow": false, "reason": "..."}

The real PromptKit sends "Name", "Args" and "CallID" (PascalCase) while its
docs show "name", "args" and "call_id"; read both, as key() does. A crash, an
empty answer or {} counts as a deny: always answer with an explicit "allow".

This one denies a call whose arguments mention "secret". Put your own rule in decide().
"""

import json
import sys


def key(obj, pascal, snake):
    """obj[pascal] (what PromptKit sends) or obj[snake] (what its docs show)."""
    if not isinstance(obj, dict):
        return None
    return obj.get(pascal, obj.get(snake))


def decide(payload):
    """Your rule. Return {"allow": True} or {"allow": False, "reason": "..."}."""
    request = payload.get("request")
    tool = key(request, "Name", "name")
    args = key(request, "Args", "args")  # null when the LLM sent no arguments
    if "secret" in json.dumps(args).lower():
        return {"allow": False, "reason": f"the arguments of {str(tool)[:60]} mention a secret"}
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
