"""wire and verify: proctor's requests, re-sent by the real runtime's own code, byte for byte."""

from __future__ import annotations

import json
import re
from pathlib import Path

from .runtime import PICOCLAW_HOST_METHODS, PROBE_ONLY, Comparison, Target, Tools, calls_for, run, sessions


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


def wire(tools: Tools, t: Target) -> list[Comparison]:
    ours = tools.tmp(f"wire-proctor-{t.name}.jsonl")
    # PROMPTKIT-KEY-SPELLING sends each probe again in the *other* profile's
    # spelling on purpose; that request is never the runtime's, so it is left out.
    tools.certify(t, tools.mock(t, ours), extra=("--skip-check", "PROMPTKIT-KEY-SPELLING"))
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
