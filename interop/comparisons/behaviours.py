"""Generated plugin behaviours for the differential comparison.

A behaviour is a plugin written as data: what it writes, byte for byte, to
each request (`proctor mock-plugin --script`), and what its author MEANT by
it (the intended decision of every call). It is grown from a genome:

  - the target (a family and role, as interop/comparisons/runtime.py names it);
  - per call the runtime makes, the intended decision and the well-formed
    document that says it in the documented protocol;
  - a short list of mutations, each a gene: a key spelled in another case, a
    value of another JSON type, a number at the edge, a duplicate key, an
    envelope bent, a framing change, a process that hangs or exits.

The intent survives the mutations: `{"Allow": false, "reason": "pii"}` still
means "deny, because pii". Whether the runtime reached it is the question the
comparison asks of both proctor and the runtime. Shrinking drops genes, so a
genome is kept small and every gene stands alone.

Everything is drawn from one `random.Random(seed)` per case, so a case is
reproduced by its seed alone.
"""

from __future__ import annotations

import copy
import json
import math
import random
from dataclasses import dataclass, field

from . import life

# ----------------------------------------------------------------------------
# JSON with what Python's json cannot say: duplicate keys, raw number text,
# raw bytes. A document is a tree of these; `dump` writes it to bytes.


class Obj:
    """A JSON object as its ordered (key, value) pairs, duplicates allowed."""

    def __init__(self, pairs):
        self.pairs = [(k, v) for k, v in pairs]

    def get(self, key, default=None):
        found = default
        for k, v in self.pairs:
            if k == key:
                found = v
        return found

    def keys(self):
        return [k for k, _ in self.pairs]


@dataclass
class Raw:
    """Bytes written as they are (a number's text, garbage)."""

    data: bytes


def obj(**kw) -> Obj:
    return Obj(kw.items())


def to_tree(v):
    if isinstance(v, dict):
        return Obj((k, to_tree(x)) for k, x in v.items())
    if isinstance(v, list):
        return [to_tree(x) for x in v]
    return v


def dump(v) -> bytes:
    if isinstance(v, Raw):
        return v.data
    if isinstance(v, Obj):
        return b"{" + b",".join(dump_str(k) + b":" + dump(x) for k, x in v.pairs) + b"}"
    if isinstance(v, dict):
        return dump(to_tree(v))
    if isinstance(v, list):
        return b"[" + b",".join(dump(x) for x in v) + b"]"
    if isinstance(v, str):
        return dump_str(v)
    return json.dumps(v).encode()


def dump_str(s) -> bytes:
    if isinstance(s, Raw):
        return s.data
    return json.dumps(s, ensure_ascii=False).encode()


# ----------------------------------------------------------------------------
# Intents: per call, the decision in a cases file's words, and what else the
# author meant (a reason, a payload, a result's content).


@dataclass
class Intent:
    call: str  # the method (PicoClaw), phase (PromptKit hooks) or the surface
    decision: str  # a cases file's decision word ("continue", "deny", "result", "approved", "scored", "selected", "ack")
    reason: str | None = None
    payload: dict | None = None  # for modify/respond: what the runtime should go on with (a subset)
    content: object = None  # a tool's result, an eval's score, a selector's ids
    has_content: bool = False
    # False when the answer never states the decision (`{}` for a filter hook,
    # no `approved`): whatever the runtime then does is its default, not the plugin's.
    stated: bool = True


# ----------------------------------------------------------------------------
# Genes. Each is a plain tuple (name, *args): printable, comparable, JSON-able.

Gene = tuple


@dataclass
class Genome:
    target: str
    seed: int
    # The call each gene bends ("*" for process-wide genes), and its genes.
    bent: str
    decision: str
    genes: list[Gene] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"target": self.target, "seed": self.seed, "bent": self.bent, "decision": self.decision, "genes": [list(g) for g in self.genes]}

    @staticmethod
    def from_json(v: dict) -> "Genome":
        return Genome(v["target"], v["seed"], v["bent"], v["decision"], [tuple(g) for g in v["genes"]])


REASON = "blocked by policy"
CASE_VARIANTS = ("upper-first", "upper", "long-s", "kelvin", "mixed")


def case_variant(key: str, how: str) -> str | None:
    if how == "upper-first":
        return key[:1].upper() + key[1:]
    if how == "upper":
        return key.upper()
    if how == "mixed":
        return "".join(c.upper() if i % 2 else c for i, c in enumerate(key))
    if how == "long-s" and "s" in key:
        return key.replace("s", "\u017f", 1)  # LATIN SMALL LETTER LONG S: Go folds it to S
    if how == "kelvin" and "k" in key:
        return key.replace("k", "\u212a", 1)  # KELVIN SIGN: Go folds it to K
    return None


# Values of every JSON type, for "this key holds the wrong kind of thing".
def typed_values(r: random.Random) -> dict:
    return {
        "string": r.choice(["", "true", "1", "x"]),
        "number": r.choice([0, 1, -1, 0.5]),
        "bool": r.choice([True, False]),
        "null": None,
        "array": r.choice([[], ["x"]]),
        "object": r.choice([{}, {"x": 1}]),
    }


EDGE_NUMBERS = ["1e999", "-1e999", "1e-400", "-0", "-0.0", "9007199254740993", "18446744073709551616", "1.0", "1E2", "0.5", "-1", "123456789012345678901234567890"]


# ----------------------------------------------------------------------------
# Mutating a document tree.


def apply_doc_gene(doc, gene: Gene, keys: list[str]):
    """Returns the document with one structural gene applied (doc is not changed)."""
    name, *args = gene
    doc = copy.deepcopy(doc)
    if name == "top":
        return {"array": [to_tree_safe(doc)], "string": "x", "number": 1, "bool": True, "null": None, "empty-array": []}[args[0]]
    if not isinstance(doc, Obj):
        return doc
    if name == "key-case":
        key, how = args
        new = case_variant(key, how)
        doc.pairs = [(new if k == key and new else k, v) for k, v in doc.pairs]
    elif name == "value-type":
        key, value = args
        doc.pairs = [(k, to_tree(value) if k == key else v) for k, v in doc.pairs]
    elif name == "number":
        key, text = args
        doc.pairs = [(k, Raw(text.encode()) if k == key else v) for k, v in doc.pairs]
    elif name == "drop-key":
        doc.pairs = [(k, v) for k, v in doc.pairs if k != args[0]]
    elif name == "extra-key":
        key, value, first = args
        pair = (key, to_tree(value))
        doc.pairs = [pair, *doc.pairs] if first else [*doc.pairs, pair]
    elif name == "duplicate-key":
        key, value, before = args
        if key in doc.keys():
            pair = (key, to_tree(value) if value is not None else copy.deepcopy(doc.get(key)))
            doc.pairs = [pair, *doc.pairs] if before else [*doc.pairs, pair]
    elif name == "nest":
        key, depth = args
        def wrap(v):
            return Raw(b"[" * depth + dump(v) + b"]" * depth)
        doc.pairs = [(k, wrap(v) if k == key else v) for k, v in doc.pairs]
    elif name == "bad-utf8":
        key, where = args
        def spoil(v):
            if where == "outside":
                return Raw(dump(v) + b" \xff")
            if isinstance(v, str):
                body = json.dumps(v, ensure_ascii=False).encode()[1:-1]
                return Raw(b'"' + (b"\xff" + body if where == "start" else body + b"\xc3") + b'"')
            return v
        doc.pairs = [(k, spoil(v) if k == key else v) for k, v in doc.pairs]
    elif name == "escaped-key":
        key = args[0]
        escaped = "".join(f"\\u{ord(c):04x}" for c in key)
        doc.pairs = [(Raw(f'"{escaped}"'.encode()) if k == key else k, v) for k, v in doc.pairs]
    return doc


def to_tree_safe(v):
    return v


def apply_text_gene(text: bytes, gene: Gene) -> bytes:
    """Framing genes, applied to one serialised document (no newline yet)."""
    name, *args = gene
    if name == "whitespace":
        lead, trail = args
        return lead.encode() + text + trail.encode()
    if name == "bom":
        return b"\xef\xbb\xbf" + text
    if name == "after-text":
        return text + args[0].encode()
    if name == "two-documents":
        return text + args[0].encode() + text
    return text


# ----------------------------------------------------------------------------
# Targets: the calls each driver makes, their possible intents and the
# well-formed document for each.

PICO_CALLS = ["hook.before_llm", "hook.before_tool", "hook.approve_tool", "hook.after_tool", "hook.after_llm"]
PICO_ACTIONS = {
    "hook.before_llm": ["continue", "modify", "modify-keeps-system", "abort_turn", "hard_abort"],
    "hook.after_llm": ["continue", "modify", "abort_turn"],
    "hook.before_tool": ["continue", "modify", "respond", "deny_tool", "abort_turn", "hard_abort"],
    "hook.after_tool": ["continue", "modify", "abort_turn"],
    "hook.approve_tool": ["approved", "denied"],
}


def pico_document(method: str, decision: str) -> tuple[object, Intent]:
    """The documented answer meaning `decision` at `method`, and its intent."""
    if method == "hook.approve_tool":
        if decision == "approved":
            return obj(approved=True), Intent(method, "approved")
        return obj(approved=False, reason=REASON), Intent(method, "denied", reason=REASON)
    if decision == "continue":
        return obj(action="continue"), Intent(method, "continue")
    if decision in ("abort_turn", "hard_abort", "deny_tool"):
        return obj(action=decision, reason=REASON), Intent(method, decision, reason=REASON)
    if decision == "respond":
        return obj(action="respond", result=to_tree({"for_llm": "answered by the hook"})), Intent(
            method, "respond", payload={"hook_result": {"for_llm": "answered by the hook"}}
        )
    # modify: the payload each stage replaces, in the shape PicoClaw reads (nested after_*).
    if method == "hook.before_llm" and decision == "modify-keeps-system":
        request = {"model": "gpt-modified", "messages": [{"role": "system", "content": "You are PicoClaw."}, {"role": "user", "content": "rewritten"}]}
        return obj(action="modify", request=to_tree(request)), Intent(method, "modify", payload=request)
    if method == "hook.before_llm":
        request = {"model": "gpt-modified", "messages": [{"role": "user", "content": "rewritten"}]}
        return obj(action="modify", request=to_tree(request)), Intent(method, "modify", payload=request)
    if method == "hook.before_tool":
        call = {"tool": "bash", "arguments": {"command": "echo safe"}}
        return obj(action="modify", call=to_tree(call)), Intent(method, "modify", payload=call)
    if method == "hook.after_tool":
        result = {"tool": "bash", "result": {"for_llm": "redacted"}}
        return obj(action="modify", result=to_tree(result)), Intent(method, "modify", payload=result)
    response = {"model": "m", "response": {"content": "rewritten"}}
    return obj(action="modify", response=to_tree(response)), Intent(method, "modify", payload=response)


# PromptKit one-shot roles: the driver's surface, the intents and documents.
PK_SURFACE = {
    "tool": "exec-tool",
    "eval": "eval",
    "provider-hook": "provider-hook",
    "tool-hook": "tool-hook",
    "session-hook": "session-hook",
    "selector": "selector",
}
PK_CALLS = {
    "exec-tool": ["tool"],
    "eval": ["eval"],
    "provider-hook": ["before_call", "after_call"],
    "tool-hook": ["before_execution", "after_execution"],
    "session-hook": ["session_start", "session_update", "session_end"],
    "selector": ["selector"],
}
PK_DECISIONS = {
    "tool": ["result", "result-string", "result-number", "error"],
    "eval": ["scored"],
    "provider-hook": ["allow", "deny"],
    "tool-hook": ["allow", "deny"],
    "session-hook": ["ack"],
    "selector": ["selected"],
    "server-tool": ["result", "error"],
}


def pk_document(role: str, decision: str, r: random.Random) -> tuple[object, Intent]:
    if role in ("tool", "server-tool"):
        if decision == "error":
            return obj(error="the city is unknown"), Intent("tool", "error", reason="the city is unknown")
        content = {"result-string": "sunny", "result-number": 21.5}.get(decision, {"temp": 21, "unit": "C"})
        return obj(result=to_tree(content)), Intent("tool", "result", content=content, has_content=True)
    if role == "eval":
        score = r.choice([0.0, 0.25, 0.9, 1.0])
        return obj(score=score, explanation="tone is fine"), Intent("eval", "scored", content=score, has_content=True)
    if role in ("provider-hook", "tool-hook"):
        if decision == "allow":
            return obj(allow=True), Intent(role, "allow")
        return obj(allow=False, reason=REASON), Intent(role, "deny", reason=REASON)
    if role == "session-hook":
        return obj(ack=True), Intent(role, "ack")
    if role == "selector":
        ids = r.choice([["weather"], ["book_flight", "weather"], []])
        return obj(selected=list(ids)), Intent("selector", "selected", content=ids, has_content=True)
    raise ValueError(role)


# The keys each document may hold, for key genes (the known ones, and what
# their exclusive siblings are).
EXCLUSIVE = {"result": "error", "error": "result", "allow": "ack", "action": "approved", "approved": "action", "score": "error"}


# ----------------------------------------------------------------------------
# Drawing genes.


NEST_DEPTHS = [1, 2, 100, 9998, 10001]  # around Go's 10000-level limit


def draw_doc_genes(r: random.Random, keys: list[str], numeric: list[str], string_keys: list[str], depths: list[int] = NEST_DEPTHS) -> list[Gene]:
    genes: list[Gene] = []
    n = r.choice([1, 1, 1, 2, 2, 3])
    for _ in range(n):
        kind = r.choices(
            ["key-case", "value-type", "number", "drop-key", "extra-key", "duplicate-key", "top", "nest", "bad-utf8", "exclusive", "escaped-key"],
            weights=[5, 6, 3, 2, 3, 3, 2, 1, 2, 2, 1],
        )[0]
        if kind == "top":
            genes.append(("top", r.choice(["array", "string", "number", "bool", "null", "empty-array"])))
        elif kind == "key-case" and keys:
            genes.append(("key-case", r.choice(keys), r.choice(CASE_VARIANTS)))
        elif kind == "value-type" and keys:
            key = r.choice(keys)
            t, v = r.choice(list(typed_values(r).items()))
            genes.append(("value-type", key, v))
        elif kind == "number":
            key = r.choice(numeric or keys or ["x"])
            genes.append(("number", key, r.choice(EDGE_NUMBERS)))
        elif kind == "drop-key" and keys:
            genes.append(("drop-key", r.choice(keys)))
        elif kind == "extra-key":
            name = r.choice(["x_extra", "note", "metadata", "Reason", "RESULT", "id", "pending"])
            genes.append(("extra-key", name, r.choice(list(typed_values(r).values())), r.random() < 0.5))
        elif kind == "duplicate-key" and keys:
            key = r.choice(keys)
            other = None if r.random() < 0.5 else r.choice(list(typed_values(r).values()))
            genes.append(("duplicate-key", key, other, r.random() < 0.5))
        elif kind == "nest" and keys:
            genes.append(("nest", r.choice(keys), r.choice(depths)))
        elif kind == "bad-utf8" and string_keys:
            genes.append(("bad-utf8", r.choice(string_keys), r.choice(["start", "end", "end", "outside"])))
        elif kind == "exclusive" and keys:
            key = r.choice(keys)
            sibling = EXCLUSIVE.get(key)
            if sibling:
                genes.append(("extra-key", sibling, r.choice(list(typed_values(r).values())), r.random() < 0.5))
        elif kind == "escaped-key" and keys:
            genes.append(("escaped-key", r.choice(keys)))
    return genes


def draw_framing_genes(r: random.Random, long_lived: bool) -> list[Gene]:
    if r.random() < 0.6:
        return []
    kind = r.choice(["whitespace", "bom", "after-text", "two-documents", "newline", "crlf", "log-before", "log-after", "no-newline"])
    if kind == "whitespace":
        return [("whitespace", r.choice(["", " ", "\t", "\n"]), r.choice(["", " ", "\t", " \n"]))]
    if kind == "after-text":
        return [("after-text", r.choice([" x", "}", " {}", "garbage"]))]
    if kind == "two-documents":
        return [("two-documents", r.choice(["", "\n", " "]))]
    if kind in ("log-before", "log-after"):
        return [(kind, r.choice(["starting up", "DEBUG: ok", "{not json"]))]
    if kind in ("newline", "crlf", "no-newline"):
        return [(kind,)]
    return [(kind,)]


def draw_process_genes(r: random.Random, long_lived: bool) -> list[Gene]:
    if r.random() < 0.75:
        return []
    kind = r.choices(["exit", "stderr", "slow", "hang", "close-early", "crash-mid-line", "no-reply"], weights=[4, 4, 2, 1, 1, 1, 1])[0]
    if kind == "exit":
        return [("exit", r.choice([1, 2, 3, 127, 255]))]
    if kind == "stderr":
        return [("stderr", r.choice(["warning: something\n", "Traceback (most recent call last):\n", "x" * 200 + "\n"]))]
    if kind == "slow":
        return [("slow", r.choice([50, 150, 300]))]
    return [(kind,)]


def draw_envelope_genes(r: random.Random) -> list[Gene]:
    if r.random() < 0.55:
        return []
    kind = r.choice(["id", "jsonrpc", "error-with-result", "error-object", "extra-reply", "reply-notification", "stray-id", "duplicate-reply"])
    if kind == "id":
        return [("id", r.choice(["string", "float", "null", "missing", "big", "negative", "exp", "other"]))]
    if kind == "jsonrpc":
        return [("jsonrpc", r.choice(["1.0", "missing", "number", "null", "2.0 "]))]
    if kind == "error-object":
        return [("error-object", r.choice(["string", "code-string", "message-only", "code-only", "null", "number", "array"]))]
    return [(kind,)]


# ----------------------------------------------------------------------------
# Building a genome into the script, the cases file and the intents.


@dataclass
class Built:
    script: dict
    cases: list[dict]
    intents: list[Intent]


def text_field(data: bytes) -> dict:
    """A script's text field, as text when it is UTF-8, as hex when not."""
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"hex": data.hex()}


def put(step: dict, key: str, data: bytes) -> dict:
    f = text_field(data)
    if "text" in f:
        step[key] = f["text"]
    else:
        step[f"{key}_hex"] = f["hex"]
    return step


def keys_of(doc) -> tuple[list[str], list[str], list[str]]:
    if not isinstance(doc, Obj):
        return [], [], []
    keys = doc.keys()
    numeric = [k for k, v in doc.pairs if isinstance(v, (int, float)) and not isinstance(v, bool)]
    strings = [k for k, v in doc.pairs if isinstance(v, str)]
    return keys, numeric, strings


def render_doc(doc, genes: list[Gene]) -> bytes:
    keys, _, _ = keys_of(doc)
    for g in genes:
        if g[0] in DOC_GENES:
            doc = apply_doc_gene(doc, g, keys)
    text = dump(doc)
    for g in genes:
        if g[0] in TEXT_GENES:
            text = apply_text_gene(text, g)
    return text


DOC_GENES = {"top", "key-case", "value-type", "number", "drop-key", "extra-key", "duplicate-key", "nest", "bad-utf8", "escaped-key"}
TEXT_GENES = {"whitespace", "bom", "after-text", "two-documents"}
LINE_GENES = {"newline", "crlf", "log-before", "log-after", "no-newline"}
PROCESS_GENES = {"exit", "stderr", "slow", "hang", "close-early", "crash-mid-line", "no-reply"} | life.LIFE_GENES
ENVELOPE_GENES = {"id", "jsonrpc", "error-with-result", "error-object", "extra-reply", "reply-notification", "stray-id", "duplicate-reply"}


# Realistic requests for the cases file, in the documented form (proctor
# renders them in each profile's shape). The scripted plugin answers every
# request alike, so these only decide which call a case is about.
PICO_REQUESTS = {
    "hook.before_llm": {"model": "claude-sonnet", "messages": [{"role": "system", "content": "You are PicoClaw."}, {"role": "user", "content": "hello"}]},
    "hook.after_llm": {"model": "claude-sonnet", "response": {"content": "hi there"}},
    "hook.before_tool": {"tool": "bash", "arguments": {"command": "ls -la"}},
    "hook.after_tool": {"tool": "bash", "arguments": {"command": "ls"}, "result": {"for_llm": "a.txt", "silent": False, "is_error": False}},
    "hook.approve_tool": {"tool": "bash", "arguments": {"command": "ls -la"}},
}
SELECTOR_REQUEST = {
    "query": {"text": "I need a flight to Paris", "k": 2},
    "candidates": [{"id": "book_flight", "name": "Book a flight"}, {"id": "weather", "name": "Weather"}, {"id": "currency", "name": "Currency"}],
}


def case_for(family: str, role: str, intent: Intent, n: int) -> dict:
    case: dict = {"name": f"intent {n}: {intent.call} {intent.decision}"}
    if family == "picoclaw-hook":
        case["method"] = intent.call
        case["request"] = PICO_REQUESTS[intent.call]
    elif role in ("provider-hook", "tool-hook", "session-hook"):
        case["phase"] = intent.call
    if role == "selector":
        case["request"] = SELECTOR_REQUEST
        case["expect"] = {"selected": list(intent.content)}
    elif role == "eval":
        # Just above the score: 0.001 above, or the next float where that
        # is the same number (a score of 1e29).
        above = intent.content + 0.001
        case["expect"] = {"score_at_least": intent.content, "score_below": above if above > intent.content else math.nextafter(intent.content, math.inf)}
    else:
        case["expect"] = {"decision": intent.decision}
    return case


def envelope_tree(doc_text: bytes, genes: list[Gene], error: bool) -> Obj:
    """The JSON-RPC reply carrying `doc_text` as its result (or error object),
    as a tree the structural genes can bend further (runok_genome.py)."""
    pairs: list = [("jsonrpc", Raw(b'"2.0"')), ("id", Raw(b"$ID")), ("error" if error else "result", Raw(doc_text))]

    def put_member(key, value):
        at = next((n for n, (k, _) in enumerate(pairs) if k == key), None)
        if value is None and at is not None:
            del pairs[at]
        elif at is not None:
            pairs[at] = (key, value)

    for name, *args in genes:
        if name == "id":
            text = {
                "string": b'"$ID"',
                "float": b"$ID.0",
                "null": b"null",
                "missing": None,
                "big": b"18446744073709551617",
                "negative": b"-$ID",
                "exp": b"$IDe0",
                "other": b"4242",
            }[args[0]]
            put_member("id", Raw(text) if text is not None else None)
        elif name == "jsonrpc":
            text = {"1.0": b'"1.0"', "missing": None, "number": b"2", "null": b"null", "2.0 ": b'"2.0 "'}[args[0]]
            put_member("jsonrpc", Raw(text) if text is not None else None)
        elif name == "error-with-result":
            pairs.append(("result", Raw(b"{}")) if error else ("error", Raw(b'{"code":-32000,"message":"also an error"}')))
    return Obj((life.envelope_key(k, genes, case_variant), v) for k, v in pairs)


def envelope(doc_text: bytes, genes: list[Gene], error: bool) -> bytes:
    """The JSON-RPC reply carrying `doc_text` as its result (or error object)."""
    return dump(envelope_tree(doc_text, genes, error))


def line_wrap(body: bytes, genes: list[Gene], one_shot: bool) -> bytes:
    """How a document goes out: the line ending, log lines around it."""
    names = {g[0]: g for g in genes}
    end = b"" if one_shot else b"\n"
    if "newline" in names:
        end = b"\n"
    if "crlf" in names:
        end = b"\r\n"
    if "no-newline" in names:
        end = b""
    out = body + end
    if "log-before" in names:
        out = names["log-before"][1].encode() + b"\n" + out
    if "log-after" in names:
        sep = b"" if out.endswith(b"\n") else b"\n"
        out = out + sep + names["log-after"][1].encode() + (b"" if one_shot else b"\n")
    return out


def process_step(step: dict, genes: list[Gene], reply: bytes, one_shot: bool) -> dict:
    """Applies the process genes to a step that would write `reply`."""
    names = {g[0]: g for g in genes}
    if "stderr" in names:
        put(step, "stderr", names["stderr"][1].encode())
    if "slow" in names:
        step["delay_ms"] = names["slow"][1]
    if "hang" in names:
        step["then"] = "hang"
        return step
    if "close-early" in names:
        step["then"] = "close_then_hang" if one_shot else "close_stdout"
        return step
    if "no-reply" in names:
        if one_shot:
            step["exit"] = 0
        return step
    if "crash-mid-line" in names:
        put(step, "stdout" if one_shot else "write", reply[: max(1, len(reply) // 2)])
        step["then"] = "exit"
        step["exit"] = 1
        return step
    put(step, "stdout" if one_shot else "write", reply)
    if "exit" in names:
        step["exit"] = names["exit"][1]
        if not one_shot:
            step["then"] = "exit"
    return step


def build(g: Genome) -> Built:
    family, _, role = g.target.partition("/")
    r = random.Random(g.seed)
    if family == "picoclaw-hook":
        return build_picoclaw(g, r)
    if family == "promptkit-server":
        return build_server(g, r)
    if family == RUNOK:
        from . import runok_genome  # it builds on this module's genes

        return runok_genome.build(g)
    return build_oneshot(g, role, r)


UNREADABLE = object()


def standard_reading(body: bytes):
    """The document as the protocol documents read it: exact keys, the last
    duplicate wins; UNREADABLE when it is not one JSON value."""
    try:
        return json.loads(body.decode("utf-8", errors="ignore").strip().lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return UNREADABLE


def pairs_of(body: bytes) -> list:
    """Every top-level key and value of the document, duplicates kept, in order."""
    last: list = [[]]

    def keep(items):
        last[0] = items  # inner objects first: the top level comes last
        return dict(items)

    try:
        doc = json.loads(body.decode("utf-8", errors="ignore").strip().lstrip("\ufeff"), object_pairs_hook=keep)
    except (ValueError, RecursionError):
        return []
    return last[0] if isinstance(doc, dict) else []


def restate(intent: Intent, body: bytes, content_key: str | None) -> Intent:
    """What the author says beside the decision (a reason, a result's
    content) is what the document says: a gene that drops the reason or
    changes the result's value changes what was meant. A key spelled in
    another case still means the documented key (the last one wins)."""
    doc = standard_reading(body)
    out = copy.copy(intent)
    key = {"allow": "allow", "deny": "allow", "approved": "approved", "denied": "approved"}.get(intent.decision)
    # Stated: the key holds a boolean (Go's `null` into a bool changes
    # nothing, so `"approved": null` says no more than leaving it out).
    if key and not (isinstance(doc, dict) and any(k.casefold() == key and isinstance(v, bool) for k, v in pairs_of(body))):
        out.stated = False
    if not isinstance(doc, dict):
        # Not an object at all: no reason in it, no score (an eval's `null`
        # leaves PromptKit's 0, its default), and (a tool) it is its own result.
        out.reason = None
        if content_key == "score":
            out.stated = False
        if content_key not in (None, "score") and intent.has_content and doc is not UNREADABLE:
            out.content = doc
        return out

    def said(key):
        # In document order, duplicates kept: Go reads `result`, `RESULT`,
        # `result` into one field, and the last of the three is its value.
        found = [v for k, v in (pairs_of(body) or doc.items()) if k.casefold() == key]
        return (True, found[-1]) if found else (False, None)

    if intent.reason is not None or "reason" in doc:
        present, reason = said("reason")
        out.reason = reason if present and isinstance(reason, str) and reason else None
    if content_key == "score":
        # The score is an eval's decision. A finite number the author wrote
        # is the score meant; without one (null, a string, no score) the
        # answer never states it, and the 0 PromptKit then holds is its
        # default, not the plugin's, even when the drawn score was 0.
        present, score = said("score")
        if present and isinstance(score, (int, float)) and not isinstance(score, bool) and abs(score) != float("inf"):
            out.content = score
        else:
            out.stated = False
        return out
    if content_key and intent.has_content:
        present, content = said(content_key)
        out.content = content if present else doc  # no result at all: the document is what it returns
    return out


def build_oneshot(g: Genome, role: str, r: random.Random) -> Built:
    doc, intent = pk_document(role, g.decision, r)
    body = render_doc(doc, g.genes)
    body = life.pad(body, g.genes, around=len(stdout_of(body, g.genes, one_shot=True)) - len(body))
    if role == "tool":
        intent = restate(intent, body, "result")
        if intent.decision == "error":
            read = standard_reading(body)
            if isinstance(read, dict) and isinstance(read.get("error"), str):
                intent.reason = read["error"]
    elif role in ("provider-hook", "tool-hook"):
        intent = restate(intent, body, None)
    elif role == "eval":
        intent = restate(intent, body, "score")
    elif role == "selector":
        # `selected` is the decision: a list of ids the author wrote is what was meant; anything else leaves the drawn one.
        said = restate(intent, body, "selected")
        if isinstance(said.content, list) and all(isinstance(i, str) for i in said.content):
            intent = said
    script = process_step({}, g.genes, stdout_of(body, g.genes, one_shot=True), one_shot=True)
    if "then" not in script:
        script.setdefault("exit", 0)
    life.process(script, g.genes, one_shot=True)
    calls = PK_CALLS[PK_SURFACE[role]]
    intents = [Intent(c, intent.decision, intent.reason, intent.payload, intent.content, intent.has_content, intent.stated) for c in calls]
    cases = [case_for("promptkit-exec", role, i, n) for n, i in enumerate(intents)]
    return Built(script, cases, intents)


def stdout_of(body: bytes, genes: list[Gene], one_shot: bool) -> bytes:
    """What goes to stdout for one reply: the line ending, log and extra lines around it."""
    return life.extra_lines(line_wrap(body, genes, one_shot), genes)


def rpc_step(doc, genes: list[Gene], error: bool = False) -> tuple[dict, bytes]:
    body = envelope(render_doc(doc, [x for x in genes if x[0] in DOC_GENES | TEXT_GENES]), genes, error)
    body = life.pad(body, genes, around=len(line_wrap(body, genes, one_shot=False)) - len(body))
    names = {x[0] for x in genes}
    reply = stdout_of(body, genes, one_shot=False)
    if "duplicate-reply" in names:
        reply = reply + reply
    if "stray-id" in names:
        reply = b'{"jsonrpc":"2.0","id":4243,"result":{}}\n' + reply
    if "extra-reply" in names:
        reply = reply + b'{"jsonrpc":"2.0","id":4244,"result":{}}\n'
    return process_step({}, genes, reply, one_shot=False), reply


def well_behaved(method: str) -> dict:
    if method == "hook.hello":
        return {"write": '{"jsonrpc":"2.0","id":$ID,"result":{}}\n'}
    if method == "hook.approve_tool":
        return {"write": '{"jsonrpc":"2.0","id":$ID,"result":{"approved":true}}\n'}
    return {"write": '{"jsonrpc":"2.0","id":$ID,"result":{"action":"continue"}}\n'}


def long_lived_script(on: dict, genes: list[Gene]) -> dict:
    script: dict = {"on": on}
    if banner := life.banner(genes):
        put(script, "banner", banner)
    return life.process(script, genes, one_shot=False)


def build_picoclaw(g: Genome, r: random.Random) -> Built:
    on: dict = {m: well_behaved(m) for m in ["hook.hello", *PICO_CALLS]}
    on["*"] = {"write": '{"jsonrpc":"2.0","id":$ID,"error":{"code":-32601,"message":"method not found"}}\n'}
    intents = {m: Intent(m, "approved" if m == "hook.approve_tool" else "continue") for m in PICO_CALLS}
    if g.bent == "hook.runtime_event":
        # A notification: nothing is owed; a reply to it must change nothing.
        on["hook.runtime_event"] = rpc_step(obj(), g.genes)[0]
    elif g.bent == "hook.hello":
        on["hook.hello"] = rpc_step(obj(), g.genes)[0]
    else:
        doc, intent = pico_document(g.bent, g.decision)
        on[g.bent] = rpc_step(doc, g.genes)[0]
        intents[g.bent] = restate(intent, render_doc(doc, g.genes), None)
    script = long_lived_script(on, g.genes)
    ordered = [intents[m] for m in PICO_CALLS]
    cases = [case_for("picoclaw-hook", "", i, n) for n, i in enumerate(ordered)]
    return Built(script, cases, ordered)


def build_server(g: Genome, r: random.Random) -> Built:
    if g.decision == "error":
        doc = obj(code=-32000, message="the key is unknown")
        for name, *args in g.genes:
            if name == "error-object":
                doc = {
                    "string": "the key is unknown",
                    "code-string": obj(code="-32000", message="the key is unknown"),
                    "message-only": obj(message="the key is unknown"),
                    "code-only": obj(code=-32000),
                    "null": None,
                    "number": -32000,
                    "array": ["the key is unknown"],
                }[args[0]]
        said = standard_reading(render_doc(doc, g.genes))
        message = said.get("message") if isinstance(said, dict) else None
        intent = Intent("tool", "error", reason=message if isinstance(message, str) else None)
        step, _ = rpc_step(doc, g.genes, error=True)
    else:
        content = {"value": "hello", "found": True}
        said = standard_reading(render_doc(to_tree(content), g.genes))
        intent = Intent("tool", "result", content=content if said is UNREADABLE else said, has_content=True)
        step, _ = rpc_step(to_tree(content), g.genes)
    script = long_lived_script({"execute": step, "*": {"write": '{"jsonrpc":"2.0","id":$ID,"error":{"code":-32601,"message":"method not found"}}\n'}}, g.genes)
    intents = [Intent("tool", intent.decision, intent.reason, None, intent.content, intent.has_content) for _ in range(3)]
    cases = [{"name": f"intent {n}: execute {intent.decision}", "expect": {"decision": intent.decision}} for n in range(1)]
    return Built(script, cases, intents)


# ----------------------------------------------------------------------------
# Drawing a genome for a target.

TARGET_NAMES = [
    "picoclaw-hook",
    "promptkit-exec/tool",
    "promptkit-exec/eval",
    "promptkit-exec/provider-hook",
    "promptkit-exec/tool-hook",
    "promptkit-exec/session-hook",
    "promptkit-exec/selector",
    "promptkit-server/tool",
    "runok-extension",
]
RUNOK = "runok-extension"
FAMILIES = {
    "picoclaw-hook": ["picoclaw-hook"],
    "promptkit-exec": [t for t in TARGET_NAMES if t.startswith("promptkit-exec/")],
    "promptkit-server": ["promptkit-server/tool"],
    RUNOK: [RUNOK],
}


def draw(target: str, seed: int) -> Genome:
    r = random.Random(seed)
    family, _, role = target.partition("/")
    if family == RUNOK:
        from . import runok_genome

        return effective(one_of_a_kind(runok_genome.draw(seed, r)))
    if family == "picoclaw-hook":
        bent = r.choices(["hook.hello", *PICO_CALLS, "hook.runtime_event"], weights=[1, 3, 4, 3, 3, 3, 1])[0]
        decision = r.choice(PICO_ACTIONS[bent]) if bent in PICO_ACTIONS else "ok"
        doc = pico_document(bent, decision)[0] if bent in PICO_ACTIONS else obj()
    elif family == "promptkit-server":
        bent, decision = "execute", r.choice(PK_DECISIONS["server-tool"])
        doc = obj(value="hello", found=True) if decision == "result" else obj(code=-32000, message="m")
    else:
        bent, decision = "*", r.choice(PK_DECISIONS[role])
        doc = pk_document(role, decision, random.Random(seed))[0]
    keys, numeric, strings = keys_of(doc)
    genes: list[Gene] = []
    if r.random() < 0.8:
        genes += draw_doc_genes(r, keys, numeric, strings)
    genes += draw_framing_genes(r, family != "promptkit-exec")
    if family != "promptkit-exec":
        genes += draw_envelope_genes(r)
    genes += draw_process_genes(r, family != "promptkit-exec")
    genes += life.draw(seed, family, one_shot=family == "promptkit-exec")
    return effective(one_of_a_kind(Genome(target, seed, bent, decision, genes)))


def one_of_a_kind(g: Genome) -> Genome:
    """One gene of a kind: a later one of the same name and first argument wins nothing."""
    seen, unique = set(), []
    for gene in g.genes:
        k = gene[:2] if gene[0] in DOC_GENES else ("outer", *gene[1][:2]) if gene[0] == "outer" else gene[:1]
        if k not in seen:
            seen.add(k)
            unique.append(gene)
    return Genome(g.target, g.seed, g.bent, g.decision, unique)


def effective(g: Genome) -> Genome:
    """The genome without the genes that change nothing (a case variant of a
    key with no letter to fold, an envelope gene on a one-shot reply)."""
    kept = list(g.genes)
    for gene in list(kept):
        without = [x for x in kept if x is not gene]
        if build(Genome(g.target, g.seed, g.bent, g.decision, without)).script == build(Genome(g.target, g.seed, g.bent, g.decision, kept)).script:
            kept = without
    return Genome(g.target, g.seed, g.bent, g.decision, kept)
