#!/usr/bin/env python3
"""A PromptKit exec selector (protocol promptkit-exec, role selector), one-shot.

PromptKit asks a selector which tools or skills fit the user's query, one
process per question, with one JSON document on stdin:
    {"query": {"text": "...", "k": 2, ...}, "candidates": [{"id": ..., "name": ..., "description": ...}]}
and reads one answer from stdout:
    {"selected": ["id", ...]}   at most k ids, taken from the candidates, best first

The real PromptKit sends Go's field names ("Text", "K", "ID", "Name",
"Description") while its docs show lowercase ones; read both, as key() does.
On any failure PromptKit offers every candidate.

This one selects the candidates whose id or name the query mentions. Put your
own ranking in select().
"""

import json
import sys


def key(obj, lower, go):
    """obj[lower] (what the docs show) or obj[go] (what PromptKit sends)."""
    if not isinstance(obj, dict):
        return None
    return obj.get(lower, obj.get(go))


def select(text, candidates):
    """Your ranking. Return the chosen candidate ids, best first."""
    text = text.lower()
    chosen = []
    for candidate in candidates:
        cid = key(candidate, "id", "ID")
        name = key(candidate, "name", "Name") or ""
        if isinstance(cid, str) and (cid.lower() in text or (name and str(name).lower() in text)):
            chosen.append(cid)
    return chosen


def main():
    # Read to EOF: PromptKit sends no trailing newline.
    try:
        request = json.loads(sys.stdin.buffer.read())
    except ValueError:
        request = {}
    if not isinstance(request, dict):
        request = {}
    query = request.get("query")
    text = key(query, "text", "Text")
    k = key(query, "k", "K")
    candidates = request.get("candidates") or []
    chosen = select(text if isinstance(text, str) else "", candidates)
    if isinstance(k, int) and k > 0:
        chosen = chosen[:k]
    sys.stdout.write(json.dumps({"selected": chosen}) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
