#!/usr/bin/env python3
"""Per-link byte counters of a dataset-bench run (BENCH_LINKS=1): when each mirror's link carried
its first and last byte, how long it stood idle in between, and the bytes it carried.

Usage: dataset-links.py sample DEV... > SAMPLES   (in the client namespace: reads each device's
         rx_bytes, the bytes its mirror sent, every 20 ms until killed; one "t b1 b2 ..." line each)
       dataset-links.py summary SAMPLES START END   (START/END: the run's wall-clock epoch seconds)
       dataset-links.py threads CONTENDER > SAMPLES   (BENCH_PROBE=1: every 20 ms, the threads of
         the contender's processes and of the GridFTP and nginx servers by state and kernel wait
         channel, "t comm:state:wchan=count ...")
       dataset-links.py gaps LINKS [SECONDS]   (a kept sample file, BENCH_LOGS=1: each link's
         pauses of at least SECONDS, 0.1 by default, as "start+length" in seconds from the run's start)
       dataset-links.py disk DIR > SAMPLES   (BENCH_PROBE=1: every 20 ms a file created, written,
         renamed and removed in DIR; "t seconds" for each that took 20 ms or more)
The summary is one line: per link, first and last byte in seconds since START, idle time over
IDLE seconds between them (gaps of no growth of at least IDLE), the time it ran below half its
usual rate (20 ms intervals under half the 90th percentile of its intervals' rates), and MB.
"""
import signal
import sys
import time

PERIOD = 0.02
IDLE = 0.2


def sample(devs):
    files = [open("/sys/class/net/%s/statistics/rx_bytes" % d) for d in devs]
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    out = sys.stdout
    while True:
        vals = []
        for f in files:
            f.seek(0)
            vals.append(f.read().strip())
        out.write("%.3f %s\n" % (time.time(), " ".join(vals)))
        out.flush()
        time.sleep(PERIOD)


COMMS = {
    "guc": ("globus-url-copy",),
    "aria2": ("aria2c",),
    "braid": (),
}
SERVERS = ("globus-gridftp-", "nginx")


def threads(contender):
    import os

    wanted = COMMS.get(contender.split("-")[0], ()) + SERVERS
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    out = sys.stdout
    pids = []
    n = 0
    while True:
        if n % 25 == 0:  # the processes, looked up every half second (a scan of /proc is slow)
            pids = []
            for pid in os.listdir("/proc"):
                try:
                    with open("/proc/%s/comm" % pid) as f:
                        comm = f.read().strip()
                except OSError:
                    continue
                if pid.isdigit() and comm.startswith(wanted):
                    pids.append((pid, comm))
        n += 1
        counts = {}
        for pid, comm in pids:
            try:
                for tid in os.listdir("/proc/%s/task" % pid):
                    base = "/proc/%s/task/%s/" % (pid, tid)
                    with open(base + "stat") as f:
                        state = f.read().rsplit(")", 1)[1].split()[0]
                    with open(base + "wchan") as f:
                        wchan = f.read().strip() or "-"
                    key = "%s:%s:%s" % (comm[:8], state, wchan)
                    counts[key] = counts.get(key, 0) + 1
            except OSError:
                continue
        out.write(
            "%.3f %s\n" % (time.time(), " ".join("%s=%d" % kv for kv in sorted(counts.items())))
        )
        out.flush()
        time.sleep(PERIOD)


def disk(directory):
    """Every 20 ms creates, writes (4 kB), renames and removes a file in DIRECTORY, as a download
    does per file; prints "t seconds" for each that took 20 ms or more (a file system that holds
    every file creation back stalls a single-threaded client's every transfer)."""
    import os

    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    out = sys.stdout
    a = os.path.join(directory, ".probe-%d" % os.getpid())
    b = a + ".done"
    block = b"x" * 4096
    while True:
        t = time.time()
        with open(a, "wb") as f:
            f.write(block)
        os.rename(a, b)
        os.unlink(b)
        took = time.time() - t
        if took >= 0.02:
            out.write("%.3f %.3f\n" % (t, took))
            out.flush()
        time.sleep(PERIOD)


def gaps(path, least):
    """The pauses of at least LEAST seconds on each link of a kept sample file (BENCH_LOGS=1:
    logs/SET-CONTENDER-REP.links, whose first line gives the run's start): "m1 12.34+0.56 ..." for a
    pause from 12.34 s after the start lasting 0.56 s. Pauses on every link at once point at the
    client; on one link, at its mirror or the schedule."""
    rows = []
    start = None
    with open(path) as f:
        for line in f:
            p = line.split()
            if line.startswith("#"):
                start = float(p[2])
                continue
            rows.append((float(p[0]), [int(x) for x in p[1:]]))
    if not rows:
        return "no samples"
    start = rows[0][0] if start is None else start
    out = []
    for k in range(len(rows[0][1])):
        last = None
        pauses = []
        for (t, v), (t2, v2) in zip(rows, rows[1:]):
            if v2[k] - v[k] > 2000:
                if last is not None and t - last >= least:
                    pauses.append("%.2f+%.2f" % (last - start, t - last))
                last = t2
        out.append("m%d %s" % (k + 1, " ".join(pauses) or "-"))
    return "\n".join(out)


def summary(path, start, end):
    rows = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) < 2:
                continue
            try:
                rows.append((float(p[0]), [int(x) for x in p[1:]]))
            except ValueError:
                continue
    rows = [r for r in rows if start - 0.1 <= r[0] <= end + 0.1]
    if len(rows) < 2:
        return "no samples"
    n = len(rows[0][1])
    parts = []
    ends = []
    for k in range(n):
        base = rows[0][1][k]
        first = last = None
        grow = []
        for (t, v), (t2, v2) in zip(rows, rows[1:]):
            if v2[k] - v[k] > 2000:  # more than acks and keep-alives
                grow.append((t, t2))
                if first is None:
                    first = t
                last = t2
        idle = 0.0
        for (a, b), (c, d) in zip(grow, grow[1:]):
            if c - b >= IDLE:
                idle += c - b
        # under-used: sampling intervals between the first and last byte carrying less than half
        # the link's usual rate (the 90th percentile of its intervals' rates)
        rates = sorted(
            (v2[k] - v[k]) / (t2 - t)
            for (t, v), (t2, v2) in zip(rows, rows[1:])
            if first is not None and first <= t and t2 <= last and t2 > t
        )
        under = 0.0
        if rates:
            top = rates[int(0.9 * (len(rates) - 1))]
            under = sum(
                t2 - t
                for (t, v), (t2, v2) in zip(rows, rows[1:])
                if first <= t and t2 <= last and t2 > t and (v2[k] - v[k]) / (t2 - t) < 0.5 * top
            )
        total = rows[-1][1][k] - base
        if first is None:
            parts.append("m%d none" % (k + 1))
            continue
        ends.append(last)
        parts.append(
            "m%d %.2f-%.2f idle %.2f under %.2f %.1fMB"
            % (k + 1, first - start, last - start, idle, under, total / 1e6)
        )
    spread = max(ends) - min(ends) if ends else 0
    return "; ".join(parts) + "; ends spread %.2f s" % spread


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(sys.argv[2:])
    elif sys.argv[1] == "gaps":
        print(gaps(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else 0.1))
    elif sys.argv[1] == "disk":
        disk(sys.argv[2])
    elif sys.argv[1] == "threads":
        threads(sys.argv[2])
    else:
        print(summary(sys.argv[2], float(sys.argv[3]), float(sys.argv[4])))
