#!/usr/bin/env python3
"""A PromptKit exec eval hook (protocol promptkit-exec, role eval-hook).

PromptKit runs this once per eval result, one process each time, with one
JSON document on stdin:
    {"eval_id": "tone", "type": "...", "score": 0.85, "explanation": "...",
     "duration_ms": 12, "session_id": "...", "turn_index": 1, ...}
("passed" is in the docs; the real PromptKit does not send it.) PromptKit
ignores this hook's stdout, so there is nothing to answer: exit 0 quickly.
(PromptKit gives an eval hook 5 seconds.)

This one logs each result to stderr. Put your own logic in on_result(): send
scores to your metrics system, alert on low ones...
"""

import json
import sys


def on_result(result):
    """Your logic (stdout is ignored; log to stderr or a file)."""
    print(f"eval hook: {result.get('eval_id')} scored {result.get('score')}", file=sys.stderr)


def main():
    # Read to EOF: PromptKit sends no trailing newline.
    try:
        result = json.loads(sys.stdin.buffer.read())
    except ValueError:
        result = None
    if isinstance(result, dict):
        on_result(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
