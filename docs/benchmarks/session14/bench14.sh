#!/usr/bin/env bash
# Session-14 quiet benchmarks: issue 15's 1,000-file set (braid-base = session 13's last main a7c30de in /tmp/base14), the 10k set, then issue 17's shaped scenarios and local.
set -x
cd /work/main
git rev-parse --short HEAD
date -u
rm -f /tmp/braidb-dwork/journal.jsonl /tmp/braidb-dwork/journal-base.jsonl /tmp/braidb-dwork/history.db
BENCH_BASE=/tmp/base14 BRAID_TIMING=1 BENCH_LINKS=1 BENCH_CONTENDERS="braid braid-base aria2 aria2-tuned guc-tuned" src/test/bench/dataset-bench.sh --sets 1000 --reps 3 --out /tmp/q14-ds > /tmp/q14-ds.log 2>&1
date -u
BENCH_CONTENDERS="braid aria2" src/test/bench/dataset-bench.sh --sets 10k --reps 3 --out /tmp/q14-ds > /tmp/q14-ds10k.log 2>&1
date -u
BENCH_CONTENDERS="curl aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "small" --rtts "20,50,80,120 50,100,150,200" --reps 3 --out /tmp/q14-small > /tmp/q14-small.log 2>&1
date -u
BENCH_CONTENDERS="curl aria2 aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "local" --reps 3 --out /tmp/q14-local > /tmp/q14-local.log 2>&1
date -u
BENCH_CONTENDERS="aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "4s 4w kill six trace" --rtts "20,50,80,120 50,100,150,200" --reps 2 --out /tmp/q14-wan > /tmp/q14-wan.log 2>&1
date -u
BENCH_CONTENDERS="aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "1g" --rtts "20,50,80,120" --reps 1 --out /tmp/q14-1g > /tmp/q14-1g.log 2>&1
date -u
