#!/usr/bin/env python3
"""The Parquet benchmark's summary: parquet.csv (ParquetSuite), duckdb.csv
(parquet_duckdb.py), sweep.csv and data.csv in OUT -> summary.md, and parquet_sweep.png
when matplotlib is there. Checks that the four ways answered alike in every cell (exit 7
otherwise) and marks each goal of issue #33 §3 met or not met.

    plot_parquet.py OUT LABEL
"""
import csv
import sys
from collections import defaultdict

WAYS = ["connector", "spark-smartssd", "spark-file", "duckdb"]


def read(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def num(v):
    return float(v) if v not in ("", None) else None


def main():
    out, label = sys.argv[1], sys.argv[2]
    rows = read(f"{out}/parquet.csv") + read(f"{out}/duckdb.csv")
    cells = defaultdict(dict)
    for r in rows:
        cells[r["query"]][r["way"]] = r
    data = read(f"{out}/data.csv")
    md = [f"# Parquet benchmark ({label})", ""]
    d0 = data[0]
    raw = sum(int(d["uncompressed_bytes"]) for d in data)
    md.append(f"Table: {int(d0['rows']):,} rows, {d0['files']} files, {d0['row_groups']} row "
              f"groups, {int(d0['file_bytes']) / 1e6:.1f} MB of snappy Parquet "
              f"({raw / 1e6:.1f} MB of pages uncompressed); per column, compressed MB: "
              + ", ".join(f"{d['column']} {int(d['compressed_bytes']) / 1e6:.1f}" for d in data)
              + ".")
    md.append("")
    md.append("| query | way | wall s (median; min-max) | modelled s | link-only s | link MB "
              "| energy J (host + drive) | answer rows | answer |")
    md.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
    same_all = True
    for q, ws in cells.items():
        ref = ws["connector"]["answer"] if "connector" in ws else None
        for w in WAYS:
            r = ws.get(w)
            if r is None:
                md.append(f"| {q} | {w} | missing | | | | | | |")
                same_all = False
                continue
            same = r["answer"] == ref
            same_all &= same
            e = ""
            if num(r.get("host_j")) is not None:
                e = f"{num(r['host_j']) + num(r['device_j']):.2f}"
            modelled = f"{num(r['modelled_s']):.4f}" if num(r.get("modelled_s")) else ""
            link = f"{num(r['link_s']):.4f}" if num(r.get("modelled_s")) else ""
            lb = f"{int(r['link_bytes']) / 1e6:.2f}" if r.get("link_bytes") not in (None, "") \
                else ""
            md.append(f"| {q} | {w} | {num(r['wall_s']):.2f} ({num(r['wall_min_s']):.2f}-"
                      f"{num(r['wall_max_s']):.2f}) | {modelled} | {link} | {lb} | {e} | "
                      f"{r['answer_rows']} | `{r['answer']}`{'' if same else ' DIFFERS'} |")
    md.append("")
    md.append("answers " + ("identical across the four ways in every cell" if same_all
                            else "DIFFER"))
    md.append("")

    goals = []
    auto_ok, lines = True, []
    complete = {q: ws for q, ws in cells.items() if all(w in ws for w in WAYS)}
    if len(complete) < len(cells):
        auto_ok = False
        lines.append("not measured: " + ", ".join(q for q in cells if q not in complete))
    for q, ws in complete.items():
        c, p = num(ws["connector"]["modelled_s"]), num(ws["spark-smartssd"]["modelled_s"])
        ok = c <= 1.05 * p
        auto_ok &= ok
        lines.append(f"{q} {p / c:.2f}x")
    goals.append(("modelled: the connector (placement=auto) never more than 5 % slower than "
                  "Spark's reader over the drive", auto_ok, "; ".join(lines) +
                  " (Spark's reader over the drive / connector)"))
    s = complete.get("selective")
    if s:
        c, p = s["connector"], s["spark-smartssd"]
        speed = num(p["modelled_s"]) / num(c["modelled_s"])
        ec = num(c["host_j"]) + num(c["device_j"])
        ep = num(p["host_j"]) + num(p["device_j"])
        goals.append(("modelled, selective query: connector >= 2x faster", speed >= 2,
                      f"{speed:.2f}x"))
        goals.append(("modelled, selective query: connector <= 50 % of the energy",
                      ec <= 0.5 * ep, f"{100 * ec / ep:.1f} % ({ec:.2f} J / {ep:.2f} J)"))
    wall_ok, lines = len(complete) == len(cells), []
    for q, ws in complete.items():
        r = num(ws["spark-file"]["wall_s"]) / num(ws["connector"]["wall_s"])
        wall_ok &= r >= 2
        lines.append(f"{q} {r:.2f}x (DuckDB {num(ws['duckdb']['wall_s']):.2f} s)")
    goals.append(("wall clock: connector >= 2x faster than Spark's reader on file://",
                  wall_ok, "; ".join(lines)))
    md.append("| goal | | measured |")
    md.append("|---|---|---|")
    for g, ok, why in goals:
        md.append(f"| {g} | **{'met' if ok else 'not met'}** | {why} |")
    md.append("")

    try:
        sweep = read(f"{out}/sweep.csv")
    except FileNotFoundError:
        sweep = []
    if sweep:
        by = defaultdict(dict)
        for r in sweep:
            by[(float(r["selectivity"]), int(r["columns"]))][r["way"]] = r
            same_all &= r["identical"] == "true"
        cols = sorted({k[1] for k in by})
        sels = sorted({k[0] for k in by})
        md.append("Sweep, modelled: Spark's reader over the drive / connector "
                  "(> 1: the drive wins), `SELECT <columns> WHERE clientID <= X`:")
        md.append("")
        md.append("| quantile of clientID (rows matched) | " + " | ".join(f"{c} column{'s' if c > 1 else ''}"
                                                   for c in cols) + " |")
        md.append("|---:|" + "---:|" * len(cols))
        total = int(d0["rows"])
        for s_ in sels:
            share = int(by[(s_, cols[0])]["connector"]["answer_rows"]) / total
            cellv = []
            for c in cols:
                x = by[(s_, c)]
                ratio = num(x["spark-smartssd"]["modelled_s"]) / num(x["connector"]["modelled_s"])
                cellv.append(f"{ratio:.2f}x")
            md.append(f"| {100 * s_:g} % ({100 * share:.2f} %) | " + " | ".join(cellv) + " |")
        md.append("")
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            fig, ax = plt.subplots(figsize=(6, 4))
            for c in cols:
                ys = [num(by[(s_, c)]["spark-smartssd"]["modelled_s"])
                      / num(by[(s_, c)]["connector"]["modelled_s"]) for s_ in sels]
                xs = [100 * int(by[(s_, c)]["connector"]["answer_rows"]) / total for s_ in sels]
                ax.plot(xs, ys, marker="o", label=f"{c} columns")
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_xscale("log")
            ax.set_xlabel("selectivity, % of rows")
            ax.set_ylabel("modelled: Spark reader over the drive / connector")
            ax.set_title(f"Parquet in the drive: the crossover ({label})", fontsize=9)
            ax.legend(fontsize=8)
            fig.tight_layout()
            fig.savefig(f"{out}/parquet_sweep.png", dpi=120)
        except ImportError:
            pass
    with open(f"{out}/summary.md", "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))
    sys.exit(0 if same_all else 7)


if __name__ == "__main__":
    main()
