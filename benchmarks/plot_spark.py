#!/usr/bin/env python3
"""The Spark benchmark's figures from spark.csv: PNGs (when matplotlib is there) and summary.md.
   usage: plot_spark.py OUT_DIR [label]"""
import csv
import os
import sys

out = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else ""
NO, PUSH, PQ, ORACLE = "spark-no-pushdown", "spark-pushdown", "spark-parquet", "mapreduce-device"
SPARK = [NO, PUSH, PQ]
COLORS = {NO: "tab:red", PUSH: "tab:blue", PQ: "tab:green", ORACLE: "tab:gray"}

with open(os.path.join(out, "spark.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
if not rows:
    sys.exit("plot_spark: spark.csv has no rows")
sizes = sorted({int(r["entry_size"]) for r in rows})
cell = {(r["query"], int(r["entry_size"]), r["version"]): r for r in rows}
entries = int(rows[0]["entries"])


def num(q, es, v, col):
    r = cell.get((q, es, v))
    return float(r[col]) if r and r[col] != "" else None


md = ["# Spark SQL over the drive: Q1 and Q2" + (" (%s)" % label if label else ""), "",
      "%d entries per size; Spark local[2]. Modelled: the drive's link and ISP busy time "
      "(its counters) plus the log analyzer's host CPU model; wall clock: this machine's. "
      "Parquet: a copy of the same records' columns on file://, measured only." % entries, "",
      "| query | entry B | modelled s no pushdown | modelled s pushdown | no/push | "
      "wall s no pushdown | wall s pushdown | wall s Parquet | no/push wall | "
      "link MB no / push | energy J no / push (host + drive) | connector device s no / push | answers |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|"]
for q in ("Q1", "Q2"):
    for es in sizes:
        if (q, es, NO) not in cell:
            continue
        mn, mp = num(q, es, NO, "modelled_s"), num(q, es, PUSH, "modelled_s")
        wn, wp, wq = (num(q, es, v, "wall_s") for v in SPARK)
        md.append("| %s | %d | %.4f | %.4f | %.2fx | %.2f | %.2f | %.2f | %.2fx | %.1f / %.3f "
                  "| %.2f / %.2f | %.2f / %.2f | %s |" % (
                      q, es, mn, mp, mn / mp, wn, wp, wq, wn / wp,
                      num(q, es, NO, "link_bytes") / 1e6, num(q, es, PUSH, "link_bytes") / 1e6,
                      num(q, es, NO, "host_j") + num(q, es, NO, "device_j"),
                      num(q, es, PUSH, "host_j") + num(q, es, PUSH, "device_j"),
                      num(q, es, NO, "metric_device_s"), num(q, es, PUSH, "metric_device_s"),
                      "identical" if cell[(q, es, NO)]["identical"] == "true" else "DIFFER"))
md.append("")
md += ["Goals:", ""]
big, small = max(sizes), min(sizes)
for q in ("Q1", "Q2"):
    if (q, big, NO) in cell:
        r = num(q, big, NO, "modelled_s") / num(q, big, PUSH, "modelled_s")
        md.append("- %s modelled, pushdown >= 2x faster than no pushdown at %d B: %.2fx, %s" % (
            q, big, r, "holds" if r >= 2 else "does not hold"))
    if (q, small, NO) in cell:
        r = num(q, small, NO, "modelled_s") / num(q, small, PUSH, "modelled_s")
        md.append("- %s crossover at %d B (no pushdown ahead, as host-optimized in Kang): "
                  "no/push %.2fx, %s" % (q, small, r, "shows" if r < 1 else "does not show"))
    if (q, big, NO) in cell:
        r = num(q, big, NO, "wall_s") / num(q, big, PUSH, "wall_s")
        md.append("- %s wall clock at %d x %d B, pushdown >= 5x faster than no pushdown: %.2fx, %s"
                  % (q, entries, big, r, "holds" if r >= 5 else "does not hold"))
md.append("")
with open(os.path.join(out, "summary.md"), "w") as f:
    f.write("\n".join(md))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plot_spark: matplotlib is not installed: summary.md only, no PNG", file=sys.stderr)
    sys.exit(0)

for col, versions, ylabel, name in (
        ("modelled_s", [NO, PUSH], "modelled time (s)", "spark_modelled.png"),
        ("wall_s", SPARK, "wall clock (s, this machine)", "spark_wall.png")):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, q in zip(axes, ("Q1", "Q2")):
        w = 0.8 / len(versions)
        for k, v in enumerate(versions):
            ys = [num(q, es, v, col) or 0 for es in sizes]
            ax.bar([i + (k - (len(versions) - 1) / 2) * w for i in range(len(sizes))], ys, w,
                   label=v, color=COLORS[v])
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels(["%d B" % s for s in sizes])
        ax.set_ylabel(ylabel)
        ax.set_title("%s through Spark SQL, %d entries" % (q, entries))
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=110)
    plt.close(fig)
