#!/usr/bin/env python3
"""The official `openai` (Responses API) and `anthropic` (Messages API) Python
packages against `proctor mock-provider`: the conversation Codex CLI and
Claude Code have with a model (a shell tool call, then the answer to its
result), unstreamed and streamed.

Serve harness/tests/fixtures/provider/agent-apis.yaml, then run
    python test_agent_apis.py http://127.0.0.1:PORT/v1
Each check consumes that scenario's rounds in order. Prints one line per
check and `N passed, M failed`; exits 1 on any failure.
(`cargo test -p proctor --test mock_provider` runs this with PROCTOR_PYTHON.)
"""

import json
import sys
import traceback

import anthropic
from openai import OpenAI

MODEL = "gpt-test"
EXEC = {"type": "function", "name": "exec_command", "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}}}
BASH = {"name": "Bash", "input_schema": {"type": "object", "properties": {"command": {"type": "string"}}}}


def responses_followup(call):
    return [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list the files"}]},
        {"type": "function_call", "call_id": call.call_id, "name": call.name, "arguments": call.arguments},
        {"type": "function_call_output", "call_id": call.call_id, "output": "a.txt\n"},
    ]


def check_responses(client):
    r = client.responses.create(model=MODEL, input="list the files", tools=[EXEC])
    [call] = r.output
    assert (call.type, call.name, json.loads(call.arguments)) == ("function_call", "exec_command", {"cmd": "ls"}), r.output
    assert r.status == "completed" and r.usage.total_tokens > 0, r
    r = client.responses.create(model=MODEL, input=responses_followup(call), tools=[EXEC])
    assert r.output_text == "All done: a.txt", r.output


def check_responses_streamed(client):
    kinds, done = [], None
    for event in client.responses.create(model=MODEL, input="list the files", tools=[EXEC], stream=True):
        kinds.append(event.type)
        if event.type == "response.completed":
            done = event.response
    assert kinds[0] == "response.created" and kinds[-1] == "response.completed", kinds
    [call] = done.output
    assert (call.name, json.loads(call.arguments)) == ("exec_command", {"cmd": "ls"}), done.output
    text = "".join(e.delta for e in client.responses.create(model=MODEL, input=responses_followup(call), tools=[EXEC], stream=True)
                   if e.type == "response.output_text.delta")
    assert text == "All done: a.txt", text


def messages_followup(use):
    return [
        {"role": "user", "content": "list the files"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": use.id, "name": use.name, "input": use.input}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "a.txt"}]},
    ]


def check_messages(client):
    m = client.messages.create(model=MODEL, max_tokens=1024, messages=[{"role": "user", "content": "list the files"}], tools=[BASH])
    [use] = m.content
    assert (m.stop_reason, use.type, use.name, use.input) == ("tool_use", "tool_use", "Bash", {"command": "ls", "description": "List files"}), m
    m = client.messages.create(model=MODEL, max_tokens=1024, messages=messages_followup(use), tools=[BASH])
    assert (m.stop_reason, m.content[0].text) == ("end_turn", "All done: a.txt"), m


def check_messages_streamed(client):
    with client.messages.stream(model=MODEL, max_tokens=1024, messages=[{"role": "user", "content": "list the files"}], tools=[BASH]) as s:
        m = s.get_final_message()
    [use] = m.content
    assert (m.stop_reason, use.name, use.input) == ("tool_use", "Bash", {"command": "ls", "description": "List files"}), m
    with client.messages.stream(model=MODEL, max_tokens=1024, messages=messages_followup(use), tools=[BASH]) as s:
        text = "".join(s.text_stream)
    assert text == "All done: a.txt", text


def main():
    base = sys.argv[1]
    openai_client = OpenAI(base_url=base, api_key="sk-test", max_retries=0)
    anthropic_client = anthropic.Anthropic(base_url=base.removesuffix("/v1"), api_key="sk-ant-test", max_retries=0)
    checks = [(check_responses, openai_client), (check_responses_streamed, openai_client),
              (check_messages, anthropic_client), (check_messages_streamed, anthropic_client)]
    passed = failed = 0
    for check, client in checks:
        try:
            check(client)
            print(f"ok   {check.__name__}")
            passed += 1
        except Exception:
            print(f"FAIL {check.__name__}\n{traceback.format_exc()}")
            failed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
