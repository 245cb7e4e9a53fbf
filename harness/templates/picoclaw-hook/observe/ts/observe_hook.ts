/**
 * A PicoClaw process hook in mode `observe` (protocol picoclaw-hook).
 *
 * PicoClaw starts this once and keeps it running. It writes one JSON-RPC 2.0
 * message per line on stdin. The only request is the handshake, which must be
 * answered with the same id:
 *     hook.hello  {"name":..., "version":1, "modes":["observe"]}  -> {"ok": true}
 * Everything else is a notification (no id), which must never be answered:
 *     hook.runtime_event  {"kind": "agent.turn.start", "source": ..., "payload": ...}
 * (older PicoClaw docs call it hook.event, with "Kind"; both are handled).
 *
 * Reply to the handshake with one line as soon as it is read: PicoClaw waits
 * for it while stdin is still open (a hook.hello that never arrives stops
 * the agent).
 *
 * This one logs each event kind to stderr. Put your own logic in onEvent().
 *
 * Node runs the compiled observe_hook.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PicoClaw runs `node observe_hook.js`.
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

/** A runtime event: record, count, forward... (stdout is for replies only). */
function onEvent(params: Params): void {
  const kind = params.kind || params.Kind;
  process.stderr.write(`observe hook: ${String(kind)}\n`);
}

/** The requests this hook answers, by name. */
const methods: Record<string, (params: Params) => unknown> = {
  "hook.hello": () => ({ ok: true }),
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
  if (message.method === "hook.runtime_event" || message.method === "hook.event") {
    onEvent(isObject(message.params) ? message.params : {});
    return; // a notification: no reply
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
