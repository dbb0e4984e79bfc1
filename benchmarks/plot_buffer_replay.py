#!/usr/bin/env python3
"""Gong's Figs. 4.1-4.8 from run-buffer-replay.sh's CSVs: PNGs (when matplotlib is there) and
   summary.md with the orderings the thesis reports and whether they hold here.
   usage: plot_buffer_replay.py OUT_DIR [label]"""
import csv
import os
import sys

out = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else ""
POLICIES = ["bplru", "fab", "lbclock", "hbm"]
TRACES = ["financial", "msnfs", "exchange", "camwebdev", "synthetic"]
RANDOM = TRACES[:4]
FIG = {"financial": "4.1", "msnfs": "4.2", "exchange": "4.3", "camwebdev": "4.4",
       "synthetic": "4.6"}
LEN = ["w1", "w2", "w3_4", "w5_8", "w9_16", "w17_32", "w33_64", "w65"]
LEN_X = [1, 2, 4, 8, 16, 32, 64, 128]


def rows(name):
    with open(os.path.join(out, name), newline="") as f:
        return list(csv.DictReader(f))


main = rows("buffer_replay.csv")
thr = rows("buffer_thresholds.csv")
sizes = sorted({int(r["buffer_mb"]) for r in main})


def get(trace, pol, mb, key, table=main, th=None):
    for r in table:
        if r["trace"] == trace and r["policy"] == pol and int(r["buffer_mb"]) == mb and \
                (th is None or int(r["threshold"]) == th):
            return float(r[key])
    return float("nan")


def small_share(trace, pol, mb):
    """Share of flushes of at most 4 pages (Gong's 'small writes')."""
    n = [get(trace, pol, mb, k) for k in LEN]
    total = sum(n)
    return sum(n[:3]) / total if total else float("nan")


md = ["# Gong's buffer comparison by trace replay" + (" (%s)" % label if label else ""), ""]
md += ["Generated traces shaped by Gong Table 4.1/4.3; the emulated drive's block interface; "
       "modelled time. Ours beside the thesis's figure for each trace.", ""]
for t in TRACES:
    md += ["## %s (ours) beside Gong Fig. %s" % (t, FIG[t]), "",
           "| buffer MB | policy | avg response ms | hit ratio | erases | NAND page reads | "
           "flushes <= 4 pages |", "|---:|---|---:|---:|---:|---:|---:|"]
    for mb in (1, 16, 64):
        if mb not in sizes:
            continue
        for p in POLICIES:
            md.append("| %d | %s | %.3f | %.3f | %d | %d | %.2f |" % (
                mb, p, get(t, p, mb, "avg_response_ms"), get(t, p, mb, "hit_ratio"),
                get(t, p, mb, "erases"), get(t, p, mb, "nand_page_reads"),
                small_share(t, p, mb)))
    md.append("")

md += ["## Orderings the thesis reports, here", ""]
for t in RANDOM:
    resp = {p: get(t, p, 1, "avg_response_ms") for p in POLICIES}
    best = min(resp, key=resp.get)
    md.append("- 1 MB, %s: HBM has the lowest average response time (Figs. 4.1-4.4(a)): %s "
              "(lowest: %s, %s)" % (t, "holds" if best == "hbm" else "does not hold", best,
                                     ", ".join("%s %.3f" % (p, resp[p]) for p in POLICIES)))
for t in TRACES:
    reads = {p: get(t, p, 1, "nand_page_reads") for p in POLICIES}
    most = max(reads, key=reads.get)
    md.append("- 1 MB, %s: BPLRU does the most page reads (Fig. 4.7): %s (most: %s, %s)" % (
        t, "holds" if most == "bplru" else "does not hold", most,
        ", ".join("%s %d" % (p, reads[p]) for p in POLICIES)))
for t in TRACES:
    for mb in sorted({int(r["buffer_mb"]) for r in thr}):
        stat = {th: get(t, "hbm", mb, "avg_response_ms", thr, th) for th in (2, 4, 8, 64)}
        dyn = get(t, "hbm", mb, "avg_response_ms", thr, 0)
        best = min(stat, key=stat.get)
        md.append("- %d MB, %s: the dynamic threshold is at least as good as the best static "
                  "one (Fig. 4.8): %s (dynamic %.4f ms; best static %d: %.4f ms)" % (
                      mb, t, "holds" if dyn <= stat[best] + 1e-9 else "does not hold", dyn,
                      best, stat[best]))
md.append("")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for t in TRACES:
        fig, ax = plt.subplots(1, 4, figsize=(16, 3.6))
        for p in POLICIES:
            ax[0].plot(sizes, [get(t, p, s, "avg_response_ms") for s in sizes], marker="o", label=p)
            ax[1].plot(sizes, [get(t, p, s, "hit_ratio") for s in sizes], marker="o", label=p)
            ax[2].plot(sizes, [get(t, p, s, "erases") for s in sizes], marker="o", label=p)
            n = [get(t, p, 1, k) for k in LEN]
            tot = sum(n) or 1
            cdf = [sum(n[:i + 1]) / tot for i in range(len(n))]
            ax[3].plot(LEN_X, cdf, marker="o", label=p)
        for a, title in zip(ax, ["(a) avg response ms", "(b) hit ratio", "(c) erases",
                                 "(d) write length CDF, 1 MB"]):
            a.set_title(title)
            a.set_xscale("log", base=2)
        ax[0].legend()
        fig.suptitle("%s (ours), cf. Gong Fig. %s" % (t, FIG[t]))
        fig.tight_layout()
        fig.savefig(os.path.join(out, "fig%s_%s.png" % (FIG[t].replace(".", "_"), t)))
        plt.close(fig)
    fig, ax = plt.subplots(1, 5, figsize=(20, 3.6))
    for a, t in zip(ax, TRACES):
        a.bar(POLICIES, [get(t, p, 1, "nand_page_reads") for p in POLICIES])
        a.set_title("%s: page reads, 1 MB" % t)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig4_7_page_reads.png"))
    plt.close(fig)
    tsizes = sorted({int(r["buffer_mb"]) for r in thr})
    fig, ax = plt.subplots(1, 5, figsize=(20, 3.6))
    for a, t in zip(ax, TRACES):
        for th in (2, 4, 8, 64, 0):
            a.plot(tsizes, [get(t, "hbm", s, "avg_response_ms", thr, th) for s in tsizes],
                   marker="o", label="dynamic" if th == 0 else "THR %d" % th)
        a.set_xscale("log", base=2)
        a.set_title("%s: HBM avg response ms" % t)
    ax[0].legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig4_8_thresholds.png"))
    plt.close(fig)
except ImportError:
    md.append("(no matplotlib: no PNGs)")

with open(os.path.join(out, "summary.md"), "w") as f:
    f.write("\n".join(md) + "\n")
