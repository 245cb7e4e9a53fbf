#!/usr/bin/env python3
"""tone_eval.py: a PromptKit exec eval (protocol promptkit-exec, role eval).

PromptKit runs this once per evaluation, with one JSON document on stdin (no
trailing newline), and reads one JSON document from stdout:

    {"type": "tone", "params": {...}, "content": "<assistant text>",
     "context": {"messages": [...], "turn_index": 2, ...}}

    -> {"score": 0.75, "detail": "...", "data": {...}}

Scoring: a deliberately simple politeness heuristic.

    score = 0.5 + 0.25 * (polite markers) - 0.5 * (rude markers),
    clamped to [0, 1].

Neutral text scores 0.5, two polite markers and no rude one reach 1.0, and a
single rude marker pulls a neutral text to 0.0. `params` may extend the lists
with "polite_words" and "rude_words" (lists of strings); other params (such as
the pack's own min_score) are ignored.

Facts about the real runtime (PromptKit at 86d9f36) that shaped this file:

    * Empty collections in "context" are omitted, and which fields exist depends
      on the caller (a live conversation sends messages and turn_index; a
      guardrail sends turn_index 0 and judges the *user* message). Nothing here
      needs context, so any subset is fine, including no context at all.
    * "params" is omitted when the pack has none.
    * PromptKit does not clamp the score, and a score that is not a JSON number
      ("0.5", NaN) makes the eval fail. The score is clamped and rounded here,
      and json.dumps runs with allow_nan=False as a last guard.
    * Events count an exec eval as passed only when score >= 1.0, and the
      guardrail adapter fails anything below 1.0. That is why clearly polite
      text can reach exactly 1.0.
    * A crash, a non-zero exit or any stray stdout output scores 0 with an
      "exec eval failed"/"invalid JSON" explanation. Logs go to stderr.
"""

import json
import re
import sys

POLITE = [
    "please", "thank you", "thanks", "appreciate", "happy to", "glad to",
    "sorry", "apologies", "kindly", "you're welcome", "my pleasure",
]
RUDE = [
    "stupid", "idiot", "dumb", "shut up", "whatever", "figure it out yourself",
    "useless", "ridiculous", "not my problem", "obviously",
]


def answer(document):
    text = json.dumps(document, separators=(",", ":"), allow_nan=False)
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def count_markers(text, markers):
    """Count whole-word, case-insensitive occurrences of each marker."""
    found = {}
    for marker in markers:
        pattern = r"(?<!\w)" + re.escape(marker) + r"(?!\w)"
        hits = len(re.findall(pattern, text, flags=re.IGNORECASE))
        if hits:
            found[marker] = hits
    return found


def extra_words(params, key):
    """A list of extra marker strings from params, or [] if absent/malformed."""
    value = params.get(key) if isinstance(params, dict) else None
    if isinstance(value, list):
        return [w.lower() for w in value if isinstance(w, str) and w.strip()]
    return []


def evaluate(request):
    if not isinstance(request, dict):
        return {"score": 0.0, "detail": "request is not a JSON object", "data": {}}
    content = request.get("content")
    if not isinstance(content, str):
        content = ""
    params = request.get("params") or {}
    context = request.get("context") or {}
    turn = context.get("turn_index") if isinstance(context, dict) else None

    # Curly apostrophes are normalised so "you\u2019re welcome" also counts.
    text = content.replace("\u2019", "'")
    polite = count_markers(text, POLITE + extra_words(params, "polite_words"))
    rude = count_markers(text, RUDE + extra_words(params, "rude_words"))
    n_polite = sum(polite.values())
    n_rude = sum(rude.values())

    if not text.strip():
        score, detail = 0.5, "empty content: tone is neutral by default"
    else:
        score = 0.5 + 0.25 * n_polite - 0.5 * n_rude
        detail = f"tone: {n_polite} polite marker(s), {n_rude} rude marker(s)"
    score = round(min(1.0, max(0.0, score)), 4)

    data = {"polite": polite, "rude": rude, "words": len(text.split())}
    if isinstance(turn, int):
        data["turn_index"] = turn
    return {"score": score, "detail": detail, "data": data}


def main():
    raw = sys.stdin.buffer.read()  # to EOF: the request has no trailing newline
    try:
        request = json.loads(raw)
    except ValueError as err:
        print(f"tone_eval: cannot parse request: {err}", file=sys.stderr)
        answer({"score": 0.0, "detail": "unreadable request", "data": {}})
        return 0
    answer(evaluate(request))
    return 0


if __name__ == "__main__":
    sys.exit(main())
