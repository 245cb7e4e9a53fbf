#!/usr/bin/env python3
"""Holds proctor's runtime profiles to the real runtimes.

proctor's `picoclaw@cf67dd3` and `promptkit@86d9f36` profiles were written by
reading the runtimes' code. This script runs the runtimes themselves (the Go
drivers under interop/picoclaw and interop/promptkit, built from the runtimes'
published modules) next to proctor and compares, in eleven ways:

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

A run larger than one machine is cut into slices, as nextest's `--partition
count:K/N` cuts tests: every unit of work (a generated plugin or hook, a
target's wire or faults, a pair, ...) has a place in one plan
(comparisons/plan.py), and `--shard K/N --seed S` runs the units whose index
is K-1 modulo N. `--report FILE` writes what a slice compared, and `--merge
R1 R2 ...` (no Go, no drivers) checks that the reports are every slice of one
plan and judges their union as the whole run (comparisons/verdict.py).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from comparisons import plan
from comparisons.boundaries import boundaries
from comparisons.cases import cases
from comparisons.behaviours import FAMILIES
from comparisons.agent_hooks import AGENTS_DIR, agents_installed
from comparisons.agent_hooks import agents as agent_hooks
from comparisons.agent_hooks import heldout as agent_heldout
from comparisons.agent_hooks import payloads as agent_payloads
from comparisons.differential import REGRESSIONS, differential, kept_files, regressions
from comparisons.faults import faults
from comparisons.runtime import ROOT, TARGETS, Comparison, Tools
from comparisons.sdk import BEHAVIOURS, ScenarioError, opens_a_pack, scenario_files, sdk
from comparisons.states import states
from comparisons.timing import PAIRS as TIMING_PAIRS
from comparisons.timing import timing
from comparisons.tools import offered_tools
from comparisons.verdict import Explained, identity, judge_run, load_exceptions, merge, write_report
from comparisons.wire import wire
from comparisons.world import world

DRIVERS = ["proctor", "picoclaw_host", "promptkit_host", "promptkit_state", "promptkit_tools", "promptkit_sdk", "runok_host"]


def shard(text: str) -> tuple[int, int]:
    try:
        return plan.parse_shard(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))


def commit() -> str | None:
    """The repository's commit, so that slices of two versions are not merged as one run."""
    out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip() if out.returncode == 0 else None


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
    ap.add_argument("--proctor")
    ap.add_argument("--picoclaw-host")
    ap.add_argument("--promptkit-host")
    ap.add_argument("--promptkit-state")
    ap.add_argument("--promptkit-tools")
    ap.add_argument("--promptkit-sdk")
    ap.add_argument("--runok-host")
    ap.add_argument("--exceptions", default=str(Path(__file__).with_name("fidelity-exceptions.toml")))
    ap.add_argument("--only", choices=plan.KINDS, action="append", help="run only these comparisons (wire includes verify)")
    ap.add_argument("--agent-hooks", type=int, default=60, help="agents: generated hooks, each through both agents (default 60: 120 comparisons)")
    ap.add_argument("--scenario", action="append", default=[], help="sdk: compare this scenario (one that opens a pack) instead of the repository's; repeatable")
    ap.add_argument("--cases", type=int, default=200, help="differential: generated plugins per family (default 200)")
    ap.add_argument("--seed", type=int, default=None, help="differential and agents: the seed (default: a new one, printed; the same seed draws the same plugins and hooks)")
    ap.add_argument("--family", action="append", choices=list(FAMILIES), help="differential: only these families")
    ap.add_argument("--no-shrink", action="store_true", help="differential: report disagreements as drawn, unshrunk (faster)")
    ap.add_argument("--rerecord", action="store_true", help="differential: write each kept regression case anew from its genome and the runtime's outcome now")
    ap.add_argument("--replay", default=None, help="differential: run the cases kept in this folder (a --found one) instead of interop/differential/regressions")
    ap.add_argument("--found", default=None, help="differential: write each shrunk disagreement here as a regression case (JSON)")
    ap.add_argument("--target", action="append", help="only these targets (e.g. picoclaw-hook, promptkit-exec/tool)")
    ap.add_argument("--shard", type=shard, default=None, metavar="K/N", help="run slice K of N of the run's plan (1 <= K <= N; needs --seed): the N slices together are the whole run")
    ap.add_argument("--report", default=None, metavar="FILE", help="write what this run (or slice) compared as JSON, for --merge")
    ap.add_argument("--merge", nargs="+", default=None, metavar="REPORT", help="judge the --report files of every slice of one sharded run as the whole run (needs no Go and no drivers)")
    ap.add_argument("--jobs", type=int, default=6, help="comparisons run at once (most time is spent waiting on deadlines)")
    ap.add_argument("--verbose", action="store_true", help="print equal comparisons too")
    args = ap.parse_args()

    if args.merge:
        return merge([Path(p) for p in args.merge], load_exceptions(Path(args.exceptions)), args.exceptions, args.verbose, BEHAVIOURS)
    if args.shard and args.seed is None:
        print(f"fidelity: --shard {args.shard[0]}/{args.shard[1]} needs --seed: slices drawn from different random seeds are not one run", file=sys.stderr)
        return 2
    missing = [f"--{d.replace('_', '-')}" for d in DRIVERS if not getattr(args, d)]
    if missing:
        ap.error(f"{', '.join(missing)} required (interop/fidelity.sh builds the drivers and passes them)")
    k, n = args.shard or (1, 1)

    kinds = set(args.only or plan.KINDS)
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
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(3), "big")
    families = args.family or list(FAMILIES)
    kept_dir = Path(args.replay) if args.replay else REGRESSIONS
    whole = plan.build(kinds, targets, bool(args.target), seed, args.cases, families, kept_files(kept_dir), args.agent_hooks)
    mine = whole.slice(k, n)
    ident = identity(whole, seed, args.cases, families, kinds, args.agent_hooks, args.only, args.target, args.scenario, commit())
    if args.shard:
        print(f"fidelity: shard {k}/{n}: {len(mine.units)} of the plan's {len(whole.units)} units (plan {whole.hash[:12]}, seed {seed})", file=sys.stderr, flush=True)
    picked = mine.picked
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
        explained_by: dict[str, Explained] = {}  # sdk: comparison key -> the behaviour that explains it
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for t in targets:
                if t.name in picked("wire"):
                    found += wire(tools, t)
                if t.name in picked("fault"):
                    found += faults(tools, t, pool)
                if t.name in picked("wire") + picked("fault"):
                    print(f"fidelity: {t.name} compared", file=sys.stderr, flush=True)
            if picked("case"):
                found += cases(tools, [t for t in targets if t.name in picked("case")], pool)
            if picked("state"):
                found += states(tools, pool)
            if picked("tools"):
                found += offered_tools(tools, pool)
            if picked("boundary"):
                found += boundaries(tools, pool, set(picked("boundary")))
            if picked("timing"):
                found += timing(tools, pool, [TIMING_PAIRS[i] for i in picked("timing")])
            if picked("sdk"):
                files = [Path(s).resolve() for s in args.scenario] or scenario_files()
                try:
                    compared = sdk(tools, pool, files)
                except ScenarioError as e:
                    print(f"fidelity: a scenario cannot be used: {e}", file=sys.stderr)
                    return 2
                explained_by.update((c.comparison.kind + " " + c.comparison.id, Explained(c.behaviour.id, c.behaviour.why)) for c in compared if c.behaviour)
                found += [c.comparison for c in compared]
            if "differential" in kinds:
                print(f"fidelity: differential seed {seed}, {args.cases} cases per family (replay: --only differential --seed {seed} --cases {args.cases})", file=sys.stderr, flush=True)
                if picked("regression"):
                    found += regressions(tools, pool, args.rerecord, kept_dir, set(picked("regression")))
                if picked("differential"):
                    found_dir = Path(args.found) if args.found else None
                    found += differential(tools, pool, families, args.cases, seed, found_dir, not args.no_shrink, set(picked("differential")))
            if "agents" in kinds and not args.target:
                print(f"fidelity: agents seed {seed}, {args.agent_hooks} hooks (replay: --only agents --seed {seed} --agent-hooks {args.agent_hooks})", file=sys.stderr, flush=True)
                # Two agents at a time: each is a 150-400 MB native binary that wants a core.
                with concurrent.futures.ThreadPoolExecutor(max_workers=2) as agent_pool:
                    if picked("agents-payload"):
                        found += agent_payloads(tools.proctor, agent_pool, Path(work) / "agents")
                    if picked("agents-heldout"):
                        found += agent_heldout(tools.proctor, agent_pool, AGENTS_DIR / "heldout" / "manifest.json", Path(work) / "agents", set(picked("agents-heldout")))
                    if picked("agents-hook"):
                        found += agent_hooks(tools.proctor, agent_pool, args.agent_hooks, seed, Path(work) / "agents", set(picked("agents-hook")))
            if picked("world"):
                with concurrent.futures.ThreadPoolExecutor(max_workers=2) as agent_pool:
                    found += world(tools.proctor, agent_pool, Path(work) / "world")

    if not mine.units:
        print(f"fidelity: shard {k}/{n} holds no unit of the plan's {len(whole.units)}", file=sys.stderr)
    verdict = judge_run(ident, whole, mine, found, explained_by, listed, args.exceptions, args.verbose, BEHAVIOURS)
    if args.report:
        write_report(Path(args.report), ident, k, n, mine, found, explained_by, verdict)
    return verdict.code


if __name__ == "__main__":
    sys.exit(main())
