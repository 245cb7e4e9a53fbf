#!/bin/sh
# Stop: keep the agent going once so it confirms the listing.
input=$(cat)
if printf '%s' "$input" | grep -q '"stop_hook_active": false'; then
  echo "Confirm the listing by naming each file, then stop." >&2
  exit 2
fi
exit 0
