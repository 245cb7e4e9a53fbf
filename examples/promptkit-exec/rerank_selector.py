#!/usr/bin/env python3
"""rerank_selector.py: a PromptKit exec selector (spec.selectors), one-shot.

PromptKit asks a selector which skills or tools fit a query: one JSON document
in, `{"query": {...}, "candidates": [...]}`, then EOF; one document out,
`{"selected": [ids...], "reason": "..."}`, at most `k` ids, drawn from the
candidates, best first. On any failure PromptKit includes every candidate.

The wire detail that matters: PromptKit marshals Go structs without json tags
(runtime/selection/exec_client.go), so the real keys are `Text`, `Kind`,
`PackID`, `AgentID`, `K` and `ID`, `Name`, `Description`, `Metadata`, while the
docs and PromptKit's own reference selector read lowercase. This one reads both.

Ranking: candidates sharing the most words (of three letters or more) with the
query come first; a candidate sharing none is not selected.
"""
import json
import re
import sys


def field(obj, lower, go):
    if not isinstance(obj, dict):
        return None
    return obj.get(lower, obj.get(go))


def words(text):
    # Words of three letters or more: "a", "to", "me" match everything.
    return {w for w in re.findall(r"[a-z0-9]+", (text or "").lower()) if len(w) >= 3}


def main():
    try:
        request = json.loads(sys.stdin.buffer.read())
    except ValueError as err:
        print(f"rerank_selector: cannot parse request: {err}", file=sys.stderr)
        return 1
    query = request.get("query") or {}
    wanted = words(field(query, "text", "Text"))
    k = field(query, "k", "K") or 0
    scored = []
    for position, candidate in enumerate(request.get("candidates") or []):
        cid = field(candidate, "id", "ID")
        if not isinstance(cid, str) or not cid:
            continue
        text = f"{cid} {field(candidate, 'name', 'Name') or ''} {field(candidate, 'description', 'Description') or ''}"
        overlap = len(wanted & words(text.replace("_", " ")))
        if overlap:
            scored.append((-overlap, position, cid))
    scored.sort()
    selected = [cid for _, _, cid in scored]
    if isinstance(k, int) and k > 0:
        selected = selected[:k]
    sys.stdout.write(json.dumps({"selected": selected, "reason": "word overlap with the query"}))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
