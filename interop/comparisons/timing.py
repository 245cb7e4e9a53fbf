"""timing: each runtime's deadlines and pipes, held at their edges by pairs
of small plugins (interop/timing/).

proctor's profiles say how long each runtime waits on each surface, what it
waits for after the answer (the exit, the pipes' EOF) and how it reads the
pipes (runok's stdout only after the exit, PicoClaw's stderr reader that
stops at a 1 MiB line, PromptKit's server reading one line per call). Each
rule gets a plugin just inside it (the runtime reaches what the plugin
meant) and one just outside (it does not); a rule a runtime does not have
(Go reads keys in any case) gets only the side that shows it. Each plugin
runs through the runtime's driver with the pair's calls file, and through
`proctor certify --cases` under the runtime's profile with a cases file
saying what the plugin meant: "conformant" must mean the runtime reached it.
A pair is equal only when both plugins agree and the runtime put each on
the side the pair claims. interop/timing/README.md lists the pairs and what
each measured.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from .runtime import LATE_MS, LEFTOVER_MARK, PICOCLAW, PROMPTKIT, PROMPTKIT_SURFACES, ROOT, Comparison, Tools, kill_marked, run

RUNOK_PROFILE = "runok@0.3.1"
DIR = Path("interop") / "timing"  # the plugins, their calls and cases files (relative to ROOT: commands run there)

# Each target: proctor's protocol, role and profile, and how its driver is started.
TARGETS = {
    "promptkit-exec/tool-hook": ("promptkit-exec", "tool-hook", PROMPTKIT),
    "promptkit-exec/tool": ("promptkit-exec", "tool", PROMPTKIT),
    "promptkit-server/tool": ("promptkit-server", "tool", PROMPTKIT),
    "picoclaw-hook/tool": ("picoclaw-hook", "tool", PICOCLAW),
    "picoclaw-hook/approve": ("picoclaw-hook", "approve", PICOCLAW),
    "runok-extension": ("runok-extension", None, RUNOK_PROFILE),
}

ALLOW = '{"allow":true}'
TEMP = '{"result":{"temp":18}}'


@dataclass
class Plugin:
    what: str  # what it does, in a few words
    argv: list[str]  # relative to the repository
    secs: float = 0  # what it sleeps
    cost: float = 0  # about how long its longer run takes, in seconds: the long ones are started first


def hook(mode: str, secs: float, answer: str = ALLOW) -> Plugin:
    words = {"delay": f"answers after {secs:g} s", "linger": f"answers, exits {secs:g} s later", "child": f"answers, a child holds stdout {secs:g} s"}
    return Plugin(words[mode], ["sh", str(DIR / "pk_hook.sh"), mode, f"{secs:g}", answer], secs)


def server(mode: str, secs: float = 0) -> Plugin:
    words = {"plain": "plain replies", "slowstart": f"reads its first request after {secs:g} s", "notify": "a notification line before its first reply", "upper": "envelope keys in upper case"}
    return Plugin(words[mode], ["python3", str(DIR / "pk_server.py"), mode, *([f"{secs:g}"] if secs else [])], secs)


def pico(what: str, *args: str, secs: float = 0, cost: float = 0) -> Plugin:
    return Plugin(what, ["python3", str(DIR / "pc_hook.py"), *args], secs, cost)


def runok(what: str, mode: str, n: str = "", secs: float = 0) -> Plugin:
    return Plugin(what, ["python3", str(DIR / "rk_ext.py"), mode, *([n] if n else [])], secs)


@dataclass
class Pair:
    rule: str
    target: str
    inside: list[Plugin]  # the runtime must reach these, and proctor say conformant
    outside: list[Plugin]  # and not these, and proctor say nonconformant
    calls: str  # the driver's calls file, in interop/timing
    cases: str  # what the plugin means, in interop/timing
    timeout_ms: int | None = None  # the same deadline on both sides, where the runtime's own is too long to wait


PAIRS = [
    # PromptKit's exec hooks: one 10 s context over the whole run (exec.CommandContext + cmd.Run),
    # then 500 ms (WaitDelay) for the pipes to close once the process has exited.
    Pair("promptkit.hook-deadline-10s", "promptkit-exec/tool-hook", [hook("delay", 7)], [hook("delay", 11)], "tool_hook.calls.jsonl", "tool_hook.cases.yaml"),
    Pair("promptkit.hook-waits-for-exit", "promptkit-exec/tool-hook", [hook("linger", 3)], [hook("linger", 11)], "tool_hook.calls.jsonl", "tool_hook.cases.yaml"),
    Pair("promptkit.hook-pipes-close-within-500ms", "promptkit-exec/tool-hook", [hook("child", 0.2)], [hook("child", 2)], "tool_hook.calls.jsonl", "tool_hook.cases.yaml"),
    # The exec tool: the registry's deadline (ToolDescriptor.TimeoutMs; 30 s for a file-loaded
    # tool) held here at 2 s on both sides.
    Pair("promptkit.tool-deadline", "promptkit-exec/tool", [hook("delay", 1, TEMP)], [hook("delay", 3, TEMP)], "tool.calls.jsonl", "tool.cases.yaml", 2000),
    # cmd.Run has no WaitDelay there: once the tool has exited, a child holding stdout is waited
    # for, within the deadline (fine) and past it (the call completes only when the child ends,
    # late: the agent waited; the fault comparison's `grandchild` holds the same at 45 s).
    Pair("promptkit.tool-waits-for-pipes", "promptkit-exec/tool", [hook("child", 1, TEMP)], [hook("child", 3.5, TEMP)], "tool.calls.jsonl", "tool.cases.yaml", 2000),
    # PromptKit's server mode: 30 s for a call (the first one waits for the start), one line read per call.
    Pair("promptkit.server-start-30s", "promptkit-server/tool", [server("slowstart", 7)], [server("slowstart", 31)], "server1.calls.jsonl", "server1.cases.yaml"),
    Pair("promptkit.server-one-line-per-call", "promptkit-server/tool", [server("plain")], [server("notify")], "server.calls.jsonl", "server.cases.yaml"),
    Pair("promptkit.server-envelope-any-case", "promptkit-server/tool", [server("upper")], [], "server.calls.jsonl", "server.cases.yaml"),
    # PicoClaw: interceptors 5 s (then it goes on as if the hook said continue), approvals 60 s,
    # a stderr reader (bufio.Scanner, 1 MiB) that stops for good at a longer line.
    Pair("picoclaw.interceptor-deadline-5s", "picoclaw-hook/tool", [pico("answers after 4 s", "--delay", "4", secs=4, cost=60)], [pico("answers after 6 s", "--delay", "6", secs=6)], "picoclaw_tool.calls.jsonl", "picoclaw_tool.cases.yaml"),
    Pair("picoclaw.approval-deadline-60s", "picoclaw-hook/approve", [pico("approves after 7 s", "--delay", "7", secs=7, cost=100)], [], "picoclaw_approve.calls.jsonl", "picoclaw_approve.cases.yaml"),
    Pair(
        "picoclaw.stderr-line-1mib",
        "picoclaw-hook/tool",
        [pico("a 0.9 MiB stderr line", "--quirk", "stderr_line", "--kib", "921.6")],
        [pico("a 1.1 MiB stderr line", "--quirk", "stderr_line", "--kib", "1126.4", secs=5)],
        "picoclaw_tool.calls.jsonl",
        "picoclaw_tool.cases.yaml",
    ),
    # Past the reader's 1 MiB the line's rest goes into the 64 KiB pipe: a hook that writes no
    # more to stderr is not blocked (1 MiB + 64 KiB = 1088 KiB; measured 1060 and 1070 pass, 1090 hangs).
    Pair("picoclaw.stderr-pipe-holds-64kib-more", "picoclaw-hook/tool", [pico("a 1060 KiB stderr line", "--quirk", "stderr_line", "--kib", "1060")], [], "picoclaw_tool.calls.jsonl", "picoclaw_tool.cases.yaml"),
    Pair(
        "picoclaw.skips-stray-lines",
        "picoclaw-hook/tool",
        [pico("a notification line before each reply", "--quirk", "notify"), pico("a blank line before each reply", "--quirk", "blank"), pico("a banner line at start-up", "--quirk", "banner")],
        [],
        "picoclaw_tool.calls.jsonl",
        "picoclaw_tool.cases.yaml",
    ),
    Pair("picoclaw.envelope-any-case", "picoclaw-hook/tool", [pico("envelope keys in upper case", "--quirk", "upper")], [], "picoclaw_tool.calls.jsonl", "picoclaw_tool.cases.yaml"),
    # runok: polls for the exit (10 ms) within its deadline (5 s in runok-host, the documents'),
    # then reads stdout (wait_with_output): a reply past the 64 KiB pipe buffer never lets it exit.
    Pair("runok.stdout-read-after-exit", "runok-extension", [runok("a reply of 65536 bytes", "exact", "65536")], [runok("a reply of 65537 bytes", "exact", "65537", secs=2)], "", "runok.cases.yaml", 2000),
    Pair("runok.waits-for-exit-5s", "runok-extension", [runok("answers, exits 3 s later", "linger", "3", secs=3)], [runok("answers, exits 6 s later", "linger", "6", secs=6)], "", "runok.cases.yaml"),
    Pair("runok.envelope-exact-case", "runok-extension", [runok("plain reply", "plain")], [runok("envelope keys in upper case", "upper")], "", "runok.cases.yaml"),
]


@dataclass
class Seen:
    conformant: bool
    failed: list[str]
    reached: bool
    why: str
    replay: str

    @property
    def agree(self) -> bool:
        return self.conformant == self.reached


def rel(cmd: list[str]) -> str:
    """A command as one types it at the repository's root."""
    root = str(ROOT) + "/"
    return shlex.join(c[len(root) :] if c.startswith(root) else c for c in cmd)


def certify_cmd(tools: Tools, pair: Pair, p: Plugin) -> list[str]:
    family, role, profile = TARGETS[pair.target]
    cmd = [tools.proctor, "certify", "--no-progress", "--format", "json", "--protocol", family, *(["--role", role] if role else [])]
    # One-shot plugins here mostly sleep: let their probes overlap, or a 7 s answer costs minutes.
    cmd += ["--jobs", "8"] if family in ("promptkit-exec", "runok-extension") else []
    cmd += ["--profile", profile, "--cases", str(DIR / pair.cases)]
    cmd += ["--timeout-ms", str(pair.timeout_ms)] if pair.timeout_ms else []
    return [*cmd, "--", *p.argv]


def driver_cmd(tools: Tools, pair: Pair) -> list[str]:
    family, role, _ = TARGETS[pair.target]
    if family == "runok-extension":
        return [tools.runok_host, *(["--timeout-ms", str(pair.timeout_ms)] if pair.timeout_ms else []), "--calls", "1"]
    if family == "picoclaw-hook":
        return [tools.picoclaw_host, "--modes", role, "--calls", str(DIR / pair.calls)]
    surface = "server-tool" if family == "promptkit-server" else PROMPTKIT_SURFACES[role]
    cmd = [tools.promptkit_host, "--surface", surface, "--env", LEFTOVER_MARK, "--calls", str(DIR / pair.calls)]
    return cmd + (["--timeout-ms", str(pair.timeout_ms)] if pair.timeout_ms else [])


def proctor_says(tools: Tools, pair: Pair, p: Plugin) -> tuple[bool, list[str], str]:
    cmd = certify_cmd(tools, pair, p)
    profile = TARGETS[pair.target][2]
    out = run(cmd, timeout=600)
    shown = rel(["proctor", *cmd[1:]]).replace(" --no-progress --format json", "")
    try:
        report = json.loads(out.stdout)
    except json.JSONDecodeError:
        last = (out.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
        return False, [f"no report (exit {out.returncode}): {last[:300]}"], shown
    verdict = report.get("profile_verdicts", {}).get(profile, report.get("verdict"))
    failed = sorted({c["id"] for c in report.get("checks", []) if c.get("status") == "fail" and c.get("profile") == profile})
    return verdict == "conformant", failed, shown


def runtime_did(tools: Tools, pair: Pair, p: Plugin, n: int) -> tuple[bool, str, str]:
    cmd = driver_cmd(tools, pair)
    mark = f"timing-{os.getpid()}-{n}"
    out = run([*cmd, "--", *p.argv], timeout=600, env={**os.environ, LEFTOVER_MARK: mark})
    shown = rel([*cmd, "--", *p.argv]).replace(f" --env {LEFTOVER_MARK}", "")
    if out.returncode != 0:
        raise SystemExit(f"driver failed (exit {out.returncode}): {shown}\n{out.stderr[-2000:]}")
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
    # What the runtime made of the calls first; a process left behind (a killed
    # script's own sleep, a child holding a pipe) matters only where it reached them.
    left = kill_marked(f"{LEFTOVER_MARK}={mark}")
    why = judge(pair, lines) or (f"left running: {left}" if left else "")
    return not why, why or "as meant", shown


def judge(pair: Pair, lines: list[dict]) -> str:
    """Where the runtime did not reach what the plugin meant, or ""."""
    family, role, _ = TARGETS[pair.target]
    calls = [line for line in lines if "index" in line]
    want = 1 if family == "runok-extension" else len((ROOT / DIR / pair.calls).read_text().splitlines())
    for line in lines:
        if line.get("step") == "start" and not line.get("ok"):
            return f"the runtime could not start the hook: {line.get('error')}"
    if len(calls) != want:
        return f"{len(calls)} of {want} calls came back"
    deadline = pair.timeout_ms
    for line in calls:
        o = line.get("outcome") or {}
        where = line.get("method") or line.get("phase") or line.get("surface") or "the call"
        if deadline and line.get("elapsed_ms", 0) > deadline + LATE_MS:
            return f"{where}: completed after {line['elapsed_ms']} ms, past the {deadline} ms deadline"
        if family == "runok-extension":
            r = line.get("resolved") or {}
            if line.get("error") or r.get("action") != "deny":
                return f"{line.get('error') or ''} -> {r.get('action')}: {r.get('message')}".strip()
        elif family == "picoclaw-hook":
            if line.get("hook_error"):
                return f"{where}: hook error {line['hook_error']}, went on with {json.dumps(line.get('decision') or line.get('approval'))}"
            if role == "approve" and (line.get("approval") or {}).get("approved") is not True:
                return f"{where}: {json.dumps(line.get('approval'))}, meant approved"
            if role == "tool" and (line.get("decision") or {}).get("action") != "deny_tool":
                return f"{where}: {json.dumps(line.get('decision'))}, meant deny_tool"
        elif role == "tool-hook":
            if line.get("error") or o.get("Allow") is not True:
                return f"{where}: denied: {o.get('Reason') or line.get('error')}"
        elif o.get("status") != "complete" or line.get("error"):
            return f"{where}: {o.get('status')}: {line.get('error') or o.get('error')}"
        elif family == "promptkit-exec" and o.get("content") != {"temp": 18}:
            return f"{where}: result {json.dumps(o.get('content'))}, meant {{\"temp\": 18}}"
        elif family == "promptkit-server" and not (isinstance(o.get("content"), dict) and o["content"].get("ok") is True):
            return f"{where}: result {json.dumps(o.get('content'))}, meant the echo"
    for line in lines:
        if line.get("step") == "close" and line.get("error"):
            return f"at close: {line['error']}"
    return ""


def timing(tools: Tools, pool, pairs: list[Pair] = PAIRS) -> list[Comparison]:
    """Every pair, or `pairs` (a slice of a sharded run)."""
    jobs = [(pair, side, p) for pair in pairs for side, ps in (("inside", pair.inside), ("outside", pair.outside)) for p in ps]
    # Each plugin twice (the runtime, proctor), as jobs of their own: the longest first.
    work = sorted([(n, kind) for n in range(len(jobs)) for kind in ("runtime", "proctor")], key=lambda w: -((jobs[w[0]][2].cost or jobs[w[0]][2].secs) if w[1] == "proctor" else jobs[w[0]][2].secs))

    def one(w):
        n, kind = w
        pair, _, p = jobs[n]
        return w, (runtime_did(tools, pair, p, n) if kind == "runtime" else proctor_says(tools, pair, p))

    done = dict(pool.map(one, work))
    seen: dict[int, Seen] = {}
    for n in range(len(jobs)):
        reached, why, drove = done[(n, "runtime")]
        conformant, failed, certified = done[(n, "proctor")]
        seen[n] = Seen(conformant, failed, reached, why, f"the runtime: {drove}\n          proctor:     {certified}")

    out = []
    ids = set()
    for pair in pairs:
        mine = [(side, p, seen[n]) for n, (q, side, p) in enumerate(jobs) if q is pair]
        holds = all(s.agree and s.reached == (side == "inside") for side, _, s in mine)
        parts = []
        for side, p, s in mine:
            said = "conformant" if s.conformant else f"nonconformant ({', '.join(s.failed[:3]) or 'no check named'})"
            did = "reached what it meant" if s.reached else f"did not: {s.why}"
            part = f"{side} `{p.what}`: proctor {said}, runtime {did}"
            if not (s.agree and s.reached == (side == "inside")):
                part += f"\n          {s.replay}"
            parts.append(part)
        key = f"{pair.rule} {pair.target}"
        assert key not in ids, f"two timing pairs are both {key}"
        ids.add(key)
        out.append(Comparison("timing", key, holds, "; ".join(parts)))
    return out
