#!/usr/bin/env python3
"""A PostToolUse command hook for Claude Code and Codex CLI: when a shell
command's output holds a secret, tells the model not to repeat it.

    proctor certify --protocol codex-hook --role PostToolUse \
        --cases examples/agent-hooks/secret_scan.cases.yaml -- python3 examples/agent-hooks/secret_scan.py

The output is in `tool_response`, not `tool_input`, and its shape depends on
the agent: Claude Code sends Bash's result object (`stdout`, `stderr`, ...),
Codex the command's output as one string. A block after the tool gives the
model the reason: Claude Code adds it beside the output, Codex replaces the
output with it (so the secret never reaches the model).
"""

import json
import re
import sys

SECRET = re.compile(r"(AKIA[0-9A-Z]{16}|-----BEGIN [A-Z ]*PRIVATE KEY-----|(?i:secret|password|token)\s*[=:]\s*\S+)")


def output_of(response) -> str:
    if isinstance(response, str):
        return response
    if isinstance(response, dict):
        return "\n".join(str(response.get(k) or "") for k in ("stdout", "stderr"))
    return ""


def main() -> int:
    payload = json.load(sys.stdin)
    if SECRET.search(output_of(payload.get("tool_response"))):
        print("secret_scan: a secret in the output", file=sys.stderr)
        print(json.dumps({"decision": "block", "reason": "The command printed a secret. Do not repeat it; tell the user to rotate it."}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
