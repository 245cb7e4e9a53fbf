#!/usr/bin/env python3
"""A PreToolUse command hook for Claude Code and Codex CLI: refuses shell
commands that destroy data, lets everything else through.

    proctor certify --protocol claude-code-hook --role PreToolUse \
        --cases examples/agent-hooks/bash_guard.cases.yaml -- python3 examples/agent-hooks/bash_guard.py
    proctor certify --protocol codex-hook --role PreToolUse \
        --cases examples/agent-hooks/bash_guard.cases.yaml -- python3 examples/agent-hooks/bash_guard.py

Written the way both agents read a hook: stdout holds one JSON object or
nothing, logs go to stderr, and a denial always carries its reason (Codex
ignores a denial without one). Nothing else is written: Codex refuses keys
its output schema does not have, and `permissionDecision: allow`.
"""

import json
import re
import sys

DANGEROUS = [
    (re.compile(r"\brm\s+(-[a-zA-Z]*r[a-zA-Z]*f|-[a-zA-Z]*f[a-zA-Z]*r)\b"), "rm -rf deletes files for good"),
    (re.compile(r"\bgit\s+push\b.*--force\b"), "a force push rewrites shared history"),
    (re.compile(r"\bmkfs(\.\w+)?\b"), "mkfs erases a filesystem"),
    (re.compile(r"\bdd\s+.*\bof=/dev/"), "dd onto a device overwrites it"),
]


def main() -> int:
    try:
        payload = json.load(sys.stdin)
    except ValueError as e:
        print(f"bash_guard: unreadable payload: {e}", file=sys.stderr)
        return 0  # nothing to judge: let the agent go on
    command = (payload.get("tool_input") or {}).get("command")
    if payload.get("tool_name") != "Bash" or not isinstance(command, str):
        return 0
    for pattern, why in DANGEROUS:
        if pattern.search(command):
            print(f"bash_guard: denied {command!r}", file=sys.stderr)
            decision = {
                "hookSpecificOutput": {
                    "hookEventName": payload.get("hook_event_name", "PreToolUse"),
                    "permissionDecision": "deny",
                    "permissionDecisionReason": f"{why}; ask the user to run it themselves if it is really meant",
                }
            }
            print(json.dumps(decision))
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
