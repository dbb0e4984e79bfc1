#!/usr/bin/env python3
"""Kang ch. 6 figures from the suite's CSVs: PNGs (when matplotlib is there) and summary.md.
   usage: plot_kang.py OUT_DIR [label]"""
import csv
import os
import sys

out = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else ""
VERSIONS = ["host-normal", "host-optimized", "device"]


def rows(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


f66, f67, f68, f69, f610, wall = (rows(n) for n in (
    "fig6_6.csv", "fig6_7.csv", "fig6_8.csv", "fig6_9.csv", "fig6_10.csv", "wallclock.csv"))
md = ["# Kang ch. 6 on the emulated drive" + (" (%s)" % label if label else ""), ""]

if f66:
    md += ["## Fig. 6.6: time per 8 KB page against DRAM accesses per page (modelled)", "",
           "| accesses/page | device us | host us | faster |", "|---:|---:|---:|---|"]
    md += ["| %s | %.1f | %.1f | %s |" % (r["accesses_per_page"],
           float(r["device_ns_per_page"]) / 1e3, float(r["host_ns_per_page"]) / 1e3, r["faster"])
           for r in f66]
    md.append("")
if f67:
    md += ["## Fig. 6.7: command latency (modelled link time; host wall-clock through JNI)", "",
           "| transport | command | modelled link us | wall p50 us | wall p99 us |",
           "|---|---|---:|---:|---:|"]
    md += ["| %s | %s | %.1f | %.1f | %.1f |" % (r["transport"], r["command"],
           float(r["modelled_link_us"]), float(r["wall_p50_us"]), float(r["wall_p99_us"]))
           for r in f67]
    md.append("")
sizes = sorted({int(r["entry_size"]) for r in f68})
if f68:
    md += ["## Fig. 6.8: modelled time, seconds (%s entries)" % f68[0]["entries"], "",
           "| query | entry B | host-normal | host-optimized | device | host-opt / device | answers |",
           "|---|---:|---:|---:|---:|---:|---|"]
    for q in ("Q1", "Q2"):
        for es in sizes:
            t = {r["version"]: r for r in f68 if r["query"] == q and int(r["entry_size"]) == es}
            if len(t) < 3:
                continue
            m = {v: float(t[v]["modelled_s"]) for v in VERSIONS}
            md.append("| %s | %d | %.4f | %.4f | %.4f | %.2fx | %s |" % (
                q, es, m["host-normal"], m["host-optimized"], m["device"],
                m["host-optimized"] / m["device"],
                "identical" if t["device"]["identical"] == "true" else "DIFFER"))
    md.append("")
if f69:
    md += ["## Fig. 6.9: machine CPU during each run (/proc/stat, all cores, measured)", "",
           "| query | entry B | version | wall s | user % | system % | idle % |",
           "|---|---:|---|---:|---:|---:|---:|"]
    md += ["| %s | %s | %s | %.2f | %.1f | %.1f | %.1f |" % (r["query"], r["entry_size"],
           r["version"], float(r["wall_s"]), float(r["user_pct"]), float(r["system_pct"]),
           float(r["idle_pct"])) for r in f69 if int(r["entry_size"]) == max(sizes)]
    md.append("")
if f610:
    md += ["## Fig. 6.10: Q1 power and energy per phase (modelled)", "",
           "| entry B | version | phase | s | host W | device W | total J |",
           "|---:|---|---|---:|---:|---:|---:|"]
    md += ["| %s | %s | %s | %.4f | %.1f | %.2f | %.4f |" % (r["entry_size"], r["version"],
           r["phase"], float(r["seconds"]), float(r["host_w"]), float(r["device_w"]),
           float(r["host_j"]) + float(r["device_j"])) for r in f610 if r["phase"] != "pause"]
    md.append("")
    md.append("(pause: 5 s at the host's idle power between phases, as Kang.)")
    md.append("")
if wall:
    md += ["## Wall-clock: host-normal over device (this machine, largest entry size)", "",
           "| query | entries x B | MB | host-normal s | device s | ratio | goal |",
           "|---|---|---:|---:|---:|---:|---:|"]
    md += ["| %s | %s x %s | %.1f | %.2f | %.2f | %.2fx | >= %sx at 7,000,000 x 256 B |" % (
        r["query"], r["entries"], r["entry_size"], int(r["data_bytes"]) / 1e6,
        float(r["host_normal_wall_s"]), float(r["device_wall_s"]), float(r["ratio"]),
        r["goal"].rstrip("0").rstrip(".")) for r in wall]
    md.append("")

with open(os.path.join(out, "summary.md"), "w") as f:
    f.write("\n".join(md))

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("plot_kang: matplotlib is not installed: summary.md only, no PNG", file=sys.stderr)
    sys.exit(0)

COLORS = {"host-normal": "tab:red", "host-optimized": "tab:orange", "device": "tab:blue"}


def save(fig, name):
    fig.tight_layout()
    fig.savefig(os.path.join(out, name), dpi=110)
    plt.close(fig)


if f66:
    fig, ax = plt.subplots(figsize=(6, 4))
    x = [int(r["accesses_per_page"]) for r in f66]
    ax.plot(x, [float(r["device_ns_per_page"]) / 1e3 for r in f66], "o-", label="device")
    ax.plot(x, [float(r["host_ns_per_page"]) / 1e3 for r in f66], "s--", label="host (link)")
    ax.set_xlabel("DRAM accesses per 8 KB page")
    ax.set_ylabel("modelled time per page (us)")
    ax.set_title("Fig. 6.6: DRAM access cost (emulated drive)")
    ax.legend()
    ax.grid(alpha=.3)
    save(fig, "fig6_6.png")
if f67:
    cmds = list(dict.fromkeys(r["command"] for r in f67))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, t in zip(axes, ("emu", "unix")):
        rs = {r["command"]: r for r in f67 if r["transport"] == t}
        xs = range(len(cmds))
        link = [float(rs[c]["modelled_link_us"]) for c in cmds]
        p50 = [float(rs[c]["wall_p50_us"]) for c in cmds]
        p99 = [float(rs[c]["wall_p99_us"]) for c in cmds]
        ax.bar([i - 0.2 for i in xs], link, 0.4, label="modelled link (raw I/O)")
        ax.bar([i + 0.2 for i in xs], p50, 0.4, label="wall p50 via Java + JNI",
               yerr=[[0] * len(p50), [b - a for a, b in zip(p50, p99)]], capsize=3)
        ax.set_xticks(list(xs))
        ax.set_xticklabels(cmds, rotation=20)
        ax.set_title("Fig. 6.7: %s:" % t)
        ax.set_ylabel("us per command (whisker: p99)")
        ax.legend(fontsize=8)
    save(fig, "fig6_7.png")
if f68:
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, q in zip(axes, ("Q1", "Q2")):
        w = 0.27
        for k, v in enumerate(VERSIONS):
            ys = [float(r["modelled_s"]) for es in sizes for r in f68
                  if r["query"] == q and r["version"] == v and int(r["entry_size"]) == es]
            ax.bar([i + (k - 1) * w for i in range(len(sizes))], ys, w, label=v, color=COLORS[v])
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels(["%d B" % s for s in sizes])
        ax.set_ylabel("modelled time (s)")
        ax.set_title("Fig. 6.8(%s): %s, %s entries" % ("a" if q == "Q1" else "b", q,
                                                       f68[0]["entries"]))
        ax.legend(fontsize=8)
    save(fig, "fig6_8.png")
if f69:
    es = max(sizes)
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, q in zip(axes, ("Q1", "Q2")):
        rs = [r for v in VERSIONS for r in f69
              if r["query"] == q and r["version"] == v and int(r["entry_size"]) == es]
        u = [float(r["user_pct"]) for r in rs]
        s = [float(r["system_pct"]) for r in rs]
        i = [float(r["idle_pct"]) for r in rs]
        xs = range(len(rs))
        ax.bar(xs, u, label="user")
        ax.bar(xs, s, bottom=u, label="system")
        ax.bar(xs, i, bottom=[a + b for a, b in zip(u, s)], label="idle")
        ax.set_xticks(list(xs))
        ax.set_xticklabels([r["version"] for r in rs])
        ax.set_ylabel("% of all cores (/proc/stat)")
        ax.set_title("Fig. 6.9: %s, %d B entries" % (q, es))
        ax.legend(fontsize=8)
    save(fig, "fig6_9.png")
if f610:
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    ax = axes[0]
    phases = ["wr", "pause", "exec"]
    es = max(sizes)
    for k, v in enumerate(VERSIONS):
        rs = {r["phase"]: r for r in f610 if r["version"] == v and int(r["entry_size"]) == es}
        ax.bar([i + (k - 1) * 0.27 for i in range(3)],
               [float(rs[p]["host_w"]) + float(rs[p]["device_w"]) for p in phases], 0.27,
               label=v, color=COLORS[v])
    ax.set_xticks(range(3))
    ax.set_xticklabels(phases)
    ax.set_ylabel("system power (W, modelled)")
    ax.set_title("Fig. 6.10: Q1 power per phase, %d B" % es)
    ax.legend(fontsize=8)
    ax = axes[1]
    for k, v in enumerate(VERSIONS):
        ys = [float(r["host_j"]) + float(r["device_j"]) for s in sizes for r in f610
              if r["version"] == v and r["phase"] == "exec" and int(r["entry_size"]) == s]
        ax.bar([i + (k - 1) * 0.27 for i in range(len(sizes))], ys, 0.27, label=v,
               color=COLORS[v])
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels(["%d B" % s for s in sizes])
    ax.set_ylabel("exec-phase energy (J, modelled)")
    ax.set_title("Fig. 6.10: Q1 exec energy")
    ax.legend(fontsize=8)
    save(fig, "fig6_10.png")
