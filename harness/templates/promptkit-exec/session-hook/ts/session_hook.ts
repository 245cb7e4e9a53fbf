/**
 * A PromptKit exec session hook (protocol promptkit-exec, role session-hook).
 *
 * PromptKit runs this at session start, after each completed turn and at
 * session end, one process each time, with one JSON document on stdin:
 *     {"hook": "session", "phase": "session_start" | "session_update" | "session_end",
 *      "event": {"SessionID": ..., "TurnIndex": ..., "Messages": [...], ...}}
 * and expects {"ack": true} on stdout.
 *
 * The real PromptKit sends the event keys in PascalCase ("SessionID",
 * "TurnIndex") while its docs show snake_case ("session_id", "turn_index");
 * read both. PromptKit waits for this process before the conversation goes
 * on: keep it fast.
 *
 * This one logs each event to stderr. Put your own logic in onEvent().
 *
 * Node runs the compiled session_hook.js: `npm install && npm run build` (tsc)
 * writes it beside this file; PromptKit runs `node session_hook.js`.
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

/** Your logic: record, count, forward... (stdout is for the answer only). */
function onEvent(phase: unknown, event: Record<string, unknown>): void {
  const session = "SessionID" in event ? event.SessionID : event.session_id;
  const turn = "TurnIndex" in event ? event.TurnIndex : event.turn_index;
  process.stderr.write(`session hook: ${String(phase)} session=${String(session)} turn=${String(turn)}\n`);
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
  const payload = parse(input);
  if (isObject(payload)) {
    onEvent(payload.phase, isObject(payload.event) ? payload.event : {});
  }
  process.stdout.write(JSON.stringify({ ack: true }) + "\n");
});

export {}; // a module: the declarations above stay in this file
