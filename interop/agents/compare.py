#!/usr/bin/env python3
"""Generated command hooks through the real Claude Code and Codex CLI and
through `proctor certify`, verdict against outcome (comparisons/agent_hooks.py).

    interop/agents/compare.py --proctor BIN [--hooks N] [--seed S] [--jobs J] [--verbose]

Each hook runs through both agents, so N hooks make 2N comparisons. Prints
one line per disagreement (every line with --verbose) and a summary; exit 1
when any comparison disagrees.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from comparisons.agent_hooks import agents, heldout, payloads  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--proctor", required=True)
    ap.add_argument("--hooks", type=int, default=60, help="generated hooks (each through both agents)")
    ap.add_argument("--seed", type=int, default=None, help="the seed (default: a new one, printed)")
    ap.add_argument("--jobs", type=int, default=2, help="agents run at once")
    ap.add_argument("--heldout", default=None, help="also run the hand-written hooks of this manifest (interop/agents/heldout/manifest.json)")
    ap.add_argument("--payloads", action="store_true", help="also compare the documents each agent writes on a hook's stdin with certify's")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"agents: seed {seed}, {args.hooks} hooks (replay: --seed {seed} --hooks {args.hooks})", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="proctor-agents-") as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = agents(args.proctor, pool, args.hooks, seed, Path(tmp)) if args.hooks else []
        if args.heldout:
            results += heldout(args.proctor, pool, Path(args.heldout), Path(tmp))
        if args.payloads:
            results += payloads(args.proctor, pool, Path(tmp))
    bad = [c for c in results if not c.equal]
    for c in results if args.verbose else bad:
        print(f"{'EQUAL' if c.equal else 'DIFFER'} {c.id}\n      {c.detail}")
    print(f"agents: {len(results)} compared, {len(results) - len(bad)} agree, {len(bad)} disagree (seed {seed})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
