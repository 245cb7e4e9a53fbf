#!/usr/bin/env node
// PreToolUse: don't let the agent create stray files with touch.
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8"));
const cmd = input?.tool_input?.command ?? "";

if (input.tool_name === "Bash" && /\btouch\b/.test(cmd)) {
  process.stderr.write("Do not create files with touch; edit existing files instead.\n");
  process.exit(1);
}
process.exit(0);
