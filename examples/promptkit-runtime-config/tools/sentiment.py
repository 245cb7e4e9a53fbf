#!/usr/bin/env python3
"""sentiment.py: a one-shot PromptKit exec tool (promptkit-exec, role tool).

stdin {"args": {"text": "..."}} (no trailing newline) -> stdout {"result": {"score": s, "label": ...}}
A missing or non-string `text` is a tool error ({"error": "..."}), not a crash.
Score: (happy words - angry words) / words that carry a mood, in [-1, 1].
"""
import json
import sys

HAPPY = {"thanks", "thank", "great", "love", "perfect", "happy", "glad", "excellent"}
ANGRY = {"angry", "terrible", "awful", "hate", "worst", "broken", "useless", "refund"}


def main() -> None:
    try:
        request = json.loads(sys.stdin.read() or "null")
    except json.JSONDecodeError as error:
        print(json.dumps({"error": f"request is not JSON: {error}"}))
        return
    args = request.get("args") if isinstance(request, dict) else None
    text = args.get("text") if isinstance(args, dict) else None
    if not isinstance(text, str):
        print(json.dumps({"error": "`text` (a string) is required"}))
        return
    words = [w.strip(".,!?;:").lower() for w in text.split()]
    happy = sum(w in HAPPY for w in words)
    angry = sum(w in ANGRY for w in words)
    score = 0.0 if happy + angry == 0 else round((happy - angry) / (happy + angry), 2)
    label = "positive" if score > 0.2 else "negative" if score < -0.2 else "neutral"
    print(json.dumps({"result": {"score": score, "label": label}}))


if __name__ == "__main__":
    main()
