#!/usr/bin/env python3
"""PostToolUse: when a shell listing shows a.txt, tell the model not to modify it."""
import json
import sys

REASON = "The output lists a.txt; a.txt is a protected fixture, do not modify it."


def output_text(resp):
    # Codex sends the raw output string; Claude Code sends an object
    # like {"stdout": ..., "stderr": ...}.
    if resp is None:
        return ""
    if isinstance(resp, str):
        return resp
    if isinstance(resp, dict):
        parts = [v for k, v in resp.items() if k in ("stdout", "stderr", "output") and isinstance(v, str)]
        return "\n".join(parts) if parts else json.dumps(resp)
    return json.dumps(resp)


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    if payload.get("tool_name") != "Bash":
        return 0
    if "a.txt" in output_text(payload.get("tool_response")):
        sys.stdout.write(json.dumps({"decision": "block", "reason": REASON}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
