#!/usr/bin/env python3
"""A PromptKit exec eval (protocol promptkit-exec, role eval), one-shot.

PromptKit runs this after an assistant reply, with one JSON document on stdin:
    {"type": "...", "params": {...}, "content": "<the reply>", "context": {...}}
and reads one document from stdout:
    {"score": 0.0 to 1.0, "detail": "why", "data": {...anything...}}

This one scores 1.0 when the reply does not apologise and 0.0 when it says
"sorry". Put your own scoring in score().
"""

import json
import sys


def score(content, params):
    """Your eval. Return (score between 0 and 1, a short explanation)."""
    if "sorry" in content.lower():
        return 0.0, "the reply apologises"
    return 1.0, "no apology"


def main():
    # Read to EOF: PromptKit sends no trailing newline.
    try:
        request = json.loads(sys.stdin.buffer.read())
    except ValueError:
        request = {}
    if not isinstance(request, dict):
        request = {}
    content = request.get("content")
    params = request.get("params")  # absent when the eval has none
    value, detail = score(content if isinstance(content, str) else "", params if isinstance(params, dict) else {})
    # One document on stdout, flushed, then exit 0.
    sys.stdout.write(json.dumps({"score": value, "detail": detail, "data": {}}) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
