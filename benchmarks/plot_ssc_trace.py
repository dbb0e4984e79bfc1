#!/usr/bin/env python3
"""FlashTier's cache comparison from run-ssc-trace.sh's ssc_trace.csv: one PNG of the
   figures the thesis compares in Tables 4.5-4.7 and Fig. 4.8 (write amplification, erases,
   wear difference, read miss rate, host memory for the maps, recovery time), native vs SSC
   vs SSC-V on each trace. [Saxena 2013]: Saxena, "New Interfaces for Solid-State Memory
   Management", ch. 4 (docs/REFERENCES.md). Without matplotlib it says so and exits 0.
   usage: plot_ssc_trace.py OUT_DIR [label]"""
import csv
import os
import sys

out = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else ""
SYSTEMS = ["native", "SSC", "SSC-V"]
PANELS = [  # column, title, scale
    ("write_amp", "write amplification", 1),
    ("erases", "erases", 1),
    ("wear_diff", "wear difference, erases", 1),
    ("read_miss_pct", "read miss rate, %", 1),
    ("host_bytes", "host memory for the maps, MiB", 1 / 2**20),
    ("recovery_ns", "recovery, ms modelled", 1e-6),
]

with open(os.path.join(out, "ssc_trace.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
traces = list(dict.fromkeys(r["workload"] for r in rows))


def value(trace, system, column, scale):
    for r in rows:
        if r["workload"] == trace and r["system"] == system:
            return float(r[column]) * scale
    return float("nan")


try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plot_ssc_trace: no matplotlib, no PNG", file=sys.stderr)
    sys.exit(0)

fig, axes = plt.subplots(2, 3, figsize=(14, 7.5))
width = 0.8 / len(SYSTEMS)
for ax, (column, title, scale) in zip(axes.flat, PANELS):
    for i, system in enumerate(SYSTEMS):
        xs = [t + (i - 1) * width for t in range(len(traces))]
        ax.bar(xs, [value(t, system, column, scale) for t in traces], width, label=system)
    ax.set_xticks(range(len(traces)))
    ax.set_xticklabels(traces)
    ax.set_title(title, fontsize=10)
axes.flat[0].legend()
fig.suptitle("FlashTier cache vs the FTL + host map, by trace replay" + (f" ({label})" if label else ""))
fig.tight_layout()
png = os.path.join(out, "flashtier_ssc_trace.png")
fig.savefig(png, dpi=110)
print(f"PNG: {png}")
