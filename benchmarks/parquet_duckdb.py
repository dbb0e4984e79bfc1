#!/usr/bin/env python3
"""The Parquet benchmark's fourth way: DuckDB (PyPI duckdb, pinned in requirements.txt) over
the file:// copy, the queries ParquetSuite wrote to queries.tsv (%s the table). Wall clock:
the median of RUNS runs of each query, on one connection (as Spark's runs share a session).
Answers in ParquetSuite's canonical form (ParquetSuite.answer): each row's values' decimal or
string forms joined by tabs (\\N for NULL), the lines sorted, each ended by a newline, SHA-256,
first 16 hex digits. Appends to duckdb.csv in OUT.

    parquet_duckdb.py OUT COPY_DIR RUNS
"""
import csv
import hashlib
import statistics
import sys
import time

import duckdb


def canonical(rows):
    lines = sorted("\t".join("\\N" if v is None else str(v) for v in r) for r in rows)
    d = hashlib.sha256()
    for line in lines:
        d.update((line + "\n").encode("utf-8"))
    return len(lines), d.hexdigest()[:16]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    out, copy, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    table = "read_parquet('%s/*.parquet')" % copy.replace("'", "''")
    con = duckdb.connect()
    con.execute("SET threads TO 2")  # Spark's local[2]
    with open(f"{out}/queries.tsv", encoding="utf-8") as f:
        queries = [line.rstrip("\n").split("\t", 1) for line in f if line.strip()]
    with open(f"{out}/duckdb.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["query", "way", "wall_s", "wall_min_s", "wall_max_s", "answer_rows",
                    "answer", "duckdb_version"])
        for name, sql in queries:
            walls, answers = [], set()
            for _ in range(runs):
                t0 = time.perf_counter()
                rows = con.execute(sql.replace("%s", table)).fetchall()
                walls.append(time.perf_counter() - t0)
                answers.add(canonical(rows))
            if len(answers) != 1:
                sys.exit(f"duckdb: {name} answered differently from run to run: {answers}")
            n, digest = answers.pop()
            w.writerow([name, "duckdb", f"{statistics.median(walls):.6g}",
                        f"{min(walls):.6g}", f"{max(walls):.6g}", n, digest,
                        duckdb.__version__])
            print(f"{name}: duckdb {statistics.median(walls):.3f} s, {n} rows", file=sys.stderr)


if __name__ == "__main__":
    main()
