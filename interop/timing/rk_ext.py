#!/usr/bin/env python3
"""rk_ext.py MODE [N]: a runok extension that reads the whole request and
denies it ({"status":"deny","message":"no POST to prod"}) in one JSON-RPC
reply on stdout, with one quirk:

  plain    nothing else
  exact N  the whole reply is exactly N bytes (the message padded with x)
  linger N answers, flushes, then sleeps N seconds before exiting
  upper    the envelope keys in upper case (JSONRPC, ID, RESULT)
"""
import json
import sys
import time

req = json.loads(sys.stdin.read())
mode = sys.argv[1]
n = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
result = {"status": "deny", "message": "no POST to prod"}
if mode == "upper":
    reply = {"JSONRPC": "2.0", "ID": req.get("id"), "RESULT": result}
else:
    reply = {"jsonrpc": "2.0", "id": req.get("id"), "result": result}
text = json.dumps(reply, separators=(",", ":"))
if mode == "exact":
    result["message"] += "x" * (int(n) - len(text))
    text = json.dumps(reply, separators=(",", ":"))
    assert len(text) == int(n), (len(text), n)
sys.stdout.write(text)
sys.stdout.flush()
if mode == "linger":
    time.sleep(n)
