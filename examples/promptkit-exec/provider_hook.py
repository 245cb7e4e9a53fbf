#!/usr/bin/env python3
"""provider_hook.py: a PromptKit exec provider hook in filter mode (role provider-hook).

PromptKit runs this around every LLM call (once per tool-loop round), with one
JSON document on stdin (no trailing newline):

    {"hook":"provider","phase":"before_call","request":{...}}
    {"hook":"provider","phase":"after_call","request":{...},"response":{...}}

    -> {"allow": true}  or  {"allow": false, "reason": "..."}

Rule: deny when any message mentions "password" (case-insensitive, also as
part of a longer word such as "passwords"). The messages checked are
request.Messages[*].content and, in after_call, response.Message.content.

Casing. The docs show snake_case ("messages", "model", "message"). The real
runtime (PromptKit at 86d9f36) serialises the request and response structs
without json tags, so their keys are PascalCase: "ProviderID", "Model",
"Messages", "SystemPrompt", "Round", "Message", "LatencyMs". The messages
themselves do have tags, so inside them it is "role" and "content" again. This
hook reads PascalCase first and falls back to snake_case at each level.

Facts about the real runtime that shaped this file:

    * "Messages" can be null, and a message's "content" is omitted when it
      carries a tool result or only parts. Missing content counts as empty.
    * Go escapes <, > and & as \\u003c etc.; json.loads undoes it.
    * A deny in before_call aborts the turn (HookDeniedError); a deny in
      after_call discards the model's answer. Answering {"allow": false,
      "enforced": true} instead would make PromptKit substitute a canned reply;
      this hook does not do that.
    * Filter hooks fail closed: a crash, a non-zero exit, empty stdout, stray
      output, {} or {"ack": true} all count as a deny. So this hook always
      exits 0 and always sends an explicit "allow".
    * The reason can reach users and logs, so it names the message, not its
      text.
"""

import json
import sys

WORD = "password"
ABSENT = object()


def pick(obj, *names):
    """First of `names` present in `obj` (PascalCase first, then snake_case)."""
    if isinstance(obj, dict):
        for name in names:
            if name in obj:
                return obj[name]
    return ABSENT


def content_of(message):
    """The text of one message, or "" if it has none."""
    value = pick(message, "content", "Content")
    return value if isinstance(value, str) else ""


def answer(document):
    sys.stdout.write(json.dumps(document, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def decide(payload):
    if not isinstance(payload, dict):
        return {"allow": False, "reason": "provider_hook: request is not a JSON object"}

    # (label, message) pairs to inspect.
    candidates = []
    messages = pick(payload.get("request"), "Messages", "messages")
    if isinstance(messages, list):
        for index, message in enumerate(messages):
            role = pick(message, "role", "Role")
            label = f"request message {index} ({role if isinstance(role, str) else '?'})"
            candidates.append((label, message))
    reply = pick(payload.get("response"), "Message", "message")
    if isinstance(reply, dict):
        candidates.append(("model response", reply))

    for label, message in candidates:
        if WORD in content_of(message).lower():
            return {"allow": False, "reason": f"{label} mentions a password"}
    return {"allow": True}


def main():
    raw = sys.stdin.buffer.read()  # to EOF: the request has no trailing newline
    try:
        payload = json.loads(raw)
    except ValueError as err:
        print(f"provider_hook: cannot parse request: {err}", file=sys.stderr)
        answer({"allow": False, "reason": "provider_hook: unreadable request"})
        return 0
    answer(decide(payload))
    return 0


if __name__ == "__main__":
    sys.exit(main())
