#!/usr/bin/env bash
# The one command that regenerates docs/benchmarks.md and its plots (root; several hours with the
# round-trip-time sets of issue 17, not yet measured; the issue-7 scenarios alone took 56 min):
#   sudo src/test/bench/run-all.sh
# Installs what the harness needs, runs every scenario of issues 7 and 17 (bench.sh; options are
# passed on, e.g. --reps 5, --scenarios "4s 4w", --rtts "0 20,50,80,120"), and writes the tables
# and plots (report.py).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
bash "$here/install"
results="$repo/docs/benchmarks"
mkdir -p "$results"
rm -f "$results"/results.csv "$results"/braid-runs.jsonl "$results"/*.png "$results"/machine.txt \
  "$results"/rtt-check.csv "$results"/delayline.log
bash "$here/bench.sh" --out "$results" "$@"
"$repo/.venv/bin/python" "$here/report.py" "$results" "$repo/docs/benchmarks.md"
echo "run-all: wrote $repo/docs/benchmarks.md" >&2
