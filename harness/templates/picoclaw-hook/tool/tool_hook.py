#!/usr/bin/env python3
"""A PicoClaw process hook in mode `tool` (protocol picoclaw-hook).

PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
message per line on stdin and waits for one reply line per request, with
the same id:
    hook.hello        {"name":..., "version":1, "modes":["tool"]}  -> {"ok": true}
    hook.before_tool  {"tool": "bash", "arguments": {...}}        -> {"action": "continue" | "deny_tool", "reason": ...}
    hook.after_tool   {"tool": ..., "arguments": ..., "result": ...} -> {"action": "continue"}
Messages without an id are notifications: never answer them.

Flush after every reply line: on a pipe Python buffers stdout, and PicoClaw
waits for the reply while stdin is still open (a hook.hello that never
arrives stops the agent). Several requests can be in flight: answer each line
as soon as it is read, and echo its integer id.

This one refuses the tool `delete_file`. Put your own rule in before_tool().
"""

import json
import sys

DENIED_TOOLS = {"delete_file"}


def before_tool(params):
    """Your rule. Return {"action": "continue"} or {"action": "deny_tool", "reason": "..."}."""
    if params.get("tool") in DENIED_TOOLS:
        return {"action": "deny_tool", "reason": f"the tool {params.get('tool')} is not allowed here"}
    return {"action": "continue"}


def after_tool(params):
    """Called with the tool's result; "continue" keeps it as it is."""
    return {"action": "continue"}


METHODS = {
    "hook.hello": lambda params: {"ok": True},
    "hook.before_tool": before_tool,
    "hook.after_tool": after_tool,
}


def reply(request_id, **body):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, **body}) + "\n")
    sys.stdout.flush()  # at once: PicoClaw is waiting for this line


def main():
    for line in sys.stdin.buffer:  # one message per line, until PicoClaw closes stdin
        try:
            message = json.loads(line)
        except ValueError:
            continue  # not JSON (a blank line): nothing to answer
        if not isinstance(message, dict) or "id" not in message:
            continue  # a notification: no reply
        handler = METHODS.get(message.get("method"))
        if handler is None:
            reply(message["id"], error={"code": -32601, "message": "method not found"})
            continue
        params = message.get("params")
        try:
            result = handler(params if isinstance(params, dict) else {})
        except Exception as error:  # a bug in your rule must not end the hook: PicoClaw would lose it for good
            print(f"{message.get('method')}: {error!r}", file=sys.stderr, flush=True)
            reply(message["id"], error={"code": -32603, "message": f"internal error: {error}"})
            continue
        reply(message["id"], result=result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
