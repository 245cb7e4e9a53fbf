#!/bin/sh
# A PromptKit exec eval hook (protocol promptkit-exec, role eval-hook), in POSIX sh.
#
# PromptKit runs this once per eval result, one process each time, with one
# JSON document on stdin (no trailing newline), e.g.
#   {"eval_id":"tone","type":"...","score":0.85,"explanation":"...","session_id":"...",...}
# and ignores its stdout: there is nothing to answer, so no JSON parsing is
# needed to be correct. Exit 0 quickly (PromptKit gives an eval hook 5 seconds).
#
# Read all of stdin with $(cat): `while read line` would lose the request,
# which has no final newline.

result=$(cat)

# Your logic here: append "$result" to a file, send it to your metrics system...
printf 'eval hook: %s\n' "$result" >&2
