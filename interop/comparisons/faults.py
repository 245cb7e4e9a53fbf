"""fault: proctor's verdict on each mock fault against what the real runtime did with it."""

from __future__ import annotations

from .outcome import decision_of, first_change, signature
from .runtime import Comparison, Target, Tools, run


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
            # Selecting nothing where the well-behaved plugin selects is the
            # damage a selector reading keys PromptKit does not send does.
            d = ("selected" if d else "selected nothing") if isinstance(d, list) else "error"
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
