"""agents: generated command hooks, each run through the real Claude Code and
Codex CLI (interop/agents/agent_host.py, headless and offline against
`proctor mock-provider`) and through `proctor certify` under that agent's
profile, verdict against outcome.

The rule is the differential comparison's: proctor's verdict is "conformant"
if and only if the agent did what the hook meant (the genome knows its
intent) with no hook error. A hook is drawn as an event, an intent (go on,
block with a reason, allow, add context), the channel it uses (a JSON
decision, hookSpecificOutput, exit 2 with stderr, plain text ...) and a few
genes that may or may not break it (a banner before the JSON, the reason on
stdout after exit 2, no hookEventName, an echoed payload key, exit 1 ...).
The hook is a small sh script that writes fixed bytes, so both sides see
exactly the same answer.
"""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .runtime import ROOT, Comparison

AGENTS_DIR = ROOT / "interop" / "agents"
AGENT_HOST = AGENTS_DIR / "agent_host.py"
PROFILES = {"claude-code": "claude-code@2.1.332", "codex": "codex@0.171.0"}
FAMILIES = {"claude-code": "claude-code-hook", "codex": "codex-hook"}
AGENTS = ("claude-code", "codex")  # each hook goes through both, in this order
INTENTS = {
    "PreToolUse": ["proceed", "block", "block", "allow", "context"],
    "PostToolUse": ["proceed", "block", "context"],
    "UserPromptSubmit": ["proceed", "block"],
    "Stop": ["proceed", "block"],
    "SessionStart": ["proceed"],
}
REASON = "R-no-shell-today"
CONTEXT = "C-remember-the-style-guide"
# Genes that change the bytes; some break the hook in one agent, some in both, some in neither.
GENES = ["banner", "trailer", "no-event-name", "wrong-event-name", "echo-key", "key-case", "empty-reason", "reason-to-stdout",
         "exit1", "bom", "pretty", "crlf", "stderr-noise", "two-docs", "number-reason", "misplaced", "lone-surrogate"]


# What a hook may lean on in the world the agent runs it in (interop/agents/world_gate.py):
# the agent's variables, its folder, the transcript, state kept per session.
WORLDS = ["project-dir", "cwd", "transcript", "session"]
WORLD_GATE = AGENTS_DIR / "world_gate.py"


@dataclass
class Hook:
    event: str
    intent: str
    channel: str
    genes: list[str] = field(default_factory=list)
    world: str = ""  # one of WORLDS, or nothing to lean on

    @property
    def name(self) -> str:
        return f"{self.event}/{self.intent}/{self.channel}" + "".join(f"+{g}" for g in self.genes) + (f"+world:{self.world}" if self.world else "")

    def answer(self) -> tuple[bytes, bytes, int]:
        """The hook's stdout, stderr and exit status."""
        reason = "" if "empty-reason" in self.genes else REASON
        # A lone surrogate after the reason (JSON only): JSON.parse keeps it, serde_json refuses the document.
        lone = "\ud800" if "lone-surrogate" in self.genes and reason else ""
        reason_value: object = 5 if "number-reason" in self.genes else reason + lone
        doc: dict | None = None
        stdout, stderr, code = "", "", 0
        specific_name = "PostToolUse" if "wrong-event-name" in self.genes and self.event != "PostToolUse" else self.event
        if self.intent == "block" and self.channel == "exit2":
            stderr, code = reason + "\n", 2
            if "reason-to-stdout" in self.genes:
                stdout, stderr = reason + "\n", ""
        elif self.intent == "block" and self.channel == "deny":
            doc = {"hookSpecificOutput": {"hookEventName": specific_name, "permissionDecision": "deny", "permissionDecisionReason": reason_value}}
        elif self.intent == "block":
            doc = {"decision": "block", "reason": reason_value}
        elif self.intent == "allow":
            doc = {"decision": "approve"} if self.channel == "approve" else {
                "hookSpecificOutput": {"hookEventName": specific_name, "permissionDecision": "allow"}}
        elif self.intent == "context":
            doc = {"hookSpecificOutput": {"hookEventName": specific_name, "additionalContext": CONTEXT}}
            if "misplaced" in self.genes:
                doc = {"additionalContext": CONTEXT}
        elif self.channel == "plain":
            stdout = "checked.\n"
        elif self.channel == "empty-json":
            doc = {}
        elif self.channel == "continue":
            doc = {"continue": True}
        elif self.channel == "system-message":
            doc = {"systemMessage": "hook ran"}
        if doc is not None:
            if "no-event-name" in self.genes and "hookSpecificOutput" in doc:
                doc["hookSpecificOutput"].pop("hookEventName", None)
            if "echo-key" in self.genes:
                doc["hook_event_name"] = self.event
            if "key-case" in self.genes and "decision" in doc:
                doc["Decision"] = doc.pop("decision")
            text = json.dumps(doc, indent=2 if "pretty" in self.genes else None)
            stdout = text + ("\r\n" if "crlf" in self.genes else "\n")
            if "two-docs" in self.genes:
                stdout += text + "\n"
        if "banner" in self.genes:
            stdout = "gate v1 starting\n" + stdout
        if "trailer" in self.genes and stdout:
            stdout += "done.\n"
        if "bom" in self.genes:
            stdout = "\ufeff" + stdout
        if "stderr-noise" in self.genes and code == 0:
            stderr += "debug: checked the call\n"
        if "exit1" in self.genes:
            code = 1
            stderr = stderr or "Traceback: KeyError: 'tool_response'\n"
        return stdout.encode(), stderr.encode(), code

    def decision(self) -> str:
        return {"block": "block", "allow": "allow"}.get(self.intent, "proceed")


def draw(rng: random.Random, world: random.Random | None = None) -> Hook:
    """A hook; `world` (a stream of its own, so a seed drawn before the world genes
    existed draws the same hook) decides what in the world it leans on."""
    event = rng.choice(list(INTENTS))
    intent = rng.choice(INTENTS[event])
    channel = {
        "block": rng.choice(["json", "exit2"] + (["deny"] if event == "PreToolUse" else [])),
        "allow": rng.choice(["hso", "approve"]),
        "context": "hso",
        # Not `systemMessage`: what it shows the user is not seen headless, so a lost one cannot be told.
        "proceed": rng.choice(["silent", "empty-json", "plain", "continue"]),
    }[intent]
    genes = rng.sample(GENES, k=rng.choice([0, 0, 1, 1, 2]))
    leans = world.choice(WORLDS) if world is not None and world.random() < 0.35 else ""
    return Hook(event, intent, channel, sorted(genes), leans)


# The event's fields as agent_host's scripted conversation makes the agent send them, so that a
# case asks the hook about the same call the agent asked it about.
_CALL = {"tool_name": "Bash", "tool_input": {"command": "touch /tmp/proctor-agent/TOOL_RAN; ls", "description": "List files"}}
SCENARIO_FIELDS = {
    "PreToolUse": _CALL,
    "PostToolUse": {**_CALL, "tool_response": {"stdout": "a.txt", "stderr": ""}},
    "UserPromptSubmit": {"prompt": "list the files"},
    "Stop": {"stop_hook_active": False, "last_assistant_message": "All done."},
    "SessionStart": {"source": "startup"},
}


def cases_file(path: Path, name: str, event: str, decision: str) -> None:
    path.write_text(json.dumps({"cases": [{"name": name, "request": SCENARIO_FIELDS[event], "expect": {"decision": decision}}]}))


def write_hook(work: Path, hook: Hook) -> Path:
    work.mkdir(parents=True, exist_ok=True)
    out, err, code = hook.answer()
    (work / "stdout.bin").write_bytes(out)
    (work / "stderr.bin").write_bytes(err)
    script = work / "hook.sh"
    answer = f'cat "{work}/stdout.bin"\ncat "{work}/stderr.bin" >&2\nexit {code}\n'
    if not hook.world:
        script.write_text("cat >/dev/null\n" + answer)
    else:
        # The answer only where what the hook leans on is there (exit 3: a session seen before, say nothing).
        script.write_text(
            f'payload=$(mktemp "{work}/payload.XXXXXX"); cat > "$payload"\n'
            f'python3 "{WORLD_GATE}" {hook.world} "$payload" "{work}/state"; rc=$?\n'
            'rm -f "$payload"\n[ $rc -eq 3 ] && exit 0\n[ $rc -eq 0 ] || exit 1\n' + answer
        )
    cases_file(work / "cases.yaml", hook.name, hook.event, hook.decision())
    (work / "hook.json").write_text(json.dumps(hook.__dict__))
    return script


def errored(agent: str, runs: list[dict]) -> bool:
    """A hook run the agent calls a failure (Claude Code: error that is not a blocking exit 2)."""
    if agent == "claude-code":
        return any(r.get("status") in ("error", "cancelled") and r.get("exit_code") != 2 for r in runs)
    return any(r.get("status") == "Failed" for r in runs)


def reached(agent: str, hook: Hook, seen: dict, text: str | None = None) -> tuple[bool, str]:
    """Whether the agent did what the hook meant (its reason or context `text` reaching the
    model where the intent has one), and what it did instead."""
    runs = [r for r in seen.get("hooks", []) if r.get("event") == hook.event]
    said = text if text is not None else (CONTEXT if hook.intent == "context" else REASON)
    result = (seen.get("tool_result") or {}).get("text") or ""
    context = " ".join(seen.get("context") or [])
    ran, requests = seen.get("tool_ran"), seen.get("requests", 0)
    # A hook the agent reports as an error did not do what it meant, even where the agent
    # still acted on it (Claude Code blocks on a JSON decision after exit 1, and says "hook error").
    if errored(agent, runs):
        return False, f"hook error ({runs})"
    e, i = hook.event, hook.intent
    if i == "block":
        ok = {
            "PreToolUse": not ran and said in result,
            "PostToolUse": (said in context) if agent == "claude-code" else result.strip() == said,
            # Codex shows a blocked prompt's reason to no one; Claude Code prints it.
            "UserPromptSubmit": requests == 0 and (agent == "codex" or said in (seen.get("stdout") or "")),
            "Stop": requests > 2 and said in (seen.get("last_request") or ""),
        }[e]
    elif i == "context":
        # After a tool call the agent adds it beside the result; for a prompt, in the conversation.
        ok = ran and (said in context or said in (seen.get("last_request") or ""))
    elif i == "allow":
        # Codex takes an allow only to rewrite the call (with updatedInput, not drawn here) and
        # refuses one without; `codex exec` asks for no permission, so nothing else can be seen.
        ok = bool(ran) and agent == "claude-code"
    else:
        ok = {
            "PreToolUse": ran, "SessionStart": ran,
            "PostToolUse": ran and "a.txt" in result and said not in context,
            "UserPromptSubmit": requests >= 2, "Stop": requests == 2,
        }[e]
    return bool(ok), "as meant" if ok else f"tool_ran={ran} requests={requests} result={result[:80]!r} context={context[:80]!r}"


def run_agent(proctor: str, agent: str, hook: Hook, script: Path) -> dict:
    # An allow is seen only where the tool would not run without it: headless, Claude Code
    # refuses a Bash call nobody approved (Codex's exec mode asks nobody, see reached()).
    ask = ["--not-preapproved"] if agent == "claude-code" and hook.intent == "allow" else []
    out = subprocess.run([sys.executable, str(AGENT_HOST), "--agent", agent, "--event", hook.event, "--timeout-s", "5", "--proctor", proctor, *ask,
                          "--", "sh", str(script)], capture_output=True, text=True, timeout=240)
    try:
        return json.loads(out.stdout)
    except json.JSONDecodeError:
        return {"error": out.stderr[-400:] or "agent_host printed nothing"}


def certify(proctor: str, agent: str, hook: Hook, script: Path) -> tuple[bool, list[str]]:
    cmd = [proctor, "certify", "--no-progress", "--jobs", "1", "--format", "json", "--protocol", FAMILIES[agent], "--role", hook.event,
           "--profile", PROFILES[agent], "--timeout-ms", "4000", "--cases", str(script.parent / "cases.yaml"), "--", "sh", str(script)]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        return False, [f"certify printed no report (exit {out.returncode}): {out.stderr[-300:]}"]
    failed = [c["id"] + (f" ({c['case']})" if c.get("case") else "") for c in report.get("checks", []) if c.get("status") == "fail"]
    return report.get("verdict") == "conformant", failed


def compare_written(proctor: str, agent: str, entry: dict, work: Path) -> Comparison:
    """A hand-written hook (interop/agents/heldout/manifest.json) through the agent and certify."""
    hook = Hook(entry["event"], entry["intent"], "written")
    work.mkdir(parents=True, exist_ok=True)
    script = work / "hook.sh"
    argv = [str(ROOT / a) if (ROOT / a).exists() else a for a in entry["command"]]
    script.write_text(" ".join(shlex.quote(a) for a in argv) + "\n")
    cases_file(work / "cases.yaml", entry["file"], hook.event, hook.decision())
    label = f"{agent}: held-out {entry['file']}"
    return judged(proctor, agent, hook, script, label, entry.get("reason_or_context"), f"; planted bug: {entry['bug']}")


def heldout(proctor: str, pool, manifest: Path, work: Path, picked: set[str] | None = None) -> list[Comparison]:
    """Every hand-written hook of `manifest`, through both agents; `picked`
    names the files to run (a slice of a sharded run), None all."""
    entries = json.loads(manifest.read_text())
    jobs = [(agent, e) for e in entries if picked is None or e["file"] in picked for agent in AGENTS]
    return list(pool.map(lambda j: compare_written(proctor, j[0], j[1], work / f"heldout-{j[1]['file']}-{j[0]}"), jobs))


def compare(proctor: str, agent: str, hook: Hook, work: Path) -> Comparison:
    """A generated hook through the agent and certify."""
    return judged(proctor, agent, hook, write_hook(work, hook), f"{agent}: {hook.name}")


def judged(proctor: str, agent: str, hook: Hook, script: Path, label: str, text: str | None = None, note: str = "") -> Comparison:
    """The hook at `script` (its cases file beside it) through the agent and through certify:
    equal when certify's verdict is "conformant" exactly when the agent did what the hook meant."""
    seen = run_agent(proctor, agent, hook, script)
    if "error" in seen:
        return Comparison("agents", label, False, f"agent_host failed: {seen['error']}")
    meant, how = reached(agent, hook, seen, text)
    conformant, failed = certify(proctor, agent, hook, script)
    detail = f"{agent} {'did what the hook meant' if meant else 'did not: ' + how}; proctor: " + (
        "conformant" if conformant else "nonconformant (" + ", ".join(failed) + ")") + note
    return Comparison("agents", label, conformant == meant, detail)


def agents_installed() -> bool:
    """Whether `npm ci` has installed both agents in interop/agents."""
    return all((AGENTS_DIR / "node_modules" / ".bin" / b).exists() for b in ("claude", "codex"))


def drawn(count: int, seed: int) -> list[Hook]:
    """The `count` hooks a run draws from `seed`, in order (the plan of a sharded run names them from here too)."""
    rng, world = random.Random(seed), random.Random(f"world-{seed}")
    return [draw(rng, world) for _ in range(count)]


def agents(proctor: str, pool, count: int, seed: int, work: Path, picked: set[int] | None = None) -> list[Comparison]:
    """`count` drawn hooks, each through both agents; `picked` names the
    indices to run (a slice of a sharded run), None all. Every hook is drawn
    either way: hook i is the same in every slice."""
    hooks = drawn(count, seed)
    jobs = [(agent, i, h) for i, h in enumerate(hooks) if picked is None or i in picked for agent in AGENTS]
    return list(pool.map(lambda j: compare(proctor, j[0], j[2], work / f"{j[1]:03}-{j[0]}"), jobs))


PAYLOAD_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]


def shape(value, depth: int = 0):
    """A JSON value's shape: its type, and for objects the shape of each key (two levels down)."""
    if isinstance(value, dict):
        return {k: shape(v, depth + 1) for k, v in sorted(value.items())} if depth < 2 else "object"
    if isinstance(value, list):
        return "array"
    return {bool: "boolean", int: "number", float: "number", str: "string", type(None): "null"}[type(value)]


def proctor_payload(proctor: str, agent: str, event: str, work: Path) -> dict | None:
    """The first document `proctor certify` sends a hook for `event` under the agent's profile."""
    work.mkdir(parents=True, exist_ok=True)
    dump = work / "sent"
    hook = work / "dump.sh"
    hook.write_text(f'f=$(mktemp {dump}.XXXXXX); cat > "$f"\n')
    subprocess.run([proctor, "certify", "--no-progress", "--jobs", "1", "--format", "json", "--protocol", FAMILIES[agent], "--role", event,
                    "--profile", PROFILES[agent], "--", "sh", str(hook)], capture_output=True, text=True, timeout=120)
    sent = sorted(work.glob("sent.*"), key=lambda p: p.stat().st_mtime_ns)
    return json.loads(sent[0].read_text()) if sent else None


def compare_payload(proctor: str, agent: str, event: str, work: Path) -> Comparison:
    """The shape of what the agent writes on a hook's stdin against what certify writes."""
    script = work / "noop.sh"
    work.mkdir(parents=True, exist_ok=True)
    script.write_text("cat >/dev/null\n")
    seen = run_agent(proctor, agent, Hook(event, "proceed", "silent"), script)
    real = next((p for p in seen.get("payloads", []) if isinstance(p, dict) and p.get("hook_event_name") == event), None)
    ours = proctor_payload(proctor, agent, event, work / "proctor")
    label = f"payload {agent}: {event}"
    if real is None or ours is None:
        return Comparison("agents", label, False, f"no payload: agent {real is not None}, proctor {ours is not None}")
    a, b = shape(real), shape(ours)
    if a == b:
        return Comparison("agents", label, True, "same fields and types")
    missing = sorted(set(a) - set(b)) if isinstance(a, dict) and isinstance(b, dict) else []
    extra = sorted(set(b) - set(a)) if isinstance(a, dict) and isinstance(b, dict) else []
    differ = [k for k in a if k in b and a[k] != b[k]] if isinstance(a, dict) and isinstance(b, dict) else []
    detail = f"proctor lacks {missing}, adds {extra}, shapes differ in {[(k, a[k], b[k]) for k in differ]}"
    return Comparison("agents", label, False, detail)


def payloads(proctor: str, pool, work: Path) -> list[Comparison]:
    """Every event both agents fire in the scripted conversation, for each agent."""
    jobs = [(agent, event) for agent in ("claude-code", "codex") for event in PAYLOAD_EVENTS]
    return list(pool.map(lambda j: compare_payload(proctor, j[0], j[1], work / f"payload-{j[0]}-{j[1]}"), jobs))
