#!/bin/sh
# home_clock_tool.sh: a PromptKit exec tool (one-shot) that answers the
# current time in the user's configured timezone, read from
# $HOME/.config/clock-tool/tz (UTC when the file is absent).
#
# The mistake: it relies on the environment of the shell it was written in.
# PromptKit starts a one-shot exec tool whose runtime config lists `env:`
# with ONLY those variables: no PATH, no HOME (runtime/tools/exec_executor.go;
# research promptkit.md §1.0). Under `set -u`, the missing HOME ends the
# script before it answers. Certified with the runtime config's variables,
#
#   proctor certify --protocol promptkit-exec --role tool --env CLOCK_FORMAT=iso -- sh examples/broken/home_clock_tool.sh
#
# it passes `documented` (which promises no such rule) and fails
# promptkit@86d9f36, with a note naming HOME. The fix: add HOME to the
# tool's `env:` list, or do not depend on it.
set -eu
cat >/dev/null
tz_file="$HOME/.config/clock-tool/tz"
tz=UTC
if [ -f "$tz_file" ]; then
  tz=$(cat "$tz_file")
fi
printf '{"result":{"now":"%s","tz":"%s","format":"%s"}}' "$(TZ=$tz date -u +%Y-%m-%dT%H:%M:%SZ)" "$tz" "${CLOCK_FORMAT:-iso}"
