#!/usr/bin/env python3
"""buffered_hook.py: BROKEN ON PURPOSE. A PicoClaw process hook that never flushes.

Mistake: replies are written with print(json.dumps(...)) and no flush. When
stdout is a terminal Python flushes every line, so the hook looks fine by hand.
When stdout is a pipe, which is always the case under PicoClaw, Python buffers
about 8 KiB before writing anything. The replies sit in that buffer until it
fills or the process exits.

Why it is easy to miss: `printf '...\\n' | ./buffered_hook.py` prints every
reply, because stdin reaches EOF, the loop ends and the exit flushes the
buffer. Only a client that waits for a reply before closing stdin, as PicoClaw
does, sees nothing.

What it costs under PicoClaw (cf67dd3): hook.hello is never answered, and in
production there is no handshake timeout, so hook start-up blocks forever (in
gateway mode the agent loop silently never starts). Had the handshake passed,
every interceptor call would time out after 5 s and be skipped, and every
approval would be denied after 60 s.

Which proctor checks catch it: FRAMING-FLUSHED (replies must be flushed as
they are written, not when stdin closes) and LIFECYCLE-HANDSHAKE (hook.hello
gets no reply while stdin is open). After that, ROBUST-DEADLINE and every
CASE-DECISION in buffered_hook.cases.yaml fail with timeouts.

The fix is one argument: print(..., flush=True), or write the line and call
sys.stdout.flush(). See ../picoclaw-hook/review_gate.py. (Running the hook
with `python3 -u` or PYTHONUNBUFFERED=1 hides the bug without fixing it. Some
development containers export PYTHONUNBUFFERED=1, the one these examples were
written in included, so a harness must start the hook without it to see the
bug.)

Apart from the missing flush, this hook answers like review_gate.py.
"""

import json
import re
import sys

SHELL_TOOLS = {"bash", "exec"}
RM_RF = re.compile(r"\brm\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*(?:[rR][A-Za-z]*f|f[A-Za-z]*[rR])")
SUDO = re.compile(r"\bsudo\b")


def command_of(params):
    arguments = params.get("arguments")
    if params.get("tool") in SHELL_TOOLS and isinstance(arguments, dict):
        command = arguments.get("command")
        if isinstance(command, str):
            return command
    return ""


def result_for(method, params):
    if method == "hook.hello":
        return {"ok": True, "name": "review-gate"}
    if method in ("hook.before_llm", "hook.after_llm", "hook.after_tool"):
        return {"action": "continue"}
    if method == "hook.before_tool":
        if RM_RF.search(command_of(params)):
            return {"action": "deny_tool", "reason": "recursive forced delete is not allowed"}
        if params.get("tool") == "time_now":
            return {"action": "respond",
                    "result": {"for_llm": "2026-01-01T00:00:00+00:00",
                               "silent": False, "is_error": False}}
        return {"action": "continue"}
    if method == "hook.approve_tool":
        if SUDO.search(command_of(params)):
            return {"approved": False, "reason": "commands using sudo need a human"}
        return {"approved": True, "reason": "no objection"}
    return None


for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    method = message.get("method")
    params = message.get("params") or {}
    if method in ("hook.runtime_event", "hook.event"):
        print(f"event {params.get('kind') or params.get('Kind')}", file=sys.stderr)
        continue
    if "id" not in message:
        continue
    result = result_for(method, params)
    if result is None:
        reply = {"jsonrpc": "2.0", "id": message["id"],
                 "error": {"code": -32601, "message": f"method not found: {method}"}}
    else:
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
    print(json.dumps(reply, separators=(",", ":")))  # THE BUG: no flush=True
