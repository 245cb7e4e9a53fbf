#!/usr/bin/env python3
"""A PostToolUse command hook for Claude Code and Codex CLI: when a shell
command's output matches a rule in FLAGGED, gives the model a reason
(Claude Code adds it beside the output; Codex replaces the output with it).

Configure it in Claude Code's settings.json or Codex's hooks.json:
  {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 output_scan.py"}]}]}}

The output is in `tool_response`, not `tool_input`, and its shape depends on
the agent: Claude Code sends Bash's result object (stdout, stderr, ...),
Codex the output as one string. Logs go to stderr; stdout holds one JSON
object or nothing; a block always carries its reason.
"""

import json
import re
import sys

# Your rules: a pattern in the output, and what the model is told.
FLAGGED = {
    re.compile(r"(?i)(password|secret|token)\s*[=:]\s*\S+"): "The output holds a secret: do not repeat it.",
}


def output_of(response) -> str:
    if isinstance(response, str):
        return response
    if isinstance(response, dict):
        return "\n".join(str(response.get(k) or "") for k in ("stdout", "stderr"))
    return ""


def main() -> int:
    try:
        payload = json.load(sys.stdin)
        output = output_of(payload.get("tool_response"))
    except Exception as e:
        print(f"output_scan: {e}", file=sys.stderr)
        return 0
    for pattern, reason in FLAGGED.items():
        if pattern.search(output):
            print(json.dumps({"decision": "block", "reason": reason}))
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
