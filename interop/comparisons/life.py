"""Genes for what a plugin does besides its answer's bytes: time, children,
pipes, extra lines, the envelope's key case (issue 40).

behaviours.py bends what a plugin says; these bend how and when it says it,
and what it leaves around: a slow start, a reply just inside or just past the
deadline, lingering after the answer, a child that holds stdout or stderr or
leaves the session, stderr by the megabyte or in one endless line, a reply
around the pipe buffer or a line limit, a reply in pieces, a notification, a
banner or a blank line around the reply, `ID` for `id`. None of them changes
what the plugin meant: whether the runtime still reached it is the question.

The values straddle each runtime's rule (items 1-7 of issue 40): each delay
is drawn just inside or just past the comparison's deadline, a child lives
well under proctor's 250 ms leak window or far past it, a stderr line sits
under or over PicoClaw's 1 MiB scanner plus the pipe buffer, a reply is
65,536 or 65,537 bytes (runok reads stdout only after the exit).

They are drawn from a stream of their own (`random.Random(f"life-{family}-{seed}")`),
so every seed drawn before these genes existed still draws the same plugin,
plus these.
"""

from __future__ import annotations

import random

# Every deadline on both sides of the differential comparison.
DEADLINE_MS = 2000
# Just inside and just past it, with room for a loaded machine on each side.
INSIDE, PAST = DEADLINE_MS - 600, DEADLINE_MS + 600
# A child that ends long before proctor's 250 ms leak window, or one that outlives any
# session (a runtime that waits for the pipes it holds waits as long as it lives). A
# one-shot plugin's child also lives 1 s: past PromptKit's 500 ms WaitDelay, within the
# deadline a PromptKit tool or runok waits for the pipes. (A long-lived plugin's child is
# started at start-up: whether 1 s outlives a session is the session's length, not a rule.)
CHILD_MS = (60, 30_000)
ONE_SHOT_CHILD_MS = (60, 1000, 30_000)

LIFE_GENES = {"slow", "slow-start", "linger", "child", "stderr-volume", "stderr-line", "big-reply", "chunks", "extra-line", "envelope-case"}

EXTRA_LINES = {
    "notification": b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}',
    "blank": b"",
    "banner": b"gate v1.2 ready",
    "object": b"{}",
}
PAD_KEY = b'"x_pad":"'


def draw(seed: int, family: str, one_shot: bool) -> list[tuple]:
    """A few genes of this module for a plugin of `family`, or none."""
    r = random.Random(f"life-{family}-{seed}")
    if r.random() < 0.6:
        return []
    genes: list[tuple] = []
    kinds = ["slow", "slow-start", "linger", "child", "stderr-volume", "stderr-line", "big-reply", "chunks", "extra-line"]
    weights = [3, 2, 3, 4, 2, 1, 2, 2, 4]
    if not one_shot:
        kinds.append("envelope-case")
        weights.append(3)
    for kind in sorted(set(r.choices(kinds, weights=weights, k=r.choice([1, 1, 1, 2])))):
        if kind == "slow":
            genes.append(("slow", r.choice([INSIDE, PAST])))
        elif kind == "slow-start":
            genes.append(("slow-start", r.choice([300, INSIDE, PAST])))
        elif kind == "linger":
            genes.append(("linger", r.choice([300, INSIDE, PAST])))
        elif kind == "child":
            genes.append(("child", r.choice(["none", "stdout", "stderr"]), r.random() < 0.4, r.choice(ONE_SHOT_CHILD_MS if one_shot else CHILD_MS)))
        elif kind == "stderr-volume":
            genes.append(("stderr-volume", r.choice([8, 80, 1200])))
        elif kind == "stderr-line":
            genes.append(("stderr-line", r.choice([1000, 1300])))
        elif kind == "big-reply":
            sizes = {"picoclaw-hook": [65_537, 1_040_000, 1_060_000], "promptkit-server": [65_537, 300_000]}.get(family, [65_536, 65_537, 300_000])
            genes.append(("big-reply", r.choice(sizes)))
        elif kind == "chunks" and not any(g[0] == "big-reply" for g in genes):
            genes.append(("chunks", r.choice([1, 5, 4096]), r.choice([0, 3])))
        elif kind == "extra-line":
            where = ["before", "after"] if one_shot else ["start", "before", "after"]
            genes.append(("extra-line", r.choice(list(EXTRA_LINES)), r.choice(where)))
        elif kind == "envelope-case":
            genes.append(("envelope-case", r.choice(["jsonrpc", "id", "result"]), r.choice(["upper-first", "upper", "mixed"])))
    return genes


def named(genes: list, name: str):
    return next((g for g in genes if g[0] == name), None)


def process(script: dict, genes: list, one_shot: bool) -> dict:
    """The script-wide genes: start-up, children, stderr, pieces, lingering."""
    if g := named(genes, "slow-start"):
        script["start_delay_ms"] = g[1]
    if g := named(genes, "child"):
        _, holds, own_session, ms = g
        script["child"] = {"ms": ms, "holds": holds, "own_session": own_session}
    if g := named(genes, "linger"):
        if one_shot:
            if script.get("then", "exit") == "exit":
                script["linger_ms"] = g[1]
        else:
            script.setdefault("at_eof", {})["delay_ms"] = g[1]
    # A megabyte of stderr written before anything else, in lines or as one.
    if g := named(genes, "stderr-volume"):
        script["stderr"], script["stderr_repeat"] = "w" * 99 + "\n", g[1] * 1024 // 100
    elif g := named(genes, "stderr-line"):
        script["stderr"], script["stderr_repeat"] = "w" * 1024, g[1]
    if g := named(genes, "chunks"):
        script["write_chunks"] = {"bytes": g[1], "gap_ms": g[2]}
    return script


def pad(line: bytes, genes: list, around: int = 0) -> bytes:
    """`line` (a JSON object's text) with an ignored member first, so that
    it and `around` more bytes of stdout come to the gene's size exactly."""
    g = named(genes, "big-reply")
    if not g:
        return line
    start = line.find(b"{")
    if start < 0:
        return line
    rest = line[start + 1 :]
    comma = b"" if rest.lstrip().startswith(b"}") else b","
    fill = g[1] - around - len(line) - len(PAD_KEY) - 1 - len(comma)
    if fill < 0:
        return line
    return line[: start + 1] + PAD_KEY + b"p" * fill + b'"' + comma + rest


def extra_lines(reply: bytes, genes: list) -> bytes:
    """A line before or after the reply (`start` goes in the banner)."""
    g = named(genes, "extra-line")
    if not g or g[2] == "start":
        return reply
    line = EXTRA_LINES[g[1]] + b"\n"
    if g[2] == "before":
        return line + reply
    return reply + (b"" if reply.endswith(b"\n") or not reply else b"\n") + line


def banner(genes: list) -> bytes:
    g = named(genes, "extra-line")
    return EXTRA_LINES[g[1]] + b"\n" if g and g[2] == "start" else b""


def envelope_key(key: str, genes: list, variant) -> str:
    """The envelope's member `key` as the gene spells it (`variant`: behaviours.case_variant)."""
    g = named(genes, "envelope-case")
    if g and (g[1] == key or (g[1] == "result" and key == "error")):
        return variant(key, g[2]) or key
    return key
