/**
 * A PromptKit exec tool hook (protocol promptkit-exec, role tool-hook).
 *
 * PromptKit runs this before (and after) every tool call, one process per
 * call, with one JSON document on stdin:
 *     {"hook": "tool", "phase": "before_execution", "request": {"Name": ..., "Args": {...}, "CallID": ...}}
 * and reads one answer from stdout:
 *     {"allow": true}   or   {"allow": false, "reason": "..."}
 *
 * The real PromptKit sends "Name", "Args" and "CallID" (PascalCase) while its
 * docs show "name", "args" and "call_id"; read both, as key() does. A crash,
 * an empty answer or {} counts as a deny: always answer with an explicit "allow".
 *
 * This one denies a call whose arguments mention "secret". Put your own rule in decide().
 *
 * Node runs the compiled tool_hook.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PromptKit runs `node tool_hook.js`.
 */

// The Node APIs this plugin uses, declared here so that TypeScript alone
// compiles it, with no @types/node (with @types/node installed, delete them).
declare const process: {
  stdin: {
    setEncoding(encoding: "utf8"): void;
    on(event: "data", listener: (chunk: string) => void): void;
    on(event: "end", listener: () => void): void;
  };
  stdout: { write(text: string): boolean };
};

/** What PromptKit reads: "allow" is always written, true or false. */
type Decision = { allow: true } | { allow: false; reason: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The JSON document `text` holds, or undefined when it holds none. */
function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** obj[pascal] (what PromptKit sends) or obj[snake] (what its docs show). */
function key(obj: unknown, pascal: string, snake: string): unknown {
  if (!isObject(obj)) {
    return undefined;
  }
  return pascal in obj ? obj[pascal] : obj[snake];
}

/** Your rule. */
function decide(payload: Record<string, unknown>): Decision {
  const tool = key(payload.request, "Name", "name");
  const args = key(payload.request, "Args", "args") ?? null; // null when the LLM sent no arguments
  if (JSON.stringify(args).toLowerCase().includes("secret")) {
    return { allow: false, reason: `the arguments of ${String(tool).slice(0, 60)} mention a secret` };
  }
  return { allow: true };
}

// Read to EOF: PromptKit sends no trailing newline.
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const payload = parse(input);
  const answer: Decision = isObject(payload) ? decide(payload) : { allow: false, reason: "unreadable request" };
  process.stdout.write(JSON.stringify(answer) + "\n");
});

export {}; // a module: the declarations above stay in this file
