#!/usr/bin/env python3
"""Stop: make the model do one more pass before it ends the turn."""
import json
import sys

REASON = "Before finishing, say how many files you found."


def main():
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    if payload.get("stop_hook_active"):
        return 0  # already continued once; let it stop
    sys.stdout.write(json.dumps({"decision": "block", "reason": REASON}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
