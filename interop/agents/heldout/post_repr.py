#!/usr/bin/env python3
# PostToolUse: give the model a hint after shell commands.
import json
import sys

payload = json.load(sys.stdin)
if payload.get("tool_name") == "Bash":
    print({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": "Hint: summarise the file list in one sentence.",
        }
    })
