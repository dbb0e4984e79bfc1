#!/usr/bin/env python3
"""queue_depth.png from run-queue-depth.sh's queue_depth.csv: IOPS against queue depth,
   modelled and wall clock, each over its own depth-1 figure, for 4 KiB reads, tasklet
   executes and 8 KiB writes (durable and buffered).
   usage: plot_queue_depth.py OUT_DIR"""
import csv
import os
import sys

out = sys.argv[1]
with open(os.path.join(out, "queue_depth.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plot_queue_depth: no matplotlib; CSV only")
    sys.exit(0)

import re

link_iops = None
bounds = os.path.join(out, "bounds.txt")
if os.path.exists(bounds):
    m = re.search(r"link \d+ ns a read = (\d+) IOPS", open(bounds).read())
    link_iops = float(m.group(1)) if m else None

fig, axes = plt.subplots(2, 2, figsize=(11, 8.4))
for ax, work, title in ((axes[0][0], "read4k", "4 KiB random reads"),
                        (axes[0][1], "execute", "tasklet executes (group-aggregate, 4 MiB)"),
                        (axes[1][0], "write8k_fua", "8 KiB writes, durable (FUA)"),
                        (axes[1][1], "write8k", "8 KiB writes, buffered")):
    sel = [r for r in rows if r["workload"] == work]
    qd = [int(r["depth"]) for r in sel]
    ax.plot(qd, [float(r["modelled_vs_qd1"]) for r in sel], "o-", label="modelled")
    ax.plot(qd, [float(r["wall_vs_qd1"]) for r in sel], "s--", label="wall clock (host)")
    if work == "read4k" and link_iops:
        base = float(sel[0]["modelled_iops"])
        ax.axhline(link_iops / base, color="grey", linestyle=":",
                   label="model's bound: the link (%.0f IOPS)" % link_iops)
    ax.set_xscale("log", base=2)
    ax.set_xticks(qd)
    ax.set_xticklabels([str(q) for q in qd])
    ax.set_xlabel("queue depth")
    ax.set_ylabel("IOPS / IOPS at depth 1")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend()
fig.tight_layout()
fig.savefig(os.path.join(out, "queue_depth.png"), dpi=110)
print("wrote", os.path.join(out, "queue_depth.png"))
