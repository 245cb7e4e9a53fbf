/**
 * A PreToolUse command hook for Claude Code and Codex CLI (protocols
 * claude-code-hook and codex-hook): blocks the shell commands in BLOCKED,
 * lets everything else through.
 *
 * The agent runs it once per tool call with the event as one JSON object on
 * stdin, then reads its exit status, stdout and stderr. Configure it in
 * Claude Code's settings.json or Codex's hooks.json:
 *     {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "node guard.js"}]}]}}
 *
 * How both agents read a hook: stdout holds one JSON object or nothing (logs
 * go to stderr); a block always carries its reason (Codex ignores a block
 * without one); only documented fields, and never permissionDecision "allow"
 * (Codex refuses it; saying nothing lets the call through).
 *
 * Node runs the compiled guard.js: `npm install && npm run build` (tsc)
 * writes it beside this file.
 */

// The Node APIs this hook uses, declared here so that TypeScript alone
// compiles it, with no @types/node (with @types/node installed, delete them).
declare const process: {
  stdin: {
    setEncoding(encoding: "utf8"): void;
    on(event: "data", listener: (chunk: string) => void): void;
    on(event: "end", listener: () => void): void;
  };
  stdout: { write(text: string): boolean };
  stderr: { write(text: string): boolean };
};

/** Your rules: a piece of a command line, and why it is refused. */
const BLOCKED: [string, string][] = [
  ["rm -rf", "rm -rf deletes files for good"],
  ["--force", "a force push rewrites shared history"],
];

/** The reason to block this call, or undefined to let it through. */
function decide(payload: Record<string, unknown>): string | undefined {
  const input = payload.tool_input as Record<string, unknown> | undefined;
  const command = input?.command;
  if (payload.tool_name !== "Bash" || typeof command !== "string") {
    return undefined;
  }
  return BLOCKED.find(([piece]) => command.includes(piece))?.[1];
}

let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (text += chunk));
process.stdin.on("end", () => {
  let reason: string | undefined;
  try {
    reason = decide(JSON.parse(text) as Record<string, unknown>);
  } catch (e) {
    process.stderr.write(`guard: ${String(e)}\n`); // a bug here must not become a hook error
    return;
  }
  if (reason !== undefined) {
    const decision = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
    process.stdout.write(JSON.stringify(decision) + "\n");
  }
});

export {};
