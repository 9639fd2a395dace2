#!/usr/bin/env bash
# Session-13 quiet benchmarks: issue 15's sets (braid-base = session 12's last main 042172d in /tmp/base13), then issue 17's shaped scenarios.
set -x
cd /work/main
git rev-parse --short HEAD
date
rm -f /tmp/braidb-dwork/journal.jsonl /tmp/braidb-dwork/journal-base.jsonl /tmp/braidb-dwork/history.db
BENCH_BASE=/tmp/base13 BRAID_TIMING=1 BENCH_LINKS=1 BENCH_CONTENDERS="braid braid-base aria2 aria2-tuned guc-tuned" src/test/bench/dataset-bench.sh --sets 1000 --reps 3 --out /tmp/q13-ds > /tmp/q13-ds.log 2>&1
date
BENCH_CONTENDERS="braid aria2" src/test/bench/dataset-bench.sh --sets 10k --reps 3 --out /tmp/q13-ds > /tmp/q13-ds10k.log 2>&1
date
BENCH_CONTENDERS="curl aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "small" --rtts "20,50,80,120 50,100,150,200" --reps 3 --out /tmp/q13-small > /tmp/q13-small.log 2>&1
date
BENCH_CONTENDERS="aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "4s 4w kill" --rtts "20,50,80,120 50,100,150,200" --reps 2 --out /tmp/q13-wan > /tmp/q13-wan.log 2>&1
date
