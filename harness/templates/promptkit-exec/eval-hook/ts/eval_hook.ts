/**
 * A PromptKit exec eval hook (protocol promptkit-exec, role eval-hook).
 *
 * PromptKit runs this once per eval result, one process each time, with one
 * JSON document on stdin:
 *     {"eval_id": "tone", "type": "...", "score": 0.85, "explanation": "...",
 *      "duration_ms": 12, "session_id": "...", "turn_index": 1, ...}
 * ("passed" is in the docs; the real PromptKit does not send it.) PromptKit
 * ignores this hook's stdout, so there is nothing to answer: exit 0 quickly.
 * (PromptKit gives an eval hook 5 seconds.)
 *
 * This one logs each result to stderr. Put your own logic in onResult(): send
 * scores to your metrics system, alert on low ones...
 *
 * Node runs the compiled eval_hook.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PromptKit runs `node eval_hook.js`.
 */

// The Node APIs this plugin uses, declared here so that TypeScript alone
// compiles it, with no @types/node (with @types/node installed, delete them).
declare const process: {
  stdin: {
    setEncoding(encoding: "utf8"): void;
    on(event: "data", listener: (chunk: string) => void): void;
    on(event: "end", listener: () => void): void;
  };
  stderr: { write(text: string): boolean };
};

/** Your logic (stdout is ignored; log to stderr or a file). */
function onResult(result: Record<string, unknown>): void {
  process.stderr.write(`eval hook: ${String(result.eval_id)} scored ${String(result.score)}\n`);
}

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

// Read to EOF: PromptKit sends no trailing newline.
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const result = parse(input);
  if (isObject(result)) {
    onResult(result);
  }
});

export {}; // a module: the declarations above stay in this file
