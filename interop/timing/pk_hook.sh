#!/bin/sh
# pk_hook.sh MODE SECONDS JSON: a PromptKit one-shot exec hook (or any one-shot
# plugin) that answers JSON to every request, with one timing quirk.
#   delay   read the request, sleep SECONDS, answer, exit
#   linger  read the request, answer at once, sleep SECONDS, exit
#   child   read the request, answer at once, exit 0, leaving a background
#           child that holds stdout (only stdout) open for SECONDS
# The sleeps of delay and linger hold no pipe: killed, the script leaves
# nothing that keeps stdout open.
cat >/dev/null
case "$1" in
  delay)
    sleep "$2" </dev/null >/dev/null 2>&1
    printf '%s' "$3" ;;
  linger)
    printf '%s' "$3"
    sleep "$2" </dev/null >/dev/null 2>&1 ;;
  child)
    printf '%s' "$3"
    sleep "$2" </dev/null 2>/dev/null &
    ;;
  *) echo "pk_hook.sh: unknown mode $1" >&2; exit 2 ;;
esac
exit 0
