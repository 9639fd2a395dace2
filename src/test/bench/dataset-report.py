#!/usr/bin/env python3
"""Summarises dataset-bench.sh's results (issue 15) as Markdown, like report.py for bench.sh.

Usage: dataset-report.py OUT_DIR [DOC.md]
Reads OUT_DIR/dataset-results.csv (and dataset-machine.txt if present) and prints, per set and
contender, the repetitions (and how many verified), the median wall-clock time, fraction of the
bound and files per second, and the load average seen; then the issue's two goals checked against
those medians. With DOC.md, the same text replaces what is between the generated-dataset-results
markers there (the hand-written text around them is kept), and a plot per set is written to
OUT_DIR/dataset-SET.png (every run as a dot, the median as a bar: files per second for the 10k
set, share of the bound otherwise) and linked from the text. Every figure comes from the CSV.
"""
import csv
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

BEGIN = "<!-- BEGIN GENERATED DATASET RESULTS (src/test/bench/dataset-report.py) -->"
END = "<!-- END GENERATED DATASET RESULTS -->"
ORDER = ["braid", "braid-base", "braid-j64", "aria2", "aria2-tuned", "guc", "guc-tuned"]
NAMES = {
    "braid": "braid (-j from the plan)",
    "braid-base": "braid from BENCH_BASE",
    "braid-j64": "braid -j 64",
    "aria2": "aria2c -i LIST (default -j 5)",
    "aria2-tuned": "aria2c -j 32 -x 4 -s 4 -k 1M",
    "guc": "globus-url-copy -cc 4 (fastest mirror)",
    "guc-tuned": "globus-url-copy -cc 32 -pp (spread)",
}


def summary(rows):
    ok = [r for r in rows if r["rc"] == "0" and r["ok"] == "1"]
    use = ok or rows
    med = lambda k: statistics.median(float(r[k]) for r in use)  # noqa: E731
    loads = [float(r["load1"]) for r in rows]
    return {
        "runs": len(rows),
        "ok": len(ok),
        "wall": med("wall_s"),
        "bound": float(rows[0]["bound_s"]),
        "frac": med("of_bound"),
        "fps": med("files_per_s"),
        "load": (min(loads), max(loads)),
    }


def plot(s, cs, by, path):
    """One set's runs: a bar at each contender's median, a dot per run."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key, label = ("files_per_s", "files per second") if s == "10k" else ("of_bound", "share of the bound")
    scale = 1 if s == "10k" else 100
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(cs)))
    for i, c in enumerate(cs):
        ok = [r for r in by[c] if r["rc"] == "0" and r["ok"] == "1"]
        vals = [float(r[key]) * scale for r in ok]
        if vals:
            ax.barh(i, statistics.median(vals), color="tab:blue" if c.startswith("braid") else "tab:gray")
            ax.plot(vals, [i] * len(vals), "k.", markersize=6)
    ax.set_yticks(range(len(cs)), [NAMES.get(c, c) for c in cs], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(label + (" (%)" if scale == 100 else ""))
    ax.set_title(f"set {s}: median (bar) and each run (dot)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def render(results, machine, plots=None, link=None):
    by = defaultdict(lambda: defaultdict(list))
    for r in results:
        by[r["set"]][r["contender"]].append(r)
    out = []
    if machine:
        out += ["```", machine.strip(), "```", ""]
    for s in sorted(by, key=lambda x: {"1000": 0, "10k": 1}.get(x, 2)):
        cs = sorted(by[s], key=lambda c: ORDER.index(c) if c in ORDER else 99)
        first = by[s][cs[0]][0]
        out.append(
            f"**Set {s}**: {first['files']} files, {int(first['bytes']):,} bytes; "
            f"bound {float(first['bound_s']):.2f} s (bytes over the summed link rates)."
        )
        out.append("")
        out.append("| contender | runs (verified) | wall s (median) | of the bound | files/s | load 1-min |")
        out.append("|---|---|---|---|---|---|")
        sums = {}
        for c in cs:
            m = summary(by[s][c])
            sums[c] = m
            out.append(
                f"| {NAMES.get(c, c)} | {m['runs']} ({m['ok']}) | {m['wall']:.2f} | "
                f"{m['frac'] * 100:.1f}% | {m['fps']:.1f} | {m['load'][0]:.1f}-{m['load'][1]:.1f} |"
            )
        out.append("")
        out += goals(s, sums)
        out.append("")
        if plots is not None:
            png = plots / f"dataset-{s}.png"
            plot(s, cs, by[s], png)
            out += [f"![set {s}]({link(png)})", ""]
    return "\n".join(out)


def goals(s, m):
    b = m.get("braid")
    if b is None:
        return ["(braid did not run in this set)"]
    others = {c: v for c, v in m.items() if not c.startswith("braid")}
    if s == "1000":
        met = b["frac"] >= 0.95
        ahead = [c for c, v in others.items() if b["wall"] < v["wall"]]
        behind = [c for c, v in others.items() if b["wall"] >= v["wall"]]
        return [
            f"Goal (1,000 files): at least 95% of the bound by wall clock: "
            f"{'met' if met else 'MISSED'} ({b['frac'] * 100:.1f}%); ahead of every contender: "
            + ("met" if not behind else "MISSED, behind " + ", ".join(behind))
            + (f" (ahead of {', '.join(ahead)})" if ahead and behind else "")
            + "."
        ]
    if s == "10k":
        aria = {c: v for c, v in others.items() if c.startswith("aria2")}
        if not aria:
            return ["(aria2c did not run in this set)"]
        best = max(aria, key=lambda c: aria[c]["fps"])
        met = b["fps"] > aria[best]["fps"]
        return [
            f"Goal (10,000 files): more files per second than aria2c's best setting "
            f"({best}, {aria[best]['fps']:.1f}/s): {'met' if met else 'MISSED'} "
            f"(braid {b['fps']:.1f}/s)."
        ]
    return []


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: dataset-report.py OUT_DIR [DOC.md]")
    d = Path(sys.argv[1])
    with open(d / "dataset-results.csv", newline="") as f:
        results = list(csv.DictReader(f))
    if not results:
        sys.exit(f"dataset-report: no results in {d / 'dataset-results.csv'}")
    machine = (d / "dataset-machine.txt").read_text() if (d / "dataset-machine.txt").exists() else ""
    if len(sys.argv) == 2:
        print(render(results, machine))
        return
    doc = Path(sys.argv[2])
    old = doc.read_text()
    if BEGIN not in old or END not in old:
        sys.exit(f"dataset-report: {doc} has no {BEGIN} ... {END} markers")
    text = render(results, machine, d, lambda p: os.path.relpath(p, doc.parent))
    head, rest = old.split(BEGIN, 1)
    doc.write_text(head + BEGIN + "\n" + text + "\n" + END + rest.split(END, 1)[1])
    print(text)


if __name__ == "__main__":
    main()
