#!/usr/bin/env python3
"""Makes a benchmark dataset (dataset-bench.sh) and its input lists, deterministically.

Usage: dataset-files.py SET DIR LISTS "RATES" NET
  SET: 1000 (1,000 files, log-normal sizes within 1 KB and 50 MB, about 1 GB), 10k (10,000 files
  of 10 KB) or smoke (40 files). Files go to DIR (kept when already complete), the lists to LISTS:
  input.txt (aria2 -i format: every mirror's URL, out=, checksum=sha-256=), SHA256SUMS,
  guc-best.txt and guc-spread.txt (globus-url-copy -f; @OUT@ stands for the output directory),
  count and bytes.
"""
import hashlib
import math
import os
import random
import sys


def sizes(kind):
    r = random.Random(15)
    if kind == "10k":
        return [10_000] * 10_000
    if kind == "smoke":
        return [int(min(2e6, max(1000, math.exp(r.gauss(math.log(20_000), 1.5))))) for _ in range(40)]
    out = [int(min(50e6, max(1000, math.exp(r.gauss(math.log(330_000), 1.5))))) for _ in range(1000)]
    scale = 1e9 / sum(out)  # about 1 GB in all
    return [int(min(50e6, max(1000, s * scale))) for s in out]


def main():
    kind, root, lists, rates, net = sys.argv[1:6]
    rates = [float(x) for x in rates.split()]
    os.makedirs(lists, exist_ok=True)
    r = random.Random(1515)
    entries = []
    for i, size in enumerate(sizes(kind)):
        name = "d%02d/s%02d/file%05d.dat" % (i % 16, (i // 16) % 8, i)
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = r.randbytes(size)
        if not (os.path.exists(path) and os.path.getsize(path) == size):
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.replace(path + ".tmp", path)
        entries.append((name, size, hashlib.sha256(data).hexdigest()))
    base = os.path.abspath(os.path.join(root, ".."))
    sub = os.path.basename(os.path.abspath(root))
    with open(os.path.join(lists, "input.txt"), "w") as f:
        for name, size, sha in entries:
            urls = ["http://%s.%d.1/%s/%s" % (net, m + 1, sub, name) for m in range(len(rates))]
            f.write("\t".join(urls) + "\n")
            # out= with the relative path: aria2c puts it under -d (its dir= would replace -d)
            f.write("  out=%s\n" % name)
            f.write("  checksum=sha-256=%s\n" % sha)
    with open(os.path.join(lists, "SHA256SUMS"), "w") as f:
        for name, size, sha in entries:
            f.write("%s  %s\n" % (sha, name))
    best = max(range(len(rates)), key=lambda m: rates[m])
    # spread: each file to the mirror whose assigned bytes over its rate is least (a static plan)
    load = [0.0] * len(rates)
    with open(os.path.join(lists, "guc-best.txt"), "w") as fb, open(
        os.path.join(lists, "guc-spread.txt"), "w"
    ) as fs:
        for name, size, sha in sorted(entries, key=lambda e: -e[1]):
            m = min(range(len(rates)), key=lambda k: (load[k] + size) / rates[k])
            load[m] += size
            def src(k):
                return "ftp://%s.%d.1:2811%s/%s/%s" % (net, k + 1, base, sub, name)

            fb.write("%s file://@OUT@/%s\n" % (src(best), name))
            fs.write("%s file://@OUT@/%s\n" % (src(m), name))
    with open(os.path.join(lists, "count"), "w") as f:
        f.write("%d\n" % len(entries))
    with open(os.path.join(lists, "bytes"), "w") as f:
        f.write("%d\n" % sum(e[1] for e in entries))
    print("dataset-files: %s: %d files, %d bytes in %s" % (kind, len(entries), sum(e[1] for e in entries), root))


if __name__ == "__main__":
    main()
