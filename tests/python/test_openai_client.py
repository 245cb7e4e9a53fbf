#!/usr/bin/env python3
"""The official `openai` Python package against `proctor mock-provider`.

Serve harness/tests/fixtures/provider/openai-client.yaml, then run
    python test_openai_client.py http://127.0.0.1:PORT/v1
(or set PROCTOR_PROVIDER_URL). Each check below consumes the scripted rounds
of that scenario in order, so the checks run in this order. Prints one line
per check and `N passed, M failed`; exits 1 on any failure.
(`cargo test -p proctor --test mock_provider` runs this with PROCTOR_PYTHON.)
"""

import json
import os
import sys
import traceback

import openai
from openai import OpenAI

MODEL = "gpt-test"


def check_text(client):
    r = client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "Say hello"}])
    assert r.object == "chat.completion", r
    assert r.model == MODEL, r.model
    assert r.choices[0].message.content == "Hello from proctor.", r.choices[0].message
    assert r.choices[0].finish_reason == "stop", r.choices[0].finish_reason
    assert r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens > 0, r.usage


def check_tool_calls(client):
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]
    messages = [{"role": "user", "content": "Weather in Paris?"}]
    r = client.chat.completions.create(model=MODEL, messages=messages, tools=tools)
    choice = r.choices[0]
    assert choice.finish_reason == "tool_calls", choice
    assert choice.message.content is None, choice.message
    [call] = choice.message.tool_calls
    assert (call.id, call.type, call.function.name) == ("call_0_get_weather", "function", "get_weather"), call
    assert json.loads(call.function.arguments) == {"city": "Paris", "unit": "celsius"}, call.function.arguments
    # Answer the call: the next round only matches a tool message containing "18".
    messages.append(choice.message.model_dump(exclude_none=True))
    messages.append({"role": "tool", "tool_call_id": call.id, "content": json.dumps({"temperature": 18})})
    r = client.chat.completions.create(model=MODEL, messages=messages, tools=tools)
    assert r.choices[0].message.content == "It is 18 degrees in Paris.", r.choices[0].message


def check_streaming_text(client):
    stream = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Stream please"}], stream=True, stream_options={"include_usage": True}
    )
    pieces, finish, usage = [], None, None
    for chunk in stream:
        if chunk.usage is not None:
            usage = chunk.usage
        for choice in chunk.choices:
            if choice.delta.content:
                pieces.append(choice.delta.content)
            finish = choice.finish_reason or finish
    assert pieces == ["Stream", "ing ", "wörks", "."], pieces
    assert finish == "stop", finish
    assert usage is not None and usage.total_tokens > 0, usage


def check_streaming_tool_call(client):
    stream = client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "Search"}], stream=True)
    calls, finish = {}, None
    for chunk in stream:
        for choice in chunk.choices:
            for delta in choice.delta.tool_calls or []:
                call = calls.setdefault(delta.index, {"id": None, "name": None, "arguments": ""})
                call["id"] = delta.id or call["id"]
                if delta.function is not None:
                    call["name"] = delta.function.name or call["name"]
                    call["arguments"] += delta.function.arguments or ""
            finish = choice.finish_reason or finish
    assert list(calls) == [0], calls
    assert (calls[0]["id"], calls[0]["name"]) == ("call_0_search", "search"), calls
    assert json.loads(calls[0]["arguments"]) == {"query": "server-sent events framing", "limit": 3}, calls
    assert finish == "tool_calls", finish


def check_status_errors(client):
    for status, kind, message in [(429, openai.RateLimitError, "Rate limit reached"), (500, openai.InternalServerError, "server had an error")]:
        try:
            client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "again"}])
        except openai.APIStatusError as e:
            assert e.status_code == status, (e.status_code, status)
            assert isinstance(e, kind), type(e)
            assert message in str(e), str(e)
            if status == 429:
                assert e.response.headers.get("retry-after") == "1", dict(e.response.headers)
        else:
            raise AssertionError(f"expected an APIStatusError {status}")


CHECKS = [check_text, check_tool_calls, check_streaming_text, check_streaming_tool_call, check_status_errors]


def main():
    url = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PROCTOR_PROVIDER_URL")
    if not url:
        print("usage: test_openai_client.py BASE_URL (or set PROCTOR_PROVIDER_URL)", file=sys.stderr)
        return 2
    client = OpenAI(base_url=url, api_key="proctor-test", max_retries=0, timeout=20)
    passed = failed = 0
    for check in CHECKS:
        try:
            check(client)
        except Exception:
            failed += 1
            print(f"FAIL {check.__name__}\n{traceback.format_exc()}")
        else:
            passed += 1
            print(f"ok   {check.__name__}")
    print(f"openai package {openai.__version__}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
