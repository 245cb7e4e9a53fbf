"""sdk: every scenario that opens a pack, through proctor and through the real PromptKit SDK.

The driver `promptkit-sdk` (interop/promptkit-sdk: sdk v1.5.10 on runtime
v1.5.11) opens the pack as the scenario's host does (`prompt:` is sdk.Open, a
workflow is sdk.OpenWorkflow, agents are sdk.OpenMultiAgent), with the
scenario's variables and RuntimeConfig and its `tools:` bound as OnTool
handlers, and sends the turns against `proctor mock-provider` serving the
scenario's `llm:` script. proctor plays the same scenario under its
PromptKit profile. Compared:

  journal   the provider requests, in order, as JSON once ids are normalised
            (and `required` lists sorted: PromptKit builds them in Go's map order);
  outcome   how the run ended (completed or error), the error's text, the final
            reply and every tool result the model was sent;
  workflow  the final state, status, path and artifacts.

A difference is explained only by a behaviour listed in BEHAVIOURS: a change
between sdk v1.5.10 and the v1.5.11 proctor follows, or a limit of the driver.
Each behaviour says how to recognise it in the scenario, so a new scenario
that meets it is explained by the same entry; a listed behaviour that
explains nothing in a full run is stale.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from .runtime import PROMPTKIT, ROOT, Comparison, Tools, run

SCENARIOS = ROOT / "scenarios"
MODEL = "proctor-scripted"  # the model the host names; proctor's journal uses the same


def opens_a_pack(path: Path) -> bool:
    try:
        doc = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError):
        return False
    return isinstance(doc, dict) and doc.get("runtime") == "promptkit" and bool(doc.get("pack"))


def scenario_files() -> list[Path]:
    return [p for p in sorted(SCENARIOS.rglob("*.yaml")) if "snapshots" not in p.parts and opens_a_pack(p)]


# ---------------------------------------------------------------- normalising


def canonical(value):
    """JSON with ids made positional and `required` lists sorted."""
    if isinstance(value, dict):
        return {k: sorted(v) if k == "required" and isinstance(v, list) else canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def normalise_ids(bodies: list[dict]) -> list[dict]:
    """Tool call ids are the provider's (the mock's, the same both sides) but
    numbered per side: each distinct id becomes call-N in order of appearance."""
    names: dict[str, str] = {}

    def walk(v):
        if isinstance(v, dict):
            out = {}
            for k, x in v.items():
                if k in ("id", "tool_call_id") and isinstance(x, str) and x.startswith("call_"):
                    out[k] = names.setdefault(x, f"call-{len(names) + 1}")
                else:
                    out[k] = walk(x)
            return out
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v

    return [canonical(walk(b)) for b in bodies]


def journal_bodies(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line)["body"] for line in path.read_text().splitlines() if line.strip()]


# ---------------------------------------------------------------- the two sides


@dataclass
class Side:
    journal: list[dict]
    outcome: dict
    workflow: dict | None
    raw: str  # what to show when it went wrong


def real_side(tools: Tools, scenario: Path, doc: dict) -> Side:
    """The scenario through the SDK, against the mock provider."""
    work = tools.tmp(f"sdk-{scenario.stem}")
    work.mkdir(parents=True)
    journal = work / "journal.jsonl"
    provider = subprocess.Popen(
        [tools.proctor, "mock-provider", "--scenario", str(scenario), "--journal", str(journal)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True,
    )
    try:
        base_url = provider.stdout.readline().strip()
        if not base_url.startswith("http"):
            return Side([], {}, None, f"the mock provider did not start: {provider.stderr.read()[-500:]}")
        here = scenario.parent
        pack = pack_as_json(here / doc["pack"], work)
        config = (here / doc["runtime_config"]).resolve() if doc.get("runtime_config") else None
        spec = {
            "pack": str(pack),
            "prompt": doc.get("prompt") or "",
            "variables": {k: str(v) for k, v in (doc.get("variables") or {}).items()},
            "runtime_config": str(config) if config else "",
            "base_url": base_url,
            "model": MODEL,
            "tools": doc.get("tools") or {},
            "turns": [t["user"] for t in doc.get("turns", []) if "user" in t],
        }
        (work / "spec.json").write_text(json.dumps(spec))
        # A RuntimeConfig's commands resolve against the host's working directory:
        # its own folder, as proctor starts them.
        cwd = config.parent if config else ROOT
        out = subprocess.run(
            [tools.promptkit_sdk, "--spec", str(work / "spec.json")],
            capture_output=True, encoding="utf-8", errors="replace", timeout=300, stdin=subprocess.DEVNULL, cwd=cwd,
        )
    finally:
        provider.stdin.close()
        try:
            provider.wait(timeout=10)
        except subprocess.TimeoutExpired:
            provider.kill()
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    raw = out.stdout[-1500:] + out.stderr[-800:]
    if out.returncode != 0:
        return Side(journal_bodies(journal), {}, None, f"driver exit {out.returncode}: {raw}")
    return Side(journal_bodies(journal), real_outcome(lines), real_workflow(lines), raw)


def real_outcome(lines: list[dict]) -> dict:
    if lines and "open_error" in lines[0]:
        return {"outcome": "error", "error": lines[0]["open_error"], "final_text": None, "tool_results": []}
    errors = [t["error"] for t in lines if t.get("error")]
    replies = [t["reply"] for t in lines if t.get("reply") is not None]
    results = [{"tool": r["tool"], "content": r["content"], "is_error": r["is_error"]} for t in lines for r in t.get("tool_results", [])]
    return {
        "outcome": "error" if errors else "completed",
        "error": errors[-1] if errors else None,
        "final_text": replies[-1] if replies and not errors else None,
        "tool_results": results,
    }


def real_workflow(lines: list[dict]) -> dict | None:
    flows = [t["workflow"] for t in lines if t.get("workflow")]
    return flows[-1] if flows else None


def proctor_side(tools: Tools, scenario: Path) -> Side:
    work = tools.tmp(f"proctor-{scenario.stem}")
    work.mkdir(parents=True)
    out = run([tools.proctor, "run", str(scenario), "--profile", PROMPTKIT, "--record-dir", str(work), "--format", "json", "--no-progress"], timeout=300)
    try:
        report = json.loads(out.stdout)["scenarios"][0]
    except (json.JSONDecodeError, KeyError, IndexError):
        return Side([], {}, None, f"proctor exit {out.returncode}: {out.stderr[-800:]}")
    summary = report.get("summary") or {}
    errors = report.get("runtime_errors") or []
    outcome = {
        "outcome": summary.get("outcome"),
        "error": errors[-1] if errors else None,
        "final_text": summary.get("final_text") if summary.get("outcome") != "error" else None,
        "tool_results": [{"tool": r["tool"], "content": r["content"], "is_error": r["is_error"]} for r in summary.get("tool_results", [])],
    }
    flow = summary.get("workflow")
    if flow is not None:
        flow = {"state": flow.get("state"), "status": flow.get("status"), "path": flow.get("path"), "artifacts": flow.get("artifacts") or {}}
    return Side(journal_bodies(work / "llm.journal.jsonl"), outcome, flow, json.dumps(report)[-1500:])


def pack_as_json(pack: Path, work: Path) -> Path:
    """The SDK reads JSON packs only; a YAML pack is compiled to JSON beside
    the scenario's work, as a host's build (packc) would."""
    pack = pack.resolve()
    if pack.suffix == ".json":
        return pack
    target = work / (pack.stem + ".json")
    target.write_text(json.dumps(yaml.safe_load(pack.read_text())))
    return target


# ---------------------------------------------------------------- behaviours


@dataclass
class Behaviour:
    """A known reason the SDK and proctor part ways, recognised in the scenario."""

    id: str
    why: str
    applies: Callable[[dict], bool]
    parts: tuple[str, ...]  # which comparisons it may explain


BEHAVIOURS: list[Behaviour] = []


# ---------------------------------------------------------------- the comparison


def first_difference(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"request {i + 1}: PromptKit {json.dumps(x)[:900]}\n          proctor   {json.dumps(y)[:900]}"
    return f"PromptKit sent {len(a)} request(s), proctor {len(b)}"


def compare(tools: Tools, scenario: Path) -> list[Comparison]:
    doc = yaml.safe_load(scenario.read_text())
    sid = doc.get("id") or str(scenario.relative_to(ROOT))
    real = real_side(tools, scenario, doc)
    sim = proctor_side(tools, scenario)
    found = []
    a, b = normalise_ids(real.journal), normalise_ids(sim.journal)
    found.append(("journal", a == b and bool(a), first_difference(a, b) if a != b else "", doc))
    found.append(("outcome", real.outcome == sim.outcome and bool(real.outcome), f"PromptKit {json.dumps(real.outcome)[:900]}\n          proctor   {json.dumps(sim.outcome)[:900]}", doc))
    found.append(("workflow", real.workflow == sim.workflow, f"PromptKit {json.dumps(real.workflow)}\n          proctor   {json.dumps(sim.workflow)}", doc))
    out = []
    for part, equal, detail, _ in found:
        if not real.outcome and part == "outcome":
            detail += f"\n          driver: {real.raw}"
        out.append(Comparison("sdk", f"{sid} {part}", equal, detail))
    return out


def sdk(tools: Tools, pool, files: list[Path] | None = None) -> list[Comparison]:
    files = files if files is not None else scenario_files()
    return [c for group in pool.map(lambda p: compare(tools, p), files) for c in group]
