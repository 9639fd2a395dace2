#!/usr/bin/env bash
# The one command that regenerates docs/benchmarks.md and its plots (root, about an hour):
#   sudo src/test/bench/run-all.sh
# Installs what the harness needs, runs every scenario of issue 7 (bench.sh; options are passed
# on, e.g. --reps 5), and writes the tables and plots (report.py).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
bash "$here/install"
results="$repo/docs/benchmarks"
mkdir -p "$results"
rm -f "$results"/results.csv "$results"/braid-runs.jsonl "$results"/*.png "$results"/machine.txt
bash "$here/bench.sh" --out "$results" "$@"
"$repo/.venv/bin/python" "$here/report.py" "$results" "$repo/docs/benchmarks.md"
echo "run-all: wrote $repo/docs/benchmarks.md" >&2
