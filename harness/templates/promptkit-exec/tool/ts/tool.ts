/**
 * A PromptKit exec tool (protocol promptkit-exec, role tool), one-shot.
 *
 * PromptKit starts this program once per tool call, writes one JSON document
 * to its stdin and closes it:  {"args": {...the arguments the LLM chose...}}
 * The program writes exactly one JSON document to stdout and exits 0:
 *
 *     {"result": ...}   the tool worked; the LLM sees the result
 *     {"error": "..."}  the tool failed; the LLM sees the message
 *
 * This one greets someone: {"name": "Ada"} -> {"result": {"greeting": "Hello, Ada!"}}.
 * Put your own logic in runTool().
 *
 * Node runs the compiled tool.js: `npm install && npm run build` (tsc) writes
 * it beside this file; PromptKit runs `node tool.js`.
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

type Answer = { result: unknown } | { error: string };

/** Your tool. Return {result: ...} or {error: "..."}. */
function runTool(args: Record<string, unknown>): Answer {
  const name = args.name;
  if (typeof name !== "string" || name.trim() === "") {
    return { error: "missing argument: name (a non-empty string)" };
  }
  return { result: { greeting: `Hello, ${name.trim()}!` } };
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

// Read to EOF: PromptKit sends no trailing newline, so a line reader would
// wait for a line that never ends.
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const request = parse(input);
  let args = isObject(request) ? request.args : undefined;
  if (args === undefined || args === null) {
    args = {}; // the LLM sent no arguments
  }
  const answer: Answer = isObject(args) ? runTool(args) : { error: "args must be a JSON object" };
  // One document and nothing else on stdout (logs go to stderr), then exit 0:
  // PromptKit ignores stdout when the exit status is not 0.
  process.stdout.write(JSON.stringify(answer) + "\n");
});

export {}; // a module: the declarations above stay in this file
