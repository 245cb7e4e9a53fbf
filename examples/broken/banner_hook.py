#!/usr/bin/env python3
"""BROKEN on purpose (AGENT-HOOK-STDOUT-JSON): a PreToolUse hook that greets
on stdout before its decision. Both Claude Code and Codex then read stdout as
plain text, the denial in it is ignored, and `rm -rf` runs.

    proctor certify --protocol claude-code-hook --role PreToolUse -- python3 examples/broken/banner_hook.py

Fix: print the banner to stderr (`print(..., file=sys.stderr)`).
"""

import json
import sys

payload = json.load(sys.stdin)
print("bash-policy v1.2 loaded")  # the bug: this belongs on stderr
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                         "permissionDecisionReason": "this policy denies every shell command"}}))
