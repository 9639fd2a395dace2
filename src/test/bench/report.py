#!/usr/bin/env python3
"""Turns the harness's results.csv into docs/benchmarks.md and PNG plots (issue 7).

Usage: report.py RESULTS_DIR DOC.md
Reads RESULTS_DIR/results.csv and machine.txt (written by bench.sh), writes the plots into
RESULTS_DIR and the tables into DOC.md (between the generated-results markers, keeping the
hand-written text around them). Every figure it prints comes from results.csv.
"""
import csv
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

BEGIN = "<!-- BEGIN GENERATED RESULTS (src/test/bench/report.py) -->"
END = "<!-- END GENERATED RESULTS -->"
BASELINES = [
    ("curl", "best single (curl)"),
    ("guc", "globus-url-copy"),
    ("aria2", "aria2c default"),
    ("aria2-tuned", "aria2c tuned"),
    ("xrdcp", "xrdcp --sources"),
]


def mbit(bps):
    return bps * 8 / 1e6


class Cell:
    """All repetitions of one contender at one size in one scenario."""

    def __init__(self, rows):
        self.rows = rows
        self.ok = [r for r in rows if r["ok"] == "1"]
        self.size = int(rows[0]["size"])
        self.bound = float(rows[0]["bound_Bps"])
        self.nominal = float(rows[0]["nominal_Bps"])
        self.tput = [self.size / float(r["transfer_s"]) for r in self.ok]
        self.times = [float(r["transfer_s"]) for r in self.ok]
        self.walls = [float(r["wall_s"]) for r in self.ok]
        self.loads = [float(r["load1"]) for r in rows]

    def med(self):
        return statistics.median(self.tput) if self.tput else None

    def med_time(self):
        return statistics.median(self.times) if self.times else None

    def med_wall(self):
        return statistics.median(self.walls) if self.walls else None

    def idle(self, key):
        v = [float(r[key]) for r in self.ok if r[key] not in ("", "null")]
        return statistics.median(v) if v else None


def load(results):
    rows = list(csv.DictReader(open(results / "results.csv")))
    cells = defaultdict(list)
    order = []
    for r in rows:
        k = (r["scenario"], int(r["size"]), r["contender"])
        if k not in cells:
            order.append(k)
        cells[k].append(r)
    labels = {r["scenario"]: r["label"] for r in rows}
    return {k: Cell(v) for k, v in cells.items()}, order, labels


def fmt(x, spec="{:.1f}"):
    return "n/a" if x is None else spec.format(x)


def scenario_table(cells, order, scen, size):
    keys = [k for k in order if k[0] == scen and k[1] == size]
    first = cells[keys[0]]
    present = [b for b in BASELINES if (scen, size, b[0]) in cells]
    out = [
        f"Bound: {mbit(first.bound):.1f} Mbit/s of TCP payload (max-flow {mbit(first.nominal):.0f} Mbit/s "
        f"of link rate x 1448/1514); file {size / 1e6:.0f} MB.",
        "",
        "| contender | ok/runs | median s | wall s | Mbit/s median (min-max) | % of bound | "
        + "".join(f"x {name} | " for _, name in present)
        + "load 1 min |",
        "|---|---|---|---|---|---|" + "---|" * len(present) + "---|",
    ]
    for k in keys:
        c = cells[k]
        m = c.med()
        rng = f"{mbit(m):.1f} ({mbit(min(c.tput)):.1f}-{mbit(max(c.tput)):.1f})" if m else "failed"
        ratios = []
        for b, _ in present:
            bc = cells.get((scen, size, b))
            ratios.append(fmt(m / bc.med(), "{:.2f}") if m and bc and bc.med() else "n/a")
        wall = statistics.median(c.walls) if c.walls else None
        fails = "; ".join(sorted({r["note"] for r in c.rows if r["ok"] != "1" and r["note"]}))
        name = k[2] + (f" (failures: {fails[:120]})" if fails else "")
        out.append(
            f"| {name} | {len(c.ok)}/{len(c.rows)} | {fmt(c.med_time(), '{:.2f}')} | {fmt(wall, '{:.2f}')} | {rng} | "
            f"{fmt(m / c.bound * 100 if m else None)}% | " + "".join(r + " | " for r in ratios)
            + f"{min(c.loads):.2f}-{max(c.loads):.2f} |"
        )
    return out


def bar_plot(cells, order, scen, size, label, path):
    keys = [k for k in order if k[0] == scen and k[1] == size]
    names = [k[2] for k in keys]
    med = [mbit(cells[k].med() or 0) for k in keys]
    lo = [m - mbit(min(cells[k].tput)) if cells[k].tput else 0 for m, k in zip(med, keys)]
    hi = [mbit(max(cells[k].tput)) - m if cells[k].tput else 0 for m, k in zip(med, keys)]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.bar(range(len(keys)), med, yerr=[lo, hi], capsize=3, color="#4c72b0")
    ax.axhline(mbit(cells[keys[0]].bound), color="red", linestyle="--", label="bound (max-flow payload)")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("Mbit/s (median, min-max)")
    ax.set_title(f"Scenario {scen}: {label}, {size / 1e6:.0f} MB", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def size_plot(cells, order, scen, path):
    keys = [k for k in order if k[0] == scen]
    contenders = list(dict.fromkeys(k[2] for k in keys))
    sizes = sorted({k[1] for k in keys})
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for c in contenders:
        xs, ys, lo, hi = [], [], [], []
        for s in sizes:
            cell = cells.get((scen, s, c))
            if cell and cell.tput:
                m = mbit(cell.med())
                xs.append(s / 1e6)
                ys.append(m)
                lo.append(m - mbit(min(cell.tput)))
                hi.append(mbit(max(cell.tput)) - m)
        ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", capsize=3, label=c)
    ax.axhline(mbit(cells[keys[0]].bound), color="red", linestyle="--", label="bound")
    ax.set_xscale("log")
    ax.set_xlabel("file size (MB)")
    ax.set_ylabel("Mbit/s (median, min-max)")
    ax.set_title(f"Scenario {scen}: throughput per file size", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def idle_plot(cells, order, scen, path):
    keys = [k for k in order if k[0] == scen and k[2].startswith("braid-")]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    vals = [100 * (cells[k].idle("fast_idle_frac") or 0) for k in keys]
    ax.bar(range(len(keys)), vals, color="#dd8452")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([k[2] for k in keys], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("% of download (median)")
    ax.set_title(f"Scenario {scen}: idle time of the fastest mirror (paper 003 Fig. 19 metric)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def goals(cells, order):
    out = ["| goal (issue 7) | measured | met? |", "|---|---|---|"]

    def frac(scen, size):
        c = cells.get((scen, size, "braid-adaptive"))
        return c.med() / c.bound if c and c.med() else None

    for scen, name in (("4s", "static"), ("4w", "with the speed swap")):
        for (s, size, _c) in [k for k in order if k[0] == scen and k[2] == "braid-adaptive"]:
            f = frac(s, size)
            a = cells.get((s, size, "aria2-tuned"))
            af = a.med() / a.bound if a and a.med() else None
            nom = cells[(s, size, "braid-adaptive")]
            nf = nom.med() / nom.nominal if nom.med() else None
            wf = nom.size / nom.med_wall() / nom.bound if nom.med_wall() else None
            out.append(
                f"| scenario 4 {name}: default scheme >= 97% of the bound | {fmt(f and f * 100)}% "
                f"({fmt(nf and nf * 100)}% of the nominal link rates) "
                f"(aria2c tuned {fmt(af and af * 100)}%); by wall-clock time {fmt(wf and wf * 100)}% | "
                f"{'yes' if f and f >= 0.97 else 'NO'} by transfer time; "
                f"{'yes' if wf and wf >= 0.97 else 'NO'} by wall-clock time |"
            )
    for (s, size, _c) in [k for k in order if k[0] == "1" and k[2] == "braid-adaptive"]:
        c, b = cells[(s, size, "braid-adaptive")], cells.get((s, size, "curl"))
        r = c.med() / b.med() if c.med() and b and b.med() else None
        w = b.med_wall() / c.med_wall() if c.med_wall() and b and b.med_wall() else None
        out.append(
            f"| scenario 1: default >= 1.9x the best single mirror | {fmt(r, '{:.2f}')}x; "
            f"by wall-clock time {fmt(w, '{:.2f}')}x | {'yes' if r and r >= 1.9 else 'NO'} by transfer "
            f"time; {'yes' if w and w >= 1.9 else 'NO'} by wall-clock time |"
        )
    slower = []
    for (s, size, _c) in [k for k in order if k[0] == "6" and k[2] == "braid-adaptive"]:
        c, b = cells[(s, size, "braid-adaptive")], cells.get((s, size, "curl"))
        if c.med() and b and b.med():
            slower.append((size, c.med() / b.med()))
    if slower:
        worst = min(slower, key=lambda x: x[1])
        txt = ", ".join(f"{s / 1e6:.0f} MB: {r:.2f}x" for s, r in slower)
        lost, reps = 0, 0
        for (s, size, _c) in [k for k in order if k[0] == "6" and k[2] == "braid-adaptive"]:
            curl = {r["rep"]: float(r["transfer_s"]) for r in cells[(s, size, "curl")].ok}
            for r in cells[(s, size, "braid-adaptive")].ok:
                if r["rep"] in curl:
                    reps += 1
                    lost += float(r["transfer_s"]) > curl[r["rep"]]
        txt += f" (slower than curl in {lost} of {reps} same-repetition pairs)"
        walls = []
        for (s, size, _c) in [k for k in order if k[0] == "6" and k[2] == "braid-adaptive"]:
            bw, cw = cells[(s, size, "braid-adaptive")].walls, cells[(s, size, "curl")].walls
            if bw and cw:
                walls.append(f"{size / 1e6:.0f} MB: {statistics.median(cw) / statistics.median(bw):.2f}x")
        if walls:
            txt += "; counting the whole process including the JVM start (wall s): " + ", ".join(walls)
        wall_lost = any(float(w.split(": ")[1][:-1]) < 1.0 for w in walls)
        verdict = "yes" if worst[1] >= 1.0 else "NO"
        if wall_lost:
            verdict += " by transfer time; NO by wall-clock time (JVM start) at the sizes below 1.00x"
        out.append(
            f"| scenario 6: default never slower than the best single mirror (median) | {txt} | {verdict} |"
        )
    for (s, size, _c) in [k for k in order if k[0] == "7" and k[2] == "braid-adaptive"]:
        v = cells[(s, size, "braid-adaptive")].idle("fast_idle_frac")
        out.append(
            f"| scenario 7: idle time of the fastest mirror < 2% of the download (default) | "
            f"{fmt(v and v * 100, '{:.2f}')}% | {'yes' if v is not None and v < 0.02 else 'NO'} |"
        )
    return out


def headline(cells, order, labels):
    """Braid's default scheme in every scenario: share of the bound and ratio to each contender,
    once by each tool's transfer time and once by whole-process wall-clock time."""
    extra = sorted(
        w - t for k in order if k[2].startswith("braid-") for w, t in zip(cells[k].walls, cells[k].times)
    )
    spread = (
        f"median {statistics.median(extra):.2f} s, {extra[0]:.2f} to {extra[-1]:.2f} s over Braid's "
        f"{len(extra)} successful runs in this run"
        if extra
        else "not measured"
    )
    out = [
        "## Headline: Braid's default scheme (`braid-adaptive`, median of the repetitions)",
        "",
        "Two clocks. *Transfer time* is what each tool reports for the transfer itself: Braid's",
        "JSON `seconds` (first request to last byte), curl's `time_total`; aria2c and",
        "globus-url-copy report none, so theirs is the whole process. *Wall-clock time* is the",
        "whole process for every contender, the same clock for all: for Braid it adds the",
        "launcher, the JVM start, the probe requests and the end of the verification",
        f"({spread}), which weighs on small files.",
        "",
        "By transfer time:",
        "",
        "| scenario | size | % of bound | x curl | x globus-url-copy | x aria2c default | x aria2c tuned | x xrdcp --sources |",
        "|---|---|---|---|---|---|---|---|",
    ]
    wall = [
        "",
        "By wall-clock time (whole process, every contender):",
        "",
        "| scenario | size | % of bound | x curl | x globus-url-copy | x aria2c default | x aria2c tuned | x xrdcp --sources |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k in order:
        if k[2] != "braid-adaptive" or not cells[k].med():
            continue
        c = cells[k]
        ratios = []
        wratios = []
        for b, _ in BASELINES:
            bc = cells.get((k[0], k[1], b))
            ratios.append(fmt(c.med() / bc.med(), "{:.2f}") if bc and bc.med() else "n/a")
            wratios.append(
                fmt(bc.med_wall() / c.med_wall(), "{:.2f}") if bc and bc.med_wall() and c.med_wall() else "n/a"
            )
        lead = f"| {k[0]}: {labels[k[0]]} | {k[1] / 1e6:.0f} MB | "
        out.append(lead + f"{c.med() / c.bound * 100:.1f}% | " + " | ".join(ratios) + " |")
        wall_share = c.size / c.med_wall() / c.bound * 100 if c.med_wall() else None
        wall.append(lead + f"{fmt(wall_share)}% | " + " | ".join(wratios) + " |")
    return out + wall


def main():
    results, doc = Path(sys.argv[1]), Path(sys.argv[2])
    cells, order, labels = load(results)
    rel = results.relative_to(doc.parent) if results.is_relative_to(doc.parent) else results
    body = ["## Goals", ""] + goals(cells, order) + [""] + headline(cells, order, labels) + [""]
    for scen in dict.fromkeys(k[0] for k in order):
        body += [f"## Scenario {scen}: {labels[scen]}", ""]
        sizes = sorted({k[1] for k in order if k[0] == scen})
        for size in sizes:
            body += scenario_table(cells, order, scen, size) + [""]
        if len(sizes) > 1:
            png = f"throughput-{scen}-sizes.png"
            size_plot(cells, order, scen, results / png)
        else:
            png = f"throughput-{scen}.png"
            bar_plot(cells, order, scen, sizes[0], labels[scen], results / png)
        body += [f"![scenario {scen}]({rel}/{png})", ""]
        if any(cells[k].idle("fast_idle_frac") is not None for k in order if k[0] == scen):
            body += [
                "Idle time of the fastest mirror (median % of the download; Braid's report, "
                "paper 003 Figure 19 metric):",
                "",
                "| contender | fastest mirror idle | most idle live mirror |",
                "|---|---|---|",
            ]
            for k in [k for k in order if k[0] == scen and k[2].startswith("braid-")]:
                c = cells[k]
                body.append(
                    f"| {k[2]} ({k[1] / 1e6:.0f} MB) | {fmt(c.idle('fast_idle_frac') and c.idle('fast_idle_frac') * 100, '{:.2f}')}% | "
                    f"{fmt(c.idle('max_idle_frac') and c.idle('max_idle_frac') * 100, '{:.2f}')}% |"
                )
            body.append("")
            if scen == "7":
                idle_plot(cells, order, scen, results / "idle-7.png")
                body += [f"![idle time, scenario 7]({rel}/idle-7.png)", ""]
    timelines = sorted(results.glob("timeline-*.png"))
    if timelines:
        body += ["## Timelines (one run of each scheme, `braid get --plot`)", ""]
        for t in timelines:
            body += [f"`{t.stem}`", "", f"![{t.stem}]({rel}/{t.name})", ""]
    machine = (results / "machine.txt").read_text().strip().splitlines()
    body += ["## Machine", "", "```"] + machine + ["```", ""]
    text = doc.read_text() if doc.exists() else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    tail = rest.split(END, 1)[1]
    doc.write_text(head + BEGIN + "\n" + "\n".join(body) + END + tail)


if __name__ == "__main__":
    main()
