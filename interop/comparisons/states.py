"""state: a workflow state's prompt as PromptKit renders it before every round.

The SDK release with the state resolver is not served to run, so the driver
`promptkit-state` makes the resolver's calls on runtime/prompt and
runtime/template v1.5.11 (the registry built as the SDK's pack loader builds
it). For every state of every example pack with a workflow, three ways:

  none       no value at all (a conversation's first round in that state);
  host       every variable the state's prompt declares given by the host:
             proctor must drop them as PromptKit does, so the driver gets none;
  artifacts  every declared artifact set (and the host's values too).

proctor's side is `pack render --state S --profile promptkit --format json`.
The outcome (rendered, raw, error) must be equal, and the system prompt, or
the error's words after proctor's `load prompt "T" for state: ` frame.
"""

from __future__ import annotations

import json
from pathlib import Path

from .runtime import PROMPTKIT, ROOT, Comparison, Tools, run

PACKS = sorted((ROOT / "examples").rglob("*.pack.json"))  # the driver reads JSON packs, as PromptKit does


def ways(pack: dict, state: str) -> dict[str, tuple[dict, dict]]:
    """Per way: (what proctor is given, what the driver is given)."""
    task = pack["workflow"]["states"][state]["prompt_task"]
    declared = [v["name"] for v in pack["prompts"][task].get("variables", []) if "name" in v]
    host = {name: f"host value of {name}" for name in declared if name != "workflow_context" and not name.startswith("artifacts.")}
    artifacts = {
        f"artifacts.{name}": f"stored {name}"
        for s in pack["workflow"]["states"].values()
        for name in s.get("artifacts", {})
    }
    return {"none": ({}, {}), "host": (host, {}), "artifacts": ({**host, **artifacts}, artifacts)}


def compare(tools: Tools, path: Path, state: str, way: str, given: dict, passed: dict) -> Comparison:
    rel = path.relative_to(ROOT)
    vars_for = lambda values: [a for k, v in values.items() for a in ("--var", f"{k}={v}")]  # noqa: E731
    theirs = run([tools.promptkit_state, "--pack", str(path), "--state", state, *vars_for(passed)], timeout=60)
    ours = run([tools.proctor, "pack", "render", str(path), "--state", state, "--profile", PROMPTKIT, "--format", "json", *vars_for(given)], timeout=60)
    key = f"{rel} state {state} ({way})"
    try:
        real = json.loads(theirs.stdout)
        sim = json.loads(ours.stdout)["renders"][0]
    except (json.JSONDecodeError, KeyError, IndexError):
        return Comparison("state", key, False, f"no answer: driver exit {theirs.returncode} {theirs.stderr[-300:]}; proctor exit {ours.returncode} {ours.stderr[-300:]}")
    if real["outcome"] != sim["outcome"]:
        return Comparison("state", key, False, f"PromptKit: {real['outcome']} {real.get('error') or real.get('system_prompt')!r}; proctor: {sim['outcome']} {sim.get('error') or sim.get('system_prompt')!r}")
    if real["outcome"] == "error":
        frame = f'load prompt {json.dumps(real["prompt_task"])} for state: '
        equal = sim.get("error") == frame + real["error"]
        return Comparison("state", key, equal, f"PromptKit: {frame}{real['error']!r}; proctor: {sim.get('error')!r}")
    equal = real["system_prompt"] == sim["system_prompt"]
    return Comparison("state", key, equal, f"PromptKit: {real['system_prompt']!r}; proctor: {sim['system_prompt']!r}")


def states(tools: Tools, pool) -> list[Comparison]:
    jobs = []
    for path in PACKS:
        pack = json.loads(path.read_text())
        for state, spec in pack.get("workflow", {}).get("states", {}).items():
            if spec.get("prompt_task") not in pack.get("prompts", {}):
                continue
            for way, (given, passed) in ways(pack, state).items():
                jobs.append((path, state, way, given, passed))
    return list(pool.map(lambda job: compare(tools, *job), jobs))
