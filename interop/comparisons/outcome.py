"""What a driver's lines say the real runtime did: the outcome without what
varies run to run, and each call's decision in a cases file's words."""

from __future__ import annotations

import json
import re

from .runtime import Target


# Timings, and the filler the mock's huge-line fault adds to its answer.
IGNORED = ("elapsed_ms", "duration_ms", "at_ms", "padding")


def signature(v):
    """What the runtime did, without what may differ for reasons that are not
    the runtime's: timings; the raw text of a result whose parsed value is
    shown (whitespace in a JSON document does not change what it says); the
    replacement characters of a runtime that decodes invalid UTF-8 lossily
    (the plugin's own garbage, passed on as well as it can be)."""
    if isinstance(v, dict):
        if v.get("step") == "close" and isinstance(v.get("error"), str) and re.search(r"exit status \d+$", v["error"]):
            # A plugin that answered everything and then exited by itself with
            # a status: the runtimes only log it at shutdown. (One they had to
            # kill says "signal: killed" and stays a difference.)
            v = {**v, "error": None}
        return {k: signature(x) for k, x in v.items() if k not in IGNORED and not (k == "content_text" and "content" in v)}
    if isinstance(v, list):
        return [signature(x) for x in v]
    if isinstance(v, str):
        return v.replace("\ufffd", "")
    return v


def first_change(base: list[dict], got: list[dict]) -> str:
    for a, b in zip(base, got):
        if a != b:
            return f"expected {json.dumps(a)[:300]}, got {json.dumps(b)[:300]}"
    if len(base) != len(got):
        return f"{len(base)} outcome lines expected, {len(got)} seen"
    return "same outcome as the well-behaved plugin"




def decision_of(t: Target, line: dict):
    """What the real runtime decided, in the words of a cases file's `expect`."""
    if t.family == "picoclaw-hook":
        if "approval" in line:
            return "approved" if line["approval"].get("approved") else "denied"
        return (line.get("decision") or {}).get("action")
    o = line.get("outcome") or {}
    if t.surface in ("exec-tool", "server-tool"):
        if o.get("status") == "pending":
            return "pending"
        if o.get("status") == "complete" and not line.get("error"):
            return "result"
        # The plugin's own error, or a call PromptKit could not complete
        # (unreadable answer, exit status, deadline): not the same decision.
        text = f"{line.get('error') or ''} {o.get('error') or ''}"
        failed = ("invalid JSON", "invalid response", "exit status", "timed out", "signal:", "closed stdout", "broken pipe", "ID mismatch")
        return "failed" if any(f in text for f in failed) else "error"
    if t.surface in ("provider-hook", "tool-hook"):
        return "allow" if o.get("Allow") is True else "deny"
    if t.surface == "session-hook":
        return "error" if o.get("error_returned") or line.get("error") else "ack"
    if t.surface == "eval":
        # PromptKit's runner records a failed eval as score 0 with the error
        # as its explanation (runtime/evals/handlers/exec_handler.go).
        failed = line.get("error") or str(o.get("explanation", "")).startswith("exec eval")
        return None if failed else o.get("score")
    if t.surface == "selector":
        return None if line.get("error") else o.get("selected")
    return None
