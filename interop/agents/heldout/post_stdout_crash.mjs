#!/usr/bin/env node
// PostToolUse: flag listings that expose a.txt.
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8"));

if (input.tool_name === "Bash" && input.tool_response.stdout.includes("a.txt")) {
  console.log(
    JSON.stringify({
      decision: "block",
      reason: "a.txt appeared in the output; treat it as read-only.",
    })
  );
}
