#!/usr/bin/env python3
"""BROKEN on purpose (AGENT-HOOK-OUTPUT-SCHEMA): a PreToolUse hook that
answers with its own payload plus a decision. Claude Code ignores the extra
keys; Codex's output schema allows none, so the hook run fails and the
command runs unchecked.

    proctor certify --protocol codex-hook --role PreToolUse -- python3 examples/broken/echo_hook.py

Fix: print only the decision's fields.
"""

import json
import sys

payload = json.load(sys.stdin)
payload["decision"] = "block"
payload["reason"] = "every shell command needs a review"
print(json.dumps(payload))  # the bug: session_id, tool_input ... are not output fields
