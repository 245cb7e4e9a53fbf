"""world: the world Claude Code and Codex CLI give a command hook, against the
one `proctor certify` builds for it (conformance/src/certify/world.rs).

One probe, interop/agents/world_probe.py, a hook that changes nothing and
records where it ran, is run for each agent and event twice over:

  - through the real agent (interop/agents/agent_host.py: headless, offline,
    against `proctor mock-provider`), RUNS times, each a new session;
  - through `proctor certify --protocol claude-code-hook|codex-hook --role
    EVENT --profile claude-code@2.1.332|codex@0.171.0 --cwd PROJECT`, which
    starts it once per probe, each probe a session of its own.

Then, field by field (never the paths and ids themselves, which differ by
design), what the hook saw:

  env                  the CLAUDE*/CODEX* variables the agent adds, by name (those
                       agent_host.py launches the agent with, and proctor's own
                       environment, are not the agent's: they are left out)
  CLAUDE_PROJECT_DIR is cwd
                       it equals the payload's cwd (null: not set)
  getcwd is cwd        the hook runs in the payload's cwd
  cwd exists           the payload's cwd is a folder on disk
  session_id version   its UUID version (Claude Code 4, Codex 7)
  fresh sessions       every run (agent) or probe (certify) has a session_id of its own
  transcript exists    a file at transcript_path when the hook starts, or within
                       0.5 s: agent_host's model answers at once, and then Claude
                       Code writes its transcript a few ms after its first PreToolUse
                       hook has started (most runs); with 50 ms of model latency or
                       more it is there at the start (measured at 0.05 to 1 s, 6
                       runs in 6 each), as with any real model
  transcript first keys, transcript first type
                       the top-level keys and `type` of its first line
  stdin newline        the document on stdin ends with "\\n"
  probe judged         the agent ran the probe as a success; certify calls it conformant

A side whose own records disagree on a field (an agent that varies from run
to run, certify probes that do not agree) is a difference too, named so.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from .agent_hooks import AGENT_HOST, AGENTS_DIR, FAMILIES, PROFILES
from .runtime import ROOT, Comparison

PROBE = AGENTS_DIR / "world_probe.py"
EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]
RUNS = 3  # agent runs per event: each a new session (fresh ids), and an agent that varies shows
PREFIXES = ("CLAUDE", "CODEX")
OK_STATUS = {"claude-code": "success", "codex": "Completed"}


@functools.cache
def launched_with(agent: str) -> frozenset[str]:
    """The CLAUDE*/CODEX* variables agent_host.py starts the agent with (its
    config and temp folders): the launcher's, not what the agent adds."""
    spec = importlib.util.spec_from_file_location("agent_host", AGENT_HOST)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    source = inspect.getsource(module.run_claude if agent == "claude-code" else module.run_codex)
    return frozenset(re.findall(r'"((?:CLAUDE|CODEX)[A-Z0-9_]*)"\s*:', source))


def read_records(out: Path, event: str) -> list[dict]:
    """The probe's records for `event` in `out`, in the order the probe ran."""
    files = sorted(out.glob("*.json"), key=lambda p: int(p.stem.rsplit("-", 1)[-1])) if out.is_dir() else []
    records = [json.loads(f.read_text()) for f in files]
    return [r for r in records if r.get("event") == event or "error" in r]


def agent_run(proctor: str, agent: str, event: str, work: Path) -> dict:
    """The probe through the agent once: {records, statuses} or {error}."""
    out = work / "records"
    cmd = [sys.executable, str(AGENT_HOST), "--agent", agent, "--event", event, "--timeout-s", "10", "--proctor", proctor,
           "--", sys.executable, str(PROBE), str(out)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL, cwd=ROOT)
    try:
        seen = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": f"agent_host printed nothing (exit {done.returncode}): {done.stderr[-400:]}", "cmd": cmd}
    records = read_records(out, event)
    statuses = [h.get("status") for h in seen.get("hooks", []) if h.get("event") == event]
    if not records:
        return {"error": f"the probe left no record; the agent said {statuses}, stderr {seen.get('stderr_tail', '')[-300:]!r}", "cmd": cmd}
    return {"records": records, "statuses": statuses, "cmd": cmd}


def certify_run(proctor: str, agent: str, event: str, work: Path) -> dict:
    """The probe through `proctor certify` under the agent's profile: {records, verdict, failed} or {error}."""
    project = work / "project"
    project.mkdir(parents=True, exist_ok=True)
    out = work / "records"
    cmd = [proctor, "certify", "--no-progress", "--jobs", "1", "--format", "json", "--protocol", FAMILIES[agent], "--role", event,
           "--profile", PROFILES[agent], "--cwd", str(project), "--", sys.executable, str(PROBE), str(out)]
    # proctor's environment without the agents' variables (fidelity run inside an agent, say):
    # whatever the probe finds under those names, proctor put there.
    env = {k: v for k, v in os.environ.items() if not k.startswith(PREFIXES)}
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL, cwd=ROOT, env=env)
    try:
        report = json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": f"certify printed no report (exit {done.returncode}): {done.stderr[-400:]}", "cmd": cmd}
    failed = [c["id"] for c in report.get("checks", []) if c.get("status") == "fail"]
    records = read_records(out, event)
    if not records:
        return {"error": f"certify ran the probe on no {event} document (verdict {report.get('verdict')})", "cmd": cmd}
    return {"records": records, "verdict": report.get("verdict"), "failed": failed, "cmd": cmd}


def facts(record: dict, launched: frozenset[str] | set[str]) -> dict:
    """The fields compared, from one record (`launched`: names that are the launcher's)."""
    if "error" in record:
        return {"probe error": record["error"]}
    return {
        "env": sorted(set(record["env"]) - launched),
        "CLAUDE_PROJECT_DIR is cwd": record["project_dir_is_cwd"],
        "getcwd is cwd": record["getcwd_is_cwd"],
        "cwd exists": record["cwd_exists"],
        "session_id version": record["session_uuid_version"],
        "transcript exists": record["transcript_exists_soon"],
        "transcript first keys": record["transcript_first_keys"],
        "transcript first type": record["transcript_first_type"],
        "stdin newline": record["stdin_trailing_newline"],
    }


def side(records: list[dict], sessions: list[dict], launched: frozenset[str] | set[str]) -> dict:
    """Each field's values over a side's records (more than one: the side varies), and
    whether each of `sessions` (one record per session) has an id of its own."""
    values: dict[str, list] = {}
    for r in records:
        for k, v in facts(r, launched).items():
            if v not in values.setdefault(k, []):
                values[k].append(v)
    ids = [r.get("session_id") for r in sessions if "error" not in r]
    values["fresh sessions"] = [len(ids) >= 2 and len(set(ids)) == len(ids)]
    return values


def show(v) -> str:
    return json.dumps(v) if not isinstance(v, str) else v


def reproduce(proctor: str, agent: str, event: str) -> str:
    """Two commands, from the repository root, that leave the two sides' records in /tmp/proctor-world."""
    out = f"/tmp/proctor-world/{agent}-{event}"
    probe = ["python3", str(PROBE)]  # absolute: the agent runs its hooks in a project folder of its own
    here = Path(proctor).resolve()
    proctor = str(here.relative_to(ROOT)) if here.is_relative_to(ROOT) else proctor
    certify = [proctor, "certify", "--protocol", FAMILIES[agent], "--role", event, "--profile", PROFILES[agent],
               "--cwd", f"{out}/project", "--", *probe, f"{out}/proctor"]
    host = ["interop/agents/agent_host.py", "--agent", agent, "--event", event, "--proctor", proctor, "--", *probe, f"{out}/agent"]
    return (f"\n          reproduce: rm -rf {out} && mkdir -p {out}/project && {shlex.join(certify)} >/dev/null; cat {out}/proctor/*.json"
            f"\n                     {shlex.join(host)} >/dev/null; cat {out}/agent/*.json")


def judge(proctor: str, agent: str, event: str, real: list[dict], ours: dict) -> list[Comparison]:
    """Field by field: the agent's runs against certify's records."""
    label = f"{agent} {event}"
    bad = [r for r in real if "error" in r]
    if bad or "error" in ours:
        why = bad[0]["error"] if bad else ours["error"]
        cmd = (bad[0] if bad else ours)["cmd"]
        return [Comparison("world", f"{label}: the probe ran", False, f"{why}\n          ran: {shlex.join(map(str, cmd))}{reproduce(proctor, agent, event)}")]
    # Every record counts for what the hook saw; one per run for the sessions (a hook
    # the agent runs twice in one run, Stop say, sees the same session twice).
    a = side([r for run in real for r in run["records"]], [run["records"][0] for run in real], launched_with(agent))
    p = side(ours["records"], ours["records"], set())
    how, first = reproduce(proctor, agent, event), None
    found = []

    def differs(field: str, detail: str) -> None:
        # The commands once per agent and event, with its first difference.
        nonlocal first
        found.append(Comparison("world", f"{label}: {field}", False, detail + (how if first is None else f" (reproduce: as for `{first}`)")))
        first = first or f"{label}: {field}"

    for field in a:
        av, pv = a[field], p.get(field, [])
        if len(av) > 1:
            differs(field, f"{agent} varies over its {len(real)} runs: {' | '.join(map(show, av))}; proctor: {' | '.join(map(show, pv))}")
        elif len(pv) > 1:
            differs(field, f"proctor's {len(ours['records'])} records disagree: {' | '.join(map(show, pv))}; {agent}: {show(av[0])}")
        elif av != pv:
            if field == "env" and av and pv:
                missing, extra_ = sorted(set(av[0]) - set(pv[0])), sorted(set(pv[0]) - set(av[0]))
                detail = f"proctor lacks {show(missing)}, adds {show(extra_)} (proctor sets {show(pv[0])})"
            else:
                detail = f"proctor: {' | '.join(map(show, pv)) or 'nothing'}; {agent}: {' | '.join(map(show, av))}"
            differs(field, detail)
        else:
            found.append(Comparison("world", f"{label}: {field}", True, f"both {show(av[0])}"))
    statuses = [s for run in real for s in run["statuses"]]
    fine = bool(statuses) and all(s == OK_STATUS[agent] for s in statuses)
    conformant = ours["verdict"] == "conformant"
    detail = f"{agent}: {statuses}; proctor: {ours['verdict']}" + (f" ({', '.join(ours['failed'])})" if ours["failed"] else "")
    if fine == conformant:
        found.append(Comparison("world", f"{label}: probe judged", True, detail))
    else:
        differs("probe judged", detail)
    return found


def world(proctor: str, pool, work: Path, events=EVENTS) -> list[Comparison]:
    """Every event, each agent: RUNS agent runs and one certify run of the probe, compared."""
    pairs = [(agent, event) for agent in ("claude-code", "codex") for event in events]
    jobs = [("agent", agent, event, i) for agent, event in pairs for i in range(RUNS)] + [("certify", agent, event, 0) for agent, event in pairs]

    def run(job):
        how, agent, event, i = job
        where = work / f"{agent}-{event}-{how}{i}"
        return (agent_run if how == "agent" else certify_run)(proctor, agent, event, where)

    results = dict(zip(jobs, pool.map(run, jobs)))
    found: list[Comparison] = []
    for agent, event in pairs:
        real = [results[("agent", agent, event, i)] for i in range(RUNS)]
        found += judge(proctor, agent, event, real, results[("certify", agent, event, 0)])
    return found
