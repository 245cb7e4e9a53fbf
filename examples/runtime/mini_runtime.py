#!/usr/bin/env python3
"""A minimal agent runtime, written the way a runtime implementer would:
it asks an OpenAI-compatible LLM, runs the tools it calls as PromptKit-style
server-mode plugins (line-delimited JSON-RPC 2.0, method `execute`), and
relays each result back under the call's id. Standard library only.

It exists to show proctor's toolkit on a runtime that is not proctor's own:
point it at `proctor mock-provider` and `proctor mock-plugin`, then judge
what it sent with `proctor verify` (see README, "For runtime implementers").

    mini_runtime.py --base-url URL --tool NAME --command 'CMD ARGS' [--restart-dead] MESSAGE

Without --restart-dead it behaves like PromptKit as implemented: a server
that died stays dead and every later call fails.
"""

import argparse
import json
import shlex
import subprocess
import sys
import urllib.error
import urllib.request

MAX_ROUNDS = 10


class Server:
    """One long-lived plugin process, with its own request ids from 1."""

    def __init__(self, argv):
        self.argv = argv
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1
        self.dead = False

    def alive(self):
        # EOF or EPIPE already told us; poll() alone can lag behind the exit.
        return not self.dead and self.proc.poll() is None

    def execute(self, args):
        """The tool result as text, or None when the process is gone."""
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": "execute", "params": {"args": args}}
        self.next_id += 1
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            self.dead = True
            return None
        if not line:
            self.dead = True
            return None
        reply = json.loads(line)
        if reply.get("id") != request["id"]:
            return f"error: reply id {reply.get('id')} does not answer request {request['id']}"
        if "error" in reply:
            return f"error: {reply['error'].get('message', reply['error'])}"
        return json.dumps(reply.get("result"))

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def chat(base_url, messages, tools):
    body = {"model": "mini-runtime", "messages": messages, "tools": [{"type": "function", "function": {"name": t, "parameters": {"type": "object"}}} for t in tools]}
    request = urllib.request.Request(base_url.rstrip("/") + "/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["choices"][0]["message"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True, help="the LLM's base URL (…/v1)")
    parser.add_argument("--tool", required=True, help="the tool's name")
    parser.add_argument("--command", required=True, help="the command that starts the tool's server")
    parser.add_argument("--restart-dead", action="store_true", help="start a dead server again on the next call, as PromptKit's documents promise")
    parser.add_argument("message", help="the user's message")
    opts = parser.parse_args()

    argv = shlex.split(opts.command)
    server = None
    messages = [{"role": "user", "content": opts.message}]
    try:
        for _ in range(MAX_ROUNDS):
            try:
                answer = chat(opts.base_url, messages, [opts.tool])
            except urllib.error.HTTPError as e:
                print(f"the LLM refused the request: HTTP {e.code}: {e.read().decode(errors='replace')}", file=sys.stderr)
                return 1
            calls = answer.get("tool_calls") or []
            messages.append({"role": "assistant", "content": answer.get("content") or "", **({"tool_calls": calls} if calls else {})})
            if not calls:
                print(answer.get("content") or "")
                return 0
            for call in calls:
                name = call["function"]["name"]
                args = json.loads(call["function"]["arguments"] or "{}")
                if name != opts.tool:
                    content = f"error: no tool named {name}"
                else:
                    if server is None or (opts.restart_dead and not server.alive()):
                        if server is not None:
                            server.close()
                        server = Server(argv)
                    content = server.execute(args)
                    if content is None:
                        content = "error: the tool's server process died"
                messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
        print(f"gave up after {MAX_ROUNDS} rounds", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.close()


if __name__ == "__main__":
    sys.exit(main())
