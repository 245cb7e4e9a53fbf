#!/usr/bin/env bash
# `proctor certify --fuzz N` on a Python one-shot tool, wall time at --jobs 1
# and --jobs J, against the plugin's own run time summed over its spawns.
# The two certify runs take turns, ROUNDS times; the medians are compared, and
# every report must be byte for byte the --jobs 1 one.
# Usage: conformance/benches/certify_jobs.sh [FUZZ] [ROUNDS] [JOBS]   (from the repo root)
set -euo pipefail
fuzz=${1:-50} rounds=${2:-3} jobs=${3:-$(nproc)}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
proctor=${PROCTOR:-target/release/proctor}
[[ -n "${PROCTOR:-}" ]] || cargo build --release --quiet -p proctor
tool=(python3 examples/promptkit-exec/weather_tool.py)
flags=(certify --no-progress --format json --protocol promptkit-exec --role tool --fuzz "$fuzz"
  --schema examples/promptkit-exec/weather_tool.schema.json --cases examples/promptkit-exec/weather_tool.cases.yaml)
us() {
  local s
  s=$(date +%s%N)
  "$@" >"$dir/out" || [[ $? == 1 ]] || { echo "failed: $*" >&2; exit 1; }
  echo $(( ($(date +%s%N) - s) / 1000 ))
}
one_us=() many_us=()
for round in $(seq "$rounds"); do
  one_us+=("$(us "$proctor" "${flags[@]}" --jobs 1 -- "${tool[@]}")")
  cp "$dir/out" "$dir/one.json"
  many_us+=("$(us "$proctor" "${flags[@]}" --jobs "$jobs" -- "${tool[@]}")")
  cmp -s "$dir/one.json" "$dir/out" || { echo "round $round: the --jobs $jobs report differs from --jobs 1" >&2; exit 1; }
done
# The plugin alone: one spawn with a typical request, as many times as certify spawned it.
spawns=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["exchanges"])' "$dir/one.json")
plugin_us=()
for _ in $(seq "$rounds"); do
  s=$(date +%s%N)
  for _ in $(seq "$spawns"); do echo '{"args":{"city":"Paris"}}' | "${tool[@]}" >/dev/null; done
  plugin_us+=($(( ($(date +%s%N) - s) / 1000 )))
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
o=$(median "${one_us[@]}") m=$(median "${many_us[@]}") p=$(median "${plugin_us[@]}")
ratio() { awk "BEGIN {printf \"%.2f\", $1 / $2}"; }
echo "CERTIFY --fuzz $fuzz, $spawns spawns of ${tool[*]} (medians of $rounds, reports identical):"
echo "  plugin alone, spawns one after another: ${p} us"
echo "  certify --jobs 1: ${o} us ($(ratio "$o" "$p")x the plugin's own time)"
echo "  certify --jobs $jobs: ${m} us ($(ratio "$m" "$p")x the plugin's own time)"
echo "RATIO certify --jobs 1 / --jobs $jobs = $(ratio "$o" "$m")x"
