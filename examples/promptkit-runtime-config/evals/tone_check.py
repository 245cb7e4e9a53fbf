#!/usr/bin/env python3
"""tone_check.py: a PromptKit exec eval (promptkit-exec, role eval) bound to eval type `tone_check`.

stdin {"type", "params": {"expected_tone": "professional"}, "content", "context"} -> stdout {"score", "detail"}
Courteous words raise the score from 0.7, slang and insults lower it; clamped to [0, 1].
"""
import json
import sys

COURTEOUS = {"please", "thank", "thanks", "sorry", "glad", "happy", "help", "understand"}
SLANG = {"gonna", "wanna", "lol", "dude", "yeah"}
INSULTS = {"stupid", "idiot", "dumb", "ridiculous"}


def main() -> None:
    try:
        request = json.loads(sys.stdin.read() or "{}")
    except json.JSONDecodeError:
        request = {}
    content = request.get("content") if isinstance(request, dict) else None
    content = content if isinstance(content, str) else ""
    params = request.get("params") if isinstance(request, dict) and isinstance(request.get("params"), dict) else {}
    expected = params.get("expected_tone", "professional")
    words = {w.strip(".,!?;:").lower() for w in content.split()}
    score = 0.7 + 0.1 * len(words & COURTEOUS) - 0.1 * len(words & SLANG) - 0.4 * len(words & INSULTS)
    score = round(min(1.0, max(0.0, score)), 2)
    print(json.dumps({"score": score, "detail": f"tone score {score} (expected {expected})"}, allow_nan=False))


if __name__ == "__main__":
    main()
