#!/usr/bin/env python3
"""kv_server.py: a long-lived PromptKit tool in server mode (protocol promptkit-server, role tool).

PromptKit starts this once per tool name (lazily, on the first call) and talks
JSON-RPC 2.0 over stdio, one JSON object per line in each direction:

    -> {"jsonrpc":"2.0","method":"execute","params":{"args":{...}},"id":1}
    <- {"jsonrpc":"2.0","id":1,"result":{...}}
    <- {"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"..."}}

The tool is an in-memory key/value store that lives as long as the process
(in PromptKit, as long as the conversation). Arguments:

    {"op": "set", "key": "k", "value": <any JSON>}  -> {"op":"set","key":"k","value":...}
    {"op": "get", "key": "k"}                      -> {"op":"get","key":"k","value":...}
    {"op": "delete", "key": "k"}                   -> {"op":"delete","key":"k","value":<old>}

Errors:

    -32700  the line is not JSON                  (id null)
    -32600  not a JSON-RPC request object         (id echoed when there is one)
    -32601  method other than "execute"
    -32602  params or params.args is not an object
    -32603  a bug in this server (logged with KV_SERVER_DEBUG=1)
    -32000  tool error: bad op, missing key, key not found

Rules this server follows, and why (PromptKit at 86d9f36):

    * Exactly one reply line per request, written in one go and flushed at
      once. PromptKit reads exactly one line per call; an extra line (a log
      message, a reply to a notification) shifts every later reply by one, and
      the session never recovers. Nothing but replies ever goes to stdout.
    * A message without an "id" member is a notification: no reply at all.
    * The id is echoed as received (same JSON type). PromptKit sends integers
      starting at 1 and rejects a reply whose id differs.
    * Tool failures use the JSON-RPC "error" object. In server mode PromptKit
      passes "result" to the LLM unchanged; it does not look inside it for
      {"error": ...} the way one-shot tools do.
    * Lines are read as bytes with readline(): no size limit on input, no
      decoding surprises. Replies are ASCII (ensure_ascii), so U+2028 and
      friends are escaped and each reply really is one line. PromptKit's reader
      gives up for good on a reply line over 10 MiB.
    * stderr: PromptKit keeps the server's stderr in memory for the life of the
      process and never reads it, so this server is silent there unless
      KV_SERVER_DEBUG=1.
    * Exit 0 on stdin EOF (PromptKit closes stdin on Close() and SIGKILLs after
      2 s). A dead server is never restarted by PromptKit, so don't crash:
      every bad input gets an error reply instead.
"""

import json
import os
import sys

DEBUG = os.environ.get("KV_SERVER_DEBUG") == "1"

# Error codes (JSON-RPC 2.0 reserved range, plus -32000 for tool errors).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
TOOL_ERROR = -32000


class ToolError(Exception):
    """A failure to report with code -32000."""


def log(message):
    if DEBUG:
        print(f"kv_server: {message}", file=sys.stderr, flush=True)


def send(document):
    """Write one reply as one compact line and flush it immediately."""
    line = json.dumps(document, separators=(",", ":")) + "\n"
    sys.stdout.buffer.write(line.encode("ascii"))
    sys.stdout.buffer.flush()


def error_reply(request_id, code, message):
    return {"jsonrpc": "2.0", "id": request_id,
            "error": {"code": code, "message": message}}


def execute(store, args):
    """Run one tool call against the store; return the result object."""
    op = args.get("op")
    key = args.get("key")
    if op not in ("set", "get", "delete"):
        raise ToolError(f"unknown op: {json.dumps(op)[:40]} (use set, get or delete)")
    if not isinstance(key, str) or not key:
        raise ToolError("argument 'key' must be a non-empty string")
    if op == "set":
        if "value" not in args:
            raise ToolError("argument 'value' is required for set")
        store[key] = args["value"]
        return {"op": "set", "key": key, "value": store[key]}
    if key not in store:
        raise ToolError(f"key not found: {key[:80]}")
    if op == "get":
        return {"op": "get", "key": key, "value": store[key]}
    return {"op": "delete", "key": key, "value": store.pop(key)}


def reject_constant(name):
    """Refuse NaN and Infinity: Python accepts them, JSON does not, and an
    echoed NaN would make our own reply invalid."""
    raise ValueError(f"non-standard JSON constant {name}")


def dispatch(store, message):
    """Run one request object; return its reply (with whatever id it had)."""
    request_id = message.get("id")
    method = message.get("method")
    if not isinstance(method, str):
        return error_reply(request_id, INVALID_REQUEST, "invalid request: missing method")
    if method != "execute":
        return error_reply(request_id, METHOD_NOT_FOUND, f"method not found: {method[:80]}")

    params = message.get("params")
    args = params.get("args") if isinstance(params, dict) else None
    if args is None and isinstance(params, dict):
        args = {}
    if not isinstance(args, dict):
        return error_reply(request_id, INVALID_PARAMS,
                           "invalid params: expected {\"args\": {...}}")
    try:
        result = execute(store, args)
    except ToolError as err:
        return error_reply(request_id, TOOL_ERROR, str(err))
    except Exception as err:  # a bug here must cost one call, not the process
        log(f"internal error: {err!r}")
        return error_reply(request_id, -32603, "internal error")
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def handle(store, line):
    """Return the reply for one input line, or None when no reply is due."""
    try:
        message = json.loads(line, parse_constant=reject_constant)
    except ValueError:
        return error_reply(None, PARSE_ERROR, "parse error: line is not JSON")
    if not isinstance(message, dict):
        # Batches (arrays) are not used by PromptKit and not supported here.
        return error_reply(None, INVALID_REQUEST, "invalid request: expected a JSON object")

    reply = dispatch(store, message)
    if "id" not in message:
        # A notification: it is carried out, but never answered, not even
        # with an error. (PromptKit never sends one; other clients might.)
        log(f"notification {str(message.get('method'))[:40]!r} handled, no reply")
        return None
    return reply


def main():
    store = {}
    log("ready")
    stdin = sys.stdin.buffer
    try:
        while True:
            line = stdin.readline()
            if not line:  # EOF: the runtime is done with us
                break
            if not line.strip():  # tolerate blank lines; they are not requests
                continue
            reply = handle(store, line)
            if reply is not None:
                send(reply)
    except BrokenPipeError:
        # The reader went away, so nobody is left to answer. Point stdout at
        # /dev/null so the interpreter's final flush cannot fail again, and stop.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
