"""The plan of a run: every unit of work, in one deterministic order, and the
slices `--shard K/N` cuts it into.

A run larger than one machine is split as nextest's `--partition count:K/N`
splits tests: every unit has a stable place in the plan, and slice K runs the
units whose index i has i % N == K - 1. So the slices are disjoint and
together they are the plan, whatever N is, and each slice gets about 1/N of
every kind (the plan lists kind by kind, and deals each kind round the
slices). The plan depends only on what the run was asked for (kinds, targets,
seed, cases, families, hooks) and on files in the repository (the kept
regressions, the held-out hooks): the machines of one sharded run compute the
same plan, and a report carries its hash so that a merge can tell (see
verdict.py).

A unit is as small as a comparison allows without running anything twice: a
generated plugin is one unit, and so is a hook, drawn or hand-written,
through both agents (the bulk of a run); a target is one for the wire and
fault comparisons (the faults share the target's baselines), a pair one for
the boundary and timing comparisons; the state, tools, sdk and world
comparisons, and the agents' payload shapes, are one unit each. Each
unit also names the comparison keys it can produce (`owns`), so that a slice
can tell a listed exception it should have seen from one another slice sees.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import agent_hooks
from .behaviours import FAMILIES
from .boundaries import PAIRS as BOUNDARY_PAIRS
from .cases import EXAMPLES
from .differential import SEED_STRIDE
from .runtime import Target
from .timing import PAIRS as TIMING_PAIRS

# The kinds a run can compare, in the order a run takes them.
KINDS = ["wire", "fault", "case", "state", "tools", "boundary", "timing", "sdk", "differential", "agents", "world"]


@dataclass(frozen=True)
class Unit:
    """One unit of work: `part` says which comparison runs it and `arg` what it
    is given (a target's name, an index, a file name); `id` is its stable name."""

    part: str
    arg: object
    id: str
    owns: tuple[str, ...] = field(default=(), compare=False)  # the comparison keys it can produce: each one, or it and what follows a space

    def produces(self, key: str) -> bool:
        return any(key == p or key.startswith(p + " ") for p in self.owns)


@dataclass
class Plan:
    units: list[Unit]

    @property
    def ids(self) -> list[str]:
        return [u.id for u in self.units]

    @property
    def hash(self) -> str:
        """The plan's identity: what two machines must agree on to be slices of one run."""
        return hashlib.sha256("\n".join(self.ids).encode()).hexdigest()

    def slice(self, k: int, n: int) -> Plan:
        """Slice `k` of `n` (1-based): the units at index i with i % n == k - 1, in plan order."""
        return Plan([u for i, u in enumerate(self.units) if i % n == k - 1])

    def picked(self, part: str) -> list:
        """The args of this plan's units of `part`, in plan order."""
        return [u.arg for u in self.units if u.part == part]

    def owners(self, key: str) -> list[Unit]:
        """The units that can produce the comparison `key` (kind, space, id)."""
        return [u for u in self.units if u.produces(key)]


SHARD = re.compile(r"([0-9]+)/([0-9]+)")


def parse_shard(text: str) -> tuple[int, int]:
    """`K/N` with 1 <= K <= N, as nextest's `--partition count:K/N`."""
    m = SHARD.fullmatch(text.strip())
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise ValueError(f"expected K/N with 1 <= K <= N (slice K of N, e.g. 2/3), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def build(
    kinds: set[str],
    targets: list[Target],
    targeted: bool,
    seed: int,
    cases: int,
    families: list[str],
    kept: list[Path],
    agent_hooks_count: int,
    heldout: Path = agent_hooks.AGENTS_DIR / "heldout" / "manifest.json",
) -> Plan:
    """The whole plan of a run. `targeted`: the run names targets (--target),
    which leaves out every kind but wire, fault, case and differential, as
    fidelity.py always has."""
    units: list[Unit] = []
    add = lambda part, arg, uid, *owns: units.append(Unit(part, arg, uid, tuple(owns)))  # noqa: E731
    every = not targeted
    if "wire" in kinds:
        for t in targets:
            add("wire", t.name, f"wire {t.name}", f"wire {t.name}", f"verify {t.name}")
    if "fault" in kinds:
        for t in targets:
            add("fault", t.name, f"fault {t.name}", f"fault {t.name}")
    if "case" in kinds:
        # cases.py runs an example on the target it names, by name or by family.
        named = {name for name, _ in EXAMPLES}
        for t in targets:
            if t.name in named or t.family in named:
                add("case", t.name, f"case {t.name}", f"case {t.name}")
    for kind in ("state", "tools"):
        if kind in kinds and every:
            add(kind, None, kind, kind)
    if "boundary" in kinds and every:
        for n, pair in enumerate(BOUNDARY_PAIRS):
            name, target, bent = pair[:3]
            add("boundary", n, f"boundary #{n}", f"boundary {name} {target} {bent}")
    if "timing" in kinds and every:
        for n, pair in enumerate(TIMING_PAIRS):
            add("timing", n, f"timing {pair.rule} {pair.target}", f"timing {pair.rule} {pair.target}")
    if "sdk" in kinds and every:
        add("sdk", None, "sdk", "sdk")
    if "differential" in kinds:
        for path in kept:
            add("regression", path.name, f"differential regression {path.name}", f"differential regression {path.name}")
        for family in families:
            names = FAMILIES[family]
            for i in range(cases):
                target, s = names[i % len(names)], seed * SEED_STRIDE + i
                add("differential", (family, i), f"differential {family} {i}", f"differential seed {s} {target}", f"differential seed {s} shrunk to {target}")
    if "agents" in kinds and every:
        add("agents-payload", None, "agents payloads", "agents payload")
        # A hook, hand-written or drawn, is one unit through both agents.
        for entry in json.loads(heldout.read_text()):
            add("agents-heldout", entry["file"], f"agents held-out {entry['file']}", *(f"agents {agent}: held-out {entry['file']}" for agent in agent_hooks.AGENTS))
        for i, hook in enumerate(agent_hooks.drawn(agent_hooks_count, seed)):
            add("agents-hook", i, f"agents hook {i}", *(f"agents {agent}: {hook.name}" for agent in agent_hooks.AGENTS))
    if "world" in kinds and every:
        add("world", None, "world", "world")
    ids = [u.id for u in units]
    assert len(set(ids)) == len(ids), "two units of the plan share an id"
    return Plan(units)
