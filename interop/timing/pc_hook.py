#!/usr/bin/env python3
"""pc_hook.py [--delay S] [--quirk Q] [--kib N]: a PicoClaw process hook
(JSON-RPC 2.0, one line each way) that denies every tool before it runs
(hook.before_tool -> {"action":"deny_tool","reason":"held for review"}) and
approves every approval (hook.approve_tool -> {"approved":true}); the other
interceptors continue, hook.hello gets {"ok":true,"name":"timing"}, an unknown
method error -32601, a notification nothing. It exits at stdin EOF.

  --delay S      answer hook.before_tool and hook.approve_tool S seconds late,
                 each in a thread of its own (requests in flight at once are
                 each answered S seconds after they came)
  --quirk Q      stderr_line: right after the hello reply, ONE stderr line of
                              N KiB (--kib), its newline only at the end
                 notify:      a notification line before every reply
                 blank:       an empty line before every reply
                 banner:      a banner line at start-up
                 upper:       reply envelope keys in upper case (JSONRPC, ID, RESULT)
"""
import argparse
import json
import sys
import threading
import time

ap = argparse.ArgumentParser()
ap.add_argument("--delay", type=float, default=0.0)
ap.add_argument("--quirk", default="")
ap.add_argument("--kib", type=float, default=0.0)
a = ap.parse_args()
out = threading.Lock()


def line(text):
    with out:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def reply(rid, key, value):
    lines = []
    if a.quirk == "notify":
        lines.append('{"jsonrpc":"2.0","method":"log","params":{}}')
    if a.quirk == "blank":
        lines.append("")
    if a.quirk == "upper":
        lines.append(json.dumps({"JSONRPC": "2.0", "ID": rid, key.upper(): value}, separators=(",", ":")))
    else:
        lines.append(json.dumps({"jsonrpc": "2.0", "id": rid, key: value}, separators=(",", ":")))
    line("\n".join(lines))


def late(rid, value):
    time.sleep(a.delay)
    reply(rid, "result", value)


pending = []
if a.quirk == "banner":
    line("timing hook 1.0 starting")
for raw in sys.stdin:
    if not raw.strip():
        continue
    try:
        msg = json.loads(raw)
    except ValueError:
        continue
    if not isinstance(msg, dict) or "id" not in msg:
        continue  # a notification (hook.runtime_event)
    method = msg.get("method")
    if method == "hook.hello":
        reply(msg["id"], "result", {"ok": True, "name": "timing"})
        if a.quirk == "stderr_line":
            sys.stderr.write("e" * int(a.kib * 1024) + "\n")
            sys.stderr.flush()
    elif method in ("hook.before_tool", "hook.approve_tool"):
        value = {"approved": True} if method == "hook.approve_tool" else {"action": "deny_tool", "reason": "held for review"}
        if a.delay:
            pending.append(threading.Thread(target=late, args=(msg["id"], value)))
            pending[-1].start()
        else:
            reply(msg["id"], "result", value)
    elif method in ("hook.before_llm", "hook.after_llm", "hook.after_tool"):
        reply(msg["id"], "result", {"action": "continue"})
    else:
        reply(msg["id"], "error", {"code": -32601, "message": "method not found"})
for t in pending:
    t.join()
