/**
 * A runok extension (protocol runok-extension): a command guard.
 *
 * runok starts this once per command it checks, writes ONE JSON-RPC 2.0
 * request to stdin with no trailing newline, closes stdin, and reads all of
 * stdout as one JSON-RPC reply with the same id:
 *     {"jsonrpc":"2.0","id":1,"method":"validateCommand","params":{"command":"git",
 *      "args":[...],"flags":{...},"raw_command_line":"git push --force","env":{...},"cwd":"..."}}
 *     -> {"jsonrpc":"2.0","id":1,"result":{"status":"allow" | "deny" | "ask","message":"..."}}
 *
 * This one denies a force push, asks before a push to main, and allows the
 * rest. Put your own rule in validate().
 *
 * Node runs the compiled guard.js: `npm install && npm run build` (tsc)
 * writes it beside this file; runok runs `node guard.js`.
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

/** runok's answer: "allow", "deny" or "ask", and why. */
type Verdict = { status: "allow" | "deny" | "ask"; message?: string; fix_suggestion?: string };

/** Your rule. */
function validate(params: Record<string, unknown>): Verdict {
  const words = shellWords(typeof params.raw_command_line === "string" ? params.raw_command_line : "");
  if (words === undefined) {
    return { status: "ask", message: "cannot read this command line" }; // unbalanced quotes: let the user decide
  }
  if (words[0] === "git" && words[1] === "push") {
    if (words.includes("--force") || words.includes("-f")) {
      return { status: "deny", message: "force pushes are not allowed", fix_suggestion: "git push --force-with-lease" };
    }
    if (words.slice(2).includes("main")) {
      return { status: "ask", message: "this pushes to main" };
    }
  }
  return { status: "allow" };
}

/**
 * The words of a command line as a POSIX shell splits them (quotes and
 * backslashes group, white space separates), or undefined when a quote is
 * left open.
 */
function shellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote = "";
  let escaped = false;
  for (const c of line) {
    if (escaped) {
      word += c;
      escaped = false;
    } else if (c === "\\" && quote !== "'") {
      escaped = inWord = true;
    } else if (quote !== "" && c === quote) {
      quote = "";
    } else if (quote !== "") {
      word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === " " || c === "\t" || c === "\n") {
      if (inWord) {
        words.push(word);
      }
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== "" || escaped) {
    return undefined;
  }
  return inWord ? [...words, word] : words;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Read to EOF: runok sends no trailing newline.
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  let request: unknown;
  try {
    request = JSON.parse(input);
  } catch {
    request = undefined;
  }
  const id = isObject(request) && request.id !== undefined ? request.id : null;
  const answer =
    isObject(request) && request.method === "validateCommand"
      ? { result: validate(isObject(request.params) ? request.params : {}) }
      : // Not a request we know: an error, never a default "allow" (runok asks the user).
        { error: { code: -32600, message: "invalid request" } };
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, ...answer }) + "\n");
});

export {}; // a module: the declarations above stay in this file
