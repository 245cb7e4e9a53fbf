#!/bin/sh
# A PromptKit exec session hook (protocol promptkit-exec, role session-hook), in POSIX sh.
#
# PromptKit runs this at session start, after each completed turn and at
# session end, one process each time, with one JSON document on stdin (no
# trailing newline) and expects {"ack":true} on stdout. It never reads more
# than that, so no JSON parsing is needed here.
#
# Read all of stdin with $(cat): `while read line` would lose the request,
# which has no final newline. Print nothing else on stdout; logs go to stderr.
# PromptKit waits for this process before the conversation goes on: keep it fast.

request=$(cat)

# Your logic here: record, count, forward "$request"... (to stderr or a file).
printf 'session hook: got %s bytes\n' "${#request}" >&2

printf '{"ack":true}\n'
