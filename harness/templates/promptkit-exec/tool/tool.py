#!/usr/bin/env python3
"""A PromptKit exec tool (protocol promptkit-exec, role tool), one-shot.

PromptKit starts this script once per tool call, writes one JSON document to
its stdin and closes it:  {"args": {...the arguments the LLM chose...}}
The script writes exactly one JSON document to stdout and exits 0:

    {"result": ...}   the tool worked; the LLM sees the result
    {"error": "..."}  the tool failed; the LLM sees the message

This one greets someone: {"name": "Ada"} -> {"result": {"greeting": "Hello, Ada!"}}.
Put your own logic in run_tool().
"""

import json
import sys


def run_tool(args):
    """Your tool. Return {"result": ...} or {"error": "..."}."""
    name = args.get("name")
    if not isinstance(name, str) or not name.strip():
        return {"error": "missing argument: name (a non-empty string)"}
    return {"result": {"greeting": f"Hello, {name.strip()}!"}}


def main():
    # Read to EOF: PromptKit sends no trailing newline, so readline() or a
    # `while read` loop would wait for a line that never ends.
    try:
        request = json.loads(sys.stdin.buffer.read())
    except ValueError:
        request = None
    args = request.get("args") if isinstance(request, dict) else None
    if args is None:  # the LLM sent no arguments
        args = {}
    if isinstance(args, dict):
        answer = run_tool(args)
    else:
        answer = {"error": "args must be a JSON object"}
    # One document and nothing else on stdout (logs go to stderr), then exit 0:
    # PromptKit ignores stdout when the exit status is not 0.
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
