#!/usr/bin/env python3
"""Turns the harness's results.csv into docs/benchmarks.md and PNG plots (issues 7 and 17).

Usage: report.py RESULTS_DIR DOC.md
Reads RESULTS_DIR/results.csv, rtt-check.csv (if any) and machine.txt (written by bench.sh),
writes the plots into RESULTS_DIR and the tables into DOC.md (between the generated-results
markers, keeping the hand-written text around them). Every figure it prints comes from those
files. A scenario run at several round-trip-time sets (the rtt_ms column) gets a table per set
and a comparison across the sets; results.csv files of the older harness (no rtt_ms, cpu_s,
peak_mb) read as round-trip time 0 without CPU and memory figures.
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
    ("guc-p", "globus-url-copy -p N"),
]


def mbit(bps):
    return bps * 8 / 1e6


def rtt_name(rtt):
    return "0 ms" if rtt == "0" else f"{rtt} ms"


def slug(rtt):
    return "" if rtt == "0" else "-rtt" + rtt.replace("/", "-")


def floats(rows, key):
    return [float(r[key]) for r in rows if r.get(key) not in (None, "", "null")]


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
        self.cpu = floats(self.ok, "cpu_s")
        self.peak = floats(self.ok, "peak_mb")

    def med(self):
        return statistics.median(self.tput) if self.tput else None

    def med_time(self):
        return statistics.median(self.times) if self.times else None

    def med_wall(self):
        return statistics.median(self.walls) if self.walls else None

    def idle(self, key):
        v = floats(self.ok, key)
        return statistics.median(v) if v else None

    def share(self, wall=False):
        """Median throughput as a fraction of the bound (None without a bound or a success)."""
        t = self.med_wall() if wall else self.med_time()
        return self.size / t / self.bound if t and self.bound > 0 else None


def load(results):
    rows = list(csv.DictReader(open(results / "results.csv")))
    cells = defaultdict(list)
    order = []
    for r in rows:
        r["rtt_ms"] = r.get("rtt_ms") or "0"
        k = (r["scenario"], r["rtt_ms"], int(r["size"]), r["contender"])
        if k not in cells:
            order.append(k)
        cells[k].append(r)
    labels = {r["scenario"]: r["label"] for r in rows}
    return {k: Cell(v) for k, v in cells.items()}, order, labels


def rtt_checks(results):
    path = results / "rtt-check.csv"
    return list(csv.DictReader(open(path))) if path.exists() else []


def fmt(x, spec="{:.1f}"):
    return "n/a" if x is None else spec.format(x)


def pct(fraction):
    return "n/a" if fraction is None else f"{fraction * 100:.1f}%"


def scenario_table(cells, order, scen, rtt, size):
    keys = [k for k in order if k[:3] == (scen, rtt, size)]
    first = cells[keys[0]]
    present = [b for b in BASELINES if (scen, rtt, size, b[0]) in cells]
    unshaped = first.bound <= 0
    if unshaped:
        head = f"Unshaped (no bound); file {size / 1e6:.0f} MB; round-trip time {rtt_name(rtt)} added."
        unit, conv = "MB/s", (lambda b: b / 1e6)
    else:
        head = (
            f"Bound: {mbit(first.bound):.1f} Mbit/s of TCP payload (max-flow {mbit(first.nominal):.0f} Mbit/s "
            f"of link rate x 1448/1514); file {size / 1e6:.0f} MB; round-trip times {rtt_name(rtt)}."
        )
        unit, conv = "Mbit/s", mbit
    out = [
        head,
        "",
        f"| contender | ok/runs | median s | wall s | {unit} median (min-max) | % of bound | "
        + "".join(f"x {name} | " for _, name in present)
        + "CPU s | peak MB | load 1 min |",
        "|---|---|---|---|---|---|" + "---|" * len(present) + "---|---|---|",
    ]
    for k in keys:
        c = cells[k]
        m = c.med()
        rng = f"{conv(m):.1f} ({conv(min(c.tput)):.1f}-{conv(max(c.tput)):.1f})" if m else "failed"
        ratios = []
        for b, _ in present:
            bc = cells.get((scen, rtt, size, b))
            ratios.append(fmt(m / bc.med(), "{:.2f}") if m and bc and bc.med() else "n/a")
        wall = statistics.median(c.walls) if c.walls else None
        fails = "; ".join(sorted({r["note"] for r in c.rows if r["ok"] != "1" and r["note"]}))
        name = k[3] + (f" (failures: {fails[:120]})" if fails else "")
        cpu = fmt(statistics.median(c.cpu) if c.cpu else None, "{:.2f}")
        peak = fmt(statistics.median(c.peak) if c.peak else None, "{:.0f}")
        out.append(
            f"| {name} | {len(c.ok)}/{len(c.rows)} | {fmt(c.med_time(), '{:.2f}')} | {fmt(wall, '{:.2f}')} | {rng} | "
            f"{pct(m / c.bound if m and not unshaped else None)} | " + "".join(r + " | " for r in ratios)
            + f"{cpu} | {peak} | {min(c.loads):.2f}-{max(c.loads):.2f} |"
        )
    return out


def rtt_table(cells, order, scen):
    """One scenario at every round-trip-time set: each contender's share of the bound."""
    sets = list(dict.fromkeys(k[1] for k in order if k[0] == scen))
    out = [
        "Share of the bound at each set of round-trip times (median; whole-process wall-clock time, "
        "the tools' own transfer time in parentheses):",
        "",
        "| contender | size | " + " | ".join(rtt_name(r) for r in sets) + " |",
        "|---|---|" + "---|" * len(sets),
    ]
    for size in sorted({k[2] for k in order if k[0] == scen}):
        for c in dict.fromkeys(k[3] for k in order if k[0] == scen and k[2] == size):
            row = []
            for r in sets:
                cell = cells.get((scen, r, size, c))
                w, t = (cell.share(True), cell.share()) if cell else (None, None)
                row.append(f"{fmt(w and w * 100)}% ({fmt(t and t * 100)}%)" if cell else "-")
            out.append(f"| {c} | {size / 1e6:.0f} MB | " + " | ".join(row) + " |")
    return out


def bar_plot(cells, order, scen, rtt, size, label, path):
    keys = [k for k in order if k[:3] == (scen, rtt, size)]
    names = [k[3] for k in keys]
    bound = cells[keys[0]].bound
    conv, unit = (mbit, "Mbit/s") if bound > 0 else ((lambda b: b / 1e6), "MB/s")
    med = [conv(cells[k].med() or 0) for k in keys]
    lo = [m - conv(min(cells[k].tput)) if cells[k].tput else 0 for m, k in zip(med, keys)]
    hi = [conv(max(cells[k].tput)) - m if cells[k].tput else 0 for m, k in zip(med, keys)]
    fig, ax = plt.subplots(figsize=(8, 3.6))
    ax.bar(range(len(keys)), med, yerr=[lo, hi], capsize=3, color="#4c72b0")
    if bound > 0:
        ax.axhline(mbit(bound), color="red", linestyle="--", label="bound (max-flow payload)")
        ax.legend(fontsize=8)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(f"{unit} (median, min-max)")
    ax.set_title(f"Scenario {scen}: {label}, {size / 1e6:.0f} MB, RTT {rtt_name(rtt)}", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def size_plot(cells, order, scen, rtt, path):
    keys = [k for k in order if k[:2] == (scen, rtt)]
    contenders = list(dict.fromkeys(k[3] for k in keys))
    sizes = sorted({k[2] for k in keys})
    fig, ax = plt.subplots(figsize=(7, 3.6))
    for c in contenders:
        xs, ys, lo, hi = [], [], [], []
        for s in sizes:
            cell = cells.get((scen, rtt, s, c))
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
    ax.set_title(f"Scenario {scen}: throughput per file size, RTT {rtt_name(rtt)}", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def idle_plot(cells, order, scen, rtt, path):
    keys = [k for k in order if k[:2] == (scen, rtt) and k[3].startswith("braid-")]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    vals = [100 * (cells[k].idle("fast_idle_frac") or 0) for k in keys]
    ax.bar(range(len(keys)), vals, color="#dd8452")
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([k[3] for k in keys], rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("% of download (median)")
    ax.set_title(f"Scenario {scen}: idle time of the fastest mirror (paper 003 Fig. 19 metric)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def cpu_plot(cells, order, scen, rtt, size, path):
    """CPU seconds (user + system) and peak resident memory of each contender (median)."""
    keys = [k for k in order if k[:3] == (scen, rtt, size)]
    names = [k[3] for k in keys]
    cpu = [statistics.median(cells[k].cpu) if cells[k].cpu else 0 for k in keys]
    peak = [statistics.median(cells[k].peak) if cells[k].peak else 0 for k in keys]
    fig, (a, b) = plt.subplots(1, 2, figsize=(8, 3.4))
    a.bar(range(len(keys)), cpu, color="#55a868")
    a.set_ylabel("CPU s (user + system, median)")
    b.bar(range(len(keys)), peak, color="#8172b2")
    b.set_ylabel("peak resident MB (median)")
    for ax in (a, b):
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(names, rotation=30, ha="right", fontsize=8)
    fig.suptitle(f"Scenario {scen}: CPU and memory per contender, {size / 1e6:.0f} MB", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def yes(ok):
    return "yes" if ok else "NO"


def goals(cells, order):
    out = ["| goal (issue 7, round-trip time 0) | measured | met? |", "|---|---|---|"]

    for scen, name in (("4s", "static"), ("4w", "with the speed swap")):
        for k in [k for k in order if k[0] == scen and k[1] == "0" and k[3] == "braid-adaptive"]:
            nom = cells[k]
            f, wf = nom.share(), nom.share(True)
            a = cells.get(k[:3] + ("aria2-tuned",))
            af = a.share() if a else None
            nf = nom.med() / nom.nominal if nom.med() else None
            out.append(
                f"| scenario 4 {name}: default scheme >= 97% of the bound | {fmt(f and f * 100)}% "
                f"({fmt(nf and nf * 100)}% of the nominal link rates) "
                f"(aria2c tuned {fmt(af and af * 100)}%); by wall-clock time {fmt(wf and wf * 100)}% | "
                f"{yes(f and f >= 0.97)} by transfer time; {yes(wf and wf >= 0.97)} by wall-clock time |"
            )
    for k in [k for k in order if k[0] == "1" and k[1] == "0" and k[3] == "braid-adaptive"]:
        c, b = cells[k], cells.get(k[:3] + ("curl",))
        r = c.med() / b.med() if c.med() and b and b.med() else None
        w = b.med_wall() / c.med_wall() if c.med_wall() and b and b.med_wall() else None
        out.append(
            f"| scenario 1: default >= 1.9x the best single mirror | {fmt(r, '{:.2f}')}x; "
            f"by wall-clock time {fmt(w, '{:.2f}')}x | {yes(r and r >= 1.9)} by transfer "
            f"time; {yes(w and w >= 1.9)} by wall-clock time |"
        )
    six = [k for k in order if k[0] == "6" and k[1] == "0" and k[3] == "braid-adaptive"]
    pairs = [(k, cells.get(k[:3] + ("curl",))) for k in six]
    pairs = [(k, b) for k, b in pairs if b and b.med() and cells[k].med()]
    if pairs:
        ratios = [(k[2], cells[k].med() / b.med()) for k, b in pairs]
        txt = ", ".join(f"{s / 1e6:.0f} MB: {r:.2f}x" for s, r in ratios)
        lost, reps = 0, 0
        for k, b in pairs:
            curl = {r["rep"]: float(r["transfer_s"]) for r in b.ok}
            for r in cells[k].ok:
                if r["rep"] in curl:
                    reps += 1
                    lost += float(r["transfer_s"]) > curl[r["rep"]]
        txt += f" (slower than curl in {lost} of {reps} same-repetition pairs)"
        walls = [(k[2], b.med_wall() / cells[k].med_wall()) for k, b in pairs if b.walls and cells[k].walls]
        if walls:
            txt += "; counting the whole process including the JVM start (wall s): " + ", ".join(
                f"{s / 1e6:.0f} MB: {r:.2f}x" for s, r in walls
            )
        verdict = yes(min(r for _, r in ratios) >= 1.0)
        if any(r < 1.0 for _, r in walls):
            verdict += " by transfer time; NO by wall-clock time (JVM start) at the sizes below 1.00x"
        out.append(f"| scenario 6: default never slower than the best single mirror (median) | {txt} | {verdict} |")
    for k in [k for k in order if k[0] == "7" and k[1] == "0" and k[3] == "braid-adaptive"]:
        v = cells[k].idle("fast_idle_frac")
        out.append(
            f"| scenario 7: idle time of the fastest mirror < 2% of the download (default) | "
            f"{fmt(v and v * 100, '{:.2f}')}% | {yes(v is not None and v < 0.02)} |"
        )
    more = goals17(cells, order)
    return out + ([""] + more if more else [])


def goals17(cells, order):
    """Issue 17: default options, whole-process wall-clock time, with round-trip times."""
    out = [
        "| goal (issue 17, whole-process wall-clock time, default options) | measured | met? |",
        "|---|---|---|",
    ]
    need = {"4s": 0.97, "4w": 0.97, "six": 0.95, "kill": 0.95, "trace": 0.95, "1g": 0.95}
    for k in [k for k in order if k[0] in need and k[1] != "0" and k[3] == "braid-adaptive"]:
        c, a = cells[k], cells.get(k[:3] + ("aria2-tuned",))
        w = c.share(True)
        aw = a.share(True) if a else None
        ahead = c.med_wall() and a and a.med_wall() and c.med_wall() < a.med_wall()
        out.append(
            f"| {k[0]} at {rtt_name(k[1])}: >= {need[k[0]] * 100:.0f}% of the bound and ahead of aria2c tuned | "
            f"{fmt(w and w * 100)}% (aria2c tuned {fmt(aw and aw * 100)}%) | "
            f"{yes(w and w >= need[k[0]])}; {'ahead' if ahead else 'NOT ahead'} |"
        )
    for k in [k for k in order if k[0] == "small" and k[1] != "0" and k[3] == "braid-adaptive"]:
        c, b = cells[k], cells.get(k[:3] + ("curl",))
        w = b.med_wall() / c.med_wall() if c.med_wall() and b and b.med_wall() else None
        out.append(
            f"| 10 MB at {rtt_name(k[1])}: >= 1.2x the best single mirror | {fmt(w, '{:.2f}')}x "
            f"({fmt(c.med_wall(), '{:.2f}')} s against curl's {fmt(b and b.med_wall(), '{:.2f}')} s) | "
            f"{yes(w and w >= 1.2)} |"
        )
    for k in [k for k in order if k[0] == "local" and k[3] == "braid-adaptive"]:
        c = cells[k]
        others = [(n, cells.get(k[:3] + (n,))) for n in ("curl", "aria2", "aria2-tuned")]
        txt = [f"braid {fmt(c.med_wall(), '{:.2f}')} s, {fmt(c.cpu and statistics.median(c.cpu), '{:.1f}')} CPU s"]
        ok = bool(c.med_wall())
        for n, o in others:
            if o is None:
                continue
            txt.append(f"{n} {fmt(o.med_wall(), '{:.2f}')} s, {fmt(o.cpu and statistics.median(o.cpu), '{:.1f}')} CPU s")
            ok = ok and bool(o.med_wall()) and c.med_wall() < o.med_wall()
        out.append(
            f"| unshaped, {k[2] / 1e9:.0f} GB from four local mirrors: ahead of curl and aria2c | "
            f"{'; '.join(txt)} | {yes(ok)} |"
        )
    return out if len(out) > 2 else []


def headline(cells, order, labels):
    """Braid's default scheme in every scenario: share of the bound and ratio to each contender,
    once by each tool's transfer time and once by whole-process wall-clock time."""
    extra = sorted(
        w - t for k in order if k[3].startswith("braid-") for w, t in zip(cells[k].walls, cells[k].times)
    )
    spread = (
        f"median {statistics.median(extra):.2f} s, {extra[0]:.2f} to {extra[-1]:.2f} s over Braid's "
        f"{len(extra)} successful runs in this run"
        if extra
        else "not measured"
    )
    cols = "| scenario | RTT | size | % of bound | x curl | x globus-url-copy | x aria2c default | x aria2c tuned | x xrdcp --sources | x globus-url-copy -p N |"
    rule = "|---|---|---|---|---|---|---|---|---|---|"
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
        cols,
        rule,
    ]
    wall = ["", "By wall-clock time (whole process, every contender):", "", cols, rule]
    for k in order:
        if k[3] != "braid-adaptive" or not cells[k].med():
            continue
        c = cells[k]
        ratios, wratios = [], []
        for b, _ in BASELINES:
            bc = cells.get(k[:3] + (b,))
            ratios.append(fmt(c.med() / bc.med(), "{:.2f}") if bc and bc.med() else "n/a")
            wratios.append(
                fmt(bc.med_wall() / c.med_wall(), "{:.2f}") if bc and bc.med_wall() and c.med_wall() else "n/a"
            )
        lead = f"| {k[0]}: {labels[k[0]]} | {rtt_name(k[1])} | {k[2] / 1e6:.0f} MB | "
        t, w = c.share(), c.share(True)
        out.append(lead + f"{pct(t)} | " + " | ".join(ratios) + " |")
        wall.append(lead + f"{pct(w)} | " + " | ".join(wratios) + " |")
    return out + wall


def rtt_check_table(checks):
    out = [
        "## Round-trip time check (`rtt-check.csv`)",
        "",
        "Before each scenario with delays the harness measures curl's connect time (SYN to SYN-ACK,",
        "one round trip; median of three) from the client namespace to every mirror.",
        "",
        "| scenario | RTT set | mirror | configured ms | curl connect ms |",
        "|---|---|---|---|---|",
    ]
    for r in checks:
        out.append(
            f"| {r['scenario']} | {r['rtt_ms']} | {r['mirror']} | {r['configured_ms']} | {r['connect_ms']} |"
        )
    return out


def idle_table(cells, order, scen, rtt):
    keys = [k for k in order if k[:2] == (scen, rtt) and k[3].startswith("braid-")]
    if not any(cells[k].idle("fast_idle_frac") is not None for k in keys):
        return []
    out = [
        "Idle time of the fastest mirror (median % of the download; Braid's report, "
        "paper 003 Figure 19 metric):",
        "",
        "| contender | fastest mirror idle | most idle live mirror |",
        "|---|---|---|",
    ]
    for k in keys:
        c = cells[k]
        f, m = c.idle("fast_idle_frac"), c.idle("max_idle_frac")
        out.append(
            f"| {k[3]} ({k[2] / 1e6:.0f} MB) | {fmt(f and f * 100, '{:.2f}')}% | {fmt(m and m * 100, '{:.2f}')}% |"
        )
    return out + [""]


def scenario_section(cells, order, labels, scen, results, rel):
    body = [f"## Scenario {scen}: {labels[scen]}", ""]
    sets = list(dict.fromkeys(k[1] for k in order if k[0] == scen))
    for rtt in sets:
        if len(sets) > 1:
            body += [f"### Round-trip times {rtt_name(rtt)}", ""]
        sizes = sorted({k[2] for k in order if k[:2] == (scen, rtt)})
        for size in sizes:
            body += scenario_table(cells, order, scen, rtt, size) + [""]
        if len(sizes) > 1:
            png = f"throughput-{scen}{slug(rtt)}-sizes.png"
            size_plot(cells, order, scen, rtt, results / png)
        else:
            png = f"throughput-{scen}{slug(rtt)}.png"
            bar_plot(cells, order, scen, rtt, sizes[0], labels[scen], results / png)
        body += [f"![scenario {scen}, RTT {rtt_name(rtt)}]({rel}/{png})", ""]
        key = (scen, rtt, sizes[0])
        if cells[[k for k in order if k[:3] == key][0]].bound <= 0:
            png = f"cpu-{scen}{slug(rtt)}.png"
            cpu_plot(cells, order, scen, rtt, sizes[0], results / png)
            body += [f"![CPU and memory, scenario {scen}]({rel}/{png})", ""]
        body += idle_table(cells, order, scen, rtt)
        if scen == "7":
            png = f"idle-7{slug(rtt)}.png"
            idle_plot(cells, order, scen, rtt, results / png)
            body += [f"![idle time, scenario 7]({rel}/{png})", ""]
    if len(sets) > 1:
        body += rtt_table(cells, order, scen) + [""]
    return body


def main():
    results, doc = Path(sys.argv[1]), Path(sys.argv[2])
    cells, order, labels = load(results)
    rel = results.relative_to(doc.parent) if results.is_relative_to(doc.parent) else results
    body = ["## Goals", ""] + goals(cells, order) + [""] + headline(cells, order, labels) + [""]
    for scen in dict.fromkeys(k[0] for k in order):
        body += scenario_section(cells, order, labels, scen, results, rel)
    checks = rtt_checks(results)
    if checks:
        body += rtt_check_table(checks) + [""]
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
