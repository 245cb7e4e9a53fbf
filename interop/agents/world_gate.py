#!/usr/bin/env python3
"""world_gate: the part of a generated hook (comparisons/agent_hooks.py) that
leans on the world the agent runs it in, as hand-written hooks do.

    python3 interop/agents/world_gate.py WORLD PAYLOAD STATE_DIR

WORLD is what the hook relies on:

    project-dir   $CLAUDE_PROJECT_DIR is set and is the payload's `cwd`
    cwd           the hook runs in the payload's `cwd`, a folder on disk
    transcript    the payload's `transcript_path` is a file whose first line is
                  a JSON object (waiting up to 0.5 s for it: Claude Code writes
                  it a few ms after its first PreToolUse hook has started
                  against a model that answers at once, interop/comparisons/world.py)
    session       per-session state: the first call of a session does what the
                  hook means; a later call of the same session says nothing

Exit 0: go on and answer. Exit 3 (session): this session was seen, answer
nothing. Exit 1: what the hook relies on is not there (said on stderr).
Standard library only.
"""

from __future__ import annotations

import json
import os
import sys
import time


def main() -> int:
    world, payload_path, state = sys.argv[1], sys.argv[2], sys.argv[3]
    try:
        with open(payload_path, "rb") as f:
            payload = json.loads(f.read())
    except (OSError, ValueError) as e:
        print(f"world: the payload is not JSON: {e}", file=sys.stderr)
        return 1
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    if world == "project-dir":
        got = os.environ.get("CLAUDE_PROJECT_DIR")
        if got is None or got != cwd:
            print(f"world: CLAUDE_PROJECT_DIR is {got!r}, the payload's cwd {cwd!r}", file=sys.stderr)
            return 1
    elif world == "cwd":
        if not isinstance(cwd, str) or not os.path.isdir(cwd) or os.path.realpath(os.getcwd()) != os.path.realpath(cwd):
            print(f"world: running in {os.getcwd()!r}, the payload's cwd is {cwd!r}", file=sys.stderr)
            return 1
    elif world == "transcript":
        path = payload.get("transcript_path") if isinstance(payload, dict) else None
        deadline = time.monotonic() + 0.5
        while True:
            line = b""
            if isinstance(path, str) and os.path.isfile(path):
                with open(path, "rb") as f:
                    line = f.readline()
            if line.endswith(b"\n") or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        try:
            first = json.loads(line)
        except ValueError:
            first = None
        if not isinstance(first, dict):
            print(f"world: no transcript with a first JSON line at {path!r}", file=sys.stderr)
            return 1
    elif world == "session":
        sid = payload.get("session_id") if isinstance(payload, dict) else None
        if not isinstance(sid, str) or not sid or "/" in sid:
            print(f"world: no usable session_id ({sid!r})", file=sys.stderr)
            return 1
        os.makedirs(state, exist_ok=True)
        try:
            with open(os.path.join(state, sid), "x"):
                pass
        except FileExistsError:
            return 3
    else:
        print(f"world: unknown world {world!r}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
