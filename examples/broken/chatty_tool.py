#!/usr/bin/env python3
"""chatty_tool.py: BROKEN ON PURPOSE. A one-shot tool that logs to stdout.

Mistake: before the JSON answer it prints a progress line,
"loading weather data...", to stdout. In a one-shot exec tool stdout is the
protocol channel: it must hold exactly one JSON document and nothing else.

What it costs under PromptKit (86d9f36): the runtime parses all of stdout as
one JSON value, fails ("returned invalid JSON"), and the call becomes a tool
error on every single invocation, even though the JSON part is correct. (runok
extensions fail the same way, and in a JSON-RPC server an extra line
desynchronises every later reply.)

Which proctor check catches it: FRAMING-SINGLE-DOCUMENT (stdout holds exactly
one JSON document, with no log line). Every CASE-DECISION in
chatty_tool.cases.yaml fails with it, because the answer cannot be parsed.

The fix: send diagnostics to stderr, print(..., file=sys.stderr). See
../promptkit-exec/weather_tool.py.

Apart from the log line, it answers like weather_tool.py (fewer cities).
"""

import json
import sys

CITIES = {"nyc": ("New York", 22.0, "cloudy"), "new york": ("New York", 22.0, "cloudy"),
          "london": ("London", 14.0, "drizzle")}


def main():
    print("loading weather data...")  # THE BUG: a log line on stdout
    request = json.loads(sys.stdin.read() or "{}")
    args = request.get("args") or {}
    city = str(args.get("city", "")).strip().lower()
    units = args.get("units") or "metric"
    if city not in CITIES:
        answer = {"error": f"city not found: {args.get('city')}"}
    elif units == "kelvin":
        answer = {"pending": {"reason": "requires_approval",
                              "message": "Kelvin readings need an operator's approval."}}
    else:
        name, temp_c, condition = CITIES[city]
        temp, unit = (temp_c, "C") if units != "imperial" else (temp_c * 9 / 5 + 32, "F")
        answer = {"result": {"city": name, "temp": temp, "unit": unit, "condition": condition}}
    print(json.dumps(answer, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
