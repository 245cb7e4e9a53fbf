#!/usr/bin/env python3
"""UserPromptSubmit: refuse prompts that ask to list files."""
import json
import re
import sys

REASON = "Listing files is disabled in this workspace."


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    prompt = payload.get("prompt") or ""
    if re.search(r"\blist\b", prompt, re.IGNORECASE):
        sys.stdout.write(json.dumps({"decision": "block", "reason": REASON}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
