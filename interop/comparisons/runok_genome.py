"""Generated runok extensions: one `validateCommand` per process, answered
with a JSON-RPC reply whose `result` says `status` (allow, deny, ask), a
`message` and a `fix_suggestion`.

runok 0.3.1 reads the reply unlike the Go runtimes (src/exec/extension_runner.rs):
it waits for the process to exit, takes stdout through
`String::from_utf8_lossy`, and parses it with serde_json into typed structs,
so keys are exact (case matters), a duplicate known key fails the reply,
`id` and `jsonrpc` are never read, and text after the document fails it.
None of that is assumed here: the genome bends the reply and the real runner
says what it made of it (interop/runok `runok-host`).

Besides the genes of behaviours.py, applied to the `result` object, a runok
genome has `outer` genes: the same structural genes applied to the envelope
(`Result`, `result` twice, an `id` nested a hundred deep), since runok's
reading of the envelope is part of what a plugin must get right.
"""

from __future__ import annotations

import random

from . import life
from .behaviours import (
    DOC_GENES,
    TEXT_GENES,
    Built,
    Genome,
    Intent,
    Obj,
    Raw,
    apply_doc_gene,
    apply_text_gene,
    draw_doc_genes,
    draw_envelope_genes,
    draw_framing_genes,
    draw_process_genes,
    dump,
    envelope_tree,
    keys_of,
    obj,
    pairs_of,
    process_step,
    render_doc,
    stdout_of,
    standard_reading,
)

TARGET = "runok-extension"
CALL = "validateCommand"
DECISIONS = ["allow", "deny", "ask"]
MESSAGE = "this host is internal"
FIX = "curl https://api.example.com/v1/items"
# serde_json's recursion limit is 128: the nesting genes straddle it.
DEPTHS = [1, 2, 100, 126, 127, 128, 129, 200]
ENVELOPE_KEYS = ["jsonrpc", "id", "result"]


def document(decision: str) -> tuple[Obj, Intent]:
    """The documented answer meaning `decision`, and its intent: the message
    is the intent's reason, the fix suggestion its content."""
    if decision == "allow":
        return obj(status="allow"), Intent(CALL, "allow")
    if decision == "deny":
        return obj(status="deny", message=MESSAGE, fix_suggestion=FIX), Intent(CALL, "deny", reason=MESSAGE, content=FIX, has_content=True)
    return obj(status="ask", message=MESSAGE), Intent(CALL, "ask", reason=MESSAGE)


def positional(doc: Obj, n: int) -> list:
    """The result written as an array of its fields in runok's order (serde
    reads a struct from one), `n` of them: 3 is all, fewer or more are not."""
    values = [doc.get("status"), doc.get("message"), doc.get("fix_suggestion")]
    return (values + [None] * 3)[:n] if n <= 3 else values + ["extra"] * (n - 3)


def lone_surrogate(doc: Obj, key: str) -> Obj:
    """`key`'s string with an unpaired `\\ud800` escape after it."""
    out = Obj(doc.pairs)
    out.pairs = [(k, Raw(dump(v)[:-1] + b'\\ud800"') if k == key and isinstance(v, str) else v) for k, v in doc.pairs]
    return out


def restate(intent: Intent, body: bytes) -> Intent:
    """What the author says is what the result document says: a key in
    another case still means the documented key (the last one written); a
    status that is no decision word, or no object at all, states nothing."""
    doc = standard_reading(body)
    out = Intent(intent.call, intent.decision, None, None, None, False, True)
    if isinstance(doc, list) and doc:
        # Fields by position, as the author laid them out.
        doc = dict(zip(["status", "message", "fix_suggestion"], doc))
    if not isinstance(doc, dict):
        out.stated = False
        return out

    def said(key):
        found = [v for k, v in (pairs_of(body) or doc.items()) if k.casefold() == key]
        return found[-1] if found else None

    status = said("status")
    out.stated = isinstance(status, str) and status.casefold() == intent.decision
    message, fix = said("message"), said("fix_suggestion")
    out.reason = message if isinstance(message, str) else None
    out.content, out.has_content = (fix, True) if isinstance(fix, str) else (None, False)
    return out


RESULT_GENES = DOC_GENES | {"as-array", "lone-surrogate"}


def render_result(doc: Obj, genes: list) -> bytes:
    for gene in genes:
        if gene[0] == "lone-surrogate":
            doc = lone_surrogate(doc, gene[1])
    for gene in genes:
        if gene[0] == "as-array":
            return render_doc(positional(doc, gene[1]), [x for x in genes if x[0] in DOC_GENES])
    return render_doc(doc, [x for x in genes if x[0] in DOC_GENES])


def build(g: Genome) -> Built:
    doc, intent = document(g.decision)
    result = render_result(doc, g.genes)
    tree = envelope_tree(result, g.genes, error=False)
    for gene in g.genes:
        if gene[0] == "outer":
            tree = apply_doc_gene(tree, tuple(gene[1]), ENVELOPE_KEYS)
    text = dump(tree)
    for gene in g.genes:
        if gene[0] in TEXT_GENES:
            text = apply_text_gene(text, gene)
    text = life.pad(text, g.genes, around=len(stdout_of(text, g.genes, one_shot=True)) - len(text))
    reply = stdout_of(text, g.genes, one_shot=True)
    names = {x[0] for x in g.genes}
    # What a second JSON-RPC reply on stdout does to a one-shot reader.
    if "duplicate-reply" in names:
        reply = reply + b"\n" + reply
    if "stray-id" in names:
        reply = b'{"jsonrpc":"2.0","id":4243,"result":{}}\n' + reply
    if "extra-reply" in names:
        reply = reply + b'\n{"jsonrpc":"2.0","id":4244,"result":{}}'
    script = process_step({}, g.genes, reply, one_shot=True)
    if "then" not in script:
        script.setdefault("exit", 0)
    life.process(script, g.genes, one_shot=True)
    meant = restate(intent, render_result(doc, g.genes))
    case = {"name": f"intent 0: {CALL} {meant.decision}", "expect": {"decision": meant.decision}}
    return Built(script, [case], [meant])


def draw(seed: int, r: random.Random) -> Genome:
    decision = r.choice(DECISIONS)
    doc, _ = document(decision)
    keys, numeric, strings = keys_of(doc)
    genes = []
    if r.random() < 0.7:
        genes += draw_doc_genes(r, keys, numeric, strings, depths=DEPTHS)
    if r.random() < 0.1:
        genes.append(("as-array", r.choice([2, 3, 3, 4])))
    if r.random() < 0.08 and strings:
        genes.append(("lone-surrogate", r.choice(strings)))
    if r.random() < 0.3:
        genes += [("outer", list(x)) for x in draw_doc_genes(r, ENVELOPE_KEYS, ["id"], ["jsonrpc"], depths=DEPTHS)]
    genes += draw_framing_genes(r, False)
    genes += draw_envelope_genes(r)
    genes += draw_process_genes(r, False)
    genes += life.draw(seed, TARGET, one_shot=True)
    return Genome(TARGET, seed, CALL, decision, genes)


def judge_call(intent: Intent, line: dict, clean) -> str:
    """Why runok did not reach what the plugin meant, or "" when it did."""
    where = CALL
    if not intent.stated:
        return f"{where}: the answer never states the decision; runok's fallback is not the plugin's"
    if "error" in line:
        resolved = line.get("resolved") or {}
        return f"{where}: {line['error']} (runok resolved {resolved.get('action')}: {resolved.get('message')!r})"
    ok = line.get("ok") or {}
    if ok.get("status") != intent.decision:
        return f"{where}: status {ok.get('status')!r}, meant {intent.decision!r} (runok resolved {(line.get('resolved') or {}).get('action')})"
    if clean(ok.get("message")) != clean(intent.reason):
        return f"{where}: message {ok.get('message')!r}, meant {intent.reason!r}"
    if clean(ok.get("fix_suggestion")) != clean(intent.content):
        return f"{where}: fix_suggestion {ok.get('fix_suggestion')!r}, meant {intent.content!r}"
    return ""

