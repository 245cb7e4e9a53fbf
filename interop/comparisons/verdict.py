"""The verdict on a run's comparisons, the report of a slice, and the merge
of a sharded run's reports.

judge() is the one place a run is judged: a whole run (fidelity.py), one
slice of a sharded run (`--shard K/N`), and the merge of the slices'
reports (`--merge`) all end in it, so the merged line is the line the whole
run would have printed. What differs between them is only what a run can
know: a slice cannot say a listed exception is no longer compared when the
comparison belongs to another slice, nor that an sdk behaviour explains
nothing when the sdk comparison ran elsewhere; the merge, holding every
slice, can.

A report (`--report FILE`) is JSON: the plan's identity (what every slice of
one run shares, with the hash of the plan's unit ids), the slice (K of N)
and its units, and every comparison with its kind, id, whether equal, the
detail, and the sdk behaviour that explains it, if one does. The merge
needs neither Go nor the drivers: it checks that the reports are slices of
one plan, each slice once, their units together the plan (by its hash),
and judges the union.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .plan import Plan, Unit
from .runtime import Comparison

FORMAT = "proctor-fidelity-report/1"


@dataclass(frozen=True)
class Explained:
    """An sdk behaviour (comparisons/sdk.py BEHAVIOURS, or a driver limit) that explains a difference."""

    id: str
    why: str


@dataclass
class Verdict:
    compared: int
    equal: int
    exceptions: int
    unexplained: int
    code: int  # the run's exit status: 1 on anything unexplained or stale, or on nothing compared

    @property
    def line(self) -> str:
        return f"fidelity: {self.compared} compared, {self.equal} equal, {self.exceptions} listed exceptions, {self.unexplained} unexplained"


def load_exceptions(path: Path) -> dict[str, str]:
    data = tomllib.loads(path.read_text()) if path.exists() else {}
    listed = {}
    for n, e in enumerate(data.get("exception", []), 1):
        if not e.get("id") or not e.get("why"):
            raise SystemExit(f"{path}: exception #{n} needs both `id` and `why`")
        listed[e["id"]] = e["why"]
    return listed


def judge(
    found: list[Comparison],
    explained_by: dict[str, Explained],
    listed: dict[str, str],
    exceptions: str,
    verbose: bool,
    missing_is_stale: Callable[[str], bool],
    behaviours: list,
    want_some: bool = True,
) -> Verdict:
    """Prints every difference and the `fidelity:` line. `missing_is_stale`
    says whether a listed exception this run did not compare is stale (the
    run compared everything that could produce it); `behaviours` are the sdk
    behaviours that are stale if they explain nothing here (none unless this
    run compared the repository's scenarios). `want_some`: comparing nothing
    is a failure (not for a slice the plan left empty)."""
    equal = excepted = unexplained = 0
    seen = set()
    for c in found:
        key = f"{c.kind} {c.id}"
        seen.add(key)
        if c.equal and key in listed:
            unexplained += 1
            print(f"STALE     {key}: listed as an exception but now equal; delete it from {exceptions}")
        elif c.equal:
            equal += 1
            if verbose:
                print(f"equal     {key}")
        elif key in explained_by:
            excepted += 1
            if verbose:
                print(f"behaviour {key}: {explained_by[key].id}")
        elif key in listed:
            excepted += 1
            print(f"exception {key}: {listed[key]}\n          {c.detail}")
        else:
            unexplained += 1
            print(f"DIFFERENT {key}: {c.detail}")
    for key in sorted(set(listed) - seen):
        if missing_is_stale(key):
            unexplained += 1
            print(f"STALE     {key}: listed as an exception but no longer compared; delete it from {exceptions}")
    used: dict[str, list[Explained]] = {}
    for b in explained_by.values():
        used.setdefault(b.id, []).append(b)
    for bid, each in used.items():
        print(f"behaviour {bid}: explains {len(each)} difference(s): {each[0].why}")
    for b in behaviours:
        if b.id not in used:
            unexplained += 1
            print(f"STALE     behaviour {b.id}: explains no difference in the repository's scenarios; delete it from interop/comparisons/sdk.py")
    verdict = Verdict(len(found), equal, excepted, unexplained, 1 if unexplained else 0)
    print(verdict.line)
    if not found and want_some:
        print("fidelity: nothing was compared", file=sys.stderr)
        verdict.code = 1
    return verdict


def whole_run(ident: dict) -> bool:
    """The run compared every kind on every target (no --only, --target or
    --scenario): only then is a listed exception it did not compare stale."""
    return not ident["only"] and not ident["targets"] and not ident["scenarios"]


def judges_behaviours(ident: dict) -> bool:
    """The run compared the repository's scenarios, so a behaviour that explains none of them is stale."""
    return (whole_run(ident) or ident["only"] == ["sdk"]) and not ident["scenarios"]


def slice_stale(ident: dict, whole: Plan, mine: Plan) -> Callable[[str], bool]:
    """For a slice: a listed exception not compared is stale only when every
    unit that could compare it is in this slice. An exception no unit can
    produce (a kind that is gone) is left to the merge."""
    if not whole_run(ident):
        return lambda _: False
    if len(mine.units) == len(whole.units):
        return lambda _: True
    ours = set(mine.ids)

    def stale(key: str) -> bool:
        owners = whole.owners(key)
        return bool(owners) and all(u.id in ours for u in owners)

    return stale


def identity(whole: Plan, seed: int, cases: int, families: list[str], kinds: set[str], agent_hooks: int, only: list[str] | None, targets: list[str] | None, scenarios: list[str], commit: str | None) -> dict:
    """What every slice of one run shares: what the run was asked for, and its plan."""
    return {
        "seed": seed,
        "cases": cases,
        "families": families,
        "kinds": sorted(kinds),
        "agent_hooks": agent_hooks,
        "only": only,
        "targets": targets,
        "scenarios": scenarios,
        "commit": commit,
        "units": len(whole.units),
        "hash": whole.hash,
    }


def judge_run(
    ident: dict, whole: Plan, mine: Plan, found: list[Comparison], explained_by: dict[str, Explained], listed: dict[str, str], exceptions: str, verbose: bool, behaviours: list
) -> Verdict:
    """judge() for a run or a slice of one (`mine` of `whole`): the sdk
    behaviours are judged where the sdk comparison ran."""
    judged = behaviours if judges_behaviours(ident) and "sdk" in mine.ids else []
    return judge(found, explained_by, listed, exceptions, verbose, slice_stale(ident, whole, mine), judged, want_some=bool(mine.units))


def write_report(path: Path, ident: dict, k: int, n: int, mine: Plan, found: list[Comparison], explained_by: dict[str, Explained], verdict: Verdict) -> None:
    def one(c: Comparison) -> dict:
        b = explained_by.get(f"{c.kind} {c.id}")
        return {"kind": c.kind, "id": c.id, "equal": c.equal, "detail": c.detail, "behaviour": {"id": b.id, "why": b.why} if b else None}

    report = {
        "format": FORMAT,
        "plan": ident,
        "shard": {"k": k, "n": n},
        "units": mine.ids,
        "comparisons": [one(c) for c in found],
        "verdict": {"compared": verdict.compared, "equal": verdict.equal, "exceptions": verdict.exceptions, "unexplained": verdict.unexplained, "exit": verdict.code},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")


class NotOneRun(Exception):
    """The reports given to a merge are not every slice of one run."""


def whole_plan(reports: list[dict]) -> tuple[dict, list[str]]:
    """The identity the reports share and the plan's unit ids put back
    together from the slices, or NotOneRun saying why not."""
    if not reports:
        raise NotOneRun("no report to merge")
    for r in reports:
        if r.get("format") != FORMAT:
            raise NotOneRun(f"{r.get('_path')}: not a fidelity report ({FORMAT})")
    ident, n = reports[0]["plan"], reports[0]["shard"]["n"]
    for r in reports[1:]:
        if r["shard"]["n"] != n:
            raise NotOneRun(f"{r['_path']} is a slice of {r['shard']['n']}, {reports[0]['_path']} of {n}")
        differ = sorted(f for f in set(ident) | set(r["plan"]) if ident.get(f) != r["plan"].get(f))
        if differ:
            shown = ", ".join(f"{f} {ident.get(f)!r} against {r['plan'].get(f)!r}" for f in differ)
            raise NotOneRun(f"{r['_path']} is a slice of another run than {reports[0]['_path']}: {shown}")
    by_k: dict[int, dict] = {}
    for r in reports:
        k = r["shard"]["k"]
        if k in by_k:
            raise NotOneRun(f"slice {k}/{n} is given twice: {by_k[k]['_path']} and {r['_path']}")
        by_k[k] = r
    missing = [k for k in range(1, n + 1) if k not in by_k]
    if missing:
        raise NotOneRun(f"slice{'s' if len(missing) > 1 else ''} {', '.join(f'{k}/{n}' for k in missing)} missing: the merged run would not be the whole run")
    total = ident["units"]
    for k, r in by_k.items():
        want = len(range(k - 1, total, n))
        if len(r["units"]) != want:
            raise NotOneRun(f"{r['_path']}: slice {k}/{n} of {total} units holds {len(r['units'])}, not {want}")
    # Unit i of the plan is unit i // n of slice i % n + 1: dealt back, they must be the plan.
    ids = [by_k[i % n + 1]["units"][i // n] for i in range(total)]
    if hashlib.sha256("\n".join(ids).encode()).hexdigest() != ident["hash"]:
        raise NotOneRun("the slices' units together are not the plan their reports name (its hash differs)")
    return ident, ids


def merge(paths: list[Path], listed: dict[str, str], exceptions: str, verbose: bool, behaviours: list) -> int:
    """Judges the union of a sharded run's reports as the whole run would
    have been judged; 2 when they are not every slice of one run."""
    reports = []
    for p in paths:
        try:
            r = json.loads(Path(p).read_text())
        except (OSError, json.JSONDecodeError) as e:
            print(f"fidelity: --merge {p}: not a readable report: {e}", file=sys.stderr)
            return 2
        if not isinstance(r, dict):
            print(f"fidelity: --merge {p}: not a fidelity report ({FORMAT})", file=sys.stderr)
            return 2
        r["_path"] = str(p)
        reports.append(r)
    try:
        ident, ids = whole_plan(reports)
    except NotOneRun as e:
        print(f"fidelity: --merge: {e}", file=sys.stderr)
        return 2
    reports.sort(key=lambda r: r["shard"]["k"])
    n = reports[0]["shard"]["n"]
    print(
        f"fidelity: merged {n} slice(s) of one run: seed {ident['seed']}, {len(ids)} units, plan {ident['hash'][:12]}",
        file=sys.stderr,
        flush=True,
    )
    found: list[Comparison] = []
    explained_by: dict[str, Explained] = {}
    for r in reports:
        for c in r["comparisons"]:
            found.append(Comparison(c["kind"], c["id"], c["equal"], c["detail"]))
            if c.get("behaviour"):
                explained_by[f"{c['kind']} {c['id']}"] = Explained(c["behaviour"]["id"], c["behaviour"]["why"])
    # The slices together are the whole plan: judged as a run of all of it is.
    whole = Plan([Unit("", None, uid) for uid in ids])
    return judge_run(ident, whole, whole, found, explained_by, listed, exceptions, verbose, behaviours).code
