"""`fidelity.sh --shard K/N` and `--merge`: the slices of a run add up to the
run, and the merged reports of its slices are judged as the run itself.

Cheap and without Go: the plans are computed, not run, and the run judged
is a fake one, each unit of the plan standing in for its comparisons. The
verdict code under test is the one fidelity.py runs (comparisons/plan.py,
comparisons/verdict.py). `.ci/run` runs it before the real run:

    python3 -m unittest discover -s interop/tests
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import tempfile
import unittest
from dataclasses import dataclass
from pathlib import Path

INTEROP = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(INTEROP))

from comparisons import agent_hooks, plan, verdict  # noqa: E402
from comparisons.behaviours import FAMILIES, draw  # noqa: E402
from comparisons.differential import REGRESSIONS, SEED_STRIDE, Outcome, comparison, kept_files  # noqa: E402
from comparisons.runtime import TARGETS, Comparison  # noqa: E402

ALL = set(plan.KINDS)


def whole_plan(kinds=ALL, targets=TARGETS, seed=7, cases=12, families=None, hooks=5) -> plan.Plan:
    return plan.build(set(kinds), targets, targets is not TARGETS, seed, cases, families or list(FAMILIES), kept_files(REGRESSIONS), hooks)


@dataclass
class Behaviour:
    """An sdk behaviour as judge() sees one."""

    id: str
    why: str = "a fake behaviour"


class FakeRun:
    """A run of `whole` whose every unit compares equal, but for what a test plants."""

    def __init__(self, whole: plan.Plan, ident: dict):
        self.whole, self.ident = whole, ident
        self.by_unit: dict[str, list[tuple[Comparison, verdict.Explained | None]]] = {}
        for u in whole.units:
            key = u.owns[0]  # a comparison key the unit produces
            kind, _, cid = key.partition(" ")
            self.by_unit[u.id] = [(Comparison(kind, cid or "the only one", True, "equal"), None)]

    def plant(self, unit: plan.Unit, cid: str, equal: bool, behaviour: str | None = None) -> str:
        kind = unit.owns[0].partition(" ")[0]
        self.by_unit[unit.id].append((Comparison(kind, cid, equal, "planted"), verdict.Explained(behaviour, "why") if behaviour else None))
        return f"{kind} {cid}"

    def judged(self, k: int, n: int, listed: dict, behaviours: list) -> tuple[verdict.Verdict, str]:
        """What the slice prints and its verdict, exactly as fidelity.py's main() judges it."""
        mine = self.whole.slice(k, n)
        found, explained = self.of(mine)
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            v = verdict.judge_run(self.ident, self.whole, mine, found, explained, listed, "x.toml", False, behaviours)
        return v, out.getvalue()

    def of(self, mine: plan.Plan) -> tuple[list[Comparison], dict[str, verdict.Explained]]:
        found, explained = [], {}
        for u in mine.units:
            for c, b in self.by_unit[u.id]:
                found.append(c)
                if b:
                    explained[f"{c.kind} {c.id}"] = b
        return found, explained

    def reports(self, n: int, folder: Path, listed: dict, behaviours: list) -> list[Path]:
        paths = []
        for k in range(1, n + 1):
            mine = self.whole.slice(k, n)
            found, explained = self.of(mine)
            v, _ = self.judged(k, n, listed, behaviours)
            path = folder / f"slice-{k}-of-{n}.json"
            verdict.write_report(path, self.ident, k, n, mine, found, explained, v)
            paths.append(path)
        return paths


def merged(paths: list[Path], listed: dict, behaviours: list) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = verdict.merge(paths, listed, "x.toml", False, behaviours)
    return code, out.getvalue(), err.getvalue()


def judged_lines(text: str) -> list[str]:
    """What a run printed, in an order a merge keeps (slices print in slice order)."""
    return sorted(text.splitlines())


class Slices(unittest.TestCase):
    def plans(self):
        yield "every kind", whole_plan()
        yield "--only differential, two families", whole_plan({"differential"}, families=["promptkit-exec", "runok-extension"], cases=40)
        yield "--target promptkit-exec/tool", whole_plan({"wire", "fault", "case", "differential"}, targets=[t for t in TARGETS if t.name == "promptkit-exec/tool"], cases=3)
        yield "nothing but the kept regressions", whole_plan({"differential"}, cases=0)

    def test_the_slices_are_disjoint_and_together_the_plan(self):
        for what, whole in self.plans():
            for n in (1, 2, 3, 4, 7, len(whole.units) + 3):
                with self.subTest(what, n=n):
                    slices = [whole.slice(k, n) for k in range(1, n + 1)]
                    ids = [i for s in slices for i in s.ids]
                    self.assertEqual(len(ids), len(set(ids)), "a unit is in two slices")
                    self.assertEqual(set(ids), set(whole.ids), "the slices are not the plan")
                    sizes = [len(s.units) for s in slices]
                    self.assertLessEqual(max(sizes) - min(sizes), 1, "nextest's count partition: sizes differ by one at most")
                    # Dealt back in turn, the slices are the plan in its order (what --merge checks by hash).
                    dealt = [slices[i % n].ids[i // n] for i in range(len(whole.units))]
                    self.assertEqual(dealt, whole.ids)

    def test_each_generated_case_is_a_unit_of_its_own(self):
        whole = whole_plan(cases=30, hooks=9)
        self.assertEqual(len(whole.picked("differential")), 30 * len(FAMILIES))
        self.assertEqual(whole.picked("agents-hook"), list(range(9)))
        # And every slice of a large N gets a share of each kind that has one per slice.
        for k in range(1, 4):
            self.assertEqual(len(whole.slice(k, 3).picked("differential")), 30 * len(FAMILIES) // 3)

    def test_the_plan_is_the_same_on_every_machine(self):
        self.assertEqual(whole_plan().hash, whole_plan().hash)
        self.assertNotEqual(whole_plan(cases=12).hash, whole_plan(cases=13).hash)
        self.assertNotEqual(whole_plan().hash, whole_plan(kinds=ALL - {"agents"}).hash)

    def test_shard_text(self):
        for text, want in (("1/1", (1, 1)), ("2/3", (2, 3)), ("3/3", (3, 3)), (" 7/10 ", (7, 10))):
            self.assertEqual(plan.parse_shard(text), want)
        for text in ("0/3", "4/3", "x", "", "1/0", "1/2/3", "-1/2", "1 / 2", "a/b"):
            with self.assertRaises(ValueError, msg=text):
                plan.parse_shard(text)


class Owners(unittest.TestCase):
    """A slice may call a listed exception stale only when it ran every unit that could compare it."""

    def test_every_listed_exception_has_a_unit(self):
        whole = whole_plan()
        for key in verdict.load_exceptions(INTEROP / "fidelity-exceptions.toml"):
            self.assertTrue(whole.owners(key), f"no unit of the plan compares {key!r}")

    def test_generated_comparisons_name_their_unit(self):
        whole = whole_plan(cases=20, hooks=6)
        seed = 7
        for family, names in FAMILIES.items():
            for i in range(20):
                g = draw(names[i % len(names)], seed * SEED_STRIDE + i)
                for label, o in ((f"seed {g.seed}", Outcome(True, [], True, "")), (f"seed {g.seed} shrunk to", Outcome(True, [], False, "x"))):
                    c = comparison(g, o, label)
                    self.assertEqual([u.id for u in whole.owners(f"{c.kind} {c.id}")], [f"differential {family} {i}"])
        for path in kept_files(REGRESSIONS)[:5]:
            self.assertEqual([u.id for u in whole.owners(f"differential regression {path.name} picoclaw-hook * deny []")], [f"differential regression {path.name}"])
        for i, hook in enumerate(agent_hooks.drawn(6, seed)):
            owners = {u.id for u in whole.owners(f"agents codex: {hook.name}")}
            self.assertIn(f"agents hook {i}", owners)
        self.assertEqual([u.id for u in whole.owners("verify promptkit-exec/tool")], ["wire promptkit-exec/tool"])
        self.assertEqual([u.id for u in whole.owners("wire promptkit-exec/tool tool #1")], ["wire promptkit-exec/tool"])
        self.assertEqual([u.id for u in whole.owners("case promptkit-exec/tool-hook promptkit-exec/pii_tool_hook.py: x")], ["case promptkit-exec/tool-hook"])


class Merge(unittest.TestCase):
    def setUp(self):
        self.whole = whole_plan(cases=10, hooks=4)
        self.ident = verdict.identity(self.whole, 7, 10, list(FAMILIES), ALL, 4, None, None, [], "abc")
        self.run = FakeRun(self.whole, self.ident)
        units = {u.id: u for u in self.whole.units}
        fault = units["fault promptkit-server/tool"]
        self.listed = {
            # still differs: a listed exception
            self.run.plant(fault, "promptkit-server/tool late-reply", False): "late",
            # equal now: stale
            self.run.plant(units["fault picoclaw-hook/observe,llm,tool,approve"], "picoclaw-hook/observe,llm,tool,approve drop-pipelined", True): "gone",
            # no longer compared, and its unit in some slice: stale (there, and merged)
            "fault promptkit-server/tool bad-error-object": "gone too",
        }
        self.run.plant(units["differential promptkit-exec 3"], "seed 7000024 promptkit-exec/eval * scored []", False)  # unexplained
        self.run.plant(units["sdk"], "scenarios/x.yaml journal", False, "sdk-explains")
        self.behaviours = [Behaviour("sdk-explains"), Behaviour("sdk-stale")]

    def test_the_merged_slices_are_judged_as_the_whole_run(self):
        whole_v, whole_out = self.run.judged(1, 1, self.listed, self.behaviours)
        self.assertEqual((whole_v.unexplained, whole_v.exceptions, whole_v.code), (4, 2, 1), whole_out)  # DIFFERENT, 2 STALE exceptions, STALE behaviour
        with tempfile.TemporaryDirectory() as tmp:
            for n in (1, 2, 3, 5, 11):
                with self.subTest(n=n):
                    folder = Path(tmp) / str(n)
                    paths = self.run.reports(n, folder, self.listed, self.behaviours)
                    code, out, _ = merged(paths[::-1], self.listed, self.behaviours)  # in any order
                    self.assertEqual(code, whole_v.code)
                    self.assertEqual(out.splitlines()[-1], whole_v.line)
                    self.assertEqual(judged_lines(out), judged_lines(whole_out))

    def test_a_slice_calls_stale_only_what_it_ran(self):
        for n in (2, 3, 5):
            outs = [self.run.judged(k, n, self.listed, self.behaviours)[1] for k in range(1, n + 1)]
            missing = [o for o in outs if "STALE     fault promptkit-server/tool bad-error-object: listed as an exception but no longer compared" in o]
            self.assertEqual(len(missing), 1, f"n={n}: the exception is stale in the slice holding its unit, and only there")
            k = next(k for k in range(1, n + 1) if "fault promptkit-server/tool" in self.whole.slice(k, n).ids)
            self.assertIn("bad-error-object", outs[k - 1])
            behaviour = [o for o in outs if "STALE     behaviour sdk-stale" in o]
            self.assertEqual(len(behaviour), 1, f"n={n}: a behaviour is judged where the sdk comparison ran")

    def test_a_missing_or_doubled_slice_is_no_whole_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = self.run.reports(3, Path(tmp), self.listed, self.behaviours)
            code, _, err = merged(paths[:2], self.listed, self.behaviours)
            self.assertEqual(code, 2)
            self.assertIn("slice 3/3 missing", err)
            code, _, err = merged([paths[0], paths[0], paths[1], paths[2]], self.listed, self.behaviours)
            self.assertEqual(code, 2)
            self.assertIn("given twice", err)

    def test_slices_of_other_runs_do_not_merge(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = self.run.reports(2, Path(tmp) / "a", self.listed, self.behaviours)
            other = FakeRun(self.whole, {**self.ident, "seed": 8})
            theirs = other.reports(2, Path(tmp) / "b", self.listed, self.behaviours)
            code, _, err = merged([paths[0], theirs[1]], self.listed, self.behaviours)
            self.assertEqual(code, 2)
            self.assertIn("seed 7 against 8", err)
            threes = self.run.reports(3, Path(tmp) / "c", self.listed, self.behaviours)
            code, _, err = merged([paths[0], threes[1], threes[2]], self.listed, self.behaviours)
            self.assertEqual(code, 2)
            # A slice whose units are not its share of the plan (edited, or of another plan).
            report = json.loads(paths[1].read_text())
            report["units"][0], report["units"][1] = report["units"][1], report["units"][0]
            paths[1].write_text(json.dumps(report))
            code, _, err = merged(paths, self.listed, self.behaviours)
            self.assertEqual(code, 2)
            self.assertIn("hash differs", err)

    def test_fidelity_py_merges_without_go(self):
        """The command line the workflow's last job runs: reports in, the whole run's line and status out."""
        with tempfile.TemporaryDirectory() as tmp:
            listed = Path(tmp) / "exceptions.toml"
            listed.write_text("".join(f"[[exception]]\nid = {json.dumps(k)}\nwhy = {json.dumps(v)}\n" for k, v in self.listed.items()))
            paths = self.run.reports(2, Path(tmp), self.listed, self.behaviours)
            cmd = [sys.executable, str(INTEROP / "fidelity.py"), "--exceptions", str(listed), "--merge", *map(str, paths)]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            self.assertEqual(out.returncode, 1, out.stderr)  # the planted differences
            self.assertRegex(out.stdout.splitlines()[-1], r"^fidelity: \d+ compared, \d+ equal, 2 listed exceptions, \d+ unexplained$")
            out = subprocess.run(cmd[:-1], capture_output=True, text=True, timeout=120)
            self.assertEqual(out.returncode, 2)
            self.assertIn("missing", out.stderr)

    def test_fidelity_py_refuses_a_shard_it_cannot_run(self):
        py = [sys.executable, str(INTEROP / "fidelity.py")]
        for text in ("0/3", "4/3", "x"):
            out = subprocess.run([*py, "--shard", text, "--seed", "1"], capture_output=True, text=True, timeout=120)
            self.assertEqual(out.returncode, 2, text)
            self.assertIn("K/N with 1 <= K <= N", out.stderr)
        out = subprocess.run([*py, "--shard", "2/3"], capture_output=True, text=True, timeout=120)
        self.assertEqual(out.returncode, 2)
        self.assertIn("needs --seed", out.stderr)


if __name__ == "__main__":
    unittest.main()
