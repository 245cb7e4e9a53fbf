#!/bin/sh
# BROKEN on purpose (AGENT-HOOK-EXIT2-STDERR): blocks with exit 2 but writes
# its reason to stdout, which neither agent reads after exit 2. Claude Code
# blocks and tells the model only "No stderr output"; Codex runs the command.
#
#   proctor certify --protocol codex-hook --role PreToolUse -- sh examples/broken/exit2_stdout_hook.sh
#
# Fix: echo "..." >&2
cat >/dev/null
echo "shell commands are disabled in this repository"
exit 2
