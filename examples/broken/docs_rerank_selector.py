#!/usr/bin/env python3
"""docs_rerank_selector.py: a PromptKit exec selector written from the docs.

The mistake: it reads the documented lowercase keys only (`query.text`,
`c["id"]`), as PromptKit's reference selector does. PromptKit really sends
Go's field names (`Text`, `K`, `ID`: runtime/selection/exec_client.go has no
json tags), so against the real runtime this selector sees no text and no ids
and always answers `{"selected": []}`: selection silently does nothing.
Its cases pass under `documented` and fail under `promptkit@86d9f36`.
The fix: read both (see ../promptkit-exec/rerank_selector.py).
"""
import json
import sys

request = json.loads(sys.stdin.buffer.read())
text = (request.get("query") or {}).get("text") or ""
k = (request.get("query") or {}).get("k") or 0
selected = [c.get("id") for c in request.get("candidates") or [] if c.get("id") and c["id"].split("_")[-1] in text.lower()]
sys.stdout.write(json.dumps({"selected": selected[:k] if k else selected}))
