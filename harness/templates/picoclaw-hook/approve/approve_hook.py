#!/usr/bin/env python3
"""A PicoClaw process hook in mode `approve` (protocol picoclaw-hook).

PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
message per line on stdin and waits for one reply line per request, with
the same id:
    hook.hello         {"name":..., "version":1, "modes":["approve"]}  -> {"ok": true}
    hook.approve_tool  {"tool": "bash", "arguments": {...}}            -> {"approved": true | false, "reason": ...}
Messages without an id are notifications: never answer them. Always say
"approved" explicitly: PicoClaw reads a missing field as a refusal.

Flush after every reply line: on a pipe Python buffers stdout, and PicoClaw
waits for the reply while stdin is still open (a hook.hello that never
arrives stops the agent). Several requests can be in flight: answer each line
as soon as it is read, and echo its integer id.

This one refuses shell commands that use sudo. Put your own rule in approve_tool().
"""

import json
import sys


def approve_tool(params):
    """Your rule. Return {"approved": True/False, "reason": "..."}."""
    arguments = params.get("arguments")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    if isinstance(command, str) and "sudo" in command.split():
        return {"approved": False, "reason": "commands using sudo need a human"}
    return {"approved": True, "reason": "no objection"}


METHODS = {
    "hook.hello": lambda params: {"ok": True},
    "hook.approve_tool": approve_tool,
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
