#!/usr/bin/env python3
"""BROKEN on purpose (CASE-DECISION): a PostToolUse secret scanner that looks
for secrets in `tool_input` (the command) instead of `tool_response` (what it
printed). `cat .env` goes through with the key in its output.

    proctor certify --protocol claude-code-hook --role PostToolUse \
        --cases examples/broken/input_reading_scan.cases.yaml -- python3 examples/broken/input_reading_scan.py

Fix: scan payload["tool_response"] (an object with stdout under Claude Code,
a string under Codex); see examples/agent-hooks/secret_scan.py.
"""

import json
import re
import sys

SECRET = re.compile(r"(AKIA[0-9A-Z]{16}|(?i:secret|password|token)\s*[=:]\s*\S+)")
payload = json.load(sys.stdin)
scanned = json.dumps(payload.get("tool_input"))  # the bug: the output is in tool_response
if SECRET.search(scanned):
    print(json.dumps({"decision": "block", "reason": "The command printed a secret; do not repeat it."}))
