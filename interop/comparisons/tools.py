"""tools: a prompt's pack tools as PromptKit's OpenAI provider sends them.

The driver `promptkit-tools` builds the tool registry from the pack as the
SDK's loader does and calls openai.ToolProvider.BuildTooling (runtime
v1.5.11, strict mode, the default) on the prompt's tools in name order.
proctor's side is the `wire_tools` of `pack render --profile promptkit
--format json`, given a value for every required variable (a missing one
makes PromptKit fall back to a prompt with no tools, which is another
comparison's business). Equal JSON, once each `required` list is sorted:
PromptKit builds it in Go's random map order.
"""

from __future__ import annotations

import json
from pathlib import Path

from .runtime import PROMPTKIT, ROOT, Comparison, Tools, run

PACKS = sorted((ROOT / "examples").rglob("*.pack.json"))


def canonical(value):
    if isinstance(value, dict):
        return {k: sorted(v) if k == "required" and isinstance(v, list) else canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def compare(tools: Tools, path: Path, key: str, prompt: dict) -> Comparison:
    rel = path.relative_to(ROOT)
    required = [v["name"] for v in prompt.get("variables", []) if v.get("required")]
    values = [a for name in required for a in ("--var", f"{name}=x")]
    theirs = run([tools.promptkit_tools, "--pack", str(path), "--prompt", key], timeout=60)
    ours = run([tools.proctor, "pack", "render", str(path), "--prompt", key, "--profile", PROMPTKIT, "--format", "json", *values], timeout=60)
    cid = f"{rel} prompt {key}"
    try:
        real = json.loads(theirs.stdout) or []
        sim = json.loads(ours.stdout)["renders"][0].get("wire_tools", [])
    except (json.JSONDecodeError, KeyError, IndexError):
        return Comparison("tools", cid, False, f"no answer: driver exit {theirs.returncode} {theirs.stderr[-300:]}; proctor exit {ours.returncode} {ours.stderr[-300:]}")
    equal = canonical(real) == canonical(sim)
    return Comparison("tools", cid, equal, f"PromptKit: {json.dumps(real)[:600]}; proctor: {json.dumps(sim)[:600]}")


def offered_tools(tools: Tools, pool) -> list[Comparison]:
    jobs = []
    for path in PACKS:
        pack = json.loads(path.read_text())
        for key, prompt in pack.get("prompts", {}).items():
            if any(name in pack.get("tools", {}) for name in prompt.get("tools", [])):
                jobs.append((path, key, prompt))
    return list(pool.map(lambda job: compare(tools, *job), jobs))
