#!/usr/bin/env python3
"""Summarize `braid predict evaluate --json` output over many series.

Usage: ./braid predict evaluate --format csv --json FILES... | python3 docs/scripts/summarize-evaluation.py [--size-classes]

Prints each predictor's mean and median normalized percent error across the series, and the
ratio of the default predictor's error to the best fixed predictor of paper 003's Figure 4 on
each series: over all series, and over the tuning and held-out halves of docs/predictors.md
(SLAC series: file system 3 tunes, 11 is held out; other series in name order: the first,
third, ... tune, the second, fourth, ... are held out).
"""
import collections
import json
import statistics
import sys

FIGURE4 = ["AVG", "MED", "AR", "LV", "AVG5", "MED5", "AVG15", "MED15", "AVG25", "MED25",
           "AVG5hr", "AVG15hr", "AVG25hr", "AR5d", "AR10d"]


def main():
    classes = "--size-classes" in sys.argv[1:]
    rows = [o for o in json.load(sys.stdin) if o["sizeClasses"] == classes and o["count"] > 0]
    by_predictor = collections.defaultdict(list)
    by_series = collections.defaultdict(dict)
    for o in rows:
        by_predictor[o["predictor"]].append(o["errorPct"])
        by_series[o["series"]][o["predictor"]] = o["errorPct"]
    print(f"{len(by_series)} series, size classes {'on' if classes else 'off'}")
    print(f"{'predictor':10} {'mean %':>8} {'median %':>9}")
    for p, v in sorted(by_predictor.items(), key=lambda kv: statistics.mean(kv[1])):
        print(f"{p:10} {statistics.mean(v):8.2f} {statistics.median(v):9.2f}")
    names = sorted(by_series)
    if all(n.startswith("fsid=") for n in names):
        tuning = {n for n in names if n.startswith("fsid=3,")}
    else:
        tuning = set(names[0::2])
    for label, subset in (("all", names), ("tuning", [n for n in names if n in tuning]),
                          ("held out", [n for n in names if n not in tuning])):
        ratios = [r for r in (ratio(by_series[n]) for n in subset) if r is not None]
        if ratios:
            print(f"default / best of Figure 4, {label} ({len(ratios)} series): "
                  f"median {statistics.median(ratios):.3f}, "
                  f"min {min(ratios):.3f}, max {max(ratios):.3f}; "
                  f"default better on {sum(r < 1 for r in ratios)} of {len(ratios)}")


def ratio(d):
    if "default" not in d or not all(p in d for p in FIGURE4):
        return None
    best = min(d[p] for p in FIGURE4)
    return d["default"] / best if best > 0 else None

if __name__ == "__main__":
    main()
