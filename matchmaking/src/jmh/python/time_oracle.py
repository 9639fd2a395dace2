#!/usr/bin/env python3
"""Times HTCondor's own ClassAd library (classad2) on the JMH benchmark's workloads.

Run: _CONDOR_STRICT_CLASSAD_EVALUATION=true .venv/bin/python matchmaking/src/jmh/python/time_oracle.py
Prints evaluations/s for the EVAL_AD expression and ms to match and rank 10,000 storage ads,
the same ads as MatchBenchmark (same formulas; Python's random differs, so values differ but
the shape and sizes are the same).
"""
import random
import time

import classad2 as classad

EVAL_AD = ('[ a = 5; b = "Disk"; l = { 1, 2, 3 }; c = [ x = 2.5 ];'
           ' r = a * 2 + c.x > 10 && strcat(b, "X") == "diskx" || member(2, l) ]')
REQUEST = ('[ hostname = "comet.xyz.com"; reqRDBandwidth = 5000000; reqSpace = 10000000000;'
           ' Rank = other.AvgRDBandwidth;'
           ' Requirements = other.AvgRDBandwidth > reqRDBandwidth'
           ' && other.availableSpace >= my.reqSpace && other.volume != "/dev/null" ]')


def best_of(runs, fn):
    best = None
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    return best


def main():
    ad = classad.ClassAd(EVAL_AD)
    n = 200_000
    dt = best_of(3, lambda: [ad.eval("r") for _ in range(n)])
    print("classad2 evaluations/s: %.0f" % (n / dt))

    rnd = random.Random(42)
    ads = [classad.ClassAd(
        '[ hostname = "store%d.example.org"; volume = "/dev/sandbox%d"; availableSpace = %d;'
        ' AvgRDBandwidth = %r; Requirements = other.reqSpace <= availableSpace ]'
        % (i, i % 7, int(rnd.random() * 1e11), 1e6 + rnd.random() * 1e7)) for i in range(10_000)]
    req = classad.ClassAd(REQUEST)

    def rank():
        matched = [c for c in ads if req.symmetricMatch(c)]
        matched.sort(key=lambda c: -c.eval("AvgRDBandwidth"))
        return matched

    dt = best_of(3, rank)
    print("classad2 match+rank 10,000 ads: %.1f ms (%d matches)" % (dt * 1000, len(rank())))


if __name__ == "__main__":
    main()
