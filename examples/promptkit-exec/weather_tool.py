#!/usr/bin/env python3
"""weather_tool.py: a one-shot PromptKit exec tool (protocol promptkit-exec, role tool).

PromptKit starts one process per tool call. The process gets one JSON document
on stdin, writes one JSON document on stdout and exits 0.

    stdin:  {"args": {"city": "NYC", "units": "metric"}}
    stdout: {"result": {...}}                                 success
            {"error": "..."}                                  tool error
            {"pending": {"reason": "...", "message": "..."}}  needs a human

The behaviour below is fully deterministic (no network, no clock), so a
harness can check exact answers:

    * known city (case-insensitive, see CITIES)  -> {"result": {...}}
    * unknown or missing city                    -> {"error": "..."}
    * "units": "kelvin"                          -> {"pending": ...}
      This is the deterministic human-approval trigger. It is checked only
      after the city is known, so an unknown city is an error even in kelvin.
    * any other units value except metric and imperial -> {"error": "..."}

Things that matter with the real runtime (PromptKit at 86d9f36):

    * PromptKit never pauses on {"pending": ...}: it reads the document and
      hands it to the model as a successful result (measured by running
      PromptKit's own exec executor, interop/promptkit). So the kelvin case
      passes under proctor's documented profile and fails under PromptKit's.

    * The request has NO trailing newline: PromptKit writes json.Marshal
      output and then closes stdin. Read to EOF; readline() would work here
      only by accident, and `while read` loops in sh lose the request.
    * stdout must hold exactly one JSON value. A log line or a second object
      makes the whole answer "invalid JSON". Diagnostics go to stderr (which
      PromptKit copies into the error text on failure, so keep it short).
    * A non-zero exit makes PromptKit ignore stdout, even valid JSON. Tool-level
      problems are reported as {"error": ...} with exit status 0.
    * "args" is null when the LLM sent no arguments; unknown keys are ignored.
    * PromptKit decodes "pending" but does not act on it yet: the raw answer is
      handed to the LLM as a successful result. So the pending message is
      written to make sense to a model reading it verbatim.
    * If RuntimeConfig lists `env:` names, a one-shot tool gets ONLY those
      variables (no PATH, no HOME). This script needs neither.
"""

import json
import sys

# Canned observations. Keys are normalised city names (lower case).
CITIES = {
    "new york": {"name": "New York", "temp_c": 22.0, "condition": "cloudy"},
    "london": {"name": "London", "temp_c": 14.0, "condition": "drizzle"},
    "paris": {"name": "Paris", "temp_c": 18.0, "condition": "sunny"},
    "tokyo": {"name": "Tokyo", "temp_c": 26.0, "condition": "humid"},
}

# Other spellings the LLM is likely to produce.
ALIASES = {"nyc": "new york", "new york city": "new york", "ny": "new york"}


def answer(document):
    """Write the single response document and nothing else."""
    # Compact separators; ensure_ascii (the default) keeps stdout pure ASCII, so
    # the locale of the child process cannot break the encoding.
    sys.stdout.write(json.dumps(document, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def lookup(city):
    key = " ".join(city.lower().split())  # case and whitespace insensitive
    key = ALIASES.get(key, key)
    return CITIES.get(key)


def handle(request):
    """Map a decoded request to a response document."""
    if not isinstance(request, dict):
        return {"error": "request must be a JSON object"}
    args = request.get("args")
    if args is None:  # PromptKit sends {"args":null} when there are no args
        args = {}
    if not isinstance(args, dict):
        return {"error": "args must be a JSON object"}

    city = args.get("city")
    if not isinstance(city, str) or not city.strip():
        return {"error": "missing required argument: city"}
    obs = lookup(city)
    if obs is None:
        known = ", ".join(sorted(c["name"] for c in CITIES.values()))
        return {"error": f"city not found: {city.strip()[:60]} (known: {known})"}

    units = args.get("units", "metric")
    if units is None:
        units = "metric"
    if units == "kelvin":
        # The deterministic human-in-the-loop trigger.
        return {
            "pending": {
                "reason": "requires_approval",
                "message": (
                    f"Kelvin readings for {obs['name']} come from the lab feed, "
                    "which needs an operator's approval. Ask the user to retry "
                    "with metric or imperial units."
                ),
            }
        }
    if units == "metric":
        temp, unit = obs["temp_c"], "C"
    elif units == "imperial":
        temp, unit = round(obs["temp_c"] * 9 / 5 + 32, 1), "F"
    else:
        return {"error": f"unsupported units: {str(units)[:30]} (use metric or imperial)"}

    return {
        "result": {
            "city": obs["name"],
            "temp": temp,
            "unit": unit,
            "condition": obs["condition"],
        }
    }


def main():
    raw = sys.stdin.buffer.read()  # everything up to EOF; no newline expected
    try:
        request = json.loads(raw)  # bytes are fine: json detects UTF-8
    except ValueError as err:
        print(f"weather_tool: cannot parse request: {err}", file=sys.stderr)
        answer({"error": "invalid request: not a JSON document"})
        return 0
    answer(handle(request))
    return 0


if __name__ == "__main__":
    sys.exit(main())
