"""Figure 9 of paper 003 from the prediction study's results.csv (run by run-study.sh).

Usage: .venv/bin/python src/test/study/plot.py DATASET_DIR [OUT.png]

(a) per mirror: normalized percent error of AVG25, G+D Avg, G+N Avg, G+N+D Avg and Braid's
    default predictors, mean over size classes, with the 95% confidence interval as error bars;
(b) every predictor, mean over mirrors and size classes, best first.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIG9 = ["AVG25", "G+D Avg", "G+N Avg", "G+N+D Avg", "default", "published"]


def main():
    data = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else data + "/figure9.png"
    cells = defaultdict(list)  # (mirror, predictor) -> [(error, ci)]
    with open(data + "/results.csv") as f:
        for row in csv.DictReader(f):
            if int(row["scored"]) == 0:
                continue  # no measurement (an error of 0 would rank the predictor best), as table.md
            cells[(row["mirror"], row["predictor"])].append(
                (float(row["error_pct"]), float(row["ci95_pct"])))
    mirrors = sorted({m for m, _ in cells})
    predictors = []
    for _, p in cells:
        if p not in predictors:
            predictors.append(p)

    def mean(m, p):
        v = cells[(m, p)]
        return sum(e for e, _ in v) / len(v), sum(c for _, c in v) / len(v)

    fig, (a, b) = plt.subplots(1, 2, figsize=(15, 5.5), gridspec_kw={"width_ratios": [1.1, 1.4]})
    width = 0.8 / len(FIG9)
    for k, p in enumerate(FIG9):
        xs, ys, es = [], [], []
        for i, m in enumerate(mirrors):
            if (m, p) in cells:
                e, c = mean(m, p)
                xs.append(i + (k - (len(FIG9) - 1) / 2) * width)
                ys.append(e)
                es.append(c)
        a.bar(xs, ys, width, yerr=es, capsize=3, label=p)
    a.set_xticks(range(len(mirrors)))
    a.set_xticklabels(mirrors)
    a.set_ylabel("normalized % error (bars: 95% confidence interval)")
    a.set_title("(a) per mirror, mean over size classes")
    a.legend(fontsize=8)

    overall = []
    for p in predictors:
        v = [x for m in mirrors for x in cells.get((m, p), [])]  # every (mirror, class) cell, as table.md
        overall.append((sum(e for e, _ in v) / len(v), sum(c for _, c in v) / len(v), p))
    overall.sort()
    colours = ["tab:red" if p.startswith("G+") else "tab:green" if p in ("default", "published", "NWS", "default/class")
               else "tab:blue" for _, _, p in overall]
    b.bar(range(len(overall)), [e for e, _, _ in overall], yerr=[c for _, c, _ in overall], capsize=2,
          color=colours)
    b.set_xticks(range(len(overall)))
    b.set_xticklabels([p for _, _, p in overall], rotation=70, fontsize=8)
    b.set_title("(b) every predictor, mean over mirrors and size classes "
                "(blue: univariate, red: regression, green: adaptive)")
    b.title.set_fontsize(9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote " + out)


if __name__ == "__main__":
    main()
