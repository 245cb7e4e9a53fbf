#!/usr/bin/env python3
"""A PreToolUse command hook for Claude Code and Codex CLI: blocks the shell
commands in BLOCKED, lets everything else through.

Configure it in Claude Code's settings.json or Codex's hooks.json:
  {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 guard.py"}]}]}}

How both agents read a hook (proctor certify holds it to each):
  - stdout holds one JSON object or nothing: print logs to stderr;
  - a block always carries its reason (Codex ignores a block without one);
  - write only documented fields (Codex refuses any other key), and never
    `permissionDecision: allow` (Codex refuses it; saying nothing lets the call through).
"""

import json
import sys

# Your rules: a piece of a command line, and why it is refused.
BLOCKED = {
    "rm -rf": "rm -rf deletes files for good",
    "--force": "a force push rewrites shared history",
}


def decide(payload: dict) -> str | None:
    """The reason to block this call, or None to let it through."""
    command = (payload.get("tool_input") or {}).get("command")
    if payload.get("tool_name") != "Bash" or not isinstance(command, str):
        return None
    for piece, why in BLOCKED.items():
        if piece in command:
            return why
    return None


def main() -> int:
    try:
        payload = json.load(sys.stdin)
        reason = decide(payload)
    except Exception as e:  # a bug here must not become a hook error the agent steps over
        print(f"guard: {e}", file=sys.stderr)
        return 0
    if reason:
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                                 "permissionDecisionReason": reason}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
