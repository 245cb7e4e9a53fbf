/**
 * A PicoClaw process hook in mode `llm` (protocol picoclaw-hook).
 *
 * PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
 * message per line on stdin and waits for one reply line per request, with
 * the same id:
 *     hook.hello       {"name":..., "version":1, "modes":["llm"]}   -> {"ok": true}
 *     hook.before_llm  {"model": ..., "messages": [{"role":..., "content":...}]}
 *                                                   -> {"action": "continue" | "abort_turn", "reason": ...}
 *     hook.after_llm   {"model": ..., "response": {...}}             -> {"action": "continue"}
 * Messages without an id are notifications: never answer them.
 *
 * Reply to each request with one line as soon as it is read, echoing its id:
 * PicoClaw waits for the reply while stdin is still open (a hook.hello that
 * never arrives stops the agent), and several requests can be in flight.
 *
 * This one ends the turn before the LLM is asked when the user's last message
 * says "stop". Put your own rule in beforeLLM().
 *
 * Node runs the compiled llm_hook.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PicoClaw runs `node llm_hook.js`.
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
  stderr: { write(text: string): boolean };
};

type Params = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The answer to hook.before_llm and hook.after_llm. */
type Action = { action: "continue" | "abort_turn"; reason?: string };

/** Your rule: "continue", or "abort_turn" with a reason. */
function beforeLLM(params: Params): Action {
  const messages = Array.isArray(params.messages) ? params.messages : [];
  const users = messages.filter((m) => isObject(m) && m.role === "user");
  const last: unknown = users.length > 0 ? users[users.length - 1].content : undefined;
  if (typeof last === "string" && last.toLowerCase().includes("stop")) {
    return { action: "abort_turn", reason: "the user asked to stop" };
  }
  return { action: "continue" };
}

/** Called with the LLM's answer; "continue" keeps it as it is. */
function afterLLM(params: Params): Action {
  return { action: "continue" };
}

/** The requests this hook answers, by name. */
const methods: Record<string, (params: Params) => unknown> = {
  "hook.hello": () => ({ ok: true }),
  "hook.before_llm": beforeLLM,
  "hook.after_llm": afterLLM,
};

/** Writes one reply line with the request's id. */
function reply(id: unknown, body: { result: unknown } | { error: { code: number; message: string } }): void {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, ...body }) + "\n");
}

/** Answers one line: a request gets exactly one reply, a notification none. */
function handle(line: string): void {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return; // not JSON (a blank line): nothing to answer
  }
  if (!isObject(message)) {
    return;
  }
  if (!("id" in message)) {
    return; // a notification: no reply
  }
  const method = message.method;
  const handler = typeof method === "string" && Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (handler === undefined) {
    reply(message.id, { error: { code: -32601, message: "method not found" } });
    return;
  }
  try {
    reply(message.id, { result: handler(isObject(message.params) ? message.params : {}) });
  } catch (error) {
    // A bug in your rule must not end the hook: PicoClaw would lose it for good.
    process.stderr.write(`${String(method)}: ${String(error)}\n`);
    reply(message.id, { error: { code: -32603, message: `internal error: ${String(error)}` } });
  }
}

// One message per line, until PicoClaw closes stdin.
let buffered = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let end: number;
  while ((end = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    handle(line);
  }
});
process.stdin.on("end", () => handle(buffered));

export {}; // a module: the declarations above stay in this file
