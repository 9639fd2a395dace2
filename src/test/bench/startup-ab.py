#!/usr/bin/env python3
"""Start-up milestones of braid commands compared run by run (docs/download.md, "Start-up time").

Usage: python3 src/test/bench/startup-ab.py ROUNDS NAME 'COMMAND' [NAME 'COMMAND']...

Runs each COMMAND (a bash command line, e.g. "./braid get F -o /tmp/x --no-journal") ROUNDS times,
the commands taking turns (the first of each round rotates), with BRAID_TIMING=1, BRAID_NO_BUILD=1
and BRAID_TIMING_T0 set just before each start, so that every milestone counts from the same point
for every command. Before each run it removes the paths in $AB_CLEAN (space-separated; the
commands' outputs). Prints, per milestone, each command's median [min-max] in milliseconds, and:
  cpu          user + system CPU time of the process and its children
  wall         from just before the start to the process gone, as seen here
  jvm>main     main - jvm; main>parsed: parsed - main
  exit>gone    wall - exit: the JVM's exit after System.exit was called
A line "[info][startuptime] PHASE, S secs" on the output (-Xlog:startuptime) is reported as well.
"""
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time


def cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000


def clean():
    for p in os.environ.get("AB_CLEAN", "").split():
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        elif os.path.lexists(p):
            os.remove(p)


def main():
    args = sys.argv[2:]
    if len(sys.argv) < 4 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1 or len(args) % 2:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    variants = [(args[i], args[i + 1]) for i in range(0, len(args), 2)]
    results = {name: {} for name, _ in variants}
    for r in range(rounds):
        k = r % len(variants)
        for name, cmd in variants[k:] + variants[:k]:
            clean()
            env = dict(os.environ, BRAID_TIMING="1", BRAID_NO_BUILD="1")
            before = cpu_ms()
            env["BRAID_TIMING_T0"] = "%.6f" % time.time()
            t = time.perf_counter()
            p = subprocess.run(["bash", "-c", "exec " + cmd], env=env, capture_output=True, text=True)
            wall = (time.perf_counter() - t) * 1000
            d = results[name]
            d.setdefault("cpu", []).append(cpu_ms() - before)
            d.setdefault("wall", []).append(wall)
            if p.returncode != 0:
                print(name, "exit code", p.returncode, p.stderr[-300:], file=sys.stderr)
            m = re.search(r"braid: timing: (.*)", p.stderr)
            if m:
                ms = {k: float(v) for k, v in re.findall(r"(\w+)=([-\d.]+)", m.group(1))}
                for k, v in ms.items():
                    d.setdefault(k, []).append(v)
                if "main" in ms and "jvm" in ms:
                    d.setdefault("jvm>main", []).append(ms["main"] - ms["jvm"])
                if "main" in ms and "parsed" in ms:
                    d.setdefault("main>parsed", []).append(ms["parsed"] - ms["main"])
                if "exit" in ms:
                    d.setdefault("exit>gone", []).append(wall - ms["exit"])
            for k, v in re.findall(r"\[startuptime\] ([\w .]+?), ([\d.]+) secs", p.stdout + p.stderr):
                d.setdefault(k, []).append(float(v) * 1000)
    keys = []
    for d in results.values():
        keys += [k for k in d if k not in keys]
    print("load", " ".join(open("/proc/loadavg").read().split()[:3]), "rounds", rounds)
    for k in keys:
        line = "%-14s" % k[:14]
        for name, _ in variants:
            xs = results[name].get(k)
            line += "  %s: %s" % (name, "-" if not xs else "%6.1f [%5.1f-%6.1f]" % (
                statistics.median(xs), min(xs), max(xs)))
        print(line)


if __name__ == "__main__":
    main()
