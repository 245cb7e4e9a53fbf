#!/usr/bin/env python3
"""response_quality.py: a PromptKit exec eval (promptkit-exec, role eval) bound to eval type `response_quality`.

Scores 1.0 for a reply of min_words..max_words words that ends a sentence; each problem costs 0.3.
"""
import json
import sys


def main() -> None:
    try:
        request = json.loads(sys.stdin.read() or "{}")
    except json.JSONDecodeError:
        request = {}
    request = request if isinstance(request, dict) else {}
    content = request.get("content") if isinstance(request.get("content"), str) else ""
    params = request.get("params") if isinstance(request.get("params"), dict) else {}
    low, high = params.get("min_words", 5), params.get("max_words", 500)
    words = len(content.split())
    problems = []
    if not isinstance(low, int) or not isinstance(high, int):
        low, high = 5, 500
    if words < low:
        problems.append(f"{words} words, fewer than {low}")
    if words > high:
        problems.append(f"{words} words, more than {high}")
    if content and content.rstrip()[-1:] not in ".!?":
        problems.append("does not end a sentence")
    score = round(max(0.0, 1.0 - 0.3 * len(problems)), 2)
    print(json.dumps({"score": score, "detail": "; ".join(problems) or "fine"}))


if __name__ == "__main__":
    main()
