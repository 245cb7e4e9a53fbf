#!/usr/bin/env bash
# Holds proctor's runtime profiles to the real runtimes (see interop/fidelity.py
# and FIDELITY.md). Builds the two Go drivers from the runtimes' published
# modules, then compares. Usage, from anywhere:
#
#   interop/fidelity.sh [--only wire|fault|case|state|tools|boundary|timing|sdk|differential|agents|world] [--target NAME] [--verbose]
#   interop/fidelity.sh --only differential [--cases N] [--seed S] [--family F] [--found DIR]
#   interop/fidelity.sh --scenario my-scenario.yaml   (your pack scenario through the real SDK)
#   interop/fidelity.sh --seed S --shard K/N --report slice-K.json   (slice K of N of one run, on a machine of its own)
#   interop/fidelity.py --merge slice-*.json   (the slices judged as the whole run; needs no Go, no drivers)
#
# PROCTOR_BIN: the proctor binary (default: target/release/proctor, built if missing).
# PROCTOR_PYTHON: a Python 3.11+ with PyYAML (default: python3).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
bin="$here/bin"
mkdir -p "$bin"

command -v go >/dev/null || { echo "fidelity: go is required (Go 1.26; the modules come from the Go module proxy)" >&2; exit 2; }
for driver in picoclaw promptkit; do
  (cd "$here/$driver" && go build -mod=readonly -o "$bin/$driver-host" "./cmd/$driver-host")
done
for oracle in promptkit-state promptkit-tools; do
  (cd "$here/promptkit" && go build -mod=readonly -o "$bin/$oracle" "./cmd/$oracle")
done
# The SDK (v1.5.10 on runtime v1.5.11; go.sum pins server/a2a v1.5.5, see README.md).
(cd "$here/promptkit-sdk" && go build -mod=readonly -o "$bin/promptkit-sdk" ./cmd/promptkit-sdk)

# runok 0.3.1's extension runner (a Rust crate: interop/runok, its own lockfile).
cargo build --quiet --locked --manifest-path "$here/runok/Cargo.toml" --bin runok-host
runok_host="${CARGO_TARGET_DIR:-$here/runok/target}/debug/runok-host"

proctor="${PROCTOR_BIN:-$root/target/release/proctor}"
if [ ! -x "$proctor" ]; then
  (cd "$root" && cargo build --release --locked)
fi
exec "${PROCTOR_PYTHON:-python3}" "$here/fidelity.py" --proctor "$proctor" \
  --picoclaw-host "$bin/picoclaw-host" --promptkit-host "$bin/promptkit-host" --promptkit-state "$bin/promptkit-state" --promptkit-tools "$bin/promptkit-tools" \
  --promptkit-sdk "$bin/promptkit-sdk" --runok-host "$runok_host" "$@"
