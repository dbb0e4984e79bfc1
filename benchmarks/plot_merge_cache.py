#!/usr/bin/env python3
"""Smullen's Figs. 4-7 from run-buffer-replay.sh's merge_cache.csv: PNGs (when matplotlib is
   there) and merge_cache.md with the orderings the paper reports and whether they hold here.
   [Smullen 2010] is Smullen, Coffman, Gurumurthi, "Accelerating Enterprise Solid-State Disks
   with Non-Volatile Merge Caching" (docs/REFERENCES.md).
   usage: plot_merge_cache.py OUT_DIR [label]"""
import csv
import os
import sys

out = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else ""
TRACES = ["smullen-exchange", "smullen-maps", "smullen-msnfs", "smullen-radius"]
SHORT = {t: t.split("-", 1)[1] for t in TRACES}
WRITE = ["nv-wb", "nv-sub", "nv-sat"]
READ = ["nv-wb+cache", "nv-wb+prefetch", "nv-wb+both"]
BASES = {"volatile": "0", "durable": "1"}   # none without / with FUA on every write

# What the paper reports for each figure (its text; the bars' values are not printed).
PAPER = {
    "4": "all three lower the response time; nv-wb 'significantly better on every workload'; "
         "the sub-page policies 'negligible' on Maps (2.5 % sub-page writes)",
    "5": "Maps and Radius near 1 (light load); Exchange rises with the improvement; MSN-FS "
         "held down by queueing and large requests",
    "6": "fewer erasures with nv-wb, 'more than 20 %' fewer on average; Exchange and Radius "
         "most (write hit rates 19.5 % and 25.1 %)",
    "7": "Exchange about 20 % better with selective caching, nothing more from prefetching; "
         "MSN-FS 35 % better with prefetching; Maps worse with caching (pollution); Radius "
         "unchanged",
}

with open(os.path.join(out, "merge_cache.csv"), newline="") as f:
    rows = list(csv.DictReader(f))


def get(trace, policy, key, fua="0"):
    for r in rows:
        if r["trace"] == trace and r["policy"] == policy and r["fua"] == fua:
            return float(r[key])
    return float("nan")


def ratio(a, b):
    return a / b if b else float("nan")


def resp(t, p, base):
    return ratio(get(t, p, "avg_response_ms"), get(t, "none", "avg_response_ms", BASES[base]))


def erases(t, p, base):
    return ratio(get(t, p, "erases"), get(t, "none", "erases", BASES[base]))


def access(t, p, fua="0"):
    return ratio(get(t, p, "avg_service_ms", fua), get(t, p, "avg_response_ms", fua))


def mean(xs):
    xs = [x for x in xs if x == x]
    return sum(xs) / len(xs) if xs else float("nan")


lines = ["# Smullen's merge cache by trace replay (%s)" % label, "",
         "Normalized to no merge cache (`none`); *volatile*: its writes acknowledged before "
         "they are durable, *durable*: every write FUA, as the paper's baseline's writes and "
         "every merge-cache write are. Lower is better but in Fig. 5.", ""]


def table(title, fig, fn, policies, bases):
    lines.append("## %s (Smullen Fig. %s)" % (title, fig))
    lines.append("")
    lines.append("Paper: " + PAPER[fig])
    lines.append("")
    head = "| policy | baseline | " + " | ".join(SHORT[t] for t in TRACES) + " | mean |"
    lines.append(head)
    lines.append("|" + "---|" * (len(TRACES) + 3))
    for p in policies:
        for b in bases:
            vals = [fn(t, p, b) for t in TRACES]
            lines.append("| %s | %s | " % (p, b) + " | ".join("%.3f" % v for v in vals) +
                         " | %.3f |" % mean(vals))
    lines.append("")


table("Average response time", "4", resp, WRITE, ["volatile", "durable"])
table("Erases", "6", erases, WRITE, ["volatile"])

lines.append("## Access time / response time (Smullen Fig. 5)")
lines.append("")
lines.append("Paper: " + PAPER["5"])
lines.append("")
lines.append("| policy | " + " | ".join(SHORT[t] for t in TRACES) + " |")
lines.append("|" + "---|" * (len(TRACES) + 1))
for p, fua in [("none", "0"), ("none", "1")] + [(p, "0") for p in WRITE]:
    name = p + (" (FUA)" if fua == "1" else "")
    lines.append("| %s | " % name + " | ".join("%.3f" % access(t, p, fua) for t in TRACES) + " |")
lines.append("")

lines.append("## Read policies, normalized to nv-wb alone (Smullen Fig. 7)")
lines.append("")
lines.append("Paper: " + PAPER["7"])
lines.append("")
lines.append("| policy | " + " | ".join(SHORT[t] for t in TRACES) + " | mean |")
lines.append("|" + "---|" * (len(TRACES) + 2))
for p in READ:
    vals = [ratio(get(t, p, "avg_response_ms"), get(t, "nv-wb", "avg_response_ms")) for t in TRACES]
    lines.append("| %s | " % p + " | ".join("%.3f" % v for v in vals) + " | %.3f |" % mean(vals))
lines.append("")

# The orderings the issue asks for, per trace and baseline.
lines.append("## Orderings")
lines.append("")
for base in ["volatile", "durable"]:
    for t in TRACES:
        r = {p: resp(t, p, base) for p in WRITE}
        e = {p: erases(t, p, base) for p in WRITE}
        lower = [p for p in WRITE if r[p] < 1.0]
        lower_e = [p for p in WRITE if e[p] < 1.0]
        best = min(WRITE, key=lambda p: r[p])
        best_e = min(WRITE, key=lambda p: e[p])
        lines.append("- %s, %s baseline: response lower than no merge cache for %s (%s); "
                     "lowest %s. Erases lower for %s; lowest %s." % (
                         SHORT[t], base, "all three" if len(lower) == 3 else
                         ", ".join(lower) or "none",
                         ", ".join("%s %.3f" % (p, r[p]) for p in WRITE), best,
                         "all three" if len(lower_e) == 3 else ", ".join(lower_e) or "none",
                         best_e))
lines.append("")
with open(os.path.join(out, "merge_cache.md"), "w") as f:
    f.write("\n".join(lines) + "\n")

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)


def bars(name, title, series, ylabel):
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.8 / len(series)
    for i, (lab, vals) in enumerate(series):
        ax.bar([x + i * width for x in range(len(TRACES) + 1)], vals, width, label=lab)
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(TRACES) + 1)])
    ax.set_xticklabels([SHORT[t] for t in TRACES] + ["mean"])
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_ylabel(ylabel)
    ax.set_title(title + (" — " + label if label else ""), fontsize=8)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=120)
    plt.close(fig)


def with_mean(vals):
    return vals + [mean(vals)]


for base in ["volatile", "durable"]:
    bars("merge_fig4_response_%s.png" % base, "Fig. 4: response time, %s baseline" % base,
         [(p, with_mean([resp(t, p, base) for t in TRACES])) for p in WRITE],
         "normalized to no merge cache")
bars("merge_fig5_access.png", "Fig. 5: access time / response time",
     [(p, with_mean([access(t, p) for t in TRACES])) for p in ["none"] + WRITE], "ratio")
bars("merge_fig6_erases.png", "Fig. 6: erases",
     [(p, with_mean([erases(t, p, "volatile") for t in TRACES])) for p in WRITE],
     "normalized to no merge cache")
bars("merge_fig7_read.png", "Fig. 7: read policies with nv-wb",
     [(p, with_mean([ratio(get(t, p, "avg_response_ms"), get(t, "nv-wb", "avg_response_ms"))
                     for t in TRACES])) for p in READ], "normalized to nv-wb")
