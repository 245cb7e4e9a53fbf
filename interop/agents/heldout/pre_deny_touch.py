#!/usr/bin/env python3
"""PreToolUse: refuse shell commands that create files with `touch`."""
import json
import re
import sys

REASON = "Creating files with touch is not allowed in this project."


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0  # not our business; let the tool run
    if payload.get("tool_name") != "Bash":
        return 0
    tool_input = payload.get("tool_input") or {}
    command = tool_input.get("command", "") if isinstance(tool_input, dict) else ""
    if not isinstance(command, str):
        return 0
    if re.search(r"(^|[;&|\s(])touch(\s|$)", command):
        out = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": REASON,
            }
        }
        sys.stdout.write(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
