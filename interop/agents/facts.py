#!/usr/bin/env python3
"""What the real Claude Code and Codex CLI do with a command hook, held as
facts: each row is a small hook, run through both agents by agent_host.py,
and what each agent must be seen doing with it. These are the behaviours the
`claude-code-hook` and `codex-hook` families will be judged against
(issue 33); a row that stops holding means an agent changed, or the driver
broke, and fails the run.

    interop/agents/facts.py [--proctor BIN] [--only NAME]

Prints one line per row and agent; exit 1 when any differs.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REASON = "no shell today"


@dataclass
class Row:
    name: str
    event: str
    script: str  # the hook, as sh; it has read its stdin
    # Per agent: whether the tool ran, and a piece of text the model must (or, with "!", must not) have been given.
    claude: tuple
    codex: tuple
    # How many model requests the agent made, when that is the point (a prompt blocked before any).
    requests: int | None = None


DENY = '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}' % REASON
ROWS = [
    Row("exit 0, nothing written", "PreToolUse", "exit 0", (True, "a.txt"), (True, "a.txt")),
    Row("decision block on stdout", "PreToolUse", f"echo '{{\"decision\":\"block\",\"reason\":\"{REASON}\"}}'",
        (False, f"PreToolUse:Bash hook error: {REASON}"), (False, f"Command blocked by PreToolUse hook: {REASON}")),
    Row("hookSpecificOutput deny", "PreToolUse", f"echo '{DENY}'",
        (False, f"PreToolUse:Bash hook error: {REASON}"), (False, f"Command blocked by PreToolUse hook: {REASON}")),
    Row("exit 2, the reason on stderr", "PreToolUse", f"echo '{REASON}' >&2; exit 2", (False, REASON), (False, REASON)),
    # The bug class of issue 33: the reason where the agent does not read it for exit 2.
    Row("exit 2, the reason on stdout only", "PreToolUse", f"echo '{REASON}'; exit 2", (False, "No stderr output"), (True, "a.txt")),
    Row("exit 1", "PreToolUse", f"echo '{REASON}' >&2; exit 1", (True, "a.txt"), (True, "a.txt")),
    Row("a banner before the decision", "PreToolUse", f"echo 'starting gate v1'; echo '{DENY}'", (True, "a.txt"), (True, "a.txt")),
    Row("hookSpecificOutput without hookEventName", "PreToolUse",
        f"echo '{{\"hookSpecificOutput\":{{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{REASON}\"}}}}'",
        (True, "a.txt"), (True, "a.txt")),
    # After the tool: Claude Code keeps the output and tells the model beside it; Codex replaces it.
    Row("PostToolUse block", "PostToolUse", f"echo '{{\"decision\":\"block\",\"reason\":\"{REASON}\"}}'",
        (True, REASON), (True, "!a.txt")),
    # A prompt blocked before the model: no request at all, in both.
    Row("UserPromptSubmit block", "UserPromptSubmit", f"echo '{{\"decision\":\"block\",\"reason\":\"{REASON}\"}}'",
        (False, "null"), (False, "null"), requests=0),
]


def run(proctor: str, agent: str, row: Row, work: Path) -> dict:
    script = work / f"{agent}-{abs(hash(row.name))}.sh"
    script.write_text("cat > /dev/null\n" + row.script + "\n")
    cmd = [sys.executable, str(HERE / "agent_host.py"), "--agent", agent, "--event", row.event, "--proctor", proctor, "--", "sh", str(script)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        return {"error": out.stderr[-1000:]}
    return json.loads(out.stdout)


def judge(expected: tuple, got: dict, requests: int | None) -> str:
    if "error" in got:
        return f"the driver failed: {got['error']}"
    if requests is not None and got["requests"] != requests:
        return f"{got['requests']} model requests, expected {requests}"
    ran, text = expected
    if got["tool_ran"] != ran:
        return f"the tool {'ran' if got['tool_ran'] else 'did not run'}, expected it {'to run' if ran else 'not to run'}"
    given = json.dumps([got.get("tool_result"), got.get("context")])
    if text.startswith("!"):
        if text[1:] in given:
            return f"the model was given {text[1:]!r}: {given[:300]}"
    elif text not in given:
        return f"the model was not given {text!r}: {given[:300]}"
    if not got["payloads"]:
        return "the hook received nothing"
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--proctor", default=str(HERE.parents[1] / "target" / "release" / "proctor"))
    ap.add_argument("--only", action="append", help="only the rows whose name contains this")
    args = ap.parse_args()
    import tempfile

    rows = [r for r in ROWS if not args.only or any(o in r.name for o in args.only)]
    jobs = [(agent, row) for row in rows for agent in ("claude-code", "codex")]
    with tempfile.TemporaryDirectory(prefix="proctor-agent-facts-") as tmp, concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda j: run(args.proctor, j[0], j[1], Path(tmp)), jobs))
    wrong = 0
    for (agent, row), got in zip(jobs, results):
        why = judge(row.claude if agent == "claude-code" else row.codex, got, row.requests)
        wrong += bool(why)
        print(f"{'DIFFERENT' if why else 'holds':9} {agent:11} {row.event:12} {row.name}{': ' + why if why else ''}")
    print(f"agents: {len(jobs) - wrong} of {len(jobs)} facts hold (Claude Code 2.1.332, Codex 0.171.0)")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
