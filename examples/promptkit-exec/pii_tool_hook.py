#!/usr/bin/env python3
"""pii_tool_hook.py: a PromptKit exec tool hook in filter mode (role tool-hook).

PromptKit runs this once per tool call and phase, with one JSON document on
stdin (no trailing newline), and reads one decision from stdout:

    {"hook":"tool","phase":"before_execution","request":{...}}
    {"hook":"tool","phase":"after_execution","request":{...},"response":{...}}

    -> {"allow": true}
    -> {"allow": false, "reason": "..."}

Rule: deny when the tool arguments contain something shaped like a US social
security number (ddd-dd-dddd) anywhere, at any depth.

Casing. The docs show snake_case keys inside "request"/"response" ("name",
"args", "call_id", "content"). The real runtime (PromptKit at 86d9f36)
serialises Go structs that have no json tags, so the keys arrive in PascalCase
("Name", "Args", "CallID", "Content"). A hook that reads only the documented
keys sees no arguments and allows everything (see ../broken/docs_tool_hook.py).
This hook reads PascalCase first and falls back to snake_case.

Other facts about the real runtime that shaped this file:

    * Go's encoder escapes <, > and & as \\u003c, \\u003e, \\u0026. json.loads
      undoes that, and the regex runs on a re-serialisation of the decoded
      args, so escapes in the raw bytes can never hide a match.
    * "Args" are the raw LLM arguments, or null when there were none.
    * A filter hook fails closed: a crash, a non-zero exit, empty stdout or any
      stray output is a deny. This hook always exits 0 with one JSON object,
      and answers an unreadable request with an explicit deny.
    * {"ack": true} or {} would also be read as a deny: always send "allow".
    * The deny reason is shown to the LLM ("Tool X blocked by hook: <reason>"),
      so it must not repeat the number it is protecting.
    * PromptKit ignores the decision in after_execution (it only logs it). The
      answer is still computed the same way for both phases, so the hook is
      consistent; configure `phases: [before_execution]` to save a spawn.
    * Timeout is 10 s by default; this hook answers in milliseconds.
"""

import json
import re
import sys

# Digits only (not \d, which also matches non-ASCII digits), and not glued to
# other digits, so "123-45-6789" matches but a longer number such as
# "0123-45-67890" does not.
SSN = re.compile(r"(?<![0-9])[0-9]{3}-[0-9]{2}-[0-9]{4}(?![0-9])")

ABSENT = object()


def pick(obj, *names):
    """Return the first of `names` present in `obj` (a dict), else ABSENT.

    Callers pass the runtime's PascalCase name first, then the documented one.
    """
    if isinstance(obj, dict):
        for name in names:
            if name in obj:
                return obj[name]
    return ABSENT


def answer(document):
    sys.stdout.write(json.dumps(document, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def decide(payload):
    if not isinstance(payload, dict):
        return {"allow": False, "reason": "pii_tool_hook: request is not a JSON object"}
    request = payload.get("request")
    if not isinstance(request, dict):
        return {"allow": False, "reason": "pii_tool_hook: request has no tool call"}

    name = pick(request, "Name", "name")
    tool = name if isinstance(name, str) and name else "unknown tool"
    args = pick(request, "Args", "args")
    if args is ABSENT or args is None:
        return {"allow": True}

    # One canonical text for the whole argument tree, whatever its shape.
    flat = json.dumps(args, ensure_ascii=False, sort_keys=True)
    if SSN.search(flat):
        return {
            "allow": False,
            "reason": f"arguments of {tool[:64]} contain what looks like a US SSN",
        }
    return {"allow": True}


def main():
    raw = sys.stdin.buffer.read()  # to EOF: the request has no trailing newline
    try:
        payload = json.loads(raw)
    except ValueError as err:
        print(f"pii_tool_hook: cannot parse request: {err}", file=sys.stderr)
        answer({"allow": False, "reason": "pii_tool_hook: unreadable request"})
        return 0
    answer(decide(payload))
    return 0


if __name__ == "__main__":
    sys.exit(main())
