#!/usr/bin/env node
// Stop: ask the model to double-check its work once.
import { readFileSync } from "node:fs";

const input = JSON.parse(readFileSync(0, "utf8"));
if (!input.stop_hook_active) {
  console.log("Double-check that the marker file was created, then finish.");
  process.exit(2);
}
process.exit(0);
