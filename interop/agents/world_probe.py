#!/usr/bin/env python3
"""world_probe: a command hook that records the world it was run in, and
changes nothing (exit 0, no output).

    python3 interop/agents/world_probe.py OUT      (or OUT in $WORLD_PROBE_OUT)

OUT is a folder: each run writes a file of its own there,
`<event>-<pid>-<ns>.json` (a certify run starts the hook many times). An OUT
ending in `.json` is written as is, the last run winning. The record, for the
event the hook was run on:

    event                  the payload's hook_event_name
    env                    every variable named CLAUDE* or CODEX*, sorted; the value
                           only for CLAUDE_PROJECT_DIR, "<redacted>" for the others
                           (Claude Code passes tokens and sockets this way)
    project_dir_is_cwd     CLAUDE_PROJECT_DIR == the payload's cwd (null: not set)
    getcwd_is_cwd          the hook's working directory == the payload's cwd
    cwd_exists             the payload's cwd is a folder on disk
    session_id             as given (to tell sessions apart, not to compare)
    session_uuid_version   its UUID version (4, 7 ...), null when it is not a UUID
    transcript_exists      the payload's transcript_path is a file when the hook starts
                           (null: no such key)
    transcript_exists_soon it is, or becomes one within 0.5 s (the probe waits for it:
                           against a model that answers at once, as agent_host's mock
                           does, Claude Code writes it a few ms after its first
                           PreToolUse hook has started)
    transcript_first_keys  the top-level keys of its first line, sorted, once it exists
                           (null: no file; "not a JSON object" when the line is not one,
                           "no complete line" when none was written within the 0.5 s)
    transcript_first_type  that line's `type`
    stdin_trailing_newline the bytes on stdin end with "\\n"
    stdin_is_object        they are one JSON object

Standard library only; it reads its stdin to the end before anything else,
and exits 0 with nothing on stdout or stderr whatever it found.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time

START = time.monotonic()
WAIT_S = 0.5  # how long the probe waits for a transcript that is not there yet
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}")


def first_line(path: str) -> tuple[object, object] | None:
    """The sorted top-level keys and the `type` of the transcript's first line;
    None while that line is not complete (the agent may be writing it)."""
    with open(path, "rb") as f:
        line = f.readline()
    if not line.endswith(b"\n"):
        return None
    try:
        doc = json.loads(line)
    except ValueError:
        return "not a JSON object", None
    if not isinstance(doc, dict):
        return "not a JSON object", None
    return sorted(doc), doc.get("type")


def record(raw: bytes) -> dict:
    try:
        payload = json.loads(raw)
    except ValueError:
        payload = None
    p = payload if isinstance(payload, dict) else {}
    cwd = p.get("cwd")
    env = {k: (v if k == "CLAUDE_PROJECT_DIR" else "<redacted>") for k, v in sorted(os.environ.items()) if k.startswith(("CLAUDE", "CODEX"))}
    project = os.environ.get("CLAUDE_PROJECT_DIR")
    sid = p.get("session_id")
    m = UUID.fullmatch(sid) if isinstance(sid, str) else None
    transcript = p.get("transcript_path")
    exists = os.path.isfile(transcript) if isinstance(transcript, str) else None
    soon, first = exists, None
    while exists is not None:
        soon = soon or os.path.isfile(transcript)
        first = first_line(transcript) if soon else None
        if first is not None or time.monotonic() - START >= WAIT_S:
            break
        time.sleep(0.01)
    keys, kind = first if first is not None else ((None, None) if not soon else ("no complete line", None))
    return {
        "event": p.get("hook_event_name"),
        "env": env,
        "project_dir_is_cwd": None if project is None else project == cwd,
        "getcwd_is_cwd": os.getcwd() == cwd,
        "cwd_exists": isinstance(cwd, str) and os.path.isdir(cwd),
        "session_id": sid,
        "session_uuid_version": int(m.group(1), 16) if m else None,
        "transcript_exists": exists,
        "transcript_exists_soon": soon,
        "transcript_first_keys": keys,
        "transcript_first_type": kind,
        "stdin_trailing_newline": raw.endswith(b"\n"),
        "stdin_is_object": isinstance(payload, dict),
    }


def main() -> int:
    raw = sys.stdin.buffer.read()
    out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("WORLD_PROBE_OUT")
    if not out:
        print("world_probe: name the output (a folder, or a .json file) as the argument or in $WORLD_PROBE_OUT", file=sys.stderr)
        return 1  # a failed hook, but one that blocks nothing
    try:
        rec = record(raw)
    except Exception as e:  # noqa: BLE001 (the probe must never block the agent)
        rec = {"error": f"{type(e).__name__}: {e}"}
    if not out.endswith(".json"):
        os.makedirs(out, exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9]+", "_", str(rec.get("event")))
        out = os.path.join(out, f"{name}-{os.getpid()}-{time.time_ns()}.json")
    tmp = f"{out}.{os.getpid()}.tmp"
    with open(tmp, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
