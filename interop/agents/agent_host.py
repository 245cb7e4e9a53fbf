#!/usr/bin/env python3
"""agent_host: a real coding agent, headless and offline, with one command
hook, against `proctor mock-provider`; prints what the agent did, as JSON.

    interop/agents/agent_host.py --agent claude-code|codex --event PreToolUse \\
        [--timeout-s 5] [--proctor BIN] -- HOOK_COMMAND [ARG...]

The scripted model asks for one shell command (Claude Code's `Bash`, Codex's
`exec_command`) that creates a marker file, then answers with text. The hook
is configured for `--event` (matcher `*` for tool events) as the agent's own
settings do it, behind a recorder that keeps every payload it is given. The
agent runs in a folder of its own with a HOME, config and temp dir of its own,
every base URL pointed at the mock and its telemetry, update checks and other
traffic switched off (interop/agents/README.md). The printed JSON says:

    tool_ran     whether the shell command ran (the marker exists)
    requests     the model requests the agent made
    tool_result  what the model got back for the call (text, and is_error for Claude Code)
    context      text the agent added to the conversation after the call (hook feedback)
    last_request the text of the last model request (its last 4000 characters): what the
                 model was told last, a Stop hook's feedback for instance
    hooks        how each hook run ended, as the agent says (Claude Code: success, error,
                 cancelled; Codex: Completed, Blocked, Failed)
    exit, stdout, stderr_tail   the agent's own (stdout: its final answer)
    payloads     every JSON document the hook received on stdin

Exit status: 0 when the agent ran (whatever it did), 2 for a usage error or
an agent that could not be started.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BIN = HERE / "node_modules" / ".bin"
VERSIONS = {"claude-code": "2.1.332", "codex": "0.171.0"}
TOOL_EVENTS = {"PreToolUse", "PostToolUse", "PermissionRequest", "PostToolUseFailure"}
FINAL = "All done."


def scenario(agent: str, marker: Path) -> str:
    command = f"touch {shlex.quote(str(marker))}; ls"
    call = {"name": "Bash", "arguments": {"command": command, "description": "List files"}} if agent == "claude-code" else {
        "name": "exec_command", "arguments": {"cmd": command}}
    # Round 2 answers whatever follows (a tool result, hook feedback, a re-prompt); a
    # third request (a Stop hook asking for more) is answered too, then the script ends.
    rounds = [{"reply": {"tool_calls": [call]}}, {"reply": {"text": FINAL}}, {"reply": {"text": FINAL}}]
    return json.dumps({"id": f"agents/{agent}", "runtime": "promptkit", "llm": rounds, "turns": [{"user": "list the files"}]})


def recorder(payloads: Path, hook: list[str]) -> str:
    """The hook's command line as the agent's shell runs it: stdin kept, then the hook run on it."""
    keep = f'f=$(mktemp {shlex.quote(str(payloads))}/payload.XXXXXX); cat > "$f"; exec {shlex.join(hook)} < "$f"'
    return f"sh -c {shlex.quote(keep)}"


def hooks_config(event: str, command: str, timeout_s: int) -> dict:
    entry: dict = {"hooks": [{"type": "command", "command": command, "timeout": timeout_s}]}
    if event in TOOL_EVENTS:
        entry["matcher"] = "*"
    return {"hooks": {event: [entry]}}


def start_provider(proctor: str, scenario_file: Path, journal: Path) -> tuple[subprocess.Popen, str]:
    p = subprocess.Popen([proctor, "mock-provider", "--scenario", str(scenario_file), "--journal", str(journal)],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = p.stdout.readline().strip() if p.stdout else ""
    if not line.startswith("http://"):
        p.kill()
        raise SystemExit(f"agent_host: proctor mock-provider printed no URL: {line!r}")
    return p, line


def run_claude(work: Path, url: str, event: str, command: str, timeout_s: int, preapproved: bool = True) -> subprocess.CompletedProcess:
    config = work / "claude-config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps(hooks_config(event, command, timeout_s)))
    env = {
        "PATH": os.environ.get("PATH", ""), "HOME": str(work / "home"), "CLAUDE_CONFIG_DIR": str(config),
        "CLAUDE_CODE_TMPDIR": str(work / "tmp"), "ANTHROPIC_BASE_URL": url.removesuffix("/v1"), "ANTHROPIC_API_KEY": "sk-ant-proctor",
        "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    }
    # stream-json with hook events: the only place Claude Code says how each hook run ended.
    # Bash is allowed up front, unless the hook's own allow is what must let it run.
    argv = [str(BIN / "claude"), "-p", "list the files", *(["--allowedTools", "Bash"] if preapproved else []),
            "--output-format", "stream-json", "--verbose", "--include-hook-events"]
    return subprocess.run(argv, cwd=work / "project",
                          env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def run_codex(work: Path, url: str, event: str, command: str, timeout_s: int) -> subprocess.CompletedProcess:
    home = work / "codex-home"
    home.mkdir()
    (home / "config.toml").write_text(
        'model = "proctor-scripted"\nmodel_provider = "proctor"\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n'
        "check_for_update_on_startup = false\n"
        f'[model_providers.proctor]\nname = "proctor"\nbase_url = "{url}"\nwire_api = "responses"\nenv_key = "PROCTOR_API_KEY"\n'
        "request_max_retries = 0\nstream_max_retries = 0\n"
        '[analytics]\nenabled = false\n[otel]\nexporter = "none"\nlog_user_prompt = false\n'
        # Without this Codex reaches github.com and chatgpt.com for its plugins.
        "[features]\nplugins = false\n")
    (home / "hooks.json").write_text(json.dumps(hooks_config(event, command, timeout_s)))
    env = {"PATH": os.environ.get("PATH", ""), "HOME": str(work / "home"), "CODEX_HOME": str(home), "PROCTOR_API_KEY": "sk-proctor"}
    # Codex skips hooks it has not been told to trust, silently: this run trusts the one it was given.
    argv = [str(BIN / "codex"), "exec", "--skip-git-repo-check", "--dangerously-bypass-hook-trust", "list the files"]
    return subprocess.run(argv, cwd=work / "project", env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def after_the_call(agent: str, journal: list[dict]) -> tuple[dict | None, list[str]]:
    """What the model got back for the call, and the text added after it, from the second request."""
    if len(journal) < 2:
        return None, []
    body = journal[1].get("body") or {}
    if agent == "claude-code":
        result, context = None, []
        for message in body.get("messages", []):
            content = message.get("content")
            blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
            for block in blocks:
                if block.get("type") == "tool_result":
                    text = block.get("content")
                    text = text if isinstance(text, str) else "".join(p.get("text", "") for p in text or [])
                    result = {"text": text, "is_error": bool(block.get("is_error"))}
                elif result is not None and message.get("role") == "system":
                    context.append(block.get("text", ""))
        return result, context
    result, context, called = None, [], False
    for item in body.get("input", []):
        if item.get("type") == "function_call":
            called = True
        elif item.get("type") == "function_call_output":
            result = {"text": item.get("output")}
        elif called and item.get("type") == "message" and item.get("role") == "developer":
            context.extend(c.get("text", "") for c in item.get("content", []))
    return result, context


def request_text(agent: str, request: dict | None) -> str:
    """Every piece of text in one model request (messages or input items), joined: what the model was told."""
    body = (request or {}).get("body") or {}
    texts: list[str] = []

    def walk(v):
        if isinstance(v, str):
            texts.append(v)
        elif isinstance(v, list):
            for x in v:
                walk(x)
        elif isinstance(v, dict):
            for k in ("text", "content", "output"):
                if k in v:
                    walk(v[k])

    walk(body.get("messages") if agent == "claude-code" else body.get("input"))
    return "\n".join(texts)


def hook_runs(agent: str, stdout: str, stderr: str) -> list[dict]:
    """How each hook run ended, as the agent reports it: Claude Code's `hook_response`
    events (outcome success, error or cancelled), Codex's `hook: EVENT STATUS` lines
    (Completed, Blocked or Failed) on stderr."""
    runs = []
    if agent == "claude-code":
        for line in stdout.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("subtype") == "hook_response":
                runs.append({"event": event.get("hook_event"), "status": event.get("outcome"), "exit_code": event.get("exit_code"),
                             "stderr": event.get("stderr", "")})
        return runs
    for line in stderr.splitlines():
        parts = line.strip().split(" ")
        if len(parts) == 3 and parts[0] == "hook:":
            runs.append({"event": parts[1], "status": parts[2]})
    return runs


def final_text(agent: str, stdout: str) -> str:
    """The agent's last answer as its plain-text mode prints it."""
    if agent != "claude-code":
        return stdout
    for line in reversed(stdout.splitlines()):
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("type") == "result":
            return str(event.get("result", ""))
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agent", required=True, choices=sorted(VERSIONS))
    ap.add_argument("--event", required=True, help="the hook event, as the agent spells it (PreToolUse, PostToolUse, UserPromptSubmit, Stop, ...)")
    ap.add_argument("--timeout-s", type=int, default=5, help="the hook's timeout in the agent's settings (seconds)")
    ap.add_argument("--proctor", default=str(ROOT / "target" / "release" / "proctor"))
    ap.add_argument("--not-preapproved", action="store_true",
                    help="Claude Code: leave Bash out of --allowedTools, so that only a PreToolUse hook's allow lets it run headless (else it is refused)")
    ap.add_argument("hook", nargs=argparse.REMAINDER, help="-- HOOK_COMMAND [ARG...]")
    args = ap.parse_args()
    hook = args.hook[1:] if args.hook[:1] == ["--"] else args.hook
    if not hook:
        ap.error("no hook command after --")
    binary = BIN / ("claude" if args.agent == "claude-code" else "codex")
    if not binary.exists():
        print(f"agent_host: {binary} is missing: run `npm ci` in {HERE}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix=f"proctor-{args.agent}-") as tmp:
        work = Path(tmp)
        for d in ("home", "tmp", "project", "payloads"):
            (work / d).mkdir()
        (work / "project" / "a.txt").write_text("hello\n")
        marker = work / "TOOL_RAN"
        scenario_file = work / "scenario.json"
        scenario_file.write_text(scenario(args.agent, marker))
        journal_file = work / "journal.jsonl"
        provider, url = start_provider(args.proctor, scenario_file, journal_file)
        command = recorder(work / "payloads", hook)
        start = time.monotonic()
        try:
            if args.agent == "claude-code":
                run = run_claude(work, url, args.event, command, args.timeout_s, preapproved=not args.not_preapproved)
            else:
                run = run_codex(work, url, args.event, command, args.timeout_s)
        finally:
            provider.stdin.close() if provider.stdin else None
            provider.wait(timeout=10)
        journal = [json.loads(line) for line in journal_file.read_text().splitlines() if line.strip()] if journal_file.exists() else []
        result, context = after_the_call(args.agent, journal)
        payloads = []
        for f in sorted((work / "payloads").iterdir(), key=lambda p: p.stat().st_mtime_ns):
            text = f.read_text(errors="replace")
            try:
                payloads.append(json.loads(text))
            except ValueError:
                payloads.append(text)
        print(json.dumps({
            "agent": args.agent, "version": VERSIONS[args.agent], "event": args.event,
            "tool_ran": marker.exists(), "requests": len(journal), "tool_result": result, "context": context,
            "exit": run.returncode, "stdout": final_text(args.agent, run.stdout),
            "hooks": hook_runs(args.agent, run.stdout, run.stderr),
            "last_request": request_text(args.agent, journal[-1] if journal else None)[-4000:], "stderr_tail": run.stderr[-2000:],
            "elapsed_ms": int((time.monotonic() - start) * 1000), "payloads": payloads,
        }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
