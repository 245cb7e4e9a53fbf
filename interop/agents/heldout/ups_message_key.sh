#!/bin/sh
# UserPromptSubmit: don't let people ask the agent to list the files.
prompt=$(cat)
case "$prompt" in
  *list*)
    printf '%s\n' '{"decision": "block", "message": "Please do not ask for file listings here."}'
    ;;
esac
exit 0
