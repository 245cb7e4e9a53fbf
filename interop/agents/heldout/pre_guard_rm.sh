#!/bin/sh
# PreToolUse guard: stop recursive force-deletes, let everything else through.
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*)
    echo "Recursive force delete is blocked by policy." >&2
    exit 2
    ;;
esac
exit 0
