"""case: the examples' cases, through the real runtime to the real plugin."""

from __future__ import annotations

import json
from pathlib import Path

import yaml  # the cases files are YAML; .ci/run installs PyYAML into its venv

from .outcome import decision_of
from .runtime import PICOCLAW_HOST_METHODS, ROOT, Comparison, Target, Tools, calls_for, sessions


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
    # untestable: one entry without a case name (status `untestable`).
    blocked = not status and any(c["status"] in ("fail", "untestable") for c in judged)
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
    # An example names its target as `family/role`, or by family where the family has one target (PicoClaw).
    by_name = {**{t.family: t for t in targets}, **{t.name: t for t in targets}}
    jobs = [(by_name[name], script) for name, script in EXAMPLES if name in by_name]
    return [c for found in pool.map(lambda job: example(tools, *job), jobs) for c in found]
