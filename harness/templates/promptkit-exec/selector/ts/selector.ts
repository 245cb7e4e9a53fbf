/**
 * A PromptKit exec selector (protocol promptkit-exec, role selector), one-shot.
 *
 * PromptKit asks a selector which tools or skills fit the user's query, one
 * process per question, with one JSON document on stdin:
 *     {"query": {"text": "...", "k": 2, ...}, "candidates": [{"id": ..., "name": ..., "description": ...}]}
 * and reads one answer from stdout:
 *     {"selected": ["id", ...]}   at most k ids, taken from the candidates, best first
 *
 * The real PromptKit sends Go's field names ("Text", "K", "ID", "Name",
 * "Description") while its docs show lowercase ones; read both, as key()
 * does. On any failure PromptKit offers every candidate.
 *
 * This one selects the candidates whose id or name the query mentions. Put
 * your own ranking in select().
 *
 * Node runs the compiled selector.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PromptKit runs `node selector.js`.
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

/** obj[lower] (what the docs show) or obj[go] (what PromptKit sends). */
function key(obj: unknown, lower: string, go: string): unknown {
  if (!isObject(obj)) {
    return undefined;
  }
  return lower in obj ? obj[lower] : obj[go];
}

/** Your ranking: the chosen candidate ids, best first. */
function select(text: string, candidates: unknown[]): string[] {
  text = text.toLowerCase();
  const chosen: string[] = [];
  for (const candidate of candidates) {
    const id = key(candidate, "id", "ID");
    const name = key(candidate, "name", "Name");
    const named = typeof name === "string" && name !== "" && text.includes(name.toLowerCase());
    if (typeof id === "string" && (text.includes(id.toLowerCase()) || named)) {
      chosen.push(id);
    }
  }
  return chosen;
}

// Read to EOF: PromptKit sends no trailing newline.
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const request = parse(input);
  const query = isObject(request) ? request.query : undefined;
  const candidates = isObject(request) ? request.candidates : undefined;
  const text = key(query, "text", "Text");
  const k = key(query, "k", "K");
  let chosen = select(typeof text === "string" ? text : "", Array.isArray(candidates) ? candidates : []);
  if (typeof k === "number" && Number.isInteger(k) && k > 0) {
    chosen = chosen.slice(0, k);
  }
  process.stdout.write(JSON.stringify({ selected: chosen }) + "\n");
});

export {}; // a module: the declarations above stay in this file
