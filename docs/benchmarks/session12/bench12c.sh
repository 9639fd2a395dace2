#!/usr/bin/env bash
# Session-12 quiet benchmarks, third pass: issue 17's shaped scenarios, as in session 11.
set -x
cd /work/main
git rev-parse --short HEAD
date
BENCH_CONTENDERS="curl aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "small" --rtts "20,50,80,120 50,100,150,200" --reps 3 --out /tmp/q12-small > /tmp/q12-small.log 2>&1
date
BENCH_CONTENDERS="aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "4s 4w kill" --rtts "20,50,80,120 50,100,150,200" --reps 2 --out /tmp/q12-wan > /tmp/q12-wan.log 2>&1
date
BENCH_CONTENDERS="aria2-tuned braid-adaptive" src/test/bench/bench.sh --scenarios "six" --rtts "20,50,80,120 50,100,150,200" --reps 2 --out /tmp/q12-six > /tmp/q12-six.log 2>&1
date
