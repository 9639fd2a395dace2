#!/usr/bin/env bash
# Session-12 quiet benchmarks, second pass: the dataset harness with a sync before each run (edfec00).
set -x
cd /work/main
git rev-parse --short HEAD
date
rm -f /tmp/braidb-dwork/journal.jsonl /tmp/braidb-dwork/journal-base.jsonl /tmp/braidb-dwork/history.db
BENCH_BASE=/tmp/base12 BRAID_TIMING=1 BENCH_LINKS=1 BENCH_CONTENDERS="braid braid-base aria2 aria2-tuned guc-tuned" src/test/bench/dataset-bench.sh --sets 1000 --reps 3 --out /tmp/q12-ds > /tmp/q12-ds.log 2>&1
date
BENCH_CONTENDERS="braid aria2" src/test/bench/dataset-bench.sh --sets 10k --reps 3 --out /tmp/q12-ds > /tmp/q12-ds10k.log 2>&1
date
