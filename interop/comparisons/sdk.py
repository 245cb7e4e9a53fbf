"""sdk: every scenario that opens a pack, through proctor and through the real PromptKit SDK.

The driver `promptkit-sdk` (interop/promptkit-sdk: sdk v1.5.10 on runtime
v1.5.11) opens the pack as the scenario's host does (`prompt:` is sdk.Open, a
workflow is sdk.OpenWorkflow, agents are sdk.OpenMultiAgent), with the
scenario's variables, its RuntimeConfig with the scenario's exec tool and hook
`plugins:` bound in it, and its `tools:` bound as OnTool handlers, and sends
the turns against `proctor mock-provider` serving the scenario's `llm:`
script. proctor plays the same scenario under its PromptKit profile (a hook's
denial, proctor's outcome `denied`, is the error Send returns). Compared:

  journal   the provider requests, in order, as the mock provider journals them
            (JSON text, keys in the order sent), once tool call ids are numbered
            and `required` lists sorted (PromptKit builds them in Go's map order);
            PromptKit's own prose (the descriptions of its workflow, skill and
            agent tools) is compared by presence, not by its words;
  outcome   how the run ended (completed or error), the error's text, the final
            reply and every tool result the model was sent;
  workflow  the final state, status, path and artifacts.

A difference is explained only by a behaviour listed in BEHAVIOURS: a change
between sdk v1.5.10 and the v1.5.11 proctor follows, or a limit of the driver.
Each behaviour checks the evidence (the first request where the journals
part is what it makes of it), so a new scenario that meets it is explained by
the same entry; a listed behaviour that explains nothing in a full run is
stale. What the driver cannot play (turns other than user messages, eval and
selector plugins outside the pack, a scenario's own guardrails) is said as a
driver limit, never hidden.
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
from .tools import canonical  # `required` lists sorted: PromptKit builds them in Go's map order

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


# The tools PromptKit defines itself: their prose is PromptKit's, which proctor
# does not copy, so their descriptions are compared by presence.
OWN_TOOLS = ("workflow__", "skill__", "a2a__")
OWN_PROSE = ("workflow__", "skill__")  # an a2a tool's own description is the pack member's


def present(value) -> str:
    return "<description>" if isinstance(value, str) and value else repr(value)


def prose_by_presence(tool: dict) -> dict:
    function = tool.get("function")
    name = function.get("name", "") if isinstance(function, dict) else ""
    if not name.startswith(OWN_TOOLS):
        return tool
    function = dict(function)
    if name.startswith(OWN_PROSE) and "description" in function:
        function["description"] = present(function["description"])
    params = function.get("parameters")
    if isinstance(params, dict) and isinstance(params.get("properties"), dict):
        props = {k: ({**v, "description": present(v["description"])} if isinstance(v, dict) and "description" in v else v) for k, v in params["properties"].items()}
        function["parameters"] = {**params, "properties": props}
    return {**tool, "function": function}


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

    out = []
    for b in bodies:
        b = canonical(walk(b))
        if isinstance(b.get("tools"), list):
            b["tools"] = [prose_by_presence(t) for t in b["tools"]]
        out.append(b)
    return out


def journal_bodies(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line)["body"] for line in path.read_text().splitlines() if line.strip()]


# ---------------------------------------------------------------- the two sides


class ScenarioError(Exception):
    """A scenario proctor refuses to run: nothing to compare, and the author has something to fix."""


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
        bound = runtime_config_for(tools, doc, config, work)
        spec = {
            "pack": str(pack),
            "prompt": doc.get("prompt") or "",
            "variables": {k: str(v) for k, v in (doc.get("variables") or {}).items()},
            "runtime_config": str(bound) if bound else "",
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


# What the SDK says when the pack fails PromptKit's embedded schema.
SCHEMA_REFUSAL = re.compile(r"pack schema validation failed with (\d+) errors?")
# The mock provider's answer to a request the script does not cover, inside the SDK's error.
SCRIPT_MISS = re.compile(r'\{"error":\{"message":(".*?(?<!\\)"),.*"code":"script_miss"')


# The mock provider's address in the SDK's words for a failed request; proctor runs no server.
ADDRESS = re.compile(r"API request to \S+ failed")


def unaddressed(error: str | None) -> str | None:
    return ADDRESS.sub("API request to <provider> failed", error) if error else error


def stopped(kind: str, error: str) -> dict:
    """A run that did not get to play out: the scenario's script missed a request, or the pack was refused."""
    return {"outcome": kind, "error": error, "final_text": None, "tool_results": []}


def real_outcome(lines: list[dict]) -> dict:
    if lines and "open_error" in lines[0]:
        refused = SCHEMA_REFUSAL.search(lines[0]["open_error"])
        if refused:
            return stopped("refused by the pack schema", f"{refused.group(1)} violation(s)")
        return {"outcome": "error", "error": lines[0]["open_error"], "final_text": None, "tool_results": []}
    for t in lines:
        miss = SCRIPT_MISS.search(t.get("error") or "")
        if miss:
            return stopped("script miss", json.loads(miss.group(1)))
    errors = [unaddressed(t["error"]) for t in lines if t.get("error")]
    replies = [t["reply"] for t in lines if t.get("reply") is not None]
    results = [{"tool": r["tool"], "content": r["content"], "is_error": r["is_error"]} for t in lines for r in t.get("tool_results", [])]
    turns = ["error" if t.get("error") else "completed" for t in lines]
    last = turns[-1] if turns else None
    return {
        "outcome": last,
        "turns": turns,
        "errors": errors,
        "error": errors[-1] if errors else None,
        "final_text": replies[-1] if replies and last == "completed" else None,
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
    journal = journal_bodies(work / "llm.journal.jsonl")
    summary = report.get("summary") or {}
    errors = report.get("runtime_errors") or []
    schema = sum(p.count("[PACK-PROMPTKIT-SCHEMA]") for p in report.get("problems") or [])
    if report.get("status") == "error" and schema:
        return Side(journal, stopped("refused by the pack schema", f"{schema} violation(s)"), None, "")
    if report.get("status") == "error":
        # The scenario itself cannot be used (a missing pack, a bad field): its author's mistake,
        # with proctor's words and location, not a difference between runtimes.
        raise ScenarioError(f"{scenario}: " + "\n".join(report.get("problems") or ["proctor could not use it"]))
    if summary.get("outcome") is None and errors and errors[-1].startswith("LLM call "):
        return Side(journal, stopped("script miss", errors[-1]), None, "")
    # A hook's denial is what Send returns as its error to the host: proctor calls that outcome `denied`.
    as_sent = lambda outcome: "error" if outcome == "denied" else outcome  # noqa: E731
    ended = as_sent(summary.get("outcome"))
    turns = [as_sent(e.split(".", 1)[1]) for e in summary.get("events") or [] if e.startswith("turn.")]
    outcome = {
        "outcome": ended,
        "turns": turns,
        "errors": errors,
        "error": errors[-1] if errors else None,
        "final_text": summary.get("final_text") if ended != "error" else None,
        "tool_results": [{"tool": r["tool"], "content": r["content"], "is_error": r["is_error"]} for r in summary.get("tool_results", [])],
    }
    flow = summary.get("workflow")
    if flow is not None:
        flow = {"state": flow.get("state"), "status": flow.get("status"), "path": flow.get("path"), "artifacts": flow.get("artifacts") or {}}
    return Side(journal, outcome, flow, json.dumps(report)[-1500:])


# How PromptKit's RuntimeConfig names each hook kind, and the roles proctor's mock plays for them.
HOOK_ROLES = {"provider": "provider-hook", "tool": "tool-hook", "session": "session-hook", "eval": "eval-hook"}


def plugin_command(tools: Tools, plugin: dict, family: str, role: str) -> list[str]:
    """The plugin's argv as proctor starts it, with paths made absolute (the SDK
    starts it from the RuntimeConfig's folder; a scenario's paths are the repository's)."""
    process = plugin.get("process") or {}
    if "mock" in process:
        mock = process["mock"] or {}
        argv = [tools.proctor, "mock-plugin", "--protocol", family, "--role", role]
        if mock.get("decision"):
            argv += ["--decision", mock["decision"]]
        for fault in mock.get("faults") or []:
            argv += ["--fault", fault]
        if mock.get("crash_after") is not None:
            argv += ["--crash-after", str(mock["crash_after"])]
        return argv
    return [str(ROOT / a) if (ROOT / a).exists() and not os.path.isabs(a) else a for a in process.get("command") or []]


def runtime_config_for(tools: Tools, doc: dict, config: Path | None, work: Path) -> Path | None:
    """The RuntimeConfig the host opens the pack with: the scenario's own, with the
    scenario's `plugins:` bound in it as PromptKit binds them (exec tools, hooks).
    Eval and selector plugins outside the pack are not bound: the SDK takes evals
    from the pack and selectors by the pack's names (the comparison says so)."""
    plugins = doc.get("plugins") or []
    if not plugins:
        return config
    base = yaml.safe_load(config.read_text()) if config else {"apiVersion": "promptkit.altairalabs.ai/v1alpha1", "kind": "RuntimeConfig", "spec": {}}
    spec = base.setdefault("spec", {})
    for plugin in plugins:
        cfg = plugin.get("config") or {}
        name = plugin.get("name")
        if "promptkit_tool" in cfg:
            t = cfg["promptkit_tool"] or {}
            server = t.get("runtime") == "server"
            argv = plugin_command(tools, plugin, "promptkit-server" if server else "promptkit-exec", "tool")
            exec_ = {"command": argv[0], "args": argv[1:], **({"runtime": "server"} if server else {})}
            if t.get("timeout_ms") is not None:
                exec_["timeout_ms"] = t["timeout_ms"]
            spec.setdefault("tools", {})[name] = {"exec": exec_}
        elif "promptkit_hook" in cfg:
            h = cfg["promptkit_hook"] or {}
            argv = plugin_command(tools, plugin, "promptkit-exec", HOOK_ROLES.get(h.get("hook"), "eval-hook"))
            hook = {"command": argv[0], "args": argv[1:], "hook": h.get("hook"), "phases": h.get("phases") or []}
            for key in ("mode", "timeout_ms"):
                if h.get(key) is not None:
                    hook[key] = h[key]
            spec.setdefault("hooks", {})[name] = hook
    target = work / "runtime.yaml"
    target.write_text(yaml.safe_dump(base, sort_keys=False))
    return target


def driver_limits(doc: dict) -> list[str]:
    """What of the scenario the driver cannot give the SDK."""
    limits = []
    if any("user" not in t for t in doc.get("turns", [])):
        limits.append("turns other than user messages (resolve, reject) are not sent")
    kinds = {k for p in doc.get("plugins") or [] for k in (p.get("config") or {})}
    if kinds & {"promptkit_eval", "promptkit_selector"}:
        limits.append("eval and selector plugins outside the pack are not bound")
    if doc.get("guardrails"):
        limits.append("the scenario's own guardrails are not the pack's validators")
    return limits


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


def system_of(body: dict) -> str | None:
    return next((m.get("content") for m in body.get("messages", []) if m.get("role") == "system"), None)


@dataclass
class Divergence:
    """Where the two journals part: request `at` (0-based) is the first that differs."""

    tools: Tools
    scenario: Path
    doc: dict
    real: list[dict]
    sim: list[dict]
    sim_outcome: dict

    @property
    def at(self) -> int:
        return next((i for i, (x, y) in enumerate(zip(self.real, self.sim)) if x != y), min(len(self.real), len(self.sim)))


def asked_again_in_the_old_state(d: Divergence) -> bool:
    """The SDK's request after a scheduled transition still carries the old state's prompt,
    where proctor's has moved on (or proctor's turn ended at the hand-off)."""
    i = d.at
    if i == 0 or i >= len(d.real):
        return False
    last = d.real[i]["messages"][-1]
    scheduled = last.get("role") == "tool" and last.get("name") == "workflow__transition" and "transition_scheduled" in str(last.get("content"))
    stayed = system_of(d.real[i]) == system_of(d.real[i - 1])
    moved = i >= len(d.sim) or system_of(d.sim[i]) != system_of(d.real[i])
    return scheduled and stayed and moved


def rendered_once_with_the_host_values(d: Divergence) -> bool:
    """The SDK's prompt at the first difference is a state's prompt rendered with the host's
    variables, where proctor re-rendered it without them (a different prompt, nothing else
    different) or failed the turn for a host variable it dropped."""
    i = d.at
    if i >= len(d.real):
        return False
    if i < len(d.sim):
        rest = lambda b: {**b, "messages": [m for m in b["messages"] if m.get("role") != "system"]}  # noqa: E731
        if rest(d.real[i]) != rest(d.sim[i]):
            return False
    elif "missing required variables" not in str(d.sim_outcome.get("error")):
        return False
    pack = (d.scenario.parent / d.doc["pack"]).resolve()
    states = (yaml.safe_load(pack.read_text()).get("workflow") or {}).get("states", {})
    values = [a for k, v in (d.doc.get("variables") or {}).items() for a in ("--var", f"{k}={v}")]
    for state in states:
        out = run([d.tools.proctor, "pack", "render", str(pack), "--state", state, "--profile", "documented", "--format", "json", *values], timeout=60)
        try:
            if json.loads(out.stdout)["renders"][0].get("system_prompt") == system_of(d.real[i]):
                return True
        except (json.JSONDecodeError, KeyError, IndexError):
            continue
    return False


@dataclass
class Behaviour:
    """A known reason the SDK and proctor part ways. `shows` checks the evidence: the first
    request where the journals part is what this behaviour makes of it. The run's outcome and
    workflow differences that follow from that request are explained with it."""

    id: str
    why: str
    shows: Callable[[Divergence], bool]


# sdk v1.5.10 installs no workflow state resolver (it has no workflow_state_resolver.go, and never
# calls ProviderStage.SetWorkflowStateResolver, runtime/pipeline/stage/stages_provider.go:65-70);
# v1.5.11's SDK does (PromptKit #1747), and proctor's promptkit@86d9f36 follows v1.5.11.
SKEW = "sdk v1.5.10 (the newest the module proxy serves) has no workflow state resolver; v1.5.11 has it (PromptKit #1747) and proctor follows v1.5.11"
BEHAVIOURS: list[Behaviour] = [
    Behaviour(
        "sdk-1.5.10-transition-after-send",
        f"{SKEW}: without it a scheduled transition commits only when Send returns, so the model is asked once more in the old state, with its prompt and tools; v1.5.11 hands off to the new state mid-turn",
        asked_again_in_the_old_state,
    ),
    Behaviour(
        "sdk-1.5.10-state-prompt-rendered-once",
        f"{SKEW}: without it a state's prompt is rendered once, when its conversation opens, with the host's variables; v1.5.11 renders it again before every round with the artifacts and workflow_context only",
        rendered_once_with_the_host_values,
    ),
]


# ---------------------------------------------------------------- the comparison


def first_difference(a: list, b: list) -> str:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"request {i + 1}: PromptKit {json.dumps(x)[:900]}\n          proctor   {json.dumps(y)[:900]}"
    return f"PromptKit sent {len(a)} request(s), proctor {len(b)}"


def sent_tool_results(journal: list[dict]) -> list[dict]:
    """Every tool result the model was sent, once each, in the order first sent."""
    seen, out = set(), []
    for body in journal:
        for m in body.get("messages", []):
            key = (m.get("tool_call_id"), m.get("content"))
            if m.get("role") == "tool" and key not in seen:
                seen.add(key)
                out.append({"tool": m.get("name"), "content": m.get("content")})
    return out


@dataclass
class Compared:
    """One part of one scenario: equal, explained by a behaviour, or neither."""

    comparison: Comparison
    behaviour: Behaviour | None = None


def compare(tools: Tools, scenario: Path) -> list[Compared]:
    doc = yaml.safe_load(scenario.read_text())
    sid = doc.get("id") or str(scenario.relative_to(ROOT))
    real = real_side(tools, scenario, doc)
    sim = proctor_side(tools, scenario)
    a, b = normalise_ids(real.journal), normalise_ids(sim.journal)
    if "error" in real.outcome.get("turns", []):
        # A failed Send leaves nothing in the SDK's history, where the driver reads tool results:
        # both sides are then read from what the model was sent.
        real.outcome["tool_results"], sim.outcome["tool_results"] = sent_tool_results(a), sent_tool_results(b)
    parts = [
        ("journal", json.dumps(a) == json.dumps(b), first_difference(a, b) if a != b else "equal as JSON, but the keys go out in another order"),
        ("outcome", real.outcome == sim.outcome and bool(real.outcome), f"PromptKit {json.dumps(real.outcome)[:900]}\n          proctor   {json.dumps(sim.outcome)[:900]}"),
        ("workflow", real.workflow == sim.workflow, f"PromptKit {json.dumps(real.workflow)}\n          proctor   {json.dumps(sim.workflow)}"),
    ]
    if not real.outcome:
        parts[1] = ("outcome", False, parts[1][2] + f"\n          driver: {real.raw}")
    # A behaviour explains the journals' first difference; what follows from it is explained too.
    behaviour = None
    if json.dumps(a) != json.dumps(b):
        divergence = Divergence(tools, scenario, doc, a, b, sim.outcome)
        behaviour = next((x for x in BEHAVIOURS if x.shows(divergence)), None)
    limits = driver_limits(doc)
    if behaviour is None and limits:
        # Not a behaviour of PromptKit's: what the driver could not give it. Never stale.
        behaviour = Behaviour("driver-limit", "the driver cannot play all of this scenario: " + "; ".join(limits), lambda _: True)
    return [Compared(Comparison("sdk", f"{sid} {part}", equal, detail), None if equal else behaviour) for part, equal, detail in parts]


def sdk(tools: Tools, pool, files: list[Path] | None = None) -> list[Compared]:
    files = files if files is not None else scenario_files()
    return [c for group in pool.map(lambda p: compare(tools, p), files) for c in group]
