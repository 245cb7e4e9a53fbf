"""boundary: each tolerance and reply-reading divergence of a runtime
profile, held at its edge by a pair of generated plugins.

A tolerance says "the runtime reads this anyway"; written for the fault that
showed it, it may be broader than the runtime. So each one gets a plugin it
must tolerate (the runtime reaches what the plugin meant, proctor says
conformant) and a neighbour one small step away that it must not (the
runtime does not, proctor says nonconformant). Both run through proctor and
the runtime like any differential case; the comparison is equal only when
both sides say what the pair claims. FIDELITY.md lists the pairs.
"""

from __future__ import annotations

from .behaviours import RUNOK, Genome
from .runok_genome import CALL
from .differential import judge
from .runtime import Comparison, Tools

PK = "promptkit-exec"

# (the tolerance or divergence, target, bent call, decision, tolerated genes,
# neighbour genes[, the neighbour's decision when it means something else])
PAIRS = [
    ("promptkit.go-json-replies", f"{PK}/tool-hook", "*", "allow", [("key-case", "allow", "upper")], [("value-type", "allow", "true")]),
    ("promptkit.go-json-replies", f"{PK}/eval", "*", "scored", [("key-case", "score", "long-s")], [("number", "score", "1e999")]),
    ("promptkit.invalid-utf8-replaced", f"{PK}/tool-hook", "*", "deny", [("bad-utf8", "reason", "end")], [("bad-utf8", "reason", "outside")]),
    ("promptkit.tool-whole-document-result", f"{PK}/tool", "*", "result", [("drop-key", "result")], [("top", "array")]),
    ("promptkit.tool-whole-document-result", f"{PK}/tool", "*", "result", [("drop-key", "result"), ("extra-key", "error", None, True)], [("drop-key", "result"), ("extra-key", "error", "boom", True)]),
    ("promptkit.pending-not-read", f"{PK}/tool", "*", "result", [("extra-key", "pending", {}, False)], [("extra-key", "error", "boom", False)]),
    ("promptkit.pending-beside-an-answer", f"{PK}/tool", "*", "result", [("extra-key", "pending", {"reason": "approval", "message": "wait"}, True)], [("extra-key", "error", "boom", True)]),
    ("promptkit.tool-error-before-result", f"{PK}/tool", "*", "result", [("extra-key", "error", "", False)], [("extra-key", "error", "boom", False)]),
    ("promptkit.tool-error-before-result", f"{PK}/tool", "*", "error", [("extra-key", "result", {"x": 1}, False)], [("extra-key", "error", "boom", False)], "result"),
    ("promptkit.keeps-raw-numbers", f"{PK}/tool", "*", "result", [("number", "result", "1e999")], [("number", "error", "1e999")], "error"),
    ("promptkit.eval-score-unclamped", f"{PK}/eval", "*", "scored", [("value-type", "score", 1.5)], [("value-type", "score", "1.5")]),
    ("promptkit.selector-unknown-ids-dropped", f"{PK}/selector", "*", "selected", [("value-type", "selected", ["x"])], [("value-type", "selected", "x")]),
    ("promptkit.session-hook-stdout-ignored", f"{PK}/session-hook", "*", "ack", [("top", "string")], [("exit", 1)]),
    ("promptkit.server-ignores-jsonrpc", "promptkit-server/tool", "execute", "result", [("jsonrpc", "1.0")], [("jsonrpc", "number")]),
    ("promptkit.server-error-before-result", "promptkit-server/tool", "execute", "error", [("error-with-result",)], [("error-object", "string")]),
    ("promptkit.server-one-line-per-call", "promptkit-server/tool", "execute", "result", [("crlf",)], [("log-before", "starting up")]),
    ("picoclaw.go-json-replies", "picoclaw-hook", "hook.before_tool", "deny_tool", [("key-case", "action", "upper-first")], [("value-type", "action", 5)]),
    ("picoclaw.go-json-replies", "picoclaw-hook", "hook.approve_tool", "approved", [("key-case", "approved", "mixed")], [("value-type", "approved", "true")]),
    ("picoclaw.invalid-utf8-replaced", "picoclaw-hook", "hook.before_tool", "deny_tool", [("bad-utf8", "reason", "start")], [("bad-utf8", "reason", "outside")]),
    ("picoclaw.ignores-jsonrpc", "picoclaw-hook", "hook.before_tool", "continue", [("jsonrpc", "1.0")], [("jsonrpc", "number")]),
    ("picoclaw.skips-undecodable-lines", "picoclaw-hook", "hook.after_tool", "continue", [("log-before", "starting up")], [("whitespace", "", "\n")]),
    ("picoclaw.skips-broken-lines", "picoclaw-hook", "hook.after_llm", "continue", [("log-after", "{not json")], [("whitespace", "\n", "")]),
    ("picoclaw.hello-result-ignored", "picoclaw-hook", "hook.hello", "ok", [("top", "null")], [("top", "array")]),
    ("picoclaw.drops-stale-replies", "picoclaw-hook", "hook.before_tool", "deny_tool", [("duplicate-reply",)], [("id", "other")]),
    ("picoclaw.drops-replies-without-id", "picoclaw-hook", "hook.runtime_event", "ok", [], [("exit", 3)]),
    ("picoclaw.drops-replies-without-id", "picoclaw-hook", "hook.runtime_event", "ok", [], [("no-newline",)]),
    ("picoclaw.go-json-replies", "picoclaw-hook", "hook.before_tool", "respond", [("duplicate-key", "result", {"x": 1}, False)], [("duplicate-key", "result", "x", False)]),
    ("picoclaw.error-wins", "picoclaw-hook", "hook.before_tool", "continue", [], [("error-with-result",)]),
    ("picoclaw.nested-after-modify", "picoclaw-hook", "hook.after_tool", "modify", [], [("value-type", "result", {"for_llm": "redacted"})]),
    ("picoclaw.before-llm-system-messages-kept", "picoclaw-hook", "hook.before_llm", "modify-keeps-system", [], []),
    ("runok.ignores-reply-id", RUNOK, CALL, "deny", [("id", "other")], [("stray-id",)]),
    ("runok.ignores-jsonrpc", RUNOK, CALL, "allow", [("jsonrpc", "1.0")], [("jsonrpc", "1.0"), ("error-with-result",)]),
    ("runok.invalid-utf8-lossy", RUNOK, CALL, "deny", [("bad-utf8", "message", "end")], [("bad-utf8", "message", "outside")]),
    ("runok.skips-unknown-keys-unread", RUNOK, CALL, "ask", [("outer", ["number", "id", "1e999"])], [("outer", ["number", "result", "1e999"])]),
    ("runok.serde-json-replies", RUNOK, CALL, "deny", [("outer", ["extra-key", "error", None, False])], [("outer", ["duplicate-key", "result", None, False])]),
    ("runok.serde-json-replies", RUNOK, CALL, "deny", [("as-array", 3)], [("as-array", 2)]),
    ("runok.serde-json-replies", RUNOK, CALL, "ask", [("extra-key", "note", "x", False)], [("key-case", "message", "upper-first")]),
]
# The last pair's neighbour is the same edit that drops the system message.
NEIGHBOUR_DECISION = {"picoclaw.before-llm-system-messages-kept": "modify"}


def neighbour_decision(pair: tuple) -> str:
    name, decision = pair[0], pair[3]
    return pair[6] if len(pair) > 6 else NEIGHBOUR_DECISION.get(name, decision)


def boundaries(tools: Tools, pool, picked: set[int] | None = None) -> list[Comparison]:
    """Every pair, or those at the indices `picked` (a slice of a sharded run):
    a pair's genomes take their seed from its index, so it is the same in any slice."""

    def one(job) -> Comparison:
        n, pair = job
        name, target, bent, decision, tolerated, neighbour = pair[:6]
        inside = judge(tools, Genome(target, 7_000_000 + n, bent, decision, list(tolerated)))
        outside = judge(tools, Genome(target, 7_000_000 + n, bent, neighbour_decision(pair), list(neighbour)))
        holds = inside.agree and outside.agree and inside.reached and not outside.reached
        said = lambda o: ("conformant" if o.conformant else f"nonconformant ({', '.join(o.failed[:3])})") + f", runtime {'reached' if o.reached else 'did not: ' + o.why}"  # noqa: E731
        detail = f"tolerated {tolerated}: {said(inside)}; neighbour {neighbour}: {said(outside)}"
        return Comparison("boundary", f"{name} {target} {bent}", holds, detail)

    return list(pool.map(one, [(n, pair) for n, pair in enumerate(PAIRS) if picked is None or n in picked]))
