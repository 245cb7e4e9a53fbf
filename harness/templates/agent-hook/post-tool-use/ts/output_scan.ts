/**
 * A PostToolUse command hook for Claude Code and Codex CLI (protocols
 * claude-code-hook and codex-hook): when a shell command's output matches a
 * rule in FLAGGED, gives the model a reason (Claude Code adds it beside the
 * output; Codex replaces the output with it).
 *
 * Configure it in Claude Code's settings.json or Codex's hooks.json:
 *     {"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "node output_scan.js"}]}]}}
 *
 * The output is in tool_response, not tool_input, and its shape depends on
 * the agent: Claude Code sends Bash's result object (stdout, stderr, ...),
 * Codex the output as one string. Logs go to stderr; stdout holds one JSON
 * object or nothing; a block always carries its reason.
 *
 * Node runs the compiled output_scan.js: `npm install && npm run build` (tsc).
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

/** Your rules: a pattern in the output, and what the model is told. */
const FLAGGED: [RegExp, string][] = [[/(password|secret|token)\s*[=:]\s*\S+/i, "The output holds a secret: do not repeat it."]];

/** The command's output, whichever agent sent it. */
function outputOf(response: unknown): string {
  if (typeof response === "string") {
    return response;
  }
  if (response !== null && typeof response === "object") {
    const r = response as Record<string, unknown>;
    return `${String(r.stdout ?? "")}\n${String(r.stderr ?? "")}`;
  }
  return "";
}

let text = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (text += chunk));
process.stdin.on("end", () => {
  let output: string;
  try {
    output = outputOf((JSON.parse(text) as Record<string, unknown>).tool_response);
  } catch (e) {
    process.stderr.write(`output_scan: ${String(e)}\n`);
    return;
  }
  const hit = FLAGGED.find(([pattern]) => pattern.test(output));
  if (hit !== undefined) {
    process.stdout.write(JSON.stringify({ decision: "block", reason: hit[1] }) + "\n");
  }
});

export {};
