#!/usr/bin/env python3
# PreToolUse: block `touch` so the agent can't litter the repo with marker files.
import json
import sys

data = json.load(sys.stdin)
cmd = data.get("tool_input", {}).get("command", "")

if data.get("tool_name") == "Bash" and "touch " in cmd:
    print(json.dumps({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "block",
            "permissionDecisionReason": "Marker files are not allowed; skip the touch command.",
        }
    }))
sys.exit(0)
