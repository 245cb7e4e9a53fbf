"""differential: generated plugins, each run through `proctor certify` under
the runtime's profile and through the real runtime, verdict against outcome.

The rule is the fault comparison's, exchange by exchange: proctor's verdict
is "conformant" if and only if the real runtime reached what the plugin
meant on every call (comparisons/behaviours.py draws the plugin and knows
its intent), with no hook error and nothing left running. A disagreement is
a bug in proctor until shown otherwise; it is shrunk to the fewest genes that
still disagree and written out as a regression case: the script
(`proctor mock-plugin --script`), the cases file, both outcomes, and the
commands that replay it (interop/differential/README.md).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from . import life, runok_genome
from .behaviours import FAMILIES, PK_SURFACE, PICO_CALLS, RUNOK, Built, Genome, Intent, build, draw
from .runtime import LATE_MS, LEFTOVER_MARK, ROOT, Comparison, Tools, kill_marked, run

PROFILES = {"picoclaw-hook": "picoclaw@cf67dd3", "promptkit-exec": "promptkit@86d9f36", "promptkit-server": "promptkit@86d9f36", RUNOK: "runok@0.3.1"}
# Every deadline on both sides, so a hang costs seconds, not minutes (life.py's genes straddle it).
DEADLINE_MS = life.DEADLINE_MS
# PicoClaw's hello: no bound in production, 30 s under a config reload (proctor's startup deadline there).
HELLO_MS = 30_000
REGRESSIONS = ROOT / "interop" / "differential" / "regressions"
SEED_STRIDE = 1_000_003  # genome i of a family is drawn from seed * SEED_STRIDE + i (the plan of a sharded run names it so)


# One turn as PicoClaw runs it, with the runtime event where it fires (a
# tool starts: after approval, before the tool's result), so a hook that
# dies on an event is seen to break the calls after it. The params are the
# picoclaw-host defaults (proctor's own probe values).
_META = {"AgentID": "agent-1", "TurnID": "turn-1", "ParentTurnID": "", "SessionKey": "session-1", "Iteration": 0, "Source": "runTurn"}
_ARGS = {"command": "ls -la"}
PICO_TURN = [
    {"method": "hook.before_llm", "params": {"meta": {**_META, "TracePath": "turn.llm.request"}, "model": "claude-sonnet",
     "messages": [{"role": "system", "content": "You are PicoClaw."}, {"role": "user", "content": "list the files"}], "options": {"max_tokens": 1024}}},
    {"method": "hook.before_tool", "params": {"meta": {**_META, "TracePath": "turn.tool.before"}, "tool": "bash", "arguments": _ARGS}},
    {"method": "hook.approve_tool", "params": {"meta": {**_META, "TracePath": "turn.tool.approve"}, "tool": "bash", "arguments": _ARGS}},
    {"method": "hook.runtime_event", "params": {"id": "evt-1", "kind": "agent.tool.exec_start", "time": "2026-06-13T10:00:00Z", "source": {"component": "agent"},
     "scope": {"agent_id": "agent-1", "session_key": "session-1", "turn_id": "turn-1"}, "correlation": {}, "payload": {"Tool": "bash", "Arguments": _ARGS}}},
    {"method": "hook.after_tool", "params": {"meta": {**_META, "TracePath": "turn.tool.after"}, "tool": "bash", "arguments": _ARGS,
     "result": {"for_llm": "file1.txt", "silent": False, "is_error": False, "async": False}, "duration": 15000000}},
    {"method": "hook.after_llm", "params": {"meta": {**_META, "TracePath": "turn.llm.response"}, "model": "claude-sonnet",
     "response": {"content": "Listing files.", "finish_reason": "stop", "reasoning": "", "reasoning_details": None}}},
]


@dataclass
class Outcome:
    conformant: bool  # proctor's verdict under the profile
    failed: list[str]  # the checks that failed there
    reached: bool  # the real runtime reached the plugin's intent
    why: str  # where it did not, or "as meant"

    @property
    def agree(self) -> bool:
        return self.conformant == self.reached


def plugin(tools: Tools, target: str, script: Path) -> list[str]:
    family, _, role = target.partition("/")
    cmd = [tools.proctor, "mock-plugin", "--protocol", family, "--script", str(script)]
    return cmd + (["--role", role] if role and family == "promptkit-exec" else [])


def certify(tools: Tools, target: str, script: Path, cases: Path) -> tuple[bool, list[str], dict]:
    family, _, role = target.partition("/")
    profile = PROFILES[family]
    # --jobs 1: the comparison already runs plugins side by side (--jobs of fidelity.sh).
    cmd = [tools.proctor, "certify", "--no-progress", "--jobs", "1", "--format", "json", "--protocol", family]
    cmd += ["--role", role] if role else []
    cmd += ["--profile", profile, "--timeout-ms", str(DEADLINE_MS), "--cases", str(cases), "--", *plugin(tools, target, script)]
    out = run(cmd, timeout=300)
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        # One case proctor would not judge (a cases file it refuses) is a
        # disagreement to look at, not the end of a 5,000-case run.
        last = (out.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        return False, [f"no report (exit {out.returncode}): {last[:300]}"], {}
    verdict = report.get("profile_verdicts", {}).get(profile, report.get("verdict"))
    failed = sorted({c["id"] for c in report.get("checks", []) if c.get("status") == "fail" and c.get("profile") == profile})
    return verdict == "conformant", failed, report


def drive(tools: Tools, target: str, script: Path) -> list[dict]:
    family, _, role = target.partition("/")
    mark = f"{LEFTOVER_MARK}=diff-{script.stem}"
    if family == "picoclaw-hook":
        d = str(DEADLINE_MS)
        # hook.hello has no deadline in production; proctor waits 30 s (a config reload's bound), and so does the driver.
        cmd = [tools.picoclaw_host, "--interceptor-timeout-ms", d, "--approval-timeout-ms", d, "--hello-timeout-ms", str(HELLO_MS)]
        calls = script.with_suffix(".calls.jsonl")
        # Two turns: PicoClaw never restarts a hook, so one that dies after
        # answering is seen to break the next turn.
        calls.write_text("".join(json.dumps(c) + "\n" for c in PICO_TURN * 2))
        cmd += ["--calls", str(calls)]
    elif family == RUNOK:
        # runok's own runner, once: it spawns a fresh process per command it checks.
        cmd = [tools.runok_host, "--timeout-ms", str(DEADLINE_MS)]
    else:
        surface = "server-tool" if family == "promptkit-server" else PK_SURFACE[role]
        cmd = [tools.promptkit_host, "--surface", surface, "--timeout-ms", str(DEADLINE_MS), "--env", LEFTOVER_MARK]
        if surface == "server-tool":
            calls = script.with_suffix(".calls.jsonl")
            calls.write_text("".join(json.dumps({"args": {"key": k}}) + "\n" for k in ("a", "b", "c")))
            cmd += ["--calls", str(calls)]
    import os

    out = run([*cmd, "--", *plugin(tools, target, script)], timeout=300, env={**os.environ, LEFTOVER_MARK: mark.split("=", 1)[1]})
    if out.returncode != 0:
        raise SystemExit(f"driver failed (exit {out.returncode}): {' '.join(cmd)}\n{out.stderr[-2000:]}")
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    lines.append({"step": "log", "text": out.stderr})
    left = kill_marked(mark, grace=0.3)
    if left:
        lines.append({"step": "leftover", "processes": left})
    return lines


def clean(v):
    """A runtime decodes invalid UTF-8 as U+FFFD; the plugin's garbage is not the runtime's fault."""
    if isinstance(v, str):
        return v.replace("\ufffd", "")
    if isinstance(v, list):
        return [clean(x) for x in v]
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items()}
    return v


def subset(want, got) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(subset(v, got.get(k)) for k, v in want.items())
    return clean(want) == clean(got)


def reached(target: str, intents: list[Intent], lines: list[dict]) -> tuple[bool, str]:
    """Whether every call came out as the plugin meant, and where not."""
    family = target.partition("/")[0]
    for line in lines:
        if line.get("step") == "leftover":
            return False, f"left running: {line['processes']}"
        if line.get("step") == "start" and not line.get("ok"):
            return False, f"the runtime could not start the hook: {line.get('error')}"
        if line.get("step") == "notify" and line.get("hook_error"):
            return False, f"runtime event: hook error {line['hook_error']}"
        if line.get("step") == "close" and family == "promptkit-server" and line.get("elapsed_ms", 0) > DEADLINE_MS + LATE_MS:
            # ServerExecutor.Close waits 2 s for the exit, kills the leader, then waits for its
            # pipes (cmd.Wait, no WaitDelay): a child holding stderr holds the runtime's shutdown.
            return False, f"the runtime's shutdown took {line['elapsed_ms']} ms: a process of the plugin's held its pipes"
        if line.get("step") == "close" and "signal" in str(line.get("error") or ""):
            return False, f"at close: {line['error']}"
        if line.get("elapsed_ms", 0) > DEADLINE_MS + LATE_MS and "step" not in line:
            # The runtime got the answer only after its own deadline: a tool call held by a
            # child on the plugin's pipes (PromptKit's cmd.Run waits for them, past the
            # context's deadline) leaves the agent waiting as long as the child lives.
            return False, f"a call took {line['elapsed_ms']} ms, past the runtime's {DEADLINE_MS} ms deadline"
        if line.get("step") == "log" and "unsupported action" in line.get("text", ""):
            # PicoClaw discarded the hook's answer and went on as if it had said nothing.
            return False, "the hook's action is unsupported at its stage: PicoClaw discarded the answer"
    if family == "picoclaw-hook":
        by_method = {i.call: i for i in intents}
        calls = [line for line in lines if line.get("step") == "call"]
        if len(calls) < 2 * len(intents):
            return False, f"{len(calls)} of {2 * len(intents)} calls came back"
        for line in calls:
            why = pico_call(by_method[line["method"]], line)
            if why:
                return False, why
        return True, "as meant"
    calls = [line for line in lines if "index" in line and "step" not in line]
    if family == RUNOK:
        if not calls:
            return False, "runok-host reported no call"
        why = runok_genome.judge_call(intents[0], calls[0], clean)
        return (False, why) if why else (True, "as meant")
    if len(calls) < len(intents):
        return False, f"{len(calls)} of {len(intents)} calls came back"
    for intent, line in zip(intents, calls):
        why = pk_call(target, intent, line)
        if why:
            return False, why
    return True, "as meant"


def pico_call(intent: Intent, line: dict | None) -> str:
    where = intent.call
    if not intent.stated:
        return f"{where}: the answer never states the decision; the runtime's default is not the plugin's"
    if line is None:
        return f"{where}: never called"
    if line.get("hook_error"):
        return f"{where}: hook error {line['hook_error']}"
    if "approval" in line:
        a = line["approval"]
        got = "approved" if a.get("approved") else "denied"
        if got != intent.decision:
            return f"{where}: {got}, meant {intent.decision}"
        if intent.reason and clean(a.get("reason")) != intent.reason:
            return f"{where}: reason {a.get('reason')!r}, meant {intent.reason!r}"
        return ""
    action = (line.get("decision") or {}).get("action")
    reason = (line.get("decision") or {}).get("reason")
    if intent.decision == "modify":
        if action not in ("modify", "continue"):
            return f"{where}: {action}, meant modify"
        if not subset(intent.payload, line.get("payload")):
            return f"{where}: went on with {json.dumps(line.get('payload'))[:200]}, meant {json.dumps(intent.payload)}"
        return ""
    if action != intent.decision:
        return f"{where}: {action!r}, meant {intent.decision!r}"
    if intent.reason and clean(reason) != intent.reason:
        return f"{where}: reason {reason!r}, meant {intent.reason!r}"
    if intent.payload and not subset(intent.payload, line.get("payload")):
        return f"{where}: went on with {json.dumps(line.get('payload'))[:200]}, meant {json.dumps(intent.payload)}"
    # `continue` leaves what was sent alone: a payload key the runtime reads
    # anyway (`RESULT` for `result`) makes it a modify the plugin never meant.
    sent = next((c["params"] for c in PICO_TURN if c["method"] == intent.call), None)
    if intent.decision == "continue" and "payload" in line and sent is not None and not subset(sent, line["payload"]):
        return f"{where}: went on with {json.dumps(line['payload'])[:200]}, meant what was sent, unchanged"
    return ""


def pk_call(target: str, intent: Intent, line: dict) -> str:
    role = target.partition("/")[2]
    if not intent.stated:
        return f"{line.get('phase') or line.get('surface')}: the answer never states the decision; the runtime's default is not the plugin's"
    o = line.get("outcome") or {}
    err = line.get("error")
    where = line.get("phase") or line.get("surface")
    if role == "tool" or target.startswith("promptkit-server"):
        if intent.decision == "error":
            text = clean(str(o.get("error") or ""))
            said = clean(intent.reason) if intent.reason is not None else ""
            # The plugin's own error, as each executor words it; anything
            # else is a call PromptKit could not complete.
            own = text.startswith("JSON-RPC error ") if target.startswith("promptkit-server") else text.startswith('exec executor: tool "get_weather": ')
            if o.get("status") != "failed" or not own or not text.endswith(said):
                return f"{where}: {json.dumps(o)[:200]}, meant the error {intent.reason!r}"
            return ""
        if err or o.get("status") != "complete":
            return f"{where}: {o.get('status')} {err or ''}"
        if clean(o.get("content")) != clean(intent.content):
            return f"{where}: result {json.dumps(o.get('content'))[:200]}, meant {json.dumps(intent.content)}"
        return ""
    if err:
        return f"{where}: error {err}"
    if role in ("provider-hook", "tool-hook"):
        said = str(o.get("Reason") or "")
        if said.startswith('exec hook "') and ("invalid response JSON" in said or '" failed: ' in said):
            return f"{where}: PromptKit could not read the hook and denied: {said[:200]}"
        got = "allow" if o.get("Allow") is True else "deny"
        if got != intent.decision:
            return f"{where}: {got}, meant {intent.decision}"
        if intent.reason and clean(o.get("Reason")) != intent.reason:
            return f"{where}: reason {o.get('Reason')!r}, meant {intent.reason!r}"
        return ""
    if role == "session-hook":
        return f"{where}: the hook's error reached the session" if o.get("error_returned") else ""
    if role == "eval":
        if str(o.get("explanation", "")).startswith("exec eval"):
            return f"{where}: {o.get('explanation')}"
        # PromptKit holds a float64: 2^53+1 meant is 2^53 held.
        if as_float(o.get("score")) is None or as_float(o.get("score")) != as_float(intent.content):
            return f"{where}: score {o.get('score')}, meant {intent.content}"
        return ""
    if role == "selector":
        if o.get("selected") != intent.content:
            return f"{where}: selected {o.get('selected')}, meant {intent.content}"
        return ""
    return f"{where}: no judge for {role}"


def as_float(x) -> float | None:
    """`x` as a float64 holds it; None for no number or one past float64."""
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    try:
        return float(x)
    except OverflowError:
        return None


def write_case(work: Path, g: Genome, built: Built) -> tuple[Path, Path]:
    stem = f"{g.target.replace('/', '-')}-{g.seed}-{len(g.genes)}-{abs(hash(json.dumps(g.to_json()))) % 10**8}"
    script = work / f"{stem}.script.json"
    cases = work / f"{stem}.cases.yaml"
    script.write_text(json.dumps(built.script, indent=1, ensure_ascii=False))
    cases.write_text(json.dumps({"cases": built.cases}, indent=1, ensure_ascii=False))
    return script, cases


def judge(tools: Tools, g: Genome) -> Outcome:
    built = build(g)
    script, cases = write_case(tools.work, g, built)
    conformant, failed, _ = certify(tools, g.target, script, cases)
    ok, why = reached(g.target, built.intents, drive(tools, g.target, script))
    return Outcome(conformant, failed, ok, why)


def shrink(tools: Tools, g: Genome, first: Outcome) -> tuple[Genome, Outcome]:
    """Drops genes while the disagreement stays the same way round."""
    best, outcome = g, first
    changed = True
    while changed and best.genes:
        changed = False
        for gene in list(best.genes):
            smaller = Genome(best.target, best.seed, best.bent, best.decision, [x for x in best.genes if x is not gene])
            o = judge(tools, smaller)
            if not o.agree and o.conformant == first.conformant:
                best, outcome, changed = smaller, o, True
                break
    return best, outcome


def regression(g: Genome, o: Outcome) -> dict:
    built = build(g)
    family = g.target.partition("/")[0]
    return {
        "genome": g.to_json(),
        "profile": PROFILES[family],
        "script": built.script,
        "cases": built.cases,
        "runtime": {"reached": o.reached, "why": o.why},
        "proctor_said": {"conformant": o.conformant, "failed": o.failed},
    }


def kept_files(directory: Path = REGRESSIONS) -> list[Path]:
    """The cases kept in `directory`, in the order a run takes them (the plan of a sharded run names them)."""
    return sorted(p for p in directory.glob("*.json") if not p.name.endswith(".script.json")) if directory.exists() else []


def regressions(tools: Tools, pool, rerecord: bool = False, directory: Path = REGRESSIONS, picked: set[str] | None = None) -> list[Comparison]:
    """The shrunk cases kept from earlier runs: the runtime's outcome is run
    again, not trusted, and must still be what the file recorded (which is
    what harness/tests/differential_regressions.rs holds proctor to without
    Go). `rerecord` writes each file anew from its genome instead.
    `directory` replays another folder of such cases (a `--found` one);
    `picked` names the files to run (a slice of a sharded run), None all."""
    files = [p for p in kept_files(directory) if picked is None or p.name in picked]

    def one(path: Path) -> Comparison:
        kept = json.loads(path.read_text())
        g = Genome.from_json(kept["genome"])
        o = judge(tools, g)
        c = comparison(g, o, f"regression {path.name}")
        if rerecord:
            fresh = regression(g, o)
            fresh["found"] = kept.get("found", "")
            path.write_text(json.dumps(fresh, indent=1, ensure_ascii=False) + "\n")
        elif kept["runtime"]["reached"] != o.reached or kept["script"] != build(g).script:
            c.equal = False
            c.detail += f"; the file records another outcome or script: rerun with --rerecord after checking why ({path})"
        return c

    return list(pool.map(one, files))


def comparison(g: Genome, o: Outcome, label: str) -> Comparison:
    said = "conformant" if o.conformant else f"nonconformant ({', '.join(o.failed[:4]) or 'no check named'})"
    did = "reached what the plugin meant" if o.reached else f"did not: {o.why}"
    genes = json.dumps([list(x) for x in g.genes], ensure_ascii=False)
    return Comparison("differential", f"{label} {g.target} {g.bent} {g.decision} {genes}", o.agree, f"proctor: {said}; the runtime {did}")


def differential(
    tools: Tools, pool, families: list[str], cases: int, seed: int, found_dir: Path | None, do_shrink: bool = True, picked: set[tuple[str, int]] | None = None
) -> list[Comparison]:
    """`cases` plugins per family, drawn from `seed`; `picked` names the
    (family, index) of those to run (a slice of a sharded run), None all.
    A disagreement is shrunk where it was found."""
    out: list[Comparison] = []
    for family in families:
        targets = FAMILIES[family]
        genomes = [draw(targets[i % len(targets)], seed * SEED_STRIDE + i) for i in range(cases) if picked is None or (family, i) in picked]
        start = time.monotonic()
        done = [0]

        def one(g: Genome) -> tuple[Genome, Outcome]:
            o = judge(tools, g)
            done[0] += 1
            if done[0] % 50 == 0:
                rate = done[0] / max(0.001, time.monotonic() - start)
                print(f"differential: {family} {done[0]}/{len(genomes)} ({rate:.1f}/s)", file=__import__("sys").stderr, flush=True)
            return g, o

        results = list(pool.map(one, genomes))
        seen = set()
        for g, o in results:
            if o.agree:
                out.append(comparison(g, o, f"seed {g.seed}"))
                continue
            small, so = shrink(tools, g, o) if do_shrink else (g, o)
            key = (small.target, small.bent, json.dumps([list(x) for x in small.genes]))
            c = comparison(small, so, f"seed {g.seed} shrunk to")
            out.append(c)
            if found_dir and key not in seen:
                seen.add(key)
                found_dir.mkdir(parents=True, exist_ok=True)
                stem = found_dir / f"{small.target.replace('/', '-')}-{small.seed}"
                kept = regression(small, so)
                stem.with_suffix(".json").write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n")
                # The plugin, ready to run, and the commands that show both sides.
                script = stem.with_suffix(".script.json")
                script.write_text(json.dumps(kept["script"], indent=1, ensure_ascii=False) + "\n")
                cases_file = stem.with_suffix(".cases.yaml")
                cases_file.write_text(json.dumps({"cases": kept["cases"]}, indent=1, ensure_ascii=False) + "\n")
                family, _, role = small.target.partition("/")
                roles = f" --role {role}" if role else ""
                plugin = f"proctor mock-plugin --protocol {family}{roles if family == 'promptkit-exec' else ''} --script {script}"
                c.detail += (
                    f"\n          replay: proctor certify --protocol {family}{roles} --profile {kept['profile']} --cases {cases_file} -- {plugin}"
                    f"\n          keep it: cp {stem.with_suffix('.json')} interop/differential/regressions/"
                )
        print(f"differential: {family}: {len(genomes)} cases in {time.monotonic() - start:.0f} s", file=__import__("sys").stderr, flush=True)
    return out
