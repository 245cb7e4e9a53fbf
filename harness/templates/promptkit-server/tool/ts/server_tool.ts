/**
 * A PromptKit server-mode tool (protocol promptkit-server, role tool).
 *
 * PromptKit starts this once (`runtime: server`) and keeps it running. It
 * writes one JSON-RPC 2.0 request per line on stdin:
 *     {"jsonrpc":"2.0","id":1,"method":"execute","params":{"args":{...}}}
 * and waits for one reply line per request, with the same id:
 *     {"jsonrpc":"2.0","id":1,"result":...}                               the tool worked
 *     {"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"..."}}     the tool failed
 *
 * Write each reply at once, in one line: PromptKit waits for it while stdin
 * is still open, and reads the next line as the next reply.
 *
 * This one adds two numbers: {"a": 2, "b": 3} -> {"sum": 5}. Put your own
 * logic in runTool(); state kept in this process lasts across calls.
 *
 * Node runs the compiled server_tool.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PromptKit runs `node server_tool.js`.
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

/** A failure the LLM should hear about (sent as error code -32000); any other exception is a bug (-32603). */
class ToolError extends Error {}

/** Your tool. Return the result, or throw new ToolError("..."). */
function runTool(args: Record<string, unknown>): unknown {
  const { a, b } = args;
  if (typeof a !== "number" || typeof b !== "number") {
    throw new ToolError("arguments a and b must be numbers");
  }
  return { sum: a + b };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Writes one reply line with the request's id. */
function reply(id: unknown, body: { result: unknown } | { error: { code: number; message: string } }): void {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, ...body }) + "\n");
}

/** Answers one line: a request gets exactly one reply, a notification none. */
function handle(line: string): void {
  if (line.trim() === "") {
    return;
  }
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    reply(null, { error: { code: -32700, message: "parse error" } });
    return;
  }
  if (!isObject(message)) {
    reply(null, { error: { code: -32600, message: "invalid request" } });
    return;
  }
  if (!("id" in message)) {
    return; // a notification (no id) gets no reply
  }
  if (message.method !== "execute") {
    reply(message.id, { error: { code: -32601, message: "method not found" } });
    return;
  }
  const args = isObject(message.params) ? message.params.args : undefined;
  try {
    reply(message.id, { result: runTool(isObject(args) ? args : {}) });
  } catch (error) {
    if (error instanceof ToolError) {
      reply(message.id, { error: { code: -32000, message: error.message } });
      return;
    }
    // A bug in your tool must not end the process: PromptKit never restarts it.
    process.stderr.write(`execute: ${String(error)}\n`);
    reply(message.id, { error: { code: -32603, message: `internal error: ${String(error)}` } });
  }
}

// One request per line, until PromptKit closes stdin.
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
