#!/usr/bin/env python3
"""Holds proctor's runtime profiles to the real runtimes.

proctor's `picoclaw@cf67dd3` and `promptkit@86d9f36` profiles were written by
reading the runtimes' code. This script runs the runtimes themselves (the Go
drivers under interop/picoclaw and interop/promptkit, built from the runtimes'
published modules) next to proctor and compares, in eight ways:

  wire      For every family and role, each request proctor sends under the
            runtime's profile is decoded by the real runtime's own types and
            sent again by the real client. Both sides are recorded by
            `proctor mock-plugin --record`; the bytes must be equal once ids
            (random or counted by design) are normalised.
  verify    What the real runtime sent in the wire comparison, judged by
            `proctor verify` under the runtime's profile: it must be conformant.
  fault     For every fault of `proctor mock-plugin` that applies to a role:
            proctor's verdict under the runtime's profile against what the
            real runtime did with that plugin. "conformant" must mean the
            runtime got the same outcome as from the well-behaved mock;
            "nonconformant" must mean it did not.
  case      For every example plugin under examples/ with a cases file: each
            case's request as proctor sends it, run through the real runtime
            against the real plugin. proctor's case verdict must match
            whether the real runtime reached the case's expected decision.
  state     For every workflow state of every example pack: the state's
            prompt as PromptKit renders it before each round (runtime/prompt
            and runtime/template, driven as the SDK's state resolver drives
            them) against `proctor pack render --state`.
  tools     For every prompt of every example pack that offers pack tools:
            the `tools` array PromptKit's OpenAI provider builds for them
            against the `wire_tools` of `proctor pack render`.

  differential
            Generated plugins (comparisons/behaviours.py: seeded, each a
            `proctor mock-plugin --script` that knows what it means) through
            `proctor certify --cases` under the runtime's profile and through
            the runtime's driver: "conformant" must mean the runtime reached
            what the plugin meant on every call. Disagreements are shrunk and
            can be kept as regression cases (interop/differential/).
  sdk       Every scenario that opens a pack, through the real PromptKit SDK
            (interop/promptkit-sdk) against `proctor mock-provider`, and through
            `proctor run`: the provider requests, the outcome and the workflow
            must be equal, or differ as a named behaviour of the SDK release
            shows (comparisons/sdk.py BEHAVIOURS); `--scenario FILE` compares
            a scenario of your own.

  agents    Generated command hooks (comparisons/agent_hooks.py) through the
            real Claude Code and Codex CLI (interop/agents, installed with
            `npm ci` there; headless, offline, against `proctor mock-provider`)
            and through `proctor certify --cases` under each agent's profile:
            "conformant" must mean the agent did what the hook meant. The
            hand-written hooks of interop/agents/heldout run the same way, and
            the document each agent writes on a hook's stdin, per event, must
            have the fields and types of the one certify writes.
  timing    Each runtime's deadlines, what it waits for after the answer,
            how it reads the pipes and which line it takes for the reply
            (comparisons/timing.py, plugins in interop/timing/): a plugin
            just inside each rule and one just outside, through the
            runtime's driver and through `proctor certify --cases` under its
            profile: "conformant" must mean the runtime reached what the
            plugin meant.
  world     The world each agent gives a hook (comparisons/world.py): a probe
            hook (interop/agents/world_probe.py) through both agents and
            through `proctor certify` under their profiles, per event: the
            agent's variables, the hook's folder, the session ids, the
            transcript, stdin's last byte must be the same.

A difference is a bug in proctor's simulation until shown otherwise; the ones
that are understood and kept are listed, with why, in
interop/fidelity-exceptions.toml. It ends with one line:

  fidelity: A compared, B equal, C listed exceptions, D unexplained

and exits 1 on any unexplained difference or on a listed exception that no
longer differs (so the list cannot go stale).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import sys
import tempfile
import tomllib
from pathlib import Path

import yaml

from comparisons.boundaries import boundaries
from comparisons.cases import cases
from comparisons.behaviours import FAMILIES
from comparisons.agent_hooks import AGENTS_DIR, agents_installed
from comparisons.agent_hooks import agents as agent_hooks
from comparisons.agent_hooks import heldout as agent_heldout
from comparisons.agent_hooks import payloads as agent_payloads
from comparisons.differential import REGRESSIONS, differential, regressions
from comparisons.faults import faults
from comparisons.runtime import TARGETS, Comparison, Tools
from comparisons.sdk import BEHAVIOURS, ScenarioError, opens_a_pack, scenario_files, sdk
from comparisons.states import states
from comparisons.timing import timing
from comparisons.tools import offered_tools
from comparisons.wire import wire
from comparisons.world import world


def load_exceptions(path: Path) -> dict[str, str]:
    data = tomllib.loads(path.read_text()) if path.exists() else {}
    listed = {}
    for n, e in enumerate(data.get("exception", []), 1):
        if not e.get("id") or not e.get("why"):
            raise SystemExit(f"{path}: exception #{n} needs both `id` and `why`")
        listed[e["id"]] = e["why"]
    return listed


def main() -> int:
    # proctor takes PYTHONUNBUFFERED out of every plugin's environment (a dev
    # container's export hides a missing flush); the runtimes pass theirs on.
    # Both sides get the same environment here, as on a user's machine.
    os.environ.pop("PYTHONUNBUFFERED", None)
    # The differential comparison nests values up to Go's 10000-level limit
    # and reads them back from the drivers: room for Python's json to recurse.
    import threading

    threading.stack_size(256 * 1024 * 1024)
    sys.setrecursionlimit(200_000)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--proctor", required=True)
    ap.add_argument("--picoclaw-host", required=True)
    ap.add_argument("--promptkit-host", required=True)
    ap.add_argument("--promptkit-state", required=True)
    ap.add_argument("--promptkit-tools", required=True)
    ap.add_argument("--promptkit-sdk", required=True)
    ap.add_argument("--runok-host", required=True)
    ap.add_argument("--exceptions", default=str(Path(__file__).with_name("fidelity-exceptions.toml")))
    ap.add_argument("--only", choices=["wire", "fault", "case", "state", "tools", "differential", "boundary", "timing", "sdk", "agents", "world"], action="append", help="run only these comparisons (wire includes verify)")
    ap.add_argument("--agent-hooks", type=int, default=60, help="agents: generated hooks, each through both agents (default 60: 120 comparisons)")
    ap.add_argument("--scenario", action="append", default=[], help="sdk: compare this scenario (one that opens a pack) instead of the repository's; repeatable")
    ap.add_argument("--cases", type=int, default=200, help="differential: generated plugins per family (default 200)")
    ap.add_argument("--seed", type=int, default=None, help="differential: the seed (default: a new one, printed; the same seed draws the same plugins)")
    ap.add_argument("--family", action="append", choices=list(FAMILIES), help="differential: only these families")
    ap.add_argument("--no-shrink", action="store_true", help="differential: report disagreements as drawn, unshrunk (faster)")
    ap.add_argument("--rerecord", action="store_true", help="differential: write each kept regression case anew from its genome and the runtime's outcome now")
    ap.add_argument("--replay", default=None, help="differential: run the cases kept in this folder (a --found one) instead of interop/differential/regressions")
    ap.add_argument("--found", default=None, help="differential: write each shrunk disagreement here as a regression case (JSON)")
    ap.add_argument("--target", action="append", help="only these targets (e.g. picoclaw-hook, promptkit-exec/tool)")
    ap.add_argument("--jobs", type=int, default=6, help="comparisons run at once (most time is spent waiting on deadlines)")
    ap.add_argument("--verbose", action="store_true", help="print equal comparisons too")
    args = ap.parse_args()

    kinds = set(args.only or ["wire", "fault", "case", "state", "tools", "differential", "boundary", "timing", "sdk", "agents", "world"])
    for kind in sorted(kinds & {"agents", "world"}):
        if not agents_installed():
            print(f"fidelity: {kind} NOT COMPARED: the agents are not installed; run `npm ci` in {AGENTS_DIR}", file=sys.stderr)
            if args.only:
                return 2
            kinds.discard(kind)
    if args.scenario:
        kinds = {"sdk"}
        for s in args.scenario:
            if not Path(s).is_file():
                print(f"fidelity: --scenario {s}: no such file", file=sys.stderr)
                return 2
            try:
                yaml.safe_load(Path(s).read_text())
            except (yaml.YAMLError, UnicodeDecodeError) as e:
                print(f"fidelity: --scenario {s}: not a YAML scenario: {e}", file=sys.stderr)
                return 2
            if not opens_a_pack(Path(s)):
                print(f"fidelity: --scenario {s}: not a scenario that opens a pack (it needs `runtime: promptkit` and `pack:`)", file=sys.stderr)
                return 2
    targets = [t for t in TARGETS if not args.target or t.name in args.target or t.family in args.target]
    listed = load_exceptions(Path(args.exceptions))
    with tempfile.TemporaryDirectory(prefix="proctor-fidelity-") as work:
        absolute = lambda p: str(Path(p).resolve())  # noqa: E731 (commands run from the repository root)
        tools = Tools(
            absolute(args.proctor),
            absolute(args.picoclaw_host),
            absolute(args.promptkit_host),
            Path(work),
            absolute(args.promptkit_state),
            absolute(args.promptkit_tools),
            absolute(args.promptkit_sdk),
            absolute(args.runok_host),
        )
        found: list[Comparison] = []
        explained_by: dict = {}  # sdk: comparison key -> the behaviour that explains it
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for t in targets:
                if "wire" in kinds:
                    found += wire(tools, t)
                if "fault" in kinds:
                    found += faults(tools, t, pool)
                if kinds & {"wire", "fault"}:
                    print(f"fidelity: {t.name} compared", file=sys.stderr, flush=True)
            if "case" in kinds:
                found += cases(tools, targets, pool)
            if "state" in kinds and not args.target:
                found += states(tools, pool)
            if "tools" in kinds and not args.target:
                found += offered_tools(tools, pool)
            if "boundary" in kinds and not args.target:
                found += boundaries(tools, pool)
            if "timing" in kinds and not args.target:
                found += timing(tools, pool)
            if "sdk" in kinds and not args.target:
                files = [Path(s).resolve() for s in args.scenario] or scenario_files()
                try:
                    compared = sdk(tools, pool, files)
                except ScenarioError as e:
                    print(f"fidelity: a scenario cannot be used: {e}", file=sys.stderr)
                    return 2
                explained_by.update((c.comparison.kind + " " + c.comparison.id, c.behaviour) for c in compared if c.behaviour)
                found += [c.comparison for c in compared]
            if "differential" in kinds:
                seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
                print(f"fidelity: differential seed {seed}, {args.cases} cases per family (replay: --only differential --seed {seed} --cases {args.cases})", file=sys.stderr, flush=True)
                kept = Path(args.replay) if args.replay else REGRESSIONS
                found += regressions(tools, pool, args.rerecord, kept)
                families = args.family or list(FAMILIES)
                found += differential(tools, pool, families, args.cases, seed, Path(args.found) if args.found else None, not args.no_shrink)
            if "agents" in kinds and not args.target:
                seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
                print(f"fidelity: agents seed {seed}, {args.agent_hooks} hooks (replay: --only agents --seed {seed} --agent-hooks {args.agent_hooks})", file=sys.stderr, flush=True)
                # Two agents at a time: each is a 150-400 MB native binary that wants a core.
                with concurrent.futures.ThreadPoolExecutor(max_workers=2) as agent_pool:
                    found += agent_payloads(tools.proctor, agent_pool, Path(work) / "agents")
                    found += agent_heldout(tools.proctor, agent_pool, AGENTS_DIR / "heldout" / "manifest.json", Path(work) / "agents")
                    found += agent_hooks(tools.proctor, agent_pool, args.agent_hooks, seed, Path(work) / "agents")
            if "world" in kinds and not args.target:
                with concurrent.futures.ThreadPoolExecutor(max_workers=2) as agent_pool:
                    found += world(tools.proctor, agent_pool, Path(work) / "world")

    equal = exceptions = unexplained = 0
    seen = set()
    for c in found:
        key = f"{c.kind} {c.id}"
        seen.add(key)
        if c.equal and key in listed:
            unexplained += 1
            print(f"STALE     {key}: listed as an exception but now equal; delete it from {args.exceptions}")
        elif c.equal:
            equal += 1
            if args.verbose:
                print(f"equal     {key}")
        elif key in explained_by:
            exceptions += 1
            if args.verbose:
                print(f"behaviour {key}: {explained_by[key].id}")
        elif key in listed:
            exceptions += 1
            print(f"exception {key}: {listed[key]}\n          {c.detail}")
        else:
            unexplained += 1
            print(f"DIFFERENT {key}: {c.detail}")
    ran_all = not args.only and not args.target and not args.scenario
    for key in sorted(set(listed) - seen) if ran_all else []:
        unexplained += 1
        print(f"STALE     {key}: listed as an exception but no longer compared; delete it from {args.exceptions}")
    used: dict[str, list] = {}
    for b in explained_by.values():
        used.setdefault(b.id, []).append(b)
    for bid, each in used.items():
        print(f"behaviour {bid}: explains {len(each)} difference(s): {each[0].why}")
    for b in BEHAVIOURS:
        if b.id not in used and (ran_all or args.only == ["sdk"]) and not args.scenario:
            unexplained += 1
            print(f"STALE     behaviour {b.id}: explains no difference in the repository's scenarios; delete it from interop/comparisons/sdk.py")
    print(f"fidelity: {len(found)} compared, {equal} equal, {exceptions} listed exceptions, {unexplained} unexplained")
    if not found:
        print("fidelity: nothing was compared", file=sys.stderr)
        return 1
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
