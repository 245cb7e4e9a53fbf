#!/usr/bin/env python3
"""pc_hook.py [--delay S] [--quirk Q] [--kib N]: a PicoClaw process hook
(JSON-RPC 2.0, one line each way) that denies every tool before it runs
(hook.before_tool -> {"action":"deny_tool","reason":"held for review"}) and
approves every approval (hook.approve_tool -> {"approved":true}); the other
interceptors continue, hook.hello gets {"ok":true,"name":"timing"}, an unknown
method error -32601, a notification nothing. It exits at stdin EOF.

  --delay S      answer hook.before_tool and hook.approve_tool S seconds late
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
import time

ap = argparse.ArgumentParser()
ap.add_argument("--delay", type=float, default=0.0)
ap.add_argument("--quirk", default="")
ap.add_argument("--kib", type=float, default=0.0)
a = ap.parse_args()


def line(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def reply(rid, key, value):
    if a.quirk == "notify":
        line('{"jsonrpc":"2.0","method":"log","params":{}}')
    if a.quirk == "blank":
        line("")
    if a.quirk == "upper":
        line(json.dumps({"JSONRPC": "2.0", "ID": rid, key.upper(): value}, separators=(",", ":")))
    else:
        line(json.dumps({"jsonrpc": "2.0", "id": rid, key: value}, separators=(",", ":")))


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
    elif method == "hook.before_tool":
        time.sleep(a.delay)
        reply(msg["id"], "result", {"action": "deny_tool", "reason": "held for review"})
    elif method == "hook.approve_tool":
        time.sleep(a.delay)
        reply(msg["id"], "result", {"approved": True})
    elif method in ("hook.before_llm", "hook.after_llm", "hook.after_tool"):
        reply(msg["id"], "result", {"action": "continue"})
    else:
        reply(msg["id"], "error", {"code": -32601, "message": "method not found"})
