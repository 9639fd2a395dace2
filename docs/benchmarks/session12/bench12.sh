#!/usr/bin/env bash
# Session-12 final quiet benchmarks, run from /work/main as root (priority order).
set -x
cd /work/main
git rev-parse --short HEAD
date
rm -f /tmp/braidb-dwork/journal.jsonl /tmp/braidb-dwork/journal-base.jsonl /tmp/braidb-dwork/history.db
BENCH_BASE=/tmp/base12 BRAID_TIMING=1 BENCH_LINKS=1 BENCH_CONTENDERS="braid braid-base aria2 aria2-tuned guc-tuned" src/test/bench/dataset-bench.sh --sets 1000 --reps 3 --out /tmp/q12-ds > /tmp/q12-ds.log 2>&1
date
BENCH_ALT_OPTS=-Dbraid.cpuLimit=false BENCH_CONTENDERS="curl aria2 aria2-tuned braid-adaptive braid-alt" src/test/bench/bench.sh --scenarios "local" --reps 3 --out /tmp/q12-localq > /tmp/q12-localq.log 2>&1
date
BENCH_CONTENDERS="braid aria2" src/test/bench/dataset-bench.sh --sets 10k --reps 3 --out /tmp/q12-ds > /tmp/q12-ds10k.log 2>&1
date
BENCH_CONTENDERS="curl aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "small" --rtts "20,50,80,120 50,100,150,200" --reps 3 --out /tmp/q12-small > /tmp/q12-small.log 2>&1
date
