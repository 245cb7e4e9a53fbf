#!/usr/bin/env python3
"""BROKEN on purpose (AGENT-HOOK-EVENT-NAME): a PreToolUse hook whose
hookSpecificOutput does not say which event it answers. Both agents report
a hook error ("hookSpecificOutput is missing required field hookEventName")
and run the command.

    proctor certify --protocol claude-code-hook --role PreToolUse -- python3 examples/broken/nameless_hook.py

Fix: add "hookEventName": payload["hook_event_name"].
"""

import json
import sys

json.load(sys.stdin)
print(json.dumps({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no shell commands today"}}))
