#!/usr/bin/env python3
"""Holds proctor's runtime profiles to the real runtimes.

proctor's `picoclaw@cf67dd3` and `promptkit@86d9f36` profiles were written by
reading the runtimes' code. This script runs the runtimes themselves (the Go
drivers under interop/picoclaw and interop/promptkit, built from the runtimes'
published modules) next to proctor and compares, in four ways:

  wire      For every family and role, each request proctor sends under the
            runtime's profile is decoded by the real runtime's own types and
            sent again by the real client. Both sides are recorded by
            `proctor mock-plugin --record`; the bytes must be equal once ids
            (random or counted by design) are normalised.
  verify    What the real runtime sent in the wire comparison, judged by
            `proctor verify` under the runtime's profile: it must be conformant.
  fault     For every fault of `proctor mock-plugin` that applies to a role:
            proctor's verdict under the runtime's profile against what the
            real runtime did with that plugin. "conformant" must mean the
            runtime got the same outcome as from the well-behaved mock;
            "nonconformant" must mean it did not.
  case      For every example plugin under examples/ with a cases file: each
            case's request as proctor sends it, run through the real runtime
            against the real plugin. proctor's case verdict must match
            whether the real runtime reached the case's expected decision.

A difference is a bug in proctor's simulation until shown otherwise; the ones
that are understood and kept are listed, with why, in
interop/fidelity-exceptions.toml. It ends with one line:

  fidelity: A compared, B equal, C listed exceptions, D unexplained

and exits 1 on any unexplained difference or on a listed exception that no
longer differs (so the list cannot go stale).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

import yaml  # the cases files are YAML; .ci/run installs PyYAML into its venv

ROOT = Path(__file__).resolve().parent.parent
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

# A fault that bites only on a particular decision is run with it. So is a
# fault whose damage a runtime's fallback would hide under the default
# decision: PicoClaw continues when an interceptor's answer is unusable, so
# an unreadable or unknown action is run on a denial, where continuing shows.
FAULT_DECISION = {
    "deny-no-reason": "deny",
    "pending-no-reason": "pending",
    "respond-no-result": "respond",
    "respond-everywhere": "respond",
    "modify-flat": "modify",
    "modify-empty": "modify",
    "unknown-action": "deny",
    "invalid-utf8": "deny",
    "both-result-error": "deny",
}


@dataclass
class Comparison:
    kind: str  # wire | fault | case
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
    def __init__(self, proctor: str, picoclaw_host: str, promptkit_host: str, work: Path, verbose: bool):
        self.proctor = proctor
        self.picoclaw_host = picoclaw_host
        self.promptkit_host = promptkit_host
        self.work = work
        self.verbose = verbose
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
        cmd = [self.proctor, "certify", "--no-progress", "--format", "json", "--protocol", t.family, *t.proctor_role()]
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


def kill_marked(mark: str) -> list[str]:
    """Kills the processes whose environment holds `mark`; their command lines."""
    found = []
    needle = mark.encode() + b"\0"
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if needle not in f.read() + b"\0":
                    continue
            with open(f"/proc/{entry.name}/cmdline", "rb") as f:
                found.append(f.read().replace(b"\0", b" ").decode(errors="replace").strip())
            os.kill(int(entry.name), 9)
        except (OSError, ValueError):
            continue
    return sorted(found)


def sessions(record: Path) -> list[str]:
    """The stdin text each mock process received, in start order."""
    found: list[str] = []
    if not record.exists():
        return found
    for line in record.read_text().splitlines():
        v = json.loads(line)
        if v.get("start"):
            found.append("")
        elif "text" in v and found:
            found[-1] += v["text"]
    return found


ID = re.compile(r'"id":(-?\d+)')


def normalise_id(line: str) -> str:
    """The first numeric `"id":N` is the JSON-RPC id (Go and proctor both write
    jsonrpc, then id): ids are counted per process, so they are normalised."""
    return ID.sub('"id":"<id>"', line, count=1)


def diff_text(a: str, b: str) -> str:
    """Where two byte strings first differ, with context, and which keys differ."""
    i = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, i - 40)
    msg = f"at byte {i}: proctor …{a[lo:i + 60]!r}… real …{b[lo:i + 60]!r}…"
    try:
        ka, kb = key_paths(json.loads(a)), key_paths(json.loads(b))
        only_a, only_b = sorted(ka - kb), sorted(kb - ka)
        if only_a:
            msg += f"; only proctor sends {only_a[:8]}"
        if only_b:
            msg += f"; only the real runtime sends {only_b[:8]}"
    except json.JSONDecodeError:
        pass
    return msg


def key_paths(v, prefix="") -> set[str]:
    paths: set[str] = set()
    if isinstance(v, dict):
        for k, x in v.items():
            paths.add(prefix + "/" + k)
            paths |= key_paths(x, prefix + "/" + k)
    elif isinstance(v, list):
        for x in v:
            paths |= key_paths(x, prefix + "/*")
    return paths


# ---------------------------------------------------------------------- wire


def wire_messages(t: Target, text_sessions: list[str]) -> list[str]:
    """The requests of one side that the real runtime can send, as lines."""
    msgs: list[str] = []
    for text in text_sessions:
        if not text:
            continue
        if t.family == "promptkit-exec":
            # The same document with a trailing newline is proctor's probe of
            # a plugin that needs one; PromptKit never writes it.
            if PROBE_ONLY not in text and not (text.endswith("\n") and text[:-1] in text_sessions):
                msgs.append(text)
            continue
        for line in text.split("\n"):
            if not line.strip() or PROBE_ONLY in line:
                continue
            try:
                method = json.loads(line).get("method")
            except json.JSONDecodeError:
                continue
            if method in PICOCLAW_HOST_METHODS or method == "execute":
                msgs.append(line)
    return msgs


def calls_for(t: Target, lines: list[str]) -> list:
    if t.family == "promptkit-exec":
        return [json.loads(doc) for doc in lines]
    out = []
    for line in lines:
        v = json.loads(line)
        out.append({"method": v["method"], "params": v.get("params")} if t.family == "picoclaw-hook" else v.get("params"))
    return out


def wire(tools: Tools, t: Target) -> list[Comparison]:
    ours = tools.tmp(f"wire-proctor-{t.name}.jsonl")
    tools.certify(t, tools.mock(t, ours))
    lines = list(dict.fromkeys(wire_messages(t, sessions(ours))))  # each distinct request once
    if not lines:
        return [Comparison("wire", t.name, False, "proctor sent no request the runtime could send")]
    theirs = tools.tmp(f"wire-real-{t.name}.jsonl")
    tools.drive(t, tools.mock(t, theirs), calls_for(t, lines))
    real = wire_messages(t, sessions(theirs))
    if t.family == "picoclaw-hook":
        # The real host sends notifications from their own goroutine: compare
        # in order within each method, not across methods.
        key = lambda line: json.loads(line)["method"]  # noqa: E731
        lines, real = sorted(lines, key=key), sorted(real, key=key)
    found = []
    for n, ours_line in enumerate(lines):
        method = describe(t, ours_line)
        cid = f"{t.name} {method} #{n + 1}"
        if n >= len(real):
            found.append(Comparison("wire", cid, False, "the real runtime sent nothing for it"))
            continue
        a, b = normalise_id(ours_line), normalise_id(real[n])
        found.append(Comparison("wire", cid, a == b, "" if a == b else diff_text(a, b)))
    for extra in real[len(lines):]:
        found.append(Comparison("wire", f"{t.name} extra", False, f"the real runtime also sent {extra[:200]!r}"))
    found.append(verify(tools, t, theirs))
    # The handshake: PicoClaw names the hook after its config key; proctor after itself.
    if t.family == "picoclaw-hook":
        hello = lambda s: next((normalise_id(l) for l in s[0].split("\n") if '"hook.hello"' in l), "") if s else ""  # noqa: E731,E741
        a, b = (re.sub(r'"name":"[^"]*"', '"name":"<name>"', hello(sessions(p))) for p in (ours, theirs))
        found.append(Comparison("wire", f"{t.name} hook.hello", bool(a) and a == b, "" if a == b else diff_text(a, b)))
    return found


# How a scenario declares a mock plugin of each target, for `proctor verify`.
VERIFY_CONFIG = {
    "picoclaw-hook": "{picoclaw_hook: {observe: ['*'], intercept: [before_llm, after_llm, before_tool, after_tool, approve_tool]}}",
    "promptkit-exec/tool": "{promptkit_tool: {}}",
    "promptkit-exec/eval": "{promptkit_eval: {trigger: every_turn}}",
    "promptkit-exec/provider-hook": "{promptkit_hook: {hook: provider, phases: [before_call, after_call]}}",
    "promptkit-exec/tool-hook": "{promptkit_hook: {hook: tool, phases: [before_execution, after_execution]}}",
    "promptkit-exec/session-hook": "{promptkit_hook: {hook: session}}",
    "promptkit-exec/eval-hook": "{promptkit_hook: {hook: eval}}",
    "promptkit-exec/selector": "{promptkit_selector: {k: 2}}",
    "promptkit-server/tool": "{promptkit_tool: {runtime: server}}",
}


def verify(tools: Tools, t: Target, record: Path) -> Comparison:
    """`proctor verify` on what the real runtime sent: it must be conformant."""
    folder = tools.tmp(f"verify-{t.name}")
    folder.mkdir()
    (folder / "p.jsonl").write_bytes(record.read_bytes())
    runtime = t.family.split("-")[0]
    scenario = folder / "scenario.yaml"
    scenario.write_text(
        f"id: interop/{runtime}\nruntime: {runtime}\nplugins:\n  - {{name: p, process: {{mock: {{}}}}, config: {VERIFY_CONFIG.get(t.name) or VERIFY_CONFIG[t.family]}}}\n"
        "turns:\n  - user: hi\n"
    )
    out = run([tools.proctor, "verify", "--scenario", str(scenario), "--record", f"{folder}/", "--format", "json"], timeout=120)
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        return Comparison("verify", t.name, False, f"proctor verify printed no report (exit {out.returncode}): {out.stderr[-500:]}")
    bad = [f"{c['id']}: {c['message'][:200]}" for c in report.get("checks", []) if c.get("status") in ("fail", "warn")]
    passed = report.get("summary", {}).get("passed", 0)
    ok = report.get("verdict") == "conformant" and not bad and passed > 0
    return Comparison("verify", t.name, ok, f"verdict {report.get('verdict')}, {passed} passed; {'; '.join(bad)}")


def describe(t: Target, line: str) -> str:
    v = json.loads(line)
    if t.family == "promptkit-exec":
        return "/".join(str(v[k]) for k in ("hook", "phase", "event") if isinstance(v.get(k), str)) or "document"
    return v.get("method", "?")


# --------------------------------------------------------------------- fault


# Timings, and the filler the mock's huge-line fault adds to its answer.
IGNORED = ("elapsed_ms", "duration_ms", "at_ms", "padding")


def signature(v):
    """What the runtime did, without what may differ for reasons that are not
    the runtime's: timings; the raw text of a result whose parsed value is
    shown (whitespace in a JSON document does not change what it says); the
    replacement characters of a runtime that decodes invalid UTF-8 lossily
    (the plugin's own garbage, passed on as well as it can be)."""
    if isinstance(v, dict):
        if v.get("step") == "close" and isinstance(v.get("error"), str) and re.search(r"exit status \d+$", v["error"]):
            # A plugin that answered everything and then exited by itself with
            # a status: the runtimes only log it at shutdown. (One they had to
            # kill says "signal: killed" and stays a difference.)
            v = {**v, "error": None}
        return {k: signature(x) for k, x in v.items() if k not in IGNORED and not (k == "content_text" and "content" in v)}
    if isinstance(v, list):
        return [signature(x) for x in v]
    if isinstance(v, str):
        return v.replace("\ufffd", "")
    return v


def first_change(base: list[dict], got: list[dict]) -> str:
    for a, b in zip(base, got):
        if a != b:
            return f"expected {json.dumps(a)[:300]}, got {json.dumps(b)[:300]}"
    if len(base) != len(got):
        return f"{len(base)} outcome lines expected, {len(got)} seen"
    return "same outcome as the well-behaved plugin"


# A call that takes this much longer than with the well-behaved plugin is a
# runtime waiting on something (PicoClaw's interceptor deadline is 5 s); the
# mock's slow-start costs 2 s, which a runtime is expected to absorb.
SLOW_MS = 4000


def waited_longer(base: list[dict], got: list[dict]) -> str:
    """Which call the runtime waited on, and how long, or "". The last line is
    the whole run: what it took beyond its calls is start-up and shutdown (a
    runtime waiting at Close for a pipe a grandchild holds)."""
    extra_calls = 0
    for a, b in zip(base[:-1], got[:-1]):
        extra = b.get("elapsed_ms", 0) - a.get("elapsed_ms", 0)
        extra_calls += max(0, extra)
        if extra > SLOW_MS:
            return f"but waited {extra} ms longer for {b.get('method') or b.get('phase') or b.get('step') or 'a call'}"
    outside = got[-1].get("elapsed_ms", 0) - base[-1].get("elapsed_ms", 0) - extra_calls
    if outside > SLOW_MS:
        return f"but waited {outside} ms longer outside its calls (start-up or shutdown)"
    return ""


def faults_of(tools: Tools, t: Target) -> list[tuple[str, str]]:
    """The faults that change something for the target, with their kinds."""
    out = run([tools.proctor, "mock-plugin", "--protocol", t.family, *t.proctor_role(), "--list-faults"], timeout=60)
    # only-marked only changes answers to requests carrying proctor's mark,
    # which no runtime sends: alone it is the well-behaved mock.
    rows = [line.split() for line in out.stdout.splitlines() if line.strip()]
    return [(row[0], row[1]) for row in rows if row[0] != "only-marked"]


def coarse(t: Target, lines: list[dict]) -> list:
    """What a semantic fault is judged by: the decision each call came to,
    and whether the runtime saw an error. A semantic fault changes the
    answer's value on purpose (a score of 1.7, a denial without a reason), so
    the question is whether the runtime took the answer as meant, not whether
    the value is the well-behaved one."""
    out = []
    for line in lines:
        if "index" not in line:
            out.append({k: v for k, v in signature(line).items() if k != "index"})
            continue
        d = decision_of(t, line)
        if t.family == "picoclaw-hook":
            # The action and the payload the host went on with; not the
            # reason, which a semantic fault may drop on purpose.
            out.append({"decision": d, "payload": signature(line.get("payload")), "error": bool(line.get("hook_error"))})
            continue
        if t.surface == "eval":
            d = "scored" if isinstance(d, (int, float)) else "error"
        elif t.surface == "selector":
            d = "selected" if isinstance(d, list) else "error"
        out.append({"decision": d, "error": bool(line.get("error") or line.get("hook_error"))})
    return out


def fault(tools: Tools, t: Target, name: str, kind: str, baselines: dict) -> Comparison:
    decision = FAULT_DECISION.get(name)
    report = tools.certify(t, tools.mock(t, tools.tmp("unused"), faults=[name], decision=decision))
    verdict = report.get("profile_verdicts", {}).get(t.profile, report.get("verdict"))
    failed = sorted({c["id"] for c in report.get("checks", []) if c.get("status") == "fail" and c.get("profile") == t.profile})
    lines = tools.drive(t, tools.mock(t, tools.tmp("unused"), faults=[name], decision=decision))
    judge = (lambda ls: coarse(t, ls)) if kind == "Semantics" else signature
    got, base = judge(lines), judge(baselines[decision])
    slower = waited_longer(baselines[decision], lines)
    worked = got == base and not slower
    equal = (verdict == "conformant") == worked
    said = f"proctor: {verdict}" + (f" ({', '.join(failed[:4])})" if failed else "")
    if worked:
        did = "the runtime got the well-behaved outcome"
    elif got == base:
        did = f"the runtime got the well-behaved outcome, {slower}"
    else:
        did = f"the runtime did otherwise: {first_change(base, got)}"
    return Comparison("fault", f"{t.name} {name}", equal, f"{said}; {did}")


def faults(tools: Tools, t: Target, pool) -> list[Comparison]:
    names = faults_of(tools, t)
    decisions = {FAULT_DECISION.get(n) for n, _ in names} | {None}
    baselines = {}
    for d in decisions:
        base = tools.drive(t, tools.mock(t, tools.tmp("unused"), decision=d))
        again = tools.drive(t, tools.mock(t, tools.tmp("unused"), decision=d))
        if signature(base) != signature(again):
            raise SystemExit(f"{t.name}: the well-behaved mock's outcome differs between two runs: {first_change(signature(base), signature(again))}")
        baselines[d] = base
    return list(pool.map(lambda nk: fault(tools, t, *nk, baselines), names))


# ---------------------------------------------------------------------- case

# The example plugins that have a cases file, by target name. runok's are
# held to runok's real runner by interop/runok's own tests.
EXAMPLES = [
    ("picoclaw-hook", "picoclaw-hook/review_gate.py"),
    ("picoclaw-hook", "broken/buffered_hook.py"),
    ("promptkit-exec/tool", "promptkit-exec/weather_tool.py"),
    ("promptkit-exec/tool", "broken/chatty_tool.py"),
    ("promptkit-exec/eval", "promptkit-exec/tone_eval.py"),
    ("promptkit-exec/provider-hook", "promptkit-exec/provider_hook.py"),
    ("promptkit-exec/tool-hook", "promptkit-exec/pii_tool_hook.py"),
    ("promptkit-exec/tool-hook", "broken/docs_tool_hook.py"),
    ("promptkit-exec/session-hook", "promptkit-exec/audit_session_hook.py"),
    ("promptkit-exec/selector", "promptkit-exec/rerank_selector.py"),
    ("promptkit-exec/selector", "broken/docs_rerank_selector.py"),
    ("promptkit-server/tool", "promptkit-server/kv_server.py"),
]


def decision_of(t: Target, line: dict):
    """What the real runtime decided, in the words of a cases file's `expect`."""
    if t.family == "picoclaw-hook":
        if "approval" in line:
            return "approved" if line["approval"].get("approved") else "denied"
        return (line.get("decision") or {}).get("action")
    o = line.get("outcome") or {}
    if t.surface in ("exec-tool", "server-tool"):
        if o.get("status") == "pending":
            return "pending"
        if o.get("status") == "complete" and not line.get("error"):
            return "result"
        # The plugin's own error, or a call PromptKit could not complete
        # (unreadable answer, exit status, deadline): not the same decision.
        text = f"{line.get('error') or ''} {o.get('error') or ''}"
        failed = ("invalid JSON", "invalid response", "exit status", "timed out", "signal:", "closed stdout", "broken pipe", "ID mismatch")
        return "failed" if any(f in text for f in failed) else "error"
    if t.surface in ("provider-hook", "tool-hook"):
        return "allow" if o.get("Allow") is True else "deny"
    if t.surface == "session-hook":
        return "error" if o.get("error_returned") or line.get("error") else "ack"
    if t.surface == "eval":
        # PromptKit's runner records a failed eval as score 0 with the error
        # as its explanation (runtime/evals/handlers/exec_handler.go).
        failed = line.get("error") or str(o.get("explanation", "")).startswith("exec eval")
        return None if failed else o.get("score")
    if t.surface == "selector":
        return None if line.get("error") else o.get("selected")
    return None


def meets(expect: dict, got) -> bool:
    if "decision" in expect:
        return got == expect["decision"]
    if "score_at_least" in expect:
        return isinstance(got, (int, float)) and got >= expect["score_at_least"]
    if "score_below" in expect:
        return isinstance(got, (int, float)) and got < expect["score_below"]
    if "selected" in expect:
        return isinstance(got, list) and sorted(got) == sorted(expect["selected"])
    raise SystemExit(f"fidelity.py does not know the expectation {expect}")


def case_requests(tools: Tools, t: Target, cases_file: Path, n: int) -> list[str]:
    """The requests of a cases file exactly as proctor sends them under the
    runtime's profile, read back from a recording mock: its cases come last."""
    record = tools.tmp(f"cases-{t.name}.jsonl")
    tools.certify(t, tools.mock(t, record), ["--cases", str(cases_file), "--check", "CASE-DECISION"])
    texts = sessions(record)
    if t.family == "promptkit-exec":
        return [text for text in texts if text][-n:]
    lines = [line for text in texts for line in text.split("\n") if line.strip()]
    methods = (*PICOCLAW_HOST_METHODS, "execute")
    return [line for line in lines if json.loads(line).get("method") in methods][-n:]


def example(tools: Tools, t: Target, script: str) -> list[Comparison]:
    path = ROOT / "examples" / script
    cases_file = path.with_suffix(".cases.yaml")
    expects = {c["name"]: c["expect"] for c in yaml.safe_load(cases_file.read_text())["cases"]}
    command = ["python3", str(path)]
    report = tools.certify(t, command, ["--cases", str(cases_file), "--check", "CASE-DECISION"])
    judged = [c for c in report.get("checks", []) if c["id"] == "CASE-DECISION" and c.get("profile") == t.profile]
    status = {c["case"]: c["status"] for c in judged if c.get("case")}
    # A plugin whose first answer the runtime cannot read leaves every case
    # failed-untestable: one failed entry without a case name.
    blocked = not status and any(c["status"] == "fail" for c in judged)
    if not status and not blocked:
        return [Comparison("case", f"{t.name} {script}", False, f"proctor judged none of its {len(expects)} cases")]
    calls = calls_for(t, case_requests(tools, t, cases_file, len(expects)))
    by_index = {line["index"]: line for line in tools.drive(t, command, calls) if "index" in line}
    found = []
    for n, (name, expect) in enumerate(expects.items()):
        got = decision_of(t, by_index[n]) if n in by_index else None
        real_ok = meets(expect, got)
        said = status.get(name, "fail (untestable: the runtime could not read the plugin's first answer)")
        proctor_ok = said == "pass"
        detail = f"proctor: {said}; the real runtime decided {json.dumps(got)}, expected {json.dumps(expect)}"
        found.append(Comparison("case", f"{t.name} {script}: {name}", proctor_ok == real_ok, detail))
    return found


def cases(tools: Tools, targets: list[Target], pool) -> list[Comparison]:
    by_name = {t.name: t for t in targets}
    jobs = [(by_name[name], script) for name, script in EXAMPLES if name in by_name]
    return [c for found in pool.map(lambda job: example(tools, *job), jobs) for c in found]


# ---------------------------------------------------------------------- main


def load_exceptions(path: Path) -> dict[str, str]:
    data = tomllib.loads(path.read_text()) if path.exists() else {}
    listed = {}
    for n, e in enumerate(data.get("exception", []), 1):
        if not e.get("id") or not e.get("why"):
            raise SystemExit(f"{path}: exception #{n} needs both `id` and `why`")
        listed[e["id"]] = e["why"]
    return listed


def main() -> int:
    # proctor takes PYTHONUNBUFFERED out of every plugin's environment (a dev
    # container's export hides a missing flush); the runtimes pass theirs on.
    # Both sides get the same environment here, as on a user's machine.
    os.environ.pop("PYTHONUNBUFFERED", None)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--proctor", required=True)
    ap.add_argument("--picoclaw-host", required=True)
    ap.add_argument("--promptkit-host", required=True)
    ap.add_argument("--exceptions", default=str(Path(__file__).with_name("fidelity-exceptions.toml")))
    ap.add_argument("--only", choices=["wire", "fault", "case"], action="append", help="run only these comparisons (wire includes verify)")
    ap.add_argument("--target", action="append", help="only these targets (e.g. picoclaw-hook, promptkit-exec/tool)")
    ap.add_argument("--jobs", type=int, default=6, help="comparisons run at once (most time is spent waiting on deadlines)")
    ap.add_argument("--verbose", action="store_true", help="print equal comparisons too")
    args = ap.parse_args()

    kinds = set(args.only or ["wire", "fault", "case"])
    targets = [t for t in TARGETS if not args.target or t.name in args.target or t.family in args.target]
    listed = load_exceptions(Path(args.exceptions))
    with tempfile.TemporaryDirectory(prefix="proctor-fidelity-") as work:
        absolute = lambda p: str(Path(p).resolve())  # noqa: E731 (commands run from the repository root)
        tools = Tools(absolute(args.proctor), absolute(args.picoclaw_host), absolute(args.promptkit_host), Path(work), args.verbose)
        found: list[Comparison] = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for t in targets:
                if "wire" in kinds:
                    found += wire(tools, t)
                if "fault" in kinds:
                    found += faults(tools, t, pool)
                print(f"fidelity: {t.name} compared", file=sys.stderr, flush=True)
            if "case" in kinds:
                found += cases(tools, targets, pool)

    equal = exceptions = unexplained = 0
    seen = set()
    for c in found:
        key = f"{c.kind} {c.id}"
        seen.add(key)
        if c.equal and key in listed:
            unexplained += 1
            print(f"STALE     {key}: listed as an exception but now equal; delete it from {args.exceptions}")
        elif c.equal:
            equal += 1
            if args.verbose:
                print(f"equal     {key}")
        elif key in listed:
            exceptions += 1
            print(f"exception {key}: {listed[key]}\n          {c.detail}")
        else:
            unexplained += 1
            print(f"DIFFERENT {key}: {c.detail}")
    ran_all = not args.only and not args.target
    for key in sorted(set(listed) - seen) if ran_all else []:
        unexplained += 1
        print(f"STALE     {key}: listed as an exception but no longer compared; delete it from {args.exceptions}")
    print(f"fidelity: {len(found)} compared, {equal} equal, {exceptions} listed exceptions, {unexplained} unexplained")
    if not found:
        print("fidelity: nothing was compared", file=sys.stderr)
        return 1
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
