#!/usr/bin/env python3
"""A PicoClaw process hook serving every mode (protocol picoclaw-hook).

PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
message per line on stdin and waits for one reply line per request, with
the same id. Which of these it sends depends on the modes the hook is
configured with (observe, llm, tool, approve); this hook answers them all:
    hook.hello         {"name":..., "version":1, "modes":[...]}        -> {"ok": true}
    hook.before_llm    {"model": ..., "messages": [...]}                -> {"action": "continue" | "abort_turn", "reason": ...}
    hook.after_llm     {"model": ..., "response": {...}}                -> {"action": "continue"}
    hook.before_tool   {"tool": "bash", "arguments": {...}}             -> {"action": "continue" | "deny_tool", "reason": ...}
    hook.after_tool    {"tool": ..., "arguments": ..., "result": ...}   -> {"action": "continue"}
    hook.approve_tool  {"tool": ..., "arguments": {...}}                -> {"approved": true | false, "reason": ...}
    hook.runtime_event {"kind": ..., ...}   a notification (mode observe): never answered
Messages without an id are notifications: never answer them.

Flush after every reply line: on a pipe Python buffers stdout, and PicoClaw
waits for the reply while stdin is still open (a hook.hello that never
arrives stops the agent). Several requests can be in flight: answer each line
as soon as it is read, and echo its integer id.

The rules below are examples: the turn ends when the user says "stop", the
tool delete_file is refused, a command using sudo is not approved. Put your
own in the functions.
"""

import json
import sys

DENIED_TOOLS = {"delete_file"}


def before_llm(params):
    """Return {"action": "continue"} or {"action": "abort_turn", "reason": "..."}."""
    messages = params.get("messages")
    users = [m for m in messages if isinstance(m, dict) and m.get("role") == "user"] if isinstance(messages, list) else []
    last = users[-1].get("content") if users else None
    if isinstance(last, str) and "stop" in last.lower():
        return {"action": "abort_turn", "reason": "the user asked to stop"}
    return {"action": "continue"}


def after_llm(params):
    """Called with the LLM's answer; "continue" keeps it as it is."""
    return {"action": "continue"}


def before_tool(params):
    """Return {"action": "continue"} or {"action": "deny_tool", "reason": "..."}."""
    if params.get("tool") in DENIED_TOOLS:
        return {"action": "deny_tool", "reason": f"the tool {params.get('tool')} is not allowed here"}
    return {"action": "continue"}


def after_tool(params):
    """Called with the tool's result; "continue" keeps it as it is."""
    return {"action": "continue"}


def approve_tool(params):
    """Return {"approved": True/False, "reason": "..."}."""
    arguments = params.get("arguments")
    command = arguments.get("command") if isinstance(arguments, dict) else None
    if isinstance(command, str) and "sudo" in command.split():
        return {"approved": False, "reason": "commands using sudo need a human"}
    return {"approved": True, "reason": "no objection"}


def on_event(params):
    """A runtime event (mode observe): record, count, forward... (stdout is for replies only)."""
    kind = params.get("kind") or params.get("Kind")
    print(f"hook: event {kind}", file=sys.stderr, flush=True)


METHODS = {
    "hook.hello": lambda params: {"ok": True},
    "hook.before_llm": before_llm,
    "hook.after_llm": after_llm,
    "hook.before_tool": before_tool,
    "hook.after_tool": after_tool,
    "hook.approve_tool": approve_tool,
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
