/**
 * A PromptKit exec eval (protocol promptkit-exec, role eval), one-shot.
 *
 * PromptKit runs this after an assistant reply, with one JSON document on stdin:
 *     {"type": "...", "params": {...}, "content": "<the reply>", "context": {...}}
 * and reads one document from stdout:
 *     {"score": 0.0 to 1.0, "detail": "why", "data": {...anything...}}
 *
 * This one scores 1.0 when the reply does not apologise and 0.0 when it says
 * "sorry". Put your own scoring in score().
 *
 * Node runs the compiled eval.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PromptKit runs `node eval.js`.
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

/** Your eval: a score between 0 and 1, and a short explanation. */
function score(content: string, params: Record<string, unknown>): [number, string] {
  if (content.toLowerCase().includes("sorry")) {
    return [0.0, "the reply apologises"];
  }
  return [1.0, "no apology"];
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
  const request = parse(input);
  const content = isObject(request) ? request.content : undefined;
  const params = isObject(request) ? request.params : undefined; // absent when the eval has none
  const [value, detail] = score(typeof content === "string" ? content : "", isObject(params) ? params : {});
  // One document on stdout, then exit 0.
  process.stdout.write(JSON.stringify({ score: value, detail, data: {} }) + "\n");
});

export {}; // a module: the declarations above stay in this file
