#!/usr/bin/env bash
# Runs the ClassAd benchmarks on one core: JMH for Braid, then the same workloads in HTCondor's
# own library (classad2) for comparison. On demand only; results go in docs/classads.md.
# Usage (from the repository root): bash matchmaking/src/jmh/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
py=.venv/bin/python
[ -x "$py" ] || py=python3
echo "== Braid (JMH, one core) =="
taskset -c 0 ./mvnw -B -q -pl matchmaking -P jmh test-compile exec:exec | grep -E '^(Benchmark|MatchBenchmark)'
echo "== HTCondor classad2 $("$py" -c 'import classad2; print(classad2.version())') (one core) =="
_CONDOR_STRICT_CLASSAD_EVALUATION=true taskset -c 0 "$py" matchmaking/src/jmh/python/time_oracle.py
