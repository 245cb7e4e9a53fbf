#!/usr/bin/env bash
# Whole-process serial load, wall time: `proctor load --protocol promptkit-server`
# against a C client doing the same round trips, both against the C echo plugin.
# The contenders take turns, ROUNDS times; the medians are compared.
# Usage: conformance/benches/load_vs_c.sh [REQUESTS] [ROUNDS]   (from the repo root)
set -euo pipefail
requests=${1:-30000} rounds=${2:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
gcc -O2 -o "$dir/echo" conformance/benches/c/echo.c
gcc -O2 -o "$dir/client" conformance/benches/c/client.c
# PROCTOR=path/to/another/proctor compares an older build (before/after).
proctor=${PROCTOR:-target/release/proctor}
[[ -n "${PROCTOR:-}" ]] || cargo build --release --quiet -p proctor
# The request line proctor writes, captured once, so the C client sends the very same bytes.
"$proctor" load --protocol promptkit-server --requests 1 -- \
  sh -c "IFS= read -r line; printf '%s\n' \"\$line\" > '$dir/request'; "'echo "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"' >/dev/null
secs() {
  local s
  s=$(date +%s%N)
  "$@" >/dev/null || { echo "failed: $*" >&2; exit 1; }
  echo $(( ($(date +%s%N) - s) / 1000 ))
}
proctor_us=() client_us=()
for _ in $(seq "$rounds"); do
  proctor_us+=("$(secs "$proctor" load --protocol promptkit-server --requests "$requests" -- "$dir/echo")") || exit 1
  client_us+=("$(secs "$dir/client" "$requests" "$dir/request" -- "$dir/echo")") || exit 1
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
p=$(median "${proctor_us[@]}") c=$(median "${client_us[@]}")
echo "request line ($(wc -c < "$dir/request") bytes): $(head -c 120 "$dir/request")..."
echo "LOAD promptkit-server serial, $requests requests: proctor ${p} us vs C client ${c} us (medians of $rounds) = $(awk "BEGIN {printf \"%.3f\", $p / $c}")x"
