#!/usr/bin/env python3
"""pk_server.py MODE [SECONDS]: a PromptKit server-mode exec tool (JSON-RPC 2.0,
one line each way) that answers every `execute` with {"ok": true, "echo": args},
with one quirk:

  plain      nothing else
  slowstart  sleeps SECONDS before reading its first request
  notify     writes a notification line ({"jsonrpc":"2.0","method":"log",...})
             before its first reply
  upper      writes the reply envelope's keys in upper case (JSONRPC, ID, RESULT)

An unknown method gets error -32601; it exits at stdin EOF.
"""
import json
import sys
import time

mode = sys.argv[1]
secs = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0


def send(doc):
    sys.stdout.write(json.dumps(doc, separators=(",", ":")) + "\n")
    sys.stdout.flush()


if mode == "slowstart":
    time.sleep(secs)
first = True
for line in sys.stdin:
    if not line.strip():
        continue
    try:
        req = json.loads(line)
    except ValueError:
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
        continue
    if not isinstance(req, dict) or "id" not in req:
        continue  # a notification
    if req.get("method") != "execute":
        send({"jsonrpc": "2.0", "id": req["id"], "error": {"code": -32601, "message": "method not found"}})
        continue
    if first and mode == "notify":
        send({"jsonrpc": "2.0", "method": "log", "params": {}})
    first = False
    params = req.get("params") if isinstance(req.get("params"), dict) else {}
    result = {"ok": True, "echo": params.get("args")}
    if mode == "upper":
        send({"JSONRPC": "2.0", "ID": req["id"], "RESULT": result})
    else:
        send({"jsonrpc": "2.0", "id": req["id"], "result": result})
