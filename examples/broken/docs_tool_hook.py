#!/usr/bin/env python3
"""docs_tool_hook.py: BROKEN ON PURPOSE. A PromptKit tool hook written from the docs.

Mistake: it reads the keys the PromptKit docs show, request["name"] and
request["args"] (snake_case). The real runtime (PromptKit at 86d9f36) sends
the Go field names instead: "Name", "Args", "CallID". The lookups use .get(),
so nothing crashes: the hook just never sees any arguments, finds no SSN, and
answers {"allow": true} to everything. A PII filter that silently lets all PII
through.

Why it is easy to miss: every test written from the same docs uses snake_case
payloads, and against those the hook is right. PromptKit's own Go tests cannot
catch it either, because Go's JSON decoder matches keys case-insensitively.

Which proctor check catches it: CASE-DECISION, with the cases in
docs_tool_hook.cases.yaml (the same cases as
../promptkit-exec/pii_tool_hook.cases.yaml). Under the promptkit@86d9f36
profile proctor renders the logical request in the runtime's casing
(PascalCase), so "ssn in args is denied" fails: expected deny, got allow.
Under the documented profile (snake_case) every case passes. That contrast is
the point: the gap between the docs and the runtime.

The fix: read "Args" first and fall back to "args" (likewise "Name"/"name").
See ../promptkit-exec/pii_tool_hook.py.

Apart from the casing, the rule is the one in pii_tool_hook.py.
"""

import json
import re
import sys

SSN = re.compile(r"(?<![0-9])[0-9]{3}-[0-9]{2}-[0-9]{4}(?![0-9])")


def main():
    payload = json.loads(sys.stdin.buffer.read())
    request = payload.get("request") or {}

    name = request.get("name", "unknown tool")  # THE BUG: the runtime sends "Name"
    args = request.get("args")                  # THE BUG: the runtime sends "Args"

    if args is not None and SSN.search(json.dumps(args, ensure_ascii=False)):
        decision = {"allow": False,
                    "reason": f"arguments of {name} contain what looks like a US SSN"}
    else:
        decision = {"allow": True}
    sys.stdout.write(json.dumps(decision, separators=(",", ":")) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
