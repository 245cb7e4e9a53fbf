#!/usr/bin/env python3
"""content_policy.py: a PromptKit exec provider hook (promptkit-exec, role provider-hook), filter mode.

Denies a model reply that gives financial, medical or legal advice:
    after_call {"response": {"message": {"content": "..."}}} -> {"allow": false, "reason": "..."}
Every other phase is allowed.

It reads the reply the way PromptKit's documents show it (lowercase `response.message`), as
PromptKit's own runtime-config example does. PromptKit as built sends Go field names, so under
promptkit@86d9f36 this hook never sees the reply and allows everything: its cases
(content_policy.cases.yaml) fail there, and only there.
"""
import json
import sys

PROHIBITED = [
    ("invest in", "financial advice"),
    ("guaranteed return", "financial advice"),
    ("diagnose you", "medical diagnosis"),
    ("sue them", "legal counsel"),
]


def main() -> None:
    try:
        request = json.loads(sys.stdin.read() or "{}")
    except json.JSONDecodeError:
        request = {}
    request = request if isinstance(request, dict) else {}
    if request.get("phase") != "after_call":
        print(json.dumps({"allow": True}))
        return
    response = request.get("response") if isinstance(request.get("response"), dict) else {}
    message = response.get("message") if isinstance(response.get("message"), dict) else {}
    content = message.get("content") if isinstance(message.get("content"), str) else ""
    for phrase, topic in PROHIBITED:
        if phrase in content.lower():
            print(json.dumps({"allow": False, "reason": f"content policy: {topic} ({phrase!r})"}))
            return
    print(json.dumps({"allow": True}))


if __name__ == "__main__":
    main()
