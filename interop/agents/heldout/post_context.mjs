#!/usr/bin/env node
// PostToolUse: after any shell command, remind the model that the folder holds fixtures.
import { readFileSync } from "node:fs";

const CONTEXT = "Note: files in this folder are test fixtures; report them but do not edit them.";

let input = {};
try {
  input = JSON.parse(readFileSync(0, "utf8") || "{}");
} catch {
  process.exit(0);
}

if (input.tool_name === "Bash") {
  process.stdout.write(
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: CONTEXT,
      },
    })
  );
}
process.exit(0);
