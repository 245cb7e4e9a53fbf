#!/usr/bin/env python3
"""abort_hook.py: a PicoClaw process hook that ends the turn from one stage.

    python3 abort_hook.py ACTION [METHOD]

ACTION is the interceptor action to answer at METHOD (default
hook.before_tool), normally "abort_turn" or "hard_abort"; every other
interceptor call gets {"action": "continue"}, approvals are granted, and
notifications get no reply. The scenarios under scenarios/picoclaw/ use it to
show what PicoClaw does with each abort (research picoclaw-runok.md, A3):

    abort_turn  the turn ends with the error "hook requested turn abort"
                (the reason given here is dropped); the session history
                keeps what the turn added
    hard_abort  the turn ends as aborted, without an error, and the session
                history is rolled back to where the turn began

Stdlib only. Every reply is one line, flushed at once; the hook exits when
stdin closes, as PicoClaw expects.
"""

import json
import sys

ACTION = sys.argv[1] if len(sys.argv) > 1 else "abort_turn"
METHOD = sys.argv[2] if len(sys.argv) > 2 else "hook.before_tool"
INTERCEPTORS = {"hook.before_llm", "hook.after_llm", "hook.before_tool", "hook.after_tool"}


def result_for(method):
    """The JSON-RPC result for a request, or an error object."""
    if method == "hook.hello":
        return {"ok": True, "name": "abort-hook"}
    if method == METHOD:
        return {"action": ACTION, "reason": f"abort_hook: {ACTION} at {METHOD}"}
    if method in INTERCEPTORS:
        return {"action": "continue"}
    if method == "hook.approve_tool":
        return {"approved": True}
    return None


def main():
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue  # not JSON: nothing sensible to answer
        if not isinstance(message, dict) or "id" not in message:
            continue  # notifications (hook.runtime_event) get no reply
        method = message.get("method")
        result = result_for(method)
        if result is None:
            reply = {"jsonrpc": "2.0", "id": message["id"],
                     "error": {"code": -32601, "message": f"method not found: {method}"}}
        else:
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()  # PicoClaw waits for this line; never leave it buffered
    return 0


if __name__ == "__main__":
    sys.exit(main())
