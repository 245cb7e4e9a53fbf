#!/usr/bin/env python3
"""A runok extension (protocol runok-extension): a command guard.

runok starts this once per command it checks, writes ONE JSON-RPC 2.0
request to stdin with no trailing newline, closes stdin, and reads all of
stdout as one JSON-RPC reply with the same id:
    {"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{"command":"git",
     "args":[...],"flags":{...},"raw_command_line":"git push --force","env":{...},"cwd":"..."}}
    -> {"jsonrpc":"2.0","id":1,"result":{"status":"allow" | "deny" | "ask","message":"..."}}

This one denies a force push, asks before a push to main, and allows the
rest. Put your own rule in validate().
"""

import json
import shlex
import sys


def validate(params):
    """Your rule. Return {"status": "allow"|"deny"|"ask", "message": "..."}."""
    try:
        words = shlex.split(params.get("raw_command_line") or "")
    except ValueError:  # unbalanced quotes: let the user decide
        return {"status": "ask", "message": "cannot read this command line"}
    if words[:2] == ["git", "push"]:
        if "--force" in words or "-f" in words:
            return {"status": "deny", "message": "force pushes are not allowed", "fix_suggestion": "git push --force-with-lease"}
        if "main" in words[2:]:
            return {"status": "ask", "message": "this pushes to main"}
    return {"status": "allow"}


def main():
    # Read to EOF: runok sends no trailing newline.
    try:
        request = json.loads(sys.stdin.buffer.read())
    except ValueError:
        request = None
    if not isinstance(request, dict) or request.get("method") != "validateCommand":
        # Not a request we know: an error, never a default "allow" (runok asks the user).
        answer = {"error": {"code": -32600, "message": "invalid request"}}
    else:
        params = request.get("params")
        answer = {"result": validate(params if isinstance(params, dict) else {})}
    request_id = request.get("id") if isinstance(request, dict) else None
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": request_id, **answer}) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
