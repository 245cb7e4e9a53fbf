"""The targets (a family and role as both sides play them) and the tools that
run them: proctor, the drivers, the recording mock, and the records they leave."""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


ROOT = Path(__file__).resolve().parents[2]  # the repository: interop/comparisons/runtime.py
PICOCLAW = "picoclaw@cf67dd3"
PROMPTKIT = "promptkit@86d9f36"

# proctor's probes that are meant to be something the runtime would never
# send (a future field, an unknown method): not part of the wire comparison.
PROBE_ONLY = "x_proctor_future"
PICOCLAW_HOST_METHODS = (
    "hook.before_llm",
    "hook.after_llm",
    "hook.before_tool",
    "hook.after_tool",
    "hook.approve_tool",
    "hook.runtime_event",
)

# PromptKit one-shot roles and the driver surface that plays each.
PROMPTKIT_SURFACES = {
    "tool": "exec-tool",
    "eval": "eval",
    "provider-hook": "provider-hook",
    "tool-hook": "tool-hook",
    "session-hook": "session-hook",
    "eval-hook": "eval-hook",
    "selector": "selector",
}


@dataclass
class Comparison:
    kind: str  # wire | verify | fault | case
    id: str
    equal: bool
    detail: str = ""


@dataclass
class Target:
    """One family and role as both sides play it."""

    family: str
    role: str | None  # proctor's --role (PicoClaw: the modes)
    profile: str
    surface: str | None  # promptkit-host --surface; None for PicoClaw

    @property
    def name(self) -> str:
        return f"{self.family}/{self.role}" if self.role else self.family

    def proctor_role(self) -> list[str]:
        return ["--role", self.role] if self.role else []


TARGETS = [Target("picoclaw-hook", "observe,llm,tool,approve", PICOCLAW, None)]
TARGETS += [Target("promptkit-exec", r, PROMPTKIT, s) for r, s in PROMPTKIT_SURFACES.items()]
TARGETS += [Target("promptkit-server", "tool", PROMPTKIT, "server-tool")]


class Tools:
    def __init__(self, proctor: str, picoclaw_host: str, promptkit_host: str, work: Path, promptkit_state: str = "", promptkit_tools: str = "", promptkit_sdk: str = "", runok_host: str = ""):
        self.proctor = proctor
        self.picoclaw_host = picoclaw_host
        self.promptkit_host = promptkit_host
        self.promptkit_state = promptkit_state
        self.promptkit_tools = promptkit_tools
        self.promptkit_sdk = promptkit_sdk
        self.runok_host = runok_host
        self.work = work
        self._n = itertools.count()

    def tmp(self, stem: str) -> Path:
        # next() on a count is atomic under the GIL: the pool's threads share it.
        return self.work / f"{next(self._n):04d}-{re.sub(r'[^a-z0-9]+', '-', stem.lower())}"

    def mock(self, t: Target, record: Path, faults=(), decision=None) -> list[str]:
        cmd = [self.proctor, "mock-plugin", "--protocol", t.family, *t.proctor_role(), "--record", str(record)]
        for f in faults:
            cmd += ["--fault", f]
        if decision:
            cmd += ["--decision", decision]
        return cmd

    def certify(self, t: Target, plugin: list[str], extra=()) -> dict:
        # --jobs 1: the record's sessions are compared in the order the probes were sent.
        cmd = [self.proctor, "certify", "--no-progress", "--jobs", "1", "--format", "json", "--protocol", t.family, *t.proctor_role()]
        cmd += ["--profile", t.profile, *extra, "--", *plugin]
        out = run(cmd, timeout=600)
        try:
            return json.loads(out.stdout)
        except json.JSONDecodeError:
            raise SystemExit(f"proctor certify printed no report (exit {out.returncode}):\n{' '.join(cmd)}\n{out.stderr[-2000:]}")

    def drive(self, t: Target, plugin: list[str], calls: list | None = None) -> list[dict]:
        """Runs the real runtime against `plugin`; the driver's JSON lines, and
        a last `{"step":"leftover"}` line when a process of the plugin's
        outlived the runtime (the runtime never knows; the machine does)."""
        mark = f"{LEFTOVER_MARK}={os.getpid()}-{next(self._n)}"
        if t.surface is None:
            cmd = [self.picoclaw_host, "--modes", t.role]
        else:
            # An exec tool gets only the variables its binding lists: list the mark.
            cmd = [self.promptkit_host, "--surface", t.surface, "--env", LEFTOVER_MARK]
        if calls is None and t.surface == "server-tool":
            calls = SERVER_CALLS  # the driver's default is one call; a desync shows on the next
        if calls is not None:
            path = self.tmp(f"calls-{t.name}")
            path.write_text("".join(json.dumps(c, separators=(",", ":")) + "\n" for c in calls))
            cmd += ["--calls", str(path)]
        start = time.monotonic()
        out = run([*cmd, "--", *plugin], timeout=600, env={**os.environ, LEFTOVER_MARK: mark.split("=", 1)[1]})
        if out.returncode != 0:
            raise SystemExit(f"driver failed (exit {out.returncode}): {' '.join(cmd)}\n{out.stderr[-2000:]}")
        lines = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
        # The whole run, shutdown included (a runtime may wait at Close).
        lines.append({"step": "run", "elapsed_ms": int((time.monotonic() - start) * 1000)})
        left = kill_marked(mark)
        if left:
            lines.append({"step": "leftover", "processes": left})
        return lines


def run(cmd: list[str], timeout: int, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        cmd, capture_output=True, encoding="utf-8", errors="replace", timeout=timeout, stdin=subprocess.DEVNULL, cwd=ROOT, env=env
    )


# Three `execute` calls for server mode (params as PromptKit sends them).
SERVER_CALLS = [{"args": {"key": "greeting", "value": "hello <world> & co"}}, {"args": {"key": "a", "value": 1}}, {"args": {"key": "b"}}]

# Every process a driver run starts inherits this variable (with a value per
# run), so what outlives the run can be found and ended afterwards.
LEFTOVER_MARK = "PROCTOR_FIDELITY_RUN"

# How far past its deadline a runtime's call may end on a loaded machine before
# it counts as late (the differential and timing comparisons alike).
LATE_MS = 1000


def kill_marked(mark: str, grace: float = 0.0) -> list[str]:
    """Kills the processes whose environment holds `mark`; their command lines.
    With `grace`, a process is left alone if it ends within that many seconds:
    a child that outlives its plugin by a moment is not left behind (proctor's
    leak window is 250 ms)."""
    if grace and marked(mark):
        time.sleep(grace)
    return [cmd for pid, cmd in marked(mark) if kill(pid)]


def kill(pid: int) -> bool:
    try:
        os.kill(pid, 9)
        return True
    except OSError:
        return False


def marked(mark: str) -> list[tuple[int, str]]:
    """The live processes whose environment holds `mark`: pid and command line."""
    found = []
    needle = mark.encode() + b"\0"
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if needle not in f.read() + b"\0":
                    continue
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                if f.read().rsplit(b")", 1)[-1].split()[0] == b"Z":
                    continue  # ended, not yet reaped
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                found.append((int(entry.name), f.read().replace(b"\0", b" ").decode(errors="replace").strip()))
        except (OSError, ValueError, IndexError):
            continue
    return sorted(found, key=lambda p: p[1])


def sessions(record: Path) -> list[str]:
    """The stdin text each mock process received, in start order. Processes
    that ran at once (certify --jobs) interleave their lines: each names its pid."""
    found: list[str] = []
    by_pid: dict = {}
    if not record.exists():
        return found
    for line in record.read_text().splitlines():
        v = json.loads(line)
        if v.get("start"):
            found.append("")
            by_pid[v.get("pid")] = len(found) - 1
        elif "text" in v and found:
            found[by_pid.get(v.get("pid"), len(found) - 1)] += v["text"]
    return found



def calls_for(t: Target, lines: list[str]) -> list:
    if t.family == "promptkit-exec":
        return [json.loads(doc) for doc in lines]
    out = []
    for line in lines:
        v = json.loads(line)
        out.append({"method": v["method"], "params": v.get("params")} if t.family == "picoclaw-hook" else v.get("params"))
    return out
