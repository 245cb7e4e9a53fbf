/**
 * A PromptKit exec provider hook (protocol promptkit-exec, role provider-hook).
 *
 * PromptKit runs this around every LLM call, one process per call, with one
 * JSON document on stdin:
 *     {"hook": "provider", "phase": "before_call", "request": {...}}
 *     {"hook": "provider", "phase": "after_call", "request": {...}, "response": {...}}
 * and reads one answer from stdout:
 *     {"allow": true}   or   {"allow": false, "reason": "..."}
 *
 * The real PromptKit sends the request and response keys in PascalCase
 * ("Messages", "Message") while its docs show snake_case ("messages",
 * "message"); read both, as key() does. A crash, an empty answer or {} counts
 * as a deny: always answer with an explicit "allow".
 *
 * This one denies a call when a message says "secret". Put your own rule in decide().
 *
 * Node runs the compiled provider_hook.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PromptKit runs `node provider_hook.js`.
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

/** The text of every message in the request, and of the reply (after_call). */
function texts(payload: Record<string, unknown>): string[] {
  const messages = key(payload.request, "Messages", "messages");
  const reply = key(payload.response, "Message", "message");
  const all = [...(Array.isArray(messages) ? messages : []), reply];
  return all.flatMap((message) => (isObject(message) && typeof message.content === "string" ? [message.content] : []));
}

/** Your rule. */
function decide(payload: Record<string, unknown>): Decision {
  if (texts(payload).some((text) => text.toLowerCase().includes("secret"))) {
    return { allow: false, reason: "a message mentions a secret" };
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
