#!/bin/sh
# UserPromptSubmit: plain stdout is added as context for the model.
cat >/dev/null
echo "Project context: this folder is a scratch workspace; keep answers short."
exit 0
