#!/usr/bin/env bash
# Session-11 final quiet benchmarks, run from /work/main as root.
set -x
cd /work/main
git rev-parse --short HEAD
date
rm -f /tmp/braidb-dwork/journal.jsonl /tmp/braidb-dwork/history.db
BRAID_TIMING=1 BENCH_LINKS=1 BENCH_CONTENDERS="braid aria2 aria2-tuned guc-tuned" src/test/bench/dataset-bench.sh --sets 1000 --reps 3 --out /tmp/q11-ds > /tmp/q11-ds.log 2>&1
date
BENCH_CONTENDERS="braid aria2" src/test/bench/dataset-bench.sh --sets 10k --reps 3 --out /tmp/q11-ds > /tmp/q11-ds10k.log 2>&1
date
BENCH_CONTENDERS="curl aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "small" --rtts "20,50,80,120 50,100,150,200" --reps 3 --out /tmp/q11-small > /tmp/q11-small.log 2>&1
date
BENCH_CONTENDERS="aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "4s 4w kill" --rtts "20,50,80,120 50,100,150,200" --reps 2 --out /tmp/q11-wan > /tmp/q11-wan.log 2>&1
date
BENCH_CONTENDERS="aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "six" --rtts "20,50,80,120 50,100,150,200" --reps 2 --out /tmp/q11-six > /tmp/q11-six.log 2>&1
date
BENCH_CONTENDERS="curl aria2 aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "local" --reps 3 --out /tmp/q11-localq > /tmp/q11-localq.log 2>&1
date
