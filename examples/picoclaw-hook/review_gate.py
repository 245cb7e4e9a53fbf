#!/usr/bin/env python3
"""review_gate.py: a PicoClaw process hook (protocol picoclaw-hook, modes observe,llm,tool,approve).

PicoClaw starts the hook once, keeps it running, and talks JSON-RPC 2.0 over
stdio, one JSON object per line in each direction. This hook implements every
method, so it can be mounted with any combination of modes:

    hook.hello        -> {"ok": true, "name": "review-gate"}
    hook.before_llm   -> {"action": "continue"}
    hook.after_llm    -> {"action": "continue"}
    hook.before_tool  -> shell tool whose command contains "rm -rf"
                             -> {"action": "deny_tool", "reason": ...}
                         tool "time_now"
                             -> {"action": "respond", "result": {...}}
                         anything else
                             -> {"action": "continue"}
    hook.after_tool   -> {"action": "continue"}
    hook.approve_tool -> shell tool whose command contains "sudo"
                             -> {"approved": false, "reason": ...}
                         anything else
                             -> {"approved": true, "reason": ...}
    hook.runtime_event, hook.event (notifications) -> no reply, one stderr line
    any other method with an id                    -> error -32601

"Shell tool" means "bash" (the name used in the protocol docs) or "exec" (the
name PicoClaw registers for its built-in shell tool). The command is the
"command" argument. These checks are string heuristics for a demo, not a
sandbox.

Rules this hook follows, and why (PicoClaw at cf67dd3):

    * One reply line per request, flushed immediately. Several requests can be
      in flight at once and PicoClaw matches replies by id only, so each line
      is answered as soon as it is read. A reply that sits in a stdout buffer
      is a reply that times out (5 s for interceptors, 60 s then deny for
      approval, and forever for hook.hello).
    * Echo the integer id exactly. String or float ids are dropped by the host.
    * Notifications carry no id and get no reply. The current host sends
      "hook.runtime_event" (lowercase envelope: "kind", "source", ...); the
      older docs describe "hook.event" ("Kind", "Meta", "Payload"). Both are
      handled.
    * Decisions never echo the request back. With "continue" PicoClaw still
      applies any payload that is returned, and a reply line over 1 MiB
      wedges the hook for good. Small answers are safe answers.
    * A "respond" result skips approval and hook.after_tool; the result is
      given with its fields spelled out ("for_llm", "silent", "is_error").
    * hook.approve_tool always states "approved" explicitly: a missing field
      means deny.
    * stderr lines become WARN log entries in PicoClaw, so they are short.
    * Exit 0 when stdin closes. PicoClaw closes stdin on shutdown and SIGKILLs
      after 2 s; it never restarts a hook that died, so bad input gets an
      error reply, not a crash.

Set REVIEW_GATE_NOW to a fixed string to make time_now deterministic in tests.
"""

import datetime
import json
import os
import re
import sys

HOOK_NAME = "review-gate"
SHELL_TOOLS = {"bash", "exec"}

# "rm -rf", also spelled "rm -fr", "rm -Rf", "rm -rfv", "rm -v -rf", ...
RM_RF = re.compile(r"\brm\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*(?:[rR][A-Za-z]*f|f[A-Za-z]*[rR])")
SUDO = re.compile(r"\bsudo\b")

NOTIFICATIONS = {"hook.runtime_event", "hook.event"}


def log(message):
    print(f"review-gate: {message}", file=sys.stderr, flush=True)


def send(document):
    """Write one reply as one compact line and flush it immediately."""
    line = json.dumps(document, separators=(",", ":")) + "\n"
    sys.stdout.buffer.write(line.encode("ascii"))
    sys.stdout.buffer.flush()


def shell_command(params):
    """The command string if this is a shell tool call, else None."""
    tool = params.get("tool")
    if not isinstance(tool, str) or tool not in SHELL_TOOLS:
        return None
    arguments = params.get("arguments")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    return command if isinstance(command, str) else None


def now_text():
    fixed = os.environ.get("REVIEW_GATE_NOW")
    if fixed:
        return fixed
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


# --- one function per method; each returns the JSON-RPC "result" ---------

def on_hello(params):
    log(f"hello from {params.get('name')!r}, version {params.get('version')!r}, "
        f"modes {params.get('modes')!r}")
    return {"ok": True, "name": HOOK_NAME}


def on_continue(_params):
    return {"action": "continue"}


def on_before_tool(params):
    command = shell_command(params)
    if command is not None and RM_RF.search(command):
        return {"action": "deny_tool",
                "reason": "review-gate: recursive forced delete (rm -rf) is not allowed"}
    if params.get("tool") == "time_now":
        return {"action": "respond",
                "result": {"for_llm": now_text(), "silent": False, "is_error": False}}
    return {"action": "continue"}


def on_approve_tool(params):
    command = shell_command(params)
    if command is not None and SUDO.search(command):
        return {"approved": False, "reason": "review-gate: commands using sudo need a human"}
    return {"approved": True, "reason": "review-gate: no objection"}


METHODS = {
    "hook.hello": on_hello,
    "hook.before_llm": on_continue,
    "hook.after_llm": on_continue,
    "hook.before_tool": on_before_tool,
    "hook.after_tool": on_continue,
    "hook.approve_tool": on_approve_tool,
}


def on_notification(method, params):
    """Observe-only: log the event kind, never reply."""
    kind = params.get("kind") or params.get("Kind") or "?"
    log(f"event {str(kind)[:60]} ({method})")


def reject_constant(name):
    """Refuse NaN and Infinity: Python accepts them, JSON does not, and an
    echoed NaN would make our own reply invalid."""
    raise ValueError(f"non-standard JSON constant {name}")


def handle(line):
    """Return the reply for one input line, or None when no reply is due."""
    try:
        message = json.loads(line, parse_constant=reject_constant)
    except ValueError:
        log("dropping a line that is not JSON")
        return {"jsonrpc": "2.0", "id": None,
                "error": {"code": -32700, "message": "parse error"}}
    if not isinstance(message, dict):
        return {"jsonrpc": "2.0", "id": None,
                "error": {"code": -32600, "message": "invalid request"}}

    method = message.get("method")
    if not isinstance(method, str):
        if "id" not in message:
            return None
        return {"jsonrpc": "2.0", "id": message["id"],
                "error": {"code": -32600, "message": "invalid request: method must be a string"}}
    params = message.get("params")
    if not isinstance(params, dict):
        params = {}

    if method in NOTIFICATIONS:
        # The docs allow "id": 0 on events; either way they get no reply.
        on_notification(method, params)
        return None
    if "id" not in message:
        return None  # some other notification: nothing to say

    request_id = message["id"]
    handler = METHODS.get(method)
    if handler is None:
        return {"jsonrpc": "2.0", "id": request_id,
                "error": {"code": -32601, "message": f"method not found: {method[:80]}"}}
    try:
        result = handler(params)
    except Exception as err:  # a bug here must cost one call, not the process
        log(f"internal error in {method}: {err!r}")
        return {"jsonrpc": "2.0", "id": request_id,
                "error": {"code": -32603, "message": "internal error"}}
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def main():
    stdin = sys.stdin.buffer  # bytes: no decoding surprises, no line-length limit
    try:
        while True:
            line = stdin.readline()
            if not line:  # EOF: PicoClaw is shutting the hook down
                break
            if not line.strip():
                continue
            reply = handle(line)
            if reply is not None:
                send(reply)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
