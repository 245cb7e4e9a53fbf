#!/usr/bin/env python3
"""A PromptKit server-mode tool (protocol promptkit-server, role tool).

PromptKit starts this once (`runtime: server`) and keeps it running. It
writes one JSON-RPC 2.0 request per line on stdin:
    {"jsonrpc":"2.0","id":1,"method":"execute","params":{"args":{...}}}
and waits for one reply line per request, with the same id:
    {"jsonrpc":"2.0","id":1,"result":...}                                    the tool worked
    {"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"..."}}          the tool failed

Flush after every reply line: on a pipe Python buffers stdout, and PromptKit
waits for the reply while stdin is still open. One request gets exactly one
line: PromptKit reads the next line as the next reply.

This one adds two numbers: {"a": 2, "b": 3} -> {"sum": 5}. Put your own
logic in run_tool(); state kept in this process lasts across calls.
"""

import json
import sys


class ToolError(Exception):
    """A failure the LLM should hear about (sent as error code -32000)."""


def run_tool(args):
    """Your tool. Return the result, or raise ToolError("...")."""
    a, b = args.get("a"), args.get("b")
    numbers = (int, float)
    if not isinstance(a, numbers) or not isinstance(b, numbers) or isinstance(a, bool) or isinstance(b, bool):
        raise ToolError("arguments a and b must be numbers")
    return {"sum": a + b}


def reply(request_id, **body):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, **body}) + "\n")
    sys.stdout.flush()  # at once: PromptKit is waiting for this line


def handle(message):
    request_id = message.get("id")
    if message.get("method") != "execute":
        return reply(request_id, error={"code": -32601, "message": "method not found"})
    params = message.get("params")
    args = params.get("args") if isinstance(params, dict) else None
    try:
        result = run_tool(args if isinstance(args, dict) else {})
    except ToolError as err:
        return reply(request_id, error={"code": -32000, "message": str(err)})
    except Exception as err:  # a bug in your tool must not end the process: PromptKit never restarts it
        print(f"execute: {err!r}", file=sys.stderr, flush=True)
        return reply(request_id, error={"code": -32603, "message": f"internal error: {err}"})
    return reply(request_id, result=result)


def main():
    for line in sys.stdin.buffer:  # one request per line, until PromptKit closes stdin
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            reply(None, error={"code": -32700, "message": "parse error"})
            continue
        if not isinstance(message, dict):
            reply(None, error={"code": -32600, "message": "invalid request"})
        elif "id" in message:  # a notification (no id) gets no reply
            handle(message)
    return 0


if __name__ == "__main__":
    sys.exit(main())
