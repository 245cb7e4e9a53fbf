#!/usr/bin/env python3
"""A PicoClaw process hook in mode `observe` (protocol picoclaw-hook).

PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
message per line on stdin. The only request is the handshake, which must be
answered with the same id:
    hook.hello  {"name":..., "version":1, "modes":["observe"]}  -> {"ok": true}
Everything else is a notification (no id), which must never be answered:
    hook.runtime_event  {"kind": "agent.turn.start", "source": ..., "payload": ...}
(older PicoClaw docs call it hook.event, with "Kind"; both are handled).

Flush after every reply line: on a pipe Python buffers stdout, and PicoClaw
waits for the reply while stdin is still open (a hook.hello that never
arrives stops the agent).

This one logs each event kind to stderr. Put your own logic in on_event().
"""

import json
import sys


def on_event(params):
    """Your logic: record, count, forward... (stdout is for replies only)."""
    kind = params.get("kind") or params.get("Kind")
    print(f"observe hook: {kind}", file=sys.stderr, flush=True)


METHODS = {
    "hook.hello": lambda params: {"ok": True},
}
NOTIFICATIONS = {"hook.runtime_event", "hook.event"}


def reply(request_id, **body):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, **body}) + "\n")
    sys.stdout.flush()  # at once: PicoClaw is waiting for this line


def main():
    for line in sys.stdin.buffer:  # one message per line, until PicoClaw closes stdin
        try:
            message = json.loads(line)
        except ValueError:
            continue  # not JSON (a blank line): nothing to answer
        if not isinstance(message, dict):
            continue
        if message.get("method") in NOTIFICATIONS:
            params = message.get("params")
            on_event(params if isinstance(params, dict) else {})
            continue  # a notification: no reply
        if "id" not in message:
            continue
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
